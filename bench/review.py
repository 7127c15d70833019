"""The coach's speed: a whole 5-player hand reviewed for one seat, a whole 20-hand session.

    python bench/review.py [--hands 40] [--sessions 4] [--players 5] [--seed 23] [--cpu 0]

On one core: the process is pinned to CPU ``--cpu`` (``os.sched_setaffinity``) and Numba runs one
thread (``NUMBA_NUM_THREADS=1``, set before anything imports Numba). The hands are played by the
expert at its default budget (``traditional``, stacks 20) and recorded with every card, so that
every seat is reviewed (the most work: a session downloaded by one seat has the folded seats'
cards as ``??`` and is reviewed faster).

Reports, for the coach's default :class:`ramsli.coach.Settings`:

- **hand**: the time to review one hand for one seat (``review_hand``), over every seat of
  ``--hands`` hands: median, p95, max; also for the seats that played (declaration and cards);
- **session**: the time to review a whole session of 20 hands for every seat
  (``review_session``), over ``--sessions`` sessions: median, p95; and for one seat (a player
  reviewing their own session);
- **first review in a fresh process**: with the Numba kernel loaded from its cache (not compiled);
- the **reference** in the same run: the time the expert takes to play the same hands (all seats,
  all decisions), and the ratio review / play.

Wall and CPU time (``time.process_time``) are both given: on a shared machine the CPU time depends
less on the other load. Exits 1 if nothing was measured (no decision reviewed).
"""

from __future__ import annotations

import os

os.environ.setdefault("NUMBA_NUM_THREADS", "1")  # before Numba is imported: one core

import argparse
import statistics
import subprocess
import sys
import tempfile
import time

from ramsli import Hand, Rules, Session
from ramsli.bots.base import make_bot
from ramsli.coach import Settings, review_hand, review_session
from ramsli.history import HandHistory, read_session, write_session


def _pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def _fmt(xs: list[float]) -> str:
    return f"median {statistics.median(xs):.2f} s, p95 {_pct(xs, 0.95):.2f} s, max {max(xs):.2f} s (n={len(xs)})"


def played_hands(n_hands: int, players: int, seed: int) -> tuple[list[HandHistory], list[float]]:
    """``n_hands`` hands played by the expert at every seat, and the seconds (wall) each took to play."""
    out, play_s = [], []
    for i in range(n_hands):
        hand = Hand.new(Rules(), [20] * players, dealer=i % players, seed=seed * 1000 + i)
        bots = {s: make_bot("expert", seed=seed * 100 + i * 7 + s) for s in range(players)}
        t0 = time.perf_counter()
        while not hand.is_over:
            s = hand.to_act
            hand.apply(bots[s].act(hand.observe(s)))
        play_s.append(time.perf_counter() - t0)
        out.append(HandHistory.from_hand(hand, [f"P{s + 1}" for s in range(players)], hand_number=i + 1))
    return out, play_s


def session_folder(folder: str, players: int, seed: int, hands: int = 20) -> None:
    """A 20-hand session played by the expert, written with every card."""
    s = Session(Rules(end=[f"hands:{hands}"]), [f"P{i + 1}" for i in range(players)], seed=seed)
    bots = {i: make_bot("expert", seed=seed * 10 + i) for i in range(players)}
    while not s.is_over:
        hand = s.start_hand()
        while not hand.is_over:
            seat = hand.to_act
            s.apply(bots[seat].act(hand.observe(seat)))
    write_session(folder, s)


_COLD = """
import os, sys, time
os.environ["NUMBA_NUM_THREADS"] = "1"
t0 = time.perf_counter()
from ramsli.coach import review_hand
from ramsli.history import HandHistory
hh = HandHistory.read(sys.argv[1])
r = review_hand(hh, int(sys.argv[2]))
print(time.perf_counter() - t0, len(r.decisions))
"""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hands", type=int, default=40)
    ap.add_argument("--sessions", type=int, default=4)
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--seed", type=int, default=23)
    ap.add_argument("--cpu", type=int, default=0, help="the CPU to pin this process to (one core)")
    a = ap.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {a.cpu})
    settings = Settings()
    print(f"# bench/review.py: {a.players} players, traditional, one core (CPU {a.cpu}), {settings}")

    histories, play_s = played_hands(a.hands, a.players, a.seed)
    review_hand(histories[0], 0, settings)  # warm: the Numba kernel is loaded once per process
    wall, cpu, active_wall, decisions = [], [], [], 0
    for hh in histories:
        played = {x.seat for x in hh.actions if x.kind == "pl"}
        for seat in hh.seated:
            t0, c0 = time.perf_counter(), time.process_time()
            r = review_hand(hh, seat, settings)
            wall.append(time.perf_counter() - t0)
            cpu.append(time.process_time() - c0)
            decisions += len(r.decisions)
            if seat in played:
                active_wall.append(wall[-1])
    if decisions == 0 or not wall:
        print("error: no decision was reviewed: the benchmark measured nothing", file=sys.stderr)
        return 1
    per_hand_play = statistics.median(play_s)
    per_hand_review = statistics.median(wall) * a.players
    print(f"hand, one seat (wall): {_fmt(wall)}")
    print(f"hand, one seat (CPU):  {_fmt(cpu)}")
    print(f"hand, a seat that played (wall): {_fmt(active_wall)}")
    print(f"decisions reviewed: {decisions} ({decisions / len(wall):.1f} per seat and hand)")
    print(
        f"reference: the expert plays a hand (all {a.players} seats) in median {per_hand_play:.2f} s; "
        f"reviewing every seat of a hand takes {per_hand_review / per_hand_play:.1f}x that"
    )

    with tempfile.TemporaryDirectory() as tmp:
        histories[0].write(os.path.join(tmp, "h.toml"))
        cold = subprocess.run(
            [sys.executable, "-c", _COLD, os.path.join(tmp, "h.toml"), "0"], capture_output=True, text=True, check=False
        )
        if cold.returncode == 0:
            secs, n = cold.stdout.split()
            print(
                f"first review in a fresh process (imports, kernel from the cache): {float(secs):.2f} s, {n} decisions"
            )
        else:
            print(f"first review in a fresh process failed: {cold.stderr.strip()[-300:]}")

        s_wall, s_cpu, s_dec, one_wall, one_cpu = [], [], [], [], []
        for k in range(a.sessions):
            folder = os.path.join(tmp, f"s{k}")
            session_folder(folder, a.players, a.seed + k)
            sh = read_session(folder)
            t0, c0 = time.perf_counter(), time.process_time()
            sr = review_session(sh, None, settings)
            s_wall.append(time.perf_counter() - t0)
            s_cpu.append(time.process_time() - c0)
            s_dec.append(sum(p.decisions for p in sr.players))
            t0, c0 = time.perf_counter(), time.process_time()
            review_session(sh, [k % a.players], settings)  # one player reviews their own session
            one_wall.append(time.perf_counter() - t0)
            one_cpu.append(time.process_time() - c0)
        if a.sessions:
            print(f"session of 20 hands, every seat (wall): {_fmt(s_wall)}")
            print(f"session of 20 hands, every seat (CPU):  {_fmt(s_cpu)}")
            print(f"decisions per session: {statistics.median(s_dec):.0f}")
            print(f"session of 20 hands, one seat (wall): {_fmt(one_wall)}")
            print(f"session of 20 hands, one seat (CPU):  {_fmt(one_cpu)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
