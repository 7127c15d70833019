"""Issue #12, "cards that read as cards" and "any terminal": the hand sorted with the trumps together,
red/black and four-colour cards, German-suited letters, rank letters and card input per language,
and a table of six that fits 80x24. Textual pilot tests for the app; unit tests for the labels and input."""

from __future__ import annotations

import asyncio
import io
import json

import pytest
from textual.color import Color
from textual.widgets import Button, Static
from typer.testing import CliRunner

from ramsli import Rules
from ramsli.cards import Card, CardError, full_deck
from ramsli.cli import app as cli_app
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.plain import AmbiguousCard, PlainGame, _Reply, parse_card, parse_command
from ramsli.frontends.storage import SavedSession, SaveFolder
from ramsli.frontends.tui import InfoScreen, RamsliApp
from ramsli.hand import Phase
from ramsli.i18n import LANGS

runner = CliRunner()
NAMES = ["Tess", "Anna", "Bruno", "Carla", "Dario", "Elke"]
ALL_CARDS = list(full_deck()) + [Card.parse("X1"), Card.parse("X2")]
#: rank letters of the seeds' words (rules-*.txt): Ass König Dame Bube, Aas Heer Vrouw Boer, Asso Re Donna Fante;
#: fr As Roi Dame Valet
LETTERS = {"en": "AKQJ", "de": "AKDB", "nl": "AHVB", "it": "ARDF", "fr": "ARDV"}
GERMAN_PACK = ({14: "D", 13: "K", 12: "O", 11: "U"}, {"S": "Gr", "H": "He", "D": "Sc", "C": "Ei"})


pytestmark = pytest.mark.usefixtures("english")


def _is_sorted_hand(cards, trump) -> bool:
    """Issue #12: the trumps together at the left end (jokers first, big before little, D-2), every
    other suit in one group, ranks high to low inside each group."""
    groups = ["joker" if c.suit is None else ("trump" if c.suit == trump else c.suit) for c in cards]
    runs = [g for i, g in enumerate(groups) if i == 0 or groups[i - 1] != g]
    if len(runs) != len(set(runs)):
        return False  # a suit split in two
    trumps = [g for g in runs if g in ("joker", "trump")]
    if runs[: len(trumps)] != trumps or trumps not in ([], ["joker"], ["trump"], ["joker", "trump"]):
        return False
    return all(a.rank > b.rank for a, b, ga, gb in zip(cards, cards[1:], groups, groups[1:]) if ga == gb)


# -- unit: order, labels, colours ---------------------------------------------------------------


def test_hand_order_puts_the_trumps_together_at_one_end_and_groups_the_suits():
    import random

    rng = random.Random(12)
    for _ in range(300):
        cards = rng.sample(ALL_CARDS, 5)
        trump = rng.choice("SHDC")
        shown = T.hand_order(cards, trump)
        assert sorted(map(str, shown)) == sorted(map(str, cards))  # the same cards, none lost
        assert _is_sorted_hand(shown, trump), (cards, trump, shown)
        assert T.hand_order(shown[1:], trump) == shown[1:]  # a played card leaves the others in place
    assert not _is_sorted_hand([Card.parse(t) for t in ("7S", "AS")], "H")  # the checker can say no
    assert not _is_sorted_hand([Card.parse(t) for t in ("AS", "AH", "7S")], "D")
    assert not _is_sorted_hand([Card.parse(t) for t in ("AS", "AH")], "H")  # trumps not at the end


@pytest.mark.parametrize("lang", LANGS)
def test_rank_letters_per_language_and_german_pack_letters(lang):
    i18n.set_language(lang)
    for rank, letter in zip((14, 13, 12, 11), LETTERS[lang]):
        assert T.card_label(Card.of(rank, "H")) == letter + "♥"
        assert T.rank_letter(rank) == letter
    assert T.card_label(Card.parse("TS")) == "10♠" and T.card_label(Card.parse("7C")) == "7♣"
    ranks, suits = GERMAN_PACK  # D-1: the German pack's own letters in every language, no words
    for c in full_deck():
        label = T.card_label(c, "german")
        assert label == ranks.get(c.rank, str(c.rank)) + suits[c.suit]
        assert len(label) <= 4 and not any(w in label for w in ("Grün", "Schellen", "Eichel", "Herz"))
    assert str(Card.parse("QH")) == "QH"  # the canonical notation is never localised


