"""What the test files share, besides fixtures (those are in ``conftest.py``).

Import by name: ``from helpers import make_hand, play`` (pytest puts ``tests/`` on ``sys.path``).
The sections, in order:

- paths of the checkout (``ROOT``, ``SRC``, ``HISTORIES``);
- engine positions built by hand: :func:`make_hand` (``Hand.from_cards``) and :func:`play` from
  action strings, so that every expected number in a test can be worked out from RULES.md with
  pencil and paper; the standard deals ``SWEEP`` and ``TIE``; :func:`play_session`;
- text: :func:`line_of`;
- hidden cards (R7, D-16): :func:`cards_in`, :func:`keys_in`, :func:`known_cards`;
- HTTP against a running server: :func:`http_json`, :func:`post_json`, :func:`post_ok`, :func:`http_get`;
- processes on 127.0.0.1: :func:`free_port`, :class:`ServerProcess` (a real ``ramsli serve``) and
  :func:`admin_tables` (its every table),
  :class:`WSPlayer` (one seat's WebSocket client);
- the table server in-process: ``SEATS3``, :func:`open_hub`, :func:`seat_table`, :func:`table_state`,
  :func:`last_view`, :func:`stable_view`, :func:`engine_replay`;
- the terminal's save folder: :func:`saved_session`;
- the services the CI machine provides (PostgreSQL, Chromium): :func:`postgres_base`,
  :func:`pg_admin`, :func:`chromium_path`.

The invariant checks (R3.4 conservation, every card in one place, a legal action always exists,
R7 hidden cards) live in :mod:`ramsli.testing` so that the soak script ``bench/soak.py`` and the
property tests check exactly the same things; no test imports from ``bench/``.

Heavy or optional packages (the server, websockets, asyncpg, Playwright) are imported inside the
functions that need them, so that an engine test does not load them.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from ramsli.cards import Card, parse_cards
from ramsli.hand import Hand
from ramsli.rules import Rules
from ramsli.session import Session

# --- paths ---------------------------------------------------------------------------------------

#: the checkout (the folder holding ``pyproject.toml``)
ROOT = Path(__file__).resolve().parent.parent
#: the source folder put on ``PYTHONPATH`` of the subprocesses the tests start
SRC = ROOT / "src"
#: the hand and session histories of ``tests/data`` (R6)
HISTORIES = ROOT / "tests" / "data" / "histories"


# --- waits -------------------------------------------------------------------------------------

SCALE_ENV = "RAMSLI_TEST_SCALE"


def default_scale(load: float | None = None, cores: int | None = None) -> float:
    """The wait scale when :data:`SCALE_ENV` is not set: ``max(3, 2 * (1 + load / cores))``, one decimal
    (``load``: the 1-minute load average, default ``os.getloadavg()[0]``; ``cores``: ``os.cpu_count()``).

    Why generous and why from the load: the time-outs in the tests were chosen on a quiet 2-core
    machine; a busy one runs everything (the test, the servers it starts, Chromium) about
    ``1 + load / cores`` times slower, and the suite's own two workers come on top, hence the factor 2.
    The floor 3 keeps a quiet machine generous too. Every wait is for a condition, so a large scale
    costs nothing while the tests pass; it only makes a failing wait take longer to fail. Quiet
    2-core machine: 3; two busy processes on 2 cores: 4; a load of 8 on 2 cores: 10.
    """
    if load is None:
        try:
            load = os.getloadavg()[0]
        except (AttributeError, OSError):  # no load average on this system
            load = 0.0
    cores = cores or os.cpu_count() or 1
    return round(max(3.0, 2 * (1 + load / cores)), 1)


#: how much slower than a quiet 2-core machine this one may be: every time-out in the tests is
#: ``scaled(seconds)`` (``tests/test_suite_waits.py`` checks it). ``RAMSLI_TEST_SCALE`` sets it (at
#: least 1); unset, :func:`default_scale` derives it from the load when the run starts, and
#: ``conftest.py`` exports it so the xdist workers and the processes the tests start share one value.
#: A wait is for a condition, never a sleep, so a large scale costs nothing when the machine is quick.
SCALE = max(1.0, float(os.environ.get(SCALE_ENV) or default_scale()))


def scaled(seconds: float) -> float:
    """``seconds`` times :data:`SCALE`: the time-out of a wait for a condition (never a speed claim)."""
    return seconds * SCALE


def wait_until(cond, timeout: float = 20.0, step: float = 0.05, what: str = "the condition"):
    """Poll ``cond()`` until it returns a true value, which is returned; AssertionError naming
    ``what`` after ``scaled(timeout)`` seconds."""
    deadline = time.monotonic() + scaled(timeout)
    while True:
        value = cond()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} did not hold within {scaled(timeout):.0f} s")
        time.sleep(step)


# --- engine positions ----------------------------------------------------------------------------


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


# standard deals (3 seats, dealer p1, so the order is p2, p3, p1; trump ♥ by 7H)

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


def play_session(seed: int, names: Sequence[str] = ("Anna", "Bruno", "Clara", "Dirk"), **opts) -> Session:
    """A whole session under ``Rules(**opts)``, every action drawn from the legal ones by ``seed``."""
    s = Session(Rules(**opts), list(names), seed=seed)
    rng = random.Random(seed)
    while not s.is_over:
        h = s.start_hand()
        while not h.is_over:
            legal = h.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
    return s


# --- text ----------------------------------------------------------------------------------------


def line_of(text: str, needle: str, nth: int = 0) -> int:
    """1-based number of the ``nth`` (0-based) line of ``text`` that contains ``needle``."""
    return [i for i, line in enumerate(text.splitlines(), 1) if needle in line][nth]


# --- hidden cards (R7, D-16) ---------------------------------------------------------------------

#: a card in the text notation of R1.6 as the server writes it (``TH``, ``X1`` for a joker)
CARD_TOKEN = re.compile(r"^(?:[2-9TJQKA][SHDC]|X[12])$")
#: keys no server message may hold (R7, D-16)
FORBIDDEN_KEYS = {"deck", "cut", "stock", "seed", "rng", "rng_state", "dealt", "hands", "salts"}


#: a card (:data:`CARD_TOKEN`) as a word of a text: between the text's ends or separators (white space,
#: ``[``, ``]``, ``,``, ``"``; ``\s`` is what ``str.split`` splits at)
CARD_IN_TEXT = re.compile(r'(?<![^\s\[\],"])(?:[2-9TJQKA][SHDC]|X[12])(?![^\s\[\],"])')


def cards_in(msg) -> set[str]:
    """Every card named anywhere in a JSON message (also inside action texts like ``p2 pl AS``): every
    word of every key and string value that is a card, words split at white space and ``[ ] , "``."""
    texts: list[str] = []
    todo = [msg]
    while todo:
        x = todo.pop()
        if isinstance(x, str):
            texts.append(x)
        elif isinstance(x, dict):
            todo.extend(x)
            todo.extend(x.values())
        elif isinstance(x, (list, tuple)):
            todo.extend(x)
    return set(CARD_IN_TEXT.findall("\n".join(texts)))  # a line break separates them


