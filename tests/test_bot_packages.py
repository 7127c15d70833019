"""Bots as packages (issue 26, item 2): the entry-point group ``ramsli.bots``, the example package, bad bots.

The example package ``examples/ramsli-example-bot`` is really installed: built by pip (no build
isolation, no index: offline and fast) into a folder of this test session (``--target``), which is
put on ``sys.path`` for the in-process tests and on ``PYTHONPATH`` for the commands run as
processes. Each xdist worker installs its own copy from its own copy of the sources, so nothing is
shared between workers. Bad bots come from a distribution written here by hand (a ``.dist-info``
folder with ``entry_points.txt``, as pip writes it): a bot that raises, one that answers illegally,
an entry point whose module does not exist, a factory that raises, a name taken by a built-in bot.
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ramsli import Hand, Rules
from ramsli.analysis.arena import run_arena
from ramsli.analysis.dataset import generate
from ramsli.analysis.tournament import run_tournament
from ramsli.bots.base import bot_names, describe_bot, make_bot, package_bots, refresh_bots
from ramsli.bots.packages import GuardedBot
from ramsli.cli import app
from ramsli.history import HandHistory

from helpers import scaled

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = ROOT / "examples" / "ramsli-example-bot"
runner = CliRunner()


@pytest.fixture(scope="session")
def example_target(tmp_path_factory) -> Path:
    """The example bot package, installed by pip into a folder of its own (``--target``)."""
    base = tmp_path_factory.mktemp("example-bot")
    src = base / "src"
    shutil.copytree(EXAMPLE, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    target = base / "site"
    r = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation", "--no-index"]
        + ["--disable-pip-version-check", "--target", str(target), str(src)],
        capture_output=True,
        text=True,
        timeout=scaled(300),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert (target / "ramsli_example_bot" / "__init__.py").is_file()
    return target


FAULTY = '''
from ramsli.hand import Action


class RaisingBot:
    """Raises on every decision."""

    def __init__(self, seed=None, *, rng=None):
        pass

    def act(self, obs):
        raise RuntimeError("boom")


class IllegalBot:
    """Answers with an action that is never legal when it has a choice (another seat's), or text."""

    def __init__(self, seed=None, as_text: bool = False):
        self.as_text = as_text

    def act(self, obs):
        other = Action.declare((obs.seat + 1) % len(obs.stacks), True)
        return str(other) if self.as_text else other


class BadInit:
    def __init__(self, seed=None):
        raise RuntimeError("cannot start")

    def act(self, obs):
        return obs.legal[0]
'''

ENTRY_POINTS = """\
[ramsli.bots]
raiser = faulty_bots:RaisingBot
illegal = faulty_bots:IllegalBot
ghost = no_such_module_for_ramsli:Bot
badinit = faulty_bots:BadInit
expert = faulty_bots:RaisingBot
Bad.Name = faulty_bots:RaisingBot
"""


@pytest.fixture(scope="session")
def faulty_target(tmp_path_factory) -> Path:
    """A distribution ``faulty-bots`` with bad bots, written as pip would install it."""
    target = tmp_path_factory.mktemp("faulty-bots")
    (target / "faulty_bots.py").write_text(textwrap.dedent(FAULTY), encoding="utf-8")
    info = target / "faulty_bots-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: faulty-bots\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")
    return target


def _on_path(*folders: Path):
    for f in folders:
        sys.path.insert(0, str(f))
    refresh_bots()
    try:
        yield
    finally:
        for f in folders:
            sys.path.remove(str(f))
        for mod in ("ramsli_example_bot", "faulty_bots"):
            sys.modules.pop(mod, None)
        refresh_bots()


@pytest.fixture
def example(example_target):
    """The example package on ``sys.path`` for one test (and the registry reading it)."""
    yield from _on_path(example_target)


@pytest.fixture
def faulty(faulty_target, example_target):
    """The bad bots (and the example) on ``sys.path`` for one test."""
    yield from _on_path(faulty_target, example_target)


def _env(*folders: Path) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([*map(str, folders), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return env


# -- the example package --------------------------------------------------------------------


def test_option_types_follow_annotations_and_defaults():
    """A bool option reads true/false (not any text as True); a float option annotated ``float`` with an
    int default takes fractions; an int option refuses them; a range is enforced."""
    assert make_bot("tips:tracking=false").tracking is False
    assert make_bot("tips:tracking=on").tracking is True
    with pytest.raises(ValueError, match="tracking: 'perhaps' is not true or false"):
        make_bot("tips:tracking=perhaps")
    assert make_bot("montecarlo:ms=2.5").ms == 2.5
    with pytest.raises(ValueError, match="samples: 2.5 is not a whole number"):
        make_bot("montecarlo:samples=2.5")
    with pytest.raises(ValueError, match=r"variant=9 is out of range: allowed is 0..7"):
        make_bot("tips:variant=9")
    assert [o.kind for o in describe_bot("montecarlo").options] == ["int", "float", "int", "float", "int", "float"]
    assert describe_bot("hard").kind == "level" and describe_bot("hard").plays_as == "montecarlo:samples=6,eps=0.1"


def test_example_bot_is_known_with_its_options_and_ranges(example):
    assert "lowest" in bot_names()
    assert package_bots()["lowest"].package == "ramsli-example-bot"
    info = describe_bot("lowest")
    assert (info.kind, info.origin) == ("package", "package ramsli-example-bot 1.0.0")
    assert [o.text() for o in info.options] == ["threshold=0.45 (float, 0..1)", "lead_trumps=False (bool)"]
    bot = make_bot("lowest:threshold=0.6,lead_trumps=yes", seed=3)
    assert isinstance(bot, GuardedBot) and bot.name == "lowest"
    assert (bot.inner.threshold, bot.inner.lead_trumps) == (0.6, True)
    with pytest.raises(ValueError, match=r"threshold=2 is out of range: allowed is 0.0..1.0"):
        make_bot("lowest:threshold=2")
    with pytest.raises(ValueError, match=r"lead_trumps: 'maybe' is not true or false"):
        make_bot("lowest:lead_trumps=maybe")
    with pytest.raises(ValueError, match=r"has no option 'depth'"):
        make_bot("lowest:depth=3")


def test_example_bot_plays_the_lowest_winning_card_and_declares_by_threshold(example):
    """R4.10/R4.11: over random deals it answers legally, wins a trick with the lowest card that wins it,
    and declares in exactly when its hand's chance reaches the threshold (R4.5)."""
    import ramsli_example_bot as ex

    from ramsli.hand import Phase, trick_winner

    for seed in range(30):
        hand = Hand.new(Rules.preset("traditional"), [20] * 4, dealer=seed % 4, rng=random.Random(seed))
        bots = {s: make_bot("lowest", seed=s) for s in range(4)}
        while not hand.is_over:
            s = hand.to_act
            obs = hand.observe(s)
            action = bots[s].act(obs)
            assert action in obs.legal
            if obs.phase is Phase.DECLARE and len(obs.legal) > 1:
                assert bool(action.kind == "in") == (ex.trick_chance(obs.cards, obs.trump) >= 0.45)
            if obs.phase is Phase.PLAY and obs.current and len(obs.legal) > 1:
                winners = [a.card for a in obs.legal if trick_winner([*obs.current, (s, a.card)], obs.trump) == s]
                if winners:
                    assert action.card in winners

                    def key(c, trump=obs.trump):
                        return (c.suit is None or c.suit == trump, c.rank)

                    assert key(action.card) == min(map(key, winners))
            hand.apply(action)
        assert hand.total() == 80  # R3.4
        assert all(b.faults == 0 for b in bots.values())


def test_example_bot_in_plain_play(example_target, tmp_path):
    """``ramsli play --plain --bots lowest`` in a process that finds the package by its metadata."""
    cycle = "in\n1\n2\n3\n4\n5\n" * 60
    r = subprocess.run(
        [sys.executable, "-m", "ramsli", "play", "--plain", "--seed", "5", "--players", "3"]
        + ["--bots", "lowest,lowest:threshold=0.2", "--rule", "end=hands:2", "--speed", "0", "--lang", "en"]
        + ["--name", "Tess", "--data-dir", str(tmp_path)],
        input=cycle,
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env=_env(example_target),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "2 hands played." in r.stdout
    saved = json.loads((tmp_path / "session.json").read_text(encoding="utf-8"))
    assert saved["hands_played"] == 2
    assert "lowest:threshold=0.2" in json.dumps(saved)
    histories = sorted((tmp_path / "sessions" / saved["session_id"]).glob("hand-*.toml"))
    assert len(histories) == 2
    for h in histories:
        HandHistory.read(h).replay()  # every action of the bots legal, the settlement re-computed (R5)
    assert "tips move" not in r.stderr  # no fault


def test_example_bot_in_a_tournament(example):
    res = run_tournament(["lowest", "easy", "random"], Rules(), deals=6, seed=2, duplicate=True)
    assert [b.hands for b in res.bots] == [18, 18, 18]
    assert sum(b.mean for b in res.bots) <= 0  # counters only move, some into the next pot (R3.4, R5.4)
    again = run_tournament(["lowest", "easy", "random"], Rules(), deals=6, seed=2, duplicate=True)
    assert [b.mean for b in again.bots] == [b.mean for b in res.bots]


def test_example_bot_in_the_tournament_and_arena_commands(example_target, tmp_path):
    env = _env(example_target)
    base = [sys.executable, "-m", "ramsli"]
    t = subprocess.run(
        base + ["tournament", "--bots", "lowest,easy,random", "--hands", "4", "--duplicate", "--quiet"],
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env=env,
    )
    assert t.returncode == 0, t.stdout + t.stderr
    assert "lowest" in t.stdout
    out = tmp_path / "arena.json"
    a = subprocess.run(
        base + ["arena", "--bots", "lowest,easy,random", "--deals", "6", "-q", "--out", str(out), "--jobs", "2"],
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env=env,
    )
    assert a.returncode == 0, a.stdout + a.stderr
    data = json.loads(out.read_text(encoding="utf-8"))
    lowest = next(e for e in data["entrants"] if e["label"] == "lowest")
    assert (lowest["origin"], lowest["matches"], lowest["faults"]) == ("package ramsli-example-bot 1.0.0", 6, 0)
    listed = subprocess.run(
        base + ["arena", "--list-bots"], capture_output=True, text=True, timeout=scaled(60), env=env
    )
    assert "lowest" in listed.stdout and "ramsli-example-bot" in listed.stdout


def test_example_bot_in_the_arena(example):
    res = run_arena(["lowest", "easy", "random"], deals=9, seed=4, presets=["traditional", "nap"])
    got = {e.label: e for e in res.entrants}
    assert got["lowest"].origin == "package ramsli-example-bot 1.0.0"
    assert got["lowest"].matches == 9 and got["lowest"].faults == 0
    assert got["lowest"].hands == 27


def test_example_bot_as_a_gymnasium_opponent(example):
    pytest.importorskip("gymnasium")
    from ramsli.rl.gym_env import RamsliEnv

    env = RamsliEnv(players=3, seat=0, opponents=["lowest", "lowest:threshold=0.9"])
    obs, info = env.reset(seed=3)
    assert isinstance(env.bots[1], GuardedBot)
    done = False
    while not done:
        action = int(info["action_mask"].nonzero()[0][0])
        obs, _reward, done, _trunc, info = env.step(action)
    assert env.hand is not None and env.hand.is_over


# -- the server admits a package's bot only if the operator allows it -----------------------


def test_server_seats_a_package_bot_only_when_allowed(example):
    from ramsli.server.tables.hub import Hub, SpecError

    body = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "lowest:threshold=0.3"}]}
    with pytest.raises(SpecError, match=r"seat p2: the bot lowest comes from the installed package ramsli-example-bot"):
        Hub(None).parse_spec(body)
    with pytest.raises(SpecError, match=r"--allow-bot lowest"):
        Hub(None, allowed_bots=["other"]).parse_spec(body)
    _rules, _preset, seats, _opts, _seed = Hub(None, allowed_bots=["lowest"]).parse_spec(body)
    assert seats[1] == {"kind": "bot", "bot": "lowest:threshold=0.3"}
    with pytest.raises(SpecError, match=r"out of range"):
        Hub(None, allowed_bots=["lowest"]).parse_spec(
            {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "lowest:threshold=7"}]}
        )
    Hub(None).parse_spec({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "hard"}]})  # built-ins need nothing


def test_serve_refuses_an_allow_bot_that_is_not_installed(example):
    r = runner.invoke(app, ["serve", "--allow-bot", "nosuchbot", "--port", "1"])
    assert r.exit_code == 2
    assert "--allow-bot 'nosuchbot' names no bot of an installed package; installed are lowest" in r.output


def test_create_app_stores_the_allowed_bots(example):
    from ramsli.server.app import create_app

    assert create_app("sqlite+aiosqlite:///:memory:", allowed_bots=["lowest"]).state.allowed_bots == {"lowest"}


# -- bad bots: reported by name, the tips move instead, nothing stops -----------------------


def _tips_moves_for(spec: str, seed: int, players: int = 3) -> tuple[list[str], list[str], GuardedBot]:
    """Play one hand with ``spec`` at seat 0 and ``tips`` elsewhere; also the same hand all ``tips``."""
    moves = []
    bot0 = None
    for who in (spec, "tips"):
        hand = Hand.new(Rules(), [20] * players, dealer=0, rng=random.Random(seed))
        bots = {s: make_bot(who if s == 0 else "tips", seed=s) for s in range(players)}
        while not hand.is_over:
            s = hand.to_act
            hand.apply(bots[s].act(hand.observe(s)))
        moves.append([str(a) for a in hand.history])
        if who == spec:
            bot0 = bots[0]
    assert isinstance(bot0, GuardedBot)
    return moves[0], moves[1], bot0


@pytest.mark.parametrize("spec", ["raiser", "illegal", "illegal:as_text=true", "ghost", "badinit"])
def test_a_faulty_bot_plays_the_tips_move_logged_by_name(faulty, caplog, spec):
    """A bot that raises, answers illegally (an Action or text), whose module does not import, or whose
    factory raises: every one of its decisions is the tips move, each logged with its name."""
    caplog.set_level(logging.DEBUG, logger="ramsli.bots")
    mine, tips, bot = _tips_moves_for(spec, seed=11)
    assert mine == tips  # the tips player decided for it
    assert bot.faults >= 1
    name = spec.partition(":")[0]
    text = caplog.text
    assert f"bot {name!r} (package faulty-bots 0.1)" in text
    if name == "raiser":
        assert "raised RuntimeError: boom" in text and "the tips move" in text
    elif name == "illegal":
        assert "which is not legal here" in text
    elif name == "ghost":
        assert "no_such_module_for_ramsli:Bot failed to import: ModuleNotFoundError" in text
        assert describe_bot("ghost").error is not None
    else:
        assert "its factory raised RuntimeError: cannot start" in text


def test_names_of_built_ins_and_bad_names_are_not_taken_by_packages(faulty, caplog):
    caplog.set_level(logging.WARNING, logger="ramsli.bots")
    refresh_bots()
    found = package_bots()
    assert "expert" not in found and "Bad.Name" not in found
    assert {"raiser", "illegal", "ghost", "badinit", "lowest"} <= set(found)
    assert "bot 'expert' of package faulty-bots 0.1 is skipped: 'expert' is a built-in bot or level" in caplog.text
    assert "bot 'Bad.Name' of package faulty-bots 0.1 is skipped" in caplog.text
    assert not isinstance(make_bot("expert", seed=1), GuardedBot)  # the built-in expert


def test_faulty_bots_never_stop_a_tournament_an_arena_or_a_dataset(faulty):
    res = run_tournament(["raiser", "ghost", "illegal", "random"], Rules(), deals=3, seed=1, duplicate=True)
    assert [b.hands for b in res.bots] == [12] * 4
    arena = run_arena(["raiser", "ghost", "lowest", "random"], deals=4, seed=2)
    got = {e.label: e for e in arena.entrants}
    assert got["raiser"].faults == got["raiser"].decisions > 0
    assert got["ghost"].faults == got["ghost"].decisions > 0
    assert "raised RuntimeError: boom" in got["raiser"].error
    assert "failed to import" in got["ghost"].error
    assert got["lowest"].faults == 0 and got["lowest"].error is None
    lines: list[str] = []
    summary = generate(["raiser", "illegal", "lowest"], Rules(), hands=4, seed=3, on_line=lines.append)
    assert [b.faults > 0 for b in summary.bots] == [True, True, False]
    for line in lines:
        HandHistory.from_json(line).replay()  # every written hand is legal


def test_a_faulty_bot_never_stops_a_server_table(faulty):
    """The server's bot worker (``_decide``) gets the tips move from a raising package bot."""
    from ramsli.server.tables.bot_driver import _decide

    hand = Hand.new(Rules(), [20] * 3, dealer=0, rng=random.Random(4))
    obs = hand.observe(hand.to_act)
    assert str(_decide("raiser", 1, obs)) == str(make_bot("tips").act(obs))


def test_arena_command_warns_about_a_bot_that_cannot_be_used(faulty_target, example_target):
    r = subprocess.run(
        [sys.executable, "-m", "ramsli", "arena", "--bots", "ghost,easy,random", "--deals", "2", "-q"],
        capture_output=True,
        text=True,
        timeout=scaled(120),
        env=_env(faulty_target, example_target),
    )
    assert r.returncode == 0, r.stdout + r.stderr
    assert "warning: bot 'ghost' (package faulty-bots 0.1) cannot be used" in r.stderr
    assert "decisions taken by the tips player" in r.stderr


def test_docs_show_the_example_package_as_it_is():
    """docs/bots.md holds the example's files verbatim, each in a fenced block."""
    doc = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    for rel, lang in (("pyproject.toml", "toml"), ("src/ramsli_example_bot/__init__.py", "python")):
        text = (EXAMPLE / rel).read_text(encoding="utf-8")
        assert f"`examples/ramsli-example-bot/{rel}`:\n\n```{lang}\n{text}```\n" in doc, rel
