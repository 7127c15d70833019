"""What an evening prints and publishes (issue 34, items 1, 5 and 6): pure functions over plain data.

Every function here reads the evening as the reader may see it (the state of ``GET
/api/evenings/{id}``, ``docs/evenings.md``) or the club's list of evenings, and writes bytes or
text; none reads a database, a clock (unless given one) or the network, and none holds a card
(R7, D-16): an evening's state has none.

- :func:`sheets_pdf`: the prints of the evening as a PDF (``fpdf2``): the table lists of every
  round drawn (seats in order, mode, captain), then one **score sheet** per real-card table
  (hand by hand, the dealer, a blank cell per player, a check digit per row);
- :func:`row_check`: the check digit of one row of a score sheet (the Damm digit,
  :func:`ramsli.evening.check.damm_digit`), which the pub ledger of that table shows for the same hand;
- :func:`qr_svg`: the QR code of the evening's standing link as SVG (``segno``, drawn here);
- :func:`standings_csv`: the standings as CSV, safe to open in a spreadsheet
  (:func:`spreadsheet_safe`);
- :func:`ics_feed`: a club's evenings as an iCalendar feed (``icalendar``), a weekly series as a
  ``RRULE``; :func:`next_occurrence`: the next evening of a weekly series, in the series' own
  time zone (:func:`parse_starts`).

``docs/evenings-print.md`` says what each print holds and what the check digit is for.

>>> row_check("k3x9", 1, 2, 7)
'4'
>>> spreadsheet_safe("=HYPERLINK(1)"), spreadsheet_safe("Anna")
("'=HYPERLINK(1)", 'Anna')
"""

from __future__ import annotations

import datetime as dt
import functools
import io
import math
import os
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import icalendar
import segno

from ramsli.evening.check import row_check
from ramsli.i18n import translation
from ramsli.seats import parse_seat
from ramsli.server.protocol.csvcells import spreadsheet_safe
from ramsli.server.protocol.csvcells import writer as csv_writer

if TYPE_CHECKING:
    from fpdf import FPDF

__all__ = [
    "TableLine",
    "RoundList",
    "SheetRow",
    "ScoreSheet",
    "table_lists",
    "score_sheets",
    "PdfFonts",
    "CORE_FONTS",
    "FONT_ENV",
    "find_fonts",
    "sheets_pdf",
    "qr_svg",
    "spreadsheet_safe",
    "standings_csv",
    "parse_starts",
    "next_occurrence",
    "ics_feed",
    "EVENING_HOURS",
]

# -- what is printed, as data ---------------------------------------------------------------------


@dataclass(frozen=True)
class TableLine:
    """One table of a round's list: its number, title, seats in order (names), mode and captain's name."""

    number: int
    title: str
    seats: tuple[str, ...]
    mode: str
    captain: str | None


@dataclass(frozen=True)
class RoundList:
    """The list of one drawn round: its number, title, tables and the names of the players on a bye."""

    round: int
    title: str
    tables: tuple[TableLine, ...]
    byes: tuple[str, ...]


@dataclass(frozen=True)
class SheetRow:
    """One row of a score sheet: hand number (1-based), the dealer's name, the check digit."""

    hand: int
    dealer: str
    check: str


@dataclass(frozen=True)
class ScoreSheet:
    """The score sheet of one real-card table: round, table number, titles, seats, captain, rows."""

    round: int
    table: int
    round_title: str
    table_title: str
    seats: tuple[str, ...]
    captain: str | None
    rows: tuple[SheetRow, ...]


_Gettext = Callable[[str], str]


def _names(state: Mapping[str, Any]) -> dict[str, str]:
    """Participant id -> name, from the state's people and every seat drawn."""
    out: dict[str, str] = {}
    for p in state.get("people") or ():
        if p.get("id") is not None:
            out[str(p["id"])] = str(p.get("name") or p["id"])
    for r in state.get("rounds_played") or ():
        for t in r.get("tables") or ():
            for s in t.get("seats") or ():
                if s.get("id") is not None and s.get("name"):
                    out.setdefault(str(s["id"]), str(s["name"]))
    return out


def _seat_index(seat: Any) -> int:
    """A seat of the evening's state (``"p1"``, R2.2) or a bare index, 0-based; unreadable: last."""
    if isinstance(seat, int) and not isinstance(seat, bool):
        return seat
    try:
        return parse_seat(str(seat))
    except ValueError:
        return 99


