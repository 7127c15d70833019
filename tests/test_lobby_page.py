"""The lobby page's data (``GET /``): what its set-up form offers."""

from __future__ import annotations

import asyncio
import json

from starlette.requests import Request

from ramsli.bots.levels import LEVELS, level_spec
from ramsli.server.web.routes import lobby


def _page_data(lang: str = "en") -> dict:
    scope = {"type": "http", "method": "GET", "path": "/", "query_string": f"lang={lang}".encode(), "headers": []}
    body = asyncio.run(lobby(Request(scope))).body.decode()
    return json.loads(body.split('id="ramsli-page">')[1].split("</script>")[0])


def test_the_lobby_offers_each_bot_level_once():
    """A tester's finding: the seat menus listed the tips player beside ``easy`` and ``montecarlo``
    beside ``hard``, so two entries named the same level (then "tips player, as easy" and "easy:
    plays the tips"). Each offered entry is another bot, and every level is offered, weakest first."""
    bots = _page_data()["bots"]
    specs = [level_spec(b) for b in bots]
    assert len(set(specs)) == len(specs), bots  # no bot offered twice under two names
    assert [b for b in bots if b in LEVELS] == list(LEVELS)  # each level once, in the ladder's order
    assert "tips" not in bots and "montecarlo" not in bots
    assert bots.index("random") < bots.index("easy")  # the beginner is the weakest
