"""Players of ``ramsli serve``: a name that lasts, a password, logins in browsers, CSRF, and the player's own data.

Anyone may play as a guest: nothing here is needed to sit down at a table. A person
may make a **player**: a name (the seat-name rules of R2.2: :func:`~ramsli.session.check_name`,
and no other player's name or a look-alike of it, compared by :func:`ramsli.session.name_key`) and
a password (:data:`PASSWORD_MIN`..:data:`PASSWORD_MAX` characters, kept only as an argon2id hash,
``argon2-cffi``; never logged, never returned).

**Logins.** Logging in sets two cookies: ``ramsli_login`` (HttpOnly, SameSite=Lax, ``Secure`` on
HTTPS; a random token of which the server keeps only a SHA-256, valid :data:`LOGIN_DAYS` days) and
``ramsli_csrf`` (readable by the page: the login's CSRF token). Their ``Path`` is the server's path
prefix (``/ramsli/``, or ``/``), and HTTPS is what the request came over as the trusted proxy says
(:func:`ramsli.server.cluster.proxy.set_cookie`): an ``X-Forwarded-Proto`` from anyone else
counts for nothing. Every state-changing request
(``POST``, ``PUT``, ``PATCH``, ``DELETE``) that carries the login cookie must send that token in the
``X-CSRF-Token`` header, or it is refused (``403 csrf_missing``) before any route runs
(:class:`CsrfGuard`); logging in and making a player take JSON only (``415 json_only``), so a form
on another site cannot log a browser in (the guard matches the route, so under a path prefix
too). A player sees their logins (browser, since, last use) and
ends any of them from any device. Logins are limited per name and address (:data:`NAME_FAILURES`
failed logins in :data:`LIMIT_WINDOW` seconds) and per address (:data:`ADDRESS_ATTEMPTS` attempts),
``429 login_flood`` with the seconds to wait; new players per address likewise (``signup_flood``).
An address is an IPv4 address or an IPv6 /64 network (:func:`address_key`). A stranger failing
logins on purpose locks only their own address out, never the name's owner elsewhere.

**A player's data**: ``GET /api/me/data`` is everything the server keeps about them (no hash, no
token); ``DELETE /api/me`` (with the password) deletes the player: name and hash are removed, every
login and membership ends, and their past seats show as "a former player".

Endpoints (``docs/clubs.md``): ``POST /api/players``, ``POST /api/login``, ``POST /api/logout``,
``GET /api/me``, ``PUT /api/me``, ``POST /api/me/password``, ``GET /api/me/logins``,
``DELETE /api/me/logins/{login}``, ``POST /api/me/logins/end-others``, ``GET /api/me/data``,
``DELETE /api/me``. Every refusal is a record rendered in the request's language.

>>> csrf_of("a-login-token") == csrf_of("a-login-token"), len(csrf_of("x"))
(True, 43)
"""

from __future__ import annotations

import asyncio
import base64
import collections
import hashlib
import hmac
import ipaddress
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError, VerifyMismatchError
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from ramsli.bots.base import bot_names
from ramsli.refusal import N_, Refusal, Refused
from ramsli.server import deps
from ramsli.server.cluster.prefix import current_prefix, route_of
from ramsli.server.cluster.proxy import set_cookie
from ramsli.server.protocol.lang import page_lang, request_lang
from ramsli.server.protocol.messages import error_body
from ramsli.server.storage.directory import Directory, NameTaken
from ramsli.session import check_name, name_key

__all__ = [
    "Accounts",
    "Player",
    "Limiter",
    "CsrfGuard",
    "LoginRefused",
    "install",
    "current_player",
    "require_player",
    "csrf_of",
    "clear_cookies",
    "COOKIE",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "LOGIN_DAYS",
    "PASSWORD_MIN",
    "PASSWORD_MAX",
    "NAME_FAILURES",
    "ADDRESS_ATTEMPTS",
    "SIGNUPS",
    "LIMIT_WINDOW",
    "FORMER_PLAYER",
]

