"""A typed asyncio client of the table protocol (``docs/protocol.md``), and its synchronous wrapper.

- :class:`Invite`: an invite (or spectator) link read into the server's address, the table and the
  token; ``https://host/t/TABLE/s/TOKEN``, also behind a path prefix (``https://host/cards/t/…``).
- :class:`TableClient`: sits down with a name (``POST /api/tables/{table}/sit``), keeps one
  WebSocket to ``/ws/{table}`` open (reconnecting with the seat's personal token after a drop,
  with a back-off of 0.5 s doubling to 8 s), gives every ``view`` as a :class:`TableView` (its
  :attr:`~TableView.observation` is the engine's :class:`~ramsli.hand.Observation`), sends intents
  through a token bucket matching the server's rate limit (:class:`TokenBucket`) and stops cleanly
  (:meth:`TableClient.close`).
- :class:`ClientRefused`: every refusal of the server (HTTP or WebSocket) as a typed error with the
  server's :class:`~ramsli.refusal.Refusal` record and its protocol code.
- :class:`SyncTableClient`: the same for scripts, on an event loop of its own thread.

The client never decides what is legal: the server's ``legal`` and the engine's refusals do (R4.12).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypedDict, TypeVar, Unpack

from ramsli.client.observation import ViewError, observation_from_view
from ramsli.hand import Observation
from ramsli.refusal import Refusal
from ramsli.server.protocol.closecodes import CloseCode

if TYPE_CHECKING:
    from websockets.asyncio.client import ClientConnection
from ramsli.seats import parse_seat

__all__ = [
    "RATE_LIMIT",
    "FATAL_CODES",
    "error_code",
    "Invite",
    "ClientRefused",
    "ConnectionLost",
    "TokenBucket",
    "TableView",
    "TableClient",
    "ConnectionOptions",
    "ClientOptions",
    "SyncTableClient",
]

log = logging.getLogger("ramsli.client")

#: the server's rate limit: a token bucket of this many messages, refilled at this many a second
#: (``docs/protocol.md``, ``rate_limited``)
RATE_LIMIT = 20
#: protocol codes after which the server closes the connection for good: reconnecting cannot help
FATAL_CODES = frozenset({"bad_token", "no_table", "table_broken", "replaced"})
#: WebSocket close codes that end the connection for good (``replaced``, ``bad_token``, ``no_table``):
#: the server's :class:`~ramsli.server.protocol.closecodes.CloseCode` that are ``final``, with their reasons
FATAL_CLOSE: dict[int, str] = {int(c): c.reason for c in CloseCode if c.final}

T = TypeVar("T")


@dataclass(frozen=True)
class Invite:
    """A table link read into its parts.

    Attributes:
        base: the server's address with its path prefix, no trailing slash (``https://host/cards``).
        table: the table's id.
        token: the link's token (a seat's invite or personal token, or the spectator token).
        spectator: True for a spectator link (``/t/TABLE/watch/TOKEN``).

    >>> i = Invite.parse("https://example.org/cards/t/k3v9q2/s/AbC-1?lang=de")
    >>> i.base, i.table, i.token, i.ws_url
    ('https://example.org/cards', 'k3v9q2', 'AbC-1', 'wss://example.org/cards/ws/k3v9q2')
    >>> Invite.parse("http://127.0.0.1:8000/t/k3/watch/zz").spectator
    True
    """

    base: str
    table: str
    token: str
    spectator: bool = False

    @classmethod
    def parse(cls, url: str) -> Invite:
        """Read ``http(s)://host[/prefix]/t/TABLE/s/TOKEN`` (or ``…/watch/TOKEN``).

        Raises:
            ValueError: for a link of another shape (the message shows the expected one).
        """
        u = urllib.parse.urlsplit(url.strip())
        parts = u.path.rstrip("/").split("/")
        if u.scheme not in ("http", "https") or not u.netloc or len(parts) < 5 or parts[-4] != "t":
            raise ValueError(f"not a table link: {url!r}; expected https://HOST/t/TABLE/s/TOKEN")
        if parts[-2] not in ("s", "watch") or not parts[-3] or not parts[-1]:
            raise ValueError(f"not a table link: {url!r}; expected https://HOST/t/TABLE/s/TOKEN")
        prefix = "/".join(parts[:-4])
        base = urllib.parse.urlunsplit((u.scheme, u.netloc, prefix, "", ""))
        return cls(base, parts[-3], urllib.parse.unquote(parts[-1]), parts[-2] == "watch")

    @property
    def ws_url(self) -> str:
        """The table's WebSocket address (``ws://`` for ``http://``, ``wss://`` for ``https://``)."""
        scheme, rest = self.base.split("://", 1)
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws/{self.table}"

    def link(self, token: str | None = None) -> str:
        """The seat link of ``token`` (default: this link's token) on the same server."""
        return f"{self.base}/t/{self.table}/{'watch' if self.spectator else 's'}/{token or self.token}"


