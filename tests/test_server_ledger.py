"""The pub ledger on the server (issue 16, ``ramsli.server.ledger.books``) in a real ``ramsli serve``
process on SQLite: hands booked over HTTP, refused entries store nothing, edits settle again,
the follow link is read-only, the CSV, and everything survives SIGKILL and a restart (R3.4)."""

from __future__ import annotations

import csv
import io

import pytest

from helpers import ServerProcess, http_json


@pytest.fixture
def server(server_factory, sqlite_url):
    """A server of its own (the test kills it)."""
    return server_factory(sqlite_url)


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory):
    """One server for the tests that neither stop it nor need an empty database (each makes its own ledger)."""
    d = tmp_path_factory.mktemp("ledger")
    sp = ServerProcess(f"sqlite+aiosqlite:///{d / 'server.sqlite'}", d).start()
    yield sp
    sp.stop()


def test_a_ledger_books_refuses_edits_and_survives_a_restart(server, server_factory):
    st, made = http_json(
        server.http,
        "POST",
        "/api/ledgers",
        {"names": ["Ann", "Bo", "Cy"], "preset": "general-rams", "first_dealer": 2, "cents": True},
    )
    assert st == 201, made
    lid, tok = made["ledger"], made["token"]
    follow = made["follow"].rsplit("/", 1)[1]
    hands = f"/api/ledgers/{lid}/hands?token={tok}"
    st, s = http_json(server.http, "POST", hands, {"active": [0, 1], "tricks": {"0": 3, "1": 2}})
    assert st == 200 and s["stacks"] == [22, 19, 19] and s["dealer"] == 0  # R5.1, R3.2
    st, s = http_json(server.http, "POST", hands, {"active": [0, 1, 2], "tricks": {"0": 5}, "general_rams": 0})
    assert st == 200 and s["hands"][1]["settlement"]["general_rams"] == {"seat": "Ann", "made": True}  # R5.6
    # refused with the rule, nothing stored (R4.9, R4.7)
    for bad, code, rule in [
        ({"active": [0, 1], "tricks": {"0": 3, "1": 1}}, "tricks_sum", "R4.9"),
        ({"active": [0, 1], "tricks": {"0": 3, "1": 2}, "general_rams": 2}, "gr_not_active", "R4.7"),
    ]:
        st, err = http_json(server.http, "POST", hands, bad)
        assert st == 422 and err["error"] == "refused" and (err["code"], err["rule"]) == (code, rule), err
        assert err["fields"]["hand"] == 3 and err["message"].endswith(f"({rule})")
    st, err = http_json(server.http, "POST", hands, {"active": [0, "x"]})  # the shape: refused before the ledger looks
    assert st == 422 and (err["error"], err["code"], err["fields"]) == (
        "bad_message",
        "field_int",
        {"field": "active[1]"},
    )
    st, again = http_json(server.http, "GET", f"/api/ledgers/{lid}?token={follow}")
    assert len(again["hands"]) == 2 and again["stacks"] == s["stacks"] and again["keeper"] is False
    # the follow link is read-only
    st, err = http_json(
        server.http, "POST", f"/api/ledgers/{lid}/hands?token={follow}", {"active": [0, 1], "tricks": {"0": 3, "1": 2}}
    )
    assert st == 403
    # an edit of hand 1 settles hand 2 again (R3.4)
    st, e = http_json(
        server.http, "PUT", f"/api/ledgers/{lid}/hands/1?token={tok}", {"active": [0, 1], "tricks": {"0": 2, "1": 3}}
    )
    assert st == 200 and e["hands"][0]["edited"] and e["stacks"] != s["stacks"]
    assert sum(e["stacks"]) + e["pot"] == 60 and len(e["edits"]) == 1
    st, sheet = http_json(server.http, "GET", f"/api/ledgers/{lid}/ledger.csv?token={follow}")
    rows = list(csv.reader(io.StringIO(sheet)))
    assert rows[0][:5] == ["hand", "dealer", "Ann in", "Ann tricks", "Ann stack"]
    assert rows[2][0] == "1" and rows[2][-1] == "edited" and rows[3][0] == "2"
    before = e
    server.kill()  # SIGKILL: nothing but the database is left
    sp = server_factory(server.database)
    st, after = http_json(sp.http, "GET", f"/api/ledgers/{lid}?token={tok}")
    assert st == 200 and after == before  # same hands, same counters, the edit kept
    st, done = http_json(sp.http, "POST", f"/api/ledgers/{lid}/end?token={tok}")
    assert st == 200 and done["over"] and done["standings"][0]["winner"]  # R3.7
    st, err = http_json(sp.http, "GET", f"/api/ledgers/{lid}?token=nope")
    assert st == 403
    st, tables = http_json(sp.http, "GET", "/api/tables")
    assert st == 200  # the card tables still restore beside the ledger


def test_a_bad_ledger_spec_is_refused(shared_server):
    for body in [
        {"names": ["Ann"]},
        {"names": ["Ann", "ann"]},
        {"names": ["A", "B"], "preset": "nope"},
        {"names": ["A", "B"], "options": {"bete": -3}},
        {"names": ["A", "B"], "first_dealer": 5},
    ]:
        st, err = http_json(shared_server.http, "POST", "/api/ledgers", body)
        assert st == 422 and err["error"] == "bad_spec", (body, err)


def test_the_ledger_csv_keeps_a_formula_like_name_as_text(shared_server):
    """A seat name a spreadsheet would run as a formula ("=", "+", "-", "@") is written with a leading
    "'" in the score sheet's CSV (CSV injection); the name itself is kept as typed."""
    st, made = http_json(shared_server.http, "POST", "/api/ledgers", {"names": ["=1+1", "@Bo", "Cy"]})
    assert st == 201, made
    lid, tok = made["ledger"], made["token"]
    st, s = http_json(shared_server.http, "GET", f"/api/ledgers/{lid}?token={tok}")
    assert st == 200 and "=1+1" in str(s)
    st, sheet = http_json(shared_server.http, "GET", f"/api/ledgers/{lid}/ledger.csv?token={tok}")
    rows = list(csv.reader(io.StringIO(sheet)))
    assert rows[0][2:4] == ["'=1+1 in", "'=1+1 tricks"] and rows[0][5] == "'@Bo in"
    assert all(not c.startswith(("=", "+", "@")) for r in rows for c in r)