#: the login cookie (HttpOnly)
COOKIE = "ramsli_login"
#: the cookie the page reads its CSRF token from
CSRF_COOKIE = "ramsli_csrf"
#: the header a state-changing request with the login cookie sends the CSRF token in
CSRF_HEADER = "x-csrf-token"
#: days a login lasts
LOGIN_DAYS = 30
#: shortest and longest password, characters
PASSWORD_MIN = 8
PASSWORD_MAX = 256
#: failed logins for one name from one address within :data:`LIMIT_WINDOW` seconds before that
#: address's logins of the name are refused
NAME_FAILURES = 5
#: login attempts from one address within :data:`LIMIT_WINDOW` seconds
ADDRESS_ATTEMPTS = 20
#: new players from one address within :data:`LIMIT_WINDOW` seconds
SIGNUPS = 10
#: the window of the login limits, seconds
LIMIT_WINDOW = 600.0
#: how a deleted player's seat is named in records and season tables (the pages translate it)
FORMER_PLAYER = N_("a former player")

_UNSAFE = frozenset({"POST", "PUT", "PATCH", "DELETE"})
#: routes that make a new login: they replace the cookie, so they need no CSRF token, but JSON only
_LOGIN_PATHS = frozenset({"/api/login", "/api/players"})


class LoginRefused(Refused):
    """A refused login cookie (``login_unknown``, ``login_expired``): the answer also removes the cookies."""


