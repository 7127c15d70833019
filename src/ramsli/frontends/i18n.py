"""The front ends' words: the process's language, ``_()`` and friends, refusals rendered by code.

The languages and their gettext catalogs are :mod:`ramsli.i18n`'s (:data:`~ramsli.i18n.LANGS`,
:func:`~ramsli.i18n.translation`); this module is how a front end shows them. The words are
those of RULES.md R9 (de: rein/raus, Stich, Trumpf, Pott, Bete, Geber; nl: mee/pas, slag, troef,
pot, deler; it: dentro/fuori, presa, briscola, piatto, mazziere).

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
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from ramsli.bots.refusals import REFUSALS as BOT_REFUSALS
from ramsli.i18n import DOMAIN, LANGS, LOCALE_DIR, babel_locale, catalog_language, detect_language, translation
from ramsli.i18n import language as _language_of
from ramsli.refusal import (
    CARD_FIELDS,
    NUMBER_FIELDS,
    SEAT_FIELDS,
    SUIT_FIELDS,
    Refusal,
    RefusalText,
    collect,
    number_text,
    seat_text,
)
from ramsli.refusal import REFUSALS as ENGINE_REFUSALS

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
    "render_refusal",
    "sentence_case",
    "REFUSALS",
    "translation",
    "number_words",
]

#: the refusal codes a front end renders and their texts: the engine's and the bots'
REFUSALS: Mapping[str, RefusalText] = MappingProxyType(collect(ENGINE_REFUSALS, BOT_REFUSALS))

_current: _gettext.NullTranslations = _gettext.NullTranslations()
_lang = "en"


def set_language(lang: str) -> str:
    """Use the catalog of ``lang`` (one of :data:`~ramsli.i18n.LANGS`) from now on; returns ``lang``.

    Raises:
        ValueError: for a language without a catalog (the message lists them).
    """
    global _current, _lang
    _language_of(lang)
    _current = translation(lang)
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


# -- refusals (ramsli.refusal) in the player's language ------------------------------------------


def render_refusal(
    refusal: Refusal,
    *,
    translations: _gettext.NullTranslations | None = None,
    seat_label: Callable[[int], str] | None = None,
    card_label: Callable[[str], str] | None = None,
    suit_label: Callable[[str], str] | None = None,
    reader: int | None = None,
    with_rule: bool = True,
    texts: Mapping[str, RefusalText] | None = None,
) -> str:
    """A :class:`~ramsli.refusal.Refusal` in the reader's language, rendered by its code.

    The code's msgid in ``texts`` (its ``you`` text when ``reader`` is the refusal's ``seat``) is
    translated by the catalogs and filled with the fields, each shown by its kind (see
    :mod:`ramsli.refusal`): no English sentence is taken apart. A code ``texts`` does not declare
    reads as its English fallback.

    Args:
        refusal: the record.
        translations: the catalog to use (the server passes one per connection); default the
            language set with :func:`set_language`.
        seat_label: ``f(seat index) -> str`` to show a seat (default ``p1``...).
        card_label: ``f(card text "AS") -> str`` to show a card (default unchanged).
        suit_label: ``f(suit letter) -> str`` to show a suit (default the French symbol).
        reader: the reading player's seat: a refusal about that seat says "you".
        with_rule: append the rule id in parentheses.
        texts: the codes and their texts (default :data:`REFUSALS`, the engine's and the bots'; the
            server passes :data:`ramsli.server.protocol.messages.REFUSALS`).

    >>> from ramsli.refusal import Refusal
    >>> render_refusal(Refusal("must_follow", "R4.10", {"suit": "H"}))
    'Must follow suit: play ♥ (R4.10)'
    >>> de = translation("de")
    >>> render_refusal(Refusal("not_held", "R4.10", {"seat": 1, "card": "AS"}), translations=de, reader=1)
    'Du hast AS nicht (R4.10)'

    A bound (``most``) is grouped in the reader's way (:func:`number_words`):

    >>> big = Refusal("option_too_large", "R3.3", {"option": "ante", "given": "'10000000000'", "most": 10**9})
    >>> render_refusal(big, translations=de)
    "Option 'ante': '10000000000' ist zu groß; erlaubt sind höchstens 1.000.000.000 Chips (R3.3)"
    """
    tr = _current if translations is None else translations
    texts = REFUSALS if texts is None else texts
    seat_label = seat_label or seat_text
    try:
        msgid, forms = refusal.template(reader, texts), refusal.plural(reader, texts)
        template = sentence_case(tr.ngettext(msgid, *forms) if forms else tr.gettext(msgid))
    except KeyError:
        text = sentence_case(refusal.text(reader, texts))
    else:
        values: dict[str, Any] = {}
        for name, value in refusal.fields.items():
            if name in SEAT_FIELDS and type(value) is int:
                values[name] = seat_label(value)
            elif name in CARD_FIELDS:
                values[name] = card_label(str(value)) if card_label else str(value)
            elif name in SUIT_FIELDS:
                values[name] = suit_label(str(value)) if suit_label else _SUIT_SYMBOLS.get(str(value), str(value))
            elif name in NUMBER_FIELDS and type(value) is int:
                values[name] = number_words(value, catalog_language(tr))
            else:
                values[name] = value
        try:
            text = template.format(**values)
        except (KeyError, IndexError, ValueError):
            text = sentence_case(refusal.text(reader, texts))
    return f"{text} ({refusal.rule})" if with_rule and refusal.rule else text


def sentence_case(text: str) -> str:
    """``text`` as a person reads a sentence: its first character upper case when it is a lower-case
    letter, the rest unchanged. A refusal is shown as a sentence in every language; a text that
    opens with a name (a ``{seat}`` placeholder, a quote) keeps the name as written.

    >>> sentence_case("must follow suit: play {suit}"), sentence_case("{seat} is out"), sentence_case("ça")
    ('Must follow suit: play {suit}', '{seat} is out', 'Ça')
    """
    return text[:1].upper() + text[1:] if text[:1].islower() else text


def number_words(x: int, lang: str | None = None) -> str:
    """A whole number as a reader of ``lang`` (default the language in use) reads it: digits
    grouped by Babel's ``format_decimal`` in that language (en ``1,000,000,000``, de, nl, it
    ``1.000.000.000``), a huge power of ten as ``10^30`` (:func:`ramsli.refusal.number_text`).

    >>> number_words(10**9, "en"), number_words(10**9, "de"), number_words(10**30, "it")
    ('1,000,000,000', '1.000.000.000', '10^30')
    """
    locale = babel_locale(_lang if lang is None else lang)

    def group(n: int) -> str:
        from babel.numbers import format_decimal  # local: Babel's number data only when a bound is shown

        return str(format_decimal(n, locale=locale))

    return number_text(x, group)


_SUIT_SYMBOLS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