def keys_in(msg) -> set[str]:
    """Every key of every object in a JSON message."""
    out: set[str] = set()
    todo = [msg]
    while todo:
        x = todo.pop()
        if isinstance(x, dict):
            out.update(x)
            todo.extend(v for v in x.values() if isinstance(v, (dict, list)))
        elif isinstance(x, list):
            todo.extend(v for v in x if isinstance(v, (dict, list)))
    return out


def known_cards(hand, seat) -> set[str]:
    """The cards ``seat`` (None: a spectator) may know of ``hand`` (R7): the turn-up, jokers turned
    aside, every card played so far, and its own dealt cards."""
    known = {str(hand.turn_up)} | {str(c) for c in hand.turned_aside}
    known |= {str(a.card) for a in hand.history if a.kind == "pl"}
    if seat is not None:
        known |= {str(c) for c in hand.dealt[seat] if c is not None}
    return known


# --- HTTP against a running server ---------------------------------------------------------------


def http_json(base: str, method: str, path: str, body=None) -> tuple[int, Any]:
    """``(status, answer)`` of one request with a JSON body (or none); the answer is decoded JSON when
    the server says so (and for every error), else text. Timeout ``scaled(10)`` seconds."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=scaled(10)) as r:
            raw = r.read()
            return r.status, (json.loads(raw) if r.headers.get_content_type() == "application/json" else raw.decode())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def post_json(base: str, path: str, body: dict) -> tuple[int, Any]:
    """``(status, answer)`` of a POST with a JSON body."""
    return http_json(base, "POST", path, body)


def post_ok(base: str, path: str, body: dict) -> Any:
    """The answer of a POST that must succeed (an error status fails the test with the answer)."""
    status, answer = http_json(base, "POST", path, body)
    assert status < 400, (path, status, answer)
    return answer


def http_get(base: str, path: str) -> tuple[int, bytes]:
    """``(status, raw body)`` of a GET, errors included. Timeout ``scaled(10)`` seconds."""
    try:
        with urllib.request.urlopen(base + path, timeout=scaled(10)) as r:
            return r.status, r.read()
    except urllib.error.HTTPError as e:
        return e.code, e.read()


# --- processes on 127.0.0.1 ----------------------------------------------------------------------


def free_port() -> int:
    """A free TCP port on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


