"""The kernel's compile out of a person's way (issue 28): the cache folder, the compile lock, the
background compile's readiness flag, and the Python run of the kernel's own code (the quick path)."""

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

from ramsli.cards import Card, make_deck, parse_cards
from ramsli.lab import jitcache, warmup
from ramsli.lab import kernel as K
from ramsli.lab import odds as O
from ramsli.lab.simulate import simulate
from ramsli.lab.twin import mix, python_kernel, start, u_at, uniform
from ramsli.rules import Rules

from helpers import scaled

# -- where the compiled kernels are kept ---------------------------------------------------------


def test_numba_cache_dir_is_the_persons_own_choice(tmp_path):
    assert jitcache.choose_cache_dir({"NUMBA_CACHE_DIR": "/some/where", "RAMSLI_CACHE_DIR": str(tmp_path)}) == Path(
        "/some/where"
    )


def test_ramsli_cache_dir_then_the_user_cache_folder(tmp_path):
    assert jitcache.choose_cache_dir({"RAMSLI_CACHE_DIR": str(tmp_path / "r")}) == tmp_path / "r" / "numba"
    assert (tmp_path / "r" / "numba").is_dir()  # made when missing
    got = jitcache.choose_cache_dir({}, user_cache=str(tmp_path / "u"))
    assert got == tmp_path / "u" / "numba" and got.is_dir()


def test_an_unwritable_user_cache_falls_back_to_the_temporary_folder_then_to_none(tmp_path, monkeypatch):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")  # a folder cannot be made below a file, even by root
    monkeypatch.setattr(jitcache.tempfile, "gettempdir", lambda: str(tmp_path / "tmp"))
    got = jitcache.choose_cache_dir({}, user_cache=str(blocker / "cache"))
    assert got is not None and got.parent.parent == tmp_path / "tmp" and got.name == "numba"
    assert got.parent.name.startswith("ramsli-")
    monkeypatch.setattr(jitcache.tempfile, "gettempdir", lambda: str(blocker))
    assert jitcache.choose_cache_dir({}, user_cache=str(blocker / "cache")) is None
    assert jitcache.choose_cache_dir({"RAMSLI_CACHE_DIR": str(blocker)}) is None


