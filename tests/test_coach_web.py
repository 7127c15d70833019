"""The coach in the browser's server (issue 23 items 3-5): the review API, who sees what (R7), the
"in or out?" positions, and the hint in player words with its quick estimate until the lab's
kernel is ready.

- every review answer any token of a table receives (each seat's person, the invite links the
  creator holds, a person who took a bot seat over, the spectator), for every seat of every
  finished hand, names no card its reader could not know — as ``tests/test_server_hidden.py``
  checks the server's frames, over random rule sets and tables (hypothesis);
- a spectator and another seat get a seat's public decisions only (no value, choice, mark or
  "forced"), the session review only the seat's own person (``docs/coach.md``);
- the hint's warm-up is a state machine: the quick expert estimate answers until the kernel is
  ready, then the kernel; a failed or disabled warm-up keeps the expert (no timing asserted);
- the hint's words in four languages; the training positions hold the seat's own cards only.
"""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from babel.numbers import format_decimal
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ramsli import Hand, Rules
from ramsli.cards import Card, make_deck
from ramsli.coach import Settings
from ramsli.i18n import LANGS
from ramsli.lab import warmup
from ramsli.server.coach import hints
from ramsli.server.coach import review as coach

from helpers import cards_in, known_cards, scaled

#: a coach that looks little (the tests check who sees what, not the values)
QUICK = Settings(equilibrium_samples=60, declare_samples=20, play_samples=6, nodes=400, budget=4000)
PUBLIC_KEYS = {"action", "kind", "rule", "trick", "chosen", "lead", "declarations"}


@pytest.fixture
def quiet_warm_up(monkeypatch):
    """The server's lab warm-up is off in this process (no compile process is started)."""
    monkeypatch.setattr(hints, "_warm", [hints.LabWarmUp(enabled=False)])


def _app(url: str):
    from ramsli.server.app import create_app

    app = create_app(url, allow_test_seeds=True)
    app.state.coach = coach.CoachService(QUICK, ThreadPoolExecutor(1), warm=hints.LabWarmUp(enabled=False))
    return app


def _wait_over(client, tid: str, seconds: float = scaled(60.0)) -> None:
    deadline = time.monotonic() + seconds
    while client.get(f"/api/tables/{tid}").json()["status"] != "over":
        assert time.monotonic() < deadline, "the session did not finish"
        time.sleep(0.05)


def _review(client, path: str, seconds: float = scaled(120.0)) -> tuple[int, dict]:
    """GET a review until it is done (or refused); (status, body)."""
    deadline = time.monotonic() + seconds
    while True:
        r = client.get(path)
        body = r.json()
        if r.status_code != 200 or body.get("status") == "done":
            return r.status_code, body
        assert body["status"] in ("waiting", "running") and "progress" in body
        assert time.monotonic() < deadline, body
        time.sleep(0.05)


def _displayed(text: str, unknown: set[str]) -> set[str]:
    """Cards of ``unknown`` shown in a rendered text as a player reads them (A♠, 10♥)."""
    return {c for c in unknown if Card.parse(c).display() in text}


def _session_table(client, kinds: list[str], rules: list[str], seed: int, takeover: bool):
    """A table of people (who sat down and went away: a bot plays for them after 0 s) and bots,
    played to its end; a person takes over a bot seat from the second hand when ``takeover``."""
    seats = [{"kind": "human"} if k == "human" else {"kind": "bot", "bot": k} for k in kinds]
    made = client.post(
        "/api/web/tables",
        json={
            "seats": seats,
            "rules": rules,
            "seed": seed,
            "bot_pace_seconds": 0,
            "hand_pause_seconds": 0,
            "grace_seconds": 0,
        },
    ).json()
    assert "table" in made, made
    tid = made["table"]
    people: dict[int, str] = {}
    for i, s in enumerate(made["seats"]):
        if s["kind"] == "human":
            people[i] = client.post(f"/api/tables/{tid}/sit", json={"token": s["token"], "name": f"P{i + 1}"}).json()[
                "token"
            ]
    client.post(f"/api/tables/{tid}/start", json={"creator_token": made["creator_token"]})
    bots = [i for i, s in enumerate(made["seats"]) if s["kind"] == "bot"]
    if takeover and bots:
        i = bots[0]
        sat = client.post(f"/api/tables/{tid}/sit", json={"token": made["seats"][i]["token"], "name": f"T{i + 1}"})
        if sat.status_code == 200:
            people[i] = sat.json()["token"]
    _wait_over(client, tid)
    return made, tid, people


