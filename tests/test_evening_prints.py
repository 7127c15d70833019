"""An evening's prints and feeds (issue 34, items 1, 5 and 6): the PDF of table lists and score sheets
(deal order, R3.2; a check digit per row), the QR code of the standing link, the standings as CSV
(spreadsheet-safe), the clubs' calendar feed (a weekly series as RRULE), the next evening of a weekly
series across summer time and the year's end, and a season scored as "best N of M evenings"."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
import xml.etree.ElementTree as ET
import zlib
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pydantic
import pytest
import segno
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi.testclient import TestClient

from ramsli.evening.check import damm_digit, row_check
from ramsli.i18n import LANGS
from ramsli.refusal import Refusal, Refused
from ramsli.server.clubs.clubs import check_season
from ramsli.server.evenings import feeds, prints
from ramsli.server.evenings.prints import (
    CORE_FONTS,
    FONT_ENV,
    PdfFonts,
    find_fonts,
    ics_feed,
    next_occurrence,
    parse_starts,
    qr_svg,
    score_sheets,
    sheets_pdf,
    standings_csv,
    table_lists,
)
from ramsli.server.players.records import best_of_table
from ramsli.server.protocol.csvcells import spreadsheet_safe
from ramsli.server.protocol.messages import error_body
from ramsli.server.protocol.schemas import NewSeason

BERLIN = ZoneInfo("Europe/Berlin")

# -- an evening as the reader sees it ---------------------------------------------------------------

PEOPLE = {
    "a": ("Zoë Ünal", "person"),
    "b": ("Łukasz 山田", "person"),
    "c": ("Anna", "person"),
    "d": ("=HYPERLINK(1)", "person"),
    "bot:expert:1": ("Bot 1 (expert)", "bot"),
    "f": ("Frida", "person"),
    "g": ("Gus", "person"),
    "h": ("Hanne", "person"),
    "i": ("Ida", "person"),
}


def _seats(ids: list[str]) -> list[dict[str, Any]]:
    return [{"seat": f"p{k + 1}", "id": i, "name": PEOPLE[i][0], "kind": PEOPLE[i][1]} for k, i in enumerate(ids)]


def evening() -> dict[str, Any]:
    """Two rounds drawn: round 1 with a real-card table of 5 (10 hands) and an online table of 3 and a
    bye; the final round with a real-card final of 3 (no ``hands``: 10 a round made a multiple of 3)
    and an online small final."""
    return {
        "id": "ev1",
        "name": "Donnerstag",
        "starts": "2026-12-10T20:00+01:00[Europe/Berlin]",
        "club": {"id": "c1", "name": "Zur Linde"},
        "preset": "traditional",
        "summary": "traditional",
        "format": "final",
        "rounds": 1,
        "rounds_total": 2,
        "hands_per_round": 10,
        "commitment": "ab" * 32,
        "people": [{"id": k, "name": v[0], "kind": v[1]} for k, v in PEOPLE.items()],
        "rounds_played": [
            {
                "round": 1,
                "kind": "qualifying",
                "byes": ["i"],
                "tables": [
                    {
                        "number": 1,
                        "mode": "cards",
                        "captain": "a",
                        "hands": 10,
                        "seats": _seats(["a", "b", "c", "d", "bot:expert:1"]),
                    },
                    {"number": 2, "mode": "online", "captain": None, "seats": _seats(["f", "g", "h"])},
                ],
            },
            {
                "round": 2,
                "kind": "final",
                "byes": [],
                "tables": [
                    {"number": 1, "name": "Final", "mode": "cards", "captain": {"id": "b"}, "seats": _seats(["b", "a", "c"])},
                    {"number": 2, "name": "Small final", "mode": "online", "seats": _seats(["f", "g", "h"])},
                ],
            },
        ],
        "standings": [
            {"rank": 1, "id": "a", "name": "Zoë Ünal", "kind": "person", "score": 150.0, "rounds": [100.0, 50.0],
             "net_vs_mean": 12.5, "firsts": 1, "note": "final"},
            {"rank": 2, "id": "d", "name": "=HYPERLINK(1)", "kind": "person", "score": 50.0, "rounds": [50.0, None],
             "net_vs_mean": -3.25, "firsts": 0, "note": ""},
            {"rank": 3, "id": "bot:expert:1", "name": "Bot 1 (expert)", "kind": "bot", "score": 0.0, "rounds": [0.0],
             "net_vs_mean": -9.0, "firsts": 0, "note": "@x"},
        ],
    }  # fmt: skip


# -- reading a PDF's text back (fpdf2's uncompressed output, no PDF library needed) ---------------

_OBJ = re.compile(rb"(\d+) 0 obj\n(.*?)endobj", re.S)
_ESC = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f", b"(": b"(", b")": b")", b"\\": b"\\"}


def _unescape(raw: bytes) -> bytes:
    out, i = bytearray(), 0
    while i < len(raw):
        c = raw[i : i + 1]
        if c != b"\\":
            out += c
            i += 1
            continue
        nxt = raw[i + 1 : i + 2]
        octal = re.match(rb"[0-7]{1,3}", raw[i + 1 : i + 4])
        if octal:
            out.append(int(octal[0], 8))
            i += 1 + len(octal[0])
        else:
            out += _ESC.get(nxt, nxt)
            i += 2
    return bytes(out)


def _stream(body: bytes) -> bytes:
    m = re.search(rb"stream\n(.*?)\nendstream", body, re.S)
    assert m is not None
    return zlib.decompress(m[1]) if b"/FlateDecode" in body[: m.start()] else m[1]


def pdf_text(pdf: bytes) -> list[str]:
    """Every text string drawn (``Tj``), in order, decoded through its font's ToUnicode map (a TrueType
    font) or as Latin-1 (the core font)."""
    objs = {int(m[1]): m[2] for m in _OBJ.finditer(pdf)}
    fonts: dict[bytes, int] = {}
    for body in objs.values():
        fm = re.search(rb"/Font <<(.*?)>>", body, re.S)
        if fm:
            fonts.update((n, int(k)) for n, k in re.findall(rb"/(\w+) (\d+) 0 R", fm[1]))

    def decoder(num: int) -> Any:
        tu = re.search(rb"/ToUnicode (\d+) 0 R", objs[num])
        if tu is None:
            return lambda raw: raw.decode("latin-1")
        cmap = _stream(objs[int(tu[1])])
        table = {int(a, 16): chr(int(b, 16)) for a, b in re.findall(rb"(?m)^<([0-9A-F]{4})> <([0-9A-F]{4})>$", cmap)}
        for a, b, c in re.findall(rb"<([0-9A-F]{4})> <([0-9A-F]{4})> <([0-9A-F]{4})>", cmap):
            for k in range(int(a, 16), int(b, 16) + 1):
                table[k] = chr(int(c, 16) + k - int(a, 16))
        return lambda raw: "".join(
            table.get(int.from_bytes(raw[i : i + 2], "big"), "\ufffd") for i in range(0, len(raw), 2)
        )

    decoders = {name: decoder(num) for name, num in fonts.items()}
    out: list[str] = []
    current = None
    for num in sorted(objs):
        body = objs[num]
        if b"stream" not in body or b"/Filter" in body.split(b"stream", 1)[0] or b"BT" not in body:
            continue
        for m in re.finditer(rb"/(\w+) [\d.]+ Tf|\(((?:\\.|[^\\)])*)\) Tj", _stream(body), re.S):
            if m[1] is not None:
                current = decoders[m[1]]
            elif current is not None:
                out.append(current(_unescape(m[2])))
    return out


def _pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type /Page\b", pdf))


def _valid(pdf: bytes) -> None:
    assert pdf.startswith(b"%PDF-1.")
    assert pdf.rstrip().endswith(b"%%EOF")
    assert re.search(rb"startxref\s+\d+", pdf)


FONTS = {"found": find_fonts(), "core": CORE_FONTS}


# -- the check digit -------------------------------------------------------------------------------


def test_damm_digit_is_the_damm_algorithm():
    """The Damm algorithm's published example: 572 -> 4, and 5724 checks to 0; every single wrong
    digit and every swap of neighbours changes the digit."""
    assert damm_digit("572") == 4 and damm_digit("5724") == 0
    number = "20261210"
    d = damm_digit(number)
    for k in range(len(number)):
        for x in "0123456789":
            if x != number[k]:
                assert damm_digit(number[:k] + x + number[k + 1 :]) != d
        if k + 1 < len(number) and number[k] != number[k + 1]:
            swapped = number[:k] + number[k + 1] + number[k] + number[k + 2 :]
            assert damm_digit(swapped) != d
    with pytest.raises(ValueError):
        damm_digit("12a")


def test_row_check_tells_neighbouring_rows_and_tables_apart():
    """Issue 34 item 5: one character per row; ten rows in a row never share a digit (the row above and
    below always differ, also across a ten: 9/10, 19/20), and the same hand at tables 1..9 of a round,
    or in rounds 1..9 at one table, differs."""
    for ev in ("ev1", "k3x9", "a-much-longer-evening-id"):
        for rnd in (1, 2, 4):
            for table in (1, 3, 7):
                digits = [row_check(ev, rnd, table, h) for h in range(1, 66)]
                assert all(len(d) == 1 and d.isdigit() for d in digits)
                for h in range(len(digits) - 9):
                    assert len(set(digits[h : h + 10])) == 10
        for h in (1, 10, 37):
            assert len({row_check(ev, 1, t, h) for t in range(1, 10)}) == 9
            assert len({row_check(ev, r, 2, h) for r in range(1, 10)}) == 9
    assert row_check("ev1", 1, 1, 1) == row_check("ev1", 1, 1, 1)  # a function of its arguments only
    for bad in ((100, 1, 1), (1, 100, 1), (1, 1, -1), (-1, 1, 1)):
        with pytest.raises(ValueError):
            row_check("ev1", *bad)


# -- what is printed --------------------------------------------------------------------------------


def test_table_lists_hold_every_round_in_seat_order():
    lists = table_lists(evening(), "en")
    assert [r.title for r in lists] == ["Round 1", "Final round"]
    first = lists[0]
    assert [t.title for t in first.tables] == ["Table 1", "Table 2"]
    assert first.tables[0].seats == ("Zoë Ünal", "Łukasz 山田", "Anna", "=HYPERLINK(1)", "Bot 1 (expert)")
    assert [t.mode for t in first.tables] == ["real cards", "online"]
    assert first.tables[0].captain == "Zoë Ünal" and first.tables[1].captain is None
    assert first.byes == ("Ida",)
    assert [t.title for t in lists[1].tables] == ["Final", "Small final"]
    assert lists[1].tables[0].captain == "Łukasz 山田"  # a captain given as {"id"}
    assert [t.title for t in table_lists(evening(), "de")[1].tables] == ["Finale", "Kleines Finale"]


def test_score_sheets_deal_clockwise_from_seat_one_of_the_draw():
    """R3.2: the deal passes clockwise, so hand k is dealt by seat (k - 1) mod N of the draw; a table
    without ``hands`` plays the round's hands made a multiple of its size (issue 34 item 3: everyone
    deals equally often): 10 hands at 3 seats -> 12."""
    sheets = score_sheets(evening(), "en")
    assert [(s.round, s.table, s.table_title) for s in sheets] == [(1, 1, "Table 1"), (2, 1, "Final")]
    first, final = sheets
    assert [r.hand for r in first.rows] == list(range(1, 11))
    assert [r.dealer for r in first.rows[:6]] == [
        "Zoë Ünal",
        "Łukasz 山田",
        "Anna",
        "=HYPERLINK(1)",
        "Bot 1 (expert)",
        "Zoë Ünal",
    ]
    assert [r.check for r in first.rows] == [row_check("ev1", 1, 1, h) for h in range(1, 11)]
    assert len(final.rows) == 12 and [r.dealer for r in final.rows[-3:]] == ["Łukasz 山田", "Zoë Ünal", "Anna"]
    assert final.captain == "Łukasz 山田"


@pytest.mark.parametrize("which", sorted(FONTS))
@pytest.mark.parametrize("lang", LANGS)
def test_the_pdf_holds_the_lists_names_and_check_digits(which, lang):
    """Issue 34 item 5: a valid PDF (page 1 the table lists, then one page per real-card table), every
    name (with the core font in Latin-1: Ł -> L, 山田 -> ??), and every score sheet row in order: hand,
    dealer, the blank cells, the row's check digit."""
    fonts = FONTS[which]
    pdf = sheets_pdf(evening(), lang, fonts=fonts, compress=False)
    _valid(pdf)
    assert _pages(pdf) == 3
    text = pdf_text(pdf)
    joined = "\n".join(text)
    unicode_font = fonts.regular is not None
    assert "Zoë Ünal" in joined and "Anna" in joined and "=HYPERLINK(1)" in joined
    assert ("Łukasz" if unicode_font else "Lukasz ??") in joined
    if not unicode_font or not fonts.fallbacks:
        assert "Łukasz ??" in joined or "Lukasz ??" in joined
    at = 0
    for sheet in score_sheets(evening(), lang):  # the sheets in order, after the lists
        for row in sheet.rows:
            dealer = prints._latin1(row.dealer) if not unicode_font else row.dealer
            if unicode_font and not fonts.fallbacks:
                dealer = dealer.replace("山田", "??")
            want = [str(row.hand), dealer, row.check]
            found = text.index(want[0], at)
            assert text[found : found + 3] == want, (sheet.table, row)
            at = found + 3


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Table lists", "Score sheet", "Round 1", "Captain"]),
        ("de", ["Tischlisten", "Spielliste", "Durchgang 1", "Schreiber"]),
        ("nl", ["Tafellijsten", "Scorelijst", "Ronde 1", "Schrijver"]),
        ("it", ["Liste dei tavoli", "Segnapunti", "Turno 1", "Capotavolo"]),
        ("fr", ["Listes des tables", "Feuille de scores", "Tour 1", "Capitaine"]),
    ],
)
def test_the_pdf_labels_are_in_the_readers_language(lang, words):
    text = "\n".join(pdf_text(sheets_pdf(evening(), lang, fonts=FONTS["found"], compress=False)))
    for w in words:
        assert w in text


