"""Dependencies point one way (README, "Dependencies point one way"): the import direction, checked.

Every module under ``src/ramsli`` is parsed with :mod:`ast` and every import in it
is collected: module level, inside ``if``/``try``/class bodies, inside functions,
and ``importlib.import_module("...")`` with a literal name. The layers, lowest
first (:data:`LAYERS`)::

    0 cards        ramsli.cards, ramsli.refusal (the record of a refused input), ramsli.i18n (the
                   languages and their catalogs)
    1 engine       ramsli (the package's re-exports), rules, errors, settlement, hand, session, history,
                   seats, toml_text, ledger, fairness (the deal's commitments: hashing, no I/O),
                   evening (an evening's draw, scores and standings, and their check: no I/O)
    2 bots         ramsli.bots, ramsli.inference (what a seat may infer from its observation)
    3 research     ramsli.lab, ramsli.rl, ramsli.analysis, ramsli.testing, ramsli.coach (the review of hands),
                   ramsli.csvcells (CSV files a spreadsheet opens as text)
    4 front ends   ramsli.cli (and ramsli.__main__: python -m ramsli), ramsli.commands, ramsli.frontends,
                   ramsli.server, ramsli.client (the table protocol's client)

The checks:

- an import never points to a higher layer (the lab may use bots; bots never
  import the lab, the adapters, the analysis or a front end; the engine imports
  no bot);
- the packages (``ramsli.X``) import each other without a cycle, also inside one
  layer (lab, rl, analysis and testing; the engine's modules);
- a function-local import is only of an optional extra (:data:`OPTIONAL`:
  NumPy, Numba, matplotlib, OpenSpiel, PettingZoo, Gymnasium, Dask) or of a ramsli
  module that needs one at import time (found from the modules' own imports),
  or is in the commented allow-list :data:`LOCAL_ALLOWED`;
- every module has a layer, so a new package must be placed before it is used.

A bot that lives above the bots (the lab's ``tips``) is found by name through
:data:`ramsli.bots.base.BOT_MODULES` (a module path, imported when that bot is
first asked for), not by an import; the tests at the end check that the bots and
the engine run without loading anything above them.

Inside the server (:data:`SERVER_LAYERS`), the same holds between its sub-packages, lowest first::

    0 services     ramsli.server.deps (the services a route reaches, typed: it imports their classes
                   for the type checker only)
    1 protocol     ramsli.server.protocol (schemas, messages, close codes, a request's language)
    2 storage      ramsli.server.storage (one metadata, the event store, the directory, migrations)
    3 cluster      ramsli.server.cluster (ownership, forwarding, the reverse proxy's path prefix)
    4 ops          ramsli.server.ops (health, metrics, guards)
    5 players      ramsli.server.players (accounts, records, ratings)
    6 tables       ramsli.server.tables (the registry, a table, views, bots, the lobby)
    7 pages        ramsli.server.web (the page shell, the pages), ramsli.server.coach (hints, reviews)
    8 features     ramsli.server.clubs, ramsli.server.ledger
    9 evenings     ramsli.server.evenings (club evenings and tournaments: it runs tables and ledgers)
   10 challenge    ramsli.server.challenge (the weekly challenge: it runs tables as an evening's duplicate ones)
   11 app          ramsli.server (the package), ramsli.server.app

An import inside the server never points to a higher one of these layers; its sub-packages import
each other without a cycle; and no two of its modules import each other in a cycle, counting
function-local imports (an import under ``if TYPE_CHECKING:`` is for the type checker only and
counts for none of these checks).
"""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

import ramsli
from ramsli.bots.base import BOT_MODULES, make_bot

SRC = Path(ramsli.__file__).resolve().parent

#: (layer name, packages or modules in it), lowest first
LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("cards", ("ramsli.cards", "ramsli.refusal", "ramsli.i18n")),
    (
        "engine",
        (
            "ramsli",
            "ramsli.rules",
            "ramsli.errors",
            "ramsli.settlement",
            "ramsli.hand",
            "ramsli.session",
            "ramsli.history",
            "ramsli.seats",
            "ramsli.toml_text",
            "ramsli.ledger",
            "ramsli.fairness",
            "ramsli.evening",
        ),
    ),
    ("bots", ("ramsli.bots", "ramsli.inference")),
    ("research", ("ramsli.lab", "ramsli.rl", "ramsli.analysis", "ramsli.testing", "ramsli.coach", "ramsli.csvcells")),
    (
        "front ends",
        ("ramsli.cli", "ramsli.__main__", "ramsli.commands", "ramsli.frontends", "ramsli.server", "ramsli.client"),
    ),
]