RULE_CHOICES = {
    "jokers": ["true", "false"],
    "deck": ["piquet32", "full52"],
    "general_rams": ["true", "false"],
    "targets": ["true", "false"],
    "dealer_forced": ["true", "false"],
    "bete": ["3", "5", "pot"],
}


def _check_reviews(tmp_path, rules: dict, kinds: list[str], seed: int, takeover: bool) -> list[str]:
    """Every failure of R7 in the review answers of one played table (see the test below)."""
    from starlette.testclient import TestClient

    kinds = ["human"] + kinds[1:]
    url = f"sqlite+aiosqlite:///{tmp_path / f's{seed}.sqlite'}"
    failures: list[str] = []
    with TestClient(_app(url)) as client:
        made, tid, people = _session_table(
            client, kinds, [f"{k}={v}" for k, v in rules.items()] + ["end=hands:2"], seed, takeover
        )
        t = client.app.state.hub.tables[tid]
        readers = {f"person p{i + 1}": (i, tok) for i, tok in people.items()}
        readers |= {f"invite p{i + 1}": (None, s["token"]) for i, s in enumerate(made["seats"])}
        readers["spectator"] = (None, made["spectate"].rsplit("/", 1)[1])
        for e in t.session.results:
            hand = e.hand
            for who, (mine, token) in readers.items():
                seat_state = t.seats[mine] if mine is not None else None
                sat = seat_state is not None and t.own_cards_shown(seat_state, e.number)
                for s in range(len(t.seats)):
                    status, body = _review(
                        client, f"/api/tables/{tid}/hands/{e.number}/review?token={token}&seat=p{s + 1}"
                    )
                    if status != 200:
                        failures.append(f"{who} hand {e.number} seat p{s + 1}: {status} {body}")
                        continue
                    own = sat and s == mine and s in hand.seated
                    if (body["access"] == "own") != (sat and s == mine):
                        failures.append(f"{who} hand {e.number} seat p{s + 1}: access {body['access']}")
                    known = known_cards(hand, mine if sat else None)
                    text = json.dumps(body, ensure_ascii=False)
                    leaked = cards_in(body) - known
                    shown = _displayed(text, {str(c) for c in make_deck(hand.rules.deck, hand.rules.jokers)} - known)
                    if leaked or shown:
                        failures.append(
                            f"{who} hand {e.number} seat p{s + 1}: {sorted(leaked | shown)} in {text[:300]}"
                        )
                    if own and not body["review"]["decisions"] and body["review"].get("cards_known") is not True:
                        failures.append(f"{who} hand {e.number}: its own review is empty")
            for who, (mine, token) in readers.items():
                r = client.get(f"/api/tables/{tid}/review?token={token}")
                if mine is None:
                    if r.status_code != 403 or r.json()["error"] != "no_review":
                        failures.append(f"{who}: a session review for a token without a seat: {r.status_code}")
                    continue
                status, body = _review(client, f"/api/tables/{tid}/review?token={token}")
                mine_hands = {n for n in body.get("hands", [])}
                known = set().union(
                    *(known_cards(x.hand, mine) for x in t.session.results if x.number in mine_hands)
                ) | set().union(*(known_cards(x.hand, None) for x in t.session.results))
                leaked = cards_in(body) - known
                if leaked:
                    failures.append(f"{who}: its session review names {sorted(leaked)}")
    return failures


@settings(
    max_examples=5,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
)
@given(
    rules=st.fixed_dictionaries({}, optional={k: st.sampled_from(v) for k, v in RULE_CHOICES.items()}),
    kinds=st.lists(st.sampled_from(["human", "tips", "random"]), min_size=3, max_size=5),
    seed=st.integers(0, 2**31),
    takeover=st.booleans(),
)
def test_no_review_answer_holds_a_card_its_reader_may_not_know(tmp_path, quiet_warm_up, rules, kinds, seed, takeover):
    """R7, D-16: every answer of the review API, to every token of the table, for every seat of every
    finished hand, and every session review, names only cards its reader may know: its own dealt
    cards when it sat there in that hand (and only then gets ``"access": "own"``), the turn-up, the
    jokers turned aside and the cards played."""
    assert _check_reviews(tmp_path, rules, kinds, seed, takeover) == []


