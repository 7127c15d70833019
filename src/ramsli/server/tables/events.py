"""The stored events of a table and of a pub ledger, as typed records.

Every change of a card table is one event committed to the
:class:`~ramsli.server.storage.eventstore.EventStore` before it is applied and broadcast
(``docs/server.md``, *Nothing lost*); a pub ledger's hands are events of the same store. Each
kind is a frozen record here (an operation record, as pokerkit's): built by the
:class:`~ramsli.server.tables.table.Table` (or :class:`~ramsli.server.ledger.books.LedgerBook`),
stored as :meth:`to_data`, read back by :func:`parse_event` and applied by attribute.

- ``sit`` (:class:`Sit`): ``{"seat", "name", "token"?, "client"?: "bot"}``;
- ``start`` (:class:`Start`): ``{"names", "dealer"}``;
- ``deal`` (:class:`Deal`): ``{"number", "deck", "cut", "dealer", "stacks", "pot", "seated",
  "salts"?, "digest"?, "scheme"?}``;
- ``act`` (:class:`Act`): ``{"action", "by", "elapsed"?}``;
- ``pace`` (:class:`Pace`): ``{"seconds"}``;
- ``chat`` (:class:`Chat`): ``{"seat", "name", "text" | "code"}``;
- ``rematch`` (:class:`Rematch`): ``{"table"}``;
- ``ledger-hand`` (:class:`LedgerHand`): ``{"hand"}`` (:meth:`ramsli.ledger.PubHand.to_dict`);
- ``ledger-edit`` (:class:`LedgerEdit`): ``{"number", "hand"}``;
- ``ledger-end`` (:class:`LedgerEnd`): ``{}``.

A key marked ``?`` may be absent: a ``sit`` stored before personal tokens has no ``token``, a
``deal`` stored before commitments no ``salts`` and ``digest`` (one stored before deals were bound
to their hand no ``scheme``: its digest is ``ramsli-deal/1``), an ``act`` without ``elapsed``
counts as made at 0 s, and ``client`` is stored only when said. The record keeps the difference,
so ``parse_event(kind, d).to_data() == d`` for every stored event. Leaving the table, handing a seat to the bot and the presence of people are not
stored (after a restart every person is away); a takeover is a ``sit``.

The records hold no rules: whether a stored event fits the table (a legal action, a deal matching
the session) is the engine's check when the table applies it (R3.4, R4.12).

>>> e = parse_event("act", {"action": "p2 pl AS", "by": "seat", "elapsed": 1.5})
>>> e.action.seat, e.by, e.to_data()["action"]
(1, 'seat', 'p2 pl AS')
>>> parse_event("pace", {"seconds": "fast"})
Traceback (most recent call last):
...
ramsli.server.tables.events.EventError: a stored pace event is malformed: seconds is not a number
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, ClassVar, Literal

from ramsli.cards import Card
from ramsli.fairness import SCHEME as DEAL_SCHEME
from ramsli.hand import Action
from ramsli.ledger import LedgerError, PubHand

__all__ = [
    "EventKind",
    "EventError",
    "Sit",
    "Start",
    "Deal",
    "Act",
    "Pace",
    "Chat",
    "Rematch",
    "LedgerHand",
    "LedgerEdit",
    "LedgerEnd",
    "TableEvent",
    "LedgerEvent",
    "Event",
    "ActBy",
    "parse_event",
    "parse_table_event",
    "parse_ledger_event",
]


class EventKind(StrEnum):
    """The kinds of stored events (``docs/server.md``, *Nothing lost*): a table's and a pub ledger's."""

    SIT = "sit"
    START = "start"
    DEAL = "deal"
    ACT = "act"
    PACE = "pace"
    CHAT = "chat"
    REMATCH = "rematch"
    LEDGER_HAND = "ledger-hand"
    LEDGER_EDIT = "ledger-edit"
    LEDGER_END = "ledger-end"


class EventError(ValueError):
    """A stored event that is not one of its kind: an unknown kind, a missing or unknown key, a
    value of the wrong type. The message names the kind and the key."""


#: who made an ``act``: the seat's person (or program), its bot, the proxy of an away person,
#: the turn timer
ActBy = Literal["seat", "bot", "proxy", "timer"]
_BY: tuple[ActBy, ...] = ("seat", "bot", "proxy", "timer")


class _Reader:
    """Reads the keys of one stored event, each checked once; :meth:`done` refuses keys left over."""

    def __init__(self, kind: EventKind, data: Any) -> None:
        self.kind = kind
        if not isinstance(data, Mapping):
            raise self.error(f"its data is {type(data).__name__}, not an object")
        self.data = data
        self.seen: set[str] = set()

    def error(self, why: str) -> EventError:
        return EventError(f"a stored {self.kind} event is malformed: {why}")

    def has(self, key: str) -> bool:
        return key in self.data

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise self.error(f"{key} is missing")
        self.seen.add(key)
        return self.data[key]

    def integer(self, key: str) -> int:
        v = self.get(key)
        if type(v) is not int:
            raise self.error(f"{key} is not an integer")
        return v

    def number(self, key: str) -> float:
        v = self.get(key)
        if type(v) not in (int, float):
            raise self.error(f"{key} is not a number")
        return float(v)

    def text(self, key: str) -> str:
        v = self.get(key)
        if not isinstance(v, str):
            raise self.error(f"{key} is not text")
        return v

    def ints(self, key: str) -> tuple[int, ...]:
        v = self.get(key)
        if not isinstance(v, list) or any(type(x) is not int for x in v):
            raise self.error(f"{key} is not a list of integers")
        return tuple(v)

    def strs(self, key: str) -> tuple[str, ...]:
        v = self.get(key)
        if not isinstance(v, list) or any(not isinstance(x, str) for x in v):
            raise self.error(f"{key} is not a list of texts")
        return tuple(v)

    def done(self) -> None:
        extra = sorted(str(k) for k in self.data if k not in self.seen)
        if extra:
            raise self.error(f"unknown key {', '.join(extra)}")


@dataclass(frozen=True, slots=True)
class Sit:
    """A person sits down at ``seat`` (0-based) as ``name`` (R2.2): before the start at once,
    during the session from the next deal on (a takeover of a bot-played seat).

    Attributes:
        seat: the seat, 0-based.
        name: the checked name.
        token: the seat's personal token issued by this sit; None in events stored before
            personal tokens existed.
        external: the one sitting said it is a program (stored as ``"client": "bot"``).
    """

    KIND: ClassVar[EventKind] = EventKind.SIT
    seat: int
    name: str
    token: str | None = None
    external: bool = False

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        data: dict[str, Any] = {"seat": self.seat, "name": self.name}
        if self.token is not None:
            data["token"] = self.token
        if self.external:
            data["client"] = "bot"
        return data

    @classmethod
    def from_data(cls, data: Any) -> Sit:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        seat, name = r.integer("seat"), r.text("name")
        token = r.text("token") if r.has("token") else None
        external = False
        if r.has("client"):
            if r.get("client") != "bot":
                raise r.error("client is not 'bot'")
            external = True
        r.done()
        return cls(seat, name, token, external)


@dataclass(frozen=True, slots=True)
class Start:
    """The session starts: every seat's name (bots' names filled in) and the first dealer (R3.1)."""

    KIND: ClassVar[EventKind] = EventKind.START
    names: tuple[str, ...]
    dealer: int

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        return {"names": list(self.names), "dealer": self.dealer}

    @classmethod
    def from_data(cls, data: Any) -> Start:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        e = cls(r.strs("names"), r.integer("dealer"))
        r.done()
        return e


@dataclass(frozen=True, slots=True)
class Deal:
    """A hand is dealt (R4.1–R4.4): the shuffled deck and the cut, with what the session had
    before it (dealer, stacks, pot, seated seats: checked against the engine when applied) and the
    deal's commitments (``docs/fairness.md``).

    Attributes:
        number: the hand, 1-based.
        deck: the shuffled deck, before the cut.
        cut: the cut point.
        dealer: the dealer's seat (0-based).
        stacks: every seat's counters before the hand; pot: the carry-over, counters.
        seated: the seats still in the session.
        salts: one hex salt per card in dealt order, and digest: the commitment's digest; both
            None in a deal stored before commitments existed.
        scheme: the digest's scheme, ``"ramsli-deal/2"`` (bound to the table, this hand's
            number, dealer and seated seats; ``docs/fairness.md``); None for a ``ramsli-deal/1``
            digest (a deal stored before deals were bound, or without commitments).
    """

    KIND: ClassVar[EventKind] = EventKind.DEAL
    number: int
    deck: tuple[Card, ...]
    cut: int
    dealer: int
    stacks: tuple[int, ...]
    pot: int
    seated: tuple[int, ...]
    salts: tuple[str, ...] | None = None
    digest: str | None = None
    scheme: str | None = None

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        data: dict[str, Any] = {
            "number": self.number,
            "deck": [str(c) for c in self.deck],
            "cut": self.cut,
            "dealer": self.dealer,
            "stacks": list(self.stacks),
            "pot": self.pot,
            "seated": list(self.seated),
        }
        if self.salts is not None:
            data["salts"] = list(self.salts)
        if self.digest is not None:
            data["digest"] = self.digest
        if self.scheme is not None:
            data["scheme"] = self.scheme
        return data

    @classmethod
    def from_data(cls, data: Any) -> Deal:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed (a card
        that is no card included)."""
        r = _Reader(cls.KIND, data)
        try:
            deck = tuple(Card.parse(c) for c in r.strs("deck"))
        except ValueError as e:
            raise r.error(f"deck: {e}") from None
        number, cut, dealer = r.integer("number"), r.integer("cut"), r.integer("dealer")
        stacks, pot, seated = r.ints("stacks"), r.integer("pot"), r.ints("seated")
        salts = r.strs("salts") if r.has("salts") else None
        digest = r.text("digest") if r.has("digest") else None
        if (salts is None) != (digest is None):
            raise r.error("salts and digest come together")
        scheme = r.text("scheme") if r.has("scheme") else None
        if scheme is not None and (scheme != DEAL_SCHEME or digest is None):
            raise r.error(f"scheme is {DEAL_SCHEME!r} with a digest, or absent")
        r.done()
        return cls(number, deck, cut, dealer, stacks, pot, seated, salts, digest, scheme)


