"""``ramsli verify`` of an evening's download (issue 34 item 3 and "Bad input": a draw that does
not recompute from the opened seed is caught)."""

from __future__ import annotations

import copy
import hashlib
import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from ramsli.cli import app
from ramsli.commands.verify import EVENING_BAD, EVENING_OK, finding_text
from ramsli.evening.draw import apply_swaps, commitment, seed_chain
from ramsli.evening.rounds import draw_round
from ramsli.evening.scoring import hands_for, rounds_total, standings, table_result
from ramsli.evening.verify import WHATS, Finding, Malformed, verify_download
from ramsli.i18n import CATALOG_LANGS, translation


def simulate(
    fmt: str = "final",
    people: int = 23,
    rounds: int = 3,
    *,
    best: int = 5,
    final_size: int | None = 5,
    small_final: bool = True,
    swaps: dict[int, list[tuple[str, str]]] | None = None,
    byes: dict[int, list[str]] | None = None,
    seed: int = 7,
) -> dict:
    """An evening played to the end with random nets, as its download (JSON round-tripped)."""
    rng = random.Random(seed)
    ids = [f"p{i:02d}" for i in range(1, people - 1)] + ["bot:expert:1", "bot:casual:2"]
    chain = seed_chain(rounds_total(fmt, rounds), rng.randbytes(32))
    c = commitment(chain)
    results, byes_so_far, played = [], {}, []
    for r in range(1, len(chain) + 1):
        prior = standings(ids, results, fmt, byes_so_far, c)
        d = draw_round(
            fmt,
            r,
            rounds,
            ids,
            prior,
            chain[r - 1],
            best=best,
            final_size=final_size,
            small_final=small_final,
            byes=(byes or {}).get(r, ()),
        )
        recorded = (swaps or {}).get(r, [])
        tables = apply_swaps(d.drawn, recorded)
        out = []
        for n, t in enumerate(tables, 1):
            tr = table_result(r, n, d.kinds[n - 1], [(p, rng.randint(-6, 6) * 2, 0) for p in t])
            results.append(tr)
            out.append(
                {
                    "table": n,
                    "mode": "online",
                    "hands": hands_for(len(t), 10),
                    "seats": [s.to_data() for s in tr.seats],
                }
            )
        if d.kind == "qualifying" and d.byes:
            byes_so_far[r] = list(d.byes)
        played.append(
            {
                "round": r,
                "kind": d.kind,
                "participants": list(d.participants),
                "byes": list(d.byes),
                "sizes": list(d.sizes),
                "order": None if d.order is None else list(d.order),
                "drawn": [list(t) for t in d.drawn],
                "swaps": [list(s) for s in recorded],
                "tables": tables,
                "results": out,
            }
        )
    final = standings(ids, results, fmt, byes_so_far, c)
    data = {
        "kind": "ramsli-evening",
        "version": 1,
        "id": "ev1",
        "name": "Thursday",
        "format": fmt,
        "preset": "traditional",
        "best": best,
        "rounds": rounds,
        "hands_per_round": 10,
        "final_size": final_size,
        "small_final": small_final,
        "commitment": c,
        "seeds": {str(r): s for r, s in enumerate(chain, 1)},
        "participants": {p: {"name": p, "kind": "bot" if p.startswith("bot:") else "person"} for p in ids},
        "rounds_played": played,
        "standings": [s.to_data() for s in final],
        "log": [],
    }
    return json.loads(json.dumps(data))


def bad(findings: list[Finding]) -> list[Finding]:
    return [f for f in findings if not f.ok]


@pytest.mark.parametrize("fmt", ["lot", "results", "final"])
def test_a_good_download_checks(fmt):
    data = simulate(fmt)
    found = verify_download(data)
    assert bad(found) == []
    whats = {f.what for f in found}
    assert {"commitment", "seed", "sizes", "draw", "tables", "result", "standings"} <= whats
    if fmt != "lot":
        assert "order" in whats
    if fmt == "final":
        assert "finalists" in whats and data["rounds_played"][3]["kind"] == "final"
        assert [t["seats"].__len__() for t in data["rounds_played"][3]["results"]] == [5, 5]
        assert [s["note"] for s in data["standings"][:11]] == ["final"] * 5 + ["small_final"] * 5 + [""]