def _seat_names(table: Mapping[str, Any], names: Mapping[str, str]) -> tuple[str, ...]:
    seats = sorted(table.get("seats") or (), key=lambda s: _seat_index(s.get("seat", 0)))
    return tuple(str(s.get("name") or names.get(str(s.get("id")), s.get("id") or "?")) for s in seats)


def _captain(table: Mapping[str, Any], names: Mapping[str, str]) -> str | None:
    c = table.get("captain")
    if c is None:
        return None
    if isinstance(c, Mapping):
        return str(c.get("name") or names.get(str(c.get("id")), c.get("id") or "?"))
    return names.get(str(c), str(c))


def _round_title(r: Mapping[str, Any], _: _Gettext) -> str:
    if r.get("kind") == "final":
        return _("Final round")
    return _("Round {n}").format(n=r.get("round", "?"))


def _table_title(t: Mapping[str, Any], _: _Gettext) -> str:
    name = str(t.get("name") or "").strip().lower().replace("_", " ")
    if name == "final":
        return _("Final")
    if name == "small final":
        return _("Small final")
    return _("Table {n}").format(n=t.get("number", "?"))


def _mode(mode: Any, _: _Gettext) -> str:
    return _("real cards") if mode == "cards" else _("online")


def _hands(table: Mapping[str, Any], size: int, hands_per_round: int) -> int:
    """The hands a table plays: its own ``hands``, else the round's hands made a multiple of the size
    (everyone deals equally often, issue 34 item 3)."""
    h = table.get("hands")
    if isinstance(h, int) and h > 0:
        return h
    return math.ceil(hands_per_round / size) * size if size else 0


def table_lists(state: Mapping[str, Any], lang: str = "en") -> list[RoundList]:
    """The table list of every round drawn so far, in the reader's language.

    >>> st = {"rounds_played": [{"round": 1, "kind": "qualifying", "byes": ["c"], "tables": [
    ...     {"number": 1, "mode": "cards", "captain": "a", "seats": [
    ...         {"seat": 0, "id": "a", "name": "Ann"}, {"seat": 1, "id": "b", "name": "Bo"}]}]}],
    ...     "people": [{"id": "c", "name": "Cy"}]}
    >>> lists = table_lists(st)
    >>> lists[0].title, lists[0].tables[0].seats, lists[0].tables[0].captain, lists[0].byes
    ('Round 1', ('Ann', 'Bo'), 'Ann', ('Cy',))
    """
    _ = translation(lang).gettext
    names = _names(state)
    out = []
    for r in state.get("rounds_played") or ():
        tables = []
        for t in sorted(r.get("tables") or (), key=lambda t: int(t.get("number", 0))):
            tables.append(
                TableLine(
                    number=int(t.get("number", 0)),
                    title=_table_title(t, _),
                    seats=_seat_names(t, names),
                    mode=_mode(t.get("mode"), _),
                    captain=_captain(t, names),
                )
            )
        byes = tuple(names.get(str(b), str(b)) for b in r.get("byes") or ())
        out.append(RoundList(int(r.get("round", 0)), _round_title(r, _), tuple(tables), byes))
    return out


def score_sheets(state: Mapping[str, Any], lang: str = "en") -> list[ScoreSheet]:
    """One score sheet per real-card table (mode ``cards``) of every round drawn.

    The dealer of hand k is seat (k - 1) mod N of the draw: the first hand is dealt by seat 1 of the
    draw and the deal passes clockwise (R3.2). The table's real first dealer is found by the cut (R3.1)
    when it sits down, so the sheet says so (:func:`sheets_pdf`); hand numbers and check digits do
    not depend on it.

    >>> st = {"id": "k3x9", "hands_per_round": 3, "rounds_played": [{"round": 1, "tables": [
    ...     {"number": 2, "mode": "cards", "seats": [
    ...         {"seat": 0, "id": "a", "name": "Ann"}, {"seat": 1, "id": "b", "name": "Bo"}]}]}]}
    >>> [(r.hand, r.dealer, r.check) for r in score_sheets(st)[0].rows]
    [(1, 'Ann', '8'), (2, 'Bo', '9'), (3, 'Ann', '0'), (4, 'Bo', '1')]
    """
    _ = translation(lang).gettext
    names = _names(state)
    evening = str(state.get("id", ""))
    hpr = int(state.get("hands_per_round") or 0)
    out = []
    for r in state.get("rounds_played") or ():
        rnd = int(r.get("round", 0))
        for t in sorted(r.get("tables") or (), key=lambda t: int(t.get("number", 0))):
            if t.get("mode") != "cards":
                continue
            seats = _seat_names(t, names)
            number = int(t.get("number", 0))
            rows = tuple(
                SheetRow(k, seats[(k - 1) % len(seats)], row_check(evening, rnd, number, k))
                for k in range(1, _hands(t, len(seats), hpr) + 1)
            )
            out.append(ScoreSheet(rnd, number, _round_title(r, _), _table_title(t, _), seats, _captain(t, names), rows))
    return out


