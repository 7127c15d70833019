"""The pub ledger of ``ramsli serve``: the books of a table that plays with real cards.

A ledger is a row of the existing ``tables`` table with spec ``{"kind": "ledger", ...}``; its
hands are events of the existing ``events`` table (``ledger-hand``, ``ledger-edit``,
``ledger-end``: the records of :mod:`ramsli.server.tables.events`). A **club's ledger** (``"club"`` and ``"players"``: a member's player id or null
per seat; made by a logged-in member) has a ``table_links`` row and its members' seats
``seat_links`` rows (:mod:`ramsli.server.storage.directory`); when its session ends it is recorded for the
club's season and the ratings (:mod:`ramsli.server.clubs.clubs`). Only its keeper's link changes it. Every event is committed before the answer is
sent; a restart replays the events through :class:`ramsli.ledger.PubLedger` (the engine's
settlement, R5, and session bookkeeping, R3). Endpoints (``docs/ledger.md``; served by
:mod:`ramsli.server.ledger.routes`):

- ``POST /api/ledgers``: ``{"names": [...], "preset": "traditional", "options": {...},
  "first_dealer": 0, "cents": false}`` -> ``201`` with the keeper's link and the follow link;
- ``GET /api/ledgers/{id}?token=``: the books (keeper or follow token);
- ``POST /api/ledgers/{id}/hands?token=``: book the next hand (keeper token); a refused entry
  answers ``422 {"error": "refused", "code", "rule", "fields", "message"}`` and stores nothing;
- ``PUT /api/ledgers/{id}/hands/{n}?token=``: correct hand ``n`` (an edit, settled again);
- ``POST /api/ledgers/{id}/end?token=``: end the session now (R3.6, R3.7);
- ``GET /api/ledgers/{id}/ledger.csv?token=``: the score sheet as CSV;
- pages: ``GET /ledger`` (set up), ``GET /l/{id}/{token}`` (keeper), ``GET /l/{id}/follow/{token}``.

Every body is read through the one capped reader and parsed by its model
(:class:`~ramsli.server.protocol.schemas.CreateLedger`, :class:`~ramsli.server.protocol.schemas.LedgerHand`,
:class:`~ramsli.server.protocol.schemas.NoBody`) before anything else; every refusal is answered by its
code in the request's language (the app's handlers, :mod:`ramsli.server.protocol.messages`).
"""

from __future__ import annotations

import asyncio
import io
import secrets
from typing import Any

from fastapi import Request

from ramsli.evening.check import row_check
from ramsli.ledger import PubLedger
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules
from ramsli.server import deps
from ramsli.server.protocol.csvcells import spreadsheet_safe
from ramsli.server.protocol.csvcells import writer as csv_writer
from ramsli.server.protocol.messages import ProtocolRefusal
from ramsli.server.tables import events
from ramsli.server.tables.events import LedgerEvent, parse_ledger_event
from ramsli.server.tables.hub import Hub

__all__ = ["KIND", "LedgerBook", "LedgerBooks", "csv_text", "state_of"]

#: the spec kind of a ledger row in the ``tables`` table
KIND = "ledger"


class LedgerBook:
    """One stored ledger: its spec (tokens, names, rules), the engine's :class:`PubLedger`, the next event number."""

    def __init__(self, ledger_id: str, spec: dict[str, Any], created: float) -> None:
        self.id = ledger_id
        self.spec = spec
        self.created = created
        self.book = PubLedger(Rules.from_dict(spec["rules"]), spec["names"], spec["first_dealer"])
        self.seq = 0
        self.edited: set[int] = set()
        self.lock = asyncio.Lock()

    def apply(self, event: LedgerEvent) -> None:
        """Apply one event (committed, or read back by
        :func:`~ramsli.server.tables.events.parse_ledger_event`). Raises LedgerError if it does not fit."""
        if isinstance(event, events.LedgerHand):
            self.book.add(event.hand)
        elif isinstance(event, events.LedgerEdit):
            self.book.edit(event.number, event.hand)
            self.edited.add(event.number)
        else:
            self.book.end()