def test_the_review_checker_catches_a_leak(tmp_path, quiet_warm_up, monkeypatch):
    """The check above can fail: public decisions that show the seat's dealt cards are caught."""
    original = coach.public_decisions

    def leaky(t, number, seat):
        out = original(t, number, seat)
        out["cards"] = [str(c) for c in t.session.results[number - 1].hand.dealt[seat]]
        return out

    monkeypatch.setattr(coach, "public_decisions", leaky)
    failures = _check_reviews(tmp_path, {}, ["human", "tips", "tips"], 3, False)
    assert failures and any("spectator" in f for f in failures)


def test_what_a_spectator_another_seat_and_the_owner_see(tmp_path, quiet_warm_up):
    """docs/coach.md, *Who sees what*: the owner gets its seat's values and marks; another seat's
    person, an invite link (the creator holds them all) and the spectator get that seat's public
    decisions only — the actions everyone saw, without values, choices, marks or "forced"; the
    session review is the owner's alone. A seat that is not at the table is refused by name."""
    from starlette.testclient import TestClient

    with TestClient(_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}")) as client:
        made, tid, people = _session_table(client, ["human", "human", "tips", "tips"], ["end=hands:1"], 11, False)
        hand = client.app.state.hub.tables[tid].session.results[0].hand
        base = f"/api/tables/{tid}/hands/1/review"
        status, own = _review(client, f"{base}?token={people[0]}")
        assert status == 200 and own["access"] == "own" and own["seat"] == "p1"
        assert own["review"]["format"] == "ramsli-review/1"
        d = own["review"]["decisions"][0]
        assert d["kind"] == "declare" and len(d["choices"]) == 2 and set(d["cards"]) == {str(c) for c in hand.dealt[0]}
        readers = [people[1], made["seats"][0]["token"], made["spectate"].rsplit("/", 1)[1]]
        for token in readers:
            status, pub = _review(client, f"{base}?token={token}&seat=p1")
            assert status == 200 and pub["access"] == "public", pub
            rv = pub["review"]
            assert rv["format"] == coach.PUBLIC_FORMAT and rv["seat"] == "p1"
            assert [x["chosen"] for x in rv["decisions"]] == [str(a) for a in hand.history if a.seat == 0]
            for x in rv["decisions"]:
                assert set(x) == PUBLIC_KEYS  # no values, choices, marks, own cards or "forced"
        # another seat's person reads its own seat's values, not p1's
        status, theirs = _review(client, f"{base}?token={people[1]}")
        assert theirs["access"] == "own" and theirs["seat"] == "p2"
        for token in readers[1:]:
            r = client.get(f"/api/tables/{tid}/review?token={token}")
            assert r.status_code == 403 and r.json()["error"] == "no_review"
        r = client.get(f"/api/tables/{tid}/review?token={people[0]}&lang=de")
        status, sess = _review(client, f"/api/tables/{tid}/review?token={people[0]}&lang=de")
        assert sess["review"]["format"] == "ramsli-session-review/1"
        assert [p["seat"] for p in sess["review"]["players"]] == ["p1"] and "reviews" not in sess["review"]
        r = client.get(f"{base}?token={people[0]}&seat=p9")
        assert r.status_code == 404 and r.json()["error"] == "no_seat"
        r = client.get(f"{base}?token=nope")
        assert r.status_code == 403 and r.json()["error"] == "bad_token"
        r = client.get(f"/api/tables/{tid}/hands/7/review?token={people[0]}")
        assert r.status_code == 404 and r.json()["error"] == "no_hand"
        page = client.get(f"/t/{tid}/review?token={people[0]}&hand=1&lang=nl")
        assert page.status_code == 200 and "review.js" in page.text and not cards_in(page.text.split("ramsli-page")[1])


