"""Settlement of one hand (RULES.md R5, D-6, D-13, D-15, D-17).

:func:`settle` turns the end of a hand into a :class:`Settlement`: who took
how much of the pot, who paid bete, General Rams and target payments, what
carries over, and any shortfall of a short stack. Payments are made in the
order of R5.9; counters received are usable at once for later payments.

>>> from ramsli.rules import Rules
>>> s = settle(Rules(), order=(1, 2, 0), active=[1, 2], tricks_won=[0, 3, 2],
...            stacks=[19, 19, 19], pot=3)
>>> s.winners, s.carry_over, s.stacks_after
((1,), 0, (19, 22, 19))
"""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from typing import NamedTuple, TypedDict

from ramsli.rules import Rules
from ramsli.seats import order_from_dealer, seat_name

__all__ = [
    "Payment",
    "PaymentReason",
    "Settlement",
    "SettlementKind",
    "SettlementSummary",
    "SeatSummary",
    "GeneralRamsSummary",
    "TargetSummary",
    "settle",
]


class SettlementKind(enum.StrEnum):
    """How a hand ended (``Settlement.kind``); the value is the text of hand histories.

    A ``str``: ``SettlementKind.PLAYED == "played"``. Its ``repr`` is that text too, so
    a printed settlement reads and evaluates as the plain text.

    >>> SettlementKind("walkover") is SettlementKind.WALKOVER, SettlementKind.PLAYED == "played"
    (True, True)
    """

    PLAYED = "played"  #: tricks were played (R4.9-R4.11, R5.1-R5.7)
    WALKOVER = "walkover"  #: exactly one player in (R4.6)
    THROWN_IN = "thrown-in"  #: everyone out with ``dealer_forced`` off (D-10)

    __repr__ = str.__repr__


class PaymentReason(enum.StrEnum):
    """Why counters moved (``Payment.reason``, R5.9 steps); the value is the text of hand histories.

    A ``str`` with the text as its ``repr`` (see :class:`SettlementKind`).

    >>> [str(r) for r in PaymentReason][:3]
    ['pot', 'general-rams', 'bete']
    """

    POT = "pot"  #: step 1, a share of the pot (R5.1, R5.2); also a walkover (R4.6)
    GENERAL_RAMS = "general-rams"  #: step 2, General Rams success (R5.6)
    BETE = "bete"  #: step 3, zero tricks (R5.3)
    GENERAL_RAMS_PENALTY = "general-rams-penalty"  #: step 4, General Rams failure (R5.6)
    TARGET = "target"  #: step 5, a target met: paid by each other active player (R5.7)
    TARGET_MISSED = "target-missed"  #: step 5, a target missed: paid into the pot (R5.7)

    __repr__ = str.__repr__


POT = None  # payer/payee None means the pot

# the members settle() uses, as module globals: on Python 3.11 ``PaymentReason.POT`` goes
# through the slot of EnumType.__getattr__ (about 250 ns), a global is one cached lookup
_POT, _GENERAL_RAMS, _BETE = PaymentReason.POT, PaymentReason.GENERAL_RAMS, PaymentReason.BETE
_GENERAL_RAMS_PENALTY, _TARGET, _TARGET_MISSED = (
    PaymentReason.GENERAL_RAMS_PENALTY,
    PaymentReason.TARGET,
    PaymentReason.TARGET_MISSED,
)
_PLAYED, _WALKOVER, _THROWN_IN = SettlementKind.PLAYED, SettlementKind.WALKOVER, SettlementKind.THROWN_IN


#: One seat's line of :meth:`Settlement.to_dict` (``"in"`` is a keyword, hence this form).
SeatSummary = TypedDict(
    "SeatSummary",
    {
        "seat": str,  # the seat's name
        "in": bool,  # declared in (R4.5)
        "tricks": int,
        "won": int,  # counters received
        "paid": int,  # counters paid (not the ante)
        "bete": bool,  # paid or owed a bete (R5.3)
        "shortfall": int,  # counters owed but forgiven (D-6)
        "stack": int,  # counters after settlement
    },
)


class GeneralRamsSummary(TypedDict):
    """The General Rams line of :meth:`Settlement.to_dict` (R4.7, R5.6)."""

    seat: str
    made: bool | None


class TargetSummary(TypedDict):
    """One target line of :meth:`Settlement.to_dict` (R4.8, R5.7)."""

    seat: str
    target: int
    met: bool


class SettlementSummary(TypedDict):
    """:meth:`Settlement.to_dict`: a settlement as JSON data (seats by name, counters as ints)."""

    kind: SettlementKind
    pot: int
    winners: list[str]
    share: int
    carry_over: int
    general_rams: GeneralRamsSummary | None
    targets: list[TargetSummary]
    seats: list[SeatSummary]