# -- fonts ----------------------------------------------------------------------------------------

#: an environment variable naming the TrueType fonts of the PDF: the regular face, then (after the
#: path separator, ``:`` or ``;``) the bold face and any fallbacks for other scripts (``ttf``, ``otf``, ``ttc``)
FONT_ENV = "RAMSLI_PDF_FONT"

_FONT_DIRS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.fonts",
    "~/.local/share/fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
    "C:/Windows/Fonts",
)
#: (regular, bold) faces with Latin, Greek and Cyrillic, the first found is used
_FACES = (
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("LiberationSans-Regular.ttf", "LiberationSans-Bold.ttf"),
    ("NotoSans-Regular.ttf", "NotoSans-Bold.ttf"),
    ("FreeSans.ttf", "FreeSansBold.ttf"),
    ("Arial.ttf", "Arial Bold.ttf"),
    ("arial.ttf", "arialbd.ttf"),
)
#: fallbacks for the scripts those lack (Chinese, Japanese, Korean), each used if found
_WIDE = ("NotoSansCJK-Regular.ttc", "DroidSansFallbackFull.ttf", "DroidSansFallback.ttf", "wqy-microhei.ttc")


@dataclass(frozen=True)
class PdfFonts:
    """The fonts of a PDF: TrueType files (None: the PDF's core font Helvetica, Latin-1 only)."""

    regular: str | None = None
    bold: str | None = None
    fallbacks: tuple[str, ...] = ()


#: the PDF's built-in Helvetica: no file needed, Latin-1 only (other characters are transliterated)
CORE_FONTS = PdfFonts()


@functools.cache
def _font_files() -> dict[str, str]:
    """File name -> path of every font file under the usual folders (walked once a process)."""
    wanted = {f for pair in _FACES for f in pair} | set(_WIDE)
    found: dict[str, str] = {}
    for d in _FONT_DIRS:
        root = Path(d).expanduser()
        if not root.is_dir():
            continue
        for dirpath, _dirs, files in os.walk(root):
            for f in files:
                if f in wanted:
                    found.setdefault(f, os.path.join(dirpath, f))
    return found


def find_fonts(env: Mapping[str, str] | None = None) -> PdfFonts:
    """The fonts the PDF is written in: those of :data:`FONT_ENV` if set, else the first of DejaVu Sans,
    Liberation Sans, Noto Sans, FreeSans, Arial found in the system's font folders (with a CJK
    fallback if one is there), else :data:`CORE_FONTS`. Never raises."""
    env = os.environ if env is None else env
    named = [p for p in env.get(FONT_ENV, "").replace(";", os.pathsep).split(os.pathsep) if p and os.path.isfile(p)]
    if named:
        return PdfFonts(named[0], named[1] if len(named) > 1 else None, tuple(named[2:]))
    try:
        files = _font_files()
    except OSError:
        return CORE_FONTS
    wide = tuple(files[f] for f in _WIDE if f in files)
    for regular, bold in _FACES:
        if regular in files:
            return PdfFonts(files[regular], files.get(bold), wide)
    return CORE_FONTS


#: characters outside Latin-1 that have a plain Latin-1 stand-in (others fall back to NFKD, then "?")
_PLAIN = str.maketrans(
    {
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "Œ": "OE",
        "œ": "oe",
        "ı": "i",
        "—": "-",
        "–": "-",
        "‘": "'",
        "’": "'",
        "“": '"',
        "”": '"',
        "…": "...",
        "€": "EUR",
        "→": "->",
    }
)


