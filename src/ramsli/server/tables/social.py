"""What keeps friends at a table: chat, reactions, leaving and coming back, the bot taking an
away seat at once, taking over a bot's seat from the table, and "Play again".

The WebSocket messages (:func:`receive`, called by :meth:`ramsli.server.tables.hub.Hub.receive`):

- ``chat`` (``{"text"}``, at most 200 characters) and ``react`` (``{"code"}``, a reaction or a
  short phrase): :meth:`Table.say <ramsli.server.tables.table.Table.say>`; stored with the table's
  events, sent to every connection as ``chat``. Spectators and invite links read only
  (``spectator``, ``not_sitting``).
- ``ready`` (``{"hand"}``): the person closed the summary of that hand
  (:meth:`Table.set_ready <ramsli.server.tables.table.Table.set_ready>`).
- ``leave``: the person leaves during the session; a bot plays their seat at once and the
  connection is closed with code 4002 (``left``). Opening their link again brings them back.

The HTTP routes (:data:`router`, ``docs/protocol.md``):

- ``POST /api/tables/{table}/bot-now`` (:class:`~ramsli.server.protocol.schemas.BotNow`): the creator
  hands an away seat to the bot at once;
- ``POST /api/tables/{table}/take`` (:class:`~ramsli.server.protocol.schemas.Take`): a person watching
  takes over a bot's seat from the next hand;
- ``POST /api/tables/{table}/rematch`` (:class:`~ramsli.server.protocol.schemas.Rematch`): "Play again"
  (:func:`rematch`).

Nothing here reads a card: chat holds only what people typed or clicked (R7).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from fastapi import APIRouter, Request

from ramsli.refusal import Refusal, Refused
from ramsli.seats import parse_seat, seat_name
from ramsli.server.protocol.schemas import BotNow, Chat, Leave, React, Ready, Rematch, Take, body_of
from ramsli.server.tables.table import Table, TableStatus

__all__ = ["router", "receive", "rematch", "seat_index"]

router = APIRouter()

#: one "Play again" at a time per table, so two people clicking at once make one new table
_REMATCH_LOCKS: weakref.WeakKeyDictionary[Table, asyncio.Lock] = weakref.WeakKeyDictionary()


def seat_index(table: Table, seat: str) -> int:
    """The 0-based index of seat ``"p3"`` at ``table``.

    Raises:
        Refused: ``no_seat``.

    >>> from types import SimpleNamespace
    >>> seat_index(SimpleNamespace(seats=[0, 1, 2]), "p3")
    2
    """
    try:
        return parse_seat(seat, len(table.seats))
    except ValueError:
        pass
    raise Refused(Refusal("no_seat", None, {"seat": seat[:8], "last": seat_name(len(table.seats) - 1)}))


async def receive(conn: Any, msg: Any) -> None:
    """One ``chat``, ``react``, ``ready`` or ``leave`` message of ``conn`` (a
    :class:`~ramsli.server.tables.hub.Conn` after its ``hello``). Every refusal is an ``error`` to
    ``conn`` only, in its language; nothing changes then."""
    t: Table | None = conn.table
    if t is None:
        conn.refuse(Refused(Refusal("no_hello")))
        return
    seat = conn.seat
    if seat is None:
        conn.refuse(Refused(Refusal("not_sitting" if conn.role == "invite" else "spectator")))
        return
    if seat.conn is not conn:
        conn.refuse(Refused(Refusal("replaced")))
        return
    try:
        if isinstance(msg, Chat):
            await t.say(seat, text=msg.text)
        elif isinstance(msg, React):
            await t.say(seat, code=msg.code)
        elif isinstance(msg, Ready):
            t.set_ready(seat, msg.hand)
        elif isinstance(msg, Leave):
            if t.status is not TableStatus.PLAYING or not seat.taken:
                return  # nothing to leave: the page simply goes
            t.leave(seat)
            conn.refuse(Refused(Refusal("left")))
            conn.close(4002, "left")
    except Refused as e:
        conn.refuse(e)


async def rematch(hub: Any, table: Table, token: Any, creator_token: Any = None) -> dict[str, Any]:
    """ "Play again" at the end of ``table``'s session: the next session with the same people
    and settings, at a new table made once (the first click makes it, later clicks find it).

    Each seat a person sat at is kept for them (their invite link goes to them only); bot seats
    keep their bots; seats nobody took are open with new invite links. The new table starts as
    soon as every kept seat is taken, or :data:`~ramsli.server.tables.table.REMATCH_WAIT_SECONDS` after
    its first person sat down (bots take the seats of those who did not come); its creator (the
    same person as here) may start it at once.

    Args:
        hub: the :class:`~ramsli.server.tables.hub.Hub`.
        table: the table whose session is over.
        token: the person's own seat token, or the creator token.
        creator_token: the creator token too, when the creator's page sends it.

    Returns:
        ``{"table", "seat", "invite", "name"}`` (the caller's seat of the new table, its invite
        link and the name they had; ``seat`` None for the creator's token alone) and, for the
        creator, ``"creator_token"`` and ``"seats"`` (every invite link, as ``POST /api/tables``).

    Raises:
        Refused: ``bad_token`` (neither a person's seat token nor the creator's), ``not_over``.
    """
    own = table.owner_of(token)
    creator = table.is_creator(token) or table.is_creator(creator_token)
    if own is None and not creator:
        raise Refused(Refusal("bad_token"))
    if table.status is not TableStatus.OVER:
        raise Refused(Refusal("not_over"))
    lock = _REMATCH_LOCKS.setdefault(table, asyncio.Lock())
    async with lock:
        if table.next_table is None or table.next_table not in hub.tables:
            seats, expect = table.rematch_spec()
            seed = None if table.seed is None else table.seed + 1
            spec = Table.new_spec(table.rules, table.preset, seats, table.options, seed)
            spec["options"] = table.options.to_dict()
            spec["rematch"] = {"of": table.id, "expect": expect}
            new = await hub.add_table(spec)
            await table.set_next_table(new.id)
    new = hub.tables[table.next_table]
    answer: dict[str, Any] = {"table": new.id, "seat": None, "invite": None, "name": None}
    if own is not None and own.taken:
        mine = new.seats[own.index]
        answer.update(seat=seat_name(own.index), invite=f"/t/{new.id}/s/{mine.token}", name=own.name)
    if creator:
        answer["creator_token"] = new.creator_token
        answer["seats"] = [
            {"seat": seat_name(s.index), "kind": s.kind, "bot": s.bot, "invite": f"/t/{new.id}/s/{s.token}"}
            for s in new.seats
        ]
        answer["spectate"] = f"/t/{new.id}/watch/{new.spectator_token}"
    return answer


def _hub(request: Request) -> Any:
    return request.app.state.hub


@router.post("/api/tables/{table_id}/bot-now")
async def bot_now(request: Request, table_id: str) -> dict[str, Any]:
    """The creator hands an away seat to the bot at once: ``{"creator_token", "seat": "p2"}``
    answers ``{"seat", "bot_playing": true}``. Errors: ``403 bad_token``, ``404 no_seat``,
    ``409 not_away``, ``404 no_table``, ``422 bad_message``."""
    body = await body_of(request, BotNow)
    t = _hub(request).table(table_id)
    index = seat_index(t, body.seat)
    t.bot_now(body.creator_token, index)
    return {"seat": seat_name(index), "bot_playing": t.proxy_playing(t.seats[index])}


@router.post("/api/tables/{table_id}/take")
async def take(request: Request, table_id: str) -> dict[str, Any]:
    """A person watching takes over a bot's seat: ``{"token": spectator token, "seat": "p3",
    "name"}`` answers as ``sit`` does, ``{"seat", "pending", "token"}`` (``token`` the personal
    token that plays the seat from the next hand). Errors: ``403 bad_token``, ``404 no_seat``,
    ``409 not_a_bot_seat``, ``409 seat_left`` (R3.5), and those of ``sit``."""
    body = await body_of(request, Take)
    t = _hub(request).table(table_id)
    seat = await t.take(body.token, seat_index(t, body.seat), body.name)
    return {"seat": seat_name(seat.index), "pending": seat.pending is not None, "token": seat.personal or seat.token}


@router.post("/api/tables/{table_id}/rematch")
async def play_again(request: Request, table_id: str) -> dict[str, Any]:
    """ "Play again" (:func:`rematch`). Errors: ``403 bad_token``, ``409 not_over``, ``404 no_table``."""
    body = await body_of(request, Rematch)
    hub = _hub(request)
    return await rematch(hub, hub.table(table_id), body.token, body.creator_token)