class Payment(NamedTuple):
    """One transfer of counters in a settlement (R5.9 step order); an immutable named tuple.

    Attributes:
        step: 1 pot shares, 2 General Rams success, 3 bete, 4 General Rams penalty,
            5 target payments (R5.9).
        payer: seat paying, or None for the pot.
        payee: seat receiving, or None for the pot (i.e. the next hand's pot).
        owed: counters owed.
        paid: counters actually paid (less than ``owed`` only for a short stack, R5.8, D-6).
        reason: a :class:`PaymentReason` (a ``str``): ``"pot"``, ``"general-rams"``, ``"bete"``,
            ``"general-rams-penalty"``, ``"target"`` or ``"target-missed"``.
    """

    step: int
    payer: int | None
    payee: int | None
    owed: int
    paid: int
    reason: PaymentReason

    @property
    def shortfall(self) -> int:
        """Counters owed but forgiven because the payer's stack was empty (D-6)."""
        return self.owed - self.paid


class Settlement(NamedTuple):
    """The outcome of one hand (R5); an immutable named tuple.

    Attributes:
        kind: a :class:`SettlementKind` (a ``str``): ``"played"`` (tricks were played),
            ``"walkover"`` (R4.6) or ``"thrown-in"`` (everyone out, D-10).
        pot: P, the pot at the end of play (antes + carry-over), counters.
        tricks: tricks won per seat slot.
        active: seats that were in.
        winners: seats that took a share of the pot (R5.1, R5.2).
        share: counters each winner took from the pot.
        bete: seats that paid (or owed) a bete (R5.3).
        general_rams: the General Rams announcer or None; ``general_rams_made``:
            True if they took all five tricks, False if not, None if no announcement.
        targets: ``(seat, target, met)`` for each target announced (R5.7).
        payments: every transfer in the order made (R5.9).
        carry_over: counters left in the pot for the next hand (R5.4).
        stacks_before: stacks after the ante, before settlement.
        stacks_after: stacks after settlement.
    """

    kind: SettlementKind
    pot: int
    tricks: tuple[int, ...]
    active: tuple[int, ...]
    winners: tuple[int, ...]
    share: int
    bete: tuple[int, ...]
    general_rams: int | None
    general_rams_made: bool | None
    targets: tuple[tuple[int, int, bool], ...]
    payments: tuple[Payment, ...]
    carry_over: int
    stacks_before: tuple[int, ...]
    stacks_after: tuple[int, ...]

    def won(self, seat: int) -> int:
        """Counters ``seat`` received in this settlement (pot share and payments to it)."""
        return sum(p.paid for p in self.payments if p.payee == seat)

    def paid(self, seat: int) -> int:
        """Counters ``seat`` paid in this settlement (bete, penalties, payments; not the ante)."""
        return sum(p.paid for p in self.payments if p.payer == seat)

    def shortfalls(self) -> dict[int, int]:
        """Counters owed but forgiven per seat because its stack ran out (R3.3, D-6)."""
        out: dict[int, int] = {}
        for p in self.payments:
            if p.shortfall and p.payer is not None:
                out[p.payer] = out.get(p.payer, 0) + p.shortfall
        return out

    def to_dict(self, seat_names: Sequence[str] | None = None) -> SettlementSummary:
        """A JSON-ready summary: per seat tricks, counters won and paid, plus the pot facts."""
        n = len(self.tricks)
        names = list(seat_names) if seat_names else [seat_name(i) for i in range(n)]
        short = self.shortfalls()
        return {
            "kind": self.kind,
            "pot": self.pot,
            "winners": [names[s] for s in self.winners],
            "share": self.share,
            "carry_over": self.carry_over,
            "general_rams": None
            if self.general_rams is None
            else {"seat": names[self.general_rams], "made": self.general_rams_made},
            "targets": [{"seat": names[s], "target": t, "met": m} for s, t, m in self.targets],
            "seats": [
                {
                    "seat": names[s],
                    "in": s in self.active,
                    "tricks": self.tricks[s],
                    "won": self.won(s),
                    "paid": self.paid(s),
                    "bete": s in self.bete,
                    "shortfall": short.get(s, 0),
                    "stack": self.stacks_after[s],
                }
                for s in range(n)
            ],
        }


#: ``tuple.__new__``: builds a named tuple (a Payment, a Settlement) in one C call, without the
#: Python-level ``__new__`` that calling the class runs (settle makes several per hand)
_new_tuple = tuple.__new__


