"""What the tables' calls return: frozen records, turned into JSON only by the routes.

:class:`CreateResult` (:meth:`Hub.create_table <ramsli.server.tables.hub.Hub.create_table>`),
:class:`SitResult` (:meth:`Hub.sit <ramsli.server.tables.hub.Hub.sit>`, a take-over),
:class:`StartResult` (:meth:`Hub.start <ramsli.server.tables.hub.Hub.start>`),
:class:`PaceResult` and :class:`RematchResult` (:func:`ramsli.server.tables.social.rematch`). Each ``to_json()`` is the answer of its route in ``docs/protocol.md``; seats
are 0-based indices here and ``"p1"``... on the wire (:func:`ramsli.seats.seat_name`, R2.2).

>>> SitResult(seat=1, pending=False, token="tok").to_json()
{'seat': 'p2', 'pending': False, 'token': 'tok'}
>>> made = CreateResult("T1", "ct", (SeatLink(0, "human", None, "s0"),), "sp")
>>> made.to_json()["seats"][0]["invite"], made.to_json()["spectate"]
('/t/T1/s/s0', '/t/T1/watch/sp')
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ramsli.seats import seat_name

__all__ = ["SeatLink", "CreateResult", "SitResult", "StartResult", "PaceResult", "RematchResult"]


@dataclass(frozen=True)
class SeatLink:
    """One seat of a new table: its index (0-based), ``kind`` (``human`` or ``bot``), its bot spec
    (None for a person's seat) and its invite token."""

    index: int
    kind: str
    bot: str | None
    token: str


@dataclass(frozen=True)
class CreateResult:
    """A new table: its id, the creator's token, its seats and the spectators' token."""

    table: str
    creator_token: str
    seats: tuple[SeatLink, ...]
    spectator_token: str

    def to_json(self) -> dict[str, Any]:
        """``{"table", "creator_token", "seats": [{"seat", "kind", "bot", "token", "invite"}],
        "spectate", "ws"}`` (``POST /api/tables``)."""
        return {
            "table": self.table,
            "creator_token": self.creator_token,
            "seats": [
                {
                    "seat": seat_name(s.index),
                    "kind": s.kind,
                    "bot": s.bot,
                    "token": s.token,
                    "invite": f"/t/{self.table}/s/{s.token}",
                }
                for s in self.seats
            ],
            "spectate": f"/t/{self.table}/watch/{self.spectator_token}",
            "ws": f"/ws/{self.table}",
        }


@dataclass(frozen=True)
class SitResult:
    """A seat taken: its index (0-based), whether it waits for the next deal (``pending``: a
    take-over during the session), and the seat's personal token (the only one that acts for it)."""

    seat: int
    pending: bool
    token: str

    def to_json(self) -> dict[str, Any]:
        """``{"seat", "pending", "token"}`` (``POST /api/tables/{table}/sit``, ``/take``)."""
        return {"seat": seat_name(self.seat), "pending": self.pending, "token": self.token}


@dataclass(frozen=True)
class StartResult:
    """A session started: the table's status (a :class:`~ramsli.server.tables.table.TableStatus`,
    a string) and its ``seq``."""

    status: str
    seq: int

    def to_json(self) -> dict[str, Any]:
        """``{"status", "seq"}`` (``POST /api/tables/{table}/start``)."""
        return {"status": self.status, "seq": self.seq}


@dataclass(frozen=True)
class PaceResult:
    """The bots' pace changed: seconds per bot move and the table's ``seq``."""

    bot_pace_seconds: float
    seq: int

    def to_json(self) -> dict[str, Any]:
        """``{"bot_pace_seconds", "seq"}`` (``POST /api/tables/{table}/pace``)."""
        return {"bot_pace_seconds": self.bot_pace_seconds, "seq": self.seq}


@dataclass(frozen=True)
class RematchResult:
    """ "Play again": the new table, the caller's seat there (0-based; None for the creator's
    token alone, or a seat nobody had taken), that seat's invite token and the name they had, and
    for the creator the new table's links (every seat's invite, no seat token is sent)."""

    table: str
    seat: int | None
    seat_token: str | None
    name: str | None
    created: CreateResult | None = None

    def to_json(self) -> dict[str, Any]:
        """``{"table", "seat", "invite", "name"}`` and, for the creator, ``"creator_token"``,
        ``"seats"`` (``{"seat", "kind", "bot", "invite"}`` each) and ``"spectate"``
        (``POST /api/tables/{table}/rematch``)."""
        answer: dict[str, Any] = {
            "table": self.table,
            "seat": None if self.seat is None else seat_name(self.seat),
            "invite": None if self.seat_token is None else f"/t/{self.table}/s/{self.seat_token}",
            "name": self.name,
        }
        if self.created is not None:
            links = self.created.to_json()
            answer["creator_token"] = links["creator_token"]
            answer["seats"] = [{k: s[k] for k in ("seat", "kind", "bot", "invite")} for s in links["seats"]]
            answer["spectate"] = links["spectate"]
        return answer
