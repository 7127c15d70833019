"""The table server's error messages in the player's language (en, de, nl, it).

The texts are gettext msgids of the ``ramsli`` catalogs (``scripts/i18n.py``
extracts them from this file); :func:`message` translates one for one
connection without touching the language of the process (each connection has
its own). The engine's refusals (``Hand.why_illegal``) are rendered by their code with
:func:`ramsli.frontends.i18n.render_refusal`.

>>> message("de", "stale_seq", seq=4)
'der Tisch ist schon weiter (jetzt bei 4); spiele auf dem aktuellen Stand'
>>> from ramsli.refusal import Refusal
>>> message("en", "illegal", refusal=Refusal("must_follow", "R4.10", {"suit": "H"}))
'must follow suit: play ♥ (R4.10)'
"""

from __future__ import annotations

import gettext as _gettext
from typing import Any

from ramsli.frontends import i18n
from ramsli.frontends.i18n import N_
from ramsli.refusal import Refusal

__all__ = ["MESSAGES", "message", "translator"]

#: protocol error code -> English text (a msgid); fields in braces
MESSAGES: dict[str, str] = {
    "bad_json": N_("the message is not a JSON object with a type"),
    "too_big": N_("the message is longer than {limit} bytes and was ignored"),
    "unknown_type": N_("unknown message type {kind}; allowed are hello, act, ping"),
    "bad_message": N_("the message lacks a field or a field has the wrong kind: {detail}"),
    "no_hello": N_("say hello with your seat token first"),
    "bad_token": N_("this token belongs to no seat of this table; use your invite link"),
    "no_table": N_("there is no table {table}"),
    "table_broken": N_("table {table} could not be restored from the database and is unavailable"),
    "replaced": N_("your seat was opened in another window; this one is closed"),
    "rate_limited": N_("too many messages; at most {limit} a second"),
    "rate_limited_act": N_("too many messages (at most {limit} a second): {action} was not played; send it again"),
    "spectator": N_("a spectator cannot act"),
    "not_sitting": N_("this link does not play a seat: sit down with it first, or open the link you sat down with"),
    "pending_seat": N_("you take over seat {seat} from the next hand; until then a bot plays it"),
    "seat_taken": N_("someone already sits at seat {seat}; open the link you sat down with"),
    "not_started": N_("the session has not started yet"),
    "session_over": N_("the session is over"),
    "started": N_("the session has already started"),
    "stale_seq": N_("the table has moved on (now at {seq}); act on the current view"),
    "bad_action": N_("{action} is not an action; write e.g. p2 in, p2 out, p2 pl AS (R4.12)"),
    "not_your_seat": N_("you play seat {seat} only"),
    "not_seated": N_("a bot plays this seat until you take it over at the next deal"),
    "bad_name": N_("a name is 1 to {max} characters of text without control characters (R2.2)"),
    "name_taken": N_("the name {name} is already at this table (R2.2)"),
    "bot_name": N_("the name {name} looks like a bot's seat; choose a name of your own (R2.2)"),
    "bad_spec": N_("the table cannot be made: {detail}"),
    "no_hand": N_("hand {number} is not finished or does not exist"),
    "storage": N_("the table could not save this move; nothing changed, try again"),
}


def translator(lang: str) -> _gettext.NullTranslations:
    """The gettext translations of ``lang`` (English for an unknown language)."""
    return i18n.translation(lang)


def message(lang: str, code: str, **fields: Any) -> str:
    """The text of error ``code`` in ``lang``; ``illegal`` renders the engine's ``refusal`` by its
    code (:func:`~ramsli.frontends.i18n.render_refusal`), in ``lang`` only: the process's own
    language is never switched."""
    refusal = fields.get("refusal")
    if code == "illegal" and isinstance(refusal, Refusal):
        return i18n.render_refusal(refusal, translations=translator(lang))
    text = translator(lang).gettext(MESSAGES.get(code, code))
    try:
        return text.format(**{k: v for k, v in fields.items()})
    except (KeyError, IndexError, ValueError):
        return text
