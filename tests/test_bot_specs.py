"""Bot specs (``name:key=value``) are checked with messages that list what is allowed."""

import pytest

from ramsli.bots import bot_names, make_bot
from ramsli.bots.base import bot_options


def test_builtin_bots_are_listed():
    assert {"random", "rules", "montecarlo", "tips"} <= set(bot_names())


def test_unknown_bot_lists_the_names():
    with pytest.raises(ValueError, match="allowed are random, tips, rules, montecarlo"):
        make_bot("nonsense", 1)


def test_unknown_option_lists_the_bots_options():
    with pytest.raises(ValueError, match="its options are samples"):
        make_bot("montecarlo:samplez=3", 1)
    with pytest.raises(ValueError, match="takes no options"):
        make_bot("random:x=1", 1)


def test_known_option_is_used():
    assert "samples" in bot_options("montecarlo")
    bot = make_bot("montecarlo:samples=4", 1)
    assert bot.name == "montecarlo"


def test_option_values_must_have_the_right_type():
    with pytest.raises(ValueError, match="samples: 'abc' is not a whole number"):
        make_bot("montecarlo:samples=abc", 1)


def test_unknown_bot_lists_the_levels_apart_weakest_first_and_hints_at_lower_case():
    """Levels (issue #13) are named as a group after the bots, in the order of the ladder; a name in the
    wrong case is answered with the right one."""
    with pytest.raises(ValueError, match=r"or a level: beginner, easy, medium, hard, expert \(weakest first\)"):
        make_bot("hardd", 1)
    with pytest.raises(ValueError, match=r"unknown bot 'Easy' \(names are lower case: 'easy'\)"):
        make_bot("Easy", 1)


def test_an_unknown_option_gets_an_example_with_a_value():
    with pytest.raises(ValueError, match=r"\(e\.g\. expert:samples=200\)"):
        make_bot("expert:foo=1", 1)
    with pytest.raises(ValueError, match=r"level 'easy' takes no options \(it stands for the bot 'tips:eps=0\.35'\)"):
        make_bot("easy:samples=3", 1)


def test_an_empty_bot_name_gets_the_same_list_with_the_levels():
    from ramsli.frontends.game import split_bot_specs

    with pytest.raises(
        ValueError,
        match=r"empty bot name; allowed are random, .*, or a level: beginner, easy, medium, hard, "
        r"expert \(weakest first\)",
    ):
        split_bot_specs("easy,,hard")
    with pytest.raises(
        ValueError, match=r"--bots is empty; give a bot name, allowed are random, .*or a level: beginner, easy"
    ):
        split_bot_specs(" ")


def _listed(message: str) -> list[str]:
    """The names an "allowed are ..." message lists, bots then levels, in order."""
    allowed = message.split("allowed are ", 1)[1].split(" (")[0]
    return [n.strip() for n in allowed.replace(", or a level:", ",").split(",") if n.strip()]


@pytest.mark.usefixtures("english")
def test_the_allowed_list_names_each_bot_and_level_once():
    """``expert`` is both a bot and a level (issue #13): an unknown bot's message lists it once, with
    the levels, from the engine (``make_bot``), from ``ramsli play``'s check and from the CLI."""
    from typer.testing import CliRunner

    from ramsli.bots.base import allowed_bots_text
    from ramsli.cli import app
    from ramsli.frontends.game import allowed_bots_words, check_bot_names

    messages = []
    for check in (lambda: make_bot("hardd", 1), lambda: check_bot_names(["hardd"])):
        with pytest.raises(ValueError) as e:
            check()
        messages.append(str(e.value))
    messages += ["allowed are " + allowed_bots_text(), "allowed are " + allowed_bots_words()]
    for message in messages:
        names = _listed(message)
        assert len(names) == len(set(names)), message
        assert names.count("expert") == 1 and names[-4:] == ["easy", "medium", "hard", "expert"], message
    r = CliRunner().invoke(app, ["play", "--plain", "--bots", "hardd", "--lang", "de"])
    assert r.exit_code == 2
    output = " ".join(r.output.replace("│", " ").split())
    assert output.count("expert") == 1 and "montecarlo" in output, output


def test_every_level_name_the_pages_show_is_a_bot_name():
    """A fresh user's finding: the web pages call the ``random`` bot "beginner" (``R.botLevel``), but
    ``--bots beginner`` was an unknown bot. Each level name the pages show (the lobby's bots: the
    beginner and the levels) is a name wherever a bot is named, for the same bot, and listed."""
    from typer.testing import CliRunner

    from ramsli.bots.base import RandomBot, allowed_bots_text, describe_bot
    from ramsli.bots.levels import LEVEL_NAMES, LEVELS, level_spec
    from ramsli.cli import app
    from ramsli.server.web.routes import LOBBY_BOTS

    assert list(LEVEL_NAMES) == ["beginner", *LEVELS]  # weakest first, as the lobby offers them
    assert [level_spec(n) for n in LEVEL_NAMES] == [level_spec(b) for b in LOBBY_BOTS]
    assert isinstance(make_bot("beginner", 1), RandomBot) and describe_bot("beginner").plays_as == "random"
    assert set(LEVEL_NAMES) <= set(bot_names()) and "or a level: beginner, easy" in allowed_bots_text()
    with pytest.raises(ValueError, match=r"level 'beginner' takes no options"):
        make_bot("beginner:eps=0.1", 1)
    runner = CliRunner()
    for args in (
        ["tournament", "--bots", "beginner,easy,random", "--hands", "2"],
        ["arena", "--bots", "beginner,easy", "--deals", "2", "--set-deals", "2"],
        ["simulate", "--bots", "beginner", "--players", "3", "--hands", "2"],
    ):
        r = runner.invoke(app, args)
        assert r.exit_code == 0, (args, r.output)
    r = runner.invoke(app, ["play", "--plain", "--bots", "beginner,beginner", "--lang", "en"], input="quit\n")
    assert "unknown bot" not in r.output.lower(), r.output


def test_an_option_given_twice_is_refused():
    """A fresh user's finding: ``montecarlo:samples=2,samples=50`` started a game and nobody could tell
    which budget played; now it is refused, saying which option and where."""
    with pytest.raises(
        ValueError, match=r"bot option 'samples' is given twice \(in 'montecarlo:samples=2,samples=50'\)"
    ):
        make_bot("montecarlo:samples=2,samples=50", 1)
    with pytest.raises(ValueError, match="given twice"):
        make_bot("tips:eps=0.5, eps=0.2", 1)