def test_the_pdf_never_fails_for_a_missing_font(tmp_path):
    """A font file that is not there or not a font: the core font, a valid PDF (CI machines may have
    no TrueType font at all)."""
    bogus = tmp_path / "not-a-font.ttf"
    bogus.write_bytes(b"this is no font")
    for fonts in (PdfFonts(str(tmp_path / "missing.ttf")), PdfFonts(str(bogus), None, (str(bogus),))):
        pdf = sheets_pdf(evening(), "de", fonts=fonts, compress=False)
        _valid(pdf)
        assert "Lukasz ??" in "\n".join(pdf_text(pdf))
    assert find_fonts({FONT_ENV: str(tmp_path / "missing.ttf")}) == find_fonts({})


def test_find_fonts_takes_the_fonts_named_by_the_environment():
    found = FONTS["found"]
    if found.regular is None:
        pytest.skip("no TrueType font on this machine")
    env = {FONT_ENV: f"{found.regular}:{found.bold or found.regular}"}
    assert find_fonts(env) == PdfFonts(found.regular, found.bold or found.regular, ())


def test_an_evening_without_rounds_prints_its_first_page():
    state = {"id": "e0", "name": "Leer", "starts": "nonsense", "hands_per_round": 10}
    pdf = sheets_pdf(state, "en", fonts=CORE_FONTS, compress=False)
    _valid(pdf)
    assert _pages(pdf) == 1
    text = "\n".join(pdf_text(pdf))
    assert "No round has been drawn yet." in text and "nonsense" in text
    _valid(sheets_pdf({}, "xx"))  # nothing at all, an unknown language: still a PDF (English)


