"""The server in-process for the players', clubs' and open tables' tests (docs/clubs.md).

:class:`World` runs the real app (its start-up and shutdown) on a database and drives it over ASGI
with one :class:`Client` per browser (each keeps its own cookies); nothing listens on a socket.
Passwords are hashed with a cheap argon2id (:data:`CHEAP`) so that the tests stay fast; the
server's own setting is argon2-cffi's default.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
from argon2 import PasswordHasher

from helpers import scaled

#: a fast argon2id for tests (the server's default takes 64 MiB and most of a second)
CHEAP = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
#: the admin token of a :class:`World`
ADMIN = "the-admin-token-of-the-tests"
#: a fast club table: the players' seats are played by a bot at once when they are away
FAST = {"bot_pace_seconds": 0, "hand_pause_seconds": 0, "grace_seconds": 0}


class Client:
    """One browser: its own cookies, the CSRF header sent with every state-changing request."""

    def __init__(self, app: Any, lang: str = "en", address: str = "127.0.0.1") -> None:
        self.http = httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app, client=(address, 123)),
            base_url="http://127.0.0.1",
            headers={"Accept-Language": lang},
        )

    @property
    def csrf(self) -> str:
        return self.http.cookies.get("ramsli_csrf") or ""

    async def call(self, method: str, path: str, body: Any = None, csrf: bool = True, **kw: Any) -> tuple[int, Any]:
        """``(status, JSON answer or text)``; ``csrf`` False leaves the CSRF header out."""
        headers = dict(kw.pop("headers", {}))
        if csrf and self.csrf and method != "GET":
            headers["X-CSRF-Token"] = self.csrf
        r = await self.http.request(method, path, json=body, headers=headers, **kw)
        try:
            return r.status_code, r.json()
        except ValueError:
            return r.status_code, r.text

    async def ok(self, method: str, path: str, body: Any = None) -> Any:
        status, answer = await self.call(method, path, body)
        assert status < 400, (method, path, status, answer)
        return answer

    async def register(self, name: str, password: str = "a good password", listed: bool = False) -> dict[str, Any]:
        status, answer = await self.call("POST", "/api/players", {"name": name, "password": password, "listed": listed})
        assert status == 201, answer
        return answer["player"]


class World:
    """The app on ``url`` (started and stopped as ``ramsli serve`` does), with clients."""

    def __init__(self, url: str, **app_options: Any) -> None:
        self.url = url
        self.app_options = app_options  # more options of create_app (path_prefix, trusted_proxies)
        self.clients: list[Client] = []

    async def __aenter__(self) -> World:
        from ramsli.server.app import create_app

        self.app = create_app(self.url, allow_test_seeds=True, admin_token=ADMIN, **self.app_options)
        self._life = self.app.router.lifespan_context(self.app)
        await self._life.__aenter__()
        self.app.state.accounts.hasher = CHEAP
        return self

    async def __aexit__(self, *exc: Any) -> None:
        for c in self.clients:
            await c.http.aclose()
        await self._life.__aexit__(None, None, None)

    def client(self, lang: str = "en", address: str = "127.0.0.1") -> Client:
        """A new browser, asking for ``lang``, from the client address ``address``."""
        c = Client(self.app, lang, address)
        self.clients.append(c)
        return c

    @property
    def hub(self) -> Any:
        return self.app.state.hub

    @property
    def directory(self) -> Any:
        return self.app.state.clubs.directory

    async def finish(self, table_id: str, timeout: float = scaled(60.0)) -> None:
        """Wait until table ``table_id``'s session is over and its record stored."""
        deadline = time.monotonic() + timeout
        while str(self.hub.tables[table_id].status) != "over":
            assert time.monotonic() < deadline, f"table {table_id} did not finish"
            await asyncio.sleep(0.02)
        await self.app.state.clubs.settle()

    async def club_table(self, creator: Client, club: str | None, seats: list[dict], **opts: Any) -> dict[str, Any]:
        """A table made by ``creator`` (a club's when ``club``), test-seeded, fast."""
        body = {
            "rules": opts.pop("rules", ["end=hands:2"]),
            "seats": seats,
            "seed": opts.pop("seed", 5),
            **FAST,
            **opts,
        }
        if club is not None:
            body["club"] = club
        status, made = await creator.call("POST", "/api/tables", body)
        assert status == 201, made
        return made


async def club_of_two(w: World) -> tuple[Client, Client, str]:
    """Ann (the owner) and Bo (a member) of the club "Zur Linde": their clients and the club's id."""
    ann, bo = w.client(), w.client()
    await ann.register("Ann")
    await bo.register("Bo")
    club = (await ann.ok("POST", "/api/clubs", {"name": "Zur Linde"}))["club"]["id"]
    invite = await ann.ok("POST", f"/api/clubs/{club}/invites")
    await bo.ok("POST", "/api/clubs/join", {"token": invite["token"]})
    return ann, bo, club