def test_a_review_is_computed_once_and_its_progress_is_reported(tmp_path, quiet_warm_up):
    """The review of (table, hand, seat) runs once in the background, reports decisions valued, and
    is kept: asking again answers from the cache."""
    from starlette.testclient import TestClient

    app = _app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}")
    gate = threading.Event()
    original = coach._review_task
    seen: list[tuple[int, int]] = []

    def slow(job, toml, seat, settings):
        def progress(d, t):
            seen.append((d, t))
            coach._report(job, d, t)
            gate.wait(scaled(10))

        from ramsli.coach import review_hand
        from ramsli.history import HandHistory

        return review_hand(HandHistory.from_toml(toml), seat, settings, progress=progress)

    coach._review_task = slow
    try:
        with TestClient(app) as client:
            _made, tid, people = _session_table(client, ["human", "tips", "tips"], ["end=hands:1"], 4, False)
            path = f"/api/tables/{tid}/hands/1/review?token={people[0]}"
            first = client.get(path).json()
            assert first["status"] in ("waiting", "running")
            deadline = time.monotonic() + scaled(30)
            while not seen:
                assert time.monotonic() < deadline
                time.sleep(0.02)
            running = client.get(path).json()
            assert running["status"] == "running" and running["progress"]["total"] == seen[0][1]
            gate.set()
            status, done = _review(client, path)
            assert done["status"] == "done"
            calls = len(seen)
            again = client.get(path).json()
            assert again["status"] == "done" and len(seen) == calls  # from the cache
            assert again["review"] == done["review"]
    finally:
        coach._review_task = original


# -- the hint ------------------------------------------------------------------------------------------


def _declaring_obs(players: int = 5, seed: int = 3):
    hand = Hand.new(Rules(), [20] * players, dealer=players - 1, rng=random.Random(seed))
    hand.apply(hand.observe(hand.to_act).legal[0])
    return hand.observe(hand.to_act)


def test_the_first_hint_is_the_quick_one_until_the_kernel_is_ready():
    """The warm-up's state machine: cold → compiling → loading → ready. While it compiles, a hint is the
    expert's quick estimate (it never waits for the compile); once ready, the same position is
    answered again by the kernel (the quick answer is not kept over it). No time is asserted."""
    gate = threading.Event()
    steps: list[str] = []

    def compile_cold(note):
        steps.append("compile")
        note(json.dumps({"kernel": "odds", "step": "start"}))
        gate.wait(scaled(30))
        note(json.dumps({"kernel": "odds", "step": "done", "seconds": 1.0}))

    w = hints.LabWarmUp(
        any_cold=lambda: True, compile_cold=compile_cold, load=lambda: steps.append("load"), available=lambda: True
    )
    assert w.state is hints.WarmState.COLD and not w.ready
    w.start()
    deadline = time.monotonic() + scaled(10)
    while w.state is not hints.WarmState.COMPILING:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    queries: list[dict] = []

    def kernel(**query):
        queries.append(query)
        return {
            "p_trick": {"mean": 0.8, "ci95": 0.01},
            "p_most": {"mean": 0.3, "ci95": 0.01},
            "ev_in": {"mean": 1.0, "ci95": 0.1},
            "ev_out": {"mean": -1.0, "ci95": 0.0},
            "ev_diff": {"mean": 2.0, "ci95": 0.1},
            "out_allowed": True,
            "samples": 20000,
            "accepted": 20000,
            "conditioning": "none",
        }

    obs = _declaring_obs()
    key = ("t-hint", obs.seat, 1, 7)
    hints._done.pop(key, None)

    async def ask():
        return await hints.answer_hint(obs, key, warm=w, kernel=kernel)

    quick = asyncio.run(ask())
    assert quick["estimate"] == "expert" and quick["ev_diff"] is not None and queries == []
    assert asyncio.run(ask()) is quick  # kept while the kernel is not ready
    gate.set()
    w.finished.wait(scaled(10))
    assert w.state is hints.WarmState.READY and steps == ["compile", "load"] and w.compiled
    assert any("compiling the odds kernel" in line for line in w.progress)  # progress in the log
    ready = asyncio.run(ask())
    assert ready["estimate"] == "kernel" and queries and queries[0] == hints.hint_query(obs, seed=queries[0]["seed"])
    assert ready["p_trick"]["mean"] == 0.8
    hints._done.pop(key, None)