@dataclass(frozen=True, slots=True)
class Act:
    """A move (R4.5–R4.10): the action, who made it (:data:`ActBy`) and the session's seconds
    when it was made (R3.6 ``time:M`` is decided on it; None in an event stored without them,
    which counts as 0)."""

    KIND: ClassVar[EventKind] = EventKind.ACT
    action: Action
    by: ActBy
    elapsed: float | None = None

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        data: dict[str, Any] = {"action": str(self.action), "by": self.by}
        if self.elapsed is not None:
            data["elapsed"] = self.elapsed
        return data

    @classmethod
    def from_data(cls, data: Any) -> Act:
        """The record of stored ``data`` (the action parsed, not checked: the engine checks it
        when the table applies it). Raises :class:`EventError` if it is malformed."""
        if type(data) is dict and len(data) == 3:  # the usual shape, read at once (a replay is mostly acts)
            text, by, elapsed = data.get("action"), data.get("by"), data.get("elapsed")
            if type(text) is str and type(elapsed) is float and by in _BY:
                try:
                    return cls(Action.parse(text), by, elapsed)
                except ValueError:
                    pass  # named below
        r = _Reader(cls.KIND, data)
        try:
            action = Action.parse(r.text("action"))
        except ValueError as e:
            raise r.error(f"action: {e}") from None
        by = r.text("by")
        if by not in _BY:
            raise r.error(f"by is not one of {', '.join(_BY)}")
        elapsed = r.number("elapsed") if r.has("elapsed") else None
        r.done()
        return cls(action, by, elapsed)


