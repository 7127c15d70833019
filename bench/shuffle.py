"""The server's shuffle, measured: statistical tests of the kind gaming laboratories ask of an RNG.

    python bench/shuffle.py [--hands 200000] [--deck piquet32] [--jokers] [--players 4] [--write docs/fairness.md]

Deals ``--hands`` hands through the server's own dealing code
(:func:`ramsli.server.tables.table.shuffled_deck` with ``secrets.SystemRandom``, exactly what a table
that is not test-seeded calls, then the cut as :func:`ramsli.fairness.dealt_order` applies it)
and tests the dealt order, each at 99 % confidence (p >= 0.01 passes):

- **card x position**: the table of how often each card lands at each position, against
  N / size per cell (chi-squared, (size - 1)^2 degrees of freedom: every row and column sums to
  N); and per card, its positions uniform (chi-squared, size - 1 df each), the per-card
  p-values uniform (Kolmogorov-Smirnov);
- **pairs of positions**: for several pairs (i, j) (neighbours in the deal, first and last,
  a seat's card and the turn-up of ``--players`` seats), the joint counts of (card at i, card at
  j) against N / (size (size - 1)) for every ordered pair of different cards (chi-squared);
- **runs**: the number of colour runs (red / black) within each deal against its exact mean and
  variance (z test over all deals); the Wald-Wolfowitz runs test on "the first card dealt is
  red" from one hand to the next (independence between hands); runs up and down from hand to
  hand of the deal read as a number (its first ten positions as base-size digits);
- **the cut**: uniform over 1 .. size - 1 (chi-squared).

A test that fails is run again on a fresh, independent sample of as many hands (a chance failure,
about one run in ten with this many tests at 1 %, does not repeat; a bias does), and both
p-values are reported.

A control in the same run: the same tests on a known-bad shuffle (each position swapped with
any position, not only the later ones: a classic bias) must fail the card x position test, or
the measurement could tell nothing and the script exits 1. ``--write FILE`` puts the results
between the lines ``<!-- shuffle DECK:begin -->`` and ``<!-- shuffle DECK:end -->`` of ``FILE``
(DECK: ``piquet32``, ``full52``, with ``+jokers`` for ``--jokers``).
"""

from __future__ import annotations

import argparse
import random
import secrets
import sys
import time
from pathlib import Path

import numpy as np
from scipy import stats

from ramsli.cards import make_deck
from ramsli.fairness import dealt_order
from ramsli.rules import Rules
from ramsli.server.tables.table import shuffled_deck

ALPHA = 0.01


def server_deals(rules: Rules, hands: int) -> tuple[np.ndarray, np.ndarray]:
    """``hands`` deals by the server's code: (dealt order as deck indices, hands x size; the cuts)."""
    deck = make_deck(rules.deck, rules.jokers)
    index = {c: i for i, c in enumerate(deck)}
    rng = secrets.SystemRandom()
    out = np.empty((hands, len(deck)), dtype=np.int16)
    cuts = np.empty(hands, dtype=np.int16)
    for h in range(hands):
        shuffled, cut = shuffled_deck(rules, rng)
        out[h] = [index[c] for c in dealt_order(shuffled, cut)]
        cuts[h] = cut
    return out, cuts