def test_a_failed_or_disabled_warm_up_keeps_the_quick_hint():
    def broken(note):
        raise RuntimeError("no compiler here")

    w = hints.LabWarmUp(any_cold=lambda: True, compile_cold=broken, load=lambda: None, available=lambda: True)
    w.run()
    assert w.state is hints.WarmState.FAILED and "no compiler here" in w.reason and w.settled
    off = hints.LabWarmUp(enabled=False)
    assert off.state is hints.WarmState.OFF and off.settled
    missing = hints.LabWarmUp(available=lambda: False)
    assert missing.state is hints.WarmState.OFF
    warm_cache = hints.LabWarmUp(any_cold=lambda: False, compile_cold=broken, load=lambda: None, available=lambda: True)
    warm_cache.run()  # nothing to compile: straight to loading, then ready
    assert warm_cache.ready and not warm_cache.compiled
    obs = _declaring_obs(4, 9)
    key = ("t-hint-off", obs.seat, 1, 1)
    hints._done.pop(key, None)
    answer = asyncio.run(hints.answer_hint(obs, key, warm=w))
    assert answer["estimate"] == "expert"
    hints._done.pop(key, None)


def test_the_quick_estimate_reads_the_seats_own_view_only():
    """The expert's estimate is a function of the seat's observation (R7): hands that differ only in
    the other seats' hidden cards give the same answer."""
    hand = Hand.new(Rules(), [20] * 4, dealer=3, rng=random.Random(5))
    obs = hand.observe(hand.to_act)
    mine = list(hand.dealt[obs.seat])
    others = [c for c in make_deck("piquet32") if c not in mine and c != hand.turn_up]
    random.Random(2).shuffle(others)
    hands = [list(mine) if s == obs.seat else [others.pop() for _ in range(5)] for s in range(4)]
    other = Hand.from_cards(Rules(), [20] * 4, 3, hands, hand.turn_up)
    a = hints.quick_estimate(obs, seed=3, samples=60)
    b = hints.quick_estimate(other.observe(obs.seat), seed=3, samples=60)
    assert a == b and a["samples"] == 60


@pytest.mark.parametrize("lang", LANGS)
def test_the_hint_speaks_in_player_words(lang):
    """ "Stay in: about 2.0 counters better than going out" / "Close: within 0.1 counters either way"
    / "Go out: …", in the reader's language and locale, numbers in the detail line (R9 words)."""
    stay, close, out = (
        hints.advice_text(2.04, 0.1, lang),
        hints.advice_text(0.03, 0.02, lang),
        hints.advice_text(-1.5, 0.2, lang),
    )
    must = hints.advice_text(None, 0.0, lang)
    sep = "." if lang == "en" else ","
    assert f"2{sep}0" in stay and f"0{sep}1" in close and f"1{sep}5" in out
    words = {
        "en": ("Stay in", "Close", "Go out"),
        "de": ("Rein", "Knapp", "Raus"),
        "nl": ("Mee", "Krap", "Pas"),
        "it": ("Dentro", "Di poco", "Fuori"),
        "fr": ("Joue", "Serré", "Passe"),
    }[lang]
    assert stay.startswith(words[0]) and close.startswith(words[1]) and out.startswith(words[2])
    assert len({stay, close, out, must}) == 4
    detail = hints.detail_text({"ev_diff": {"mean": 2.04, "ci95": 0.1}, "samples": 1000, "estimate": "expert"}, lang)
    assert f"+2{sep}04" in detail and format_decimal(1000, locale=lang) in detail  # "1,000", "1.000"
    if lang != "en":
        assert stay != hints.advice_text(2.04, 0.1, "en") and detail != hints.detail_text(
            {"ev_diff": {"mean": 2.04, "ci95": 0.1}, "samples": 1000, "estimate": "expert"}, "en"
        )


