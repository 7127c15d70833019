"""The language of a request: which of the languages a page or an error answer is written in.

Every page, and every error answer of the HTTP API, gets its language from ``?lang=`` (one of
:data:`ramsli.i18n.LANGS`), else the browser's ``Accept-Language``, else English:
:func:`page_lang` from the two values, :func:`request_lang` from a request.

>>> page_lang("de", "")
'de'
>>> page_lang(None, "nl-BE,nl;q=0.9,en;q=0.8")
'nl'
>>> page_lang("xx", "")
'en'
"""

from __future__ import annotations

from fastapi import Request

from ramsli.i18n import LANGS

__all__ = ["page_lang", "request_lang"]


def page_lang(query: str | None, accept: str | None) -> str:
    """The language of a page: ``query`` if it is one of ``LANGS`` (in any case), else the one of ``LANGS`` an
    ``Accept-Language`` header weighs highest (``q``, default 1; ``q=0`` is "not this one"; ties
    in the header's order), else ``"en"``.

    >>> page_lang(None, "en;q=0.1, de;q=0.9"), page_lang(None, "de;q=0, it"), page_lang("NL", None)
    ('de', 'it', 'nl')
    """
    code = (query or "").strip().lower()  # language codes are case-insensitive (?lang=DE)
    if code in LANGS:
        return code
    best, best_q = "en", 0.0
    for part in (accept or "").split(",")[:40]:
        tag, *params = part.split(";")
        code = tag.strip().split("-")[0].lower()
        q = 1.0
        for p in params:
            name, _, value = p.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if code in LANGS and q > best_q and q <= 1.0:
            best, best_q = code, q
    return best


def request_lang(request: Request) -> str:
    """The language a request asks for: ``?lang=``, else ``Accept-Language``, else ``en``."""
    return page_lang(request.query_params.get("lang"), request.headers.get("accept-language"))