def _latin1(text: str) -> str:
    """``text`` in Latin-1: stand-ins for a few letters, accents dropped where the letter is not in
    Latin-1 (``Ş`` -> ``S``), ``?`` for the rest.

    >>> _latin1("Łukasz 山田 Zoë Ünal Şule — ok")
    'Lukasz ?? Zoë Ünal Sule - ok'
    """
    out = []
    for ch in text.translate(_PLAIN):
        if ord(ch) < 256:
            out.append(ch)
            continue
        base = "".join(c for c in unicodedata.normalize("NFKD", ch) if not unicodedata.combining(c))
        out.append(base if base and all(ord(c) < 256 for c in base) else "?")
    return "".join(out)


@functools.cache
def _pdf_class() -> Any:
    """The PDF class of the prints (a subclass of ``fpdf.FPDF``): ``fpdf`` (with fontTools and numpy,
    half a second) is imported the first time a PDF is written, not when the server starts."""
    from fpdf import FPDF

    class _Pdf(FPDF):
        """An A4 page with the evening's footer (its name and the page number)."""

        footer_text = ""

        def footer(self) -> None:
            self.set_y(-12)
            self.set_font(size=8)
            self.set_text_color(90)
            self.cell(0, 5, self.footer_text.replace("{page}", str(self.page_no())), align="C")
            self.set_text_color(0)

    return _Pdf


def _bold_headings() -> Any:
    """The table headings' style (fpdf's ``FontFace``, bold)."""
    from fpdf.fonts import FontFace

    return FontFace(emphasis="BOLD")


class _Writer:
    """The PDF being written and how its text is made printable in its fonts."""

    def __init__(self, fonts: PdfFonts, title: str, lang: str, compress: bool) -> None:
        self.pdf = pdf = _pdf_class()(orientation="portrait", unit="mm", format="A4")
        pdf.set_compression(compress)
        pdf.set_margins(15, 15, 15)
        pdf.set_auto_page_break(True, margin=16)
        pdf.set_creator("ramsli")
        pdf.set_lang(lang)
        self.family = "helvetica"
        self.cmaps: list[Mapping[int, Any]] = []
        self._wrapped: dict[tuple[str, float, bool], list[str]] = {}
        if fonts.regular is not None:
            try:
                pdf.add_font("ramsli", "", fonts.regular)
                pdf.add_font("ramsli", "B", fonts.bold or fonts.regular)
                self.family = "ramsli"
                self.cmaps.append(_cmap(pdf, "ramsli"))
            except Exception:  # noqa: BLE001 - an unreadable font file: the core font, never a failed print
                self.family = "helvetica"
                self.cmaps = []
            wide = []
            for k, path in enumerate(fonts.fallbacks if self.family == "ramsli" else ()):
                try:
                    pdf.add_font(f"wide{k}", "", path)
                except Exception:  # noqa: BLE001 - a fallback that cannot be read is left out
                    continue
                wide.append(f"wide{k}")
                self.cmaps.append(_cmap(pdf, f"wide{k}"))
            if wide:
                pdf.set_fallback_fonts(wide, exact_match=False)
        pdf.set_title(self.text(title))
        pdf.set_font(self.family, size=10)

    def text(self, s: str) -> str:
        """``s`` with every character the fonts cannot draw replaced (``?``; Latin-1 stand-ins for the core font)."""
        if not self.cmaps:
            return _latin1(s)
        return "".join(
            ch if ch.isspace() or any(ord(ch) in cmap for cmap in self.cmaps) else "?" for ch in _no_controls(s)
        )

    def font(self, size: float, bold: bool = False) -> None:
        self.pdf.set_font(self.family, "B" if bold else "", size)

    def line(self, s: str, size: float = 10, bold: bool = False, height: float = 5.5) -> None:
        """A paragraph, left-aligned, wrapped to the page's width (the same paragraph on every score
        sheet is wrapped once: fpdf2's line breaking is most of a long PDF's time)."""
        self.font(size, bold)
        key = (s, size, bold)
        lines = self._wrapped.get(key)
        if lines is None:
            got = self.pdf.multi_cell(0, height, self.text(s), align="L", dry_run=True, output="LINES")
            lines = self._wrapped[key] = [str(x) for x in got] if isinstance(got, list) else [self.text(s)]
        for text in lines:
            self.pdf.cell(0, height, text, new_x="LMARGIN", new_y="NEXT")


