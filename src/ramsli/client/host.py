"""A table-protocol host for one seat of hands played elsewhere: the arena's remote entrant.

:class:`SeatHost` serves the few endpoints of ``docs/protocol.md`` a client of one seat needs
(``POST /api/tables/{table}/sit``, ``WS /ws/{table}``: ``hello``, ``welcome``, ``view``, ``act``,
``ping``, ``error``) on 127.0.0.1 or any address, in a thread of its own (uvicorn). A program
anywhere joins with the host's invite link, for instance ``ramsli bot LINK --bot NAME``, exactly as
it would join a ``ramsli serve`` table. :class:`RemoteEntrant` is an arena entrant
(:class:`ramsli.analysis.arena.Entrant`) whose every decision is asked of that program: the arena
deals and plays the hands, and sends the seat its view, built from the seat's
:class:`~ramsli.hand.Observation` alone (:func:`~ramsli.client.observation.view_from_observation`,
R7). A decision the program does not answer within ``decision_seconds`` (or answers with an
action that is not legal, refused as ``illegal`` and retried by the client) raises
:class:`TimeoutError` in the arena, whose guard plays the ``tips`` move and counts a fault.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
import threading
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from ramsli.client.observation import view_from_observation
from ramsli.hand import Action, Observation
from ramsli.server.protocol.closecodes import CloseCode

__all__ = ["SeatHost", "RemoteEntrant", "RemoteSeatBot"]

T = TypeVar("T")


def _error(code: str, message: str, seq: int | None = None, rule: str | None = None) -> dict[str, Any]:
    record: dict[str, Any] = {"code": code, "rule": rule, "fields": {}}
    return {"type": "error", "error": code, **record, "message": message, "refusal": record, "seq": seq}


class SeatHost:
    """One seat, hosted for a client of the table protocol (see the module text).

    Args:
        host, port: where to listen (port 0: a free port, see :attr:`link`).
        table: the table id in the links.
        decision_seconds: how long :meth:`decide` waits for the client's action.

    Attributes:
        name: the name the client sat down with, or None. decisions: actions it answered.
    """

    def __init__(
        self, host: str = "127.0.0.1", port: int = 0, table: str = "arena", decision_seconds: float = 300.0
    ) -> None:
        self.host = host
        self.port = port
        self.table = table
        self.decision_seconds = decision_seconds
        self.invite = secrets.token_urlsafe(18)
        self.personal = secrets.token_urlsafe(18)
        self.name: str | None = None
        self.decisions = 0
        self.seq = 0
        self._view: dict[str, Any] = self._waiting_view()
        self._pending: tuple[int, Observation, asyncio.Future[Action]] | None = None
        self._conn: WebSocket | None = None
        self._connected: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server: uvicorn.Server | None = None
        self._thread: threading.Thread | None = None
        app = Starlette(
            routes=[
                Route("/api/tables/{table}/sit", self._sit, methods=["POST"]),
                WebSocketRoute("/ws/{table}", self._ws),
            ]
        )
        self._app = app

    # -- the host's side --------------------------------------------------------------------------

    @property
    def link(self) -> str:
        """The seat's invite link (``http://HOST:PORT/t/TABLE/s/TOKEN``)."""
        return f"http://{self.host}:{self.port}/t/{self.table}/s/{self.invite}"

    def start(self, seconds: float = 30.0) -> SeatHost:
        """Start serving in a thread; returns when it listens (RuntimeError if not within ``seconds``)."""
        config = uvicorn.Config(self._app, host=self.host, port=self.port, log_level="warning", lifespan="off")
        server = uvicorn.Server(config)
        self._server = server
        started = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            self._connected = asyncio.Event()

            async def serve() -> None:
                task = loop.create_task(server.serve())
                for _ in range(int(seconds / 0.02)):
                    if server.started or task.done():
                        break
                    await asyncio.sleep(0.02)
                if server.started:
                    self.port = server.servers[0].sockets[0].getsockname()[1]
                started.set()
                await task

            loop.run_until_complete(serve())
            loop.close()

        self._thread = threading.Thread(target=run, name="ramsli-seat-host", daemon=True)
        self._thread.start()
        if not started.wait(seconds) or not server.started:
            raise RuntimeError(f"the seat host did not start on {self.host}:{self.port}")
        return self

    def _call(self, coro: Coroutine[Any, Any, T], seconds: float | None) -> T:
        assert self._loop is not None, "start() first"
        return asyncio.run_coroutine_threadsafe(coro, self._loop).result(seconds)

    def wait_for_client(self, seconds: float | None = None) -> bool:
        """Block until a client is connected; False after ``seconds``."""

        async def wait() -> bool:
            assert self._connected is not None
            try:
                await asyncio.wait_for(self._connected.wait(), seconds)
            except TimeoutError:
                return False
            return True

        return bool(self._call(wait(), None))

    def decide(self, obs: Observation, number: int) -> Action:
        """Send the seat its view of ``obs`` (hand ``number``) and block until the client answers
        with one of ``obs.legal``.

        Raises:
            TimeoutError: no answer within ``decision_seconds``.
        """
        return self._call(self._decide(obs, number), None)

    def finish(self, standings: list[dict[str, Any]], reason: str = "arena") -> None:
        """Tell the client the session is over (a last view, ``status: over``, with ``standings``)."""

        async def over() -> None:
            self.seq += 1
            view = dict(self._view, seq=self.seq, status="over", legal=[], standings=standings, end_reason=reason)
            await self._send(view)

        if self._loop is not None:
            self._call(over(), 10)

    def stop(self) -> None:
        """Close the connection and stop serving."""
        if self._server is not None:
            self._server.should_exit = True
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> SeatHost:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- the protocol -----------------------------------------------------------------------------

    def _waiting_view(self) -> dict[str, Any]:
        return {
            "type": "view",
            "table": self.table,
            "seq": self.seq,
            "you": {"role": "seat", "seat": "p1", "pending": False},
            "status": "waiting",
            "seats": [],
            "hand": None,
            "to_act": None,
            "your_cards": [],
            "legal": [],
            "results": [],
            "standings": None,
            "end_reason": None,
        }

    async def _send(self, msg: dict[str, Any]) -> None:
        self._view = msg if msg.get("type") == "view" else self._view
        conn = self._conn
        if conn is not None:
            with contextlib.suppress(Exception):
                await conn.send_text(json.dumps(msg))

    async def _decide(self, obs: Observation, number: int) -> Action:
        fut: asyncio.Future[Action] = asyncio.get_running_loop().create_future()
        self.seq += 1
        self._pending = (self.seq, obs, fut)
        await self._send(view_from_observation(obs, table=self.table, seq=self.seq, number=number))
        try:
            action = await asyncio.wait_for(fut, self.decision_seconds)
        finally:
            self._pending = None
        self.decisions += 1
        self.seq += 1
        view = view_from_observation(obs, table=self.table, seq=self.seq, number=number)
        view["legal"] = []  # answered: the arena plays it on
        await self._send(view)
        return action

    async def _sit(self, request: Request) -> JSONResponse:
        try:
            body = json.loads(await request.body())
            token, name = body["token"], body["name"]
        except (ValueError, KeyError, TypeError):
            return JSONResponse(
                {"error": "bad_message", "code": "bad_message", "fields": {}, "message": "bad body"}, 422
            )
        if token not in (self.invite, self.personal) or not isinstance(name, str) or not name.strip():
            return JSONResponse({"error": "bad_token", "code": "bad_token", "fields": {}, "message": "bad token"}, 403)
        self.name = name.strip()[:24]
        return JSONResponse({"seat": "p1", "pending": False, "token": self.personal})

    async def _ws(self, ws: WebSocket) -> None:
        await ws.accept()
        try:
            hello = json.loads(await asyncio.wait_for(ws.receive_text(), 10))
            if not isinstance(hello, dict) or hello.get("type") != "hello" or hello.get("token") != self.personal:
                await ws.send_text(json.dumps(_error("bad_token", "this token owns no seat here")))
                await ws.close(CloseCode.BAD_TOKEN)
                return
            old, self._conn = self._conn, ws
            if old is not None:
                with contextlib.suppress(Exception):
                    await old.send_text(json.dumps(_error("replaced", "a newer connection took this seat")))
                    await old.close(CloseCode.REPLACED)
            view = self._view
            seat = view["you"]["seat"]
            await ws.send_text(
                json.dumps({"type": "welcome", "table": self.table, "role": "seat", "seat": seat, "protocol": 2})
            )
            await ws.send_text(json.dumps(view))
            assert self._connected is not None
            self._connected.set()
            while True:
                await self._message(ws, await ws.receive_text())
        except (WebSocketDisconnect, TimeoutError, ValueError):
            pass
        finally:
            if self._conn is ws:
                self._conn = None

    async def _message(self, ws: WebSocket, raw: str) -> None:
        try:
            msg = json.loads(raw)
            kind = msg["type"]
        except (ValueError, KeyError, TypeError):
            await ws.send_text(json.dumps(_error("bad_json", "not a JSON object with a type")))
            return
        if kind == "ping":
            await ws.send_text(json.dumps({"type": "pong"}))
            return
        if kind != "act" or not isinstance(msg.get("action"), str) or type(msg.get("seq")) is not int:
            await ws.send_text(json.dumps(_error("bad_message", "expected an act with action and seq")))
            return
        pending = self._pending
        if pending is None or msg["seq"] != pending[0]:
            await ws.send_text(json.dumps(_error("stale_seq", "not the current view", self.seq)))
            return
        seq, obs, fut = pending
        try:
            action = Action.parse(msg["action"], len(obs.stacks))
        except ValueError:
            await ws.send_text(json.dumps(_error("bad_action", "not an action", seq, "R4.12")))
            return
        if action not in obs.legal:
            await ws.send_text(json.dumps(_error("illegal", "not a legal action here", seq, "R4.12")))
            return
        if not fut.done():
            fut.set_result(action)


class RemoteSeatBot:
    """The arena's player of a :class:`RemoteEntrant` for one hand: every decision is asked of the
    client at the :class:`SeatHost`."""

    def __init__(self, host: SeatHost, number: int) -> None:
        self.host = host
        self.number = number
        self.name = "remote"

    def act(self, obs: Observation) -> Action:
        """The client's action for ``obs`` (TimeoutError if it does not answer in time)."""
        return self.host.decide(obs, self.number)


@dataclass
class RemoteEntrant:
    """An arena entrant played by a program that joined a :class:`SeatHost` (``ramsli bot LINK``).

    Not portable: the arena keeps its matches in this process (``jobs=1``, no scheduler).
    """

    label: str
    host: SeatHost
    portable: ClassVar[bool] = False
    hands: int = 0

    @property
    def spec(self) -> str:
        """``remote:NAME``, the name the client sat down with."""
        return f"remote:{self.host.name or '?'}"

    def bot(self, seed: int) -> RemoteSeatBot:
        """The player of the next hand (``seed`` is the client's business, not used here)."""
        self.hands += 1
        return RemoteSeatBot(self.host, self.hands)

    def __repr__(self) -> str:
        return f"RemoteEntrant({self.label!r}, {self.host.link!r})"