def error_code(frame: dict[str, Any]) -> str:
    """The protocol code of a WebSocket ``error`` message (``illegal``, ``stale_seq``, ...), of
    either shape: ``error`` since protocol version 2 (announced in ``welcome`` as ``protocol``),
    ``code`` before it (where ``code`` was the protocol code, not the refusal's).

    >>> error_code({"type": "error", "error": "illegal", "code": "must_follow"})
    'illegal'
    >>> error_code({"type": "error", "code": "illegal", "refusal": {"code": "must_follow"}})
    'illegal'
    """
    code = frame.get("error") if "error" in frame else frame.get("code", "error")
    return str(code)


class ClientRefused(Exception):
    """The server refused a request or a message (``docs/protocol.md``, *Errors*).

    Attributes:
        code: the protocol code (``illegal``, ``stale_seq``, ``rate_limited``, ``spectator``,
            ``bad_message``, ``seat_taken``, …).
        refusal: the server's record (:class:`~ramsli.refusal.Refusal`: ``code``, ``rule``,
            ``fields``); for an illegal action the engine's (``must_follow``, ``not_your_turn``, …).
        message: the server's message, in the client's language.
        seq: the table's ``seq`` the server named, or None.
        status: the HTTP status of a refused request, or None for a WebSocket error.
    """

    def __init__(
        self, code: str, refusal: Refusal, message: str = "", seq: int | None = None, status: int | None = None
    ) -> None:
        super().__init__(f"{code}: {message}" if message else code)
        self.code = code
        self.refusal = refusal
        self.message = message
        self.seq = seq
        self.status = status

    @classmethod
    def from_frame(cls, msg: dict[str, Any]) -> ClientRefused:
        """From a WebSocket ``error`` message, of either shape (:func:`error_code`): protocol 2's
        ``{"error": protocol code, "code": the refusal's, "rule", "fields", "refusal", "message"}``
        or the earlier ``{"code": protocol code, "refusal": {"code", "rule", "fields"}, "message"}``."""
        code = error_code(msg)
        rec = msg.get("refusal") or {}
        refusal = Refusal(str(rec.get("code", code)), rec.get("rule", msg.get("rule")), dict(rec.get("fields") or {}))
        return cls(code, refusal, str(msg.get("message", "")), msg.get("seq"))

    @classmethod
    def from_http(cls, status: int, body: Any) -> ClientRefused:
        """From an HTTP error answer ``{"error", "code", "rule", "fields", "message"}``."""
        if not isinstance(body, dict):
            body = {"error": "http", "code": "http", "message": str(body)[:200], "fields": {"status": status}}
        code = str(body.get("error", body.get("code", "http")))
        refusal = Refusal(str(body.get("code", code)), body.get("rule"), dict(body.get("fields") or {}))
        return cls(code, refusal, str(body.get("message", "")), status=status)


class ConnectionLost(Exception):
    """The connection closed for good (the server said ``replaced``, ``bad_token`` or ``no_table``,
    or the reconnects ran out); ``refusal`` is the server's refusal when it sent one."""

    def __init__(self, why: str, refusal: ClientRefused | None = None) -> None:
        super().__init__(why)
        self.refusal = refusal


