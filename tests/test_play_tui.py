"""The Textual app of ``ramsli play`` (issue #3.1), driven by Textual's pilot."""

from __future__ import annotations

import asyncio

from textual.widgets import Button, Static

from ramsli import Rules
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.storage import SaveFolder
from ramsli.frontends.tui import InfoScreen, RamsliApp
from ramsli.hand import Phase

NAMES = ["Tess", "Anna", "Bruno", "Carla", "Dario"]


def _content(app, selector) -> str:
    return str(app.screen.query_one(selector, Static).content)


def _button_of(app, card) -> str:
    """The selector of the card button that shows ``card`` (the hand is shown sorted, issue #12)."""
    label = T.card_label(card, app.suits)
    for i in range(1, 6):
        b = app.query_one(f"#card-{i}", Button)
        if not b.has_class("hidden") and str(b.label).removeprefix(f"{i}  ").removesuffix(" ★") == label:
            return f"#card-{i}"
    raise AssertionError(f"no button shows {card}")


def _key_of(app, card) -> str:
    """The number key of the button that shows ``card``."""
    return _button_of(app, card).removeprefix("#card-")


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
        bad = [c for c in cards if c not in legal]
        if bad and "illegal" not in checks:
            assert app.query_one(_button_of(app, bad[0]), Button).has_class("illegal")  # shown dimmed
            before = hand.fingerprint()
            await pilot.press(_key_of(app, bad[0]))
            await pilot.pause()
            checks["illegal"] = _content(app, "#message")
            checks["illegal_rules"] = list(app.cited)
            assert hand.fingerprint() == before  # refused, nothing changed
        good = [c for c in cards if c in legal]
        await pilot.click(_button_of(app, good[0]))
    raise AssertionError("the hand did not end")


def test_pilot_plays_a_full_hand(tmp_path):
    i18n.set_language("en")
    store = SaveFolder(tmp_path)
    table = LocalTable.new(Rules(end=["hands:5"]), NAMES, ["random"] * 4, seed=5, store=store)
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
            assert (
                "Stacks: "
                + ", ".join(
                    f"{'you' if s == 0 else n} {v}"  # the player is "you" (issue #12)
                    for s, (n, v) in enumerate(zip(NAMES, st.stacks_after))
                )
                in text
            )
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
    assert checks["illegal"].startswith("Not allowed: ") and "R4." not in checks["illegal"]  # the id on asking (r)
    assert "R4.10" in checks["illegal_rules"]
    assert "Hand 1 is over" in checks["screen"]
    saved = store.load()
    assert saved.hands_played == 1 and sum(saved.stacks) + saved.pot == 100  # R3.4


def test_pilot_german_table_and_forced_states(tmp_path):
    i18n.set_language("de")
    try:
        table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=2, store=SaveFolder(tmp_path), suits="german")
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


async def _until_my_turn(app, pilot, table, phase=None):
    for _ in range(300):
        await pilot.pause()
        if isinstance(app.screen, InfoScreen):
            return False
        if table.human_to_act() and (phase is None or table.hand.phase is phase):
            return True
        if table.human_to_act():  # another phase: answer it and go on
            if table.hand.phase is Phase.DECLARE:
                await pilot.press("i")
            else:
                legal = table.hand.legal_actions()
                cards = table.hand.observe(table.human).cards
                card = next(c for c in cards if any(a.card == c for a in legal))
                await pilot.click(_button_of(app, card))
    raise AssertionError("the human's turn did not come")


def _footer_keys(app) -> dict[str, str]:
    """Key -> description of the bindings the footer shows now (enabled or dimmed)."""
    return {key: ab.binding.description for key, ab in app.screen.active_bindings.items() if ab.binding.show}


def test_footer_is_translated_and_shows_only_the_keys_of_the_phase(tmp_path):
    i18n.set_language("de")
    try:
        table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=4, store=SaveFolder(tmp_path))
        app = RamsliApp(table, speed=0)
        seen = {}

        async def run():
            async with app.run_test(size=(110, 36)) as pilot:
                assert await _until_my_turn(app, pilot, table, Phase.DECLARE)
                seen["declare"] = _footer_keys(app)
                await pilot.press("i")
                if await _until_my_turn(app, pilot, table, Phase.PLAY):
                    seen["play"] = _footer_keys(app)
                await pilot.press("q")

        asyncio.run(run())
    finally:
        i18n.set_language("en")
    assert seen["declare"]["i"] == "rein" and seen["declare"]["o"] == "raus"  # R9
    assert "1" not in seen["declare"] and seen["declare"]["q"] == "speichern und beenden"
    assert seen["play"]["1"] == "Karte spielen" and "i" not in seen["play"] and "o" not in seen["play"]
    assert seen["play"]["l"] == "Verlauf"


