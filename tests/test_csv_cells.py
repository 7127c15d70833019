"""Every CSV that ramsli writes is safe to open in a spreadsheet (issue 38.10, OWASP CSV injection):
a text cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return gets a leading
``'``; numbers stay numbers. Each writer is tried with the same formula-like names."""

from __future__ import annotations

import csv
import io
import re

import pytest

from ramsli.csvcells import FORMULA_STARTS, safe_cell

from helpers import SRC, http_json

#: names a spreadsheet would run as formulas
EVIL = ['=HYPERLINK("http://x.test","go")', "-2+3", "@SUM(A1)", "\t=1"]
_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def _assert_no_formula(rows: list[list[str]]) -> None:
    for row in rows:
        for cell in row:
            assert not cell.startswith(FORMULA_STARTS) or _NUMBER.fullmatch(cell), (cell, row)


def _cells(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


@pytest.mark.parametrize("cell", ["-\u0661\u0662", "-\uff11\uff12", "-\u0967.\u0968", "-1\u0662", "-12.\u0663"])
def test_a_number_in_other_digits_is_text_and_escaped(cell):
    """Only a plain number of ASCII digits is left as it is: Arabic-Indic, full-width or Devanagari
    digits after a ``-`` are no number to a spreadsheet's parser, so the cell is escaped."""
    assert safe_cell(cell) == "'" + cell


@pytest.mark.parametrize("cell", ["-12", "-0.250000", "7", "3.5"])
def test_a_plain_ascii_number_stays_a_number(cell):
    assert safe_cell(cell) == cell


def test_every_csv_writer_in_the_source_is_the_safe_one():
    """No module writes CSV with :mod:`csv` directly: only :mod:`ramsli.csvcells` does."""
    raw = re.compile(r"\bcsv\.(writer|DictWriter)\(")
    found = [
        str(p.relative_to(SRC))
        for p in sorted(SRC.rglob("*.py"))
        if raw.search(p.read_text(encoding="utf-8")) and p.name != "csvcells.py"
    ]
    assert found == []


def test_simulate_csv_keeps_formula_like_bot_names_as_text(tmp_path):
    from ramsli.lab.simulate import write_out

    summary = {
        "positions": [{"position": name, "in_rate": 0.5, "bete_rate_when_in": 0.1, "bete_rate": 0.05} for name in EVIL],
        "bots_summary": [{"bot": name, "counters_per_hand": -0.25, "ci95": 0.1} for name in EVIL],
        **{k: 0.0 for k in ("split_rate", "carry_over_rate", "walkover_rate", "thrown_in_rate")},
    }
    out = tmp_path / "s.csv"
    write_out(summary, str(out))
    rows = _cells(out.read_text(encoding="utf-8"))
    _assert_no_formula(rows)
    bots = [r for r in rows if r[0] == "bot"]
    assert [r[1] for r in bots] == ["'" + n for n in EVIL]
    assert {r[5] for r in bots} == {"-0.250000"}  # a negative number stays a number


def test_tournament_csv_keeps_formula_like_labels_as_text(tmp_path):
    from ramsli.commands.tournament import CSV_FIELDS, write_outputs

    class Result:
        def to_dict(self) -> dict:
            return {"bots": [{k: (name if k in ("label", "spec") else -1.5) for k in CSV_FIELDS} for name in EVIL]}

    (path,) = write_outputs(Result(), tmp_path / "t.csv")  # type: ignore[arg-type]
    rows = _cells(path.read_text(encoding="utf-8"))
    _assert_no_formula(rows)
    assert [r[0] for r in rows[1:]] == ["'" + n for n in EVIL] and rows[1][CSV_FIELDS.index("mean")] == "-1.5"


def test_evening_standings_csv_keeps_formula_like_names_as_text():
    from ramsli.server.evenings.prints import standings_csv

    state = {
        "standings": [
            {"rank": k, "id": f"p{k}", "name": n, "kind": "person", "score": -1, "rounds": [-1], "note": n}
            for k, n in enumerate(EVIL, 1)
        ]
    }
    rows = _cells(standings_csv(state))
    _assert_no_formula(rows)
    assert [r[1] for r in rows[1:]] == ["'" + n for n in EVIL] and rows[1][3] == "-1.00"


@pytest.fixture
def server(server_factory, sqlite_url):
    return server_factory(sqlite_url)


def test_ledger_csv_keeps_formula_like_names_as_text(server):
    """The pub ledger's score sheet: the names in the header, the dealer column, General Rams, the
    targets, the betes and the standings; a negative net stays a number (R3.7)."""
    st, made = http_json(server.http, "POST", "/api/ledgers", {"names": EVIL, "preset": "general-rams"})
    assert st == 201, made
    lid, tok = made["ledger"], made["token"]
    hands = f"/api/ledgers/{lid}/hands?token={tok}"
    st, s = http_json(server.http, "POST", hands, {"active": [0, 1], "tricks": {"0": 5}, "general_rams": 0})
    assert st == 200, s
    st, sheet = http_json(server.http, "GET", f"/api/ledgers/{lid}/ledger.csv?token={tok}")
    assert st == 200
    rows = _cells(sheet)
    _assert_no_formula(rows)
    standings = rows[rows.index(["standings", "name", "stack", "net", "winner"]) + 1 :]
    names = s["names"]  # as the ledger keeps them (a name is stripped: "\t=1" is "=1")
    assert names[1:3] == EVIL[1:3] and sorted(r[1] for r in standings[:4]) == sorted("'" + n for n in names)
    assert any(_NUMBER.fullmatch(r[3]) and r[3].startswith("-") for r in standings[:4])