def csrf_of(token: str) -> str:
    """The CSRF token of a login cookie ``token``: an HMAC-SHA-256 of it (URL-safe base64, 43
    characters). Only someone holding the cookie (which the page's JavaScript cannot read) or the
    page the server gave it to knows it."""
    mac = hmac.new(b"ramsli-csrf", token.encode("utf-8", "surrogatepass"), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


@dataclass(frozen=True)
class Player:
    """The logged-in person of a request: ``id``, ``name``, ``listed`` (opted in to the server-wide
    ratings), ``login`` (the id of this browser's login)."""

    id: str
    name: str
    listed: bool
    login: str

    def public(self) -> dict[str, Any]:
        """``{"id", "name", "listed"}``."""
        return {"id": self.id, "name": self.name, "listed": self.listed}


class Limiter:
    """At most ``limit`` events per key within ``window`` seconds (a sliding window, in memory).

    >>> t = [0.0]
    >>> lim = Limiter(2, 10.0, clock=lambda: t[0])
    >>> lim.hit("a"); lim.hit("a"); lim.wait("a"), lim.wait("b")
    (10, 0)
    >>> t[0] = 10.5; lim.wait("a")
    0
    """

    def __init__(self, limit: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.limit = limit
        self.window = window
        self.clock = clock
        self.events: dict[str, collections.deque[float]] = {}

    def _recent(self, key: str) -> collections.deque[float]:
        now = self.clock()
        q = self.events.get(key)
        if q is None:
            return collections.deque()
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self.events[key]
        return q

    def wait(self, key: str) -> int:
        """Whole seconds until ``key`` may act again (0: now)."""
        q = self._recent(key)
        if len(q) < self.limit:
            return 0
        return max(1, int(q[0] + self.window - self.clock() + 0.999))

    def hit(self, key: str) -> None:
        """Count one event of ``key``."""
        if len(self.events) > 50_000:  # forget keys with nothing recent, so memory stays bounded
            for k in list(self.events):
                self._recent(k)
        self.events.setdefault(key, collections.deque()).append(self.clock())


def address_key(address: str) -> str:
    """The key of a client's address for the limits: an IPv4 address as it is, an IPv6 address as
    its /64 network (one subscriber's share: whoever has one address there has them all), an
    IPv4-mapped IPv6 address as its IPv4 address; anything else (a test client's name) as it is.

    >>> address_key("203.0.113.7"), address_key("2001:db8:1:2:a::1"), address_key("::ffff:192.0.2.1")
    ('203.0.113.7', '2001:db8:1:2::/64', '192.0.2.1')
    """
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Accounts:
    """Players and logins of one server process, on the :class:`~ramsli.server.storage.directory.Directory`.

    Attributes:
        directory: where players and logins are kept.
        hasher: the argon2id :class:`argon2.PasswordHasher` (argon2-cffi's defaults, RFC 9106's
            second recommendation: 3 passes over 64 MiB, 4 lanes); tests may set a cheaper one.
        names, addresses, signups: the :class:`Limiter` of failed logins per name and address, of
            login attempts per address and of new players per address (addresses by
            :func:`address_key`).
        clock: seconds since the epoch (logins' times and expiry).
    """

    def __init__(self, directory: Directory, clock: Callable[[], float] = time.time) -> None:
        self.directory = directory
        self.hasher = PasswordHasher()
        self.names = Limiter(NAME_FAILURES, LIMIT_WINDOW)
        self.addresses = Limiter(ADDRESS_ATTEMPTS, LIMIT_WINDOW)
        self.signups = Limiter(SIGNUPS, LIMIT_WINDOW)
        self.clock = clock
        self._dummy: str | None = None
        self._hashing = asyncio.Semaphore(2)  # argon2id takes 64 MiB a hash: two at a time

    async def _hash(self, password: str) -> str:
        async with self._hashing:
            return await asyncio.to_thread(self.hasher.hash, password)

    async def _verify(self, stored: str, password: str) -> bool:
        async with self._hashing:
            try:
                return await asyncio.to_thread(self.hasher.verify, stored, password)
            except (VerifyMismatchError, VerificationError, InvalidHashError):
                return False

    @staticmethod
    def check_password(password: str) -> None:
        """Refuse a password shorter than :data:`PASSWORD_MIN` or longer than :data:`PASSWORD_MAX`
        characters (``password_short``, ``password_long``)."""
        if len(password) < PASSWORD_MIN:
            raise Refused(Refusal("password_short", None, {"min": PASSWORD_MIN}))
        if len(password) > PASSWORD_MAX:
            raise Refused(Refusal("password_long", None, {"max": PASSWORD_MAX}))

    async def register(self, name: str, password: str, address: str, listed: bool = False) -> dict[str, Any]:
        """A new player (see the module's notes); returns its row.

        Raises:
            Refused: ``bad_name``, ``bot_name`` (R2.2), ``player_name_taken`` (the same name or a
                look-alike, R2.2), ``password_short``, ``password_long``, ``signup_flood``.
        """
        name = check_name(name, bot_names())
        self.check_password(password)
        address = address_key(address)
        wait = self.signups.wait(address)
        if wait:
            raise Refused(Refusal("signup_flood", None, {"seconds": wait}))
        key = name_key(name)
        if await self.directory.player_by_key(key) is not None:
            raise Refused(Refusal("player_name_taken", "R2.2", {"name": name}))
        hashed = await self._hash(password)
        try:
            row = await self.directory.create_player(name, key, hashed, self.clock())
        except NameTaken:
            raise Refused(Refusal("player_name_taken", "R2.2", {"name": name})) from None
        self.signups.hit(address)
        if listed:
            await self.directory.update_player(row["id"], listed=True)
            row["listed"] = True
        return row

    async def _check(self, name: str, password: str, address: str) -> dict[str, Any] | None:
        """The player ``name`` if ``password`` is theirs, else None. An unknown name costs what a
        wrong password costs (one argon2id verification, of a dummy hash) and counts against the
        limits as one, so neither the answer, nor its time, nor a flood tells whether a name is a
        player's.

        Raises:
            Refused: ``password_long`` (no password is longer than :data:`PASSWORD_MAX`: refused
                before anything is counted or hashed); ``login_flood`` (too many attempts from
                ``address``, or failures for the name from ``address``).
        """
        if len(password) > PASSWORD_MAX:
            raise Refused(Refusal("password_long", None, {"max": PASSWORD_MAX}))
        key = name_key(name) if isinstance(name, str) else ""
        address = address_key(address)
        pair = f"{key}\x00{address}"  # the name's failures from this address only: no lock-out of the owner
        wait = max(self.addresses.wait(address), self.names.wait(pair))
        if wait:
            raise Refused(Refusal("login_flood", None, {"seconds": wait}))
        self.addresses.hit(address)
        if self._dummy is None:  # made at the first attempt whatever the name: its cost tells nothing
            self._dummy = await self._hash(secrets.token_urlsafe(16))
        row = await self.directory.player_by_key(key) if key else None
        ok = await self._verify(row["password"] if row is not None else self._dummy, password)
        if row is None or not ok:
            self.names.hit(pair)
            return None
        if self.hasher.check_needs_rehash(row["password"]):
            await self.directory.update_player(row["id"], password=await self._hash(password))
        return row

    async def authenticate(self, name: str, password: str, address: str) -> dict[str, Any]:
        """The player ``name`` if ``password`` is theirs (logging in).

        Raises:
            Refused: ``login_flood`` (too many attempts from ``address``, or failures for the name
                from it);
                ``login_failed`` (401) alike for an unknown name and a wrong password.
        """
        row = await self._check(name, password, address)
        if row is None:
            raise Refused(Refusal("login_failed"))
        return row

    async def confirm(self, player: Player, password: str, address: str) -> None:
        """Check a logged-in player's own password (changing it, deleting the player).

        Raises:
            Refused: ``login_flood`` as :meth:`authenticate`; ``wrong_password`` (401).
        """
        if await self._check(player.name, password, address) is None:
            raise Refused(Refusal("wrong_password", None, {"name": player.name}))

    async def start_login(self, player_id: str, agent: str) -> tuple[str, str]:
        """A new login of ``player_id``; returns ``(cookie token, login id)``."""
        token = secrets.token_urlsafe(32)
        now = self.clock()
        lid = await self.directory.create_login(player_id, token, agent, now, now + LOGIN_DAYS * 86400.0)
        return token, lid

    async def player_of(self, token: str) -> Player:
        """The player of the login cookie ``token``.

        Raises:
            LoginRefused: ``login_unknown`` (no such login, or its player is gone), ``login_expired``.
        """
        login = await self.directory.login(token)
        if login is None:
            raise LoginRefused(Refusal("login_unknown"))
        now = self.clock()
        if login["expires"] <= now:
            await self.directory.end_logins(login["player_id"], [login["id"]])
            raise LoginRefused(Refusal("login_expired"))
        row = await self.directory.player(login["player_id"])
        if row is None or row["deleted"] is not None or row["name"] is None:
            raise LoginRefused(Refusal("login_unknown"))
        if now - login["last_seen"] > 60.0:
            await self.directory.touch_login(login["id"], now)
        return Player(row["id"], row["name"], bool(row["listed"]), login["id"])


def _accounts(request: Request) -> Accounts:
    accounts = deps.accounts(request)
    return accounts


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


async def current_player(request: Request) -> Player | None:
    """The logged-in player of ``request``, or None for a guest (no login cookie).

    Raises:
        LoginRefused: a login cookie that is unknown (forged, ended) or expired.
    """
    token = request.cookies.get(COOKIE)
    if not token:
        return None
    return await _accounts(request).player_of(token)


async def require_player(request: Request) -> Player:
    """The logged-in player of ``request``.

    Raises:
        Refused: ``not_logged_in``; LoginRefused: as :func:`current_player`.
    """
    player = await current_player(request)
    if player is None:
        raise Refused(Refusal("not_logged_in"))
    return player


def _me(player: Player | dict[str, Any]) -> dict[str, Any]:
    if isinstance(player, Player):
        return player.public()
    return {"id": player["id"], "name": player["name"], "listed": bool(player["listed"])}


def _logged_in(request: Request, row: dict[str, Any], token: str, status: int = 200) -> JSONResponse:
    """The answer of a new login: ``{"player", "csrf"}`` with the two cookies set."""
    csrf = csrf_of(token)
    response = JSONResponse({"player": _me(row), "csrf": csrf}, status_code=status)
    age = LOGIN_DAYS * 86400
    _clear_root_cookies(response)
    set_cookie(response, request, COOKIE, token, max_age=age)
    set_cookie(response, request, CSRF_COOKIE, csrf, max_age=age, http_only=False)
    return response


def clear_cookies(response: Response) -> None:
    """Remove the login and CSRF cookies from the browser (their ``Path`` is the server's path
    prefix, :func:`~ramsli.server.cluster.proxy.set_cookie`; under a prefix the ones an older
    server set with ``Path=/`` go too)."""
    path = current_prefix() + "/"
    response.delete_cookie(COOKIE, path=path)
    response.delete_cookie(CSRF_COOKIE, path=path)
    _clear_root_cookies(response)


def _clear_root_cookies(response: Response) -> None:
    """Under a path prefix, remove the login and CSRF cookies an older server set with ``Path=/``
    (issue 37.3): the browser would send them beside the prefix's own, and the server could read
    the stale one."""
    if current_prefix():
        response.delete_cookie(COOKIE, path="/")
        response.delete_cookie(CSRF_COOKIE, path="/")


# -- CSRF ---------------------------------------------------------------------------------------


class CsrfGuard:
    """ASGI middleware: a state-changing HTTP request that carries the login cookie must carry its
    CSRF token (:func:`csrf_of`) in ``X-CSRF-Token`` (``403 csrf_missing``); ``POST /api/login`` and
    ``POST /api/players`` need no token but must be JSON (``415 json_only``). Refused before any
    route runs, so nothing changes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] in _UNSAFE:
            refusal = self.check(scope)
            if refusal is not None:
                headers = Headers(scope=scope)
                query = dict(
                    part.split("=", 1) for part in scope.get("query_string", b"").decode().split("&") if "=" in part
                )
                lang = page_lang(query.get("lang"), headers.get("accept-language"))
                status, body = error_body(Refused(refusal), lang)
                await JSONResponse(body, status_code=status)(scope, receive, send)
                return
        await self.app(scope, receive, send)

    @staticmethod
    def check(scope: Scope) -> Refusal | None:
        """The refusal of a state-changing request ``scope``, or None if it may go on."""
        headers = Headers(scope=scope)
        if route_of(scope) in _LOGIN_PATHS:  # the route, not the raw path: under a prefix too (38.3)
            kind = headers.get("content-type", "").split(";")[0].strip().lower()
            return None if kind == "application/json" else Refusal("json_only")
        token = _cookie(headers.get("cookie", ""), COOKIE)
        if token is None:
            return None
        sent = headers.get(CSRF_HEADER, "")
        if not sent or not secrets.compare_digest(sent.encode(), csrf_of(token).encode()):
            return Refusal("csrf_missing")
        return None


def _cookie(header: str, name: str) -> str | None:
    for part in header.split(";"):
        k, eq, v = part.strip().partition("=")
        if eq and k == name and v:
            return v.strip('"')
    return None


def install(app: FastAPI) -> None:
    """Add the accounts to ``app``: the CSRF guard and the answer to a refused login cookie (it
    also removes the cookies); the routes are :mod:`ramsli.server.players.routes`."""
    app.add_middleware(CsrfGuard)

    @app.exception_handler(LoginRefused)
    async def _login_refused(request: Request, e: LoginRefused) -> JSONResponse:
        status, body = error_body(e, request_lang(request))
        response = JSONResponse(body, status_code=status)
        clear_cookies(response)
        return response
