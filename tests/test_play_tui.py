"""The Textual app of ``ramsli play`` (issue #3.1), driven by Textual's pilot."""

from __future__ import annotations

import asyncio

from textual.widgets import Button, Static

from ramsli import Rules
from ramsli.frontends import i18n
from ramsli.frontends.game import Table
from ramsli.frontends.storage import Store
from ramsli.frontends.tui import InfoScreen, RamsliApp
from ramsli.hand import Phase

NAMES = ["Tess", "Anna", "Bruno", "Carla", "Dario"]


def _content(app, selector) -> str:
    return str(app.screen.query_one(selector, Static).content)


async def _play_one_hand(app, pilot, table, checks):
    """Declare in, try an unplayable card once (if any), then play legal cards until the hand is over."""
    for _ in range(300):
        await pilot.pause()
        if isinstance(app.screen, InfoScreen):
            return
        if not table.human_to_act():
            continue
        hand = table.hand
        if hand.phase is Phase.DECLARE:
            await pilot.press("i")
            continue
        cards = hand.observe(table.human).cards
        legal = {a.card for a in hand.legal_actions()}
        bad = [i for i, c in enumerate(cards, 1) if c not in legal]
        if bad and "illegal" not in checks:
            assert app.query_one(f"#card-{bad[0]}", Button).has_class("illegal")  # shown dimmed
            before = hand.fingerprint()
            await pilot.press(str(bad[0]))
            await pilot.pause()
            checks["illegal"] = _content(app, "#message")
            assert hand.fingerprint() == before  # refused, nothing changed
        good = [i for i, c in enumerate(cards, 1) if c in legal]
        await pilot.click(f"#card-{good[0]}")
    raise AssertionError("the hand did not end")


def test_pilot_plays_a_full_hand(tmp_path):
    i18n.set_language("en")
    store = Store(tmp_path)
    table = Table.new(Rules(end=["hands:5"]), NAMES, ["random"] * 4, seed=5, store=store)
    app = RamsliApp(table, speed=0)
    checks: dict[str, str] = {}

    async def run():
        async with app.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            seat0 = _content(app, "#seat-0")
            assert "p1 Tess" in seat0 and "stack 19" in seat0  # after the ante (R4.1)
            dealer = table.hand.dealer
            assert "dealer" in _content(app, f"#seat-{dealer}")
            info = _content(app, "#info")
            assert "Pot: 5" in info and "Turn-up:" in info and "Trump:" in info
            await _play_one_hand(app, pilot, table, checks)
            text = _content(app, "#panel-text")
            st = table.last.settlement
            assert "Stacks: " + ", ".join(f"{n} {v}" for n, v in zip(NAMES, st.stacks_after)) in text
            assert "Carry-over to the next hand" in text or st.kind == "thrown-in"
            checks["screen"] = app.screen_text()
            await pilot.press("enter")  # next hand
            await pilot.pause()
            assert table.hands_played == 1 and table.hand is not None
            assert "Hand 2" in app.sub_title
            await pilot.press("l")
            await pilot.pause()
            assert isinstance(app.screen, InfoScreen)
            assert "Dealer: " + NAMES[table.hand.dealer] in _content(app, "#panel-text")
            await pilot.press("escape")
            await pilot.pause()
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(run())
    assert "illegal" in checks  # seed 5 deals Tess a card that may not be played
    assert checks["illegal"].startswith("Not allowed: ") and checks["illegal"].endswith("(R4.10)")
    assert "Hand 1 is over" in checks["screen"]
    saved = store.load()
    assert saved.hands_played == 1 and sum(saved.stacks) + saved.pot == 100  # R3.4


def test_pilot_german_table_and_forced_states(tmp_path):
    i18n.set_language("de")
    try:
        table = Table.new(Rules(), NAMES[:3], ["random"] * 2, seed=2, store=Store(tmp_path), suits="german")
        app = RamsliApp(table, speed=0)

        async def run():
            async with app.run_test(size=(110, 36)) as pilot:
                await pilot.pause()
                info = _content(app, "#info")
                assert "Pott:" in info and "Trumpf:" in info
                assert any(w in info for w in ("Eichel", "Grün", "Herz", "Schellen"))
                assert "Chips 19" in _content(app, "#seat-0")
                await pilot.press("q")

        asyncio.run(run())
    finally:
        i18n.set_language("en")
