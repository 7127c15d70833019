"""The HTTP routes and pages of the pub ledger (``docs/ledger.md``): :data:`router`, over :mod:`ramsli.server.ledger.books`."""

from __future__ import annotations

import secrets
import time
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from ramsli.errors import TableError as EngineTableError
from ramsli.ledger import LedgerError, PubHand, PubLedger
from ramsli.refusal import Refusal, Refused
from ramsli.rules import PRESETS, Rules, RulesError
from ramsli.server import deps
from ramsli.server.ledger.books import (
    KIND,
    LedgerBook,
    _book,
    _same,
    csv_text,
    state_of,
)
from ramsli.server.players.accounts import current_player, require_player
from ramsli.server.protocol.lang import request_lang
from ramsli.server.protocol.messages import SpecError, rules_refusal
from ramsli.server.protocol.schemas import CreateLedger, LedgerHand, NoBody, body_of
from ramsli.server.tables import events
from ramsli.server.tables.events import LedgerEvent
from ramsli.server.web.shell import shell

__all__ = ["router"]

router = APIRouter()


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
    clubs = deps.clubs(request)
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
    hub = deps.hub(request)
    books = await deps.ledgers(request).load(hub)
    ledger_id = "L" + secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
    created = time.time()
    await hub.store.create_table(ledger_id, spec, created)
    books[ledger_id] = LedgerBook(ledger_id, spec, created)
    if club is not None:
        directory = deps.directory(request)
        await directory.link_table(ledger_id, False, club, player.id if player is not None else None)
        for i, pid in seats.items():  # the keeper's own seat is confirmed; the others confirm it (issue 38.11)
            confirmed = created if player is not None and pid == player.id else None
            await directory.link_seat(ledger_id, i, pid, created, confirmed=confirmed)
    return {
        "ledger": ledger_id,
        "token": spec["token"],
        "page": f"/l/{ledger_id}/{spec['token']}",
        "follow": f"/l/{ledger_id}/follow/{spec['follow_token']}",
    }


async def _with_consent(request: Request, b: LedgerBook, state: dict[str, Any]) -> dict[str, Any]:
    """``state`` with ``consent``: who of the members named at its seats confirmed the session,
    whether it is rated, and what the reader (their login) may do (issue 38.11;
    :meth:`ramsli.server.clubs.clubs.Clubs.consent`); None for a ledger that names no member."""
    state["consent"] = await deps.clubs(request).consent(b, await current_player(request))
    return state


@router.get("/api/ledgers/{ledger_id}")
async def get_ledger(request: Request, ledger_id: str, token: str = "") -> dict[str, Any]:
    """The books, for the keeper or a follower (read-only)."""
    b = await _book(request, ledger_id, token, keeper=False)
    return await _with_consent(request, b, state_of(b, keeper=_same(token, b.spec["token"])))


@router.post("/api/ledgers/{ledger_id}/confirm")
async def confirm_ledger(request: Request, ledger_id: str) -> dict[str, Any]:
    """A member named at a seat of a club's ledger confirms its finished session from their own
    login (no ledger link needed): ratings by consent (issue 38.11, docs/ledger.md). Once every
    named member confirmed, within 7 days of the end, the session is rated. Answers the
    ``consent`` of :func:`_with_consent`. Refusals: ``401 not_logged_in``, ``404 no_ledger``,
    ``403 not_named``, ``409 confirm_not_over``, ``409 confirm_closed``."""
    await body_of(request, NoBody)
    player = await require_player(request)
    b = (await deps.ledgers(request).load(deps.hub(request))).get(ledger_id)
    if b is None:
        raise Refused(Refusal("no_ledger", None, {"ledger": ledger_id[:40]}))
    clubs = deps.clubs(request)
    async with b.lock:
        await clubs.confirm_ledger(b, player, time.time())
    consent = await clubs.consent(b, player)
    assert consent is not None  # the player is named, so the ledger names a member
    return consent


@router.get("/api/me/confirmations")
async def my_confirmations(request: Request) -> list[dict[str, Any]]:
    """The club ledger sessions waiting for the logged-in member's confirmation (issue 38.11), for
    the account page: ``[{"ledger", "club", "names", "standings", "hands", "closes"}]``.
    ``401 not_logged_in``."""
    player = await require_player(request)
    books = await deps.ledgers(request).load(deps.hub(request))
    return await deps.clubs(request).to_confirm(player, books, time.time())


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
    reconfirm = False
    async with b.lock:
        event: LedgerEvent = events.LedgerEnd()
        if kind == "ledger-hand":
            assert hand is not None
            entry = PubHand.from_dict(dict(hand.entry(), elapsed=time.time() - b.created))
            b.book.check(entry)  # refused before anything is saved
            event = events.LedgerHand(entry)
        elif kind == "ledger-edit":
            assert hand is not None and number is not None
            reconfirm = b.book.is_over  # the result changes after the end: its players confirm it again
            if not 1 <= number <= len(b.book.hands):
                raise LedgerError(Refusal("no_such_hand", "R3.6", {"hand": number, "count": len(b.book.hands)}))
            old = b.book.hands[number - 1]
            entry = PubHand.from_dict(dict(hand.entry(), elapsed=old.elapsed))
            trial = PubLedger(b.book.rules, b.book.names, b.book.first_dealer)
            trial.ended = b.book.ended
            trial.replay(b.book.hands[: number - 1] + [entry] + b.book.hands[number:])  # every later hand fits
            event = events.LedgerEdit(number, entry)
        elif b.book.is_over:
            raise LedgerError(Refusal("over", "R3.6", {"hand": len(b.book.hands) + 1}))
        elif b.spec.get("evening"):  # an evening's table plays all its hands, as an online one does
            planned = [int(str(x).split(":", 1)[1]) for x in b.book.rules.end if str(x).startswith("hands:")]
            raise Refused(
                Refusal(
                    "evening_ledger_end", None, {"hands": planned[0] if planned else "?", "played": len(b.book.hands)}
                )
            )
        await deps.hub(request).store.append(b.id, b.seq + 1, event.KIND.value, event.to_data())  # committed first
        b.seq += 1
        b.apply(event)
    if kind == "ledger-edit" and reconfirm:  # issue 38.11: a confirmation is of the books as they were
        link = await deps.directory(request).table_link(b.id)
        await deps.directory(request).unconfirm_seats(b.id, link["creator_id"] if link else None)
    if b.book.is_over:  # a finished session counts for its club and the ratings (docs/clubs.md)
        await deps.clubs(request).record_ledger(b)
    return await _with_consent(request, b, state_of(b, keeper=True))


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