def naive_deals(size: int, hands: int, seed: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """The control: each position swapped with any position (biased), no cut."""
    rng = random.Random(seed)
    out = np.empty((hands, size), dtype=np.int16)
    for h in range(hands):
        d = list(range(size))
        for i in range(size):
            j = rng.randrange(size)
            d[i], d[j] = d[j], d[i]
        out[h] = d
    return out, np.ones(hands, dtype=np.int16)


def _chi2(observed: np.ndarray, expected: float | np.ndarray, df: int) -> tuple[float, int, float]:
    stat = float(((observed - expected) ** 2 / expected).sum())
    return stat, df, float(stats.chi2.sf(stat, df))


def tests(deals: np.ndarray, cuts: np.ndarray, red: np.ndarray, players: int) -> list[tuple[str, str, float]]:
    """Every test: (name, statistic text, p-value)."""
    n, size = deals.shape
    rows: list[tuple[str, str, float]] = []
    # card x position
    table = np.zeros((size, size), dtype=np.int64)
    for pos in range(size):
        table[:, pos] = np.bincount(deals[:, pos], minlength=size)
    stat, df, p = _chi2(table, n / size, (size - 1) ** 2)
    rows.append(("card x position table", f"chi2 = {stat:.1f}, df = {df}", p))
    per_card = [float(stats.chi2.sf(((table[c] - n / size) ** 2 / (n / size)).sum(), size - 1)) for c in range(size)]
    failing = sum(q < ALPHA for q in per_card)
    rows.append(
        (
            "each card's position uniform (p-values uniform, KS)",
            f"{failing} of {size} cards below 0.01 (about {size * ALPHA:.1f} expected)",
            float(stats.kstest(per_card, "uniform").pvalue),
        )
    )
    # pairs of positions
    turn_up = 5 * players
    pairs = [(0, 1), (4, 5), (0, size - 1), (size - 2, size - 1), (0, turn_up), (turn_up - 1, turn_up)]
    for i, j in pairs:
        joint = np.bincount(deals[:, i].astype(np.int64) * size + deals[:, j], minlength=size * size)
        joint = joint.reshape(size, size)
        off = ~np.eye(size, dtype=bool)
        if joint[~off].any():
            rows.append((f"positions {i} and {j}", "a card at both positions", 0.0))
            continue
        stat, df, p = _chi2(joint[off], n / (size * (size - 1)), size * (size - 1) - 1)
        rows.append((f"positions {i} and {j} independent", f"chi2 = {stat:.1f}, df = {df}", p))
    # colour runs within each deal
    colours = red[deals]
    runs = 1 + (colours[:, 1:] != colours[:, :-1]).sum(axis=1)
    n1 = int(red.sum())
    n2 = size - n1
    mean = 1 + 2 * n1 * n2 / size
    var = 2 * n1 * n2 * (2 * n1 * n2 - size) / (size**2 * (size - 1))
    z = (runs.mean() - mean) / np.sqrt(var / n)
    rows.append(
        (
            "colour runs within a deal",
            f"mean {runs.mean():.4f} (exact {mean:.4f}), z = {z:.2f}",
            float(2 * stats.norm.sf(abs(z))),
        )
    )
    # runs between hands
    seq = colours[:, 0]
    m1, m2 = int(seq.sum()), int(n - seq.sum())
    r = 1 + int((seq[1:] != seq[:-1]).sum())
    mu = 1 + 2 * m1 * m2 / n
    sd = np.sqrt(2 * m1 * m2 * (2 * m1 * m2 - n) / (n**2 * (n - 1)))
    z = (r - mu) / sd
    rows.append(
        (
            "runs from hand to hand (first card red)",
            f"{r} runs (expected {mu:.0f}), z = {z:.2f}",
            float(2 * stats.norm.sf(abs(z))),
        )
    )
    # the deal read as a number in [0, 1) (its first ten positions as base-size digits): ties are
    # all but impossible, so the runs up and down have their continuous-case distribution
    value = (deals[:, :10].astype(np.float64) * float(size) ** -np.arange(1, 11)).sum(axis=1)
    diff = np.sign(np.diff(value))
    diff = diff[diff != 0]
    ud = 1 + int((diff[1:] != diff[:-1]).sum())
    k = len(diff) + 1
    mu = (2 * k - 1) / 3
    sd = np.sqrt((16 * k - 29) / 90)
    z = (ud - mu) / sd
    rows.append(
        (
            "runs up and down from hand to hand (the deal as a number)",
            f"{ud} runs (expected {mu:.0f}), z = {z:.2f}",
            float(2 * stats.norm.sf(abs(z))),
        )
    )
    # the cut
    if int(cuts.max()) > 1:
        counts = np.bincount(cuts, minlength=size)[1:size]
        stat, df, p = _chi2(counts, n / (size - 1), size - 2)
        rows.append(("the cut uniform over 1 .. size - 1", f"chi2 = {stat:.1f}, df = {df}", p))
    return rows


def report(title: str, rows: list[tuple[str, str, float]], again: dict[int, float] | None = None) -> list[str]:
    """The rows as a Markdown table; ``again``: row -> the p-value of the same test on a fresh sample."""
    again = again or {}
    out = [f"**{title}**", "", "| test | statistic | p-value | at 99 % |", "| --- | --- | --- | --- |"]
    for i, (name, text, p) in enumerate(rows):
        verdict = "pass" if p >= ALPHA else "FAIL"
        if i in again:
            verdict += f"; on a fresh sample p = {again[i]:.3g}: {'pass' if again[i] >= ALPHA else 'FAIL again'}"
        out.append(f"| {name} | {text} | {p:.3g} | {verdict} |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200_000)
    ap.add_argument("--deck", choices=["piquet32", "full52"], default="piquet32")
    ap.add_argument("--jokers", action="store_true")
    ap.add_argument("--players", type=int, default=4, help="seats for the turn-up position (5 x players)")
    ap.add_argument("--write", type=Path, help="put the results between the shuffle markers of this file")
    args = ap.parse_args(argv)
    rules = Rules(deck=args.deck, jokers=args.jokers)
    deck = make_deck(rules.deck, rules.jokers)
    red = np.array([1 if c.suit in ("H", "D") else 0 for c in deck], dtype=np.int8)
    t0 = time.perf_counter()
    deals, cuts = server_deals(rules, args.hands)
    took = time.perf_counter() - t0
    rows = tests(deals, cuts, red, args.players)
    # a test that fails is run again on a fresh, independent sample: chance fails once, a bias again
    failed = [i for i, row in enumerate(rows) if row[2] < ALPHA]
    again: dict[int, float] = {}
    if failed:
        fresh = tests(*server_deals(rules, args.hands), red, args.players)
        again = {i: fresh[i][2] for i in failed}
    control = tests(*naive_deals(len(deck), args.hands), red, args.players)
    name = f"{args.deck}{' with jokers' if args.jokers else ''}"
    lines = [
        f"{args.hands} hands of the {name} deck ({len(deck)} cards) dealt by `shuffled_deck` with "
        f"`secrets.SystemRandom` in {took:.0f} s (`python bench/shuffle.py --hands {args.hands} --deck {args.deck}"
        f"{' --jokers' if args.jokers else ''} --players {args.players}`):",
        "",
        *report("The server's shuffle", rows, again),
        "",
        *report("The control: a biased shuffle (each position swapped with any position)", control[:2]),
    ]
    if failed:
        lines += [
            "",
            f"{len(failed)} of {len(rows)} tests failed at 1 % and were run again on {args.hands} fresh hands "
            "(about one run in ten has a chance failure among this many tests; a bias fails again).",
        ]
    text = "\n".join(lines)
    print(text)
    if control[0][2] >= ALPHA:
        print("the control shuffle was not detected: these tests measure nothing at this size", file=sys.stderr)
        return 1
    if args.write is not None:
        key = f"{args.deck}{'+jokers' if args.jokers else ''}"
        BEGIN, END = f"<!-- shuffle {key}:begin -->", f"<!-- shuffle {key}:end -->"
        doc = args.write.read_text(encoding="utf-8")
        if BEGIN not in doc or END not in doc:
            print(f"{args.write}: no {BEGIN} ... {END} lines", file=sys.stderr)
            return 2
        head, rest = doc.split(BEGIN, 1)
        _old, tail = rest.split(END, 1)
        args.write.write_text(head + BEGIN + "\n" + text + "\n" + END + tail, encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
