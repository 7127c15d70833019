"""An evening's log: every director and check-in action as a frozen record (issue 34).

An evening changes only by appending one entry to its log (``evening_log``, migration
``0006_evenings``): ``(seq, at, by, kind, data)`` — the entry's number (1, 2, …; unique per
evening, so two requests or processes cannot both write the same one), when (seconds since the
epoch), who (a player id, or None), its kind and its data. The evening's state is the fold of
its entries (:mod:`ramsli.server.evenings.state`); the entries are also its audit trail and part
of its download. No entry holds a card, a token or a seed not yet opened (R7, D-16): a round's
seed is opened in the very entry that starts the round.

Each kind is a record here, stored as :meth:`to_data` and read back by :func:`parse_record`
(which refuses a malformed one naming the kind and the key, :class:`LogError`):

- ``create`` (:class:`Create`): ``{"spec", "commitment"}`` — the evening as made;
- ``check_in`` (:class:`CheckIn`): ``{"participant", "name", "from_round"}``;
- ``check_out`` (:class:`CheckOut`): ``{"participant"}`` — before their first round;
- ``withdraw`` (:class:`Withdraw`): ``{"participant", "from_round"}`` — plays no round from then on;
- ``substitute`` (:class:`Substitute`): ``{"participant", "name", "level", "from_round"}``;
- ``start_round`` (:class:`StartRound`): ``{"round", "round_kind", "participants", "byes",
  "sizes", "order", "drawn", "swaps", "tables", "seed"}`` — the draw and each table
  (:class:`TablePlan`); ``round_kind`` is ``qualifying`` or ``final``;
- ``reseat`` (:class:`Reseat`): ``{"round", "a", "b", "ledgers"}`` — a swap of the running round
  (real-card tables before their first hand; ``ledgers`` the new ledger of each table it changed)
  or, between rounds, of the next round's draw;
- ``pause`` (:class:`Pause`): ``{"round", "table", "paused"}``;
- ``captain`` (:class:`Captain`): ``{"round", "table", "participant"}``;
- ``close`` (:class:`Close`): ``{"next"}`` — the next evening of a recurring one, or None.

>>> e = parse_record("check_in", {"participant": "p1", "name": "Anna", "from_round": 1})
>>> e.name, e.to_data() == {"participant": "p1", "name": "Anna", "from_round": 1}
('Anna', True)
>>> parse_record("pause", {"round": 1, "table": "x", "paused": True})
Traceback (most recent call last):
...
ramsli.server.evenings.log.LogError: a stored pause entry is malformed: table is not an integer
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, ClassVar

__all__ = [
    "EntryKind",
    "LogError",
    "Create",
    "CheckIn",
    "CheckOut",
    "Withdraw",
    "Substitute",
    "TablePlan",
    "StartRound",
    "Reseat",
    "Pause",
    "Captain",
    "Close",
    "Record",
    "Entry",
    "parse_record",
    "parse_entry",
]


class EntryKind(StrEnum):
    """The kinds of an evening's log entries."""

    CREATE = "create"
    CHECK_IN = "check_in"
    CHECK_OUT = "check_out"
    WITHDRAW = "withdraw"
    SUBSTITUTE = "substitute"
    START_ROUND = "start_round"
    RESEAT = "reseat"
    PAUSE = "pause"
    CAPTAIN = "captain"
    CLOSE = "close"


class LogError(ValueError):
    """A stored entry that is not one of its kind: an unknown kind, a missing or unknown key, a
    value of the wrong type. The message names the kind and the key."""