class TokenBucket:
    """A token bucket of ``size`` messages refilled at ``rate`` a second: the server's rule for
    every connection (``rate_limited``), kept on the client's side so that it is never hit.

    ``clock`` gives seconds (monotonic); :meth:`delay` is how long to wait before the next message.

    >>> now = [0.0]
    >>> b = TokenBucket(clock=lambda: now[0])
    >>> [b.take() for _ in range(21)].count(True)
    20
    >>> round(b.delay(), 3)
    0.05
    >>> now[0] += 0.05
    >>> b.take()
    True
    """

    def __init__(self, size: float = RATE_LIMIT, rate: float = RATE_LIMIT, clock: Callable[[], float] = time.monotonic):
        self.size = float(size)
        self.rate = float(rate)
        self.clock = clock
        self.tokens = float(size)
        self.last = clock()

    def _refill(self) -> None:
        now = self.clock()
        self.tokens = min(self.size, self.tokens + max(0.0, now - self.last) * self.rate)
        self.last = now

    def take(self) -> bool:
        """Take one token if there is one; True if the message may go now."""
        self._refill()
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def delay(self) -> float:
        """Seconds until a token is there (0 when one is)."""
        self._refill()
        return 0.0 if self.tokens >= 1.0 else (1.0 - self.tokens) / self.rate

    async def wait(self) -> None:
        """Wait until a token is there, and take it (waiters at once queue up: each takes its
        own token, the bucket may go below zero and the next wait is longer)."""
        delay = self.delay()
        if delay > 0:
            await asyncio.sleep(delay)
        self._refill()
        self.tokens -= 1.0


@dataclass(frozen=True)
class TableView:
    """One ``view`` message of the server (``docs/protocol.md``, *The view*), typed.

    Attributes:
        seq: the table's sequence number the view was made at (an intent carries it).
        status: ``waiting``, ``playing`` or ``over``.
        seat: the recipient's seat (0-based), or None for a spectator.
        pending: the seat's takeover waits for the next deal (a spectator's view until then).
        to_act: the seat to act (0-based), or None.
        legal: the recipient's legal actions in text notation (``p2 pl AS``), ``()`` when it is
            not its turn.
        your_cards: the recipient's own unplayed cards (text notation).
        hand_number: the hand shown (1-based), or None before the first deal.
        hands_finished: how many hands of the session are finished.
        end_reason: why the session ended (R3.6), or None.
        raw: the message as received (JSON).
    """

    seq: int
    status: str
    seat: int | None
    pending: bool
    to_act: int | None
    legal: tuple[str, ...]
    your_cards: tuple[str, ...]
    hand_number: int | None
    hands_finished: int
    end_reason: str | None
    raw: dict[str, Any] = field(repr=False, compare=False)

    @classmethod
    def from_message(cls, msg: dict[str, Any]) -> TableView:
        """Read a ``view`` message.

        Raises:
            ViewError: for a message of the wrong shape.
        """
        try:
            you = msg["you"]
            hand = msg.get("hand")
            to_act = msg.get("to_act")
            return cls(
                seq=int(msg["seq"]),
                status=str(msg["status"]),
                seat=None if you.get("seat") is None else parse_seat(you["seat"]),
                pending=bool(you.get("pending")),
                to_act=None if to_act is None else parse_seat(to_act),
                legal=tuple(msg.get("legal") or ()),
                your_cards=tuple(msg.get("your_cards") or ()),
                hand_number=None if not hand else hand.get("number"),
                hands_finished=len(msg.get("results") or ()),
                end_reason=msg.get("end_reason"),
                raw=msg,
            )
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise ViewError(f"not a view message: {e!r}") from None

    @property
    def is_over(self) -> bool:
        """True once the session is over (R3.6)."""
        return self.status == "over"

    @property
    def my_turn(self) -> bool:
        """True if the recipient has legal actions in this view."""
        return bool(self.legal)

    @property
    def observation(self) -> Observation:
        """The engine's :class:`~ramsli.hand.Observation` of this view
        (:func:`~ramsli.client.observation.observation_from_view`).

        Raises:
            ViewError: before the first deal.
        """
        return observation_from_view(self.raw)