#: the admin token of every :class:`ServerProcess` (``GET /api/tables`` lists every table with it)
ADMIN_TOKEN = "test-admin-token-0123456789"


def admin_tables(base: str) -> list:
    """Every table of the server at ``base`` (``GET /api/tables`` with :data:`ADMIN_TOKEN`)."""
    req = urllib.request.Request(base + "/api/tables", headers={"Authorization": f"Bearer {ADMIN_TOKEN}"})
    with urllib.request.urlopen(req, timeout=scaled(10)) as r:
        return json.loads(r.read())


class ServerProcess:
    """A real ``ramsli serve --allow-test-seeds`` process on 127.0.0.1 (a free port) for the end-to-end
    tests, its admin token :data:`ADMIN_TOKEN` (``RAMSLI_ADMIN_TOKEN``); its output goes to
    ``log_dir/server-N.log`` (N counts the starts); ``args`` are more options of ``ramsli serve``
    (``["--path-prefix", "/ramsli"]``)."""

    def __init__(self, database: str, log_dir: Path, args: Sequence[str] = ()) -> None:
        self.database = database
        self.port = free_port()
        self.log_dir = log_dir
        self.args = list(args)
        self.proc = None
        self.starts = 0
        self.name = f"server-{self.port}"

    @property
    def log(self) -> Path:
        """The output of the latest start."""
        return self.log_dir / f"{self.name}-{self.starts}.log"

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = scaled(30.0)) -> ServerProcess:
        """Start the process and wait until ``GET /api/tables`` answers (RuntimeError with the log's
        tail if it exits or does not answer within ``timeout`` seconds)."""
        env = dict(os.environ)
        env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
        env.setdefault("RAMSLI_ADMIN_TOKEN", ADMIN_TOKEN)
        self.starts += 1
        log = open(self.log, "wb")
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
                *self.args,
            ],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited with {self.proc.returncode}: " + self.log.read_text()[-2000:])
            try:
                with urllib.request.urlopen(self.http + "/api/tables", timeout=scaled(2)) as r:
                    if r.status == 200:
                        return self
            except OSError:
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"server did not answer within {timeout:.0f} s ({SCALE_ENV}={SCALE:g})")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs."""
        import signal

        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(scaled(10))

    def stop(self) -> None:
        """SIGTERM, and SIGKILL if it has not ended within ``scaled(15)`` seconds."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(scaled(15))
            except Exception:  # noqa: BLE001
                self.proc.kill()
                self.proc.wait(scaled(10))


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
        self.task = asyncio.get_running_loop().create_task(self._run())
        await self.wait(lambda: self.view is not None)
        return self

    async def _run(self) -> None:
        import websockets

        delay = 0.1
        while not self.stopped:
            try:
                async with websockets.connect(self.url, open_timeout=scaled(5)) as ws:
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

    async def wait(self, pred, timeout: float = scaled(30.0)) -> None:
        """Until ``pred()`` holds (AssertionError with the last view after ``timeout`` seconds)."""
        deadline = time.monotonic() + timeout
        while not pred():
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out; last view: {self.view}")
            await asyncio.sleep(0.02)

    async def send(self, msg) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def act(self, action: str, seq: int | None = None) -> None:
        await self.send({"type": "act", "action": action, "seq": self.view["seq"] if seq is None else seq})

    async def close(self) -> None:
        self.stopped = True
        if self.ws is not None:
            await self.ws.close()
        if self.task is not None:
            self.task.cancel()


# --- the table server in-process -----------------------------------------------------------------

#: two people and the rules bot
SEATS3 = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "rules"}]