def _cmap(pdf: FPDF, key: str) -> Mapping[int, Any]:
    """The characters (code points) the TrueType font ``key`` of ``pdf`` draws."""
    from fpdf.fonts import TTFFont

    font = pdf.fonts[key]
    return font.cmap if isinstance(font, TTFFont) else {}


def _no_controls(s: str) -> str:
    return "".join(" " if unicodedata.category(c) in ("Cc", "Cf") else c for c in s)


def _starts_text(starts: Any) -> str:
    """The evening's start as printed: ``2026-12-10 20:00`` (its own local time), or the text as given."""
    if not starts:
        return ""
    try:
        return f"{parse_starts(str(starts))[0]:%Y-%m-%d %H:%M}"
    except ValueError:
        return str(starts)


def _format_text(fmt: Any, _: _Gettext) -> str:
    return {
        "lot": _("tables drawn by lot every round"),
        "results": _("rounds redrawn by results"),
        "final": _("a final after the rounds"),
        "duplicate": _("duplicate: the same deals at every table"),
    }.get(str(fmt), str(fmt or ""))


def sheets_pdf(state: Mapping[str, Any], lang: str, *, fonts: PdfFonts | None = None, compress: bool = True) -> bytes:
    """The evening's prints as one PDF (A4): the table lists, then the real-card tables' score sheets.

    Page 1 on: the evening (name, start, club, preset, format, the draw's commitment), then per round
    drawn a table of its tables: number or name, the seats in order (seat 1 first, clockwise, R2.2),
    online or real cards, the captain; the players on a bye. Then one score sheet per real-card table
    (:func:`score_sheets`): its title (evening, round, table), the captain, the seats' names as
    columns, a start row and one row per hand in deal order with the dealer's name, a blank cell per
    player for their counters after the hand and the row's check digit (:func:`row_check`); a note
    says the dealers are printed from seat 1 of the draw and how to shift them when the cut (R3.1)
    picks another first dealer; a line for the captain's signature. Labels in ``lang`` (en, de, nl,
    it; English for another code).

    Args:
        state: the evening as the reader may see it (``GET /api/evenings/{id}``); missing keys are
            printed as empty.
        lang: the language of the labels.
        fonts: the fonts (default :func:`find_fonts`). With :data:`CORE_FONTS`, names are written in
            Latin-1 (``Łukasz`` -> ``Lukasz``, other scripts ``?``); with a TrueType font, a character
            none of its fonts has is ``?``. Never fails for a name.
        compress: compress the page streams (off: the text can be searched in the bytes).

    Returns:
        The PDF file's bytes (``%PDF-1.x`` ...).
    """
    _ = translation(lang).gettext
    name = str(state.get("name") or _("Evening"))
    w = _Writer(find_fonts() if fonts is None else fonts, name, lang, compress)
    pdf = w.pdf
    pdf.footer_text = w.text(_("{evening} · page {page}").format(evening=name, page="{page}"))
    starts = _starts_text(state.get("starts"))

    pdf.add_page()
    w.line(name, 18, bold=True, height=9)
    facts = [starts]
    club = state.get("club")
    if isinstance(club, Mapping) and club.get("name"):
        facts.append(str(club["name"]))
    w.line("  ·  ".join(f for f in facts if f), 11)
    preset = state.get("summary") or state.get("preset")
    if preset:
        w.line(_("Rules: {preset}").format(preset=preset), 10)
    rounds = state.get("rounds_total") or state.get("rounds")
    w.line(
        _("Format: {format}; {rounds} rounds of {hands} hands").format(
            format=_format_text(state.get("format"), _),
            rounds=rounds if rounds is not None else "?",
            hands=state.get("hands_per_round") or "?",
        ),
        10,
    )
    if state.get("commitment"):
        w.line(_("The draw's commitment (SHA-256): {hash}").format(hash=state["commitment"]), 8)
    pdf.ln(3)
    w.line(_("Table lists"), 14, bold=True, height=8)
    lists = table_lists(state, lang)
    if not lists:
        w.line(_("No round has been drawn yet."), 10)
    for rl in lists:
        pdf.ln(2)
        w.line(rl.title, 12, bold=True, height=7)
        w.font(9)
        with pdf.table(
            col_widths=(22, 106, 22, 30),
            text_align=("LEFT", "LEFT", "LEFT", "LEFT"),
            line_height=5,
            padding=1.2,
            headings_style=_bold_headings(),
        ) as table:
            head = table.row()
            for h in (_("Table"), _("Seats in order"), _("Mode"), _("Captain")):
                head.cell(w.text(h))
            for t in rl.tables:
                row = table.row()
                row.cell(w.text(t.title))
                row.cell(w.text(", ".join(f"{k}. {n}" for k, n in enumerate(t.seats, 1))))
                row.cell(w.text(t.mode))
                row.cell(w.text(t.captain or ""))
        if rl.byes:
            w.line(_("Bye this round: {names}").format(names=", ".join(rl.byes)), 9)

    for sheet in score_sheets(state, lang):
        pdf.add_page()
        w.line(_("Score sheet"), 11, bold=True, height=6)
        w.line(name, 16, bold=True, height=8)
        w.line(f"{sheet.round_title} · {sheet.table_title}", 13, bold=True, height=7)
        info = [starts, _("Captain: {name}").format(name=sheet.captain) if sheet.captain else ""]
        info.append(_("{n} hands").format(n=len(sheet.rows)))
        w.line("  ·  ".join(f for f in info if f), 10)
        w.line(
            _(
                "Dealers are printed from seat 1 of the draw; the deal passes clockwise (R3.2). If the cut "
                "for the first dealer (R3.1) picks another player, the dealers move round to start with them: "
                "the hand numbers and check digits stay."
            ),
            8,
            height=4,
        )
        w.line(
            _(
                "Write each player's counters after the hand. The check digit of a row is the one the pub "
                "ledger shows for that hand."
            ),
            8,
            height=4,
        )
        pdf.ln(2)
        n = len(sheet.seats)
        seat_w = (180 - 14 - 34 - 14) / max(n, 1)
        w.font(9)
        with pdf.table(
            col_widths=(14, 34, *([seat_w] * n), 14),
            text_align=("CENTER", "LEFT", *(["CENTER"] * n), "CENTER"),
            line_height=6.2,
            padding=0.8,
            headings_style=_bold_headings(),
        ) as table:
            head = table.row()
            head.cell(w.text(_("Hand")))
            head.cell(w.text(_("Dealer")))
            for s in sheet.seats:
                head.cell(w.text(s))
            head.cell(w.text(_("Check")))
            start = table.row()
            start.cell(w.text(_("Start")))
            for _k in range(n + 2):
                start.cell("")
            for r in sheet.rows:
                row = table.row()
                row.cell(str(r.hand))
                row.cell(w.text(r.dealer))
                for _k in range(n):
                    row.cell("")
                row.cell(r.check)
        pdf.ln(6)
        w.line(_("Captain's signature:") + " " + "_" * 40, 10)
    return bytes(pdf.output())


