#!/usr/bin/env python3
"""Maintain the gettext catalogs (``src/ramsli/i18n/locale``) with Babel.

    python scripts/i18n.py extract   # the SOURCES -> src/ramsli/i18n/locale/ramsli.pot
    python scripts/i18n.py update    # merge the .pot into every language's .po (new strings empty)
    python scripts/i18n.py compile   # .po -> .mo (refuses fuzzy or empty translations)
    python scripts/i18n.py check     # exit 1 if any catalog is incomplete or a .mo is stale
    python scripts/i18n.py all       # extract, update, compile
    python scripts/i18n.py fill LANG FILE.json...  # empty msgstrs of LANG's .po from translations

Marked strings: ``_()``, ``N_()``, ``NP_()`` (a refusal's plural text), ``ngettext()`` and ``pgettext()`` in
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
import json
import re
import string
import sys
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src" / "ramsli"
KEYWORDS = {"_": None, "N_": None, "NP_": (1, 2), "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
SOURCES = [
    SRC / "refusal.py",
    SRC / "cli.py",
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


#: a ``%`` placeholder: ``%s``, ``%d``, ``%(name)s``, ``%.1f`` (``%%`` is a literal per cent sign; no space
#: flag, so that "{p} % des donnes" is a per cent sign and a word)
_PERCENT = re.compile(r"%(?:\(([A-Za-z_][A-Za-z0-9_]*)\))?[-+#0]*\d*(?:\.\d+)?([sdifr%])")


def placeholders(text: str) -> tuple[frozenset[str], tuple[str, ...]]:
    """The placeholders of a text: the names of its brace fields (``{name}``, ``{n:,}`` -> ``n``;
    ``str.format`` and the pages' ``fmt``) and its ``%`` placeholders in order (``%s``, ``%(x)s``).
    A text that is no valid format string has its ``{...}`` runs as they stand.

    >>> placeholders("{n:,} counters for %(who)s, %d%%")
    (frozenset({'n'}), ('%(who)s', '%d'))
    """
    try:
        fields = frozenset(
            f.split(".")[0].split("[")[0] for _, f, _, _ in string.Formatter().parse(text) if f is not None
        )
    except ValueError:  # an unmatched brace: compare the raw runs
        fields = frozenset(re.findall(r"\{[^{}]*\}", text))
    percent = tuple(m.group(0) for m in _PERCENT.finditer(text) if m.group(2) != "%")
    return fields, percent


def read_translations(path: Path) -> list[dict[str, object]]:
    """The entries ``{"id", "ctx", <lang>}`` of a translations file: one JSON list, or (a file still
    being written) several lists or objects one after the other; an unreadable tail is ignored."""
    text = path.read_text(encoding="utf-8")
    dec = json.JSONDecoder()
    out: list[dict[str, object]] = []
    i = 0
    while True:
        while i < len(text) and text[i] in " \t\r\n,":
            i += 1
        if i >= len(text):
            break
        try:
            value, i = dec.raw_decode(text, i)
        except json.JSONDecodeError:
            print(f"{path}: unreadable from character {i}; the rest is skipped", file=sys.stderr)
            break
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, dict) and "id" in item:
                out.append(item)
    return out


def fill(lang: str, files: list[Path], overwrite: bool = False, po: Path | None = None) -> int:
    """Fill the empty msgstrs of ``lang``'s catalog from translation files (entries ``{"id", "ctx",
    lang}``: ``id`` the msgid, a list ``[singular, plural]`` for a plural message, ``ctx`` its context
    or null, ``lang`` the translation, a list of the catalog's number of forms for a plural).

    An entry is refused, and the message left as it was, when its placeholders (``{name}``,
    ``%(x)s``, ``%s``) differ from the msgid's (from the plural msgid's for every form of a
    plural), its forms do not match the message, or the catalog has no such message. With
    ``overwrite`` a translation replaces one already there. ``po`` is the catalog's file (default
    the language's own). Returns 1 if an entry was refused."""
    path = _po(lang) if po is None else po
    with path.open("rb") as f:
        cat = read_po(f, locale=lang)
    filled = kept = 0
    refused: list[str] = []
    for file in files:
        for e in read_translations(file):
            mid, ctx, tr = e["id"], e.get("ctx") or None, e.get(lang)
            key = mid[0] if isinstance(mid, list) and mid else mid
            m = cat.get(key, context=ctx) if isinstance(key, str) else None
            if m is None:
                refused.append(f"not in the catalog: {mid!r} (context {ctx!r})")
                continue
            plural = isinstance(m.id, (list, tuple))
            forms = tr if isinstance(tr, list) else [tr]
            want_n = cat.num_plurals if plural else 1
            if (
                (isinstance(tr, list) != plural)
                or len(forms) != want_n
                or not all(isinstance(s, str) and s for s in forms)
            ):
                refused.append(f"wrong forms ({want_n} wanted): {key!r} -> {tr!r}")
                continue
            want = placeholders(m.id[-1] if plural else m.id)
            bad = [s for s in forms if placeholders(s) != want]
            if bad:
                refused.append(f"placeholders differ: {key!r} {sorted(want[0])}{list(want[1])} -> {bad[0]!r}")
                continue
            has = all(m.string) if plural else bool(m.string)
            if has and not overwrite:
                kept += 1
                continue
            m.string = tuple(forms) if plural else forms[0]
            m.flags.discard("fuzzy")
            filled += 1
    buf = io.BytesIO()
    write_po(buf, cat, width=100, sort_output=True, ignore_obsolete=True)
    path.write_bytes(buf.getvalue())
    empty = sum(1 for m in cat if m.id and not (all(m.string) if isinstance(m.id, (list, tuple)) else m.string))
    print("\n".join(f"{lang}: refused: {r}" for r in refused), file=sys.stderr)
    print(f"{path.name} ({lang}): {filled} filled, {kept} kept, {len(refused)} refused, {empty} still empty")
    return 1 if refused else 0


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
    elif cmd == "fill" and len(argv) > 3 and argv[2] in LANGS:
        args = [a for a in argv[3:] if a != "--overwrite"]
        return fill(argv[2], [Path(a) for a in args], overwrite="--overwrite" in argv)
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