def _same(a: str, b: str) -> bool:
    return secrets.compare_digest(a.encode(), b.encode())


class LedgerBooks:
    """The pub ledgers one server runs, by id: :attr:`books`, empty until :meth:`load` has read
    them from the store (on first use). The app makes one at start-up; the routes take it through
    :func:`ramsli.server.deps.ledgers`."""

    def __init__(self) -> None:
        #: the books by ledger id (empty before :meth:`load`)
        self.books: dict[str, LedgerBook] = {}
        #: True once :meth:`load` has read the stored ledgers
        self.loaded = False
        self._lock = asyncio.Lock()

    async def load(self, hub: Hub) -> dict[str, LedgerBook]:
        """The books, read from the hub's store on the first call (every open ledger's events
        replayed, :func:`~ramsli.server.tables.events.parse_ledger_event`); found by an index, no
        card table is read."""
        if not self.loaded:
            async with self._lock:
                if not self.loaded:
                    books: dict[str, LedgerBook] = {}
                    wanted = await hub.store.ledger_ids()
                    for row in await hub.store.load(wanted):
                        if row["spec"] is None or row["spec"].get("kind") != KIND or row.get("closed") is not None:
                            continue
                        b = _replayed(row)
                        books[b.id] = b
                    self.books, self.loaded = books, True
        return self.books

    def changed(self, ledger_id: str, row: dict[str, Any] | None) -> None:
        """This process starts (``row``: the stored ledger, with its events) or stops (None) running
        ledger ``ledger_id``: its book is made again from the stored events, or forgotten. Before
        :meth:`load` nothing is kept (the load reads it then)."""
        if not self.loaded:
            return
        if row is None:
            self.books.pop(ledger_id, None)
        else:
            self.books[ledger_id] = _replayed(row)


def _replayed(row: dict[str, Any]) -> LedgerBook:
    """The book of a stored ledger row, its events applied in order."""
    b = LedgerBook(row["id"], row["spec"], row["created"])
    for seq, kind, data in row["events"]:
        b.apply(parse_ledger_event(kind, data))
        b.seq = seq
    return b


async def _book(request: Request, ledger_id: str, token: str, keeper: bool) -> LedgerBook:
    """The ledger ``ledger_id`` if ``token`` may read it (``keeper``: may change it).

    Raises:
        Refused: ``no_ledger``; ``bad_token`` (``not_keeper``, ``bad_link``).
    """
    b = (await deps.ledgers(request).load(deps.hub(request))).get(ledger_id)
    if b is None:
        raise Refused(Refusal("no_ledger", None, {"ledger": ledger_id[:40]}))
    ok = _same(token, b.spec["token"])
    if not keeper:
        ok = ok or _same(token, b.spec["follow_token"])
    if not ok:
        raise ProtocolRefusal(Refusal("not_keeper" if keeper else "bad_link"), "bad_token")
    return b


def _check(b: LedgerBook, number: int) -> str | None:
    """The check digit of hand ``number`` on the printed score sheet of an evening's real-card table
    (:func:`ramsli.evening.check.row_check`), or None for a ledger of no evening."""
    ev = b.spec.get("evening")
    if not isinstance(ev, dict):
        return None
    return row_check(str(ev["id"]), int(ev["round"]), int(ev["table"]), number)