def test_q_on_the_hand_panel_saves_and_quits(tmp_path):
    i18n.set_language("en")
    store = SaveFolder(tmp_path)
    table = LocalTable.new(Rules(end=["hands:5"]), NAMES, ["random"] * 4, seed=5, store=store)
    app = RamsliApp(table, speed=0)
    seen = {}

    async def run():
        async with app.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            seen["title"] = app.sub_title
            await _play_one_hand(app, pilot, table, {"illegal": "skip"})
            assert isinstance(app.screen, InfoScreen) and app.screen.kind == "hand"
            seen["recent"] = str(app.screen_stack[0].query_one("#recent", Static).content).splitlines()
            seen["buttons"] = [str(b.label) for b in app.screen.query(Button)]
            await pilot.press("q")
            await pilot.pause()

    asyncio.run(run())
    assert app.quit_saved and app.return_code == 0
    assert seen["title"].startswith("Hand 1 of 5 — dealer: ")  # R3.6 end shown in the header
    assert seen["buttons"] == ["Next (Enter, Esc)", "The coach's review (c)", "save and quit (q)"]
    assert len(seen["recent"]) >= 8  # the last events of the hand stay on screen
    saved = store.load()
    assert saved.hands_played == 1 and saved.end_reason is None
    assert sum(saved.stacks) + saved.pot == 100  # R3.4


def test_run_app_shows_the_notice_inside_and_prints_the_saved_line(tmp_path, monkeypatch, capsys):
    from ramsli.frontends import tui

    i18n.set_language("en")
    table = LocalTable.new(Rules(end=["win-at:30"]), NAMES[:3], ["random"] * 2, seed=1, store=SaveFolder(tmp_path))
    seen = {}

    def fake_run(self):  # the pilot instead of a terminal
        async def run():
            async with self.run_test(size=(110, 36)) as pilot:
                await pilot.pause()
                seen["notes"] = [n.message for n in self._notifications]
                seen["title"] = self.sub_title
                await pilot.press("q")

        asyncio.run(run())
        return self.return_code

    monkeypatch.setattr(tui.RamsliApp, "run", fake_run)
    code = tui.run_app(table, speed=0, notice="Resuming the session after hand 3.")
    assert code == 0
    assert seen["notes"] == ["Resuming the session after hand 3."]
    assert seen["title"].startswith("Hand 1 — dealer: ") and seen["title"].endswith(" · first to 30 counters")
    # a data folder other than the default is part of the command to continue (issue #3.4)
    assert capsys.readouterr().out == f"Saved. Continue later with: ramsli play --resume --data-dir {tmp_path}\n"
    assert table.hand is None and SaveFolder(tmp_path).load().hands_played == 0


def test_session_end_text():
    import datetime as dt

    from ramsli.frontends import text as T

    i18n.set_language("en")
    now = dt.datetime(2024, 5, 1, 20, 0)
    assert T.session_end_text(Rules()) == "until a player is bust"  # R3.5
    assert T.session_end_text(Rules(bust="leave")) == "until one player is left"
    assert T.session_end_text(Rules(end=["hands:10"])) == ""  # the title says "Hand 2 of 10"
    assert T.hand_title(2, "Anna", Rules(end=["hands:10"])) == "Hand 2 of 10 — dealer: Anna"
    assert (
        T.session_end_text(Rules(end=["win-at:30", "time:90"]), elapsed=1800, now=now)
        == "first to 30 counters · until 21:00"
    )
    i18n.set_language("de")
    try:
        assert T.session_end_text(Rules()) == "bis ein Spieler pleite ist"
        assert T.hand_title(2, "Anna", Rules(end=["hands:10"])) == "Spiel 2 von 10 — Geber: Anna"
    finally:
        i18n.set_language("en")


def _footer_displays(app) -> dict[str, str]:
    """Action -> key text of the bindings the footer shows now."""
    return {
        ab.binding.action: ab.binding.key_display or key
        for key, ab in app.screen.active_bindings.items()
        if ab.binding.show
    }


def test_number_keys_say_why_and_the_footer_counts_the_cards(tmp_path):
    """Issue #3.1: "1-N" for the N cards left, no play keys once out, and a number key that does
    nothing now says why, as --plain does (R4.5, R4.10)."""
    i18n.set_language("en")
    table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=4, store=SaveFolder(tmp_path))
    app = RamsliApp(table, speed=0)
    seen = {}

    async def run():
        async with app.run_test(size=(110, 36)) as pilot:
            assert await _until_my_turn(app, pilot, table, Phase.DECLARE)
            before = table.hand.fingerprint()
            await pilot.press("1")
            await pilot.pause()
            seen["declare-1"] = _content(app, "#message")
            assert table.hand.fingerprint() == before
            await pilot.press("i")
            assert await _until_my_turn(app, pilot, table, Phase.PLAY)
            seen["play-5"] = _footer_displays(app).get("card(1)")
            await pilot.press("7")
            await pilot.pause()
            seen["play-7"] = _content(app, "#message")
            legal = table.hand.legal_actions()
            cards = table.hand.observe(table.human).cards
            card = next(c for c in cards if any(a.card == c for a in legal))
            await pilot.press(_key_of(app, card))
            await pilot.pause()
            if await _until_my_turn(app, pilot, table, Phase.PLAY):
                seen["play-4"] = _footer_displays(app).get("card(1)")
            await pilot.press("q")

    asyncio.run(run())
    assert seen["declare-1"] == "Not allowed: Declare in or out first"
    assert seen["play-7"] == "There is no card number 7: your cards are numbered 1 to 5."
    assert seen["play-5"] == "1-5" and seen.get("play-4") in ("1-4", None)
    from ramsli.frontends.tui import play_keys

    assert [play_keys(n) for n in (5, 3, 1)] == ["1-5", "1-3", "1"]