#: third-party packages of the optional extras 'lab', 'rl' and 'dask' (as in ``ramsli.cli.OPTIONAL``)
OPTIONAL = frozenset(
    {
        "numpy",
        "numba",
        "llvmlite",
        "matplotlib",
        "pyspiel",
        "open_spiel",
        "pettingzoo",
        "gymnasium",
        "dask",
        "distributed",
    }
)

#: (importing module, imported module) pairs that may stay function-local, each with its reason
LOCAL_ALLOWED: dict[tuple[str, str], str] = {
    # Textual takes about 130 ms to import: `ramsli --help` and `ramsli play --plain` never need it,
    # only the full-screen app does.
    ("ramsli.commands.play", "ramsli.frontends.tui"): "start-up time of the CLI",
    # Typer's Rich help module (and rich.columns) only for --help, whose tables cli.py makes fold
    ("ramsli.cli", "typer.rich_utils"): "start-up time of the CLI",
    ("ramsli.cli", "rich.columns"): "start-up time of the CLI",
    # The web stack (uvicorn, FastAPI, SQLAlchemy, Alembic) takes most of a second to import: only
    # `ramsli serve` itself needs it, not `ramsli --help` or any other command.
    ("ramsli.commands.serve", "uvicorn"): "start-up time of the CLI",
    ("ramsli.commands.serve", "ramsli.server.app"): "start-up time of the CLI",
    ("ramsli.commands.serve", "ramsli.server.storage.eventstore"): "start-up time of the CLI",
    ("ramsli.commands.serve", "ramsli.server.players.ratings"): "start-up time of the CLI",
    ("ramsli.commands.serve", "ramsli.server.ops.guards"): "start-up time of the CLI",
    ("ramsli.commands.serve", "ramsli.server.coach.hints"): "start-up time of the CLI",
    ("ramsli.commands.serve", "ramsli.server.cluster.ownership"): "start-up time of the CLI",
    ("ramsli.commands.backup", "ramsli.server.storage.eventstore"): "start-up time of the CLI",
    # fpdf2 (with fontTools and NumPy) takes about half a second to import: only an evening's PDF
    # prints need it, not every start of `ramsli serve` (the test suite starts dozens).
    ("ramsli.server.evenings.prints", "fpdf"): "start-up time of the server",
    ("ramsli.server.evenings.prints", "fpdf.fonts"): "start-up time of the server",
    # asyncpg is the 'postgres' extra: only a server on PostgreSQL opens the lock connection.
    ("ramsli.server.cluster.ownership", "asyncpg"): "the postgres extra",
    # Babel's number formats (about 40 ms) only when a refusal shows a bound (a limit like 10**9)
    # grouped in the reader's language, not at every start of `ramsli play`.
    ("ramsli.frontends.i18n", "babel.numbers"): "start-up time of the CLI",
    # The WebSocket library is needed once a client connects, not when `ramsli --help` starts.
    ("ramsli.client.core", "websockets"): "start-up time of the CLI",
    # The arena's remote seats need uvicorn and Starlette, only with `ramsli arena --remote`.
    ("ramsli.commands.arena", "ramsli.client.host"): "start-up time of the CLI",
    # The probe that asks every Dask worker for its ramsli version travels by value (cloudpickle) and
    # must also run on a worker without ramsli, to report that; so it imports ramsli inside itself.
    ("ramsli.analysis.cluster", "ramsli"): "runs on Dask workers that may lack ramsli",
}


def unit_of(module: str) -> str:
    """The package a module belongs to: ``ramsli.bots.fast`` -> ``ramsli.bots``; ``ramsli`` -> ``ramsli``."""
    return ".".join(module.split(".")[:2])


def layer_of(module: str) -> int | None:
    """The index in :data:`LAYERS` of a ramsli module, None if it has no layer."""
    unit = unit_of(module)
    for i, (_, members) in enumerate(LAYERS):
        if unit in members:
            return i
    return None


