"""Translations of every text a player sees (issue #3), through gettext catalogs.

The catalogs live in ``ramsli/locale/<lang>/LC_MESSAGES/ramsli.mo`` and are
maintained with Babel (``scripts/i18n.py``). The words are those of RULES.md R9
(de: rein/raus, Stich, Trumpf, Pott, Bete, Geber; nl: mee/pas, slag, troef, pot,
deler; it: dentro/fuori, presa, briscola, piatto, mazziere).

Use :func:`set_language` once, then ``_("text")`` (marked for extraction),
``ngettext`` and ``pgettext`` anywhere in the front ends.

>>> set_language("de")
'de'
>>> _("dealer")
'Geber'
>>> ngettext("{n} trick", "{n} tricks", 2).format(n=2)
'2 Stiche'
>>> set_language("en") and _("dealer")
'dealer'
"""

from __future__ import annotations

import gettext as _gettext
import os
import re
from collections.abc import Mapping
from pathlib import Path

__all__ = [
    "LANGS",
    "LOCALE_DIR",
    "DOMAIN",
    "detect_language",
    "set_language",
    "language",
    "_",
    "N_",
    "ngettext",
    "pgettext",
    "translate_reason",
]

#: languages with a catalog (en is the source language)
LANGS = ("en", "de", "nl", "it")
DOMAIN = "ramsli"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_lang = "en"


def detect_language(env: Mapping[str, str] | None = None) -> str:
    """The player's language from the locale environment, else ``"en"``.

    Looks at ``LANGUAGE`` (a colon list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG``
    in the order gettext does, and returns the first of :data:`LANGS` found
    (``de_CH.UTF-8`` gives ``"de"``).
    """
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.strip().split(".")[0].split("@")[0].split("_")[0].lower()
            if code in LANGS:
                return code
        if var != "LANGUAGE" and value not in ("C", "POSIX"):
            return "en"  # a set locale that is not ours: English
    return "en"


def set_language(lang: str) -> str:
    """Use the catalog of ``lang`` (one of :data:`LANGS`) from now on; returns ``lang``.

    Raises:
        ValueError: for a language without a catalog (the message lists them).
    """
    global _current, _lang
    if lang not in LANGS:
        raise ValueError(f"language {lang!r} is not available; allowed are {', '.join(LANGS)}")
    if lang == "en":
        _current = _gettext.NullTranslations()
    else:
        _current = _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)
    _lang = lang
    return lang


def language() -> str:
    """The language in use."""
    return _lang


def _(message: str) -> str:
    """Translate ``message`` into the language in use."""
    return _current.gettext(message)


def N_(message: str) -> str:
    """Mark ``message`` for extraction without translating it now."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    """Translate with a plural form chosen by ``n``."""
    return _current.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """Translate ``message`` in ``context`` (e.g. ``"command"`` for typed command words)."""
    return _current.pgettext(context, message)


# -- the engine's reasons (hand.why_illegal) in the player's language ------------------------------

_SUIT_SYM = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}


def _reason_patterns() -> list[tuple[re.Pattern[str], str]]:
    # msgids are marked with N_ so that Babel extracts them; translated at use.
    pats = [
        (r"the hand is over", N_("the hand is over")),
        (r"(?P<p>p\d) is not seated in this hand", N_("{p} is not seated in this hand")),
        (r"it is (?P<p>p\d)'s turn, not (?P<q>p\d)'s", N_("it is {p}'s turn, not {q}'s")),
        (r"declare in or out first", N_("declare in or out first")),
        (
            r"everyone before the dealer is out, so the dealer must be in",
            N_("everyone before the dealer is out, so the dealer must be in"),
        ),
        (r"announce General Rams \(gr\) or pass first", N_("announce General Rams (gr) or pass first")),
        (
            r"target 5 is not offered when General Rams is on; allowed are 2, 3, 4",
            N_("target 5 is not offered when General Rams is on; allowed are 2, 3, 4"),
        ),
        (r"announce a target \(t2\.\.t5\) or pass first", N_("announce a target (2 to 5) or pass first")),
        (r"the declarations are over; play a card", N_("the declarations are over; play a card")),
        (r"(?P<p>p\d) does not hold (?P<card>\S+)", N_("{p} does not hold {card}")),
        (r"the cards of (?P<p>p\d) are recorded as unknown \(\?\?\)", N_("the cards of {p} are recorded as unknown")),
        (
            r"must overtrump: play a trump higher than the highest trump in the trick \((?P<t>.)\)",
            N_("must overtrump: play a trump higher than the highest trump in the trick ({trump})"),
        ),
        (r"must follow suit (?P<s>.)", N_("must follow suit: play {suit}")),
        (r"void in (?P<s>.), so must trump \((?P<t>.)\)", N_("no {suit} in your hand, so you must trump ({trump})")),
        (r"not playable", N_("not playable")),
    ]
    return [(re.compile("^" + p + "$"), m) for p, m in pats]


_PATTERNS = _reason_patterns()

#: the reasons about the reading player's own seat in the second person (issue #12: one way of naming the human)
_YOURS = {
    "{p} is not seated in this hand": N_("you are not seated in this hand"),
    "{p} does not hold {card}": N_("you do not hold {card}"),
    "the cards of {p} are recorded as unknown": N_("your cards are recorded as unknown"),
}


def translate_reason(
    reason: str, rule: str, seat_label=None, card_label=None, suit_label=None, human: str | None = None
) -> str:
    """The engine's English reason (``hand.why_illegal``) in the language in use, with the rule id.

    Args:
        reason: the engine's reason text.
        rule: the rule id, e.g. ``"R4.10"``.
        seat_label: ``f(seat_text) -> str`` to show seats (``"p2"``) by name; default unchanged.
        card_label: ``f(card_text) -> str`` to show a card (``"AS"``); default unchanged.
        suit_label: ``f(suit_letter) -> str`` to show a suit; default the French symbol.
        human: the seat text (``"p1"``) of the player reading: reasons about that seat say "you".

    Returns:
        e.g. ``"must follow suit: play ♥ (R4.10)"``; an unknown reason is shown in English.

    >>> set_language("en")
    'en'
    >>> translate_reason("must follow suit ♥", "R4.10")
    'must follow suit: play ♥ (R4.10)'
    """
    seat_label = seat_label or (lambda s: s)
    card_label = card_label or (lambda c: c)
    suit_label = suit_label or (lambda s: {v: k for k, v in _SUIT_SYM.items()}[s])
    for pat, msgid in _PATTERNS:
        m = pat.match(reason)
        if m is None:
            continue
        g = m.groupdict()
        if human is not None and g.get("p") == human and msgid in _YOURS:
            msgid = _YOURS[msgid]
        elif human is not None and g.get("q") == human and "q" in g:
            msgid = N_("it is {p}'s turn, not yours")
        fields = {}
        if "p" in g:
            fields["p"] = seat_label(g["p"])
        if "q" in g:
            fields["q"] = seat_label(g["q"])
        if "card" in g:
            fields["card"] = card_label(g["card"])
        if "s" in g:
            fields["suit"] = suit_label(_SUIT_SYM[g["s"]])
        if "t" in g:
            fields["trump"] = suit_label(_SUIT_SYM[g["t"]])
        return f"{_(msgid).format(**fields)} ({rule})"
    return f"{reason} ({rule})"
