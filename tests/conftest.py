"""Shared helpers for the engine tests (RULES.md R1-R8).

Positions are built by hand with :func:`make_hand` (``Hand.from_cards``) and
played with :func:`play` from action strings, so that every expected number in
a test can be worked out from RULES.md with pencil and paper.

The invariant checks (R3.4 conservation, every card in one place, a legal
action always exists, R7 hidden cards) live in :mod:`ramsli.testing` so that
the soak script ``bench/soak.py`` and the property tests check exactly the
same things; no test imports from ``bench/``.
"""

from __future__ import annotations

from typing import Iterable, Mapping

import pytest

from ramsli.cards import Card, parse_cards
from ramsli.hand import Hand
from ramsli.rules import Rules

def cards(text: str) -> list[Card]:
    """``"AS KS 9H"`` -> list of cards (R1.6)."""
    return parse_cards(text)


def make_hand(rules: Rules, deal: Mapping[str, str], turn_up: str, dealer: str = "p1",
              stacks: Iterable[int] | None = None, pot: int = 0, aside: str = "",
              seated: Iterable[int] | None = None) -> Hand:
    """A hand with the given cards (``{"p1": "AC KC QC JC TC", ...}``) via ``Hand.from_cards``.

    The number of seats is the highest ``pN`` named in ``deal`` (or ``len(stacks)``);
    seats not named get no cards. Stacks default to 20 each (D-5), before the ante.
    """
    stacks = list(stacks) if stacks is not None else None
    n = max(int(k[1:]) for k in deal)
    if stacks is not None:
        n = max(n, len(stacks))
    else:
        stacks = [20] * n
    hands = [cards(deal.get(f"p{i + 1}", "")) for i in range(n)]
    return Hand.from_cards(rules, stacks, int(dealer[1:]) - 1, hands, Card.parse(turn_up),
                           cards(aside), pot=pot, seated=seated)


def play(hand: Hand, actions: str) -> Hand:
    """Apply actions given as text separated by ``;`` or newlines, e.g. ``"p2 in; p3 out"``."""
    for a in actions.replace("\n", ";").split(";"):
        a = a.strip()
        if a:
            hand.apply(a)
    return hand


def strs(items) -> list[str]:
    """``[str(x) for x in items]``."""
    return [str(x) for x in items]


# --- standard deals (3 seats, dealer p1, so the order is p2, p3, p1; trump ♥ by 7H) -------------

#: p2 holds five spades and takes every trick; nobody holds a heart (trump).
SWEEP = {"p2": "AS KS QS JS TS", "p3": "AD KD QD JD TD", "p1": "AC KC QC JC TC"}
#: the five tricks of SWEEP, p2 leading every trick.
SWEEP_PLAY = """
p2 pl AS; p3 pl TD; p1 pl TC
p2 pl KS; p3 pl JD; p1 pl JC
p2 pl QS; p3 pl QD; p1 pl QC
p2 pl JS; p3 pl KD; p1 pl KC
p2 pl TS; p3 pl AD; p1 pl AC
"""

#: a deal that ends 2-2-1 in tricks: p2 2, p3 2, p1 1 (trump ♥, nobody holds a heart).
TIE = {"p2": "AS KS 7C 8C 9C", "p3": "7S 9S AC AD 8D", "p1": "8S TS KC 7D KD"}
TIE_PLAY = """
p2 pl AS; p3 pl 7S; p1 pl 8S
p2 pl KS; p3 pl 9S; p1 pl TS
p2 pl 7C; p3 pl AC; p1 pl KC
p3 pl AD; p1 pl 7D; p2 pl 8C
p3 pl 8D; p1 pl KD; p2 pl 9C
"""


@pytest.fixture
def traditional() -> Rules:
    return Rules.preset("traditional")
