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