@dataclass(frozen=True, slots=True)
class Pace:
    """The creator sets how long bots wait before they act (seconds, 0..60)."""

    KIND: ClassVar[EventKind] = EventKind.PACE
    seconds: float

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        return {"seconds": self.seconds}

    @classmethod
    def from_data(cls, data: Any) -> Pace:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        e = cls(r.number("seconds"))
        r.done()
        return e


@dataclass(frozen=True, slots=True)
class Chat:
    """A chat line of the person at ``seat`` (0-based) named ``name``: a ``text`` or a reaction or
    phrase ``code``, exactly one of them. No move: it does not count in the table's ``seq``."""

    KIND: ClassVar[EventKind] = EventKind.CHAT
    seat: int
    name: str
    text: str | None = None
    code: str | None = None

    def __post_init__(self) -> None:
        if (self.text is None) == (self.code is None):
            raise EventError("a chat event has a text or a code, exactly one")

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        data: dict[str, Any] = {"seat": self.seat, "name": self.name}
        if self.code is not None:
            data["code"] = self.code
        else:
            data["text"] = self.text
        return data

    @classmethod
    def from_data(cls, data: Any) -> Chat:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        seat, name = r.integer("seat"), r.text("name")
        if r.has("code") == r.has("text"):
            raise r.error("it has a text or a code, exactly one")
        code = r.text("code") if r.has("code") else None
        text = r.text("text") if r.has("text") else None
        r.done()
        return cls(seat, name, text, code)