def test_a_long_table_breaks_over_pages_with_its_headings():
    state = evening()
    state["rounds_played"][0]["tables"][0]["hands"] = 65
    pdf = sheets_pdf(state, "en", fonts=CORE_FONTS, compress=False)
    assert _pages(pdf) == 5  # the lists, the 65-hand sheet over three pages, the final's sheet
    text = pdf_text(pdf)
    assert text.count("Dealer") == 4  # the headings repeat on every page of a sheet
    assert "65" in text


# -- the QR code ------------------------------------------------------------------------------------


def _qr_cells(svg: str) -> tuple[set[tuple[int, int]], int]:
    """The dark modules drawn by segno's SVG path (``M x y`` then ``h n`` and relative ``m dx dy``)."""
    root = ET.fromstring(svg.encode())
    ns = "{http://www.w3.org/2000/svg}"
    path = [p for p in root.iter(f"{ns}path") if p.get("stroke")][0].get("d")
    cells, x, y = set(), 0.0, 0.0
    for cmd, args in re.findall(r"([Mmh])([-\d. ]+)", path):
        nums = [float(v) for v in args.split()]
        if cmd == "M":
            x, y = nums
        elif cmd == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            for k in range(int(nums[0])):
                cells.add((int(x) + k, int(y - 0.5)))
            x += nums[0]
    size = int(float(root.get("width")) / 8)
    return cells, size


