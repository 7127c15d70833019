"""The server's core, without HTTP: every table, every connection, every message (issue 10).

:class:`Hub` owns the :class:`~ramsli.server.storage.EventStore` and the live
:class:`~ramsli.server.table.Table` objects. The FastAPI app
(:mod:`ramsli.server.app`) only moves bytes: it hands each WebSocket text to
:meth:`Hub.receive` with a :class:`Conn`, and each HTTP request to
:meth:`Hub.create_table`, :meth:`Hub.sit`, :meth:`Hub.start` or
:meth:`Hub.history`. Tests drive the same methods in-process.

Hostile input (issue 10, item 5) is refused here, each with its protocol error
code and a message in the connection's language, and never changes a table:
a missing or wrong token, a second connection for the same seat (the newer
wins), malformed JSON, an unknown message type, an oversized message
(:data:`MAX_MESSAGE` bytes) and a flood (a token bucket of :data:`RATE_LIMIT` messages,
refilled at :data:`RATE_LIMIT` a second; a dropped ``act`` is named in its error).
"""

from __future__ import annotations

import dataclasses
import json
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any

from ramsli.bots import make_bot
from ramsli.bots.base import bot_factory, package_bots
from ramsli.history import HandHistory
from ramsli.refusal import Refusal
from ramsli.rules import Rules, RulesError, check_play_limits
from ramsli.server.messages import message
from ramsli.server.table import Table, TableError, TableOptions

__all__ = ["Hub", "Conn", "MAX_MESSAGE", "MAX_BODY", "MAX_RULES", "RATE_LIMIT", "SpecError", "parse_body", "read_body"]

#: the longest client message accepted, bytes
MAX_MESSAGE = 4096
#: the longest HTTP request body accepted (``POST /api/tables``, ``/api/web/tables``, ``sit``, ``start``), bytes
MAX_BODY = 16384
#: the most ``key=value`` entries in a table spec's ``rules`` list (R8 has fewer options than this)
MAX_RULES = 64
#: client messages accepted per connection within one second
RATE_LIMIT = 20
#: seconds a new connection has to say hello
HELLO_SECONDS = 10.0


class SpecError(ValueError):
    """A table spec the server cannot make; the message says what is wrong and what is allowed."""


def parse_body(raw: bytes) -> Any:
    """The JSON value of an HTTP request body (an empty body is ``{}``).

    Raises:
        TableError: ``bad_message`` for a body over :data:`MAX_BODY` bytes, one that is not
            JSON, or one nested too deeply to read (the message says which).

    >>> parse_body(b'{"seats": []}')
    {'seats': []}
    >>> parse_body(b"[" * 5000)
    Traceback (most recent call last):
    ...
    ramsli.server.table.TableError: bad_message: the request body is not JSON (or nested too deeply)
    """
    if len(raw) > MAX_BODY:
        raise TableError("bad_message", detail=f"the request body is over {MAX_BODY} bytes")
    try:
        return json.loads(raw or b"{}")
    except (ValueError, RecursionError):
        raise TableError("bad_message", detail="the request body is not JSON (or nested too deeply)") from None


async def read_body(chunks: Any) -> Any:
    """Read an HTTP request body from an async iterator of byte chunks (Starlette's
    ``request.stream()``), stopping as soon as it passes :data:`MAX_BODY` bytes, and parse it
    as :func:`parse_body` does.

    Raises:
        TableError: ``bad_message``, as :func:`parse_body`.
    """
    parts: list[bytes] = []
    size = 0
    async for chunk in chunks:
        size += len(chunk)
        if size > MAX_BODY:
            raise TableError("bad_message", detail=f"the request body is over {MAX_BODY} bytes")
        parts.append(chunk)
    return parse_body(b"".join(parts))