@dataclass(frozen=True, slots=True)
class Rematch:
    """ "Play again" made the table ``table`` for the next session."""

    KIND: ClassVar[EventKind] = EventKind.REMATCH
    table: str

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        return {"table": self.table}

    @classmethod
    def from_data(cls, data: Any) -> Rematch:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        e = cls(r.text("table"))
        r.done()
        return e


def _pub_hand(r: _Reader) -> PubHand:
    try:
        hand = r.get("hand")
        if not isinstance(hand, Mapping):
            raise r.error("hand is not an object")
        return PubHand.from_dict(hand)
    except LedgerError as e:
        raise r.error(f"hand: {e}") from None


@dataclass(frozen=True, slots=True)
class LedgerHand:
    """A pub ledger books its next hand (the engine settles it, R5)."""

    KIND: ClassVar[EventKind] = EventKind.LEDGER_HAND
    hand: PubHand

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        return {"hand": self.hand.to_dict()}

    @classmethod
    def from_data(cls, data: Any) -> LedgerHand:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        e = cls(_pub_hand(r))
        r.done()
        return e


@dataclass(frozen=True, slots=True)
class LedgerEdit:
    """A pub ledger corrects its hand ``number`` (1-based); every later hand is settled again."""

    KIND: ClassVar[EventKind] = EventKind.LEDGER_EDIT
    number: int
    hand: PubHand

    def to_data(self) -> dict[str, Any]:
        """The event's stored data."""
        return {"number": self.number, "hand": self.hand.to_dict()}

    @classmethod
    def from_data(cls, data: Any) -> LedgerEdit:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        e = cls(r.integer("number"), _pub_hand(r))
        r.done()
        return e


@dataclass(frozen=True, slots=True)
class LedgerEnd:
    """A pub ledger's keeper ends the session now (R3.6, R3.7)."""

    KIND: ClassVar[EventKind] = EventKind.LEDGER_END

    def to_data(self) -> dict[str, Any]:
        """The event's stored data (none)."""
        return {}

    @classmethod
    def from_data(cls, data: Any) -> LedgerEnd:
        """The record of stored ``data``. Raises :class:`EventError` if it is malformed."""
        r = _Reader(cls.KIND, data)
        r.done()
        return cls()


#: an event of a card table
TableEvent = Sit | Start | Deal | Act | Pace | Chat | Rematch
#: an event of a pub ledger
LedgerEvent = LedgerHand | LedgerEdit | LedgerEnd
#: any stored event
Event = TableEvent | LedgerEvent

#: kind (as stored) -> the record that reads it
_TABLE_RECORDS: dict[str, Any] = {r.KIND.value: r for r in (Sit, Start, Deal, Act, Pace, Chat, Rematch)}
_LEDGER_RECORDS: dict[str, Any] = {r.KIND.value: r for r in (LedgerHand, LedgerEdit, LedgerEnd)}
_RECORDS: dict[str, Any] = {**_TABLE_RECORDS, **_LEDGER_RECORDS}


def _unknown(kind: object) -> EventError:
    return EventError(f"{str(kind)[:40]!r} is no kind of stored event")


def parse_event(kind: str, data: Any) -> Event:
    """The record of one stored event: its ``kind`` and its ``data`` (JSON as stored).

    Raises:
        EventError: an unknown kind, or data that is not of the kind (a missing, unknown or
            mistyped key).
    """
    record = _RECORDS.get(kind) if isinstance(kind, str) else None
    if record is None:
        raise _unknown(kind)
    event: Event = record.from_data(data)
    return event


def parse_table_event(kind: str, data: Any) -> TableEvent:
    """The record of one stored event of a card table (as :func:`parse_event`).

    Raises:
        EventError: as :func:`parse_event`, or an event of a pub ledger.
    """
    record = _TABLE_RECORDS.get(kind) if isinstance(kind, str) else None
    if record is None:
        if kind in _LEDGER_RECORDS:
            raise EventError(f"a {kind} event is no event of a card table")
        raise _unknown(kind)
    event: TableEvent = record.from_data(data)
    return event


def parse_ledger_event(kind: str, data: Any) -> LedgerEvent:
    """The record of one stored event of a pub ledger (as :func:`parse_event`).

    Raises:
        EventError: as :func:`parse_event`, or an event of a card table.
    """
    record = _LEDGER_RECORDS.get(kind) if isinstance(kind, str) else None
    if record is None:
        if kind in _TABLE_RECORDS:
            raise EventError(f"a {kind} event is no event of a pub ledger")
        raise _unknown(kind)
    event: LedgerEvent = record.from_data(data)
    return event