def test_card_colours_two_four_and_german():
    h, d, s, c = (Card.parse(t) for t in ("AH", "AD", "AS", "AC"))
    assert [T.card_colour(x) for x in (h, d, s, c)] == ["red", "red", "black", "black"]
    assert [T.card_colour(x, four_colour=True) for x in (h, d, s, c)] == ["red", "blue", "black", "green"]
    assert [T.card_colour(x, "german") for x in (h, d, s, c)] == ["red", "gold", "green", "brown"]
    assert set(T.CARD_STYLES) >= {"red", "blue", "black", "green", "gold", "brown"}


def test_cards_text_colours_each_card_and_reads_as_cards_line():
    t = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=3)
    obs = t.start_hand().observe(0)
    for four in (False, True):
        text = T.cards_text(obs, "french", four)
        assert text.plain == T.cards_line(obs)
        shown = T.hand_order(obs.cards, obs.trump)
        styled = {text.plain[sp.start : sp.end]: str(sp.style) for sp in text.spans}
        for i, card in enumerate(shown, 1):
            assert styled[f"{i} {T.card_label(card)}"] == T.CARD_STYLES[T.card_colour(card, "french", four)]


# -- unit: card input per language (R1.6) ------------------------------------------------------


@pytest.mark.parametrize(
    "lang,typed",
    [
        ("de", {"DKr": "QC", "bp": "JS", "KKa": "KD", "10h": "TH", "AP": "AS", "DH": "QH"}),
        ("nl", {"HR": "KD", "VK": "QC", "BS": "JS", "hh": "KH", "AR": "AD", "10K": "TC"}),
        ("it", {"RC": "KH", "DQ": "QD", "FP": "JS", "ff": "JC", "AF": "AC", "10Q": "TD"}),
        # fr: pique P, cœur C, carreau K, trèfle T (the French bridge letters); roi R, dame D, valet V
        ("fr", {"RC": "KH", "DK": "QD", "VP": "JS", "vt": "JC", "AT": "AC", "10K": "TD", "DT": "QC"}),
        ("en", {"QC": "QC", "th": "TH", "J♦": "JD"}),
    ],
)
def test_card_input_in_the_language_and_always_in_english(lang, typed):
    i18n.set_language(lang)
    for word, card in typed.items():
        assert str(parse_card(word)) == card, word
    for word, card in {"AS": "AS", "10h": "TH", "Q♣": "QC", "x1": "X1", "KH": "KH"}.items():
        assert str(parse_card(word)) == card, (lang, word)  # the English notation always works


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("suits", ["french", "german"])
def test_every_card_reads_back_and_only_true_double_readings_are_refused(lang, suits):
    i18n.set_language(lang)
    ambiguous = set()
    for card in ALL_CARDS:
        assert parse_card(T.card_spelling(card, suits), suits) is card  # the spelling help and errors show
        for typed in {str(card), str(card).replace("T", "10", 1)}:
            try:
                assert parse_card(typed, suits) is card
            except AmbiguousCard:
                ambiguous.add(typed)
    # it, fr: C is cuori, cœur there and clubs in English; German pack: S is Schellen there and spades in English
    shared = {"A", "10", "9", "8", "7", "6", "5", "4", "3", "2"}
    expected = {
        "french": {"it": {r + "C" for r in shared}, "fr": {r + "C" for r in shared}}.get(lang, set()),
        "german": {r + "S" for r in shared - {"A"} | {"K"}},
    }[suits]
    assert ambiguous == expected


def test_bad_and_double_card_input_says_what_is_allowed_in_the_language():
    i18n.set_language("de")
    with pytest.raises(CardError) as e:
        parse_card("KK")
    msg = str(e.value)
    assert "'KK' ist keine Karte." in msg and "A K D B 10 9 8 7" in msg and "P H Ka Kr" in msg
    assert "AS, 10h, QC" in msg and "(R1.6)" in msg  # the English notation is offered too
    i18n.set_language("it")
    with pytest.raises(AmbiguousCard) as e:
        parse_card("AC")
    assert "A♥" in str(e.value) and "A♣" in str(e.value) and "AH" in str(e.value) and "AF" in str(e.value)
    i18n.set_language("en")
    with pytest.raises(CardError, match=r"'ZZ' is not a card\. .*ranks? A K Q J 10 9 8 7.*S H D C"):
        parse_card("ZZ")
    with pytest.raises(AmbiguousCard, match="KSc or KGr"):
        parse_card("KS", "german")


