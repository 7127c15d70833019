"""Every refusal a player meets in ``ramsli play`` reads in the player's language (R4.12, R9).

Refusals are data (:class:`ramsli.refusal.Refusal`): the terminal renders each one by its code
from the catalogs, never by taking an English sentence apart. These tests meet each refusal in
``--plain`` mode and in the Textual app, in en, de, nl and it, and look for the catalog's text
(and, in de, nl and it, for the absence of the English one); they check that every refusal code
the engine registers has a translation that renders, and that no front-end module inspects the
text of an error message.
"""

from __future__ import annotations

import ast
import asyncio
import io
import string
from pathlib import Path

import pytest
from textual.widgets import Button, Static
from typer.testing import CliRunner

from ramsli import Rules
from ramsli.cards import Card, make_deck
from ramsli.cli import app
from ramsli.errors import TableError
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.plain import PlainGame
from ramsli.frontends.storage import SaveFolder
from ramsli.frontends.tui import CutScreen, InfoScreen, RamsliApp
from ramsli.hand import Action, Phase
from ramsli.i18n import CATALOG_LANGS, LANGS
from ramsli.refusal import CARD_FIELDS, REFUSALS, SEAT_FIELDS, SUIT_FIELDS, TEXTS, YOU_TEXTS, Refusal, RefusalText
from ramsli.rules import RulesError

ROOT = Path(__file__).resolve().parent.parent
runner = CliRunner()
#: three players, seed 1: Anna (p2) deals the first hand, so the human (p1) cuts it (R4.2)
NAMES = ["Zed", "Anna", "Bruno"]


@pytest.fixture(autouse=True)
def _english_after():
    yield
    i18n.set_language("en")


def _catalog(lang: str, msgid: str) -> str:
    """The catalog's text for ``msgid`` (English for en), straight from the compiled catalog."""
    return i18n.translation(lang).gettext(msgid)


def _refusal(lang: str, msgid: str) -> str:
    """A refusal's text as a person reads it: the catalog's, its first letter upper case (a sentence)."""
    return i18n.sentence_case(_catalog(lang, msgid))


def _shown(text: str) -> str:
    """A line as the terminal shows it: the rule ids are taken out (the player asks for them)."""
    return str(T.player_words(text))


def _flat(text: str) -> str:
    """Text without Rich's box and line breaks, so a wrapped message reads as one line."""
    return " ".join(text.replace("│", " ").split())


def _translated(lang: str, english: str, local: str) -> None:
    """In de, nl and it the catalog's text differs from the English one (it is translated)."""
    if lang != "en":
        assert local != english, (lang, english)


# -- set-up refusals: ramsli play refuses bad options before anything changes ---------------------------


def _setup(tmp_path, lang, *extra):
    args = ["play", "--plain", "--lang", lang, "--seed", "1", "--data-dir", str(tmp_path), *extra]
    r = runner.invoke(app, args, input="quit\n", env={"COLUMNS": "400"})
    assert r.exit_code == 2, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)  # no traceback
    assert not (tmp_path / "session.json").exists()  # refused before a session was made
    return _flat(r.output)


