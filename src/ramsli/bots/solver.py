"""A fast perfect-information search of the remaining tricks (for ``montecarlo``).

Given every active player's remaining cards (codes of :mod:`ramsli.bots.fast`),
:class:`Solver` finds the max^n value of the rest of the hand: at every card
each player plays to maximize their own counters at settlement (R5), given as
a ``payoff(tricks) -> values`` function. Positions are indexes into the active
players in play order (R4.9). Speed-ups, none of which change the value:

- a transposition table at trick boundaries (remaining hands, leader, tricks);
- equivalent cards: two cards of one hand in the same suit with no other
  unplayed card between them are interchangeable for the rest of the hand, so
  only one is searched;
- the rules of R4.10/R4.11 on small ints (:func:`ramsli.bots.fast.legal`,
  :func:`ramsli.bots.fast.winner_index`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeAlias

from ramsli.bots.fast import legal, winner_index

__all__ = ["Solver", "Codes", "Counts", "Values", "PayoffFunction"]

#: card codes (:mod:`ramsli.bots.fast`) of one hand, or of the trick in progress
Codes: TypeAlias = tuple[int, ...]
#: tricks won per position (in play order, R4.9)
Counts: TypeAlias = tuple[int, ...]
#: counters gained per position from now to settlement (R5)
Values: TypeAlias = tuple[int, ...]
#: tricks per position -> counters per position
PayoffFunction: TypeAlias = Callable[[Counts], Values]


class Solver:
    """Max^n search of the play phase (R4.9–R4.11) with a payoff at the end (R5).

    Args:
        n: number of active players (2..6).
        payoff: tricks per position (a tuple) -> counters per position (a tuple);
            called once per distinct tricks tuple (it is cached).
        always: option ``overtrump == "always"`` (D-14).
        node_limit: stop with :class:`OverflowError` after this many nodes (None: no limit).
        cache: a dict to share the payoff cache between solvers with the same payoff.
        prune: skip equivalent cards (off only to test that pruning changes nothing).
    """

    def __init__(
        self,
        n: int,
        payoff: PayoffFunction,
        always: bool,
        node_limit: int | None = None,
        cache: dict[Counts, Values] | None = None,
        prune: bool = True,
    ) -> None:
        self.n = n
        self.prune = prune
        self._payoff = payoff
        self._pcache: dict[Counts, Values] = {} if cache is None else cache
        self.always = always
        self.memo: dict[tuple[tuple[Codes, ...], int, Counts], Values] = {}
        self.nodes = 0
        self.node_limit = node_limit

    def payoff(self, tricks: Counts) -> Values:
        v = self._pcache.get(tricks)
        if v is None:
            v = self._pcache[tricks] = tuple(self._payoff(tricks))
        return v

    def root(
        self, hands: Sequence[Sequence[int]], leader: int, cur: Sequence[int], tricks: Sequence[int]
    ) -> dict[int, Values]:
        """Value vectors of every legal card of the player to play.

        Args:
            hands: remaining codes per position (the player to act's included).
            leader: position that led the trick in progress.
            cur: codes already played to it.
            tricks: tricks won so far per position.

        Returns:
            code -> value vector (counters per position), for each legal code.
        """
        hands_t = tuple(tuple(sorted(h, reverse=True)) for h in hands)
        cur_t = tuple(cur)
        p = (leader + len(cur_t)) % self.n
        pos = _positions(hands_t, cur_t)
        out: dict[int, Values] = {}
        h = hands_t[p]
        for c in legal(h, cur_t, self.always):
            nh = hands_t[:p] + (tuple(x for x in h if x != c),) + hands_t[p + 1 :]
            out[c] = self._trick(nh, leader, cur_t + (c,), tuple(tricks), pos)
        return out

    def _start(self, hands: tuple[Codes, ...], leader: int, tricks: Counts) -> Values:
        key = (hands, leader, tricks)
        v = self.memo.get(key)
        if v is None:
            v = self._trick(hands, leader, (), tricks, _positions(hands, ()))
            self.memo[key] = v
        return v

    def _trick(self, hands: tuple[Codes, ...], leader: int, cur: Codes, tricks: Counts, pos: dict[int, int]) -> Values:
        n = self.n
        k = len(cur)
        if k == n:
            w = (leader + winner_index(cur)) % n
            tr = tricks[:w] + (tricks[w] + 1,) + tricks[w + 1 :]
            if not hands[w]:
                return self.payoff(tr)
            return self._start(hands, w, tr)
        self.nodes += 1
        if self.node_limit is not None and self.nodes > self.node_limit:
            raise OverflowError("node limit")
        p = (leader + k) % n
        h = hands[p]
        cands = legal(h, cur, self.always)
        best = None
        bp = -1e18
        last = -1
        for c in cands:  # hands are sorted high to low, so cands are too
            if last >= 0 and self.prune and (last >> 5) == (c >> 5) and pos[last] == pos[c] + 1:
                last = c
                continue  # equivalent to the card just searched
            last = c
            if len(h) == 1:
                nh = hands[:p] + ((),) + hands[p + 1 :]
            else:
                nh = hands[:p] + (tuple(x for x in h if x != c),) + hands[p + 1 :]
            v = self._trick(nh, leader, cur + (c,), tricks, pos)
            if v[p] > bp:
                bp = v[p]
                best = v
        assert best is not None  # the first candidate is always searched, and legal() is never empty (R4.10)
        return best


def _positions(hands: tuple[Codes, ...], cur: Codes) -> dict[int, int]:
    """Rank position of every unplayed card among all unplayed cards (for equivalence)."""
    alive = sorted([c for h in hands for c in h] + list(cur))
    return {c: i for i, c in enumerate(alive)}
