#!/usr/bin/env python3
"""Maintain the gettext catalogs (``src/ramsli/i18n/locale``) with Babel.

    python scripts/i18n.py extract   # the SOURCES -> src/ramsli/i18n/locale/ramsli.pot
    python scripts/i18n.py update    # merge the .pot into every language's .po (new strings empty)
    python scripts/i18n.py compile   # .po -> .mo (refuses fuzzy or empty translations)
    python scripts/i18n.py check     # exit 1 if any catalog is incomplete or a .mo is stale
    python scripts/i18n.py all       # extract, update, compile

Marked strings: ``_()``, ``N_()``, ``ngettext()`` and ``pgettext()`` in
``src/ramsli/frontends``, ``src/ramsli/commands/play.py``, ``src/ramsli/commands/review.py``, ``commands/skill.py``,
``src/ramsli/coach`` (the coach's lines) and ``src/ramsli/server`` (its refusal texts in
``server/protocol/messages.py``), the refusal texts of the engine (``refusal.py``) and of the bots
(``bots/refusals.py``), the texts of ``commands/verify.py`` and ``commands/replay_cmd.py``, and the same functions in the browser
pages' scripts and modules, ``src/ramsli/server/web/static/**/*.js``.

The languages are those of :data:`ramsli.i18n.LANGUAGES` with a catalog
(:data:`ramsli.i18n.CATALOG_LANGS`): ``update`` makes the ``.po`` of a language added there.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "ramsli"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
SOURCES = [
    SRC / "refusal.py",
    SRC / "bots" / "refusals.py",
    SRC / "frontends",
    SRC / "commands" / "play.py",
    SRC / "commands" / "review.py",
    SRC / "commands" / "skill.py",
    SRC / "commands" / "verify.py",
    SRC / "commands" / "replay_cmd.py",
    SRC / "coach",
    SRC / "server",
]
WEB = SRC / "server" / "web" / "static"

sys.path.insert(0, str(ROOT / "src"))  # this checkout's ramsli, installed or not
from ramsli import __version__ as VERSION  # noqa: E402 - after the path it needs
from ramsli.i18n import CATALOG_LANGS as LANGS  # noqa: E402 - after the path it needs

#: this checkout's catalogs (the folder of ramsli.i18n.LOCALE_DIR)
LOCALE = SRC / "i18n" / "locale"
POT = LOCALE / "ramsli.pot"


def messages() -> Catalog:
    """Every marked text of the SOURCES and the page scripts, as a catalog (nothing written)."""
    cat = Catalog(
        project="ramsli", version=VERSION, copyright_holder="the ramsli authors", msgid_bugs_address="", charset="utf-8"
    )
    for src in SOURCES:
        files = sorted(src.rglob("*.py")) if src.is_dir() else [src]
        for f in files:
            for lineno, message, comments, context in extract_from_file("python", str(f), keywords=KEYWORDS):
                cat.add(message, None, [(str(f.relative_to(ROOT)), lineno)], auto_comments=comments, context=context)
    for f in sorted(WEB.rglob("*.js")):  # the pages' strings, sub-folders too
        for lineno, message, comments, context in extract_from_file("javascript", str(f), keywords=KEYWORDS):
            cat.add(message, None, [(str(f.relative_to(ROOT)), lineno)], auto_comments=comments, context=context)
    return cat


def extract() -> Catalog:
    cat = messages()
    LOCALE.mkdir(parents=True, exist_ok=True)
    buf = io.BytesIO()
    write_po(buf, cat, width=100, omit_header=False, sort_output=True)
    POT.write_bytes(buf.getvalue())
    print(f"{POT.relative_to(ROOT)}: {len(cat)} messages")
    return cat


def _po(lang: str) -> Path:
    return LOCALE / lang / "LC_MESSAGES" / "ramsli.po"


def update() -> None:
    with POT.open("rb") as f:
        template = read_po(f)
    for lang in LANGS:
        path = _po(lang)
        if path.exists():
            with path.open("rb") as f:
                cat = read_po(f, locale=lang)
        else:
            cat = Catalog(locale=lang, project="ramsli", version=VERSION, charset="utf-8")
        cat.update(template, no_fuzzy_matching=True)
        cat.project, cat.version = template.project, template.version  # the header follows a new release
        path.parent.mkdir(parents=True, exist_ok=True)
        buf = io.BytesIO()
        write_po(buf, cat, width=100, sort_output=True, ignore_obsolete=True)
        path.write_bytes(buf.getvalue())
        print(f"{path.relative_to(ROOT)}: {len(cat)} messages")


def problems(lang: str) -> list[str]:
    """Untranslated, empty or fuzzy messages of one catalog."""
    with _po(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    out = []
    for m in cat:
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, (list, tuple)) else [m.id]
        strs = m.string if isinstance(m.string, (list, tuple)) else [m.string]
        if m.fuzzy:
            out.append(f"{lang}: fuzzy: {ids[0]!r}")
        if not strs or any(not s for s in strs):
            out.append(f"{lang}: untranslated: {ids[0]!r}")
    with POT.open("rb") as f:
        template = read_po(f)
    for m in template:
        if m.id and cat.get(m.id, context=m.context) is None:
            out.append(f"{lang}: missing: {m.id!r}")
    return out


def _mo_bytes(lang: str) -> bytes:
    with _po(lang).open("rb") as f:
        cat = read_po(f, locale=lang)
    buf = io.BytesIO()
    write_mo(buf, cat, use_fuzzy=False)
    return buf.getvalue()


def compile_() -> None:
    bad = [p for lang in LANGS for p in problems(lang)]
    if bad:
        print("\n".join(bad), file=sys.stderr)
        raise SystemExit(f"{len(bad)} problems: translate them first")
    for lang in LANGS:
        mo = _po(lang).with_suffix(".mo")
        mo.write_bytes(_mo_bytes(lang))
        print(f"{mo.relative_to(ROOT)} written")


def check() -> int:
    bad = [p for lang in LANGS for p in problems(lang)]
    for lang in LANGS:
        mo = _po(lang).with_suffix(".mo")
        if not mo.exists() or mo.read_bytes() != _mo_bytes(lang):
            bad.append(f"{lang}: {mo.relative_to(ROOT)} is missing or older than the .po (run compile)")
    print("\n".join(bad) if bad else "catalogs complete and compiled")
    return 1 if bad else 0


def main(argv: list[str]) -> int:
    cmd = argv[1] if len(argv) > 1 else "all"
    if cmd == "extract":
        extract()
    elif cmd == "update":
        update()
    elif cmd == "compile":
        compile_()
    elif cmd == "check":
        return check()
    elif cmd == "all":
        extract()
        update()
        compile_()
    else:
        print(__doc__)
        return 2
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