def _refusal_in(lang: str, refusal: Refusal) -> tuple[str, str]:
    """(the catalog's rendering, the English one) of a refusal with plain fields (no seat, card, suit);
    a text that counts (``NP_``) in the form its ``count`` takes in ``lang``."""
    entry = REFUSALS[refusal.code]
    if entry.plural is not None:
        form = i18n.translation(lang).ngettext(entry.text, entry.plural, refusal["count"])
        local = i18n.sentence_case(form).format(**refusal.fields) + f" ({refusal.rule})"
    else:
        local = _refusal(lang, TEXTS[refusal.code]).format(**refusal.fields) + f" ({refusal.rule})"
    return local, i18n.sentence_case(str(refusal))


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize(
    "extra,refusal,option",
    [
        (("--players", "9"), Refusal("seat_count", "R2.1", {"count": 9, "most": 6}), "--players"),
        (("--players", "1"), Refusal("seat_count", "R2.1", {"count": 1, "most": 6}), "--players"),
        (
            ("--players", "4", "--rule", "players=3"),
            Refusal("players_mismatch", "R2.1", {"players": 3, "count": 4}),
            "--players",
        ),
        (("--rule", "ante=30"), Refusal("ante_above_stack", "R3.5", {"ante": 30, "stack": 20}), "--rule"),
        (
            ("--rule", "ante=21", "--rule", "starting_stack=20"),
            Refusal("ante_above_stack", "R3.5", {"ante": 21, "stack": 20}),
            "--rule",
        ),
        (("--name", "\u3164"), Refusal("name_blank", "R2.2", {"number": 1}), "--name"),  # Hangul filler
        (
            ("--name", "An\u200bna"),
            Refusal("name_char", "R2.2", {"number": 1, "name": repr("An\u200bna"), "char": "U+200B"}),
            "--name",
        ),
    ],
    ids=["players-9", "players-1", "players-option", "ante", "ante-stack", "name-blank", "name-invisible"],
)
def test_setup_refusals_are_the_engines_in_the_players_language(tmp_path, lang, extra, refusal, option):
    """R2.1, R2.2, R3.5: the players, the ``players`` option, the ante and the name are checked by
    the engine (``check_setup``, ``check_names``) and its refusal is rendered by code."""
    out = _setup(tmp_path, lang, *extra)
    local, english = _refusal_in(lang, refusal)
    _translated(lang, english, local)
    assert option in out and _flat(local) in out
    if lang != "en":
        assert _flat(english) not in out