def test_the_qr_code_is_an_svg_of_the_standing_link():
    """Issue 34 item 1: the server draws the QR code (segno), nothing fetched: well-formed standalone
    SVG, its title the link, and the modules drawn are the QR code of the link with a quiet zone of 4."""
    url = "https://pub.example/e/ev1"
    svg = qr_svg(url)
    root = ET.fromstring(svg.encode())
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert root.find("{http://www.w3.org/2000/svg}title").text == url
    assert "http" not in svg.replace(url, "").replace("http://www.w3.org/2000/svg", "")
    cells, size = _qr_cells(svg)
    matrix = segno.make(url, error="m", micro=False).matrix
    assert size == len(matrix) + 8
    assert cells == {(x + 4, y + 4) for y, row in enumerate(matrix) for x, v in enumerate(row) if v}


# -- the standings as CSV ---------------------------------------------------------------------------


def test_the_standings_csv_is_safe_in_a_spreadsheet():
    """Issue 34 item 6 (CSV export): a name or note that a spreadsheet would run as a formula (= + - @,
    a tab) is written as text (a leading '); numbers, negative ones too, stay numbers."""
    state = evening()
    for k, evil in enumerate(["+1+1", "-2+3", "@SUM(A1)", "\tcmd"]):
        state["standings"].append(
            {"rank": 4 + k, "id": f"x{k}", "name": evil, "kind": "person", "score": 0, "rounds": [], "net_vs_mean": -1,
             "firsts": 0, "note": "=1"}
        )  # fmt: skip
    rows = list(csv.reader(io.StringIO(standings_csv(state))))
    assert rows[0] == ["rank", "name", "kind", "score", "round 1", "round 2", "net vs mean", "firsts", "note"]
    assert rows[1] == ["1", "Zoë Ünal", "person", "150.00", "100.00", "50.00", "12.50", "1", "final"]
    assert rows[2] == ["2", "'=HYPERLINK(1)", "person", "50.00", "50.00", "", "-3.25", "0", ""]
    assert rows[3] == ["3", "Bot 1 (expert)", "bot", "0.00", "0.00", "", "-9.00", "0", "'@x"]
    for r in rows[1:]:
        for text in (r[1], r[2], r[-1]):
            assert text[:1] not in ("=", "+", "-", "@", "\t", "\r")
    assert [r[1] for r in rows[4:]] == ["'+1+1", "'-2+3", "'@SUM(A1)", "'\tcmd"]
    assert spreadsheet_safe("") == "" and standings_csv({}) == "rank,name,kind,score,net vs mean,firsts,note\n"


