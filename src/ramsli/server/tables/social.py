"""What keeps friends at a table: chat, reactions, leaving and coming back, the bot taking an
away seat at once, taking over a bot's seat from the table, and "Play again".

The WebSocket messages (checked, applied and answered in :mod:`ramsli.server.tables.dispatch`,
one handler each):

- ``chat`` (``{"text"}``, at most 200 characters) and ``react`` (``{"code"}``, a reaction or a
  short phrase): :meth:`Table.say <ramsli.server.tables.table.Table.say>`; stored with the table's
  events, sent to every connection as ``chat``. Spectators and invite links read only
  (``spectator``, ``not_sitting``).
- ``ready`` (``{"hand"}``): the person closed the summary of that hand
  (:meth:`Table.set_ready <ramsli.server.tables.table.Table.set_ready>`).
- ``leave``: the person leaves during the session; a bot plays their seat at once and the
  connection is closed with :attr:`~ramsli.server.protocol.closecodes.CloseCode.LEFT` (``left``). Opening their link again brings them back.

What the HTTP routes call (:mod:`ramsli.server.tables.routes`, ``docs/protocol.md``):

- ``POST /api/tables/{table}/bot-now`` (:func:`bot_now`): the creator hands an away seat to the
  bot at once;
- ``POST /api/tables/{table}/take`` (:func:`take`): a person watching takes over a bot's seat
  from the next hand;
- ``POST /api/tables/{table}/rematch`` (:class:`~ramsli.server.protocol.schemas.Rematch`): "Play again"
  (:func:`rematch`).

Nothing here reads a card: chat holds only what people typed or clicked (R7).
"""

from __future__ import annotations

import asyncio
import weakref
from typing import Any

from ramsli.refusal import Refusal, Refused
from ramsli.seats import parse_seat, seat_name
from ramsli.server.protocol.schemas import BotNow, Take
from ramsli.server.tables.results import CreateResult, RematchResult, SeatLink, SitResult
from ramsli.server.tables.table import Table, TableStatus

__all__ = ["rematch", "seat_index", "bot_now", "take"]

#: one "Play again" at a time per table, so two people clicking at once make one new table
_REMATCH_LOCKS: weakref.WeakKeyDictionary[Table, asyncio.Lock] = weakref.WeakKeyDictionary()


def _not_at_a_challenge(table: Table) -> None:
    """Refuse "Play again" and taking a seat at a weekly challenge's table (docs/challenge.md: its
    one hand, its one player and its bots are the try).

    Raises:
        Refused: ``challenge_table``.
    """
    if isinstance(table.spec.get("challenge"), dict):
        raise Refused(Refusal("challenge_table"))


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


async def rematch(hub: Any, table: Table, token: Any, creator_token: Any = None) -> RematchResult:
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
        the caller's seat of the new table, its invite token and the name they had (``seat``
        None for the creator's token alone) and, for the creator, the new table's links but
        those of the kept seats (:class:`~ramsli.server.tables.results.RematchResult`).

    Raises:
        Refused: ``challenge_table`` (a weekly challenge's table: its one hand is the try), ``bad_token``
            (neither a person's seat token nor the creator's), ``not_over``.
    """
    _not_at_a_challenge(table)
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
    mine = new.seats[own.index] if own is not None and own.taken else None
    created = None
    if creator:
        # a kept seat's invite link goes to its own person only (their ``seat_token``), never to the creator
        links = tuple(SeatLink(s.index, s.kind, s.bot, s.token) for s in new.seats if not new.is_kept(s))
        created = CreateResult(new.id, new.creator_token, links, new.spectator_token)
    return RematchResult(
        table=new.id,
        seat=None if mine is None else mine.index,
        seat_token=None if mine is None else mine.token,
        name=None if mine is None or own is None else own.name,
        created=created,
    )


def bot_now(table: Table, body: BotNow) -> dict[str, Any]:
    """The creator hands an away seat of ``table`` to the bot at once
    (:meth:`~ramsli.server.tables.table.Table.bot_now`); answers ``{"seat", "bot_playing"}``.

    Raises:
        Refused: ``bad_token``, ``no_seat``, ``not_away``.
    """
    index = seat_index(table, body.seat)
    table.bot_now(body.creator_token, index)
    return {"seat": seat_name(index), "bot_playing": table.proxy_playing(table.seats[index])}


async def take(table: Table, body: Take, open_: bool = False) -> SitResult:
    """A person holding a token of ``table`` takes over a bot's seat from the next hand
    (:meth:`~ramsli.server.tables.table.Table.take`), as ``sit``; ``open_``: the table is open to
    anyone in the lobby (then its spectator token may take a seat too).

    Raises:
        Refused: ``challenge_table`` (nobody takes a seat at a weekly challenge's table), ``bad_token``,
            ``seat_kept``, ``no_seat``, ``not_a_bot_seat``, ``seat_left`` (R3.5), and those of ``sit``.
    """
    _not_at_a_challenge(table)
    seat = await table.take(body.token, seat_index(table, body.seat), body.name, open_)
    return SitResult(seat.index, seat.pending is not None, seat.personal or seat.token)