async def open_hub(url: str, allow_test_seeds: bool = True):
    """``(Hub, EventStore)`` on the database ``url``."""
    from ramsli.server.storage.eventstore import EventStore
    from ramsli.server.tables.hub import Hub

    store = await EventStore.open(url)
    return Hub(store, allow_test_seeds=allow_test_seeds), store


async def seat_table(hub, seats=SEATS3, sit=None, start: bool = True, **opts):
    """Create a table (no pauses, seed 3, three hands unless ``rules`` is given); the seats in ``sit``
    (default: every human seat, in seat order) sit down as ``P1``, ``P2``, … and say hello with their
    personal tokens; then start it unless ``start`` is false.

    Returns ``(made, table, {seat index: (personal token, conn)})``; ``made`` is the creation's answer
    (its seat tokens are the invitation tokens).
    """
    from ramsli.server.tables.connection import Connection as Conn

    body = {
        "rules": opts.pop("rules", ["end=hands:3"]),
        "seats": seats,
        "bot_pace_seconds": 0,
        "hand_pause_seconds": 0,
        "seed": opts.pop("seed", 3),
        **opts,
    }
    made = (await hub.create_table(body)).to_json()
    tid = made["table"]
    sit = [i for i, s in enumerate(seats) if s["kind"] == "human"] if sit is None else sit
    people = {}
    for i in sit:
        personal = (await hub.sit(tid, made["seats"][i]["token"], f"P{i + 1}")).token
        c = Conn()
        await hub.receive(c, json.dumps({"type": "hello", "token": personal}), tid)
        people[i] = (personal, c)
    if start:
        await hub.start(tid, made["creator_token"])
    return made, hub.tables[tid], people


def table_state(t):
    """What a refusal must leave as it was: seq, status, the hand's fingerprint, stacks, pot, hands played."""
    s = t.session
    return (
        t.seq,
        t.status,
        None if s is None or s.hand is None else s.hand.fingerprint(),
        None if s is None else (tuple(s.stacks), s.pot, len(s.results)),
    )


def last_view(conn):
    """The last view sent to an in-process connection."""
    return [m for m in conn.sent if m["type"] == "view"][-1]


def stable_view(view: dict) -> dict:
    """A view without the connection-dependent flags (who is connected right now) and the
    countdowns (seconds from the moment the view was made)."""
    v = json.loads(json.dumps(view))
    for s in v["seats"]:
        s.pop("away")
        s.pop("bot_playing")
        s.pop("bot_in", None)
    for key in ("timer", "next_deal", "starts_in"):
        v.pop(key, None)
    return v


async def engine_replay(url: str, table: str) -> Session:
    """Replay the table's stored deals and actions with the engine alone (no server code but the store)."""
    from ramsli.hand import Action
    from ramsli.server.storage.eventstore import EventStore

    store = await EventStore.open(url)
    try:
        row = next(r for r in await store.load() if r["id"] == table)
    finally:
        await store.close()
    rules = Rules.from_dict(row["spec"]["rules"])
    session = None
    for _seq, kind, data in row["events"]:
        if kind == "start":
            session = Session(rules, data["names"], dealer=data["dealer"])
        elif kind == "deal":
            session.start_hand(deck=[Card.parse(c) for c in data["deck"]], cut=data["cut"])
        elif kind == "act":
            session.apply(Action.parse(data["action"]))
    return session


# --- the terminal's save folder ------------------------------------------------------------------


def saved_session(folder: Path) -> dict:
    """The saved session of a data folder (``session.json``) as JSON."""
    return json.loads((folder / "session.json").read_text(encoding="utf-8"))


# --- services of the CI machine ------------------------------------------------------------------

POSTGRES_ENV = "RAMSLI_TEST_POSTGRES_URL"


def postgres_base() -> str:
    """The PostgreSQL URL of the test cluster; skip locally without it, fail under CI=true."""
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


def pg_admin(base: str, sql: str) -> None:
    """Run one SQL statement on the cluster ``base`` (CREATE / DROP DATABASE)."""
    import asyncpg

    dsn = base.replace("postgresql+asyncpg://", "postgresql://", 1)

    async def run():
        conn = await asyncpg.connect(dsn)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(run())


# A real Chromium for the browser tests (tests/test_web*.py): Debian's package through Playwright's
# executable_path, since Playwright's own browser download is not reachable here. Without it the
# tests skip with a reason; under CI=true they fail instead.

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