def read_tree(root: Path = SRC) -> dict[str, str]:
    """Module name -> source text of every ``.py`` file under the package folder ``root``."""
    out = {}
    for path in sorted(root.rglob("*.py")):
        parts = ("ramsli", *path.relative_to(root).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path.read_text(encoding="utf-8")
    return out


def collect_imports(module: str, source: str, modules: set[str]) -> list[tuple[str, bool, int]]:
    """Every import in ``source``: ``(imported module, function-local?, line)``.

    ``from X import Y`` imports the module ``X.Y`` if that is one of ``modules``, else ``X``;
    relative imports are resolved against ``module``'s package.
    """
    is_package = any(m.startswith(module + ".") for m in modules) or module == "ramsli"
    package = module if is_package else module.rpartition(".")[0]
    found: list[tuple[str, bool, int]] = []

    def visit(node: ast.AST, local: bool) -> None:
        if isinstance(node, ast.Import):
            found.extend((alias.name, local, node.lineno) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.append((sub if sub in modules else base, local, node.lineno))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            found.append((node.args[0].value, local, node.lineno))
        inner = local or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, inner)

    visit(ast.parse(source, filename=module), False)
    return list(dict.fromkeys(found))  # one entry per module and line


def needs_extra(imports: dict[str, list[tuple[str, bool, int]]]) -> set[str]:
    """The ramsli modules that import an optional extra at import time, directly or through other modules."""
    needy: set[str] = set()
    changed = True
    while changed:
        changed = False
        for mod, imps in imports.items():
            if mod in needy:
                continue
            if any(not local and (name.split(".")[0] in OPTIONAL or name in needy) for name, local, _ in imps):
                needy.add(mod)
                changed = True
    return needy


def _cycle(edges: dict[str, set[str]]) -> list[str] | None:
    """One cycle of the directed graph ``edges`` as a list of nodes (first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def walk(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(edges.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = walk(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(edges):
        if node not in state:
            found = walk(node)
            if found:
                return found
    return None


def violations(tree: dict[str, str]) -> list[str]:
    """Every breach of the layering in ``tree`` (module name -> source), as readable lines."""
    modules = set(tree)
    imports = {m: collect_imports(m, src, modules) for m, src in tree.items()}
    needy = needs_extra(imports)
    out: list[str] = []
    edges: dict[str, set[str]] = {}
    for mod in sorted(imports):
        here = layer_of(mod)
        if here is None:
            out.append(f"{mod}: has no layer; place its package in LAYERS (tests/test_layering.py) and the README")
            continue
        for name, local, line in imports[mod]:
            top = name.split(".")[0]
            if local and top in OPTIONAL:
                continue
            if top != "ramsli":
                if local and (mod, name) not in LOCAL_ALLOWED:
                    out.append(
                        f"{mod}:{line}: function-local import of {name}, which is no optional extra; "
                        f"import it at module level"
                    )
                continue
            there = layer_of(name)
            if there is not None and there > here:
                out.append(
                    f"{mod}:{line}: imports {name} ({LAYERS[there][0]}) from the lower layer "
                    f"{LAYERS[here][0]}: dependencies point one way, down"
                )
            if unit_of(name) != unit_of(mod):
                edges.setdefault(unit_of(mod), set()).add(unit_of(name))
            if local and name not in needy and (mod, name) not in LOCAL_ALLOWED:
                out.append(
                    f"{mod}:{line}: function-local import of {name}, which needs no optional extra; "
                    f"import it at module level"
                )
    cycle = _cycle(edges)
    if cycle:
        out.append(f"packages import each other in a cycle: {' -> '.join(cycle)}")
    return out


# --- the server's inner layers ----------------------------------------------------------------------

#: (layer name, sub-packages or modules of ``ramsli.server`` in it), lowest first
SERVER_LAYERS: list[tuple[str, tuple[str, ...]]] = [
    ("services", ("ramsli.server.deps",)),
    ("protocol", ("ramsli.server.protocol",)),
    ("storage", ("ramsli.server.storage",)),
    ("cluster", ("ramsli.server.cluster",)),
    ("ops", ("ramsli.server.ops",)),
    ("players", ("ramsli.server.players",)),
    ("tables", ("ramsli.server.tables",)),
    ("pages", ("ramsli.server.web", "ramsli.server.coach")),
    ("features", ("ramsli.server.clubs", "ramsli.server.ledger")),
    ("evenings", ("ramsli.server.evenings",)),
    ("challenge", ("ramsli.server.challenge",)),
    ("app", ("ramsli.server", "ramsli.server.app")),
]


def server_unit_of(module: str) -> str:
    """The server sub-package (or top module) a module belongs to: ``ramsli.server.tables.hub`` ->
    ``ramsli.server.tables``; ``ramsli.server.app`` -> itself; ``ramsli.server`` -> itself."""
    return ".".join(module.split(".")[:3])


def server_layer_of(module: str) -> int | None:
    """The index in :data:`SERVER_LAYERS` of a module of ``ramsli.server``, None if it has none."""
    unit = server_unit_of(module)
    for i, (_, members) in enumerate(SERVER_LAYERS):
        if unit in members:
            return i
    return None


def typing_only_lines(source: str) -> set[int]:
    """The lines of the imports under ``if TYPE_CHECKING:`` (or ``typing.TYPE_CHECKING``) in ``source``."""
    lines: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If) and (
            (isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING")
            or (isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING")
        ):
            for stmt in node.body:
                lines.update(n.lineno for n in ast.walk(stmt) if isinstance(n, (ast.Import, ast.ImportFrom)))
    return lines


def _in_server(module: str) -> bool:
    return module == "ramsli.server" or module.startswith("ramsli.server.")


def server_violations(tree: dict[str, str]) -> list[str]:
    """Every breach of the server's inner layering in ``tree`` (module name -> source), as readable lines."""
    modules = set(tree)
    out: list[str] = []
    units: dict[str, set[str]] = {}
    module_edges: dict[str, set[str]] = {}
    for mod in sorted(m for m in tree if _in_server(m)):
        here = server_layer_of(mod)
        if here is None:
            out.append(f"{mod}: has no server layer; place its package in SERVER_LAYERS (tests/test_layering.py)")
            continue
        typing_only = typing_only_lines(tree[mod])
        for name, _local, line in collect_imports(mod, tree[mod], modules):
            if not _in_server(name) or name == mod or line in typing_only:
                continue
            there = server_layer_of(name)
            if there is not None and there > here:
                out.append(
                    f"{mod}:{line}: imports {name} ({SERVER_LAYERS[there][0]}) from the lower server layer "
                    f"{SERVER_LAYERS[here][0]}: dependencies point one way, down"
                )
            if server_unit_of(name) != server_unit_of(mod):
                units.setdefault(server_unit_of(mod), set()).add(server_unit_of(name))
            if name in modules:
                module_edges.setdefault(mod, set()).add(name)
    cycle = _cycle(units)
    if cycle:
        out.append(f"server packages import each other in a cycle: {' -> '.join(cycle)}")
    cycle = _cycle(module_edges)
    if cycle:
        out.append(f"server modules import each other in a cycle: {' -> '.join(cycle)}")
    return out


# --- the real source tree -----------------------------------------------------------------------------


def test_every_import_points_down_the_layers_without_cycles():
    tree = read_tree()
    assert "ramsli.bots.base" in tree and "ramsli.lab.tips" in tree  # the tree was found
    found = violations(tree)
    assert found == [], "\n".join(found)


def test_the_allow_list_holds_only_imports_that_exist():
    """A stale entry in LOCAL_ALLOWED would hide nothing but mislead the reader."""
    tree = read_tree()
    local = {
        (m, name) for m, src in tree.items() for name, is_local, _ in collect_imports(m, src, set(tree)) if is_local
    }
    assert set(LOCAL_ALLOWED) <= local


def test_the_server_imports_down_its_inner_layers_without_cycles():
    tree = read_tree()
    assert "ramsli.server.tables.hub" in tree and "ramsli.server.app" in tree  # the server was found
    found = server_violations(tree)
    assert found == [], "\n".join(found)


#: the server's documentation, whose *Layout* draws the tree of ``src/ramsli/server``
SERVER_DOC = Path(__file__).resolve().parents[1] / "docs" / "server.md"


def doc_tree(text: str) -> dict[str, str]:
    """The tree drawn in the first ``text`` block after ``## Layout`` of ``text``: path (relative
    to the drawn root; a folder ends in ``/``) -> what the line says about it."""
    block = text.split("## Layout", 1)[1].split("```text", 1)[1].split("```", 1)[0]
    out: dict[str, str] = {}
    folders: list[str] = []
    for line in block.strip("\n").splitlines()[1:]:  # the first line is the root
        start = len(line) - len(line.lstrip("│├└─ \u00a0"))
        depth = start // 4
        name, _, says = line[start:].partition(" ")
        folders = folders[: depth - 1]
        out["".join(f + "/" for f in folders) + name] = says.strip()
        if name.endswith("/"):
            folders.append(name[:-1])
    return out


def test_doc_tree_reads_a_drawn_tree():
    text = "## Layout\n\n```text\nroot/\n├── a.py    makes a\n├── p/      a package\n│   └── q/\n│       └── b.py  makes b\n└── c.py  makes c\n```\n"
    assert doc_tree(text) == {
        "a.py": "makes a",
        "p/": "a package",
        "p/q/": "",
        "p/q/b.py": "makes b",
        "c.py": "makes c",
    }


def test_docs_server_md_draws_every_server_module_and_no_other():
    """``docs/server.md`` (*Layout*) has one line for each module of ``src/ramsli/server`` (a
    sub-package's ``__init__.py`` is its folder's line), saying what it makes, and nothing that is not there."""
    server = SRC / "server"
    drawn = doc_tree(SERVER_DOC.read_text(encoding="utf-8"))
    modules = set()
    for path in server.rglob("*.py"):
        rel = path.relative_to(server).as_posix()
        modules.add(rel[: -len("__init__.py")] if rel.endswith("/__init__.py") else rel)
    assert sorted(modules - set(drawn)) == [], "modules missing from the tree in docs/server.md"
    missing = [p for p in drawn if not (server / p).exists() or (server / p).is_dir() != p.endswith("/")]
    assert missing == [], "the tree in docs/server.md names what is not there"
    assert [p for p in drawn if p.endswith(".py") and not drawn[p]] == [], "a module without its line of what it makes"


# --- the checker catches what it should (so that the test above can fail) ------------------------------


def _tree(**sources: str) -> dict[str, str]:
    base = {
        "ramsli": "",
        "ramsli.cards": "",
        "ramsli.hand": "from ramsli.cards import Card\n",
        "ramsli.bots": "",
        "ramsli.bots.base": "from ramsli.hand import Hand\n",
        "ramsli.lab": "",
        "ramsli.lab.kernel": "import numpy as np\n",
        "ramsli.lab.policy": "from ramsli.hand import Action\n",
        "ramsli.rl": "",
        "ramsli.commands": "",
        "ramsli.commands.odds": "from ramsli.lab.policy import TipsBot\n",
    }
    base.update({k.replace("__", "."): textwrap.dedent(v) for k, v in sources.items()})
    return base


def test_checker_accepts_a_clean_tree():
    assert violations(_tree()) == []


def test_checker_refuses_a_bot_importing_the_lab():
    found = violations(_tree(ramsli__bots__base="from ramsli.lab.policy import TipsBot\n"))
    assert any("ramsli.bots.base:1: imports ramsli.lab.policy (research) from the lower layer bots" in v for v in found)


def test_checker_refuses_an_upward_import_hidden_in_a_function():
    found = violations(_tree(ramsli__hand="def f():\n    from ramsli.bots.base import make_bot\n"))
    assert any("ramsli.hand:2: imports ramsli.bots.base (bots)" in v for v in found)
    assert any("function-local import of ramsli.bots.base" in v for v in found)


def test_checker_refuses_a_literal_import_module_upwards():
    found = violations(_tree(ramsli__bots__base="import importlib\nimportlib.import_module('ramsli.commands')\n"))
    assert any("imports ramsli.commands (front ends)" in v for v in found)


def test_checker_refuses_a_cycle_inside_one_layer():
    found = violations(_tree(ramsli__lab__policy="from ramsli.rl import x\n", ramsli__rl="import ramsli.lab\n"))
    assert any("cycle: ramsli.lab -> ramsli.rl -> ramsli.lab" in v for v in found)


def test_checker_refuses_local_imports_of_what_is_no_extra():
    found = violations(_tree(ramsli__lab__policy="def f():\n    import json\n    from ramsli.cards import Card\n"))
    assert any("ramsli.lab.policy:2: function-local import of json" in v for v in found)
    assert any("ramsli.lab.policy:3: function-local import of ramsli.cards" in v for v in found)


def test_checker_allows_local_imports_of_optional_extras():
    tree = _tree(ramsli__commands__odds="def f():\n    import matplotlib\n    from ramsli.lab.kernel import x\n")
    assert violations(tree) == []  # matplotlib is an extra; ramsli.lab.kernel needs NumPy


def test_checker_resolves_relative_imports():
    found = violations(_tree(ramsli__bots__base="from ..lab import policy\n"))
    assert any("imports ramsli.lab.policy (research)" in v for v in found)


def test_checker_places_every_module():
    found = violations(_tree(ramsli__newthing="from ramsli.hand import Hand\n"))
    assert any("ramsli.newthing: has no layer" in v for v in found)


def _server_tree(**sources: str) -> dict[str, str]:
    base = {
        "ramsli.server": "",
        "ramsli.server.protocol": "",
        "ramsli.server.protocol.messages": "",
        "ramsli.server.tables": "",
        "ramsli.server.tables.table": "from ramsli.server.protocol.messages import STATUS\n",
        "ramsli.server.tables.views": "",
        "ramsli.server.app": "from ramsli.server.tables.table import Table\n",
    }
    base.update({k.replace("__", "."): textwrap.dedent(v) for k, v in sources.items()})
    return base


def test_server_checker_accepts_a_clean_server():
    assert server_violations(_server_tree()) == []


def test_server_checker_refuses_an_import_up_the_server_layers():
    found = server_violations(
        _server_tree(ramsli__server__protocol__messages="from ramsli.server.tables import views\n")
    )
    assert any(
        "ramsli.server.protocol.messages:1: imports ramsli.server.tables.views (tables) from the lower server layer "
        "protocol" in v
        for v in found
    )
    assert any("server packages import each other in a cycle" in v for v in found)


def test_server_checker_refuses_a_module_cycle_through_a_local_import():
    tree = _server_tree(
        ramsli__server__tables__table="from ramsli.server.tables import views\n",
        ramsli__server__tables__views="def f():\n    from ramsli.server.tables.table import Table\n",
    )
    found = server_violations(tree)
    assert any(
        "module" in v and "ramsli.server.tables.table -> ramsli.server.tables.views -> ramsli.server.tables.table" in v
        for v in found
    )


def test_server_checker_ignores_a_typing_only_import_for_module_cycles():
    tree = _server_tree(
        ramsli__server__tables__table="from ramsli.server.tables import views\n",
        ramsli__server__tables__views=(
            "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ramsli.server.tables.table import Table\n"
        ),
    )
    assert server_violations(tree) == []


def test_server_checker_places_every_server_module():
    found = server_violations(_server_tree(ramsli__server__newthing="from ramsli.server.app import x\n"))
    assert any("ramsli.server.newthing: has no server layer" in v for v in found)


# --- at run time: the lower layers load nothing above them -------------------------------------------


def _loaded_after(code: str) -> list[str]:
    probe = code + "\nimport sys; print(' '.join(sorted(m for m in sys.modules if m.startswith('ramsli'))))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True).stdout
    return out.split()


def test_the_engine_loads_no_bot_and_no_front_end():
    loaded = _loaded_after("import ramsli, ramsli.history, ramsli.session")
    assert "ramsli.history" in loaded
    above = [m for m in loaded if (layer_of(m) or 0) > 1]
    assert above == [], f"the engine loaded {above}"


def test_the_bots_play_without_loading_the_lab_or_a_front_end():
    loaded = _loaded_after(
        "from ramsli.bots import bot_names, make_bot\n"
        "bot_names(); [make_bot(b, 1) for b in ('random', 'rules', 'montecarlo')]"
    )
    assert "ramsli.bots.montecarlo" in loaded
    above = [m for m in loaded if (layer_of(m) or 0) > 2]
    assert above == [], f"the bots loaded {above}"


@pytest.mark.parametrize("name", sorted(BOT_MODULES))
def test_each_bot_named_by_module_is_found_and_is_that_bot(name):
    """The registry's ``"module:factory"`` entries resolve; the lab's ``tips`` among them."""
    assert make_bot(name, 1).name == name
