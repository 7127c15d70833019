"""Engine speed: random legal play through ramsli's public API against OpenSpiel's
``oh_hell`` played at random through pyspiel's Python API, in the same run.

    python bench/engine.py [--seconds 3] [--rounds 3] [--players 5] [--preset traditional]
    python bench/engine.py --hands 20000   # a fixed amount of work, for whole-process timing


Both loops do the same kind of work per step: ask for the legal actions, pick one
with ``random.Random.randrange``, apply it. oh_hell is set to 5 players, a 32-card
deck (4 suits x 8 ranks) and 5 tricks; its deal is played through its chance nodes.
Rates are hands per second (median over ``--rounds`` interleaved rounds); the ratio
is ramsli / oh_hell. Needs ``pip install open-spiel`` (the ``bench`` extra); without
it only ramsli's rate is printed.

With ``--hands N`` it plays exactly N ramsli hands (the same loop, seed 1) and nothing else, so
that two trees can be compared by timing the whole process (``/usr/bin/time -v python
bench/engine.py --hands N``, each tree on ``PYTHONPATH``), pair by pair; it prints a checksum of
the final stacks, equal in both trees when the engine's results are.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from ramsli import Hand, Rules


def ramsli_rate(seconds: float, players: int, preset: str, seed: int = 1) -> float:
    """Hands per second of random legal play through Hand.new / legal_actions / apply."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    stacks = [rules.starting_stack] * players
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(50):
            hand = Hand.new(rules, stacks, n % players, rng)
            while not hand.is_over:
                legal = hand.legal_actions()
                hand.apply(legal[rng.randrange(len(legal))])
            n += 1
        if time.perf_counter() >= end:
            return n / (time.perf_counter() - start)


def ramsli_hands(hands: int, players: int, preset: str, seed: int = 1) -> tuple[float, int]:
    """Play exactly ``hands`` hands as :func:`ramsli_rate` does: (hands per second, checksum of the stacks)."""
    rules = Rules.preset(preset)
    rng = random.Random(seed)
    stacks = [rules.starting_stack] * players
    check = 0
    start = time.perf_counter()
    for n in range(hands):
        hand = Hand.new(rules, stacks, n % players, rng)
        while not hand.is_over:
            legal = hand.legal_actions()
            hand.apply(legal[rng.randrange(len(legal))])
        check = (check * 31 + hash(tuple(hand.stacks))) % (1 << 61)
    return hands / (time.perf_counter() - start), check


def oh_hell_rate(seconds: float, players: int, seed: int = 1) -> float | None:
    """Hands per second of oh_hell (32 cards, 5 tricks) at random through pyspiel; None without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(
        "oh_hell", {"players": players, "num_suits": 4, "num_cards_per_suit": 8, "num_tricks_fixed": 5}
    )
    rng = random.Random(seed)
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        for _ in range(50):
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[rng.randrange(len(legal))])
            n += 1
        if time.perf_counter() >= end:
            return n / (time.perf_counter() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0, help="seconds per measurement (default 1)")
    ap.add_argument("--rounds", type=int, default=9, help="interleaved rounds; the median is reported (default 9)")
    ap.add_argument("--players", type=int, default=5, help="players (default 5)")
    ap.add_argument("--preset", default="traditional", help="ramsli preset (default traditional)")
    ap.add_argument("--hands", type=int, default=0, help="play exactly this many ramsli hands, then stop")
    args = ap.parse_args()
    if args.hands:
        rate, check = ramsli_hands(args.hands, args.players, args.preset)
        print(
            f"ramsli  {args.preset:>12}, {args.players} players: {args.hands} hands, {rate:10.0f} hands/s, checksum {check}"
        )
        return
    ours, theirs = [], []
    for r in range(args.rounds):
        ours.append(ramsli_rate(args.seconds, args.players, args.preset, seed=r))
        t = oh_hell_rate(args.seconds, args.players, seed=r)
        if t is not None:
            theirs.append(t)
    o = statistics.median(ours)
    print(
        f"ramsli  {args.preset:>12}, {args.players} players: {o:10.0f} hands/s  (rounds: "
        + ", ".join(f"{x:.0f}" for x in ours)
        + ")"
    )
    if theirs:
        t = statistics.median(theirs)
        print(
            f"oh_hell {'pyspiel':>12}, {args.players} players: {t:10.0f} hands/s  (rounds: "
            + ", ".join(f"{x:.0f}" for x in theirs)
            + ")"
        )
        print(f"ratio ramsli / oh_hell: {o / t:.2f}")
    else:
        print("open-spiel is not installed: pip install 'ramsli[bench]' to compare with oh_hell")


if __name__ == "__main__":
    main()