@pytest.mark.parametrize("lab", [True, False], ids=["lab", "no-lab"])
def test_the_hint_route_answers_in_words_at_once(tmp_path, quiet_warm_up, monkeypatch, lab):
    """At a hint table, on the player's own turn to declare, the hint answers with words, the detail
    line and which estimate answered (the expert's: the warm-up is off), in the page's language;
    a server without the ``lab`` extra answers it the same way (the lobby offers the hint there too)."""
    from starlette.testclient import TestClient

    if not lab:
        monkeypatch.setattr(hints, "lab_available", lambda: False)
        monkeypatch.setattr(hints, "_warm", [hints.LabWarmUp(available=lambda: False)])
        assert hints.lab_warm_up().state is hints.WarmState.OFF
        from test_lobby_page import _page_data

        assert "lab" not in _page_data()  # nothing on the lobby page depends on the lab
    with TestClient(_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}")) as client:
        made = client.post(
            "/api/web/tables",
            json={
                "seats": [{"kind": "bot", "bot": "tips"}, {"kind": "human"}, {"kind": "bot", "bot": "tips"}],
                "rules": ["end=hands:1"],
                "seed": 8,
                "bot_pace_seconds": 0,
                "hand_pause_seconds": 0,
                "hint": True,
            },
        ).json()
        tid = made["table"]
        token = client.post(f"/api/tables/{tid}/sit", json={"token": made["seats"][1]["token"], "name": "Ann"}).json()[
            "token"
        ]
        with client.websocket_connect(f"/ws/{tid}") as ws:
            ws.send_text(json.dumps({"type": "hello", "token": token}))
            client.post(f"/api/tables/{tid}/start", json={"creator_token": made["creator_token"]})
            deadline = time.monotonic() + scaled(20)
            while True:
                msg = json.loads(ws.receive_text())
                if msg["type"] == "view" and msg["to_act"] == "p2" and msg["hand"]["phase"] == "declare":
                    break
                assert time.monotonic() < deadline
            r = client.get(f"/api/tables/{tid}/hint?token={token}&lang=it")
            assert r.status_code == 200, r.text
            body = r.json()
            assert body["estimate"] == "expert" and body["advice"] in ("in", "out", "close", "must")
            assert body["text"] and body["detail"] and "esperto" in body["detail"]
            assert cards_in(body) == set()  # words and numbers, no card at all


# -- "in or out?" ------------------------------------------------------------------------------------------


def test_training_covers_every_solved_game():
    from ramsli.lab.equilibrium import default_policies

    names = {g.name for g in coach.training_games()}
    assert names == {n.removesuffix(".json") for n in default_policies()}
    assert {"traditional-3", "traditional-5", "double-penalty-5", "pot-bete-5"} <= names


def test_training_positions_hold_only_the_seats_own_cards(tmp_path, quiet_warm_up):
    """A position from one's own table shows that seat's cards only and only to its person (R7);
    a generated one is a legal turn to declare with the declarations before it; the answer gives the
    equilibrium's answer and the value; bad requests are refused by name."""
    from starlette.testclient import TestClient

    with TestClient(_app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}")) as client:
        made, tid, people = _session_table(
            client, ["human", "tips", "tips", "tips", "tips"], ["end=hands:3"], 21, False
        )
        t = client.app.state.hub.tables[tid]
        spect = made["spectate"].rsplit("/", 1)[1]
        r = client.post(
            "/api/train/position",
            json={
                "source": "mine",
                "tables": [{"table": tid, "token": spect}, {"table": tid, "token": made["seats"][0]["token"]}],
            },
        )
        assert (
            r.status_code == 404 and r.json()["error"] == "no_position"
        )  # a spectator and an invite link own no cards
        seen = []
        for _ in range(4):
            r = client.post(
                "/api/train/position",
                json={"source": "mine", "tables": [{"table": tid, "token": people[0]}], "skip": seen},
            )
            if r.status_code == 404:
                break
            p = r.json()
            assert p["from"]["kind"] == "table" and p["seat"] == "p1"
            hand = t.session.results[p["from"]["hand"] - 1].hand
            assert set(p["cards"]) == {str(c) for c in hand.dealt[0]}
            assert cards_in(p) <= known_cards(hand, 0) and p["position"] == len(p["before"])
            seen.append(f"{tid}/{p['from']['hand']}")
            a = client.post(
                "/api/train/answer", json={"id": p["id"], "answer": "out"}, headers={"Accept-Language": "nl"}
            ).json()
            assert a["actual"] in ("in", "out") and a["source"] in ("equilibrium", "table")
        assert seen
        for game in ("traditional-3", "traditional-6", "pot-bete-5"):
            p = client.post("/api/train/position", json={"source": "generated", "game": game}).json()
            assert p["game"]["name"] == game and len(p["cards"]) == 5 and p["turn_up"] not in p["cards"]
            assert len(p["before"]) == p["position"] == p["order"].index(p["seat"])
            a = client.post("/api/train/answer", json={"id": p["id"], "answer": "in"}).json()
            assert a["best"] in ("in", "out") and a["equilibrium"]["answer"] in ("in", "out", "mixed")
            assert a["correct"] == (a["close"] or a["best"] == "in") and (a["loss"] == 0) == a["correct"]
            assert a["text"] and a["detail"]
        r = client.post("/api/train/position", json={"game": "rounce-9"})
        assert r.status_code == 404 and r.json()["error"] == "no_game"
        r = client.post("/api/train/answer", json={"id": "nope", "answer": "in"})
        assert r.status_code == 404 and r.json()["error"] == "no_position"
        r = client.post("/api/train/answer", json={"id": "x", "answer": "maybe"})
        assert r.status_code == 422 and r.json()["error"] == "bad_message"


