"""The server's core, without HTTP: every table, every connection, every client message.

:class:`Hub` owns the :class:`~ramsli.server.storage.EventStore`, the live
:class:`~ramsli.server.table.Table` objects and their
:class:`~ramsli.server.bot_driver.BotDriver`. The FastAPI app (:mod:`ramsli.server.app`) only
moves bytes: it hands each WebSocket text to :meth:`Hub.receive` with a :class:`Conn`, and each
HTTP request to :meth:`Hub.create_table`, :meth:`Hub.sit`, :meth:`Hub.start` or
:meth:`Hub.history`. Tests drive the same methods in-process.

Hostile input is refused here (or in :mod:`ramsli.server.schemas`, which reads every message),
each with its protocol error code and a message in the connection's language, and never
changes a table: a missing or wrong token, a second connection for the same seat (the newer
wins), malformed JSON, an unknown message type, a field missing, unknown or of the wrong type,
an oversized message (:data:`~ramsli.server.schemas.MAX_MESSAGE` bytes) and a flood (a token
bucket of :data:`RATE_LIMIT` messages, refilled at :data:`RATE_LIMIT` a second; a dropped
``act`` is named in its error).
"""

from __future__ import annotations

import dataclasses
import logging
import secrets
import time
from collections.abc import Iterable
from typing import Any

from ramsli.bots import make_bot
from ramsli.bots.base import bot_factory, package_bots
from ramsli.errors import TableError as EngineTableError
from ramsli.frontends.i18n import LANGS
from ramsli.history import HandHistory
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules, RulesError, check_play_limits
from ramsli.server import views
from ramsli.server.bot_driver import BotDriver
from ramsli.server.messages import BadMessage, ProtocolRefusal, SpecError, error_frame, rules_refusal
from ramsli.server.schemas import MAX_MESSAGE, Act, CreateTable, Hello, Ping, client_message, load_message, validate
from ramsli.server.table import SeatState, Table, TableOptions
from ramsli.session import check_setup

__all__ = ["Hub", "Conn", "RATE_LIMIT", "HELLO_SECONDS", "MAX_MESSAGE", "SpecError"]

#: client messages accepted per connection within one second
RATE_LIMIT = 20
#: seconds a new connection has to say hello
HELLO_SECONDS = 10.0


class Conn:
    """One client connection as the hub sees it.

    Subclasses deliver messages (:meth:`deliver`, never blocking) and close the
    transport (:meth:`close`). The base class records what it was sent in
    :attr:`sent`, which is what the in-process tests use.

    Attributes:
        lang: language of its error messages (``en``, ``de``, ``nl``, ``it``), from its ``hello``.
        table: the table after ``hello``, else None. seat: its seat, or None (spectator).
        role: ``seat``, ``invite`` (an invite token that owns no seat) or ``spectator`` after
            ``hello``, else None.
        sent: every message delivered (base class only).
    """

    def __init__(self, lang: str = "en") -> None:
        self.lang = lang
        self.table: Table | None = None
        self.seat: SeatState | None = None
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

    def refuse(self, error: Exception, seq: int | None = None) -> dict[str, Any]:
        """Deliver the ``error`` message of a refusal in the connection's language
        (:func:`~ramsli.server.messages.error_frame`); ``seq`` is the table's current ``seq``.
        Returns the message."""
        reader = self.seat.index if self.seat is not None else None
        msg = error_frame(error, self.lang, seq=seq, reader=reader)
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