# -- the QR code ----------------------------------------------------------------------------------


def qr_svg(url: str, scale: int = 8) -> str:
    """The QR code of ``url`` as a standalone SVG (``segno``, error correction M, a quiet zone of 4
    modules, black on white; ``scale`` pixels a module), its title the URL. Drawn here: nothing is
    fetched.

    >>> svg = qr_svg("https://pub.example/e/k3x9")
    >>> svg.startswith("<?xml") and "<path" in svg and "https://pub.example/e/k3x9" in svg
    True
    """
    buf = io.BytesIO()
    segno.make(url, error="m", micro=False).save(
        buf, kind="svg", scale=scale, border=4, dark="#000", light="#fff", title=url, xmldecl=True
    )
    return buf.getvalue().decode("utf-8")


# -- the standings as CSV -------------------------------------------------------------------------


def _num(x: Any) -> str:
    return "" if x is None else f"{float(x):.2f}"


def standings_csv(state: Mapping[str, Any]) -> str:
    """The evening's standings as CSV (UTF-8 text, ``\\n`` line ends, headers in English like the
    ledger's): ``rank, name, kind, score, round 1 .. round R, net vs mean, firsts, note``.

    ``kind`` is ``person`` or ``bot`` (a substitute bot is marked in every result, issue 34 item 2);
    scores with 2 decimals; a round the participant did not play is empty. Every text cell goes
    through :func:`spreadsheet_safe`; numbers are written as numbers.

    >>> print(standings_csv({"standings": [{"rank": 1, "id": "a", "name": "=Ann", "kind": "person",
    ...     "score": 150, "rounds": [100, 50], "net_vs_mean": -3.5, "firsts": 1, "note": ""}]}), end="")
    rank,name,kind,score,round 1,round 2,net vs mean,firsts,note
    1,'=Ann,person,150.00,100.00,50.00,-3.50,1,
    """
    rows = list(state.get("standings") or ())
    count = max((len(r.get("rounds") or ()) for r in rows), default=0)
    out = io.StringIO()
    w = csv_writer(out, lineterminator="\n")  # every cell made safe (issue 38.10)
    w.writerow(
        ["rank", "name", "kind", "score", *(f"round {k}" for k in range(1, count + 1))]
        + ["net vs mean", "firsts", "note"]
    )
    for r in rows:
        rounds = list(r.get("rounds") or ())
        rounds += [None] * (count - len(rounds))
        w.writerow(
            [
                int(r.get("rank", 0)),
                spreadsheet_safe(str(r.get("name") or r.get("id") or "")),
                spreadsheet_safe(str(r.get("kind") or "")),
                _num(r.get("score")),
                *(_num(x) for x in rounds),
                _num(r.get("net_vs_mean")),
                int(r.get("firsts", 0)),
                spreadsheet_safe(str(r.get("note") or "")),
            ]
        )
    return out.getvalue()