def test_typed_numbers_count_the_cards_in_the_order_shown():
    t = LocalTable.new(Rules(compulsory=True), NAMES[:3], ["random"] * 2, seed=5)
    hand = t.start_hand()
    while not t.human_to_act():
        t.apply(t.bot_action())
    obs = hand.observe(0)
    shown = T.hand_order(obs.cards, obs.trump)
    assert shown != list(obs.cards)  # seed 5 deals Tess an unsorted hand: the test can tell
    line = T.cards_line(obs)
    for i, card in enumerate(shown, 1):
        assert f"{i} {T.card_label(card)}" in line
        for typed in (f"play {i}", str(i)):
            assert parse_command(typed, t) == ("act", parse_command(f"play {card}", t)[1])
            assert parse_command(typed, t)[1].card is card
    with pytest.raises(_Reply, match="'AC' si può leggere in due modi"):
        i18n.set_language("it")
        parse_command("AC", t)


# -- plain mode ----------------------------------------------------------------------------------


class _LocalPlayer(io.StringIO):
    """Answers in German letters: in, then the first legal card spelled as a German player types it."""

    def __init__(self) -> None:
        super().__init__()
        self.game = None
        self.typed: list[tuple[str, str]] = []

    def readline(self, *a) -> str:
        t = self.game.table
        if t.hands_played >= 1:
            return ""
        legal = t.hand.legal_actions()
        if t.hand.phase is Phase.PLAY:
            word = T.card_spelling(legal[0].card)
            self.typed.append((word, str(legal[0].card)))
            return f"play {word}\n"
        return "in\n" if any(a.kind == "in" for a in legal) else "pass\n"


def test_plain_mode_in_german_shows_and_reads_german_letters_histories_stay_canonical(tmp_path):
    i18n.set_language("de")
    store = SaveFolder(tmp_path)
    table = LocalTable.new(Rules(compulsory=True), NAMES[:3], ["random"] * 2, seed=9, store=store, lang="de")
    player = _LocalPlayer()
    out = io.StringIO()
    game = PlainGame(table, stdin=player, stdout=out)
    player.game = game
    game.run()
    text = out.getvalue()
    assert table.hands_played == 1 and len(player.typed) == 5
    assert any(w != c and w[:1] in "DB" for w, c in player.typed) or all(w == c for w, c in player.typed)
    assert "Nicht erlaubt" not in text and "ist keine Karte" not in text, text  # every German spelling was taken
    played = [str(a.card) for a in table.last.hand.history if a.kind == "pl" and a.seat == 0]
    assert played == [c for _w, c in player.typed]
    history = (store.session_dir(table.session_id) / "hand-0001.toml").read_text(encoding="utf-8")
    for _w, c in player.typed:
        assert f'"{c}"' in history  # the canonical notation (R1.6), never D♥ or DH
    assert "♥" not in history and "\x1b[" not in text  # no colour codes off a terminal


def test_plain_cards_line_is_coloured_on_a_terminal(monkeypatch):
    monkeypatch.setenv("TERM", "xterm-256color")
    monkeypatch.delenv("NO_COLOR", raising=False)

    class Tty(io.StringIO):
        def isatty(self):
            return True

    t = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=3, four_colour=True)
    obs = t.start_hand().observe(0)
    out = Tty()
    game = PlainGame(t, stdin=io.StringIO(""), stdout=out)
    game.say(T.cards_text(obs, "french", True))
    raw = out.getvalue()
    assert "\x1b[" in raw
    colours = {T.card_colour(c, four_colour=True) for c in obs.cards}
    codes = {"red": "31", "blue": "34", "green": "32"}
    for name in colours & set(codes):
        assert f"1;{codes[name]}m" in raw, (name, repr(raw))


# -- saves and the command line ------------------------------------------------------------------