def _bot_spec(i: int, spec: str, allowed: frozenset[str] = frozenset()) -> str:
    """A seat's bot spec as a client may give it, or a :class:`SpecError` naming the seat. A bot of
    an installed package (``docs/bots.md``) is seated only if the operator allowed it (``allowed``,
    ``ramsli serve --allow-bot NAME``); it is not even imported otherwise."""
    name, _, opts = spec.partition(":")
    package = package_bots().get(name.strip())
    if package is not None and name.strip() not in allowed:  # the operator's list
        refusal = Refusal("bot_not_allowed", None, {"seat": i, "bot": name.strip(), "origin": package.origin})
        raise SpecError(refusal)
    try:
        files = getattr(bot_factory(name.strip()), "FILE_OPTIONS", ())
    except ValueError:  # a level name, or unknown: make_bot below says which
        files = ()
    named = {part.partition("=")[0].strip() for part in opts.split(",") if part.strip()}
    if named & set(files):  # a path on the server's disk: never opened for a client
        option = sorted(named & set(files))[0]
        raise SpecError(Refusal("bot_file", None, {"seat": i, "option": option}))
    try:
        make_bot(spec, seed=0)
    except ValueError as e:
        raise SpecError(Refusal("bad_bot", None, {"seat": i, "detail": str(e)})) from None
    return spec


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
        self.drivers: dict[str, BotDriver] = {}
        #: tables that did not replay at start-up: id -> reason (listed as unavailable, never served)
        self.broken: dict[str, str] = {}

    # -- lifecycle --------------------------------------------------------------------

    def _serve(self, t: Table) -> None:
        self.tables[t.id] = t
        driver = self.drivers[t.id] = BotDriver(t)
        driver.start()

    async def restore(self) -> int:
        """Rebuild every stored table by replaying its events; start their drivers. Returns the count.

        A table that does not replay (a damaged row, an event the engine refuses, a bot spec
        no longer allowed) is put in :attr:`broken` with its reason, logged once, and the
        other tables start normally.
        """
        log = logging.getLogger("ramsli.server")
        for row in await self.store.load():
            if row["spec"] is not None and row["spec"].get("kind") == "ledger":  # ramsli.server.ledger restores it
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
            self._serve(t)
        return len(self.tables)

    async def close(self) -> None:
        """Stop every table's driver (the database keeps everything)."""
        for driver in self.drivers.values():
            await driver.stop()

    # -- HTTP requests ------------------------------------------------------------------

    def parse_spec(
        self, body: CreateTable | dict[str, Any]
    ) -> tuple[Rules, str, list[dict[str, Any]], TableOptions, int | None]:
        """Check a create-table request (``docs/protocol.md``): its shape
        (:class:`~ramsli.server.schemas.CreateTable`), the rules (R6, R8, within play), the
        set-up (:func:`ramsli.session.check_setup`: 2..6 seats, the ``players`` option, the
        ante, R2.1, R3.5), each bot spec and the seed.

        Returns:
            (rules, preset, seats as ``{"kind", "bot"}``, options, seed).

        Raises:
            BadMessage: a field missing, unknown or of the wrong type (named).
            SpecError: the first thing that cannot be made, and what is allowed.
        """
        spec = body if isinstance(body, CreateTable) else validate(CreateTable, body)
        try:
            rules = Rules.preset(spec.preset).with_assignments(spec.rules)
            check_play_limits(rules)  # counters and session ends within play (R3.3, R3.6)
        except RulesError as e:
            raise SpecError(rules_refusal(e)) from None
        try:
            check_setup(rules, len(spec.seats))
        except EngineTableError as e:
            raise SpecError(e.refusal) from None
        seats: list[dict[str, Any]] = []
        for i, s in enumerate(spec.seats):
            if s.kind == "bot":
                seats.append(
                    {"kind": "bot", "bot": _bot_spec(i, s.bot if s.bot is not None else "rules", self.allowed_bots)}
                )
            else:
                seats.append({"kind": "human", "bot": None})
        if spec.seed is not None and not self.allow_test_seeds:
            raise SpecError(Refusal("seed_off"))
        opts = TableOptions(
            grace_seconds=spec.grace_seconds,
            turn_seconds=spec.turn_seconds,
            bot_pace_seconds=spec.bot_pace_seconds,
            hand_pause_seconds=spec.hand_pause_seconds,
            hint=spec.hint,
        )
        return rules, spec.preset, seats, opts, spec.seed

    async def create_table(self, body: CreateTable | dict[str, Any]) -> dict[str, Any]:
        """Create a table from a request body; returns the links (``docs/protocol.md``).

        Raises:
            BadMessage, SpecError: for a bad request (nothing is stored).
        """
        body = body if isinstance(body, CreateTable) else validate(CreateTable, body)
        rules, preset, seats, opts, seed = self.parse_spec(body)
        if body.test_tamper and (seed is None or not self.allow_test_seeds):
            raise SpecError(Refusal("tamper_off"))
        table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        while table_id in self.tables:
            table_id = secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")
        spec = Table.new_spec(rules, preset, seats, opts, seed)
        if body.test_tamper:
            spec["test_tamper"] = True
        await self.store.create_table(table_id, spec, time.time())
        self._serve(Table(table_id, spec, self.store))
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
            Refused: ``no_table``, ``table_broken``.
        """
        t = self.tables.get(table_id) if isinstance(table_id, str) else None
        if t is None:
            if isinstance(table_id, str) and table_id in self.broken:
                raise Refused(Refusal("table_broken", None, {"table": table_id}))
            raise Refused(Refusal("no_table", None, {"table": str(table_id)[:40]}))
        return t

    async def sit(self, table_id: Any, token: Any, name: Any, client: str = "person") -> dict[str, Any]:
        """A person (``client="bot"``: a program) sits down (see :meth:`Table.sit`); returns
        ``{"seat", "pending", "token"}``, ``token`` being the seat's personal token: the only one
        that acts for the seat from now on."""
        t = self.table(table_id)
        seat = await t.sit(token, name, client)
        return {"seat": f"p{seat.index + 1}", "pending": seat.pending is not None, "token": seat.personal or seat.token}

    async def start(self, table_id: Any, creator_token: Any) -> dict[str, Any]:
        """The creator starts the session (see :meth:`Table.start`)."""
        t = self.table(table_id)
        await t.start(creator_token)
        return {"status": t.status, "seq": t.seq}

    def history(self, table_id: Any, number: int, token: Any) -> str:
        """The hand history (TOML) of finished hand ``number``, folded hands and the cut hidden (R7, D-16);
        a seat's own token also shows that seat's own cards (when it sat there in that hand). It
        carries the deal's commitments and the openings of exactly the cards shown
        (``[fairness]``, ``docs/fairness.md``), so ``ramsli verify`` can check it.

        Raises:
            Refused: ``no_table``, ``bad_token`` (not a token of this table), ``no_hand``.
        """
        t = self.table(table_id)
        if t.seat_of_token(token) is None and not t.is_spectator(token) and not t.is_creator(token):
            raise Refused(Refusal("bad_token"))
        s = t.session
        entry = s.results[number - 1] if s is not None and 1 <= number <= len(s.results) else None
        if entry is None or entry.hand is None:
            raise Refused(Refusal("no_hand", None, {"number": number}))
        names = [seat.name or f"p{seat.index + 1}" for seat in t.seats]
        hh = HandHistory.from_hand(entry.hand, names, entry.number, hide_folded=True)
        hh = dataclasses.replace(hh, cut=None)  # the cut is never shown (R7, D-16)
        own = t.owner_of(token)  # an invite link (the creator holds them all) owns no cards (R7, D-16)
        if own is not None and t.own_cards_shown(own, number):  # a seat's own download shows its own cards
            cards = list(hh.cards)
            cards[own.index] = tuple(entry.hand.dealt[own.index])
            hh = dataclasses.replace(hh, cards=tuple(cards))
        # the deal's commitments and this reader's openings: its own cards only as above (R7, D-16)
        hh = dataclasses.replace(hh, fairness=t.proof(number, own))
        return hh.to_toml()

    # -- WebSocket messages -------------------------------------------------------------

    async def receive(self, conn: Conn, raw: Any, table_id: str | None = None) -> None:
        """Handle one client message (text). Every refusal is an ``error`` to ``conn`` only."""
        if not isinstance(raw, str):
            conn.refuse(Refused(Refusal("bad_json")))
            return
        bad: Refused | None = None
        try:
            value = load_message(raw)
        except Refused as e:
            if e.refusal.code == "too_big":  # ignored before anything else, the bucket untouched
                conn.refuse(e)
                return
            value, bad = None, e
        if conn.flooding(time.monotonic()):
            self._flooded(conn, value)
            return
        if bad is not None:
            conn.refuse(bad)
            return
        t = conn.table
        try:
            msg = client_message(value)
        except BadMessage as e:
            conn.refuse(e, seq=t.seq if t is not None else None)
            return
        except Refused as e:
            conn.refuse(e)
            return
        if isinstance(msg, Ping):
            conn.deliver({"type": "pong"})
        elif isinstance(msg, Hello):
            await self._hello(conn, msg, table_id)
        else:
            await self._act(conn, msg)

    @staticmethod
    def _flooded(conn: Conn, value: Any) -> None:
        if isinstance(value, dict) and value.get("type") == "act":
            # never drop an intent without saying which: the client may send it again
            action, seq = str(value.get("action"))[:40], value.get("seq")
            refusal = Refusal("rate_limited_act", None, {"limit": RATE_LIMIT, "action": action})
            msg = conn.refuse(ProtocolRefusal(refusal, "rate_limited"))
            msg["action"], msg["intent_seq"] = action, seq if type(seq) is int else None
        else:
            conn.refuse(Refused(Refusal("rate_limited", None, {"limit": RATE_LIMIT})))

    async def _act(self, conn: Conn, msg: Act) -> None:
        t = conn.table
        if t is None:
            conn.refuse(Refused(Refusal("no_hello")))
            return
        seat = conn.seat
        if seat is None:
            conn.refuse(Refused(Refusal("not_sitting" if conn.role == "invite" else "spectator")), seq=t.seq)
            return
        if seat.conn is not conn:
            conn.refuse(Refused(Refusal("replaced")))
            return
        if not seat.taken:  # a take-over waits for the next deal; a bot plays this hand
            conn.refuse(Refused(Refusal("pending_seat", None, {"seat": seat.index})), seq=t.seq)
            return
        try:
            await t.intent(seat.index, msg.action, msg.seq)
        except Refused as e:
            conn.refuse(e, seq=t.seq)
        except Exception:
            logging.getLogger("ramsli.server").exception("table %s: an intent was not stored", t.id)
            conn.refuse(Refused(Refusal("storage")), seq=t.seq)

    async def _hello(self, conn: Conn, msg: Hello, table_id: str | None) -> None:
        if msg.lang in LANGS:
            conn.lang = msg.lang
        if conn.table is not None:
            conn.refuse(ProtocolRefusal(Refusal("hello_twice"), "bad_message"))
            return
        tid = table_id if table_id is not None else msg.table
        t = self.tables.get(tid) if tid is not None else None
        if t is None:
            code = "table_broken" if tid is not None and tid in self.broken else "no_table"
            conn.refuse(Refused(Refusal(code, None, {"table": str(tid)[:40]})))
            conn.close(4004, code)
            return
        seat = t.seat_of_token(msg.token)
        if seat is None and not t.is_spectator(msg.token):
            conn.refuse(Refused(Refusal("bad_token")))
            conn.close(4003, "bad_token")
            return
        invite = seat is not None and not t.owns(seat, msg.token)
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
            conn.deliver(views.view(t, None))
        if isinstance(old, Conn) and old is not conn:
            old.refuse(Refused(Refusal("replaced")))
            old.close(4001, "replaced")

    def disconnect(self, conn: Conn) -> None:
        """The transport of ``conn`` closed."""
        if conn.table is not None:
            conn.table.detach(conn.seat, conn)