def test_the_draw_recomputes_from_the_download_with_hashlib_only():
    """Issue 34 "Tests that must exist": the draw recomputed independently (only hashlib) from the download."""
    from test_evening_draw import Ref  # the hashlib-only re-implementation

    data = simulate("final")
    for rnd in data["rounds_played"]:
        seed = data["seeds"][str(rnd["round"])]
        assert rnd["sizes"] == Ref.split(len(rnd["participants"]), data["best"]) or rnd["kind"] == "final"
        if rnd["order"] is None:
            assert rnd["drawn"] == Ref.by_lot(rnd["participants"], rnd["sizes"], seed, rnd["round"])
        else:
            assert rnd["drawn"] == Ref.by_order(rnd["order"], rnd["sizes"], seed, rnd["round"])
        # each opened seed hashed down round times is the commitment
        s = bytes.fromhex(seed)
        for _ in range(rnd["round"]):
            s = hashlib.sha256(s).digest()
        assert s.hex() == data["commitment"]


def test_recorded_re_seats_and_byes_check():
    data = simulate(
        "results", people=12, rounds=3, swaps={2: [("p01", "p02"), ("p03", "bot:expert:1")]}, byes={3: ["p05"]}
    )
    assert bad(verify_download(data)) == []
    r3 = data["rounds_played"][2]
    assert r3["byes"] == ["p05"] and r3["sizes"] == [6, 5]
    row = next(s for s in data["standings"] if s["participant"] == "p05")
    assert row["rounds"][2] == 50.0
    assert data["rounds_played"][1]["tables"] != data["rounds_played"][1]["drawn"]


def test_a_tampered_draw_is_caught():
    """Two ids swapped in "tables" without a recorded re-seat: the tables are not the draw."""
    data = simulate("lot")
    t = data["rounds_played"][1]["tables"]
    t[0][0], t[2][1] = t[2][1], t[0][0]
    found = bad(verify_download(data))
    first = found[0]
    assert (first.what, first.round, first.table) == ("tables", 2, 1)
    assert first.expected.split(", ") == data["rounds_played"][1]["drawn"][0] and first.found.split(", ") == t[0]
    # the same swap in "drawn" as well: now the draw itself does not recompute
    data = simulate("lot")
    rnd = data["rounds_played"][1]
    for k in ("drawn", "tables"):
        rnd[k][0][0], rnd[k][2][1] = rnd[k][2][1], rnd[k][0][0]
    assert [(f.what, f.round, f.table) for f in bad(verify_download(data))][:1] == [("draw", 2, 1)]


def test_a_wrong_seed_is_caught():
    data = simulate("lot")
    data["seeds"]["2"] = "ab" * 32
    found = bad(verify_download(data))
    assert (found[0].what, found[0].round) == ("seed", 2)
    assert any(f.what == "draw" and f.round == 2 for f in found)  # the tables are not that seed's draw
    # an unopened seed cannot check its round's draw
    data = simulate("lot")
    del data["seeds"]["3"]
    found = bad(verify_download(data))
    assert [(f.what, f.round, f.found) for f in found] == [("seed", 3, "")]


def test_a_wrong_standings_row_is_caught():
    data = simulate("final")
    data["standings"][2]["score"] += 1
    found = bad(verify_download(data))
    assert [(f.what, f.rank) for f in found] == [("standings", 3)]
    data = simulate("final")
    s = data["standings"]
    s[0]["participant"], s[1]["participant"] = s[1]["participant"], s[0]["participant"]
    assert [(f.what, f.rank) for f in bad(verify_download(data))] == [("standings", 1)]


def test_a_wrong_result_or_size_or_order_is_caught():
    data = simulate("results")
    data["rounds_played"][0]["results"][1]["seats"][0]["score"] = 99.0
    assert [(f.what, f.round, f.table) for f in bad(verify_download(data))] == [("result", 1, 2)]
    data = simulate("results")
    data["rounds_played"][1]["sizes"] = [6, 6, 6, 5]
    assert [(f.what, f.round) for f in bad(verify_download(data))] == [("sizes", 2)]
    data = simulate("results")
    o = data["rounds_played"][2]["order"]
    o[0], o[-1] = o[-1], o[0]
    assert ("order", 3) in [(f.what, f.round) for f in bad(verify_download(data))]
    data = simulate("final", people=14)
    fin = data["rounds_played"][-1]
    fin["participants"][0], fin["byes"][0] = fin["byes"][0], fin["participants"][0]
    assert ("finalists", 4) in [(f.what, f.round) for f in bad(verify_download(data))]


@pytest.mark.parametrize(
    "change,field",
    [
        (lambda d: d.update(kind="ramsli-hh"), "kind"),
        (lambda d: d.update(version=2), "version"),
        (lambda d: d.update(format="teams"), "format"),
        (lambda d: d.pop("seeds"), "seeds"),
        (lambda d: d["rounds_played"][0].update(drawn="x"), "rounds_played[0].drawn"),
        (lambda d: d["rounds_played"][1].update(round=5), "rounds_played[].round"),
        (lambda d: d["standings"][0].pop("rank"), "standings"),
    ],
)
def test_a_malformed_download_names_its_field(change, field):
    data = simulate("lot", people=8, rounds=2)
    change(data)
    with pytest.raises(Malformed) as e:
        verify_download(data)
    assert e.value.field == field