def test_a_failed_review_says_so_once_and_a_busy_coach_refuses_or_queues(tmp_path, quiet_warm_up, monkeypatch):
    """A review that fails is answered ``409 review_failed`` (and tried again on the next request);
    with the coach at its limit a hand's review is refused ``429 coach_busy``, and a session review
    starts its hands in turns instead of failing."""
    from starlette.testclient import TestClient

    app = _app(f"sqlite+aiosqlite:///{tmp_path / 's.sqlite'}")
    original = coach._review_task
    fail = {"on": True}

    def flaky(job, toml, seat, settings):
        if fail["on"]:
            raise RuntimeError("the worker died")
        return original(job, toml, seat, settings)

    monkeypatch.setattr(coach, "_review_task", flaky)
    with TestClient(app) as client:
        _made, tid, people = _session_table(client, ["human", "tips", "tips"], ["end=hands:3"], 6, False)
        path = f"/api/tables/{tid}/hands/1/review?token={people[0]}"
        deadline = time.monotonic() + scaled(30)
        while (r := client.get(path)).status_code == 200:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        assert r.status_code == 409 and r.json()["error"] == "review_failed"
        assert r.json()["fields"] == {"detail": "error"} and "the worker died" not in r.text  # no raw exception
        fail["on"] = False
        status, done = _review(client, path)  # tried again
        assert status == 200 and done["status"] == "done"
        monkeypatch.setattr(coach, "MAX_PENDING", 1)
        gate = threading.Event()

        def held(job, toml, seat, settings):
            gate.wait(scaled(20))
            return original(job, toml, seat, settings)

        monkeypatch.setattr(coach, "_review_task", held)
        first = client.get(f"/api/tables/{tid}/hands/2/review?token={people[0]}").json()
        assert first["status"] in ("waiting", "running")
        r = client.get(f"/api/tables/{tid}/hands/3/review?token={people[0]}")
        assert r.status_code == 429 and r.json()["error"] == "coach_busy"
        s = client.get(f"/api/tables/{tid}/review?token={people[0]}").json()
        assert s["status"] == "running" and s["progress"]["total"] == 3 and s["progress"]["done"] == 1
        gate.set()
        status, sess = _review(client, f"/api/tables/{tid}/review?token={people[0]}")
        assert status == 200 and sess["review"]["players"][0]["hands"] == 3


def test_the_warm_up_compiles_each_cold_kernel_through_the_lab(monkeypatch):
    """The server's default warm-up compiles through :mod:`ramsli.lab.warmup`, one kind of
    ``hints.KERNELS`` at a time and only the cold ones, with one progress line per step; a
    compile that fails fails the warm-up (expert hints), never the server."""
    compiled: list[tuple[str, ...]] = []
    monkeypatch.setattr(warmup, "kernel_ready", lambda kinds: kinds == "odds")  # odds cached, advantage cold
    monkeypatch.setattr(
        warmup, "compile_elsewhere", lambda kinds, progress=None, fallback=True: compiled.append((*kinds, fallback))
    )
    notes: list[str] = []
    hints._compile_in_process(notes.append)
    assert compiled == [(warmup.ADVANTAGE, False)]  # never compiled in the server's own process
    steps = [(n["kernel"], n["step"]) for n in map(json.loads, notes)]
    assert steps == [("odds", "cached"), (warmup.ADVANTAGE, "start"), (warmup.ADVANTAGE, "done")]

    def broken(kinds, progress=None, fallback=True):
        raise RuntimeError("no compiler here")

    monkeypatch.setattr(warmup, "compile_elsewhere", broken)
    monkeypatch.setattr(warmup, "kernel_ready", lambda kinds: False)
    failed = hints.LabWarmUp(load=lambda: None, available=lambda: True)
    failed.run()
    assert failed.state is hints.WarmState.FAILED and "no compiler here" in (failed.reason or "")