class _Reader:
    """Reads the keys of one stored entry, each checked once; :meth:`done` refuses keys left over."""

    def __init__(self, kind: str, data: Any) -> None:
        self.kind = kind
        if not isinstance(data, Mapping):
            raise self.error(f"its data is {type(data).__name__}, not an object")
        self.data = data
        self.seen: set[str] = set()

    def error(self, why: str) -> LogError:
        return LogError(f"a stored {self.kind} entry is malformed: {why}")

    def get(self, key: str) -> Any:
        if key not in self.data:
            raise self.error(f"{key} is missing")
        self.seen.add(key)
        return self.data[key]

    def integer(self, key: str, value: Any = None, given: bool = False) -> int:
        v = value if given else self.get(key)
        if type(v) is not int:
            raise self.error(f"{key} is not an integer")
        return v

    def text(self, key: str, value: Any = None, given: bool = False) -> str:
        v = value if given else self.get(key)
        if not isinstance(v, str):
            raise self.error(f"{key} is not text")
        return v

    def flag(self, key: str) -> bool:
        v = self.get(key)
        if not isinstance(v, bool):
            raise self.error(f"{key} is not true or false")
        return v

    def maybe_text(self, key: str) -> str | None:
        v = self.get(key)
        return None if v is None else self.text(key, v, True)

    def texts(self, key: str, value: Any = None, given: bool = False) -> tuple[str, ...]:
        v = value if given else self.get(key)
        if not isinstance(v, list):
            raise self.error(f"{key} is not a list")
        return tuple(self.text(key, x, True) for x in v)

    def ints(self, key: str) -> tuple[int, ...]:
        v = self.get(key)
        if not isinstance(v, list):
            raise self.error(f"{key} is not a list")
        return tuple(self.integer(key, x, True) for x in v)

    def lists(self, key: str, value: Any = None, given: bool = False) -> tuple[tuple[str, ...], ...]:
        v = value if given else self.get(key)
        if not isinstance(v, list):
            raise self.error(f"{key} is not a list")
        return tuple(self.texts(key, x, True) for x in v)

    def pairs(self, key: str) -> tuple[tuple[str, str], ...]:
        out = []
        for p in self.lists(key):
            if len(p) != 2:
                raise self.error(f"{key} holds an entry that is not a pair")
            out.append((p[0], p[1]))
        return tuple(out)

    def mapping(self, key: str) -> dict[str, Any]:
        v = self.get(key)
        if not isinstance(v, Mapping):
            raise self.error(f"{key} is not an object")
        return dict(v)

    def done(self) -> None:
        extra = sorted(set(self.data) - self.seen)
        if extra:
            raise self.error(f"{extra[0]} is not a key of it")


@dataclass(frozen=True)
class Create:
    """The evening as made: its normalized spec (name, starts, club, preset, rules, mode,
    members_only, format, rounds, rounds_total, best, hands_per_round, final_size, small_final,
    recurring, timings) and the commitment to its seeds (SHA-256 of round 1's seed)."""

    KIND: ClassVar[EntryKind] = EntryKind.CREATE
    spec: Mapping[str, Any]
    commitment: str

    def to_data(self) -> dict[str, Any]:
        return {"spec": dict(self.spec), "commitment": self.commitment}


@dataclass(frozen=True)
class CheckIn:
    """A person checks in (again, after a check-out or a withdrawal): plays from round ``from_round``."""

    KIND: ClassVar[EntryKind] = EntryKind.CHECK_IN
    participant: str
    name: str
    from_round: int

    def to_data(self) -> dict[str, Any]:
        return {"participant": self.participant, "name": self.name, "from_round": self.from_round}


@dataclass(frozen=True)
class CheckOut:
    """A participant checks out before their first round (nothing of theirs was played)."""

    KIND: ClassVar[EntryKind] = EntryKind.CHECK_OUT
    participant: str

    def to_data(self) -> dict[str, Any]:
        return {"participant": self.participant}


@dataclass(frozen=True)
class Withdraw:
    """A participant who has played withdraws: no table for them from round ``from_round`` on
    (a seat of theirs still playing is played by the table's away bot)."""

    KIND: ClassVar[EntryKind] = EntryKind.WITHDRAW
    participant: str
    from_round: int

    def to_data(self) -> dict[str, Any]:
        return {"participant": self.participant, "from_round": self.from_round}


@dataclass(frozen=True)
class Substitute:
    """The director adds a substitute bot ``participant`` (``bot:LEVEL:K``) of ``level``."""

    KIND: ClassVar[EntryKind] = EntryKind.SUBSTITUTE
    participant: str
    name: str
    level: str
    from_round: int

    def to_data(self) -> dict[str, Any]:
        return {"participant": self.participant, "name": self.name, "level": self.level, "from_round": self.from_round}


