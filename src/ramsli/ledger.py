"""The pub ledger: ramsli keeps the counters for a table that plays with real cards.

A :class:`PubLedger` knows the players, the rules and the first dealer. Hand by hand it is
told what the table declared and took (a :class:`PubHand`: who was in, General Rams and
targets when on, the tricks of each active player); it checks the entry against the rules
(R3.5, R4.5-R4.9), refusing a wrong one with a :class:`LedgerError` that names the rule and
changes nothing, and books it through the engine's one settlement: :meth:`Session.record_hand
<ramsli.session.Session.record_hand>` and :func:`ramsli.settlement.settle` (antes R4.1,
R5, carry-over R5.4, bust R3.5, ends R3.6, the deal passing left R3.2). Any earlier hand can
be corrected (:meth:`PubLedger.edit`): everything after it is settled again, and the edit is
kept in :attr:`PubLedger.edits`. Engine layer: no I/O.

>>> from ramsli.rules import Rules
>>> book = PubLedger(Rules(end=["hands:2"]), ["Ann", "Bo", "Cy"], first_dealer=2)
>>> e = book.add(PubHand(active=(0, 1), tricks={0: 3, 1: 2}))
>>> book.stacks, book.pot, book.dealer
([22, 19, 19], 0, 0)
>>> e = book.add(PubHand(active=(1, 2), tricks={1: 5, 2: 0}))
>>> book.stacks, book.pot, book.is_over, book.total() == 60
([21, 21, 13], 5, True, True)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ramsli.errors import RamsliError, SessionError, TableError
from ramsli.refusal import Refusal
from ramsli.rules import Rules
from ramsli.seats import order_from_dealer
from ramsli.session import EndReason, HandResult, Session

__all__ = ["PubHand", "PubLedger", "LedgerError", "Edit"]


class LedgerError(RamsliError, ValueError):
    """A pub hand the ledger refuses; nothing was booked.

    Args:
        refusal: the record: its ``code`` (``"tricks_sum"``, ``"out_tricks"``, …, declared
            in :data:`ramsli.refusal.LEDGER`), the rule id and the fields of the message (``hand``
            the hand's number, ``name`` a player's name, counts).

    Attributes:
        refusal (Refusal): as given.
        rule (str | None): the rule id broken, e.g. ``"R4.9"``.
        code (str): the refusal's code.
        hand (int | None): the 1-based number of the hand concerned, or None.

    >>> e = LedgerError(Refusal("tricks_sum", "R4.9", {"hand": 3, "total": 4}))
    >>> str(e), e.code, e.hand
    ('hand 3: the tricks add up to 4; five tricks are played (R4.9)', 'tricks_sum', 3)
    """

    def __init__(self, refusal: Refusal) -> None:
        self.refusal = refusal
        self.rule = refusal.rule
        self.code = refusal.code
        hand = refusal.get("hand")
        self.hand: int | None = hand if type(hand) is int else None
        super().__init__(str(refusal))


@dataclass(frozen=True)
class PubHand:
    """One hand as a pub table played it with real cards.

    Attributes:
        active: seats (0-based) that declared in (R4.5); under ``compulsory`` every seated seat;
            empty when everyone declared out and the hand was thrown in (D-10).
        tricks: seat -> tricks taken, for active seats only (R4.9); absent seats took 0.
        general_rams: the seat that announced General Rams, or None (R4.7).
        targets: seat -> announced target 2..``rules.largest_target`` (R4.8).
        elapsed: seconds since the session began when the hand was booked (for ``time:M``, R3.6).
    """

    active: tuple[int, ...]
    tricks: Mapping[int, int] = field(default_factory=dict)
    general_rams: int | None = None
    targets: Mapping[int, int] = field(default_factory=dict)
    elapsed: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{"active": [...], "tricks": {"0": 3}, "general_rams", "targets", "elapsed"}``."""
        return {
            "active": list(self.active),
            "tricks": {str(k): v for k, v in self.tricks.items()},
            "general_rams": self.general_rams,
            "targets": {str(k): v for k, v in self.targets.items()},
            "elapsed": self.elapsed,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PubHand:
        """The inverse of :meth:`to_dict`.

        Raises:
            LedgerError: (code ``"bad_entry"``) for a malformed entry.
        """
        try:
            active = tuple(_int(x) for x in data.get("active") or ())
            tricks = {_int(k): _int(v) for k, v in (data.get("tricks") or {}).items()}
            gr = data.get("general_rams")
            gr = None if gr is None or gr == "" else _int(gr)
            targets = {_int(k): _int(v) for k, v in (data.get("targets") or {}).items()}
            elapsed = float(data.get("elapsed") or 0.0)
        except (TypeError, ValueError, AttributeError) as e:
            raise LedgerError(Refusal("bad_entry", "R4.5", {"detail": str(e)[:80]})) from None
        return cls(active, tricks, gr, targets, elapsed)


def _int(x: Any) -> int:
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise ValueError(f"{x!r} is not a whole number")
    return int(x)


@dataclass(frozen=True)
class Edit:
    """A correction of an earlier hand: its number and the entries before and after."""

    number: int
    before: PubHand
    after: PubHand


class PubLedger:
    """The books of a session played with real cards.

    Args:
        rules: the rules in force (preset and options, R6, R8).
        names: one name per seat, clockwise (2..6, R2).
        first_dealer: the first dealer's seat, as the table cut for it (R3.1).

    Raises:
        TableError: for bad names or a dealer outside the seats (see :class:`~ramsli.session.Session`).

    Attributes:
        hands (list[PubHand]): the hands booked, in order; edits (list[Edit]): every correction;
        entries (list[HandResult]): the settled hands; ended (bool): the table stopped early.
    """

    def __init__(self, rules: Rules, names: Sequence[str], first_dealer: int = 0) -> None:
        self.rules = rules
        self.names = list(names)
        self.first_dealer = first_dealer
        self.hands: list[PubHand] = []
        self.edits: list[Edit] = []
        self.ended = False
        self.dealers: list[int] = []  # the dealer of each booked hand (R3.2)
        self.session = self._new_session()

    # -- queries --------------------------------------------------------------------

    @property
    def entries(self) -> list[HandResult]:
        """The settled hands (``Session.results``), one per booked hand."""
        return self.session.results

    @property
    def stacks(self) -> list[int]:
        """Counters per seat now."""
        return list(self.session.stacks)

    @property
    def pot(self) -> int:
        """The carry-over pot now (R5.4)."""
        return self.session.pot

    @property
    def dealer(self) -> int:
        """The dealer of the next hand (R3.2)."""
        return self.session.dealer

    @property
    def is_over(self) -> bool:
        """True once the session ended (R3.5, R3.6) or was stopped (:meth:`end`)."""
        return self.session.is_over

    @property
    def end_reason(self) -> EndReason | None:
        """Why the session ended (see :class:`~ramsli.session.EndReason`), or None."""
        return self.session.end_reason

    def total(self) -> int:
        """Stacks plus pot; always the starting stacks' sum (R3.4)."""
        return self.session.total()

    def winners(self) -> list[int]:
        """The seats with the most counters (R3.7, D-8)."""
        return self.session.winners()

    # -- booking --------------------------------------------------------------------

    def check(self, hand: PubHand, session: Session | None = None, number: int | None = None) -> None:
        """Check ``hand`` as the next hand of ``session`` (default: this ledger's).

        Raises:
            LedgerError: with the rule id: the session is over (R3.5, R3.6); a seat outside the
                table or a bust seat dealt in (R3.5); not everyone in under compulsory play, or
                nobody in with the dealer forced (R4.5); tricks for a seat that is out, tricks
                that do not add up to 5 with two or more in, or tricks at a walkover (R4.6, R4.9);
                General Rams when off, by a seat that is out or without two in (R4.7); a target
                when off, outside 2..``rules.largest_target``, by a seat that is out or by the
                General Rams announcer (R4.8).
        """
        s = self.session if session is None else session
        r = self.rules
        no = (len(s.results) + 1) if number is None else number
        if s.is_over:
            raise LedgerError(Refusal("over", "R3.6", {"hand": no}))
        n = s.n_seats
        for seat in (
            list(hand.active)
            + list(hand.tricks)
            + list(hand.targets)
            + ([] if hand.general_rams is None else [hand.general_rams])
        ):
            if not 0 <= seat < n:
                raise LedgerError(Refusal("bad_seat", "R2.1", {"hand": no, "number": seat + 1, "count": n}))
        active = set(hand.active)
        if len(active) != len(hand.active):
            raise LedgerError(Refusal("twice", "R4.5", {"hand": no}))
        for seat in hand.active:
            if seat not in s.seated:
                raise LedgerError(Refusal("bust_in", "R3.5", {"hand": no, "name": self.names[seat]}))
        seated = set(s.seated)
        if r.compulsory and active != seated:
            raise LedgerError(Refusal("compulsory", "R4.5", {"hand": no}))
        if not active and r.dealer_forced:
            raise LedgerError(Refusal("all_out_dealer_forced", "R4.5", {"hand": no, "name": self.names[s.dealer]}))
        for seat, t in hand.tricks.items():
            if t < 0 or t > 5:
                raise LedgerError(Refusal("tricks_range", "R4.9", {"hand": no, "name": self.names[seat], "tricks": t}))
            if t and seat not in active:
                raise LedgerError(Refusal("out_tricks", "R4.9", {"hand": no, "name": self.names[seat]}))
        total = sum(hand.tricks.values())
        if len(active) >= 2 and total != 5:
            raise LedgerError(Refusal("tricks_sum", "R4.9", {"hand": no, "total": total}))
        if len(active) < 2 and total:
            raise LedgerError(Refusal("walkover_tricks", "R4.6", {"hand": no, "count": len(active)}))
        gr = hand.general_rams
        if gr is not None:
            if not r.general_rams:
                raise LedgerError(Refusal("gr_off", "R4.7", {"hand": no}))
            if gr not in active or len(active) < 2:
                raise LedgerError(Refusal("gr_not_active", "R4.7", {"hand": no}))
        if hand.targets:
            if not r.targets:
                raise LedgerError(Refusal("targets_off", "R4.8", {"hand": no}))
            top = r.largest_target
            for seat, t in hand.targets.items():
                if seat not in active or len(active) < 2:
                    raise LedgerError(Refusal("target_not_active", "R4.8", {"hand": no}))
                if seat == gr:
                    raise LedgerError(Refusal("target_gr", "R4.8", {"hand": no}))
                if not 2 <= t <= top:
                    raise LedgerError(Refusal("target_not_offered", "R4.8", {"hand": no, "target": t, "top": top}))

    def add(self, hand: PubHand) -> HandResult:
        """Check and book the next hand (see :meth:`check`); returns its settled entry.

        Raises:
            LedgerError: if the entry is refused; nothing is booked.
        """
        self.check(hand)
        entry = self._book(self.session, hand, self.dealers)
        self.hands.append(hand)
        return entry

    def edit(self, number: int, hand: PubHand) -> list[HandResult]:
        """Correct hand ``number`` (1-based) and settle it and every later hand again (R3.4 holds
        throughout); the correction is kept in :attr:`edits`. Returns the new entries.

        Raises:
            LedgerError: (code ``"no_hand"``) for a hand not booked, or any refusal of :meth:`check`
                for the corrected hand or a later hand that no longer fits (for example a player
                now bust, R3.5); nothing changes.
        """
        if not 1 <= number <= len(self.hands):
            raise LedgerError(Refusal("no_such_hand", "R3.6", {"hand": number, "count": len(self.hands)}))
        hands = list(self.hands)
        before = hands[number - 1]
        hands[number - 1] = hand
        session, dealers = self.replay(hands)
        self.session, self.dealers = session, dealers
        self.hands = hands
        self.edits.append(Edit(number, before, hand))
        return list(session.results)

    def end(self) -> None:
        """Stop the session now (``end_reason = "quit"``): the standings are final (R3.7)."""
        self.ended = True
        self.session.quit()

    def standings(self) -> list[dict[str, Any]]:
        """Seats by counters, most first: ``{"seat", "name", "stack", "net", "winner"}`` (R3.7, D-8)."""
        win = set(self.winners())
        start = self.rules.starting_stack
        rows = [
            {"seat": s, "name": self.names[s], "stack": v, "net": v - start, "winner": s in win}
            for s, v in enumerate(self.stacks)
        ]
        return sorted(rows, key=lambda x: (-x["stack"], x["seat"]))

    # -- internals --------------------------------------------------------------------

    def _new_session(self) -> Session:
        self._now = 0.0
        return Session(self.rules, self.names, seed=0, dealer=self.first_dealer, clock=lambda: self._now)

    def _book(self, session: Session, hand: PubHand, dealers: list[int]) -> HandResult:
        tricks = [0] * session.n_seats
        for seat, t in hand.tricks.items():
            tricks[seat] = t
        self._now = hand.elapsed
        dealer = session.dealer
        try:
            entry = session.record_hand(hand.active, tricks, hand.general_rams, dict(hand.targets))
        except (SessionError, TableError) as e:  # the checks above should have caught it
            raise LedgerError(e.refusal) from None
        dealers.append(dealer)
        return entry

    def replay(self, hands: Sequence[PubHand]) -> tuple[Session, list[int]]:
        """Settle ``hands`` from the start in a new session (R3.4 throughout); returns it and the dealers.

        Raises:
            LedgerError: if a hand does not fit (see :meth:`check`).
        """
        saved = self._now
        session = self._new_session()
        dealers: list[int] = []
        try:
            for i, h in enumerate(hands):
                self.check(h, session, i + 1)
                self._book(session, h, dealers)
            if self.ended:
                session.quit()
        except LedgerError:
            self._now = saved
            raise
        return session, dealers

    def order(self) -> tuple[int, ...]:
        """The seated seats of the next hand from the dealer's left, dealer last (R4.5, R5.9)."""
        return order_from_dealer(self.dealer, self.session.seated, len(self.names))