def test_no_play_keys_after_declaring_out(tmp_path):
    i18n.set_language("en")
    table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=4, store=SaveFolder(tmp_path))
    app = RamsliApp(table, speed=1000)  # bots wait: the hand stays where the player left it
    seen = {}

    async def run():
        async with app.run_test(size=(110, 36)) as pilot:
            for _ in range(50):
                await pilot.pause()
                if table.human_to_act():
                    break
                app._bot_move()
            assert table.hand.phase is Phase.DECLARE and table.forced_declaration() is None
            await pilot.press("o")
            await pilot.pause()
            while table.hand is not None and not table.hand.is_over and table.hand.phase is Phase.DECLARE:
                app._bot_move()
                await pilot.pause()
            seen["actions"] = set(_footer_displays(app))
            seen["phase"] = table.hand.phase if table.hand is not None else None
            await pilot.press("q")

    asyncio.run(run())
    assert "card(1)" not in seen["actions"] and "declare(True)" not in seen["actions"]


def test_quit_in_the_app_and_resume_continues_the_hand(tmp_path):
    """Issue #3.4: q in the middle of a hand saves its actions; the resumed app shows the same hand."""
    i18n.set_language("en")
    store = SaveFolder(tmp_path)
    table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=4, store=store)
    app = RamsliApp(table, speed=0)
    seen = {}

    async def run(app, table, key):
        async with app.run_test(size=(110, 36)) as pilot:
            assert await _until_my_turn(app, pilot, table, Phase.PLAY)
            seen[key] = (
                [str(a) for a in table.hand.history],
                table.hand.observe(table.human).cards,
                str(app.query_one("#recent", Static).content),
            )
            await pilot.press("q")

    asyncio.run(run(app, table, "first"))
    saved = store.load()
    assert saved.hand_actions == seen["first"][0] and "p1 in" in saved.hand_actions
    resumed = LocalTable.resume(saved, store)
    assert resumed.resumed_hand and [str(a) for a in resumed.hand.history] == seen["first"][0]
    app2 = RamsliApp(resumed, speed=0)
    asyncio.run(run(app2, resumed, "again"))
    assert seen["again"][:2] == seen["first"][:2]  # the same hand, the same cards, nothing re-dealt
    assert "You: in" in seen["again"][2]  # the declaration made before the quit is shown


def test_c_on_the_hand_panel_opens_the_coachs_review(tmp_path, monkeypatch):
    """Issue 23: ``c`` on a finished hand's panel opens the coach's review of the player's own
    decisions (computed on a thread; the panel says so meanwhile); Esc goes back to the panel."""
    from ramsli.frontends import tui
    from ramsli.frontends.tui import ReviewScreen

    i18n.set_language("en")
    asked = []

    def fake_review(table):
        asked.append((table.human, table.last.number))
        return "The coach on hand 1", ["Mistake — Leading A♠ to trick 2: about 1.4 counters worse than leading 7♥"]

    monkeypatch.setattr(tui, "last_hand_review", fake_review)
    table = LocalTable.new(Rules(end=["hands:5"]), NAMES, ["random"] * 4, seed=5, store=SaveFolder(tmp_path))
    app = RamsliApp(table, speed=0)
    seen = {}

    async def run():
        async with app.run_test(size=(110, 36)) as pilot:
            await _play_one_hand(app, pilot, table, {"illegal": "skip"})
            await pilot.press("c")
            for _ in range(200):
                await pilot.pause()
                if isinstance(app.screen, ReviewScreen) and app.screen.lines is not None:
                    break
            assert isinstance(app.screen, ReviewScreen)
            seen["text"] = _content(app, "#review-text")
            await pilot.press("escape")
            await pilot.pause()
            seen["back"] = isinstance(app.screen, InfoScreen) and app.screen.kind == "hand"

    asyncio.run(run())
    assert asked == [(0, 1)]
    assert "Leading A♠ to trick 2" in seen["text"] and seen["back"]
