"""Shared helpers for the engine tests (RULES.md R1-R8).

Positions are built by hand with :func:`make_hand` (``Hand.from_cards``) and
played with :func:`play` from action strings, so that every expected number in
a test can be worked out from RULES.md with pencil and paper.

The invariant checks (R3.4 conservation, every card in one place, a legal
action always exists, R7 hidden cards) live in :mod:`ramsli.testing` so that
the soak script ``bench/soak.py`` and the property tests check exactly the
same things; no test imports from ``bench/``.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest

from ramsli.cards import Card, parse_cards
from ramsli.hand import Hand
from ramsli.rules import Rules

ROOT = Path(__file__).resolve().parent.parent


def cards(text: str) -> list[Card]:
    """``"AS KS 9H"`` -> list of cards (R1.6)."""
    return parse_cards(text)


def make_hand(
    rules: Rules,
    deal: Mapping[str, str],
    turn_up: str,
    dealer: str = "p1",
    stacks: Iterable[int] | None = None,
    pot: int = 0,
    aside: str = "",
    seated: Iterable[int] | None = None,
) -> Hand:
    """A hand with the given cards (``{"p1": "AC KC QC JC TC", ...}``) via ``Hand.from_cards``.

    The number of seats is the highest ``pN`` named in ``deal`` (or ``len(stacks)``);
    seats not named get no cards. Stacks default to 20 each (D-5), before the ante.
    """
    stacks = list(stacks) if stacks is not None else None
    n = max(int(k[1:]) for k in deal)
    if stacks is not None:
        n = max(n, len(stacks))
    else:
        stacks = [20] * n
    hands = [cards(deal.get(f"p{i + 1}", "")) for i in range(n)]
    return Hand.from_cards(
        rules, stacks, int(dealer[1:]) - 1, hands, Card.parse(turn_up), cards(aside), pot=pot, seated=seated
    )


def play(hand: Hand, actions: str) -> Hand:
    """Apply actions given as text separated by ``;`` or newlines, e.g. ``"p2 in; p3 out"``."""
    for a in actions.replace("\n", ";").split(";"):
        a = a.strip()
        if a:
            hand.apply(a)
    return hand


def strs(items) -> list[str]:
    """``[str(x) for x in items]``."""
    return [str(x) for x in items]


# --- standard deals (3 seats, dealer p1, so the order is p2, p3, p1; trump ♥ by 7H) -------------

#: p2 holds five spades and takes every trick; nobody holds a heart (trump).
SWEEP = {"p2": "AS KS QS JS TS", "p3": "AD KD QD JD TD", "p1": "AC KC QC JC TC"}
#: the five tricks of SWEEP, p2 leading every trick.
SWEEP_PLAY = """
p2 pl AS; p3 pl TD; p1 pl TC
p2 pl KS; p3 pl JD; p1 pl JC
p2 pl QS; p3 pl QD; p1 pl QC
p2 pl JS; p3 pl KD; p1 pl KC
p2 pl TS; p3 pl AD; p1 pl AC
"""

#: a deal that ends 2-2-1 in tricks: p2 2, p3 2, p1 1 (trump ♥, nobody holds a heart).
TIE = {"p2": "AS KS 7C 8C 9C", "p3": "7S 9S AC AD 8D", "p1": "8S TS KC 7D KD"}
TIE_PLAY = """
p2 pl AS; p3 pl 7S; p1 pl 8S
p2 pl KS; p3 pl 9S; p1 pl TS
p2 pl 7C; p3 pl AC; p1 pl KC
p3 pl AD; p1 pl 7D; p2 pl 8C
p3 pl 8D; p1 pl KD; p2 pl 9C
"""


@pytest.fixture
def traditional() -> Rules:
    return Rules.preset("traditional")


# --- the table server (issue 10) ----------------------------------------------------------------

POSTGRES_ENV = "RAMSLI_TEST_POSTGRES_URL"


def _postgres_base() -> str:
    """The PostgreSQL URL of the test cluster; skip locally without it, fail under CI=true."""
    import os

    base = os.environ.get(POSTGRES_ENV)
    if not base:
        if os.environ.get("CI") == "true":
            pytest.fail(
                f"{POSTGRES_ENV} is not set but CI=true: the storage tests must run on PostgreSQL "
                "(.ci/run starts a throwaway cluster and sets it)"
            )
        pytest.skip(
            f"PostgreSQL storage tests need {POSTGRES_ENV}, e.g. "
            "postgresql+asyncpg://postgres@127.0.0.1:55432/postgres (.ci/run sets it)"
        )
    return base


def _pg_admin(base: str, sql: str) -> None:
    import asyncio

    import asyncpg

    dsn = base.replace("postgresql+asyncpg://", "postgresql://", 1)

    async def run():
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty server database: an SQLite file, or a new database on the PostgreSQL test cluster."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}"
        return
    import secrets

    base = _postgres_base()
    name = "ramsli_test_" + secrets.token_hex(6)
    _pg_admin(base, f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    _pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def sqlite_url(tmp_path):
    """A fresh SQLite server database file."""
    return f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}"


#: a card in the text notation of R1.6 as the server writes it (``TH``, ``X1`` for a joker)
_CARD_TOKEN = __import__("re").compile(r"^(?:[2-9TJQKA][SHDC]|X[12])$")
#: keys no server message may hold (R7, D-16)
FORBIDDEN_KEYS = {"deck", "cut", "stock", "seed", "rng", "rng_state", "dealt", "hands"}


def cards_in(msg) -> set[str]:
    """Every card named anywhere in a JSON message (also inside action texts like ``p2 pl AS``)."""
    found: set[str] = set()

    def walk(x):
        if isinstance(x, dict):
            for k, v in x.items():
                walk(k)
                walk(v)
        elif isinstance(x, (list, tuple)):
            for v in x:
                walk(v)
        elif isinstance(x, str):
            for tok in x.replace("[", " ").replace("]", " ").replace(",", " ").replace('"', " ").split():
                if _CARD_TOKEN.match(tok):
                    found.add(tok)

    walk(msg)
    return found


def keys_in(msg) -> set[str]:
    """Every key of every object in a JSON message."""
    out: set[str] = set()
    if isinstance(msg, dict):
        for k, v in msg.items():
            out.add(k)
            out |= keys_in(v)
    elif isinstance(msg, list):
        for v in msg:
            out |= keys_in(v)
    return out


def known_cards(hand, seat) -> set[str]:
    """The cards ``seat`` (None: a spectator) may know of ``hand`` (R7): the turn-up, jokers turned
    aside, every card played so far, and its own dealt cards."""
    known = {str(hand.turn_up)} | {str(c) for c in hand.turned_aside}
    known |= {str(a.card) for a in hand.history if a.kind == "pl"}
    if seat is not None:
        known |= {str(c) for c in hand.dealt[seat] if c is not None}
    return known


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ServerProcess:
    """A real ``ramsli serve`` process on 127.0.0.1 (a free port) for the end-to-end tests."""

    def __init__(self, database: str, log_dir: Path) -> None:
        self.database = database
        self.port = free_port()
        self.log_dir = log_dir
        self.proc = None
        self.starts = 0

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30.0) -> ServerProcess:
        import os
        import subprocess
        import time
        import urllib.request

        env = dict(os.environ)
        env["PYTHONPATH"] = str(ROOT / "src") + os.pathsep + env.get("PYTHONPATH", "")
        self.starts += 1
        log = open(self.log_dir / f"server-{self.starts}.log", "wb")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                "from ramsli.cli import main; main()",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--database",
                self.database,
                "--allow-test-seeds",
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"server exited with {self.proc.returncode}: "
                    + (self.log_dir / f"server-{self.starts}.log").read_text()[-2000:]
                )
            try:
                with urllib.request.urlopen(self.http + "/api/tables", timeout=1) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        raise RuntimeError("server did not answer in time")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except Exception:  # noqa: BLE001
                self.proc.kill()
                self.proc.wait(10)


@pytest.fixture
def server_factory(tmp_path):
    """``server_factory(database_url)`` -> a started :class:`ServerProcess`; all are stopped afterwards."""
    made: list[ServerProcess] = []

    def make(database: str) -> ServerProcess:
        sp = ServerProcess(database, tmp_path)
        made.append(sp)
        return sp.start()

    yield make
    for sp in made:
        sp.stop()


class WSPlayer:
    """A WebSocket client of one seat (or a spectator) that reconnects by itself, as a browser would.

    ``views`` holds every view received, ``errors`` every error; :meth:`act` sends an intent on the
    latest view.
    """

    def __init__(self, base_ws: str, table: str, token: str, lang: str = "en") -> None:
        self.url = f"{base_ws}/ws/{table}"
        self.token = token
        self.lang = lang
        self.views: list[dict] = []
        self.errors: list[dict] = []
        self.messages: list[dict] = []
        self.welcomes = 0
        self.ws = None
        self.task = None
        self.stopped = False

    @property
    def view(self) -> dict | None:
        return self.views[-1] if self.views else None

    async def start(self) -> WSPlayer:
        import asyncio

        self.task = asyncio.get_running_loop().create_task(self._run())
        await self.wait(lambda: self.view is not None)
        return self

    async def _run(self) -> None:
        import asyncio
        import json

        import websockets

        delay = 0.1
        while not self.stopped:
            try:
                async with websockets.connect(self.url, open_timeout=5) as ws:
                    self.ws = ws
                    await ws.send(json.dumps({"type": "hello", "token": self.token, "lang": self.lang}))
                    delay = 0.1
                    async for raw in ws:
                        msg = json.loads(raw)
                        self.messages.append(msg)
                        if msg["type"] == "view":
                            self.views.append(msg)
                        elif msg["type"] == "error":
                            self.errors.append(msg)
                        elif msg["type"] == "welcome":
                            self.welcomes += 1
            except (TimeoutError, OSError, websockets.exceptions.WebSocketException):
                pass
            self.ws = None
            if self.stopped:
                return
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.5)

    async def wait(self, pred, timeout: float = 30.0) -> None:
        import asyncio
        import time

        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last view: {self.view}")
            await asyncio.sleep(0.02)

    async def send(self, msg) -> None:
        import json

        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def act(self, action: str, seq: int | None = None) -> None:
        await self.send({"type": "act", "action": action, "seq": self.view["seq"] if seq is None else seq})

    async def close(self) -> None:
        self.stopped = True
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            self.task.cancel()


# -- a real Chromium for the browser tests (tests/test_web*.py) ------------------------------------
# Debian's package through Playwright's executable_path: Playwright's own browser download is not
# reachable here. Without it the tests skip with a reason; under CI=true they fail instead.

CHROMIUM_PATHS = ("/usr/lib/chromium/chromium", "/usr/bin/chromium")
LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _need(what: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} is missing but CI=true: the browser tests must run (.ci/run installs chromium)")
    pytest.skip(f"the browser tests need {what} (apt-get install chromium; pip install playwright)")


@pytest.fixture(scope="module")
def chromium():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _need("Playwright for Python")
    path = next((p for p in CHROMIUM_PATHS if os.path.exists(p)), None)
    if path is None:
        _need("Chromium (" + " or ".join(CHROMIUM_PATHS) + ")")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()
