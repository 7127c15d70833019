"""ramsli — the reference implementation of Ramsli (Rams, Ramscheln), the
19th-century gambling trick-taking pub game, ancestor of Rounce.

The public API, after python-chess:

>>> import random
>>> from ramsli import Hand, Rules, Card
>>> hand = Hand.new(Rules.preset("traditional"), stacks=[20] * 5, dealer=0, rng=random.Random(1))
>>> hand.legal_actions()
[Action('p2 in'), Action('p2 out')]

Modules: :mod:`ramsli.cards` (R1), :mod:`ramsli.rules` (R6, R8),
:mod:`ramsli.seats` (R2.2, seat order), :mod:`ramsli.hand` (R4, R7), :mod:`ramsli.settlement` (R5),
:mod:`ramsli.session` (R3), :mod:`ramsli.history` (hand histories),
:mod:`ramsli.cli` (the ``ramsli`` command).
"""

from ramsli.cards import Card, CardError, Suit, format_cards, make_deck, parse_cards
from ramsli.errors import IllegalActionError, RamsliError, SessionError
from ramsli.hand import (
    Action,
    ActionKind,
    Declaration,
    Hand,
    Observation,
    Phase,
    Trick,
    legal_plays,
    random_source,
    trick_winner,
)
from ramsli.rules import PRESETS, Rules, RulesError
from ramsli.seats import MAX_SEATS, left_of, order_from_dealer, parse_seat, seat_name
from ramsli.session import EndReason, HandResult, Session
from ramsli.settlement import Payment, PaymentReason, Settlement, SettlementKind

#: the version of ramsli, written only here (pyproject.toml and scripts/i18n.py read it)
__version__ = "0.1.0"

__all__ = [
    "Action",
    "Card",
    "CardError",
    "Hand",
    "IllegalActionError",
    "HandResult",
    "Observation",
    "PRESETS",
    "Payment",
    "Phase",
    "RamsliError",
    "Rules",
    "RulesError",
    "Session",
    "SessionError",
    "Settlement",
    "Suit",
    "Trick",
    "format_cards",
    "legal_plays",
    "make_deck",
    "parse_cards",
    "trick_winner",
    "__version__",
    # kinds as types and seat helpers
    "ActionKind",
    "Declaration",
    "EndReason",
    "PaymentReason",
    "SettlementKind",
    "MAX_SEATS",
    "left_of",
    "order_from_dealer",
    "parse_seat",
    "seat_name",
    "random_source",
]