class Conn:
    """One client connection as the hub sees it.

    Subclasses deliver messages (:meth:`deliver`, never blocking) and close the
    transport (:meth:`close`). The base class records what it was sent in
    :attr:`sent`, which is what the in-process tests use.

    Attributes:
        lang: language of its error messages (``en``, ``de``, ``nl``, ``it``).
        table: the table after ``hello``, else None. seat: its seat, or None (spectator).
        sent: every message delivered (base class only).
    """

    def __init__(self) -> None:
        self.lang = "en"
        self.table: Table | None = None
        self.seat: Any = None
        self.role: str | None = None
        self.closed_with: tuple[int, str] | None = None
        self.sent: list[dict[str, Any]] = []
        self._tokens = float(RATE_LIMIT)
        self._last: float | None = None

    def deliver(self, msg: dict[str, Any]) -> None:
        """Queue one message for the client (never blocks)."""
        self.sent.append(msg)

    def close(self, code: int, reason: str) -> None:
        """Close the transport with a WebSocket close code."""
        self.closed_with = (code, reason)

    def error(self, code: str, seq: int | None = None, rule: str | None = None, **fields: Any) -> dict[str, Any]:
        """Deliver an ``error`` message in the connection's language; returns it."""
        if rule is not None:
            fields["rule"] = rule
        if seq is not None:
            fields.setdefault("seq", seq)  # fills the {seq} of stale_seq
        msg: dict[str, Any] = {"type": "error", "code": code, "message": message(self.lang, code, **fields)}
        refusal = fields.get("refusal")
        if isinstance(refusal, Refusal):  # the engine's record: its stable code and fields (docs/protocol.md)
            msg["refusal"] = refusal.to_dict()
        if rule is not None:
            msg["rule"] = rule
        if seq is not None:
            msg["seq"] = seq
        self.deliver(msg)
        return msg

    def flooding(self, now: float) -> bool:
        """True if this message is over the limit: a token bucket of :data:`RATE_LIMIT` messages,
        refilled at :data:`RATE_LIMIT` a second (``now`` in seconds, monotonic). A burst of up to
        :data:`RATE_LIMIT` messages passes at once; after that one message per 1/RATE_LIMIT s."""
        if self._last is not None:
            self._tokens = min(float(RATE_LIMIT), self._tokens + max(0.0, now - self._last) * RATE_LIMIT)
        self._last = now
        if self._tokens < 1.0:
            return True
        self._tokens -= 1.0
        return False


def _seconds(v: Any, name: str, lo: float, hi: float, allow_none: bool) -> float | None:
    if v is None and allow_none:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not lo <= v <= hi:
        raise SpecError(
            f"{name} must be a number of seconds {lo:g}..{hi:g}{' or null (off)' if allow_none else ''}, got {v!r}"
        )
    return float(v)


