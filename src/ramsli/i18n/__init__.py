"""The languages ramsli speaks and their gettext catalogs, in one place.

:data:`LANGUAGES` is the one list of languages: a :class:`Language` per language (its code,
its own name for the language picker, the Babel locale its numbers are written in). Everything
else is derived from it: :data:`LANGS` (the codes, English first), :class:`Lang` (the choices of
every ``--lang`` option), :data:`PICKER` (``(code, own name)`` pairs the server sends to the
page), and the catalogs :func:`translation` loads.

English is the source language: the texts in the code are the English ones (gettext msgids)
and it has no catalog. Every other language has one catalog, compiled from
``ramsli/i18n/locale/<code>/LC_MESSAGES/ramsli.po`` (``scripts/i18n.py`` maintains them with
Babel). Adding a language is one :class:`Language` entry here plus its catalog
(CONTRIBUTING.md, *Adding a language*).

This package imports nothing else of ramsli and reads no file at import: every layer may use
it. A catalog is read when it is first asked for.

>>> LANGS
('en', 'de', 'nl', 'it', 'fr')
>>> PICKER[1], Lang("nl").value, language("it").name
(('de', 'Deutsch'), 'nl', 'Italiano')
>>> translation("de").gettext("dealer"), translation("fr").gettext("dealer"), translation("sv").gettext("dealer")
('Geber', 'donneur', 'dealer')
"""

from __future__ import annotations

import functools
import gettext as _gettext
import os
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

__all__ = [
    "Language",
    "LANGUAGES",
    "LANGS",
    "SOURCE",
    "CATALOG_LANGS",
    "PICKER",
    "Lang",
    "DOMAIN",
    "LOCALE_DIR",
    "language",
    "babel_locale",
    "catalog_path",
    "translation",
    "catalog_language",
    "detect_language",
    "choices_text",
]


@dataclass(frozen=True, slots=True)
class Language:
    """One language ramsli speaks.

    Attributes:
        code: the ISO 639-1 code (``"de"``): the catalog's folder, the value of ``--lang`` and
            ``?lang=``, and what a save and a ``hello`` message hold.
        name: the language's name in itself (``"Deutsch"``), shown in the page's picker.
        locale: the Babel locale whose number format the language uses (``1.000.000`` in
            ``de``); default the code.
    """

    code: str
    name: str
    locale: str = ""

    @property
    def number_locale(self) -> str:
        """The Babel locale of this language's numbers (:attr:`locale`, else the code)."""
        return self.locale or self.code


#: the languages, the source language (English, no catalog) first; the one list of them
LANGUAGES: tuple[Language, ...] = (
    Language("en", "English"),
    Language("de", "Deutsch"),
    Language("nl", "Nederlands"),
    Language("it", "Italiano"),
    Language("fr", "Français"),
)

#: the source language: the texts in the code, no catalog
SOURCE = "en"
#: the language codes, English first
LANGS: tuple[str, ...] = tuple(lang.code for lang in LANGUAGES)
#: the codes of the languages with a catalog (every one but the source language)
CATALOG_LANGS: tuple[str, ...] = tuple(code for code in LANGS if code != SOURCE)
#: ``(code, own name)`` of every language, in order: the page's language picker
PICKER: tuple[tuple[str, str], ...] = tuple((lang.code, lang.name) for lang in LANGUAGES)

#: the choices of a ``--lang`` option (``typer`` shows and checks them): one member per code
Lang = StrEnum("Lang", [(code, code) for code in LANGS])  # type: ignore[misc]

#: the gettext domain of every catalog
DOMAIN = "ramsli"
#: the folder of the catalogs: ``<LOCALE_DIR>/<code>/LC_MESSAGES/ramsli.mo``
LOCALE_DIR = Path(__file__).parent / "locale"

_BY_CODE: Mapping[str, Language] = {lang.code: lang for lang in LANGUAGES}


def language(code: str) -> Language:
    """The :class:`Language` of ``code``.

    Raises:
        ValueError: for a code not in :data:`LANGS` (the message lists them).
    """
    try:
        return _BY_CODE[code]
    except KeyError:
        raise ValueError(f"language {code!r} is not available; allowed are {choices_text()}") from None


def choices_text() -> str:
    """The codes as a person reads a list of choices: ``"en, de, nl, it, fr"``."""
    return ", ".join(LANGS)


def babel_locale(code: str | None) -> str:
    """The Babel locale the numbers of ``code`` are written in; English's for another code.

    >>> babel_locale("de"), babel_locale("xx"), babel_locale(None)
    ('de', 'en', 'en')
    """
    lang = _BY_CODE.get(code or SOURCE) or _BY_CODE[SOURCE]
    return lang.number_locale


def catalog_path(code: str, suffix: str = ".po") -> Path:
    """The file of ``code``'s catalog: ``LOCALE_DIR/<code>/LC_MESSAGES/ramsli.po`` (or ``.mo``)."""
    return LOCALE_DIR / code / "LC_MESSAGES" / f"{DOMAIN}{suffix}"


def translation(code: str) -> _gettext.NullTranslations:
    """The catalog of ``code`` (English, the texts as written, for the source language and for a
    code not in :data:`LANGS`), read once and cached. It is a value: no process-wide language is
    set, so a server answers each request in its own language."""
    return _translation(code if code in _BY_CODE else SOURCE)


@functools.cache
def _translation(code: str) -> _gettext.NullTranslations:
    if code == SOURCE:
        return _gettext.NullTranslations()
    return _gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[code], fallback=True)


def catalog_language(tr: _gettext.NullTranslations) -> str:
    """The language of a catalog (its header's ``Language``); the source language for one without.

    >>> catalog_language(translation("nl")), catalog_language(translation("en"))
    ('nl', 'en')
    """
    code = tr.info().get("language", SOURCE) if isinstance(tr, _gettext.GNUTranslations) else SOURCE
    return code if code in _BY_CODE else SOURCE


def detect_language(env: Mapping[str, str] | None = None) -> str:
    """The player's language from the locale environment, else ``"en"``.

    Looks at ``LANGUAGE`` (a colon list), ``LC_ALL``, ``LC_MESSAGES`` and ``LANG`` in the order
    gettext does, and returns the first of :data:`LANGS` found (``de_CH.UTF-8`` gives ``"de"``).

    >>> detect_language({"LANGUAGE": "sv:nl", "LANG": "en_US"}), detect_language({"LANG": "sv_SE"})
    ('nl', 'en')
    >>> detect_language({"LANG": "fr_BE.UTF-8"})
    'fr'
    """
    env = os.environ if env is None else env
    for var in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(var, "")
        if not value:
            continue
        for part in value.split(":"):
            code = part.strip().split(".")[0].split("@")[0].split("_")[0].lower()
            if code in _BY_CODE:
                return code
        if var != "LANGUAGE" and value not in ("C", "POSIX"):
            return SOURCE  # a set locale that is not ours: English
    return SOURCE