# -- the calendar feed ------------------------------------------------------------------------------

CLUB = {"id": "c1", "name": "Zur Linde"}
SERIES = [
    {"id": "w1", "name": "Thursday", "series": "s", "starts": "2026-12-03T20:00+01:00[Europe/Berlin]",
     "recurring": "weekly", "preset": "traditional", "format": "final", "rounds": 3, "hands_per_round": 10},
    {"id": "w2", "name": "Thursday", "series": "s", "starts": "2026-12-10T20:00+01:00[Europe/Berlin]",
     "recurring": "weekly", "preset": "traditional", "format": "final", "rounds": 3, "hands_per_round": 10},
    {"id": "o1", "name": "Cup, final; day", "starts": "2027-01-02T15:30+01:00", "recurring": None,
     "preset": "general-rams", "format": "lot", "rounds": 4, "hands_per_round": 12},
    {"id": "bad", "name": "no date", "starts": "soon"},
]  # fmt: skip


def test_the_ics_feed_parses_back_with_a_weekly_rule():
    """Issue 34 item 1: one VEVENT per evening (the one without a readable start left out), a stable UID,
    DTSTART in the evening's zone (a VTIMEZONE) or in UTC for an offset alone, the standing link, the
    rules and format; only the latest evening of the weekly series repeats (RRULE FREQ=WEEKLY)."""
    first = ics_feed(CLUB, SERIES, "https://pub.example/r/", now=dt.datetime(2026, 12, 1, tzinfo=dt.UTC))
    again = ics_feed(CLUB, list(reversed(SERIES)), "https://pub.example/r", now=dt.datetime(2026, 12, 2, tzinfo=dt.UTC))
    cal = icalendar.Calendar.from_ical(first)
    assert str(cal["X-WR-CALNAME"]) == "Zur Linde"
    events = {str(e["UID"]): e for e in cal.walk("VEVENT")}
    assert sorted(events) == ["evening-o1@pub.example", "evening-w1@pub.example", "evening-w2@pub.example"]
    assert sorted(str(e["UID"]) for e in icalendar.Calendar.from_ical(again).walk("VEVENT")) == sorted(events)
    w1, w2, o1 = (events[f"evening-{k}@pub.example"] for k in ("w1", "w2", "o1"))
    assert "RRULE" not in w1 and "RRULE" not in o1
    assert w2["RRULE"].to_ical() == b"FREQ=WEEKLY"
    assert w2["DTSTART"].dt == dt.datetime(2026, 12, 10, 20, 0, tzinfo=BERLIN)
    assert w2["DTSTART"].params["TZID"] == "Europe/Berlin"
    assert [str(tz["TZID"]) for tz in cal.walk("VTIMEZONE")] == ["Europe/Berlin"]
    assert o1["DTSTART"].dt == dt.datetime(2027, 1, 2, 14, 30, tzinfo=dt.UTC)
    assert str(o1["SUMMARY"]) == "Cup, final; day"
    assert str(o1["URL"]) == "https://pub.example/r/e/o1"
    desc = str(o1["DESCRIPTION"])
    assert "general-rams" in desc and "tables drawn by lot every round" in desc and "https://pub.example/r/e/o1" in desc
    assert w2["DURATION"].dt == dt.timedelta(hours=prints.EVENING_HOURS)
    assert b"Regeln: traditional" in ics_feed(CLUB, SERIES[:1], "http://x", lang="de")