def settle(
    rules: Rules,
    order: Sequence[int],
    active: Sequence[int],
    tricks_won: Sequence[int],
    stacks: Sequence[int],
    pot: int,
    general_rams: int | None = None,
    targets: Mapping[int, int] | None = None,
    thrown_in: bool = False,
) -> Settlement:
    """Settle a hand (R5.1–R5.9).

    Args:
        rules: the rules in force (``bete``, ``general_rams_penalty``, ``target_bonus``).
        order: seated seats from the dealer's left, dealer last (payment order, R5.9).
        active: seats that are in.
        tricks_won: tricks per seat slot (all zero for a walkover or thrown-in hand).
        stacks: counters per seat slot after the ante.
        pot: P, the pot at the end of play, counters.
        general_rams: the General Rams announcer, or None (R4.7).
        targets: seat -> announced target (R4.8).
        thrown_in: everyone declared out with ``dealer_forced`` off (D-10).

    Returns:
        the :class:`Settlement`; its ``stacks_after`` plus ``carry_over`` sum to
        ``sum(stacks) + pot`` (R3.4).
    """
    n = len(stacks)
    active = tuple(active)
    tricks = tuple(tricks_won)
    before = tuple(stacks)
    if thrown_in or not active:  # D-10: the pot carries over whole
        return _new_tuple(
            Settlement, (_THROWN_IN, pot, tricks, active, (), 0, (), None, None, (), (), pot, before, before)
        )
    after = list(stacks)
    payments: list[Payment] = []
    left = pot  # counters in the pot as the payments are made

    def pay(step: int, payer: int | None, payee: int | None, owed: int, reason: PaymentReason) -> None:
        """One transfer, recorded; a payer short of counters pays what it has (R5.8, D-6)."""
        nonlocal left
        if owed <= 0:
            return
        if payer is None:
            paid = owed if owed <= left else left
            left -= paid
        else:
            have = after[payer]
            paid = owed if owed <= have else have  # R5.8, D-6: never below zero
            after[payer] = have - paid
        if payee is None:
            left += paid
        else:
            after[payee] += paid
        payments.append(_new_tuple(Payment, (step, payer, payee, owed, paid, reason)))

    if len(active) == 1:  # R4.6 walkover: the one player in takes the pot
        pay(1, None, active[0], pot, _POT)
        return _new_tuple(
            Settlement,
            (
                _WALKOVER,
                pot,
                tricks,
                active,
                active,
                pot,
                (),
                None,
                None,
                (),
                tuple(payments),
                left,
                before,
                tuple(after),
            ),
        )

    # plain loops rather than comprehensions and generators: settle runs once per hand, and on
    # Python 3.11 each comprehension is a function call of its own
    in_order = []  # the active seats from the dealer's left (R5.9)
    for s in order:
        if s in active:
            in_order.append(s)
    best = tricks_won[active[0]]
    for s in active:
        if tricks_won[s] > best:
            best = tricks_won[s]
    winners_l = []
    for s in in_order:
        if tricks_won[s] == best:
            winners_l.append(s)
    winners = tuple(winners_l)
    share = pot // len(winners)
    # step 1: pot shares (R5.1, R5.2); the remainder stays in the pot
    for s in winners:
        pay(1, None, s, share, _POT)

    bete_amount = rules.bete_for(pot)  # R5.3
    gr_made: bool | None = None
    if general_rams is not None:
        gr_made = tricks_won[general_rams] == 5
        if gr_made:  # step 2: the others pay 2P, split equally, remainder from the announcer's left (D-15)
            others = order_from_dealer(general_rams, [s for s in active if s != general_rams], n)
            total = 2 * pot
            each, rem = divmod(total, len(others))
            for i, s in enumerate(others):
                pay(2, s, general_rams, each + (1 if i < rem else 0), _GENERAL_RAMS)

    # step 3: betes, clockwise from the dealer's left; a failed announcer pays step 4 instead
    bete = []
    for s in in_order:
        if tricks_won[s] == 0:
            if s == general_rams and not gr_made:
                continue
            bete.append(s)
            pay(3, s, None, bete_amount, _BETE)

    # step 4: General Rams penalty (R5.6)
    if general_rams is not None and not gr_made:
        pay(4, general_rams, None, rules.general_rams_penalty_for(pot), _GENERAL_RAMS_PENALTY)

    # step 5: targets (R5.7), declarer by declarer clockwise from the dealer's left
    results = []
    if targets:
        for s in in_order:
            if s not in targets:
                continue
            t = targets[s]
            b = rules.target_bonus_for(t)
            others = order_from_dealer(s, [o for o in active if o != s], n)
            met = tricks_won[s] >= t
            results.append((s, t, met))
            if met:
                for o in others:
                    pay(5, o, s, b, _TARGET)
            else:
                pay(5, s, None, b * len(others), _TARGET_MISSED)

    return _new_tuple(
        Settlement,
        (
            _PLAYED,
            pot,
            tricks,
            active,
            winners,
            share,
            tuple(bete),
            general_rams,
            gr_made,
            tuple(results),
            tuple(payments),
            left,
            before,
            tuple(after),
        ),
    )