def test_four_colour_is_saved_and_old_saves_without_it_load(tmp_path):
    store = SaveFolder(tmp_path)
    t = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=3, store=store, four_colour=True)
    t.save()
    data = json.loads(store.session_file.read_text(encoding="utf-8"))
    assert data["four_colour"] is True
    assert LocalTable.resume(store.load(), store).four_colour is True
    del data["four_colour"]  # a save written before the option
    old = SavedSession.from_json(json.dumps(data), store.session_file)
    assert old.four_colour is False and old.unknown_display == {}
    data["four_colour"] = "yes"  # not a choice this ramsli writes: shown, then the default
    odd = SavedSession.from_json(json.dumps(data), store.session_file)
    assert odd.four_colour is False and odd.unknown_display == {"four_colour": "yes"}


def test_play_four_colour_flag_is_kept_on_resume_and_can_be_turned_off(tmp_path):
    args = [
        "play",
        "--plain",
        "--seed",
        "3",
        "--players",
        "3",
        "--bots",
        "random",
        "--lang",
        "en",
        "--data-dir",
        str(tmp_path),
    ]
    r = runner.invoke(cli_app, args + ["--four-colour"], input="quit\n")
    assert r.exit_code == 0, r.output

    def saved():
        return json.loads((tmp_path / "session.json").read_text(encoding="utf-8"))

    assert saved()["four_colour"] is True
    resume = ["play", "--plain", "--resume", "--data-dir", str(tmp_path)]
    assert runner.invoke(cli_app, resume, input="quit\n").exit_code == 0
    assert saved()["four_colour"] is True
    assert runner.invoke(cli_app, resume + ["--two-colour"], input="quit\n").exit_code == 0
    assert saved()["four_colour"] is False
    r = runner.invoke(cli_app, ["play", "--help"])
    assert "--four-colour" in r.output


# -- the app (Textual pilot) ---------------------------------------------------------------------


def _buttons(app) -> list[tuple[Button, str]]:
    """The card buttons shown, with the card text after the number."""
    out = []
    for i in range(1, 6):
        b = app.query_one(f"#card-{i}", Button)
        if not b.has_class("hidden"):
            out.append((b, str(b.label).removeprefix(f"{i}  ")))
    return out


def _run(table, body, size=(100, 30), speed=0):
    async def go():
        app = RamsliApp(table, speed=speed)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await body(app, pilot)
        return app

    return asyncio.run(go())


def test_pilot_hand_is_sorted_and_a_key_plays_the_card_it_shows(tmp_path):
    """Jokers and trumps at the left end, suits grouped, ranks high to low; key 1 plays the card shown first."""
    table = LocalTable.new(
        Rules(jokers=True, compulsory=True), NAMES[:3], ["random"] * 2, seed=33, store=SaveFolder(tmp_path)
    )
    seen = {}

    async def body(app, pilot):
        for _ in range(300):
            await pilot.pause()
            if table.human_to_act() and table.hand.phase is Phase.PLAY:
                break
            if not table.human_to_act():
                app._bot_move()
        obs = table.hand.observe(0)
        shown = T.hand_order(obs.cards, obs.trump)
        seen["dealt"], seen["shown"], seen["trump"] = list(obs.cards), shown, obs.trump
        labels = [text for _b, text in _buttons(app)]
        assert labels == [T.card_label(c) + (" ★" if T.is_trump(c, obs.trump) else "") for c in shown]
        legal = {a.card for a in obs.legal}
        k = next(i for i, c in enumerate(shown, 1) if c in legal)
        await pilot.press(str(k))
        await pilot.pause()
        seen["played"] = next(a.card for a in reversed(table.hand.history) if a.seat == 0)
        seen["k"] = k
        await pilot.press("q")

    _run(table, body)
    assert _is_sorted_hand(seen["shown"], seen["trump"])
    assert seen["shown"] != seen["dealt"]  # seed 33 deals an unsorted hand: the test can tell
    assert any(c.suit is None for c in seen["shown"])  # and a joker, shown with the trumps (D-2)
    assert seen["played"] is seen["shown"][seen["k"] - 1]


