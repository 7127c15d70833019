"""Every wait in the tests derives from one scale (issue 37.9): a wait is for a condition, with a
time-out of ``scaled(seconds)`` (``helpers.SCALE``, env ``RAMSLI_TEST_SCALE``), never a sleep and
never a speed requirement.

Every ``tests/*.py`` file is parsed with :mod:`ast` and these are refused unless the number is inside
a ``scaled(...)`` call (:func:`helpers.scaled`):

- a keyword argument named ``timeout``, ``open_timeout``, ``close_timeout``, ``ping_timeout``,
  ``seconds`` or ``deadline_s`` (:data:`TIMEOUT_KEYWORDS`) holding a number (urllib, websockets, subprocess, Playwright's ``timeout=`` in milliseconds,
  :class:`helpers.WSPlayer` ``.wait``, :class:`helpers.ServerProcess` ``.start``, …), and a
  parameter of that name whose default is a number;
- a deadline ``time.monotonic() + <number>`` (also ``loop.time()``; not the wall clock ``time.time()``,
  whose sums are timestamps);
- a positional time-out: ``asyncio.wait_for(aw, <number>)``, ``x.wait(<number>)`` (a process, an
  event), ``x.join(<number>)`` (a thread), and a number in the place of a parameter named as above
  of any function defined in ``tests/`` (``_until(pred, 20)``, ``server.start(90)``);
- a sleep outside a polling loop: ``time.sleep``, ``asyncio.sleep`` or Playwright's
  ``wait_for_timeout`` waits for time, not for a condition, unless its innermost loop is a ``while``
  or a ``for _ in range(n)`` that ``break``s or ``return``s (``asyncio.sleep(0)``, one turn of the
  event loop, is not a wait);
- a poll bounded by a count, ``for _ in range(<number>)`` around a sleep: ``n`` rounds wait about
  ``n`` sleeps, so ``range(int(scaled(n)))``.

:func:`helpers.wait_until` scales its own ``timeout`` (seconds on a quiet machine), so a number there
is right and a ``scaled(...)`` there (scaled twice) is refused.

:data:`ALLOWED` lists what is not a wait for a condition, each with the reason.
"""

from __future__ import annotations

import ast
import functools
import os
from pathlib import Path

import pytest

from helpers import SCALE, SCALE_ENV, default_scale, scaled

TESTS = Path(__file__).resolve().parent

#: names of a time-out in seconds (or in milliseconds, Playwright's ``timeout``)
TIMEOUT_KEYWORDS = {"timeout", "open_timeout", "close_timeout", "ping_timeout", "seconds", "deadline_s"}
#: helpers that scale the ``timeout`` they are given themselves
SELF_SCALING = {"wait_until"}
#: functions with a parameter named as a time-out that are not waits: :func:`helpers.wait_until` scales
#: its own; :func:`helpers.scaled` is the scale
NOT_A_WAIT = SELF_SCALING | {"scaled"}
#: ``(file, the flagged source text)`` -> why it is not a wait for a condition
ALLOWED: dict[tuple[str, str], str] = {
    ("test_client.py", "asyncio.sleep(1.5)"): "the flooded connection's token bucket refills with the clock "
    "(RATE_LIMIT a second): the time itself is what the server waits for",
    ("test_server_adversarial.py", "asyncio.sleep(0.5)"): "a window in which the bot driver's tries are counted "
    "(the assertion allows for the window's real length)",
    ("test_server_dispatch.py", "time.sleep(0.1)"): "pings 0.1 s apart until the server closes the socket "
    "(the loop ends by WebSocketDisconnect; its rounds are scaled)",
    ("test_server_hosting.py", "8"): "asyncio.timeout(8): a window of silence longer than nginx's 3 s cut, "
    "in which the pinging server's connection must stay open (a real-time proxy setting, not a wait)",
    ("test_web.py", "page.wait_for_timeout(500)"): "a window in which nothing may happen (the summary must not "
    "come back over the standings): a slow machine can only hide a fault, not fail the test",
    ("test_web_coach.py", "page.wait_for_timeout(500)"): "a window in which no second hint request may come: a "
    "slow machine can only hide a fault, not fail the test",
}