def test_an_rrule_repeats_the_latest_evening_in_its_zone():
    """The weekly rule from the latest evening lands on 20:00 Berlin time after the change to summer time
    as :func:`next_occurrence` does."""
    from dateutil.rrule import rrulestr  # icalendar's own dependency

    cal = icalendar.Calendar.from_ical(ics_feed(CLUB, SERIES[:2], "http://x"))
    w2 = [e for e in cal.walk("VEVENT") if "RRULE" in e][0]
    rule = rrulestr(w2["RRULE"].to_ical().decode(), dtstart=w2["DTSTART"].dt)
    after = rule.after(dt.datetime(2027, 3, 30, tzinfo=dt.UTC))
    assert after == next_occurrence(SERIES[1]["starts"], dt.datetime(2027, 3, 30, tzinfo=dt.UTC))
    assert after.isoformat() == "2027-04-01T20:00:00+02:00"


# -- weekly series ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("starts", "now", "want"),
    [
        # the change to summer time (Berlin, 29 March 2026): still 20:00 local, now +02:00
        ("2026-03-26T20:00+01:00[Europe/Berlin]", "2026-03-27T00:00+00:00", "2026-04-02T20:00:00+02:00"),
        # back to winter time (25 October 2026)
        ("2026-10-22T20:00+02:00[Europe/Berlin]", "2026-10-23T00:00+00:00", "2026-10-29T20:00:00+01:00"),
        # over the year's end
        ("2026-12-31T20:00+01:00[Europe/Berlin]", "2027-01-01T00:00+00:00", "2027-01-07T20:00:00+01:00"),
        ("2026-12-17T19:30+01:00[Europe/Berlin]", "2027-01-01T12:00+00:00", "2027-01-07T19:30:00+01:00"),
        # the evening itself when it has not started yet; at its very start too
        ("2026-12-10T20:00+01:00[Europe/Berlin]", "2026-12-01T00:00+00:00", "2026-12-10T20:00:00+01:00"),
        ("2026-12-10T20:00+01:00[Europe/Berlin]", "2026-12-10T19:00+00:00", "2026-12-10T20:00:00+01:00"),
        ("2026-12-10T20:00+01:00[Europe/Berlin]", "2026-12-10T19:00:01+00:00", "2026-12-17T20:00:00+01:00"),
        # many weeks on, across two changes of the clock
        ("2026-01-08T20:00+01:00[Europe/Berlin]", "2026-11-06T00:00+00:00", "2026-11-12T20:00:00+01:00"),
        ("2026-01-08T20:00+01:00[Europe/Berlin]", "2026-07-01T00:00+00:00", "2026-07-02T20:00:00+02:00"),
        # New York changes on another day (8 March 2026)
        ("2026-03-05T19:00-05:00[America/New_York]", "2026-03-06T01:00+00:00", "2026-03-12T19:00:00-04:00"),
        # an offset alone is kept: 20:00+01:00 is 21:00 in Berlin's summer
        ("2026-03-26T20:00+01:00", "2026-03-27T00:00+00:00", "2026-04-02T20:00:00+01:00"),
        ("2026-12-31T20:00+01:00", "2027-01-01T00:00+00:00", "2027-01-07T20:00:00+01:00"),
    ],
)
def test_next_occurrence_keeps_the_local_hour(starts, now, want):
    assert next_occurrence(starts, dt.datetime.fromisoformat(now)).isoformat() == want