def state_of(b: LedgerBook, keeper: bool) -> dict[str, Any]:
    """The books as JSON-ready data for the page (counters; the keeper token only for the keeper)."""
    book = b.book
    names = book.names
    r = book.rules

    def who(s: int | None) -> str | None:
        return None if s is None else names[s]

    hands = []
    for i, (h, e) in enumerate(zip(book.hands, book.entries)):
        st = e.settlement
        d: dict[str, Any] = {**st.to_dict(names)}  # the summary and its payments
        d["payments"] = [
            {
                "step": p.step,
                "payer": who(p.payer),
                "payee": who(p.payee),
                "owed": p.owed,
                "paid": p.paid,
                "reason": p.reason,
            }
            for p in st.payments
        ]
        hands.append(
            {
                "number": e.number,
                "dealer": names[book.dealers[i]],
                "entry": h.to_dict(),
                "settlement": d,
                "stacks": list(e.stacks_after),
                "pot": e.pot_after,
                "left": [names[s] for s in e.left],
                "edited": e.number in b.edited,
                "check": _check(b, e.number),
            }
        )
    return {
        "ledger": b.id,
        "names": names,
        "keeper": keeper,
        "cents": bool(b.spec.get("cents")),
        "preset": b.spec.get("preset"),
        "rules": {
            "general_rams": r.general_rams,
            "targets": r.targets,
            "compulsory": r.compulsory,
            "dealer_forced": r.dealer_forced,
            "largest_target": r.largest_target,
            "ante": r.ante,
            "starting_stack": r.starting_stack,
            "bete": r.bete,
            "end": [str(x) for x in r.end],
        },
        "hands": hands,
        "stacks": book.stacks,
        "pot": book.pot,
        "dealer": book.dealer,
        "seated": list(book.session.seated),
        "order": list(book.order()),
        "over": book.is_over,
        "end_reason": None if book.end_reason is None else str(book.end_reason),
        "standings": book.standings(),
        "bank": book.session.bank,
        "total": book.total(),
        "edits": [{"number": x.number} for x in book.edits],
        "follow": f"/l/{b.id}/follow/{b.spec['follow_token']}",
        "evening": b.spec.get("evening"),
        "next_check": None if book.is_over else _check(b, len(book.hands) + 1),
        "csv": f"/api/ledgers/{b.id}/ledger.csv",
    }


def csv_text(b: LedgerBook) -> str:
    """The score sheet as CSV: one row per hand (dealer; per player in/out, tricks, stack after;
    the pot carried over; General Rams, targets, betes; edited), then the standings (R3.7)."""
    book = b.book
    names = [spreadsheet_safe(n) for n in book.names]  # a name may start with "=" (CSV injection)
    out = io.StringIO()
    w = csv_writer(out, lineterminator="\n")  # every cell made safe (issue 38.10)
    head = ["hand", "dealer"]
    for n in names:
        head += [f"{n} in", f"{n} tricks", f"{n} stack"]
    head += ["pot carried", "kind", "general rams", "targets", "bete", "edited"]
    w.writerow(head)
    w.writerow(["start", ""] + sum(([" ", "", book.rules.starting_stack] for _ in names), []) + [0, "", "", "", "", ""])
    for i, e in enumerate(book.entries):
        st = e.settlement
        row: list[Any] = [e.number, names[book.dealers[i]]]
        for s in range(len(names)):
            row += ["in" if s in st.active else "out", st.tricks[s] if s in st.active else "", e.stacks_after[s]]
        gr = (
            ""
            if st.general_rams is None
            else f"{names[st.general_rams]} {'made' if st.general_rams_made else 'failed'}"
        )
        tg = " ".join(f"{names[s]}:{t}:{'met' if m else 'missed'}" for s, t, m in st.targets)
        row += [
            e.pot_after,
            str(st.kind),
            gr,
            tg,
            " ".join(names[s] for s in st.bete),
            "edited" if e.number in b.edited else "",
        ]
        w.writerow(row)
    w.writerow([])
    w.writerow(["standings", "name", "stack", "net", "winner"])
    for k, r in enumerate(book.standings(), 1):
        w.writerow([k, spreadsheet_safe(r["name"]), r["stack"], r["net"], "yes" if r["winner"] else ""])
    w.writerow(["pot unwon", "", book.pot, "", ""])
    return out.getvalue()