def chromium_path() -> str:
    """The Chromium executable, once Playwright for Python is known to import; skip locally without
    either, fail under CI=true."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _need("Playwright for Python")
    path = next((p for p in CHROMIUM_PATHS if os.path.exists(p)), None)
    if path is None:
        _need("Chromium (" + " or ".join(CHROMIUM_PATHS) + ")")
    return path


# A reverse proxy for the hosting tests (tests/test_server_cluster.py, test_web_proxy.py): Debian's
# nginx and Caddy as plain processes on 127.0.0.1, with a configuration in a temporary folder.

NGINX = "/usr/sbin/nginx"
CADDY = "/usr/bin/caddy"


def need_tool(path: str, what: str, install: str) -> str:
    """``path`` if it is an executable; else skip locally, fail under CI=true."""
    if os.path.exists(path) and os.access(path, os.X_OK):
        return path
    if os.environ.get("CI") == "true":
        pytest.fail(f"{what} ({path}) is missing but CI=true: the hosting tests must run ({install})")
    pytest.skip(f"the hosting tests need {what} ({install})")


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A throwaway certificate and key for ``127.0.0.1`` (openssl), valid one day."""
    need_tool("/usr/bin/openssl", "openssl", "apt-get install openssl")
    cert, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    return cert, key


class ProxyProcess:
    """nginx (``kind="nginx"``) or Caddy (``"caddy"``) started with the configuration ``text`` in
    ``folder`` (nginx: the ``http`` block's contents; Caddy: a Caddyfile), on 127.0.0.1 only;
    :meth:`stop` stops it by its process id. ``env`` is added to Caddy's environment."""

    def __init__(self, kind: str, text: str, folder: Path, env: Mapping[str, str] | None = None) -> None:
        self.kind = kind
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.log = folder / f"{kind}.log"
        full = dict(os.environ, **(env or {}))
        if kind == "nginx":
            need_tool(NGINX, "nginx", "apt-get install nginx")
            conf = folder / "nginx.conf"
            conf.write_text(
                f"worker_processes 1;\npid {folder}/nginx.pid;\nerror_log {self.log} info;\n"
                "events { worker_connections 512; }\n"
                f"http {{\n  access_log {folder}/access.log;\n  client_body_temp_path {folder}/body;\n"
                f"  proxy_temp_path {folder}/proxy;\n  fastcgi_temp_path {folder}/fcgi;\n"
                f"  uwsgi_temp_path {folder}/uwsgi;\n  scgi_temp_path {folder}/scgi;\n{text}\n}}\n"
            )
            cmd = [NGINX, "-c", str(conf), "-p", str(folder), "-g", "daemon off;"]
        else:
            need_tool(CADDY, "Caddy", "apt-get install caddy")
            conf = folder / "Caddyfile"
            conf.write_text(text)
            full.update(
                XDG_DATA_HOME=str(folder / "data"),
                XDG_CONFIG_HOME=str(folder / "config"),
                CADDY_ADMIN=f"127.0.0.1:{free_port()}",
            )
            cmd = [CADDY, "run", "--config", str(conf), "--adapter", "caddyfile"]
        self.proc = subprocess.Popen(cmd, stdout=open(self.log, "ab"), stderr=subprocess.STDOUT, env=full)

    def wait_for(self, url: str, timeout: float = scaled(20.0)) -> None:
        """Until ``url`` answers through the proxy (any HTTP status); RuntimeError with the log if not."""
        import ssl

        ctx = ssl.create_default_context()
        ctx.check_hostname = False
        ctx.verify_mode = ssl.CERT_NONE
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.kind} exited: " + self.log.read_text()[-2000:])
            try:
                urllib.request.urlopen(url, timeout=scaled(2), context=ctx)
                return
            except urllib.error.HTTPError:
                return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"{self.kind} did not answer {url}: " + self.log.read_text()[-2000:])

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(scaled(10))
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(scaled(10))


def contrast(page, selector: str) -> float:
    """WCAG contrast ratio of an element's text colour against the background of its panel."""
    return page.evaluate(
        """(sel) => {
        const e = document.querySelector(sel);
        const rgb = (c) => c.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number);
        const lum = ([r, g, b]) => { const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
            return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
        let bg = e;
        while (bg && getComputedStyle(bg).backgroundColor.match(/rgba\\(.*, 0\\)$|transparent/)) bg = bg.parentElement;
        const a = lum(rgb(getComputedStyle(e).color)), b = lum(rgb(getComputedStyle(bg).backgroundColor));
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05); }""",
        selector,
    )
