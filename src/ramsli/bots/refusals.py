"""Refusals of a bot spec (``make_bot``, ``--bots``, a table's seat): data, rendered by their code.

A bad spec raises :class:`BotSpecError`, a ``ValueError`` whose message is the English text and
whose :attr:`~BotSpecError.refusal` is the :class:`~ramsli.refusal.Refusal` a front end renders in
the reader's language (:func:`ramsli.frontends.i18n.render_refusal`). Its fields are names,
numbers and the spec as given, never words: the lists of allowed bots, levels and options are
names joined by commas, and every word around them is in the catalogs.

>>> e = BotSpecError("unknown_bot", bot="'hardd'", bots="random, tips", levels="easy, hard")
>>> str(e)
"unknown bot 'hardd'; allowed are random, tips, or a level: easy, hard (weakest first)"
>>> e.refusal.code, isinstance(e, ValueError)
('unknown_bot', True)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ramsli.refusal import N_, Refusal, RefusalText

__all__ = ["BotSpecError", "REFUSALS"]

#: the refusals of a bot spec and their English texts (gettext msgids): the bots' table
REFUSALS: Mapping[str, RefusalText] = {
    "unknown_bot": RefusalText(N_("unknown bot {bot}; allowed are {bots}, or a level: {levels} (weakest first)")),
    "unknown_bot_case": RefusalText(
        N_(
            "unknown bot {bot} (names are lower case: {lower}); allowed are {bots}, or a level: {levels} (weakest first)"
        )
    ),
    "level_options": RefusalText(
        N_(
            "level {level} takes no options (it stands for the bot {bot}); name a bot for other budgets, "
            "e.g. montecarlo:samples=64"
        )
    ),
    "bot_option_syntax": RefusalText(N_("bot option {option} is not key=value (in {spec})")),
    "bot_option_twice": RefusalText(N_("bot option {option} is given twice (in {spec}); give each option once")),
    "bot_option_bool": RefusalText(N_("bot {bot} option {option}: {value} is not true or false (e.g. {example})")),
    "bot_option_int": RefusalText(N_("bot {bot} option {option}: {value} is not a whole number (e.g. {example})")),
    "bot_option_number": RefusalText(N_("bot {bot} option {option}: {value} is not a number (e.g. {example})")),
    "bot_option_range": RefusalText(
        N_("bot {bot} option {option}={value} is out of range: allowed is {low}..{high} (e.g. {example})")
    ),
    "bot_option_unknown": RefusalText(
        N_("bot {bot} has no option {option}; its options are {options} (e.g. {example})")
    ),
    "bot_option_none": RefusalText(N_("bot {bot} has no option {option}; it takes no options")),
    "bot_options_refused": RefusalText(N_("bot {bot} refuses the options of {spec}; its options are {options}")),
}


class BotSpecError(ValueError):
    """A bot spec refused: ``ValueError(English text)`` with the :attr:`refusal` record.

    Args:
        code: one of :data:`REFUSALS`.
        fields: the message's fields: names (a bot, an option, lists of names joined by ", "),
            numbers and the spec or value as given (quoted with ``repr``).
    """

    def __init__(self, code: str, **fields: Any) -> None:
        self.refusal = Refusal(code, None, fields)
        super().__init__(self.refusal.text(texts=REFUSALS))
