"""The pub ledger of ``ramsli serve``: the books of a table that plays with real cards.

A ledger is a row of the existing ``tables`` table with spec ``{"kind": "ledger", ...}``; its
hands are events of the existing ``events`` table (``ledger-hand``, ``ledger-edit``,
``ledger-end``). A **club's ledger** (``"club"`` and ``"players"``: a member's player id or null
per seat; made by a logged-in member) has a ``table_links`` row and its members' seats
``seat_links`` rows (:mod:`ramsli.server.storage.directory`); when its session ends it is recorded for the
club's season and the ratings (:mod:`ramsli.server.clubs.clubs`). Only its keeper's link changes it. Every event is committed before the answer is
sent; a restart replays the events through :class:`ramsli.ledger.PubLedger` (the engine's
settlement, R5, and session bookkeeping, R3). Endpoints (``docs/ledger.md``):

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
import csv
import io
import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ramsli.errors import TableError as EngineTableError
from ramsli.ledger import LedgerError, PubHand, PubLedger
from ramsli.refusal import N_, Refusal, Refused, register
from ramsli.rules import PRESETS, Rules, RulesError
from ramsli.server.players.accounts import current_player
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.messages import STATUS, ProtocolRefusal, SpecError, rules_refusal
from ramsli.server.protocol.schemas import CreateLedger, LedgerHand, NoBody, body_of
from ramsli.server.web.shell import shell

__all__ = ["router", "KIND", "LedgerBook", "csv_text", "state_of", "load_books"]

router = APIRouter()

register(
    {
        "players_need_club": N_("players are linked to a ledger's seats only in a club's ledger (give its club)"),
        "players_count": N_("players gives {count} seats; the ledger has {seats}"),
        "not_a_member": N_("the player {player} is not a member of this club"),
        "player_twice": N_("a player keeps one seat only: {player} is given twice"),
    }
)
STATUS.update({"players_need_club": 422, "players_count": 422, "not_a_member": 422, "player_twice": 422})

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

    def apply(self, kind: str, data: dict[str, Any]) -> None:
        """Apply one event (as stored). Raises LedgerError if it does not fit."""
        if kind == "ledger-hand":
            self.book.add(PubHand.from_dict(data["hand"]))
        elif kind == "ledger-edit":
            self.book.edit(int(data["number"]), PubHand.from_dict(data["hand"]))
            self.edited.add(int(data["number"]))
        elif kind == "ledger-end":
            self.book.end()
        else:
            raise ValueError(f"unknown ledger event {kind!r}")


def _same(a: str, b: str) -> bool:
    return secrets.compare_digest(a.encode(), b.encode())


async def load_books(state: Any) -> dict[str, LedgerBook]:
    """The ledgers of a server (its ``app.state``), loaded from the store on first use."""
    if getattr(state, "ledgers", None) is None:
        lock = getattr(state, "ledgers_lock", None)
        if lock is None:
            lock = state.ledgers_lock = asyncio.Lock()
        async with lock:
            if getattr(state, "ledgers", None) is None:
                books: dict[str, LedgerBook] = {}
                wanted = await state.hub.store.ledger_ids()  # by an index: no card table is read
                for row in await state.hub.store.load(wanted):
                    if row["spec"] is None or row["spec"].get("kind") != KIND or row.get("closed") is not None:
                        continue
                    b = LedgerBook(row["id"], row["spec"], row["created"])
                    for seq, kind, data in row["events"]:
                        b.apply(kind, data)
                        b.seq = seq
                    books[b.id] = b
                state.ledgers = books
    ledgers: dict[str, LedgerBook] = state.ledgers
    return ledgers


async def _books(request: Request) -> dict[str, LedgerBook]:
    """The ledgers of this server, loaded from the store on first use."""
    return await load_books(request.app.state)


async def _book(request: Request, ledger_id: str, token: str, keeper: bool) -> LedgerBook:
    """The ledger ``ledger_id`` if ``token`` may read it (``keeper``: may change it).

    Raises:
        Refused: ``no_ledger``; ``bad_token`` (``not_keeper``, ``bad_link``).
    """
    b = (await _books(request)).get(ledger_id)
    if b is None:
        raise Refused(Refusal("no_ledger", None, {"ledger": ledger_id[:40]}))
    ok = _same(token, b.spec["token"])
    if not keeper:
        ok = ok or _same(token, b.spec["follow_token"])
    if not ok:
        raise ProtocolRefusal(Refusal("not_keeper" if keeper else "bad_link"), "bad_token")
    return b


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
        "csv": f"/api/ledgers/{b.id}/ledger.csv",
    }


def csv_text(b: LedgerBook) -> str:
    """The score sheet as CSV: one row per hand (dealer; per player in/out, tricks, stack after;
    the pot carried over; General Rams, targets, betes; edited), then the standings (R3.7)."""
    book = b.book
    names = book.names
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
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
        w.writerow([k, r["name"], r["stack"], r["net"], "yes" if r["winner"] else ""])
    w.writerow(["pot unwon", "", book.pot, "", ""])
    return out.getvalue()


# -- the API -----------------------------------------------------------------------------------


async def _club_seats(
    request: Request, club_id: str | None, players: list[str | None] | None, names: list[str], player: Any
) -> tuple[str | None, dict[int, str]]:
    """The club of a new ledger and the players at its seats (each a member; the seat takes the
    member's name); ``names`` is changed in place.

    Raises:
        Refused: ``players_need_club``, ``not_logged_in``, ``no_club``, ``not_member`` (the keeper),
            ``players_count``, ``not_a_member``, ``player_twice``.
    """
    if club_id is None:
        if players is not None and any(p is not None for p in players):
            raise Refused(Refusal("players_need_club"))
        return None, {}
    if player is None:
        raise Refused(Refusal("not_logged_in"))
    clubs = request.app.state.clubs
    club, _m = await clubs.member_of(club_id, player)
    if players is None:
        return club["id"], {}
    if len(players) != len(names):
        raise Refused(Refusal("players_count", None, {"count": len(players), "seats": len(names)}))
    members = {m["id"]: m["name"] for m in await clubs.directory.members(club["id"])}
    seats: dict[int, str] = {}
    for i, pid in enumerate(players):
        if pid is None:
            continue
        if pid not in members:
            raise Refused(Refusal("not_a_member", None, {"player": pid[:40]}))
        if pid in seats.values():
            raise Refused(Refusal("player_twice", None, {"player": members[pid]}))
        seats[i] = pid
        names[i] = members[pid]
    return club["id"], seats


@router.post("/api/ledgers", status_code=201)
async def create_ledger(request: Request) -> dict[str, Any]:
    """Set up a ledger: names (R2), a preset and options (R6, R8), the first dealer (R3.1), cents (R6 rounce).

    Refusals: ``422 bad_message`` (the body's shape), ``422 bad_spec`` (the engine's refusal of
    the preset, the options or the names, or ``first_dealer_range``).
    """
    body = await body_of(request, CreateLedger)
    try:
        rules = Rules.preset(body.preset, **body.options)
    except RulesError as e:  # an unknown preset (R6) or option (R8)
        raise SpecError(rules_refusal(e, "bad_options")) from None
    names = [x.strip() for x in body.names]
    player = await current_player(request)
    club, seats = await _club_seats(request, body.club, body.players, names, player)
    if not 0 <= body.first_dealer < max(1, len(names)):
        raise SpecError(Refusal("first_dealer_range", "R3.1", {"last": max(0, len(names) - 1)}))
    try:
        PubLedger(rules, names, body.first_dealer)  # checks the names (R2.1, R2.2)
    except EngineTableError as e:
        raise SpecError(e.refusal) from None
    spec = {
        "kind": KIND,
        "preset": body.preset,
        "rules": rules.to_dict(),
        "names": names,
        "first_dealer": body.first_dealer,
        "cents": body.cents,
        "token": secrets.token_urlsafe(16),
        "follow_token": secrets.token_urlsafe(16),
    }
    books = await _books(request)
    ledger_id = "L" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
    created = time.time()
    await request.app.state.hub.store.create_table(ledger_id, spec, created)
    books[ledger_id] = LedgerBook(ledger_id, spec, created)
    if club is not None:
        directory = request.app.state.clubs.directory
        await directory.link_table(ledger_id, False, club, player.id if player is not None else None)
        for i, pid in seats.items():
            await directory.link_seat(ledger_id, i, pid, created)
    return {
        "ledger": ledger_id,
        "token": spec["token"],
        "page": f"/l/{ledger_id}/{spec['token']}",
        "follow": f"/l/{ledger_id}/follow/{spec['follow_token']}",
    }


@router.get("/api/ledgers/{ledger_id}")
async def get_ledger(request: Request, ledger_id: str, token: str = "") -> dict[str, Any]:
    """The books, for the keeper or a follower (read-only)."""
    b = await _book(request, ledger_id, token, keeper=False)
    return state_of(b, keeper=_same(token, b.spec["token"]))


async def _change(request: Request, ledger_id: str, token: str, kind: str, number: int | None) -> dict[str, Any]:
    """Book, correct or end: the body first (capped and parsed), then the keeper's token, then
    the engine's check of the hand; committed before the books change.

    Raises:
        BadMessage, Refused: the body, the ledger or the token; LedgerError: the hand (``refused``).
    """
    hand: LedgerHand | None = None
    if kind == "ledger-end":
        await body_of(request, NoBody)
    else:
        hand = await body_of(request, LedgerHand)
    b = await _book(request, ledger_id, token, keeper=True)
    async with b.lock:
        data: dict[str, Any] = {}
        if kind == "ledger-hand":
            assert hand is not None
            entry = PubHand.from_dict(dict(hand.entry(), elapsed=time.time() - b.created))
            b.book.check(entry)  # refused before anything is saved
            data = {"hand": entry.to_dict()}
        elif kind == "ledger-edit":
            assert hand is not None and number is not None
            if not 1 <= number <= len(b.book.hands):
                raise LedgerError(Refusal("no_such_hand", "R3.6", {"hand": number, "count": len(b.book.hands)}))
            old = b.book.hands[number - 1]
            entry = PubHand.from_dict(dict(hand.entry(), elapsed=old.elapsed))
            trial = PubLedger(b.book.rules, b.book.names, b.book.first_dealer)
            trial.ended = b.book.ended
            trial.replay(b.book.hands[: number - 1] + [entry] + b.book.hands[number:])  # every later hand fits
            data = {"number": number, "hand": entry.to_dict()}
        elif b.book.is_over:
            raise LedgerError(Refusal("over", "R3.6", {"hand": len(b.book.hands) + 1}))
        await request.app.state.hub.store.append(b.id, b.seq + 1, kind, data)  # committed first
        b.seq += 1
        b.apply(kind, data)
    if b.book.is_over:  # a finished session counts for its club and the ratings (docs/clubs.md)
        await request.app.state.clubs.record_ledger(b)
    return state_of(b, keeper=True)


@router.post("/api/ledgers/{ledger_id}/hands")
async def add_hand(request: Request, ledger_id: str, token: str = "") -> dict[str, Any]:
    """Book the next hand (keeper); refused entries answer 422 with the rule and store nothing."""
    return await _change(request, ledger_id, token, "ledger-hand", None)


@router.put("/api/ledgers/{ledger_id}/hands/{number}")
async def edit_hand(request: Request, ledger_id: str, number: int, token: str = "") -> dict[str, Any]:
    """Correct hand ``number``; every later hand is settled again (an edit, kept as such)."""
    return await _change(request, ledger_id, token, "ledger-edit", number)


@router.post("/api/ledgers/{ledger_id}/end")
async def end_ledger(request: Request, ledger_id: str, token: str = "") -> dict[str, Any]:
    """End the session now; the standings are final (R3.7)."""
    return await _change(request, ledger_id, token, "ledger-end", None)


@router.get("/api/ledgers/{ledger_id}/ledger.csv")
async def ledger_csv(request: Request, ledger_id: str, token: str = "") -> Response:
    """The score sheet as CSV (keeper or follow token)."""
    b = await _book(request, ledger_id, token, keeper=False)
    return Response(
        csv_text(b),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": f'attachment; filename="ramsli-ledger-{b.id}.csv"'},
    )


# -- the pages -----------------------------------------------------------------------------------


@router.get("/ledger", response_class=HTMLResponse)
async def ledger_setup_page(request: Request) -> HTMLResponse:
    """Set up a ledger: players, preset, options, starting stack, cents; ``?club=ID`` a club's ledger."""
    club = request.query_params.get("club")
    page = {"mode": "setup", "presets": list(PRESETS), "club": club[:40] if club else None}
    return shell("ledger", request_lang(request), "Ramsli", page)


@router.get("/l/{ledger_id}/follow/{token}", response_class=HTMLResponse)
async def ledger_follow_page(request: Request, ledger_id: str, token: str) -> HTMLResponse:
    """The books, read-only (the follow link)."""
    return shell("ledger", request_lang(request), "Ramsli", {"mode": "follow", "ledger": ledger_id, "token": token})


@router.get("/l/{ledger_id}/{token}", response_class=HTMLResponse)
async def ledger_page(request: Request, ledger_id: str, token: str) -> HTMLResponse:
    """The keeper's page: book hand after hand, correct, end, share, download, print."""
    return shell("ledger", request_lang(request), "Ramsli", {"mode": "keep", "ledger": ledger_id, "token": token})