def _http(method: str, url: str, body: dict[str, Any] | None, lang: str, timeout: float) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        url, data=data, method=method, headers={"Content-Type": "application/json", "Accept-Language": lang}
    )
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return json.loads(r.read())
    except urllib.error.HTTPError as e:
        raw = e.read()
        try:
            answer = json.loads(raw)
        except ValueError:
            answer = raw.decode("utf-8", "replace")
        raise ClientRefused.from_http(e.code, answer) from None


class TableClient:
    """One seat's (or a spectator's) client of a remote table (``docs/protocol.md``).

    Use it as ``async with TableClient(link) as c:`` (connects; closes on the way out), or call
    :meth:`sit`, :meth:`connect` and :meth:`close` yourself. Views arrive in the background; wait
    for the next one with :meth:`next_view`, send an intent with :meth:`act`.

    Args:
        link: an invite link (``https://host/t/TABLE/s/TOKEN``), a spectator link, or an
            :class:`Invite`.
        lang: the language of the server's messages (``en``, ``de``, ``nl``, ``it``).
        client: what sits at the seat, told to the server at :meth:`sit` (``"bot"``: the table
            shows the seat as a bot playing from elsewhere, "bot (external)"; ``None`` says nothing).
        backoff: the first and the longest wait between reconnects, seconds.
        reconnects: how many reconnects in a row to try before giving up (None: no end).
        on_message: called with every message received (a recorder, a log), in order.
        timeout: seconds for an HTTP request and for opening the WebSocket.

    Attributes:
        invite: the link read; token: the token the connection says hello with (after :meth:`sit`
            the seat's personal token); view: the latest :class:`TableView` or None;
        connections: how many times a ``welcome`` was received (1 + the reconnects).
    """

    def __init__(
        self,
        link: str | Invite,
        *,
        lang: str = "en",
        client: str | None = "bot",
        backoff: tuple[float, float] = (0.5, 8.0),
        reconnects: int | None = None,
        on_message: Callable[[dict[str, Any]], None] | None = None,
        timeout: float = 10.0,
    ) -> None:
        self.invite = link if isinstance(link, Invite) else Invite.parse(link)
        self.token = self.invite.token
        self.lang = lang
        self.client = client
        self.backoff = backoff
        self.reconnects = reconnects
        self.on_message = on_message
        self.timeout = timeout
        self.view: TableView | None = None
        self.connections = 0
        self.bucket = TokenBucket()
        self._ws: ClientConnection | None = None
        self._task: asyncio.Task[None] | None = None
        self._closed = False
        self._lost: ConnectionLost | None = None
        self._changed: asyncio.Condition | None = None
        self._errors: list[dict[str, Any]] = []
        self._errors_seen = 0
        self._replies = 0  # messages other than views received (pongs, errors)
        self._view_connection = 0  # the connection (counted by its welcome) the latest view came on

    # -- HTTP ---------------------------------------------------------------------------------

    async def request(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """One HTTP request to the server (``path`` below its prefix); the decoded JSON answer.

        Raises:
            ClientRefused: the server's refusal (``status`` is the HTTP status).
            OSError: the server cannot be reached.
        """
        url = self.invite.base + path
        return await asyncio.to_thread(_http, method, url, body, self.lang, self.timeout)

    async def sit(self, name: str) -> dict[str, Any]:
        """Sit down at the link's seat with ``name`` (R2.2); from then on the client acts with the
        seat's personal token. Sitting again with the personal token is harmless (the name stays
        once the session started). Returns ``{"seat", "pending", "token"}``.

        Raises:
            ClientRefused: ``bad_token``, ``bad_name``, ``bot_name``, ``name_taken``,
                ``seat_taken`` (someone else sat there), ``session_over``.
        """
        body: dict[str, Any] = {"token": self.token, "name": name}
        if self.client is not None:
            body["client"] = self.client
        answer = await self.request("POST", f"/api/tables/{self.invite.table}/sit", body)
        self.token = answer["token"]
        return dict(answer)

    async def info(self) -> dict[str, Any]:
        """The table's public info (``GET /api/tables/{table}``)."""
        return dict(await self.request("GET", f"/api/tables/{self.invite.table}"))

    async def rematch(self) -> dict[str, Any]:
        """ "Play again" with the seat's token once the session is over (``POST
        /api/tables/{table}/rematch``): the next session's table, made by the first to ask, with
        this seat kept for it. Returns ``{"table", "seat", "invite", "name"}`` (``invite`` the kept
        seat's link below the server's prefix, ``name`` the name it had; both None for a seat
        nobody sat at).

        Raises:
            ClientRefused: ``bad_token``, ``not_over``, ``no_table``.
        """
        answer = await self.request("POST", f"/api/tables/{self.invite.table}/rematch", {"token": self.token})
        return dict(answer)

    def follow(self, invite_path: str) -> TableClient:
        """A new client, with this one's settings, for the seat link ``invite_path``
        (``/t/TABLE/s/TOKEN`` on the same server, as :meth:`rematch` answers it)."""
        return TableClient(
            Invite.parse(self.invite.base + invite_path),
            lang=self.lang,
            client=self.client,
            backoff=self.backoff,
            reconnects=self.reconnects,
            on_message=self.on_message,
            timeout=self.timeout,
        )

    # -- the WebSocket ------------------------------------------------------------------------

    async def connect(self) -> TableView:
        """Open the connection (say ``hello``) and wait for the first view; the connection then
        reconnects by itself after a drop until :meth:`close`.

        Raises:
            ConnectionLost: the server refused the token (``bad_token``) or the table (``no_table``).
        """
        if self._task is None:
            self._changed = asyncio.Condition()
            self._task = asyncio.get_running_loop().create_task(self._run(), name=f"ramsli-client-{self.invite.table}")
        return await self.next_view(after=-1)

    async def __aenter__(self) -> TableClient:
        await self.connect()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connection and stop reconnecting (the seat shows as away at the server)."""
        self._closed = True
        ws, self._ws = self._ws, None
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        await self._notify()

    async def drop(self) -> None:
        """Close the socket without stopping: the client reconnects as after a network drop."""
        ws = self._ws
        if ws is not None:
            await ws.close()

    async def _notify(self) -> None:
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def _run(self) -> None:
        import websockets  # the runtime dependency that speaks WebSocket (docs/protocol.md)

        delay = self.backoff[0]
        failures = 0
        while not self._closed:
            welcomed = False
            try:
                async with websockets.connect(
                    self.invite.ws_url,
                    open_timeout=self.timeout,
                    max_size=2**20,
                    additional_headers={"Accept-Language": self.lang},
                ) as ws:
                    await self.bucket.wait()
                    await ws.send(json.dumps({"type": "hello", "token": self.token, "lang": self.lang}))
                    async for raw in ws:
                        msg = json.loads(raw)
                        if msg.get("type") == "welcome":
                            welcomed = True
                            failures = 0
                            delay = self.backoff[0]
                            self._ws = ws  # messages may go now: the server knows who this is
                        await self._receive(msg)
                    code = ws.close_code
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException, ValueError) as e:
                code = getattr(getattr(e, "rcvd", None), "code", None)
                log.info("connection to %s lost: %s", self.invite.ws_url, e)
            self._ws = None
            if self._closed:
                break
            if code in FATAL_CLOSE:
                last = self._errors[-1] if self._errors else None
                refusal = ClientRefused.from_frame(last) if last and error_code(last) in FATAL_CODES else None
                self._lost = ConnectionLost(f"the server closed the connection: {FATAL_CLOSE[code]}", refusal)
                break
            failures += 0 if welcomed else 1
            if self.reconnects is not None and failures > self.reconnects:
                self._lost = ConnectionLost(f"no connection to {self.invite.ws_url} after {failures} tries")
                break
            log.info("reconnecting to %s in %.1f s", self.invite.ws_url, delay)
            await asyncio.sleep(delay)
            delay = min(delay * 2, self.backoff[1])
        await self._notify()

    async def _receive(self, msg: dict[str, Any]) -> None:
        if self.on_message is not None:
            self.on_message(msg)
        kind = msg.get("type")
        if kind == "view":
            self.view = TableView.from_message(msg)
            self._view_connection = self.connections
        elif kind == "welcome":
            self.connections += 1
        elif kind == "error":
            self._errors.append(msg)
            self._replies += 1
        else:
            self._replies += 1
        await self._notify()

    async def _wait(self, pred: Callable[[], bool], seconds: float | None) -> None:
        if self._changed is None:
            raise RuntimeError("not connected: call connect() first")

        async def until() -> None:
            assert self._changed is not None
            async with self._changed:
                while not pred():
                    if self._lost is not None:
                        raise self._lost
                    if self._closed:
                        raise ConnectionLost("the client was closed")
                    await self._changed.wait()

        await asyncio.wait_for(until(), seconds)

    async def next_view(self, after: int | None = None, seconds: float | None = None) -> TableView:
        """The first view with a ``seq`` above ``after`` (default: the latest view's ``seq``, so
        the next change); a view received after a reconnect counts too.

        Raises:
            ConnectionLost: the connection ended for good. TimeoutError: after ``seconds`` (None: no limit).
        """
        floor = (self.view.seq if self.view is not None else -1) if after is None else after
        await self._wait(lambda: self.view is not None and self.view.seq > floor, seconds)
        assert self.view is not None
        return self.view

    async def send(self, msg: dict[str, Any] | str, *, throttle: bool = True) -> None:
        """Send one message as it is (a dict as JSON, text as it is), through the token bucket unless
        ``throttle`` is false (then the server's own limit answers ``rate_limited``). While a
        reconnect is under way it waits for the new connection, and sends it there.

        Raises:
            ConnectionLost: the connection ended for good, or the client was closed.
        """
        import websockets

        if throttle:
            await self.bucket.wait()
        text = msg if isinstance(msg, str) else json.dumps(msg)
        while True:
            ws = self._ws
            if ws is None:
                await self._wait(lambda: self._ws is not None, None)
                continue
            try:
                await ws.send(text)
                return
            except websockets.exceptions.ConnectionClosed:
                if self._ws is ws:
                    self._ws = None  # the reader sees the close too, and reconnects

    def _take_error(self) -> dict[str, Any] | None:
        if self._errors_seen < len(self._errors):
            self._errors_seen += 1
            return self._errors[self._errors_seen - 1]
        return None

    async def raise_refusal(self, seconds: float = 10.0) -> None:
        """Wait for the server's next refusal not yet raised, and raise it (a reply to messages
        sent with :meth:`send`).

        Raises:
            ClientRefused: the refusal. TimeoutError: none came within ``seconds``.
        """
        await self._wait(lambda: self._errors_seen < len(self._errors), seconds)
        err = self._take_error()
        assert err is not None
        raise ClientRefused.from_frame(err)

    async def ping(self, *, throttle: bool = True, seconds: float = 10.0) -> None:
        """Send ``ping`` and wait for the server's reply (``pong``).

        Raises:
            ClientRefused: the server refused it (``rate_limited`` when sent unthrottled).
        """
        before = self._replies
        await self.send({"type": "ping"}, throttle=throttle)
        await self._wait(lambda: self._replies > before, seconds)
        err = self._take_error()
        if err is not None:
            raise ClientRefused.from_frame(err)

    async def act(self, action: str, seq: int | None = None, seconds: float | None = 60.0) -> TableView:
        """Send an intent (``"p2 pl AS"``) on the view of ``seq`` (default: the latest view) and wait
        for its answer: the next view, which shows it applied (or the table moved on without it:
        a turn timer's move). An intent the server dropped as over its rate limit
        (``rate_limited`` with this intent), or one lost with a dropped connection (the view
        after the reconnect has the same ``seq``), is sent again; the server never applies one
        ``seq`` twice.

        Raises:
            ClientRefused: the server refused it (``illegal`` with the engine's record,
                ``stale_seq``, ``not_your_seat``, ``bad_action``, ``spectator``, ``not_sitting``,
                ``pending_seat``, ``not_started``, ``session_over``); the table is unchanged.
            ConnectionLost: the connection ended for good. TimeoutError: no answer within ``seconds``.
        """
        if seq is None:
            if self.view is None:
                raise RuntimeError("no view yet: connect() first")
            seq = self.view.seq
        while True:
            mark = len(self._errors)
            await self.send({"type": "act", "action": action, "seq": seq})
            sent_on = self.connections
            floor = max(seq, self.view.seq if self.view is not None else seq)  # views newer than this answer it

            def answered(floor: int = floor, mark: int = mark, sent_on: int = sent_on) -> bool:
                moved = self.view is not None and self.view.seq > floor
                return moved or len(self._errors) > mark or self._view_connection > sent_on

            await self._wait(answered, seconds)
            if self.view is not None and self.view.seq > floor:
                return self.view  # applied (or the table moved on: a turn timer, a stand-in bot)
            if len(self._errors) == mark:
                log.info("intent %r lost with the connection; sending it again", action)
                continue  # reconnected on the same view: the intent went down with the old socket
            err = self._errors[mark]
            self._errors_seen = max(self._errors_seen, mark + 1)
            if error_code(err) == "rate_limited" and err.get("refusal", {}).get("code") == "rate_limited_act":
                log.info("intent %r dropped over the rate limit; sending it again", action)
                continue
            raise ClientRefused.from_frame(err)


class ConnectionOptions(TypedDict, total=False):
    """The keyword options of :class:`TableClient` about the connection (see there), for the callers
    that pass them on."""

    backoff: tuple[float, float]
    reconnects: int | None
    on_message: Callable[[dict[str, Any]], None] | None
    timeout: float


class ClientOptions(ConnectionOptions, total=False):
    """Every keyword option of :class:`TableClient` (see there)."""

    lang: str
    client: str | None


class SyncTableClient:
    """:class:`TableClient` for scripts: the same methods, blocking, on an event loop of a thread of
    its own. Use it as ``with SyncTableClient(link) as c:`` or call :meth:`close`.

    Raises what :class:`TableClient`'s methods raise.
    """

    def __init__(self, link: str | Invite, **options: Unpack[ClientOptions]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="ramsli-client", daemon=True)
        self._thread.start()
        self.client = TableClient(link, **options)

    def _call(self, coro: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

    @property
    def view(self) -> TableView | None:
        """The latest view, or None."""
        return self.client.view

    def sit(self, name: str) -> dict[str, Any]:
        """See :meth:`TableClient.sit`."""
        return self._call(self.client.sit(name))

    def connect(self) -> TableView:
        """See :meth:`TableClient.connect`."""
        return self._call(self.client.connect())

    def next_view(self, after: int | None = None, seconds: float | None = None) -> TableView:
        """See :meth:`TableClient.next_view`."""
        return self._call(self.client.next_view(after, seconds))

    def act(self, action: str, seq: int | None = None) -> TableView:
        """See :meth:`TableClient.act`."""
        return self._call(self.client.act(action, seq))

    def run(self, coro: Callable[[TableClient], Awaitable[T]]) -> T:
        """Run ``coro(client)`` on the client's loop and return its result."""

        async def go() -> T:
            return await coro(self.client)

        return self._call(go())

    def close(self) -> None:
        """Close the connection and stop the thread."""
        if self._loop.is_running():
            self._call(self.client.close())
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(10)
        self._loop.close()

    def __enter__(self) -> SyncTableClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