class Hub:
    """All tables of one server process.

    Args:
        store: an open :class:`~ramsli.server.storage.EventStore`.
        allow_test_seeds: accept a ``seed`` when a table is created (tests only); such
            a table says ``test_seeded`` in every view. Otherwise shuffles use
            ``secrets.SystemRandom``.
        allowed_bots: the names of installed packages' bots (``docs/bots.md``) a new table may
            seat (``ramsli serve --allow-bot NAME``); the built-in bots are always allowed.
    """

    def __init__(self, store: Any, allow_test_seeds: bool = False, allowed_bots: Iterable[str] = ()) -> None:
        self.store = store
        self.allow_test_seeds = allow_test_seeds
        self.allowed_bots: frozenset[str] = frozenset(allowed_bots)
        self.tables: dict[str, Table] = {}
        #: tables that did not replay at start-up: id -> reason (listed as unavailable, never served)
        self.broken: dict[str, str] = {}

    # -- lifecycle --------------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuild every stored table by replaying its events; start their drivers. Returns the count.

        A table that does not replay (a damaged row, an event the engine refuses, a bot spec
        no longer allowed) is put in :attr:`broken` with its reason, logged once, and the
        other tables start normally.
        """
        log = logging.getLogger("ramsli.server")
        for row in await self.store.load():
            if row["spec"].get("kind") == "ledger":  # a pub ledger (issue 16): ramsli.server.ledger restores it
                continue
            try:
                if row.get("error"):
                    raise ValueError(f"table {row['id']}: {row['error']}")
                t = Table.replay(row["id"], row["spec"], row["events"], self.store)
            except Exception as e:  # noqa: BLE001 - one damaged table must not stop the server
                reason = str(e).splitlines()[0][:300] if str(e) else type(e).__name__
                self.broken[row["id"]] = reason
                log.error("table %s is broken and not served: %s", row["id"], reason)
                continue
            self.tables[t.id] = t
            t.start_driver()
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table's driver (the database keeps everything)."""
        for t in self.tables.values():
            await t.stop_driver()

    # -- HTTP requests ------------------------------------------------------------------

    def parse_spec(self, body: Any) -> tuple[Rules, str, list[dict[str, Any]], TableOptions, int | None]:
        """Check a create-table request (see ``docs/protocol.md``).

        Raises:
            SpecError: naming the first bad field and what is allowed.
        """
        if not isinstance(body, dict):
            raise SpecError("the request must be a JSON object with preset, rules, seats")
        unknown = set(body) - {
            "preset",
            "rules",
            "seats",
            "grace_seconds",
            "turn_seconds",
            "bot_pace_seconds",
            "hand_pause_seconds",
            "seed",
            "hint",
        }
        if unknown:
            raise SpecError(
                f"unknown field {sorted(unknown)[0]!r}; allowed are preset, rules, seats, "
                "grace_seconds, turn_seconds, bot_pace_seconds, hand_pause_seconds, seed, hint"
            )
        if not isinstance(body.get("hint", False), bool):
            raise SpecError(f"hint must be true or false, got {body.get('hint')!r}")
        preset = body.get("preset", "traditional")
        assignments = body.get("rules", [])
        if not isinstance(preset, str):
            raise SpecError("preset must be the name of a preset (R6)")
        if not isinstance(assignments, list) or not all(isinstance(a, str) for a in assignments):
            raise SpecError("rules must be a list of 'key=value' texts (R8), e.g. [\"end=hands:10\"]")
        if len(assignments) > MAX_RULES:
            raise SpecError(f"rules has {len(assignments)} entries; allowed are at most {MAX_RULES} (R8)")
        try:
            rules = Rules.preset(preset).with_assignments(assignments)
            check_play_limits(rules)  # counters and session ends within play (R3.3, R3.6)
        except RulesError as e:
            raise SpecError(str(e)) from None
        seats = body.get("seats")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 6:
            raise SpecError(
                'seats must be a list of 2..6 seats (R2.1), each {"kind": "human"} or {"kind": "bot", "bot": "rules"}'
            )
        out = []
        for i, s in enumerate(seats):
            if not isinstance(s, dict) or s.get("kind") not in ("human", "bot") or set(s) - {"kind", "bot"}:
                raise SpecError(f'seat p{i + 1}: give {{"kind": "human"}} or {{"kind": "bot", "bot": NAME}}')
            if s["kind"] == "bot":
                spec = s.get("bot", "rules")
                if not isinstance(spec, str) or len(spec) > 80:
                    raise SpecError(f"seat p{i + 1}: bot must be a bot spec such as 'rules' or 'montecarlo'")
                try:
                    name, _, opts = spec.partition(":")
                    package = package_bots().get(name.strip())
                    if package is not None and name.strip() not in self.allowed_bots:  # the operator's list
                        raise ValueError(
                            f"bot {name.strip()!r} comes from the installed {package.origin}; this server "
                            f"seats it only when started with --allow-bot {name.strip()}"
                        )
                    try:
                        files = getattr(bot_factory(name.strip()), "FILE_OPTIONS", ())
                    except ValueError:  # a level name, or unknown: make_bot below says which
                        files = ()
                    named = {part.partition("=")[0].strip() for part in opts.split(",") if part.strip()}
                    if named & set(files):  # a path on the server's disk: never opened for a client
                        raise ValueError(
                            f"bot option {sorted(named & set(files))[0]!r} names a file on the "
                            f"server; a table's {name.strip()} bot uses the policies shipped with ramsli"
                        )
                    make_bot(spec, seed=0)
                except ValueError as e:
                    raise SpecError(f"seat p{i + 1}: {e}") from None
                out.append({"kind": "bot", "bot": spec})
            else:
                if s.get("bot") is not None:
                    raise SpecError(f"seat p{i + 1}: a human seat has no bot")
                out.append({"kind": "human", "bot": None})
        if rules.players is not None and rules.players != len(out):
            raise SpecError(f"option players={rules.players} but {len(out)} seats were given (R2.1)")
        if rules.ante > rules.starting_stack:
            raise SpecError(f"ante {rules.ante} is more than the starting stack {rules.starting_stack} (R3.3, R4.1)")
        opts = TableOptions(
            grace_seconds=_seconds(body.get("grace_seconds", 60), "grace_seconds", 0, 3600, False),
            turn_seconds=_seconds(body.get("turn_seconds"), "turn_seconds", 1, 3600, True),
            bot_pace_seconds=_seconds(body.get("bot_pace_seconds", 0.8), "bot_pace_seconds", 0, 60, False),
            hand_pause_seconds=_seconds(body.get("hand_pause_seconds", 4), "hand_pause_seconds", 0, 600, False),
            hint=body.get("hint", False),
        )
        seed = body.get("seed")
        if seed is not None:
            if not self.allow_test_seeds:
                raise SpecError(
                    "a seed is accepted only when the server runs with --allow-test-seeds "
                    "(tables of real play shuffle with secrets.SystemRandom)"
                )
            if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
                raise SpecError(f"seed must be a whole number 0..2**63-1, got {seed!r}")
        return rules, preset, out, opts, seed

    async def create_table(self, body: Any) -> dict[str, Any]:
        """Create a table from a request body; returns the links (``docs/protocol.md``).

        Raises:
            SpecError: for a bad request (nothing is stored).
        """
        rules, preset, seats, opts, seed = self.parse_spec(body)
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        spec = Table.new_spec(rules, preset, seats, opts, seed)
        await self.store.create_table(table_id, spec, time.time())
        t = Table(table_id, spec, self.store)
        self.tables[table_id] = t
        t.start_driver()
        return {
            "table": table_id,
            "creator_token": spec["creator_token"],
            "seats": [
                {
                    "seat": f"p{i + 1}",
                    "kind": s["kind"],
                    "bot": s["bot"],
                    "token": s["token"],
                    "invite": f"/t/{table_id}/s/{s['token']}",
                }
                for i, s in enumerate(spec["seats"])
            ],
            "spectate": f"/t/{table_id}/watch/{spec['spectator_token']}",
            "ws": f"/ws/{table_id}",
        }

    def table(self, table_id: Any) -> Table:
        """The table ``table_id``.

        Raises:
            TableError: ``no_table``.
        """
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            if isinstance(table_id, str) and table_id in self.broken:
                raise TableError("table_broken", table=table_id)
            raise TableError("no_table", table=str(table_id)[:40])
        return t

    async def sit(self, table_id: Any, token: Any, name: Any) -> dict[str, Any]:
        """A person sits down (see :meth:`Table.sit`); returns ``{"seat", "pending", "token"}``,
        ``token`` being the seat's personal token: the only one that acts for the seat from now on."""
        t = self.table(table_id)
        seat = await t.sit(token, name)
        return {"seat": f"p{seat.index + 1}", "pending": seat.pending is not None, "token": seat.personal or seat.token}

    async def start(self, table_id: Any, creator_token: Any) -> dict[str, Any]:
        """The creator starts the session (see :meth:`Table.start`)."""
        t = self.table(table_id)
        await t.start(creator_token)
        return {"status": t.status, "seq": t.seq}

    def history(self, table_id: Any, number: int, token: Any) -> str:
        """The hand history (TOML) of finished hand ``number``, folded hands and the cut hidden (R7, D-16);
        a seat's own token also shows that seat's own cards (when it sat there in that hand).

        Raises:
            TableError: ``no_table``, ``bad_token`` (not a token of this table), ``no_hand``.
        """
        t = self.table(table_id)
        ok = isinstance(token, str) and (
            t.seat_of_token(token) is not None
            or secrets.compare_digest(token.encode(), t.spectator_token.encode())
            or secrets.compare_digest(token.encode(), t.creator_token.encode())
        )
        if not ok:
            raise TableError("bad_token")
        s = t.session
        if s is None or not 1 <= number <= len(s.results):
            raise TableError("no_hand", number=number)
        entry = s.results[number - 1]
        names = [seat.name or f"p{seat.index + 1}" for seat in t.seats]
        hh = HandHistory.from_hand(entry.hand, names, entry.number, hide_folded=True)
        hh = dataclasses.replace(hh, cut=None)  # the cut is never shown (R7, D-16)
        own = t.owner_of(token)  # an invite link (the creator holds them all) owns no cards (R7, D-16)
        if t.own_cards_shown(own, number):  # a seat's own download shows its own cards, also folded
            cards = list(hh.cards)
            cards[own.index] = tuple(entry.hand.dealt[own.index])
            hh = dataclasses.replace(hh, cards=tuple(cards))
        return hh.to_toml()

    # -- WebSocket messages -------------------------------------------------------------

    async def receive(self, conn: Conn, raw: Any, table_id: str | None = None) -> None:
        """Handle one client message (text). Every refusal is an ``error`` to ``conn`` only."""
        if not isinstance(raw, str):
            conn.error("bad_json")
            return
        if len(raw.encode("utf-8", "surrogatepass")) > MAX_MESSAGE:
            conn.error("too_big", limit=MAX_MESSAGE)
            return
        try:
            msg = json.loads(raw)
        except (ValueError, RecursionError):
            msg = None
        if conn.flooding(time.monotonic()):
            if isinstance(msg, dict) and msg.get("type") == "act":
                # never drop an intent without saying which: the client may send it again
                action, seq = str(msg.get("action"))[:40], msg.get("seq")
                conn.deliver(
                    {
                        "type": "error",
                        "code": "rate_limited",
                        "action": action,
                        "intent_seq": seq if type(seq) is int else None,
                        "message": message(conn.lang, "rate_limited_act", limit=RATE_LIMIT, action=action),
                    }
                )
            else:
                conn.error("rate_limited", limit=RATE_LIMIT)
            return
        if msg is None:
            conn.error("bad_json")
            return
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.error("bad_json")
            return
        kind = msg["type"]
        if kind == "ping":
            conn.deliver({"type": "pong"})
            return
        if kind == "hello":
            await self._hello(conn, msg, table_id)
            return
        if kind != "act":
            conn.error("unknown_type", kind=repr(kind[:30]))
            return
        t = conn.table
        if t is None:
            conn.error("no_hello")
            return
        if conn.seat is None:
            if conn.role == "invite":
                conn.error("not_sitting", seq=t.seq)
            else:
                conn.error("spectator", seq=t.seq)
            return
        if conn.seat.conn is not conn:
            conn.error("replaced")
            return
        if not conn.seat.taken:  # a take-over waits for the next deal; a bot plays this hand
            conn.error("pending_seat", seq=t.seq, seat=f"p{conn.seat.index + 1}")
            return
        if "action" not in msg or "seq" not in msg:
            conn.error("bad_message", detail="act needs action (text) and seq (the view's seq)", seq=t.seq)
            return
        try:
            await t.intent(conn.seat.index, msg["action"], msg["seq"])
        except TableError as e:
            refusal = e.fields.get("refusal")
            rule = refusal.rule if isinstance(refusal, Refusal) else ("R4.12" if e.code == "bad_action" else None)
            fields = {k: v for k, v in e.fields.items() if k not in ("seq", "rule")}
            conn.error(e.code, seq=t.seq, rule=rule, **fields)
        except Exception:  # noqa: BLE001 - the store failed: nothing was applied
            conn.error("storage", seq=t.seq)

    async def _hello(self, conn: Conn, msg: dict[str, Any], table_id: str | None) -> None:
        lang = msg.get("lang", "en")
        if isinstance(lang, str) and lang in ("en", "de", "nl", "it"):
            conn.lang = lang
        if conn.table is not None:
            conn.error("bad_message", detail="hello was already said")
            return
        tid = table_id if table_id is not None else msg.get("table")
        t = self.tables.get(tid) if isinstance(tid, str) else None
        if t is None and isinstance(tid, str) and tid in self.broken:
            conn.error("table_broken", table=tid)
            conn.close(4004, "table_broken")
            return
        if t is None:
            conn.error("no_table", table=str(tid)[:40])
            conn.close(4004, "no_table")
            return
        token = msg.get("token")
        seat = t.seat_of_token(token)
        spectator = isinstance(token, str) and secrets.compare_digest(token.encode(), t.spectator_token.encode())
        if seat is None and not spectator:
            conn.error("bad_token")
            conn.close(4003, "bad_token")
            return
        invite = seat is not None and not t.owns(seat, token)
        if invite:
            seat = None  # an invite token that owns no seat: a spectator's view, no cards, no acts (R7)
        conn.table = t
        conn.seat = seat
        conn.role = "seat" if seat is not None else ("invite" if invite else "spectator")
        conn.deliver(
            {
                "type": "welcome",
                "table": t.id,
                "role": "seat" if seat is not None else "spectator",
                "seat": None if seat is None else f"p{seat.index + 1}",
            }
        )
        old = t.attach(seat, conn)
        if seat is None:
            conn.deliver(t.view(None))
        if old is not None and old is not conn:
            old.error("replaced")
            old.close(4001, "replaced")

    def disconnect(self, conn: Conn) -> None:
        """The transport of ``conn`` closed."""
        if conn.table is not None:
            conn.table.detach(conn.seat, conn)