#: "1 player" and "3 players" in each language: a count of players chooses its plural form
SEAT_COUNTS = {
    "en": ("1 player: allowed are 2 to 6", "3 players: allowed are 2 to 6", "0 players"),
    "de": ("1 Spieler: erlaubt sind 2 bis 6", "3 Spieler: erlaubt sind 2 bis 6", "0 Spieler"),
    "nl": ("1 speler: toegestaan zijn 2 tot 6", "3 spelers: toegestaan zijn 2 tot 6", "0 spelers"),
    "it": ("1 giocatore: sono ammessi da 2 a 6", "3 giocatori: sono ammessi da 2 a 6", "0 giocatori"),
    "fr": ("1 joueur\u00a0: de 2 à 6 autorisés", "3 joueurs\u00a0: de 2 à 6 autorisés", "0 joueur\u00a0"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_a_count_of_players_takes_its_plural_form_in_every_language(tmp_path, lang):
    """A fresh user's finding: ``--players 1`` read "1 players: allowed are 2 to 6". The refusal's
    text is one plural message (``NP_``): each language chooses the form by the count (French: 0
    and 1 take the singular), in the terminal, on the server and in the engine's English."""
    from ramsli.server.protocol.messages import render

    one, three, zero = SEAT_COUNTS[lang]
    tr = i18n.translation(lang)
    for count, want in ((1, one), (3, three), (0, zero)):
        refusal = Refusal("seat_count", "R2.1", {"count": count, "most": 6})
        shown = i18n.render_refusal(refusal, translations=tr, with_rule=False)
        assert shown.startswith(want), (lang, count, shown)
        assert render(refusal, lang) == shown + " (R2.1)"  # the server's answer is the same text
    assert _flat(one) in _setup(tmp_path, lang, "--players", "1")
    assert str(Refusal("seat_count", "R2.1", {"count": 1, "most": 6})) == "1 player: allowed are 2 to 6 (R2.1)"


@pytest.mark.parametrize("lang", LANGS)
def test_bot_refusals_at_setup_in_the_players_language(tmp_path, lang):
    """The number of bots, an empty bot name and an unknown bot, each in the player's language."""
    i18n.set_language(lang)
    levels = _catalog(lang, "{bots}, or a level: {levels} (weakest first)")
    assert "{levels}" in levels
    out = _setup(tmp_path / "a", lang, "--bots", "random,random", "--players", "5")
    count = i18n.ngettext(
        "{given} bots given for {n} other seat; give one bot for all or one per seat",
        "{given} bots given for {n} other seats; give one bot for all or one per seat",
        4,
    ).format(given=2, n=4)
    _translated(lang, "2 bots given for 4 other seats; give one bot for all or one per seat", count)
    assert _flat(count) in out  # flat: fr writes a no-break space before ";"
    out = _setup(tmp_path / "b", lang, "--bots", "random,,random", "--players", "3")
    empty = _catalog(lang, "--bots {text} has an empty bot name; allowed are {bots}").split("{text}")[1]
    _translated(lang, " has an empty bot name; allowed are {bots}", empty)
    assert _flat(empty.split("{bots}")[0]) in out
    assert _flat(levels.split("{levels}")[0].removeprefix("{bots}")) in out
    out = _setup(tmp_path / "c", lang, "--bots", "hardd")
    unknown = _refusal(lang, "unknown bot {name}; allowed are {bots}").format(name="'hardd'", bots="")
    _translated(lang, "Unknown bot 'hardd'; allowed are ", unknown)
    assert _flat(unknown) in out


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("extra", [("--rule", "bogus=1"), ("--preset", "nosuch"), ("--rule", "bete=abc")])
def test_rules_refusals_are_rendered_by_code_where_they_carry_one(tmp_path, lang, extra):
    """R6, R8: a bad ``--rule`` or ``--preset`` reads as :func:`~ramsli.frontends.text.refusal_text`
    renders the ``RulesError``: by its code when it carries a refusal (then in the player's
    language), else its own message."""
    with pytest.raises(RulesError) as caught:
        Rules.preset(extra[1] if extra[0] == "--preset" else "traditional").with_assignments(
            [extra[1]] if extra[0] == "--rule" else []
        )
    i18n.set_language(lang)
    shown = T.refusal_text(caught.value)
    out = _setup(tmp_path, lang, *extra)
    assert "--preset/--rule" in out and _flat(shown) in out
    refusal = getattr(caught.value, "refusal", None)
    if isinstance(refusal, Refusal) and lang != "en":  # rendered by its code: the English text is not shown
        assert _flat(str(refusal)) not in out


def test_refusal_text_renders_a_refusal_by_code_and_anything_else_as_its_message():
    e = TableError(Refusal("name_twice", "R2.2", {"number": 2, "name": "'anna'", "seat": 0}), "names", 1)
    i18n.set_language("it")
    expected = _refusal("it", TEXTS["name_twice"]).format(number=2, name="'anna'", seat="Zed")
    assert T.refusal_text(e, ["Zed", "Anna"]) == expected + " (R2.2)"
    assert T.refusal_text(e, ["Zed", "Anna"], with_rule=False) == expected
    assert T.refusal_text(ValueError("plain words")) == "plain words"

    class Carrying(ValueError):  # any error with a .refusal, e.g. RulesError or CardError once they carry one
        refusal = Refusal("must_follow", "R4.10", {"suit": "H"})

    assert T.refusal_text(Carrying("English")) == _refusal("it", TEXTS["must_follow"]).format(suit="♥") + " (R4.10)"


# -- in play: ramsli play --plain, a fixed script -------------------------------------------------------

#: seed 13 with three random bots: the player declares, and at the next prompt plays a card
SCRIPT = "play 1\ntarget 9\nplay ZZ\nplay 9\nxyzzy\nin\nplay X1\nquit\n"


@pytest.mark.parametrize("lang", LANGS)
def test_a_scripted_plain_session_meets_each_refusal_in_the_players_language(tmp_path, lang):
    """``ramsli play --plain`` with a fixed script: a card before declaring (R4.5), a target out of
    range (R4.8), a malformed card and a card number not in the hand (R1.6), an unknown command,
    and a card not held (R4.10): every line is the catalog's, none the English one."""
    args = ["play", "--plain", "--seed", "13", "--players", "3", "--bots", "random", "--name", "Zed"]
    args += ["--lang", lang, "--data-dir", str(tmp_path)]
    r = runner.invoke(app, args, input=SCRIPT)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    i18n.set_language(lang)
    not_allowed = _catalog(lang, "Not allowed: {reason}")
    big_joker = _catalog(lang, "big joker")
    expected = {
        "declare_first": not_allowed.format(reason=_shown(_refusal(lang, TEXTS["declare_first"]))),
        "target": _shown(_catalog(lang, "Write target and a number of tricks from 2 to 5, e.g. target 3 (R4.8).")),
        "not a card": _catalog(lang, "'{text}' is not a card.").format(text="ZZ"),
        "number": _catalog(lang, "There is no card number {k}: your cards are numbered 1 to {n}.").format(k=9, n=5),
        "unknown": _catalog(lang, "Unknown command '{word}'. Type help for the commands.").format(word="xyzzy"),
        "not_held": not_allowed.format(reason=_refusal(lang, YOU_TEXTS["not_held"]).format(card=big_joker)),
    }
    english = {
        "declare_first": "Not allowed: Declare in or out first",
        "target": "Write target and a number of tricks from 2 to 5, e.g. target 3.",
        "not a card": "'ZZ' is not a card.",
        "number": "There is no card number 9: your cards are numbered 1 to 5.",
        "unknown": "Unknown command 'xyzzy'. Type help for the commands.",
        "not_held": "Not allowed: you do not hold big joker",
    }
    for key, text in expected.items():
        _translated(lang, english[key], text)
        assert any(line.startswith(text) for line in lines), (lang, key, text)
        if lang != "en":
            assert english[key] not in r.output, (lang, key)


class _Prober(io.StringIO):
    """stdin for a :class:`PlainGame` that meets refusals: at the cut question (R4.2) a word and a
    number out of range, then Enter; at the first declaration a target; in the play phase a card
    not held (R4.10) and every unplayable card it holds (R4.10), once per code; else a legal move.
    Records ``(what, refusal or None, typed)`` for each probe."""

    def __init__(self, table: LocalTable, hands: int = 8) -> None:
        super().__init__()
        self.table = table
        self.hands = hands
        self.queue: list[str] = []
        self.probes: list[tuple[str, Refusal | None, str]] = []
        self.declared = False
        self.held_tried = False
        self.codes: set[str] = set()

    def readline(self, size: int | None = -1) -> str:
        if self.queue:
            return self.queue.pop(0)
        t = self.table
        if t.hands_played >= self.hands:
            return ""  # end of input: quit
        hand = t.hand
        if hand is None:  # the cut question (R4.2)
            if not any(what == "cut" for what, _r, _t in self.probes):
                self.probes += [("cut", None, "abc"), ("cut", None, "40")]
                self.queue = ["40\n", "\n"]
                return "abc\n"
            return "\n"
        me = t.human
        obs = hand.observe(me)
        legal = hand.legal_actions()
        if hand.phase is Phase.DECLARE:
            if not self.declared:
                self.declared = True
                self.probes.append(("target", None, "target 7"))
                self.queue = ["in\n"]
                return "target 7\n"
            return "in\n" if any(a.kind == "in" for a in legal) else "out\n"
        if hand.phase is not Phase.PLAY:
            return "pass\n"
        shown = T.hand_order(obs.cards, obs.trump)
        if not self.held_tried:
            self.held_tried = True
            other = next(c for c in make_deck(t.rules.deck) if c not in obs.cards)
            word = T.card_spelling(other, t.suits)
            self.probes.append(("not_held", hand.why_illegal(Action.play(me, other)), word))
            return f"play {word}\n"
        for k, card in enumerate(shown, 1):
            why = hand.why_illegal(Action.play(me, card))
            if why is not None and why.code not in self.codes:
                self.codes.add(why.code)
                self.probes.append((why.code, why, str(k)))
                return f"play {k}\n"
        good = next(k for k, c in enumerate(shown, 1) if Action.play(me, c) in legal)
        return f"play {good}\n"


@pytest.mark.parametrize("lang", LANGS)
def test_plain_refusals_of_the_cut_and_of_cards_in_the_players_language(tmp_path, lang):
    """The cut question (R4.2), a target typed at the declaration (R4.8), a card not held and the
    obligations of R4.10 (follow suit, trump, overtrump), each as the catalog says it."""
    i18n.set_language(lang)
    t = LocalTable.new(Rules(end=["hands:8"]), NAMES, ["random"] * 2, seed=1, store=SaveFolder(tmp_path), lang=lang)
    probe = _Prober(t)
    out = io.StringIO()
    PlainGame(t, probe, out, ask_cut=True).run()
    text = out.getvalue()
    lines = text.splitlines()
    cut = _catalog(
        lang,
        "'{text}' is not a cut point: give a whole number from {low} to {high} (at least one card "
        "in each packet), or press Enter for a random cut.",
    )
    assert cut.format(text="abc", low=1, high=31) in lines and cut.format(text="40", low=1, high=31) in lines
    _translated(
        lang, "'abc' is not a cut point", cut.format(text="abc", low=1, high=31)[: len("'abc' is not a cut point")]
    )
    target = _shown(_catalog(lang, "Write target and a number of tricks from 2 to 5, e.g. target 3 (R4.8)."))
    assert target in lines
    not_allowed = _catalog(lang, "Not allowed: {reason}")
    met = {what for what, _r, _t in probe.probes}
    assert {"cut", "target", "not_held"} <= met
    assert met & {"must_follow", "must_trump", "must_overtrump"}, probe.probes  # R4.10 met in 8 hands
    for what, refusal, _typed in probe.probes:
        if refusal is None:
            continue
        template = YOU_TEXTS[refusal.code] if refusal.code in YOU_TEXTS else TEXTS[refusal.code]
        fields = {
            k: (T.card_label(v, t.suits) if k in CARD_FIELDS else T.suit_label(v, t.suits) if k in SUIT_FIELDS else v)
            for k, v in refusal.fields.items()
            if k not in SEAT_FIELDS
        }
        local = not_allowed.format(reason=_refusal(lang, template).format(**fields))
        _translated(lang, "Not allowed: " + refusal.text(t.human), local)
        assert local in lines, (lang, what, local)
        if lang != "en":
            assert refusal.text(t.human) not in text, (lang, what)


# -- in play: the Textual app -----------------------------------------------------------------------------


def _message(app_: RamsliApp) -> str:
    return str(app_.query_one("#message", Static).content)


def _key(app_: RamsliApp, card: Card) -> str:
    """The number key of the card button that shows ``card``."""
    label = T.card_label(card, app_.suits)
    for i in range(1, 6):
        b = app_.query_one(f"#card-{i}", Button)
        if not b.has_class("hidden") and str(b.label).removeprefix(f"{i}  ").removesuffix(" ★") == label:
            return str(i)
    raise AssertionError(f"no button shows {card}")


@pytest.mark.parametrize("lang", LANGS)
def test_pilot_refusals_in_the_players_language(tmp_path, lang):
    """The app: a bad cut (R4.2), a card key before declaring (R4.5), a card number not in the hand,
    and an unplayable card (R4.10) each show the catalog's text, not the English one."""
    i18n.set_language(lang)
    t = LocalTable.new(Rules(end=["hands:8"]), NAMES, ["random"] * 2, seed=1, store=SaveFolder(tmp_path), lang=lang)
    app_ = RamsliApp(t, speed=0, ask_cut=True)
    seen: dict[str, str] = {}
    played: list[Refusal] = []

    async def run() -> None:
        async with app_.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            assert isinstance(app_.screen, CutScreen)
            await pilot.press("4", "0", "enter")
            await pilot.pause()
            seen["cut"] = str(app_.screen.query_one("#cut-message", Static).content)
            await pilot.press("r")
            for _ in range(3000):
                await pilot.pause()
                if isinstance(app_.screen, CutScreen):  # the player cuts again (R4.2): at random
                    await pilot.press("r")
                    continue
                if isinstance(app_.screen, InfoScreen):
                    if t.hands_played >= 8 or t.is_over:
                        break
                    await pilot.press("enter")
                    continue
                hand = t.hand
                if hand is None or not t.human_to_act():
                    continue
                if hand.phase is Phase.DECLARE:
                    if "declare" not in seen:
                        await pilot.press("1")
                        await pilot.pause()
                        seen["declare"] = _message(app_)
                    await pilot.press("i")
                    continue
                obs = hand.observe(t.human)
                if "number" not in seen:
                    await pilot.press("9")
                    await pilot.pause()
                    seen["number"] = _message(app_) + f"|{len(obs.cards)}"
                legal = hand.legal_actions()
                bad = [c for c in obs.cards if Action.play(t.human, c) not in legal]
                if bad and not played:
                    played.append(hand.why_illegal(Action.play(t.human, bad[0])))
                    await pilot.press(_key(app_, bad[0]))
                    await pilot.pause()
                    seen["illegal"] = _message(app_)
                good = next(c for c in obs.cards if Action.play(t.human, c) in legal)
                await pilot.press(_key(app_, good))
                if played and "number" in seen:
                    break
            await pilot.press("q")

    asyncio.run(run())
    not_allowed = _catalog(lang, "Not allowed: {reason}")
    cut = _catalog(
        lang,
        "'{text}' is not a cut point: give a whole number from {low} to {high} (at least one card "
        "in each packet), or press Enter for a random cut.",
    ).format(text="40", low=1, high=31)
    assert seen["cut"] == cut
    declare = not_allowed.format(reason=_refusal(lang, TEXTS["declare_first"]))
    _translated(lang, "Not allowed: Declare in or out first", declare)
    assert seen["declare"] == declare
    message, n = seen["number"].split("|")
    number = _catalog(lang, "There is no card number {k}: your cards are numbered 1 to {n}.").format(k=9, n=n)
    _translated(lang, f"There is no card number 9: your cards are numbered 1 to {n}.", number)
    assert message == number
    assert played, "no unplayable card came up in 8 hands"
    refusal = played[0]
    fields = {
        k: (T.card_label(v) if k in CARD_FIELDS else T.suit_label(v) if k in SUIT_FIELDS else v)
        for k, v in refusal.fields.items()
    }
    illegal = not_allowed.format(reason=_refusal(lang, TEXTS[refusal.code]).format(**fields))
    _translated(lang, "Not allowed: " + refusal.text(), illegal)
    assert seen["illegal"] == illegal


# -- every refusal code: translated in every catalog, renders with its fields -----------------------------


def _all_codes() -> dict[str, RefusalText]:
    """Every refusal code of the package: the engine's, the bots' and the server's, as the server
    gathers them (:data:`ramsli.server.protocol.messages.REFUSALS`)."""
    from ramsli.server.protocol.messages import REFUSALS

    return dict(REFUSALS)


def _sample(field: str) -> object:
    if field in SEAT_FIELDS:
        return 1
    if field in CARD_FIELDS:
        return "QH"
    if field in SUIT_FIELDS:
        return "D"
    return 7


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_every_refusal_code_has_a_translation_that_renders_with_its_fields(lang):
    """Each code the engine, the ledger, the bots or the server declares (and each "you" text) is in the
    catalog, translated, and renders with sample fields by :func:`~ramsli.frontends.i18n.render_refusal`
    without falling back to English: a new refusal without a translation fails here."""
    codes = _all_codes()
    assert {"must_follow", "not_held", "seat_count", "ante_above_stack", "name_twice", "no_table"} <= set(codes)
    tr = i18n.translation(lang)
    for code, entry in codes.items():
        for template, reader in ((entry.text, None), (entry.you, 1)):
            if template is None:
                continue
            # a text that counts (NP_) is one plural message: its form for the sample count, 7
            counts = entry.plural is not None and reader is None
            local = tr.ngettext(template, entry.plural or template, 7) if counts else tr.gettext(template)
            assert local != template and local != entry.plural, (lang, code, "not translated")
            names = {f for _lit, f, _spec, _conv in string.Formatter().parse(template) if f}
            assert {f for _lit, f, _spec, _conv in string.Formatter().parse(local) if f} == names, (lang, code)
            refusal = Refusal(code, "R4.12", {f: _sample(f) for f in names} | ({"seat": 1} if reader else {}))
            shown = i18n.render_refusal(refusal, translations=tr, reader=reader, with_rule=False, texts=codes)
            labels = {
                f: ("p2" if f in SEAT_FIELDS else "QH" if f in CARD_FIELDS else "♦" if f in SUIT_FIELDS else 7)
                for f in names
            }
            assert shown == i18n.sentence_case(local).format(**labels), (lang, code, shown)  # a sentence
            assert shown != i18n.sentence_case(refusal.text(reader)), (lang, code)


# -- no front end takes an error message apart -----------------------------------------------------------

#: the front ends (house rules: cli, commands, frontends, server)
FRONT_ENDS = ["cli.py", "commands", "frontends", "server"]
#: the string methods that take a text apart
TEXT_METHODS = {"startswith", "endswith", "split", "rsplit", "partition", "rpartition", "find", "index", "count"}


def _front_end_files() -> list[Path]:
    base = ROOT / "src" / "ramsli"
    files: list[Path] = []
    for part in FRONT_ENDS:
        p = base / part
        files += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    return [f for f in files if "migrations" not in f.parts]


def _is_text(node: ast.AST, exc: str, texts: set[str]) -> bool:
    """True for the text of the caught exception ``exc``: ``str(exc)``, ``repr(exc)``,
    ``exc.args``, ``exc.reason``, ``exc.msg``, ``exc.message``, a subscript of one, or a name in
    ``texts`` (assigned from one of them)."""
    if isinstance(node, ast.Name):
        return node.id in texts
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("str", "repr"):
        return any(isinstance(a, ast.Name) and a.id == exc for a in node.args)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == exc:
        return node.attr in ("args", "reason", "msg", "message")
    if isinstance(node, ast.Subscript):
        return _is_text(node.value, exc, texts)
    return False


def _message_inspections(tree: ast.AST) -> list[int]:
    """Line numbers where the text of a caught exception (see :func:`_is_text`) is compared,
    searched, split or matched with ``re``."""
    found: list[int] = []
    for handler in ast.walk(tree):
        if not isinstance(handler, ast.ExceptHandler) or handler.name is None:
            continue
        exc = handler.name
        texts: set[str] = set()
        body = ast.Module(body=handler.body, type_ignores=[])
        for node in ast.walk(body):
            if isinstance(node, ast.Assign) and _is_text(node.value, exc, texts):
                texts |= {t.id for t in node.targets if isinstance(t, ast.Name)}
        for node in ast.walk(body):
            if isinstance(node, ast.Compare):
                if any(_is_text(x, exc, texts) for x in (node.left, *node.comparators)):
                    found.append(node.lineno)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                f = node.func
                if f.attr in TEXT_METHODS and _is_text(f.value, exc, texts):
                    found.append(node.lineno)
                elif (
                    isinstance(f.value, ast.Name)
                    and f.value.id == "re"
                    and any(_is_text(a, exc, texts) for a in node.args)
                ):
                    found.append(node.lineno)
    return sorted(found)


def test_no_front_end_takes_an_error_message_apart():
    """Refusals are rendered by code: no front end compares, searches or splits the English text of
    an error it caught (``"unknown bot" in str(e)``, ``re.match(..., str(e))``)."""
    bad = {}
    for f in _front_end_files():
        lines = _message_inspections(ast.parse(f.read_text(encoding="utf-8")))
        if lines:
            bad[str(f.relative_to(ROOT))] = lines
    assert bad == {}


def test_the_inspection_check_finds_what_it_looks_for():
    """The check above can fail: it finds each way of taking a message apart."""
    code = (
        "try:\n    f()\nexcept ValueError as e:\n"
        "    msg = str(e)\n"
        "    if 'unknown bot' in msg: pass\n"
        "    if str(e).startswith('x'): pass\n"
        "    m = re.search('R4', str(e))\n"
        "    if e.reason == 'x': pass\n"
        "    ok = str(e) + '!'\n"
    )
    assert _message_inspections(ast.parse(code)) == [5, 6, 7, 8]


def test_only_the_rule_id_pattern_uses_re_in_the_terminal():
    """The terminal's only regular expression takes rule ids out of catalog lines (``RULE_REF``,
    ``player_words``); no module of the terminal imports ``re`` for anything else."""
    users = []
    for f in _front_end_files():
        if f.parts[-2] not in ("frontends", "commands") and f.name != "cli.py":
            continue
        tree = ast.parse(f.read_text(encoding="utf-8"))
        if any(
            isinstance(n, (ast.Import, ast.ImportFrom))
            and any(a.name == "re" for a in n.names)
            or isinstance(n, ast.ImportFrom)
            and n.module == "re"
            for n in ast.walk(tree)
        ):
            users.append(f.name)
    assert users == ["text.py"]