@pytest.mark.parametrize("four", [False, True])
def test_pilot_card_colours_red_black_and_four_colour(tmp_path, four):
    table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=0, store=SaveFolder(tmp_path), four_colour=four)
    seen = {}

    async def body(app, pilot):
        obs = table.hand.observe(0)
        shown = T.hand_order(obs.cards, obs.trump)
        for (b, _t), c in zip(_buttons(app), shown):
            want = {"H": "red", "D": "blue" if four else "red", "S": "black", "C": "green" if four else "black"}[c.suit]
            for name in ("red", "blue", "green", "black"):
                assert b.has_class(name) == (name == want), (c, name)
            seen.setdefault(want, set()).add(b.styles.color.hex)
            assert b.has_class("trump") == (c.suit == obs.trump)
        await pilot.press("q")

    _run(table, body)
    assert all(len(v) == 1 for v in seen.values())  # one colour per class
    drawn = {k: v.pop() for k, v in seen.items()}
    assert len(set(drawn.values())) == len(drawn)  # each class drawn in its own colour
    if "red" in drawn:
        assert drawn["red"] == Color.parse("#ff5f5f").hex
    assert set(drawn) == ({"red", "blue", "green", "black"} if four else {"red", "black"})  # seed 0: all 4 suits


@pytest.mark.parametrize("lang", ["en", "de"])
def test_pilot_german_suits_show_the_pack_letters_not_words(tmp_path, lang):
    i18n.set_language(lang)
    table = LocalTable.new(Rules(), NAMES[:3], ["random"] * 2, seed=3, store=SaveFolder(tmp_path), suits="german")
    seen = {}

    async def body(app, pilot):
        obs = table.hand.observe(0)
        ranks, suits = GERMAN_PACK
        shown = T.hand_order(obs.cards, obs.trump)
        for (b, text), c in zip(_buttons(app), shown):
            assert text.removesuffix(" ★") == ranks.get(c.rank, str(c.rank)) + suits[c.suit]
            assert b.has_class({"S": "green", "H": "red", "D": "gold", "C": "brown"}[c.suit])
        seen["info"] = str(app.query_one("#info", Static).content)
        seen["turn_up"] = ranks.get(obs.turn_up.rank, str(obs.turn_up.rank)) + suits[obs.turn_up.suit]
        seen["buttons"] = " ".join(text for _b, text in _buttons(app))
        await pilot.press("q")

    _run(table, body)
    assert seen["turn_up"] in seen["info"]
    for symbol in "♠♥♦♣":
        assert symbol not in seen["buttons"]
    for word in ("Grün", "Herz", "Schellen", "Eichel", "Daus", "Ober", "Unter"):
        assert word not in seen["buttons"]


def _rows(screen_text: str, region) -> list[str]:
    """The text of the screen inside ``region`` (x, y, width, height), row by row."""
    lines = screen_text.splitlines()
    return [line[region.x : region.x + region.width] for line in lines[region.y : region.y + region.height]]


@pytest.mark.parametrize("lang", ["en", "nl", "fr"])
def test_pilot_six_players_on_80x24_show_every_seat_and_whose_turn(tmp_path, lang):
    """Issue #12 "any terminal": at 80x24 with 6 players every seat's name and the turn marker are on screen."""
    i18n.set_language(lang)
    table = LocalTable.new(Rules(), NAMES, ["random"] * 5, seed=3, store=SaveFolder(tmp_path))
    seen = []

    async def body(app, pilot):
        for _ in range(40):
            await pilot.pause()
            hand = table.hand
            if hand is None or isinstance(app.screen, InfoScreen):
                break
            screen = app.screen_text()
            assert len(screen.splitlines()) <= 24
            for s, name in enumerate(NAMES):
                w = app.query_one(f"#seat-{s}", Static)
                assert app.screen.region.contains_region(w.region), (s, w.region)
                box = "\n".join(_rows(screen, w.region))
                assert f"p{s + 1} {name}" in box, (s, box)
                assert ("▶" in box) == (s == hand.to_act), (s, hand.to_act, box)  # the turn marker
            cards = app.query_one("#cards")
            assert app.screen.region.contains_region(cards.region)  # the hand is on screen too
            seen.append(hand.to_act)
            if table.human_to_act():
                if hand.phase is Phase.DECLARE:
                    await pilot.press("i")
                else:
                    obs = hand.observe(0)
                    k = next(
                        i
                        for i, c in enumerate(T.hand_order(obs.cards, obs.trump), 1)
                        if c in {a.card for a in obs.legal}
                    )
                    await pilot.press(str(k))
            else:
                app._bot_move()
        await pilot.press("q")

    _run(table, body, size=(80, 24), speed=1000)
    assert len(set(seen)) >= 3  # the marker was checked on several seats as the turn went round