def test_every_finding_has_a_text_in_every_language():
    assert set(EVENING_OK) == set(WHATS) - {"roster"}
    for lang in CATALOG_LANGS:
        tr = translation(lang)
        for template in list(EVENING_OK.values()) + list(EVENING_BAD.values()):
            assert tr.gettext(template) != template, (lang, template)
    f = Finding(False, 2, "draw", 3, expected="a, b", found="b, a")
    assert finding_text(f, lambda s: s) == "round 2, table 3: the draw gives a, b, the download has b, a"


def _run(*args):
    return CliRunner().invoke(app, ["verify", *map(str, args)])


def test_ramsli_verify_an_evening(tmp_path):
    good = tmp_path / "evening.json"
    good.write_text(json.dumps(simulate("final")), encoding="utf-8")
    r = _run(good, "--lang", "en")
    assert r.exit_code == 0, r.output
    assert "round 2: the draw recomputes from the seed" in r.output
    assert "evenings checked: 1 of 1; do not check: 0; cannot be read: 0" in r.output
    r = _run(good, "--lang", "de")
    assert r.exit_code == 0 and "Abende geprüft: 1 von 1" in r.output, r.output

    data = simulate("final")
    t = data["rounds_played"][0]["tables"]
    t[0][0], t[1][0] = t[1][0], t[0][0]
    tampered = tmp_path / "tampered.json"
    tampered.write_text(json.dumps(data), encoding="utf-8")
    r = _run(tampered, "--lang", "en")
    assert r.exit_code == 1, r.output
    assert "DOES NOT CHECK: round 1, table 1: the draw after the re-seats gives" in r.output
    # a good and a bad evening: 1
    assert _run(good, tampered).exit_code == 1


def test_ramsli_verify_an_unreadable_evening_exits_2(tmp_path):
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    r = _run(broken, "--lang", "en")
    assert r.exit_code == 2 and "cannot be read: not a JSON file" in r.output, r.output
    other = tmp_path / "other.json"
    other.write_text(json.dumps({"kind": "something"}), encoding="utf-8")
    r = _run(other, "--lang", "en")
    assert r.exit_code == 2 and "not an evening download (kind is missing or malformed)" in r.output, r.output
    r = _run(tmp_path / "missing.json", "--lang", "en")
    assert r.exit_code == 2 and "no such file" in r.output, r.output
    r = _run(broken, "--lang", "it")
    assert r.exit_code == 2 and "not a JSON file" not in r.output, r.output
    # a tampered evening with an unreadable one: the mismatch wins (1)
    data = simulate("lot", people=8, rounds=2)
    data["seeds"]["1"] = "00" * 32
    (tmp_path / "bad.json").write_text(json.dumps(data), encoding="utf-8")
    assert _run(broken, tmp_path / "bad.json").exit_code == 1


def test_the_download_is_not_changed_by_verify():
    data = simulate("final")
    before = copy.deepcopy(data)
    verify_download(data)
    assert data == before


def _paths(x, p=()):
    yield p
    if isinstance(x, dict):
        for k, v in x.items():
            yield from _paths(v, (*p, k))
    elif isinstance(x, list):
        for i, v in enumerate(x):
            yield from _paths(v, (*p, i))


_BASES = {f: simulate(f, people=9, rounds=2, final_size=4) for f in ("lot", "results", "final")}
_JUNK = [None, 0, -1, 1.5, "", "x", [], {}, [1], {"a": 1}, True, "ab" * 32, 10**30, ["a", "b"], [["a"]]]


@settings(max_examples=200, deadline=None)
@given(fmt=st.sampled_from(sorted(_BASES)), picks=st.lists(st.tuples(st.integers(1), st.integers(0, 15)), max_size=3))
def test_any_damage_is_a_finding_or_malformed_never_a_crash(fmt, picks):
    """Whatever is changed in a download, verify answers with findings (exit 1) or Malformed (exit 2)."""
    data = copy.deepcopy(_BASES[fmt])
    for where, junk in picks:
        path = list(_paths(data))[1:]
        p = path[where % len(path)]
        parent = data
        for k in p[:-1]:
            parent = parent[k]
        if junk == 15 and isinstance(parent, dict):
            del parent[p[-1]]
        else:
            parent[p[-1]] = copy.deepcopy(_JUNK[junk % len(_JUNK)])
    try:
        found = verify_download(data)
    except Malformed as e:
        assert e.field
    else:
        assert all(isinstance(f, Finding) and f.what in WHATS for f in found)