@dataclass(frozen=True)
class TablePlan:
    """One table of a round: its number (1..T), name (``Table 3``, ``Final``, ``Small final``),
    kind (``qualifying``, ``final``, ``small_final``), mode (``online`` or ``cards``), the card
    table's or the ledger's id, its hands, the participants by seat (after the round's swaps)
    and the captain of a real-card table (None online)."""

    number: int
    name: str
    kind: str
    mode: str
    table: str | None
    ledger: str | None
    hands: int
    seats: tuple[str, ...]
    captain: str | None = None

    def to_data(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "name": self.name,
            "kind": self.kind,
            "mode": self.mode,
            "table": self.table,
            "ledger": self.ledger,
            "hands": self.hands,
            "seats": list(self.seats),
            "captain": self.captain,
        }

    @classmethod
    def from_data(cls, data: Any, kind: str = "start_round") -> TablePlan:
        r = _Reader(kind, data)
        plan = cls(
            number=r.integer("number"),
            name=r.text("name"),
            kind=r.text("kind"),
            mode=r.text("mode"),
            table=r.maybe_text("table"),
            ledger=r.maybe_text("ledger"),
            hands=r.integer("hands"),
            seats=r.texts("seats"),
            captain=r.maybe_text("captain"),
        )
        r.done()
        return plan


@dataclass(frozen=True)
class StartRound:
    """The director starts round ``round``: who plays (``participants``, sorted), who has a bye,
    the table sizes, the order the draw followed (the standings; None for a draw by lot), the
    tables as drawn (ids by seat), the director's swaps applied to them, each table made, and the
    round's seed, opened here (it hashes down to the commitment)."""

    KIND: ClassVar[EntryKind] = EntryKind.START_ROUND
    round: int
    kind: str
    participants: tuple[str, ...]
    byes: tuple[str, ...]
    sizes: tuple[int, ...]
    order: tuple[str, ...] | None
    drawn: tuple[tuple[str, ...], ...]
    swaps: tuple[tuple[str, str], ...]
    tables: tuple[TablePlan, ...]
    seed: str

    def to_data(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "round_kind": self.kind,
            "participants": list(self.participants),
            "byes": list(self.byes),
            "sizes": list(self.sizes),
            "order": None if self.order is None else list(self.order),
            "drawn": [list(t) for t in self.drawn],
            "swaps": [list(s) for s in self.swaps],
            "tables": [t.to_data() for t in self.tables],
            "seed": self.seed,
        }


@dataclass(frozen=True)
class Reseat:
    """The director swaps the seats of ``a`` and ``b`` in round ``round``: the running round
    (real-card tables before their first hand; ``ledgers``: table number -> its new ledger) or,
    between rounds, the next one (applied after its draw)."""

    KIND: ClassVar[EntryKind] = EntryKind.RESEAT
    round: int
    a: str
    b: str
    ledgers: tuple[tuple[int, str], ...] = field(default=())

    def to_data(self) -> dict[str, Any]:
        return {"round": self.round, "a": self.a, "b": self.b, "ledgers": [[n, lid] for n, lid in self.ledgers]}


@dataclass(frozen=True)
class Pause:
    """The director pauses table ``table`` of round ``round`` (``paused``) or lets it go on."""

    KIND: ClassVar[EntryKind] = EntryKind.PAUSE
    round: int
    table: int
    paused: bool

    def to_data(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "paused": self.paused}


@dataclass(frozen=True)
class Captain:
    """The director makes ``participant`` the captain of real-card table ``table`` of round ``round``."""

    KIND: ClassVar[EntryKind] = EntryKind.CAPTAIN
    round: int
    table: int
    participant: str

    def to_data(self) -> dict[str, Any]:
        return {"round": self.round, "table": self.table, "participant": self.participant}