def test_next_occurrence_takes_a_zone_and_a_naive_now():
    got = next_occurrence("2026-03-26T20:00+01:00", dt.datetime(2026, 3, 27), zone="Europe/Berlin")
    assert got.isoformat() == "2026-04-02T20:00:00+02:00"
    assert got.tzinfo == BERLIN


@pytest.mark.parametrize(
    "starts",
    ["2026-12-10T20:00", "2026-12-10T20:00+01:00[Mars/Olympus]", "2026-12-10T20:00+05:00[Europe/Berlin]", "tomorrow"],
)
def test_a_start_without_its_offset_or_with_a_wrong_zone_is_refused(starts):
    with pytest.raises(ValueError):
        parse_starts(starts)
    with pytest.raises(ValueError):
        next_occurrence(starts, dt.datetime(2026, 1, 1, tzinfo=dt.UTC))
    with pytest.raises(ValueError):
        next_occurrence("2026-12-10T20:00+01:00", dt.datetime(2026, 1, 1, tzinfo=dt.UTC), zone="Mars/Olympus")


# -- a season scored as "best N of M evenings" -------------------------------------------------------


def test_best_of_table_by_hand():
    """Issue 34 item 6, best 2 of 4 evenings, computed by hand:

    Ann: 100, 50, 75      -> best 2: 100 + 75 = 175, all 225
    Bo:  0, 100, 25, 75   -> best 2: 100 + 75 = 175, all 200 (behind Ann: fewer in all)
    Cy:  -, -, -, 100     -> 100, all 100
    Di:  50, 50           -> 100, all 100 (level with Cy: both 3rd)
    Eve: no evening       -> 0 (a member listed)
    A bot's rows (not a member) are not listed.
    """
    scores = [
        ("e1", "ann", 100.0), ("e2", "ann", 50.0), ("e3", "ann", 75.0),
        ("e1", "bo", 0.0), ("e2", "bo", 100.0), ("e3", "bo", 25.0), ("e4", "bo", 75.0),
        ("e4", "cy", 100.0), ("e1", "di", 50.0), ("e2", "di", 50.0), ("e1", "bot:expert:1", 200.0),
    ]  # fmt: skip
    rows = [{"evening": e, "participant": p, "score": s} for e, p, s in scores]
    members = {"ann": "Ann", "bo": "Bo", "cy": "Cy", "di": "Di", "eve": "Eve"}
    table = best_of_table(rows, 2, members)
    assert [(r["rank"], r["name"], r["score"], r["total"], r["evenings"]) for r in table] == [
        (1, "Ann", 175.0, 225.0, 3),
        (2, "Bo", 175.0, 200.0, 4),
        (3, "Cy", 100.0, 100.0, 1),
        (3, "Di", 100.0, 100.0, 2),
        (5, "Eve", 0.0, 0.0, 0),
    ]
    assert table[0]["counted"] == [["e1", 100.0], ["e3", 75.0]]
    assert table[1]["counted"] == [["e2", 100.0], ["e4", 75.0]]
    assert table[3]["counted"] == [["e1", 50.0], ["e2", 50.0]]  # equal scores: the earlier evening
    # best 1: Ann 100 (225), Bo 100 (200), Cy 100 (100), Di 50; everyone of the rows without a list
    assert [(r["participant"], r["score"]) for r in best_of_table(rows, 1, members)][:4] == [
        ("ann", 100.0), ("bo", 100.0), ("cy", 100.0), ("di", 50.0)
    ]  # fmt: skip
    everyone = best_of_table(rows, 4)
    assert everyone[0]["participant"] == "ann" and everyone[0]["score"] == 225.0 and everyone[0]["name"] is None
    assert {r["participant"] for r in everyone} == {"ann", "bo", "cy", "di", "bot:expert:1"}
    with pytest.raises(ValueError):
        best_of_table(rows, 0)
    with pytest.raises(ValueError):
        best_of_table(rows + [{"evening": "e1", "participant": "ann", "score": 1.0}], 2)


