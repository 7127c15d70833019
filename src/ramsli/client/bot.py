"""A registered bot playing a seat of a remote table through its invite link (``ramsli bot URL``).

:func:`play_bot` sits down with a name, then, on every view where the seat has legal actions,
reads the view into the engine's :class:`~ramsli.hand.Observation` and sends the bot's action,
until the session is over (R3.6), and follows "Play again" to the next session's table as a
person's seat does (its seat is kept there). The bot is any name :func:`ramsli.bots.base.make_bot` knows
(built-ins, levels, installed packages), made afresh for every hand, and guarded
(:class:`~ramsli.bots.packages.GuardedBot`): where it raises or answers with an illegal action the
``tips`` move is played for that decision (logged), so the client never stops over a bot's fault.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Unpack

from ramsli.bots.base import Bot, make_bot
from ramsli.bots.packages import GuardedBot
from ramsli.client.core import ClientRefused, ConnectionLost, ConnectionOptions, Invite, TableClient, TableView
from ramsli.refusal import Refusal
from ramsli.seats import seat_name

__all__ = ["AGAIN_SECONDS", "BotRun", "guarded_bot", "play_bot", "default_name"]

log = logging.getLogger("ramsli.client")

#: seconds a bot waits after a session's end for someone to ask for "Play again" (then it follows)
AGAIN_SECONDS = 120.0
#: refusals after which the bot simply waits for the next view (the table moved on meanwhile)
RETRY_CODES = frozenset({"stale_seq", "not_your_turn", "pending_seat", "not_started", "session_over"})


@dataclass
class BotRun:
    """What a bot did at a remote table.

    Attributes:
        seat: the seat it played (0-based), or None if it never got one.
        name: the name it sat down with.
        bot: the bot spec.
        decisions: actions it sent that the server accepted.
        faults: decisions the ``tips`` player took because the bot raised or answered illegally.
        refused: intents the server refused (each logged with its code).
        hands: hands finished in its sessions when it stopped.
        connections: connections opened (1 + the reconnects, for each table).
        standings: the last session's final standings (``[{"place", "seat", "name", "stack"}]``),
            or None if it stopped before the end.
        end_reason: why the last session ended (R3.6), or None.
        tables: the tables it played at, in order ("Play again" adds the next session's).
    """

    seat: int | None
    name: str
    bot: str
    decisions: int = 0
    faults: int = 0
    refused: list[str] = field(default_factory=list)
    hands: int = 0
    connections: int = 0
    standings: list[dict[str, Any]] | None = None
    end_reason: str | None = None
    tables: list[str] = field(default_factory=list)


def default_name(spec: str) -> str:
    """The name a bot sits down with when none is given: its name and "bot", e.g. ``"Expert bot"``
    (R2.2: at most 24 characters)."""
    base = spec.partition(":")[0].strip() or "bot"
    return f"{base[:1].upper()}{base[1:]} bot"[:24]


def guarded_bot(spec: str, seed: int | None) -> GuardedBot:
    """``make_bot(spec, seed=seed)`` guarded by :class:`~ramsli.bots.packages.GuardedBot` (a bot of an
    installed package already is).

    Raises:
        ValueError: for an unknown bot or a bad option (the message lists what is known).
    """
    bot: Bot = make_bot(spec, seed=seed)
    if isinstance(bot, GuardedBot):
        return bot
    name = spec.partition(":")[0]
    return GuardedBot(bot, name, "ramsli", lambda: make_bot("tips"))


def _hand_line(view: TableView) -> str:
    r = view.raw["results"][-1]
    winners = ", ".join(r["winners"]) or "nobody"
    stacks = " ".join(str(s) for s in r["stacks_after"])
    return f"hand {r['hand']}: {r['kind']}, won by {winners}; stacks {stacks}; pot {r['pot_after']}"


async def play_bot(
    link: str | Invite,
    spec: str = "expert",
    name: str | None = None,
    *,
    seed: int | None = None,
    lang: str = "en",
    progress: Callable[[str], None] | None = None,
    client: TableClient | None = None,
    again_seconds: float = AGAIN_SECONDS,
    **options: Unpack[ConnectionOptions],
) -> BotRun:
    """Seat bot ``spec`` at the table of invite ``link`` as ``name`` and play until the session is
    over; then, as a person's seat does, follow "Play again": if someone asks for the next session
    within ``again_seconds`` of the end (the view's ``next_table``), take the seat kept for it at
    the new table (``POST /api/tables/{table}/rematch`` with the seat's token, then ``sit`` with
    the same name) and play that session too; and so on. Returns what it did. Cancelling the task
    (Ctrl-C in ``ramsli bot``) closes the connection cleanly.

    Args:
        link: the seat's invite link (or its personal link, to come back to a seat it sat at).
        spec: a bot spec (``expert``, ``montecarlo:samples=64``, an installed package's name).
        name: the name at the table (default :func:`default_name`).
        seed: the bots' seeds are ``seed + hand number`` (None: unseeded).
        progress: called with one line per event worth telling (sat down, each finished hand,
            a reconnect, the end, a new session).
        client: a :class:`TableClient` to use instead of making one (``options`` go to a new one);
            the caller closes it; the clients of the tables "Play again" leads to are the bot's own.
        again_seconds: seconds to wait after a session's end for someone to ask for "Play again"
            (0: stop at the end of the first session).

    Raises:
        ClientRefused: the server refused to seat it (``seat_taken``, ``name_taken``, ``bad_token``, …).
        ConnectionLost: the connection ended for good (the token was refused, or ``replaced``).
        ValueError: an unknown bot spec (before anything is sent).
    """
    say = progress or (lambda line: None)
    guarded_bot(spec, seed)  # an unknown bot fails here, before the table is touched
    name = name or default_name(spec)
    c = client or TableClient(link, lang=lang, **options)
    owned = client is None  # the clients this call made are closed by it
    run = BotRun(seat=None, name=name, bot=spec)
    try:
        if c.invite.spectator:
            raise ClientRefused("spectator", Refusal("spectator"), "a spectator link cannot play a seat")
        sat = await c.sit(name)
        say(f"sat down at {sat['seat']} of table {c.invite.table} as {name!r} ({spec})")
        if sat.get("pending"):
            say("a bot plays this seat until the next deal; then it is ours")
        while True:
            run.tables.append(c.invite.table)
            try:
                view = await _play_session(c, spec, seed, run, say)
            finally:
                run.hands += c.view.hands_finished if c.view is not None else 0
                run.connections += c.connections
            again = await _play_again(c, view, again_seconds, say)
            if again is None:
                break
            following = c.follow(again["invite"])
            if owned:
                await c.close()
            c, owned = following, True
            sat = await c.sit(again.get("name") or name)
            say(f"play again: sat down at {sat['seat']} of table {c.invite.table}")
    finally:
        if owned:
            await c.close()
    return run


async def _play_session(
    c: TableClient, spec: str, seed: int | None, run: BotRun, say: Callable[[str], None]
) -> TableView:
    """Connect ``c`` (seated already) and play its seat until the session is over; the last view."""
    view = await c.connect()
    run.seat = view.seat
    bot: GuardedBot | None = None
    bot_hand: int | None = None
    told = view.hands_finished
    connections = c.connections
    try:
        while True:
            if c.connections != connections:
                connections = c.connections
                say(f"reconnected (connection {connections})")
            if view.hands_finished > told:
                told = view.hands_finished
                say(_hand_line(view))
            if view.is_over:
                run.standings = view.raw.get("standings")
                run.end_reason = view.end_reason
                places = ", ".join(f"{s['place']}. {s['name']} {s['stack']}" for s in run.standings or [])
                say(f"session over ({view.end_reason}): {places}")
                return view
            if view.legal:
                if bot is None or bot_hand != view.hand_number:
                    if bot is not None:
                        run.faults += bot.faults
                    bot_hand = view.hand_number
                    bot = guarded_bot(spec, None if seed is None else seed + (bot_hand or 0))
                obs = view.observation
                action = bot.act(obs)
                accepted = False
                for attempt in range(2):
                    try:
                        view = await c.act(str(action), view.seq)
                        run.decisions += 1
                        accepted = True
                        break
                    except ClientRefused as e:
                        code = e.refusal.code if e.code == "illegal" else e.code
                        run.refused.append(code)
                        log.warning("seat %s: the server refused %s: %s", seat_name(obs.seat), action, e)
                        if e.code in ("illegal", "bad_action") and attempt == 0:
                            action = make_bot("tips").act(obs)  # the engine knows best: the tips move
                            run.faults += 1
                            continue
                        if code not in RETRY_CODES:
                            raise
                        break
                if accepted:
                    continue
                latest = c.view  # refused as out of date: go on from the newest view
                view = latest if latest is not None and latest.seq > view.seq else await c.next_view()
                continue
            view = await c.next_view()
    finally:
        if bot is not None:
            run.faults += bot.faults


async def _play_again(
    c: TableClient, view: TableView, seconds: float, say: Callable[[str], None]
) -> dict[str, Any] | None:
    """After the session's end (``view``): wait up to ``seconds`` for the table's ``next_table``
    (someone asked for "Play again"), then ask for this seat's place there; the answer of
    :meth:`TableClient.rematch`, or None (nobody asked in time, the seat has no place kept, the
    connection ended)."""
    if seconds <= 0 or "next_table" not in view.raw:  # a host without "Play again" (the arena's)
        return None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    if not view.raw.get("next_table"):
        say(f"waiting up to {seconds:g} s for someone to play again")
    try:
        while not view.raw.get("next_table"):
            left = deadline - loop.time()
            if left <= 0:
                return None
            view = await c.next_view(seconds=left)
        again = await c.rematch()
    except (TimeoutError, ConnectionLost):
        return None
    if not again.get("invite"):
        return None
    say(f"play again: the next session is at table {again['table']}")
    return again