# -- dates, weekly series and the calendar feed ---------------------------------------------------


def parse_starts(starts: str) -> tuple[dt.datetime, str | None]:
    """An evening's start: an ISO 8601 date and time with its UTC offset, and optionally its time
    zone in brackets (RFC 9557, as a browser's ``Temporal`` writes it): ``2026-12-10T20:00+01:00`` or
    ``2026-12-10T20:00+01:00[Europe/Berlin]``. Returns the aware start (in the zone, when given) and
    the zone's name or None.

    Raises:
        ValueError: no offset, an unreadable date, an unknown zone, or an offset the zone does not
            have at that time.

    >>> parse_starts("2026-12-10T20:00+01:00[Europe/Berlin]")[0].isoformat()
    '2026-12-10T20:00:00+01:00'
    >>> parse_starts("2026-12-10T20:00+01:00")[1] is None
    True
    """
    text, zone = starts.strip(), None
    if text.endswith("]") and "[" in text:
        text, zone = text[:-1].split("[", 1)
        zone = zone.lstrip("!")
    when = dt.datetime.fromisoformat(text)
    if when.tzinfo is None or when.utcoffset() is None:
        raise ValueError(f"{starts!r}: the start needs its UTC offset (2026-12-10T20:00+01:00)")
    if zone is None:
        return when, None
    try:
        tz = ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError):
        raise ValueError(f"{starts!r}: unknown time zone {zone!r}") from None
    local = when.astimezone(tz)
    if local.replace(tzinfo=None) != when.replace(tzinfo=None):
        raise ValueError(f"{starts!r}: {zone} is not at {when:%z} then")
    return local, zone