def test_a_season_takes_best_of():
    season = check_season(NewSeason(name="Winter", starts="2026-10-01", ends="2027-03-31", best_of=8))
    assert season["best_of"] == 8
    assert "best_of" not in check_season(NewSeason(name="Winter", starts="2026-10-01", ends="2027-03-31"))
    for bad in (0, 101, "8", 2.5):
        with pytest.raises(pydantic.ValidationError):
            NewSeason(name="Winter", starts="2026-10-01", ends="2027-03-31", best_of=bad)


# -- the routes ------------------------------------------------------------------------------------


class _Source:
    """An evenings' service as the routes see it (:class:`~ramsli.server.evenings.service.Evenings` provides the same two calls)."""

    def __init__(self) -> None:
        self.asked: list[str] = []

    async def state_for(self, request: Request, evening_id: str) -> dict[str, Any]:
        self.asked.append(evening_id)
        if evening_id != "ev1":
            raise Refused(Refusal("no_page", None, {"path": evening_id}))
        return evening()

    async def calendar_for(self, request: Request, club_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        if club_id != "c1":
            raise Refused(Refusal("no_club", None, {"club": club_id}))
        return CLUB, SERIES


@pytest.fixture
def client():
    app = FastAPI()
    app.include_router(feeds.router)
    app.state.evenings = _Source()

    @app.exception_handler(Refused)
    async def refused(request: Request, e: Exception) -> JSONResponse:
        status, body = error_body(e, request.query_params.get("lang", "en"))
        return JSONResponse(body, status_code=status)

    with TestClient(app) as c:
        yield c


def test_the_routes_answer_the_prints_and_feeds(client):
    pdf = client.get("/api/evenings/ev1/sheets.pdf?lang=nl")
    assert pdf.status_code == 200 and pdf.headers["content-type"] == "application/pdf"
    assert (
        pdf.content.startswith(b"%PDF-") and 'filename="ramsli-evening-ev1.pdf"' in pdf.headers["content-disposition"]
    )
    assert pdf.headers["cache-control"] == "private, no-store"
    got = client.get("/api/evenings/ev1/standings.csv")
    assert got.headers["content-type"] == "text/csv; charset=utf-8" and got.text == standings_csv(evening())
    qr = client.get("/api/evenings/ev1/qr.svg")
    assert qr.headers["content-type"] == "image/svg+xml" and qr.text == qr_svg("http://testserver/e/ev1")
    ics = client.get("/api/clubs/c1/evenings.ics")
    assert ics.headers["content-type"] == "text/calendar; charset=utf-8"
    assert "URL:http://testserver/e/w2" in ics.text.replace("\r\n ", "")
    assert len(icalendar.Calendar.from_ical(ics.content).walk("VEVENT")) == 3


def test_the_routes_pass_on_the_services_refusals(client):
    """Who may read an evening is the service's to say: its refusal is the answer, in the reader's language."""
    for path in ("sheets.pdf", "standings.csv", "qr.svg"):
        got = client.get(f"/api/evenings/nope/{path}?lang=de")
        assert got.status_code == 404 and got.json()["code"] == "no_page"
    got = client.get("/api/clubs/zz/evenings.ics")
    assert got.status_code == 404 and got.json()["code"] == "no_club" and "zz" in got.json()["message"]


def test_docs_name_the_prints():
    """docs/evenings-print.md says what the check digit is for and how it is made."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "evenings-print.md").read_text(encoding="utf-8")
    for word in ("check digit", "Damm", "row_check", "RRULE", "best_of", "RAMSLI_PDF_FONT"):
        assert word in doc