def test_the_kernels_are_cached_in_the_chosen_folder(tmp_path):
    """A fresh process with RAMSLI_CACHE_DIR and no NUMBA_CACHE_DIR caches every kernel below it."""
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["RAMSLI_CACHE_DIR"] = str(tmp_path)
    code = (
        "import os, numba\n"
        "from ramsli.lab import kernel as K, solve_kernel as S\n"
        "print(os.environ['NUMBA_CACHE_DIR']); print(numba.config.CACHE_DIR)\n"
        "print(K._odds_part._cache.cache_path); print(S.hand_tables._cache.cache_path)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    lines = out.stdout.split()
    assert lines[0] == lines[1] == str(tmp_path / "numba")
    assert all(x.startswith(str(tmp_path / "numba")) for x in lines[2:])


def _held_elsewhere():
    """Hold the compile lock in another thread until the returned event is set."""
    got, release = threading.Event(), threading.Event()

    def hold():
        with jitcache.compile_lock():
            got.set()
            release.wait(scaled(60))

    t = threading.Thread(target=hold, daemon=True)
    t.start()
    assert got.wait(scaled(60))
    return release, t


def _finishes(fn, seconds=scaled(120.0)):
    """Run ``fn`` in a daemon thread and fail (instead of hanging the suite) if it does not return
    within ``seconds``: a deadlock in the compile lock shows as a failed test. Re-raises what
    ``fn`` raised."""
    box: list = []

    def run():
        try:
            box.append(("ok", fn()))
        except BaseException as e:  # noqa: BLE001 - handed to the test thread below
            box.append(("error", e))

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"{getattr(fn, '__name__', fn)} did not finish in {seconds} s (a deadlock?)"
    kind, value = box[0]
    if kind == "error":
        raise value
    return value


def test_the_compile_lock_is_exclusive_and_reentrant_for_its_holder():
    def nested():
        with jitcache.compile_lock() as held:
            assert held
            with jitcache.compile_lock(blocking=False) as again:
                assert again  # a compile inside a compile (compile_kinds -> warm_up) does not wait for itself
            with jitcache.compile_lock() as again:
                assert again  # nor blocking: the holder's own file lock is not taken a second time
            code = "from ramsli.lab import jitcache\nwith jitcache.compile_lock(blocking=False) as g: print(g)"
            out = subprocess.run(
                [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=scaled(120)
            )
            assert out.stdout.strip() == "False"  # another process sees it held

    _finishes(nested)
    release, t = _held_elsewhere()
    with jitcache.compile_lock(blocking=False) as free:
        assert free is False  # another thread holds it
    release.set()
    t.join(scaled(60))
    assert not t.is_alive()

    def free_again():
        with jitcache.compile_lock(blocking=False) as free:
            assert free

    _finishes(free_again)


def test_compile_kinds_takes_the_lock_around_warm_up_without_waiting_for_itself(monkeypatch):
    """compile_kinds holds the compile lock and calls warm_up, which takes it again for a cold
    cache: the nested take must not wait for its own holder (it did once: a hang)."""
    monkeypatch.setattr(K, "_warm", set())
    monkeypatch.setattr(K, "is_compiled", lambda kind: False)
    monkeypatch.setattr(K, "is_cached", lambda kind: False)
    monkeypatch.setattr(K, "cache_is_cold", lambda kind: True)
    monkeypatch.setattr(warmup, "_record_seconds", lambda kind, seconds: None)
    calls: list[str] = []
    monkeypatch.setattr(K, "_warm_call", lambda kind: (lambda *a: calls.append(kind), ()))
    _finishes(lambda: warmup.compile_kinds(["odds", "batch"]))
    assert calls == ["odds", "batch"] and K._warm == {"odds", "batch"}


def test_state_says_compiling_while_another_holds_the_lock(monkeypatch):
    monkeypatch.setattr(K, "_warm", set())
    monkeypatch.setattr(K, "is_compiled", lambda kind: False)
    monkeypatch.setattr(K, "is_cached", lambda kind: False)
    assert warmup.state("odds") == "cold"
    release, t = _held_elsewhere()
    try:
        assert warmup.state("odds") == "compiling" and not warmup.kernel_ready(("odds",))
    finally:
        release.set()
        t.join(scaled(60))
    assert not t.is_alive()
    monkeypatch.setattr(K, "is_cached", lambda kind: True)
    assert warmup.state("odds") == "cached"


def test_a_warm_kernel_is_ready_and_known_to_the_cache():
    K.warm_up("odds")
    assert K.is_compiled("odds") and warmup.state("odds") == "ready" and warmup.kernel_ready()
    assert K.is_cached("odds")  # written by this process or an earlier one
    assert not K.cache_is_cold("odds")
    for ask in (K.is_compiled, K.is_cached, warmup.state):
        with pytest.raises(KeyError):
            ask("nosuchkind")


# -- the background compile ------------------------------------------------------------------------


def test_background_compile_turns_the_ready_flag_on(monkeypatch):
    """kernel_ready() is False until the background compile has run and the kernel is loaded here."""
    monkeypatch.setattr(K, "_warm", set())
    compiled = threading.Event()
    release = threading.Event()
    asked: list[tuple] = []

    def fake_state(kind="odds"):
        if kind in K._warm:
            return "ready"
        return "cached" if compiled.is_set() else "cold"

    def fake_compile(kinds, progress=None):  # what the child process does: here, wait to be released
        asked.append(tuple(kinds))
        release.wait(scaled(60))
        compiled.set()

    monkeypatch.setattr(warmup, "state", fake_state)
    monkeypatch.setattr(warmup, "compile_elsewhere", fake_compile)
    assert not warmup.kernel_ready(("odds",))
    assert warmup.start_background_compile(("odds",)) is True
    assert warmup.start_background_compile(("odds",)) is False  # one at a time
    assert not warmup.kernel_ready(("odds",))
    release.set()
    warmup._bg["thread"].join(scaled(60))
    assert not warmup._bg["thread"].is_alive()
    assert asked == [("odds",)] and warmup.background_error() is None
    assert "odds" in K._warm and warmup.kernel_ready(("odds",))
    assert warmup.start_background_compile(("odds",)) is False  # nothing left to do
    with pytest.raises(KeyError):
        warmup.start_background_compile(("nosuchkind",))


def test_the_compile_process_loads_a_warm_cache_and_exits_0():
    K.warm_up("odds")  # in the cache now, so the child only loads it
    out = subprocess.run(
        [sys.executable, "-m", "ramsli.lab.warmup", "odds"], capture_output=True, text=True, timeout=scaled(600)
    )
    assert out.returncode == 0, out.stderr
    assert "odds ready" in out.stdout


def test_notes_name_the_expected_seconds(tmp_path, monkeypatch):
    monkeypatch.setattr(warmup, "_times_path", lambda: tmp_path / "t.json")
    assert warmup.expected_seconds(["odds"]) == warmup.DEFAULT_SECONDS["odds"]
    warmup._record_seconds("odds", 7.26)
    assert warmup.expected_seconds(["odds", "batch"]) == pytest.approx(7.3 + warmup.DEFAULT_SECONDS["batch"])
    assert "about 7 s" in warmup.compile_note(["odds"]) and "about 7 s" in warmup.background_note(["odds"])


# -- the kernel's code in Python: the same numbers --------------------------------------------------


def test_the_python_stream_is_the_kernels():
    """Deck order, cut and decision table of a hand from the Python stream equal make_inputs'."""
    assert mix(0) == 0 and mix(2**64 + 3) == mix(3)
    assert 0 <= uniform(start(5, 17))[1] < 1
    decks, cuts, u = K.make_inputs(5, 17, 1, K.base_deck(Rules()))
    T = python_kernel()
    d2 = np.empty_like(decks[0])
    cut, ust = T._shuffle(5, 17, K.base_deck(Rules()), d2)
    assert cut == cuts[0] and np.array_equal(d2, decks[0])
    assert [u_at(ust, k) for k in range(K.N_DECISIONS)] == list(u[0])


@pytest.mark.parametrize(
    "rules", [Rules(), Rules(general_rams=True, targets=True), Rules.preset("joker")], ids=["trad", "gr+t", "joker"]
)
def test_python_and_kernel_play_the_same_hands_and_sessions(rules):
    T = python_kernel()
    for pol in (K.RANDOM, [K.TIPS, K.RANDOM, K.TIPS, K.TIPS]):
        a = K.play_batch(rules, 4, 120, seed=7, start=3, policy=pol, pot=2)
        b = T.play_batch(rules, 4, 120, seed=7, start=3, policy=pol, pot=2)
        for k in ("tw", "tricks", "decl", "tgt", "bete", "stacks", "kind", "P", "carry", "gr", "nwin", "trump"):
            assert np.array_equal(getattr(a, k), getattr(b, k)), k
    x = K.play_sessions(rules, 3, 3, seed=2, policy=K.TIPS, cap=60)
    y = T.play_sessions(rules, 3, 3, seed=2, policy=K.TIPS, cap=60)
    assert all(np.array_equal(x[k], y[k]) for k in x)


HANDS = [  # (cards, turn-up, players, seat, before): a sure trick, a weak hand, one in the middle
    ("AS 9S KH 8D 7C", "TS", 5, 2, "in,out"),
    ("9H 8D 8C 9C 7S", "TS", 4, 0, ""),
    ("KS 8D 8C 9C 9H", "TS", 3, 2, "out,in"),
]


def _args(rules, cards, tu, n, seat, before, forced_plus=0):
    mine, turn = parse_cards(cards), Card.parse(tu)
    unknown = np.array(sorted(c.index for c in make_deck(rules.deck, rules.jokers) if c not in mine and c != turn))
    forced = np.full(n, -1)
    for i, b in enumerate(before.split(",") if before else []):
        forced[i] = (1 if b == "in" else 0) + forced_plus
    pol = np.full(n, K.TIPS)
    return (rules, 3, 0, 0, n, seat, [c.index for c in mine], turn.index, unknown, n - 1, np.full(n, 20), 0, pol,
            np.zeros(n), forced)  # fmt: skip


@pytest.mark.parametrize("hand", HANDS, ids=["sure", "weak", "middle"])
def test_python_samples_are_the_kernels_samples(hand):
    args = list(_args(Rules(), *hand))
    args[2], args[3] = 50, 300  # samples 50 .. 349
    a, b = O._kernel_samples(*args), O._python_samples(*args)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("hand", HANDS, ids=["sure", "weak", "middle"])
def test_the_quick_estimates_intervals_hold_the_kernels_value(hand):
    """in - out: 16 quick estimates of 150 samples each (Python) against 60,000 samples of the kernel.
    Their 95% intervals hold the kernel's value about 15 times in 16; fewer than 13 has a chance
    below 1% if the intervals are right, and is what too narrow an interval (or a biased estimate)
    gives."""
    args = list(_args(Rules(), *hand, forced_plus=10))
    args[3] = 2400
    d, _tr, _be, _ag = O._python_samples(*args)
    quick = (d[:, 0] - d[:, 1]).astype(float)
    args[3] = 60_000
    d, _tr, _be, _ag = O._kernel_samples(*args)
    full = (d[:, 0] - d[:, 1]).astype(float)
    assert np.array_equal(full[:2400], quick)  # the first samples are the same ones
    k_mean = float(full.mean())
    held = 0
    for block in quick.reshape(16, 150):
        m, half = O._ci(block)
        assert 0 < half < 2.0
        held += abs(m - k_mean) <= half
    assert held >= 13, held


def test_a_run_stopped_by_precision_is_the_same_on_every_path():
    kw = dict(cards="AS 9S KH 8D 7C", turn_up="TS", players=3, seat=0, time_s=600, precision=0.35, seed=4, batch=500)
    a = O.estimate(**kw, kernel="kernel")
    b = O.estimate(**kw, kernel="python")
    assert a["estimator"] == "kernel" and b["estimator"] == "python"
    for k in ("ev_diff", "ev_in", "p_trick", "p_most", "samples", "accepted", "conditioning"):
        assert a[k] == b[k], k
    assert a["samples"] % 500 == 0


def test_auto_answers_in_python_then_the_kernel_takes_over(monkeypatch):
    started: list[tuple] = []
    notes: list[str] = []
    monkeypatch.setattr(warmup, "kernel_ready", lambda kinds=("odds",): False)
    monkeypatch.setattr(warmup, "start_background_compile", lambda kinds=("odds",), load=True: started.append(kinds))
    real = K.is_compiled
    # as in a fresh process: another test of this worker may have compiled the kernel already
    monkeypatch.setattr(K, "is_compiled", lambda kind: False)
    r = O.estimate("AS 9S KH 8D 7C", "TS", 4, 0, time_s=0.05, seed=1, kernel="auto", note=notes.append)
    assert r["estimator"] == "python" and started == [("odds",)] and "background" in notes[0]
    K.warm_up("odds")
    calls = []
    monkeypatch.setattr(K, "is_compiled", lambda kind: bool(calls.append(kind)) or (len(calls) > 1 and real(kind)))
    r = O.estimate("AS 9S KH 8D 7C", "TS", 4, 0, time_s=600, precision=0.5, seed=1, kernel="auto", batch=2000)
    assert r["estimator"] == "python+kernel" and r["samples"] == 2000  # Python's 250, then the kernel to the grid
    assert r == dict(
        O.estimate("AS 9S KH 8D 7C", "TS", 4, 0, time_s=600, precision=0.5, seed=1, kernel="kernel", batch=2000),
        estimator="python+kernel",
        elapsed_s=r["elapsed_s"],
    )


def test_simulate_in_python_gives_the_kernels_summary(monkeypatch):
    rules = Rules()
    a = simulate(rules, ["tips", "random", "tips"], hands=2500, seed=3, kernel="kernel")
    b = simulate(rules, ["tips", "random", "tips"], hands=2500, seed=3, kernel="python")
    assert a["kernel_mode"] == "compiled" and b["kernel_mode"] == "python"
    monkeypatch.setattr(warmup, "kernel_ready", lambda kinds=("odds",): False)
    monkeypatch.setattr(warmup, "start_background_compile", lambda kinds, load=True: None)
    seen = []
    monkeypatch.setattr(K, "is_compiled", lambda kind: bool(seen.append(kind)) or len(seen) > 2)
    c = simulate(rules, ["tips", "random", "tips"], hands=2500, seed=3, kernel="auto")
    assert c["kernel_mode"] == "python+compiled"
    for x in (b, c):
        for k in a:
            if k not in ("elapsed_s", "hands_per_s", "kernel_mode"):
                assert a[k] == x[k], k
    s1 = simulate(rules, ["random"] * 4, sessions=12, seed=5, kernel="kernel")
    s2 = simulate(rules, ["random"] * 4, sessions=12, seed=5, kernel="python")
    assert {k: v for k, v in s1.items() if k not in ("elapsed_s", "hands_per_s", "kernel_mode")} == {
        k: v for k, v in s2.items() if k not in ("elapsed_s", "hands_per_s", "kernel_mode")
    }


def test_the_quick_answer_takes_quick_s_while_the_kernel_compiles(monkeypatch):
    """``quick_s`` bounds the Python answer of ``kernel="auto"`` while the kernel is not ready (the first
    ``ramsli odds`` after an install), and nothing else: with the kernel ready the whole ``time_s`` runs."""
    monkeypatch.setattr(warmup, "kernel_ready", lambda kinds=("odds",): False)
    monkeypatch.setattr(warmup, "start_background_compile", lambda kinds=("odds",), load=True: None)
    monkeypatch.setattr(K, "is_compiled", lambda kind: False)
    kw = dict(cards="AS 9S KH 8D 7C", turn_up="TS", players=5, seat=2, before="in,out", seed=1, precision=0)
    r = O.estimate(**kw, time_s=30, quick_s=0.2, kernel="auto")
    assert r["estimator"] == "python" and 0.2 <= r["elapsed_s"] < 10
    with pytest.raises(O.OddsError, match="quick_s"):
        O.estimate(**kw, time_s=1, quick_s=float("nan"), kernel="auto")


def test_rejected_samples_stop_after_the_declarations_and_keep_the_accepted_ones():
    """Rejection conditioning (R4.5 declarations before mine): a sample whose opponents' policy would
    not have made the declarations is discarded after the declarations, and every kept sample is the
    one the unchecked forced run plays (forcing a declaration the policy makes itself changes nothing)."""
    rules = Rules()
    n, me = 5, 2
    mine = np.array([c.index for c in parse_cards("AS 9S KH 8D 7C")], np.int64)
    tu = parse_cards("TS")[0].index
    unknown = np.array(
        sorted(c.index for c in make_deck(rules.deck, rules.jokers) if c.index not in mine and c.index != tu), np.int64
    )
    stacks = np.full(n, rules.starting_stack, np.int64)
    pol = np.full(n, K.TIPS, np.int64)
    var = np.zeros(n, np.int64)
    checked = np.array([1, 0, -1, -1, -1], np.int64)  # in, out before me, checked against the policy
    unchecked = np.where(checked >= 0, checked + 10, -1)
    args = (rules, 9, 0, 4000, n, me, mine, tu, unknown, n - 1, stacks, 0, pol, var)
    d, tr, be, ag = K.odds_samples(*args, checked)
    d2, tr2, be2, ag2 = K.odds_samples(*args, unchecked)
    assert ag2.all() and 0 < ag.sum() < len(ag)
    assert (d[ag] == d2[ag]).all() and (tr[ag] == tr2[ag]).all() and (be[ag] == be2[ag]).all()
    assert not d[~ag].any() and not tr[~ag].any() and not be[~ag].any()
    py = python_kernel().odds_samples(*args[:3], 300, *args[4:], checked)
    for a, b in zip(py, (d[:300], tr[:300], be[:300], ag[:300]), strict=True):
        assert (a == b).all()


def test_the_coachs_kernel_is_one_more_kind(monkeypatch):
    """The coach's equilibrium kernel is compiled by the same mechanism as the batch kernel's kinds:
    ``python -m ramsli.lab.warmup`` with no argument compiles it too; an unknown kind is refused
    before any process starts."""
    assert set(warmup.KINDS) == {*K.KINDS, warmup.ADVANTAGE}
    asked: list[list[str]] = []
    monkeypatch.setattr(warmup, "compile_kinds", asked.append)
    assert warmup.main([]) == 0 and asked == [list(warmup.KINDS)]
    started: list[object] = []
    monkeypatch.setattr(warmup, "_spawn", started.append)  # returns None: no child process
    with pytest.raises(KeyError):
        warmup.compile_elsewhere(("nosuchkind",))
    assert started == [] and asked == [list(warmup.KINDS)]
    with pytest.raises(RuntimeError, match="no cache folder"):
        warmup.compile_elsewhere((warmup.ADVANTAGE,), fallback=False)  # never compiled in this process
    assert asked == [list(warmup.KINDS)]
    warmup.compile_elsewhere((warmup.ADVANTAGE,))
    assert asked[-1] == (warmup.ADVANTAGE,)  # the fallback: compiled here