def next_occurrence(starts_iso: str, now: dt.datetime, zone: str | None = None) -> dt.datetime:
    """The first evening of a weekly series that starts at or after ``now``: the series' first start
    (``starts_iso``, :func:`parse_starts`) plus a whole number of weeks (itself when it is not past).

    Weeks are counted in the series' time zone (the one in brackets in ``starts_iso``, else ``zone``):
    every Thursday 20:00 stays 20:00 local time across a change to or from summer time, its offset the
    zone's on that day. Without a zone the offset is kept (20:00+01:00 is 21:00 local in summer):
    give the zone. A naive ``now`` is read as UTC.

    Raises:
        ValueError: as :func:`parse_starts`.

    >>> next_occurrence("2026-03-26T20:00+01:00[Europe/Berlin]", dt.datetime(2026, 3, 30, tzinfo=dt.UTC)).isoformat()
    '2026-04-02T20:00:00+02:00'
    >>> next_occurrence("2026-12-31T20:00+01:00", dt.datetime(2026, 12, 31, 19, 0, 1, tzinfo=dt.UTC)).isoformat()
    '2027-01-07T20:00:00+01:00'
    """
    first, named = parse_starts(starts_iso)
    if named is None and zone:
        try:
            first = first.astimezone(ZoneInfo(zone))
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"unknown time zone {zone!r}") from None
    if now.tzinfo is None:
        now = now.replace(tzinfo=dt.UTC)
    if first >= now:
        return first
    tz = first.tzinfo
    wall = first.replace(tzinfo=None)
    weeks = max(0, (now - first).days // 7)

    def at(k: int) -> dt.datetime:  # k weeks on, the same wall-clock time in the zone
        return (wall + dt.timedelta(weeks=k)).replace(tzinfo=tz)

    while at(weeks) < now:
        weeks += 1
    return at(weeks)


#: how long an evening is shown in a calendar (it ends when its last round does: not known ahead)
EVENING_HOURS = 3


def _series_key(e: Mapping[str, Any]) -> str:
    return str(e.get("series") or e.get("name") or e.get("id"))


def ics_feed(
    club: Mapping[str, Any],
    evenings: Iterable[Mapping[str, Any]],
    base_url: str,
    *,
    lang: str = "en",
    now: dt.datetime | None = None,
) -> bytes:
    """A club's evenings as an iCalendar feed (RFC 5545, ``icalendar``): one ``VEVENT`` per evening.

    Each event: ``UID`` ``evening-ID@HOST`` (the same for an evening in every fetch, so a calendar
    updates it in place), ``DTSTART`` the evening's start (in its time zone with a ``VTIMEZONE`` when
    it has one, else in UTC: an offset is no zone), ``DURATION`` :data:`EVENING_HOURS` hours,
    ``SUMMARY`` its name, ``URL`` its standing link (``BASE/e/ID``), ``DESCRIPTION`` its rules,
    format, rounds and the link, in ``lang``. Evenings with ``"recurring": "weekly"`` form a series
    (by their ``series`` key, else their name): the latest of each series also carries
    ``RRULE:FREQ=WEEKLY``, so a calendar shows the weeks ahead before the next evening is made.

    >>> cal = icalendar.Calendar.from_ical(ics_feed({"id": "c1", "name": "Zur Linde"}, [{"id": "e1",
    ...     "name": "Thursday", "starts": "2026-12-10T20:00+01:00", "recurring": "weekly"}],
    ...     "https://pub.example", now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC)))
    >>> [(str(e["UID"]), e["DTSTART"].dt.isoformat(), e["RRULE"].to_ical()) for e in cal.walk("VEVENT")]
    [('evening-e1@pub.example', '2026-12-10T19:00:00+00:00', b'FREQ=WEEKLY')]
    """
    _ = translation(lang).gettext
    stamp = (now or dt.datetime.now(dt.UTC)).astimezone(dt.UTC).replace(microsecond=0)
    base = base_url.rstrip("/")
    host = urlsplit(base).hostname or "ramsli"
    cal = icalendar.Calendar()
    cal.add("prodid", "-//ramsli//evenings//EN")
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    cal.add("x-wr-calname", str(club.get("name") or club.get("id") or "ramsli"))
    dated = []
    for e in evenings:
        try:
            start, zone = parse_starts(str(e.get("starts") or ""))
        except ValueError:
            continue  # an evening without a readable start is not in a calendar
        dated.append((e, start, zone))
    latest: dict[str, dt.datetime] = {}
    for e, start, _zone in dated:
        if e.get("recurring") == "weekly":
            k = _series_key(e)
            if k not in latest or start > latest[k]:
                latest[k] = start
    for e, start, zone in sorted(dated, key=lambda x: (x[1], str(x[0].get("id")))):
        url = f"{base}/e/{e['id']}"
        ev = icalendar.Event()
        ev.add("uid", f"evening-{e['id']}@{host}")
        ev.add("dtstamp", stamp)
        ev.add("dtstart", start if zone is not None else start.astimezone(dt.UTC))
        ev.add("duration", dt.timedelta(hours=EVENING_HOURS))
        ev.add("summary", str(e.get("name") or _("Evening")))
        ev.add("url", url)
        lines = []
        rules = e.get("summary") or e.get("preset")
        if rules:
            lines.append(_("Rules: {preset}").format(preset=rules))
        if e.get("format"):
            rounds = e.get("rounds_total") or e.get("rounds")
            lines.append(
                _("Format: {format}; {rounds} rounds of {hands} hands").format(
                    format=_format_text(e.get("format"), _),
                    rounds=rounds if rounds is not None else "?",
                    hands=e.get("hands_per_round") or "?",
                )
            )
        lines.append(url)
        ev.add("description", "\n".join(lines))
        if e.get("recurring") == "weekly" and latest.get(_series_key(e)) == start:
            ev.add("rrule", {"freq": "weekly"})
        cal.add_component(ev)
    cal.add_missing_timezones()
    return bytes(cal.to_ical())