def _name(func: ast.expr) -> str:
    """``f`` of ``f(...)`` and of ``x.f(...)``."""
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return ""


def _is_scaled(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) == "scaled"


def _bare_number(node: ast.AST | None) -> bool:
    """Whether ``node`` is a number written out (``30``, ``2 * 60``; not 0, not ``True``): arithmetic
    on numeric literals only, so ``scaled(30)`` and ``timeout * 1000`` (a parameter in milliseconds)
    are not."""

    def literal(n: ast.AST) -> bool:
        if isinstance(n, ast.Constant):
            return isinstance(n.value, (int, float)) and not isinstance(n.value, bool)
        if isinstance(n, ast.UnaryOp):
            return literal(n.operand)
        if isinstance(n, ast.BinOp):
            return literal(n.left) and literal(n.right)
        return False

    if node is None or not literal(node):
        return False
    try:
        return bool(ast.literal_eval(node)) if not isinstance(node, ast.BinOp) else True
    except ValueError:
        return True


#: what waits for time: ``time.sleep``, ``asyncio.sleep``, Playwright's ``page.wait_for_timeout``
SLEEPS = {"sleep", "wait_for_timeout"}


def _is_range(node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and _name(node.func) == "range"


def _own(body: list[ast.stmt]):
    """The nodes of a loop's ``body`` that belong to that loop: not those of a loop or a function in it."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.While, ast.For, ast.AsyncFor)):
            todo.extend(ast.iter_child_nodes(node))


def _sleeps(body: list[ast.stmt]) -> bool:
    """Whether a loop's ``body`` sleeps (:data:`SLEEPS`) itself."""
    return any(isinstance(n, ast.Call) and _name(n.func) in SLEEPS for n in _own(body))


def _is_clock(node: ast.AST) -> bool:
    """``time.monotonic()``, ``perf_counter()``, an event loop's ``loop.time()`` (not the wall clock
    ``time.time()``, whose sums are timestamps: an expiry in 31 days is not a wait)."""
    if not isinstance(node, ast.Call) or node.args:
        return False
    name = _name(node.func)
    if name in {"monotonic", "perf_counter"}:
        return True
    owner = node.func.value if isinstance(node.func, ast.Attribute) else None
    return name == "time" and not (isinstance(owner, ast.Name) and owner.id == "time")


#: positional time-outs of the standard library's waits: ``asyncio.wait_for(aw, t)``, ``proc.wait(t)``,
#: ``event.wait(t)``, ``thread.join(t)``, ``asyncio.timeout(t)`` (keys: ``(".", name)`` for a method, ``("", name)`` for a function)
LIBRARY_POSITIONS = {
    (".", "wait_for"): {1},
    (".", "wait"): {0},
    (".", "join"): {0},
    (".", "timeout"): {0},
    ("", "wait_for"): {1},
}


def _key(func: ast.expr) -> tuple[str, str]:
    return (".", func.attr) if isinstance(func, ast.Attribute) else ("", _name(func))


def timeout_positions(sources: list[str]) -> dict[tuple[str, str], set[int]]:
    """Where a call passes a time-out by position: :data:`LIBRARY_POSITIONS` and every function
    defined in ``sources`` with a parameter named in :data:`TIMEOUT_KEYWORDS` (a method, called as
    ``x.name(...)``, without its ``self``; a function, called as ``name(...)``); one name defined in
    several files has each position (a number is flagged in any of them)."""
    found: dict[tuple[str, str], set[int]] = {k: set(v) for k, v in LIBRARY_POSITIONS.items()}
    for source in sources:
        tree = ast.parse(source)
        methods = {id(f) for c in ast.walk(tree) if isinstance(c, ast.ClassDef) for f in c.body}
        for node in ast.walk(tree):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.name in NOT_A_WAIT:
                continue
            names = [a.arg for a in node.args.posonlyargs + node.args.args]
            if id(node) in methods and names and names[0] in ("self", "cls"):
                names = names[1:]
            for i, name in enumerate(names):
                if name in TIMEOUT_KEYWORDS:
                    found.setdefault((".", node.name) if id(node) in methods else ("", node.name), set()).add(i)
    return found


class _Finder(ast.NodeVisitor):
    def __init__(self, source: str, positions: dict[tuple[str, str], set[int]] | None = None) -> None:
        self.source = source
        self.positions = LIBRARY_POSITIONS if positions is None else positions
        self.loops: list[ast.While | ast.For | ast.AsyncFor] = []
        self.found: list[tuple[int, str, str]] = []

    def flag(self, node: ast.AST, why: str) -> None:
        self.found.append((node.lineno, ast.get_source_segment(self.source, node) or "", why))

    def _loop(self, node: ast.While | ast.For | ast.AsyncFor) -> None:
        for child in (node.test,) if isinstance(node, ast.While) else (node.target, node.iter):
            self.visit(child)
        if not isinstance(node, ast.While) and _is_range(node.iter) and _sleeps(node.body):
            for arg in node.iter.args:  # a poll of N rounds waits about N sleeps: a time-out too
                if _bare_number(arg):
                    self.flag(arg, "a poll of a bare number of rounds (range(int(scaled(n))))")
        self.loops.append(node)
        for child in node.body:
            self.visit(child)
        self.loops.pop()
        for child in node.orelse:
            self.visit(child)

    visit_While = visit_For = visit_AsyncFor = _loop

    def _polling(self) -> bool:
        """Whether the innermost loop polls: a ``while``, or a ``for`` over ``range(...)`` that
        ``break``s or ``return``s (a ``for`` over other things, or one that only counts, sleeps)."""
        if not self.loops:
            return False
        loop = self.loops[-1]
        if isinstance(loop, ast.While):
            return True
        return _is_range(loop.iter) and any(isinstance(n, (ast.Break, ast.Return)) for n in _own(loop.body))

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> None:
        if node.__class__ is not ast.Lambda and node.name in SELF_SCALING:
            return  # its own default is in quiet-machine seconds; it scales them
        args = node.args
        positional = args.posonlyargs + args.args
        pairs = list(zip(positional[len(positional) - len(args.defaults) :], args.defaults))
        pairs += [(a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
        for arg, default in pairs:
            if arg.arg in TIMEOUT_KEYWORDS and _bare_number(default):
                self.flag(default, f"default of the parameter {arg.arg}")
        # a function body is a new place: a loop around its definition is not a loop around its sleeps
        outer, self.loops = self.loops, []
        self.generic_visit(node)
        self.loops = outer

    visit_FunctionDef = visit_AsyncFunctionDef = visit_Lambda = _function

    def visit_BinOp(self, node: ast.BinOp) -> None:
        if isinstance(node.op, ast.Add):
            for clock, other in ((node.left, node.right), (node.right, node.left)):
                if _is_clock(clock) and _bare_number(other):
                    self.flag(node, "a deadline of a bare number of seconds")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _name(node.func)
        for kw in node.keywords:
            if kw.arg in TIMEOUT_KEYWORDS:
                if name in SELF_SCALING:
                    if _is_scaled(kw.value):
                        self.flag(kw.value, f"{name} scales its timeout itself: scaled twice")
                elif _bare_number(kw.value):
                    self.flag(kw.value, f"a {kw.arg} of a bare number")
        for position in self.positions.get(_key(node.func), ()):
            if len(node.args) > position and _bare_number(node.args[position]):
                self.flag(node.args[position], f"a positional time-out of a bare number in {name}(...)")
        if name in SLEEPS and not self._polling():
            arg = node.args[0] if node.args else None
            if not (isinstance(arg, ast.Constant) and arg.value == 0):
                self.flag(node, "a sleep as a wait (wait for a condition instead)")
        self.generic_visit(node)


@functools.cache
def positions_in_tests() -> dict[tuple[str, str], set[int]]:
    """The time-out parameters of the functions defined in ``tests/`` (parsed once per process, when
    the first file is checked: not while every xdist worker collects)."""
    return timeout_positions([p.read_text(encoding="utf-8") for p in sorted(TESTS.glob("*.py"))])


def bare_waits(path: Path, positions: dict[tuple[str, str], set[int]] | None = None) -> list[tuple[int, str, str]]:
    """``(line, source, why)`` of every wait in ``path`` that does not derive from the scale
    (``positions``: :func:`positions_in_tests` unless given)."""
    source = path.read_text(encoding="utf-8")
    finder = _Finder(source, positions_in_tests() if positions is None else positions)
    finder.visit(ast.parse(source, filename=str(path)))
    return [f for f in finder.found if (path.name, f[1]) not in ALLOWED]


@pytest.mark.parametrize("path", sorted(TESTS.glob("*.py")), ids=lambda p: p.name)
def test_every_wait_derives_from_the_scale(path):
    found = bare_waits(path)
    assert not found, "\n".join(f"{path.name}:{line}: {why}: {text}" for line, text, why in found)


def test_the_allow_list_is_used():
    """An entry of :data:`ALLOWED` that no longer matches anything is stale."""
    for name, text in ALLOWED:
        source = (TESTS / name).read_text(encoding="utf-8")
        assert text in source, f"stale ALLOWED entry: {name}: {text}"


CAUGHT = """
import asyncio, time, urllib.request
def _until(pred, seconds=None): ...
def f(page, proc, timeout=10):
    urllib.request.urlopen("http://x", timeout=5)
    deadline = time.monotonic() + 30
    asyncio.wait_for(g(), 2.5)
    proc.wait(10)
    time.sleep(0.5)
    page.click("#go", timeout=2_000)
    wait_until(lambda: True, timeout=scaled(3))
    end = asyncio.get_running_loop().time() + 2 * 30
    _until(lambda: True, 20)
    for _ in range(300):
        if cond():
            break
        time.sleep(0.01)
    for point in (1, 2):
        time.sleep(0.3)
"""

PASSES = """
import asyncio, time, urllib.request
def _until(pred, seconds=None): ...
def f(page, proc, timeout=None, cond=None):
    urllib.request.urlopen("http://x", timeout=scaled(5))
    deadline = time.monotonic() + scaled(30)
    asyncio.wait_for(g(), scaled(2.5))
    proc.wait(scaled(10))
    while not cond():
        time.sleep(0.05)
    asyncio.sleep(0)
    page.click("#go", timeout=scaled(2_000))
    wait_until(lambda: True, timeout=3)
    ", ".join(["a", "b"][:1])
    expires = time.time() + 31 * 86400
    _until(lambda: True, scaled(20))
    for _ in range(int(scaled(300))):
        if cond():
            break
        time.sleep(0.01)
    page.wait_for_selector("#x", timeout=timeout * 1000)
"""


def test_the_check_catches_each_kind(tmp_path):
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text(CAUGHT)
    good.write_text(PASSES)
    positions = timeout_positions([CAUGHT])
    assert positions["", "_until"] == {1}
    assert [line for line, _, _ in bare_waits(bad, positions)] == [4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 19]
    assert bare_waits(good, positions) == []


def test_scaled_is_the_scale():
    assert SCALE >= 1
    assert scaled(2) == 2 * SCALE
    assert max(1.0, float(os.environ[SCALE_ENV])) == SCALE  # exported by conftest.py: one in every worker


def test_the_default_scale_is_generous_and_follows_the_load():
    """Unset, the scale is ``max(3, 2 * (1 + load / cores))``: 3 on a quiet machine, more when busy."""
    assert default_scale(0.0, 2) == 3.0
    assert default_scale(2.0, 2) == 4.0  # two busy processes on 2 cores
    assert default_scale(8.0, 2) == 10.0
    assert default_scale(8.0, 16) == 3.0
