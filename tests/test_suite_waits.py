"""Every wait in the tests derives from one scale (issue 37.9): a wait is for a condition, with a
time-out of ``scaled(seconds)`` (``helpers.SCALE``, env ``RAMSLI_TEST_SCALE``), never a sleep and
never a speed requirement.

Every ``tests/*.py`` file is parsed with :mod:`ast` and these are refused unless the number is inside
a ``scaled(...)`` call (:func:`helpers.scaled`):

- a keyword argument named ``timeout``, ``open_timeout``, ``close_timeout`` or ``ping_timeout``
  holding a number (urllib, websockets, subprocess, Playwright's ``timeout=`` in milliseconds,
  :class:`helpers.WSPlayer` ``.wait``, :class:`helpers.ServerProcess` ``.start``, …), and a
  parameter of that name whose default is a number;
- a deadline ``time.monotonic() + <number>`` (also ``loop.time()``; not the wall clock ``time.time()``,
  whose sums are timestamps);
- a positional time-out: ``asyncio.wait_for(aw, <number>)``, ``x.wait(<number>)`` (a process, an
  event), ``x.join(<number>)`` (a thread);
- a sleep outside a polling loop: ``time.sleep``, ``asyncio.sleep`` or Playwright's
  ``wait_for_timeout`` that is not inside a ``while``/``for`` body waits for time, not for a
  condition (``asyncio.sleep(0)``, one turn of the event loop, is not a wait).

:func:`helpers.wait_until` scales its own ``timeout`` (seconds on a quiet machine), so a number there
is right and a ``scaled(...)`` there (scaled twice) is refused.

:data:`ALLOWED` lists what is not a wait for a condition, each with the reason.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from helpers import SCALE, scaled

TESTS = Path(__file__).resolve().parent

TIMEOUT_KEYWORDS = {"timeout", "open_timeout", "close_timeout", "ping_timeout"}
#: helpers that scale the ``timeout`` they are given themselves
SELF_SCALING = {"wait_until"}
#: ``(file, the flagged source text)`` -> why it is not a wait for a condition
ALLOWED: dict[tuple[str, str], str] = {}


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


class _Finder(ast.NodeVisitor):
    def __init__(self, source: str) -> None:
        self.source = source
        self.loops = 0
        self.found: list[tuple[int, str, str]] = []

    def flag(self, node: ast.AST, why: str) -> None:
        self.found.append((node.lineno, ast.get_source_segment(self.source, node) or "", why))

    def _loop(self, node: ast.While | ast.For | ast.AsyncFor) -> None:
        self.visit(node.target if not isinstance(node, ast.While) else node.test)
        if not isinstance(node, ast.While):
            self.visit(node.iter)
        self.loops += 1
        for child in node.body:
            self.visit(child)
        self.loops -= 1
        for child in node.orelse:
            self.visit(child)

    visit_While = visit_For = visit_AsyncFor = _loop

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
        outer, self.loops = self.loops, 0
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
        position = {"wait_for": 1, "wait": 0, "join": 0}.get(name)
        if position is not None and len(node.args) > position and _bare_number(node.args[position]):
            self.flag(node, "a positional time-out of a bare number")
        if name in {"sleep", "wait_for_timeout"} and self.loops == 0:
            arg = node.args[0] if node.args else None
            if not (isinstance(arg, ast.Constant) and arg.value == 0):
                self.flag(node, "a sleep as a wait (wait for a condition instead)")
        self.generic_visit(node)


def bare_waits(path: Path) -> list[tuple[int, str, str]]:
    """``(line, source, why)`` of every wait in ``path`` that does not derive from the scale."""
    source = path.read_text(encoding="utf-8")
    finder = _Finder(source)
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
def f(page, proc, timeout=10):
    urllib.request.urlopen("http://x", timeout=5)
    deadline = time.monotonic() + 30
    asyncio.wait_for(g(), 2.5)
    proc.wait(10)
    time.sleep(0.5)
    page.click("#go", timeout=2_000)
    wait_until(lambda: True, timeout=scaled(3))
    end = asyncio.get_running_loop().time() + 2 * 30
"""

PASSES = """
import asyncio, time, urllib.request
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
    page.wait_for_selector("#x", timeout=timeout * 1000)
"""


def test_the_check_catches_each_kind(tmp_path):
    bad, good = tmp_path / "bad.py", tmp_path / "good.py"
    bad.write_text(CAUGHT)
    good.write_text(PASSES)
    assert [line for line, _, _ in bare_waits(bad)] == [3, 4, 5, 6, 7, 8, 9, 10, 11]
    assert bare_waits(good) == []


def test_scaled_is_the_scale():
    assert SCALE >= 1
    assert scaled(2) == 2 * SCALE