@dataclass(frozen=True)
class Close:
    """The director closes the evening; ``next``: the next evening a recurring one made, or None."""

    KIND: ClassVar[EntryKind] = EntryKind.CLOSE
    next: str | None = None

    def to_data(self) -> dict[str, Any]:
        return {"next": self.next}


Record = Create | CheckIn | CheckOut | Withdraw | Substitute | StartRound | Reseat | Pause | Captain | Close


@dataclass(frozen=True)
class Entry:
    """One stored log entry: its number, when (seconds since the epoch), who (a player id or
    None) and the record."""

    seq: int
    at: float
    by: str | None
    record: Record

    @property
    def kind(self) -> str:
        """The record's kind."""
        return self.record.KIND.value

    def to_row(self) -> dict[str, Any]:
        """The entry as :meth:`ramsli.server.storage.directory.Directory.append_evening_log` stores it."""
        return {"seq": self.seq, "at": self.at, "by": self.by, "kind": self.kind, "data": self.record.to_data()}

    def to_data(self) -> dict[str, Any]:
        """The entry as the download writes it: ``{"seq", "at", "by", "kind", **data}`` (no
        record has a key of these four)."""
        return {"seq": self.seq, "at": self.at, "by": self.by, "kind": self.kind, **self.record.to_data()}


def parse_record(kind: str, data: Any) -> Record:
    """The record of a stored entry of ``kind``.

    Raises:
        LogError: an unknown kind, or data that is not of its kind (naming the key).
    """
    r = _Reader(kind, data)
    rec: Record
    if kind == EntryKind.CREATE:
        rec = Create(r.mapping("spec"), r.text("commitment"))
    elif kind == EntryKind.CHECK_IN:
        rec = CheckIn(r.text("participant"), r.text("name"), r.integer("from_round"))
    elif kind == EntryKind.CHECK_OUT:
        rec = CheckOut(r.text("participant"))
    elif kind == EntryKind.WITHDRAW:
        rec = Withdraw(r.text("participant"), r.integer("from_round"))
    elif kind == EntryKind.SUBSTITUTE:
        rec = Substitute(r.text("participant"), r.text("name"), r.text("level"), r.integer("from_round"))
    elif kind == EntryKind.START_ROUND:
        order = r.get("order")
        tables = r.get("tables")
        if not isinstance(tables, list):
            raise r.error("tables is not a list")
        rec = StartRound(
            round=r.integer("round"),
            kind=r.text("round_kind"),
            participants=r.texts("participants"),
            byes=r.texts("byes"),
            sizes=r.ints("sizes"),
            order=None if order is None else r.texts("order", order, True),
            drawn=r.lists("drawn"),
            swaps=r.pairs("swaps"),
            tables=tuple(TablePlan.from_data(t, kind) for t in tables),
            seed=r.text("seed"),
        )
    elif kind == EntryKind.RESEAT:
        ledgers = r.get("ledgers")
        if not isinstance(ledgers, list) or not all(
            isinstance(x, list) and len(x) == 2 and type(x[0]) is int and isinstance(x[1], str) for x in ledgers
        ):
            raise r.error("ledgers is not a list of [table, ledger] pairs")
        rec = Reseat(r.integer("round"), r.text("a"), r.text("b"), tuple((x[0], x[1]) for x in ledgers))
    elif kind == EntryKind.PAUSE:
        rec = Pause(r.integer("round"), r.integer("table"), r.flag("paused"))
    elif kind == EntryKind.CAPTAIN:
        rec = Captain(r.integer("round"), r.integer("table"), r.text("participant"))
    elif kind == EntryKind.CLOSE:
        rec = Close(r.maybe_text("next"))
    else:
        raise LogError(f"a stored entry of the unknown kind {str(kind)[:30]!r}")
    r.done()
    return rec


def parse_entry(row: Mapping[str, Any]) -> Entry:
    """An entry from its stored row (``{"seq", "at", "by", "kind", "data"}``).

    Raises:
        LogError: as :func:`parse_record`.
    """
    return Entry(int(row["seq"]), float(row["at"]), row["by"], parse_record(str(row["kind"]), row["data"]))
