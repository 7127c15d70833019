"""The shell of every page: the HTML that loads a page's script with its catalog and data.

:func:`shell` makes a page (the lobby, a table, a club, the ledger, the coach's pages all use it),
:func:`catalog` the compiled Babel catalog of a language as JSON-ready data, and :data:`WEB_DIR` /
:data:`STATIC_TYPES` say where the pages' files are and which kinds are served, and
:func:`service_worker_source` the text of the service worker with the server's facts written in.
The routes of the pages are in :mod:`ramsli.server.web.routes`.
"""

from __future__ import annotations

import functools
import html
import json
import re
from pathlib import Path
from typing import Any

from babel.messages.mofile import read_mo
from fastapi.responses import HTMLResponse

from ramsli.i18n import SOURCE, catalog_path, language
from ramsli.server.cluster.prefix import current_prefix
from ramsli.server.web.facts import page_facts

__all__ = [
    "WEB_DIR",
    "STATIC_TYPES",
    "MODULE_PAGES",
    "SW_FACTS",
    "catalog",
    "json_script",
    "shell",
    "service_worker_source",
]

#: where the HTML, CSS and JavaScript of the pages live (package data)
WEB_DIR = Path(__file__).resolve().parent / "static"
#: the pages whose ``{kind}.js`` is an ES module (it imports ``{kind}-*.js``); the others are classic scripts
MODULE_PAGES = frozenset({"table", "evening"})

#: file suffix -> media type of the files of :data:`WEB_DIR` that are served; no other file is
STATIC_TYPES = {
    ".js": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".webmanifest": "application/manifest+json",
    ".html": "text/html; charset=utf-8",
}


@functools.lru_cache(maxsize=8)
def catalog(lang: str) -> dict[str, Any]:
    """The compiled catalog of ``lang`` as a JSON-ready dict (empty for English, the source language).

    Keys are msgids; plural entries map the singular msgid to ``[one, many]``; entries with a
    context are keyed ``context + "\\x04" + msgid`` (as gettext does).

    Raises:
        ValueError: for a language without a catalog.
    """
    language(lang)
    if lang == SOURCE:
        return {}
    with open(catalog_path(lang, ".mo"), "rb") as f:
        cat = read_mo(f)
    out: dict[str, Any] = {}
    for m in cat:
        if not m.id:
            continue
        key = m.id[0] if isinstance(m.id, (tuple, list)) else m.id
        if m.context:
            key = m.context + "\x04" + key
        out[key] = list(m.string) if isinstance(m.string, (tuple, list)) else m.string
    return out


#: what :func:`json_script` writes as a JSON ``\uXXXX`` escape: the characters that could end or change the
#: ``<script>`` element (``</script>``, ``<!--``, ``-->``, an entity) and the line separators that
#: older JavaScript parsers take for line ends
_SCRIPT_ESCAPES = {"<": "\\u003c", ">": "\\u003e", "&": "\\u0026", "\u2028": "\\u2028", "\u2029": "\\u2029"}
_SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029]")


def json_script(data: Any) -> str:
    """``data`` as JSON text safe inside ``<script type="application/json">``: ``<``, ``>``, ``&``,
    U+2028 and U+2029 are written as ``\\uXXXX`` escapes (the same value to ``JSON.parse``), so
    no text in it (a seat named ``<!--<script>`` or ``</script>``, issue 38.6) can end the element
    or switch the HTML parser into a script state that swallows the rest of the page.

    >>> json_script({"name": "<!--<script>", "x": "a&b"})
    '{"name": "\\\\u003c!--\\\\u003cscript\\\\u003e", "x": "a\\\\u0026b"}'
    """
    return _SCRIPT_UNSAFE.sub(lambda m: _SCRIPT_ESCAPES[m.group()], json.dumps(data, ensure_ascii=False))


def shell(kind: str, lang: str, title: str, page: dict[str, Any], status: int = 200) -> HTMLResponse:
    """A page: the shell that loads ``web/common.js``, ``web/cards.js`` and ``web/{kind}.js`` (as an
    ES module for :data:`MODULE_PAGES`), with the catalog of ``lang`` and the page's data ``page``
    rendered in, the server's facts (:func:`ramsli.server.web.facts.page_facts`) as its ``facts``.
    Its links start with the server's path prefix (:func:`ramsli.server.cluster.prefix.current_prefix`),
    given to the scripts as ``base``."""
    base = current_prefix()
    page = dict(page, lang=lang, kind=kind, base=base, facts=page_facts())
    module = ' type="module"' if kind in MODULE_PAGES else ""
    body = (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f'<title>{html.escape(title)}</title><link rel="stylesheet" href="{base}/static/style.css">'
        f'<link rel="icon" href="{base}/static/icon.svg" type="image/svg+xml">'
        f'<link rel="manifest" href="{base}/manifest.webmanifest"><meta name="theme-color" content="#1f6b43">'
        f'<link rel="apple-touch-icon" href="{base}/static/icon-192.png"></head>'
        f'<body class="page-{kind}">'
        f'<script type="application/json" id="ramsli-catalog">{json_script(catalog(lang))}</script>'
        f'<script type="application/json" id="ramsli-page">{json_script(page)}</script>'
        '<div id="app"></div><div id="toast" class="toast" role="status" aria-live="polite"></div>'
        f'<script src="{base}/static/common.js"></script><script src="{base}/static/cards.js"></script>'
        f'<script{module} src="{base}/static/{kind}.js"></script></body></html>'
    )
    return HTMLResponse(body, status_code=status)


#: the placeholder in ``web/sw.js`` that :func:`service_worker_source` replaces with the worker's facts
SW_FACTS = "/* the server's facts */ null"


def service_worker_source() -> str:
    """The text of ``web/sw.js`` with its facts in place of :data:`SW_FACTS`: ``{"languages": [...],
    "modules": [...]}``, the codes of the languages (an offline page is kept for each) and the
    ``{kind}-*.js`` modules of :data:`MODULE_PAGES` (cached with the other static files).

    Raises:
        RuntimeError: if ``sw.js`` lost its placeholder.
    """
    text = (WEB_DIR / "sw.js").read_text(encoding="utf-8")
    if SW_FACTS not in text:
        raise RuntimeError(f"web/static/sw.js has no {SW_FACTS!r} to replace")
    modules = sorted(f.name for kind in sorted(MODULE_PAGES) for f in WEB_DIR.glob(f"{kind}-*.js"))
    facts = {"languages": [lang["code"] for lang in page_facts()["languages"]], "modules": modules}
    return text.replace(SW_FACTS, json.dumps(facts), 1)
