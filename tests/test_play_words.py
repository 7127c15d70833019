"""Issue #12, player words and every language: what ``ramsli play`` says to the player.

Messages say what happened in the game's words; the rule ids behind them (R4.12 names the
rule of a refusal) are a detail the player asks for (``why`` in plain mode, ``r`` in the app).
The table says which preset, ante, bete and options are in force (R6, R8). The human is
"you" everywhere. Commands, hints and answers work in de, nl and it as in en (R9).
"""

from __future__ import annotations

import asyncio
import re

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

from ramsli import Rules
from ramsli.cli import app
from ramsli.commands import play as play_cmd
from ramsli.frontends import i18n
from ramsli.frontends import text as T
from ramsli.frontends.game import LocalTable
from ramsli.frontends.plain import is_yes
from ramsli.frontends.storage import SaveFolder
from ramsli.frontends.tui import InfoScreen, RamsliApp
from ramsli.hand import Phase
from ramsli.i18n import CATALOG_LANGS, LANGS
from ramsli.refusal import Refusal
from ramsli.rules import PRESETS

from helpers import ROOT

runner = CliRunner()
#: a rule id anywhere in a line: R4.10, R5.1, D-10
RULE_ID = re.compile(r"\b(?:R\d+\.\d+|D-\d+)\b")
CYCLE = "1\n2\n3\n4\n5\n"


pytestmark = pytest.mark.usefixtures("english")


def _play(tmp_path, lang, text, *extra, name="Zed"):
    args = [
        "play",
        "--plain",
        "--seed",
        "11",
        "--players",
        "3",
        "--bots",
        "random",
        "--name",
        name,
        "--rule",
        "end=hands:3",
        "--speed",
        "0",
        "--lang",
        lang,
        "--data-dir",
        str(tmp_path),
        *extra,
    ]
    r = runner.invoke(app, args, input=text)
    assert r.exit_code == 0, r.output
    return r.output


def _detail_blocks(out: str, header: str) -> tuple[list[str], list[str]]:
    """The lines of the why answers (the header and the "  R4.5 — ..." lines after it) and all others."""
    detail, rest = [], []
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        if lines[i] == header:
            detail.append(lines[i])
            i += 1
            while i < len(lines) and lines[i].startswith("  ") and RULE_ID.match(lines[i].strip()):
                detail.append(lines[i])
                i += 1
            continue
        rest.append(lines[i])
        i += 1
    return detail, rest


# -- 1. player words: no rule id in a line the player sees, except after why ---------------------------------


@pytest.mark.parametrize(
    "lang,words",
    [
        ("en", "play 1\nwhy\nplay ZZ\nwhy\nin\nlog\nlast\nrules\nhelp\n"),
        ("de", "spiel 1\nwarum\nrein\nverlauf\nletzter\nregeln\nhilfe\n"),
        ("nl", "speel 1\nwaarom\nmee\nverloop\nlaatste\nregels\nhulp\n"),
        ("it", "gioca 1\nperché\ndentro\nregistro\nultima\nregole\naiuto\n"),
    ],
)
def test_no_rule_id_in_a_scripted_session_except_after_why(tmp_path, lang, words):
    """R4.12: a refusal names its rule, but as a detail; the session's lines (refusals, settlements,
    standings, help) say what happened without rule ids, in each language."""
    out = _play(tmp_path, lang, words + ("in\n" + CYCLE) * 60)
    i18n.set_language(lang)
    detail, rest = _detail_blocks(out, T.detail_lines(["R4.5"])[0])
    assert [line for line in rest if RULE_ID.search(line)] == []
    assert "  R4.5 — " + T.rule_name("R4.5") in detail  # "play 1" before declaring: R4.5, on asking
    assert (
        T.player_words(i18n._("Not allowed: {reason}")).format(
            reason=T.player_words(i18n.render_refusal(Refusal("declare_first", "R4.5")))
        )
        in out
    )
    if lang == "en":
        assert "  R1.6 — how a card is written: rank, then suit" in detail  # after "play ZZ"
    standings = i18n._("The session is over: {reason}.").format(reason=T.player_words(T.end_reason_text("hands")))
    assert standings in out
    assert i18n._("Unknown command '{word}'. Type help for the commands.").split("'")[0] not in out  # all understood


class _Answers:
    """stdin for a PlainGame that answers ``why`` first and at the first prompt of every new hand,
    else a legal move (in, pass, the first playable card by its number)."""

    def __init__(self, table):
        self.table = table
        self.asked = -1

    def readline(self) -> str:
        t = self.table
        if t.hand is None or t.hand.is_over:
            return ""
        if t.hands_played > self.asked:
            self.asked = t.hands_played
            return "why\n"
        legal = t.hand.legal_actions()
        for kind in ("in", "pass"):
            if any(a.kind == kind for a in legal):
                return kind + "\n"
        obs = t.hand.observe(t.human)
        cards = T.hand_order(obs.cards, obs.trump)  # the numbers count the hand as shown (sorted)
        return f"{cards.index(legal[0].card) + 1}\n"


def test_why_before_any_rule_and_the_rules_of_a_settlement():
    """``why`` with nothing cited says so; after a hand it names the settlement's rules (R5.1, R5.4)."""
    import io

    from ramsli.frontends.plain import PlainGame

    t = LocalTable.new(Rules(end=("hands:2",)), ["Zed", "Anna", "Bruno"], ["random"] * 2, seed=2)
    out = io.StringIO()
    assert PlainGame(t, stdin=_Answers(t), stdout=out).run() == 0
    text = out.getvalue()
    assert text.count("The rules behind the last message:") == 1  # after hand 1 (hand 2 ends the session)
    first, second = text.split("The rules behind the last message:")
    assert "No rule was named yet: this is shown after a refusal or a settlement." in first
    assert second.startswith("\n  R5.1 — most tricks takes the pot\n") or "R5.2 — " in second.split("\n")[1]
    assert "  R5.4 — what stays in the pot carries over to the next hand" in second
    assert "Carry-over to the next hand: " in text and "(R5.4)" not in text


def test_player_words_strips_only_rule_ids():
    s = T.player_words("Announce a trick target (target 2 to 4) or pass? (R4.7, R4.8)")
    assert str(s) == "Announce a trick target (target 2 to 4) or pass?" and s.rules == ("R4.7", "R4.8")
    s = T.player_words("Everyone is out: the hand is thrown in and the pot of 4 carries over (D-10).")
    assert str(s).endswith("carries over.") and s.rules == ("D-10",)
    assert T.player_words("Declare: in or out? (in/out)").rules == ()


def _player_catalog(lang):
    with open(ROOT / "src" / "ramsli" / "i18n" / "locale" / lang / "LC_MESSAGES" / "ramsli.po", "rb") as f:
        cat = read_po(f, locale=lang)
    for m in cat:
        if m.id and any(
            loc.startswith(("src/ramsli/frontends", "src/ramsli/commands/play.py")) for loc, _n in m.locations
        ):
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strs = m.string if isinstance(m.string, tuple) else (m.string,)
            yield ids[0], strs


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_every_translation_keeps_its_rule_ids_where_the_player_words_take_them_out(lang):
    """A translation names the same rule ids as the English text, in a parenthesis the table
    takes out (so no rule id shows in any language, and why names the same rules)."""
    for msgid, strs in _player_catalog(lang):
        want = T.player_words(msgid).rules
        assert not RULE_ID.search(T.player_words(msgid)), msgid
        for s in strs:
            said = T.player_words(s)
            assert not RULE_ID.search(said), (lang, msgid, s)
            assert sorted(said.rules) == sorted(want), (lang, msgid, s)


def test_every_rule_id_a_player_can_meet_has_a_name():
    """Every rule id of RULES.md (R1.1-R5.9, R6-R9, D-1-D-20) has a one-line name for why; so has
    every id cited in the table's texts and the engine's reasons (R4.12)."""
    rules_md = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\*\*(R\d+\.\d+)|^- (R\d+\.\d+) |^## (R\d+) |\[(D-\d+)\]", rules_md, re.M))
    ids = {x for t in ids for x in t if x}
    for src in ("frontends/text.py", "frontends/plain.py", "frontends/tui.py", "frontends/game.py", "hand.py"):
        ids |= set(RULE_ID.findall((ROOT / "src" / "ramsli" / src).read_text(encoding="utf-8")))
    assert len(ids) > 55
    missing = sorted(r for r in ids if not T.rule_name(r))
    assert missing == []
    assert T.rule_name("R4.10") == "follow suit; if you cannot, trump; overtrump a trump"
    i18n.set_language("de")
    assert T.rule_name("R5.3") == "wer rein ist und keinen Stich macht, zahlt die Bete"


# -- 2. the rules in force: preset, ante, bete, options -----------------------------------------------------


def test_rules_line_at_the_start_on_help_and_rules_and_after_resume(tmp_path):
    extra = ("--preset", "double-penalty", "--rule", "bust=leave")
    out = _play(tmp_path, "en", "help\nrules\nquit\n", *extra)
    line = "Rules: double bete · ante 1 · bete 10 · options: bust=leave, end=hands:3"
    assert out.splitlines()[1] == line  # under the first line, before the first hand
    assert out.count(line) == 3  # at the start, on help, on rules
    r = runner.invoke(
        app, ["play", "--plain", "--resume", "--lang", "en", "--data-dir", str(tmp_path)], input="rules\nquit\n"
    )
    assert r.output.count(line) == 2  # the save holds the rules; the same line names them


def test_rules_line_names_each_preset_and_the_pot_bete():
    """R6: each preset is named by its name in words, the web page's (``R.presetName``), in the
    player's language; ``--preset`` keeps taking the ids."""
    for name in PRESETS:
        assert T.preset_of(Rules.preset(name)) == name
        assert T.rules_line(Rules.preset(name)).startswith(f"Rules: {T.PRESET_WORDS[name]} · ante 1 · ")
    assert T.rules_line(Rules.preset("pot-bete")) == "Rules: bete of the pot · ante 1 · bete the pot · no other options"
    assert T.rules_line(Rules(ante=2, bust="leave")) == "Rules: traditional · ante 2 · bete 5 · options: bust=leave"
    i18n.set_language("it")
    assert T.rules_line(Rules()) == "Regole: tradizionale · puntata iniziale 1 · bete 5 · nessun'altra opzione"


def test_presets_and_levels_have_the_web_pages_names():
    """One name per thing (R6, issue #13): the terminal's preset and level words are the msgids the
    web page's ``R.presetName`` and ``R.botLevel`` use, so both say "traditionell", "schwer"."""
    common = (ROOT / "src" / "ramsli" / "server" / "web" / "static" / "common.js").read_text(encoding="utf-8")
    for name, word in T.PRESET_WORDS.items():
        assert f'_("{word}")' in common, name
    assert set(T.PRESET_WORDS) == set(PRESETS)
    for level in ("medium", "hard"):
        assert f'_("{T.LEVEL_WORDS[level]}")' in common, level
    i18n.set_language("de")
    assert (T.preset_word("traditional"), T.level_word("hard"), T.level_word("easy")) == (
        "traditionell",
        "schwer",
        "leicht",
    )
    assert T.level_word("montecarlo:samples=64") == "montecarlo:samples=64"  # a bot spec, as typed


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_session_start_names_no_preset_or_level_in_english(tmp_path, lang):
    """The first lines of ``ramsli play --plain`` in German, Dutch or Italian name the preset (R6)
    and the opponents' levels (issue #13) in that language: no English preset or level word is
    left, for every preset and every level."""
    english = {w.lower() for w in (*T.PRESET_WORDS.values(), *PRESETS, *T.LEVEL_WORDS)}
    english -= {"general rams", "rounce", "nap"}  # names, the same in every language
    if lang in ("nl", "fr"):
        english.discard("expert")  # Dutch and French say expert too
    for preset in PRESETS:
        extra = ("--preset", preset, "--bots", "easy,medium,hard,expert", "--players", "5")
        start = _play(tmp_path / preset, lang, "", *extra).splitlines()[:3]
        i18n.set_language(lang)
        assert start[1].startswith(f"{T.rules_line(Rules.preset(preset)).split(' · ')[0]} · "), start
        assert T.preset_word(preset) in start[1] and T.level_word("hard") in start[2], start
        text = "\n".join(start).lower()
        found = {w for w in english if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)}
        assert not found, (preset, found, start)


# -- 3. one way of naming the human: "you" -----------------------------------------------------------------


@pytest.mark.parametrize("lang", LANGS)
def test_the_player_is_you_in_every_line_of_a_session(tmp_path, lang):
    """The player's name shows only where the seat is named (the first line, the table's seat lines);
    every move, trick, payment and standing says "you" (issue #12)."""
    out = _play(tmp_path, lang, ("in\n" + CYCLE) * 60 + "in\n", name="Zed")
    lines = out.splitlines()
    named = [line for line in lines if "Zed" in line]
    assert named and all(line == lines[0] or line.startswith("p1 Zed ") for line in named), [
        line for line in named if line != lines[0] and not line.startswith("p1 Zed ")
    ]
    i18n.set_language(lang)
    assert any(line.startswith(i18n._("Stacks: {list}").format(list=i18n._("you") + " ")) for line in lines)
    assert any(line == i18n._("You: {declaration}").format(declaration=i18n._("in")) for line in lines)
    assert any(line.startswith(i18n._("You play {card}").split("{")[0]) for line in lines)
    took = i18n._("You take trick {n}").split("{")[0]
    assert any(line.strip().startswith(took) for line in lines)  # the player's tricks: "You take trick 2"


def test_settlement_and_standings_lines_for_the_player():
    class St:  # the few fields settlement_lines reads
        kind, pot, share, active, winners, general_rams, bete, targets, carry_over = (
            "played",
            5,
            5,
            [0, 1],
            [0],
            None,
            [1],
            [],
            5,
        )
        tricks = [3, 0]
        stacks_after = [24, 14]
        payments = []

        def shortfalls(self):
            return {}

    lines = T.settlement_lines(St(), ["Zed", "Bo"], human=0)
    assert "You take the pot: 5 counters (R5.1)." in lines and lines[0] == "Tricks: you 3, Bo 0"
    assert lines[-1] == "Stacks: you 24, Bo 14"
    assert T.settlement_lines(St(), ["Zed", "Bo"])[1] == "Zed takes the pot: 5 counters (R5.1)."  # no reader
    st = T.standings_lines([24, 14, 24], 0, ["Zed", "Bo", "Cy"], [0, 2], "hands", 3, human=0)
    assert "1. you: 24 counters" in st and "You share the win with Cy (R3.7)." in st
    assert not any("Zed" in line for line in st)


@pytest.mark.parametrize("lang", LANGS)
def test_refusals_about_the_players_own_seat_say_you(lang):
    """The engine's refusals name seats by index; about the reader's own seat the table says "you"."""
    i18n.set_language(lang)
    mine = i18n.render_refusal(Refusal("not_held", "R4.10", {"seat": 0, "card": "AS"}), reader=0)
    assert mine == i18n.sentence_case(i18n._("you do not hold {card}")).format(card="AS") + " (R4.10)"  # a sentence
    assert (
        i18n.render_refusal(Refusal("not_held", "R4.10", {"seat": 1, "card": "AS"}), reader=0)
        == i18n._("{seat} does not hold {card}").format(seat="p2", card="AS") + " (R4.10)"
    )
    assert (
        i18n.render_refusal(Refusal("not_your_turn", "R4.12", {"seat": 0, "to_act": 1}), reader=0)
        == i18n.sentence_case(i18n._("it is {to_act}'s turn, not yours")).format(to_act="p2") + " (R4.12)"
    )
    if lang == "en":
        assert T.player_words(mine) == "You do not hold AS"


# -- 4. every language: commands, hints, answers -----------------------------------------------------------


@pytest.mark.parametrize(
    "lang,cmds,said",
    [
        (
            "de",
            "hilfe\nraus\n",
            ["Befehle:", "  rein (in) / raus (out) — ", "  ende (quit) — ", "Du: raus", "Gespeichert"],
        ),
        ("nl", "hulp\npas\n", ["Opdrachten:", "  mee (in) / pas (out) — ", "  stop (quit) — ", "Jij: pas"]),
        ("it", "aiuto\nfuori\n", ["Comandi:", "  dentro (in) / fuori (out) — ", "  esci (quit) — ", "Tu: fuori"]),
        (
            "fr",
            "aide\npasser\n",
            ["Commandes\u00a0:", "  jouer (in) / passer (out) — ", "  quitter (quit) — ", "Toi\u00a0: passe"],
        ),
    ],
)
def test_commands_and_help_in_each_language(tmp_path, lang, cmds, said):
    i18n.set_language(lang)
    quit_word = T.command_word("quit")
    out = _play(tmp_path, lang, cmds + "in\n" + "in\n" * 3 + quit_word + "\n")
    for text in said:
        if text == "Gespeichert":
            continue
        assert text in out, text
    assert i18n._("Saved. Continue later with: {command}").split("{")[0] in out  # the quit word saved and left
    assert "  " + T.command_word("last") + " (last) — " in out  # last trick, in that language
    assert i18n._("Unknown command '{word}'. Type help for the commands.").split("'")[0] not in out


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_english_commands_keep_working(tmp_path, lang):
    out = _play(tmp_path, lang, "help\nin\nwhy\nlast\nrules\nquit\n")
    i18n.set_language(lang)
    assert i18n._("Commands:") in out
    assert i18n._("You: {declaration}").format(declaration=i18n._("in")) in out
    assert i18n._("Saved. Continue later with: {command}").split("{")[0] in out
    assert (
        "Unknown" not in out
        and i18n._("Unknown command '{word}'. Type help for the commands.").split("'")[0] not in out
    )


@pytest.mark.parametrize(
    "lang,yes,no",
    [
        ("en", ["y", "yes", "Y"], ["n", "no", ""]),
        ("de", ["j", "ja", "y", "yes"], ["n", "nein", ""]),
        ("nl", ["j", "ja", "y"], ["n", "nee", ""]),
        ("it", ["s", "sì", "si", "y"], ["n", "no", ""]),
        ("fr", ["o", "oui", "O", "y"], ["n", "non", ""]),
    ],
)
def test_yes_no_answers_in_each_language(lang, yes, no):
    i18n.set_language(lang)
    assert {"en": "[y/N]", "de": "[j/N]", "nl": "[j/N]", "it": "[s/N]", "fr": "[o/N]"}[lang] == i18n._("[y/N]")
    assert all(is_yes(a) for a in yes) and not any(is_yes(a) for a in no)


@pytest.mark.parametrize("lang", CATALOG_LANGS)
def test_the_hints_name_the_words_of_the_players_language(lang):
    """The in/out, General Rams/pass and target hints show the commands of the player's language,
    not the English ones (which still work)."""
    i18n.set_language(lang)
    declare = i18n._("Declare: in or out?")
    assert "(in/out)" not in declare and T.command_word("in") in declare and T.command_word("out") in declare
    target = i18n._("Announce a trick target (target 2 to {top}) or pass?")
    assert "(target" not in target and f"({T.command_word('target')} " in target
    assert "(pass)" not in i18n._("Announce General Rams (gr) or pass?")
    assert "(pass)" not in target


def test_the_set_aside_question_says_where_and_the_app_shows_where_it_went(tmp_path, monkeypatch):
    """Starting the full-screen app over a saved session: the question says where the old one goes,
    and the app shows where it went (the screen hides what was printed before it)."""
    t = LocalTable.new(Rules(), ["Zed", "Anna", "Bruno"], ["random"] * 2, seed=3, store=SaveFolder(tmp_path))
    t.start_hand()
    t.quit()
    old = SaveFolder(tmp_path).load().session_id
    shown = {}

    def fake_run_app(table, speed=0.6, notice=None):
        shown["notice"] = notice
        table.quit()
        return 0

    monkeypatch.setattr(play_cmd, "_interactive", lambda: True)
    monkeypatch.setattr(play_cmd, "_terminal", lambda: True)
    monkeypatch.setattr("ramsli.frontends.tui.run_app", fake_run_app)
    r = runner.invoke(
        app,
        ["play", "--seed", "4", "--players", "3", "--bots", "random", "--lang", "de", "--data-dir", str(tmp_path)],
        input="ja\n",
    )
    assert r.exit_code == 0, r.output
    assert f"kommt nach {tmp_path / 'sessions'}" in r.output and "[j/N]" in r.output
    kept = tmp_path / "sessions" / old / "session.json"
    assert kept.exists() and str(kept) in shown["notice"]


def test_the_broken_save_question_says_where_it_is_kept(tmp_path, monkeypatch):
    (tmp_path / "session.json").write_text("{not json", encoding="utf-8")
    monkeypatch.setattr(play_cmd, "_interactive", lambda: True)
    r = runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--resume",
            "--lang",
            "en",
            "--players",
            "3",
            "--bots",
            "random",
            "--data-dir",
            str(tmp_path),
        ],
        input="y\nquit\n",
    )
    assert r.exit_code == 0, r.output
    assert f"Set it aside and start a new session? It is kept in {tmp_path}; nothing is deleted. [y/N]" in r.output
    assert (tmp_path / "session.json.broken-1").exists()


# -- the app: the rule on asking (r), the rules line, "you" ------------------------------------------------


def _app_table(tmp_path, lang="en", rules=None):
    i18n.set_language(lang)
    return LocalTable.new(
        rules or Rules(end=("hands:2",)),
        ["Zed", "Anna", "Bruno", "Carla"],
        ["random"] * 3,
        seed=5,
        store=SaveFolder(tmp_path),
        lang=lang,
    )


def test_pilot_refusal_without_rule_id_and_r_names_the_rule(tmp_path):
    t = _app_table(tmp_path, rules=Rules.preset("nap", end=("hands:1",)))

    async def go():
        app_ = RamsliApp(t, speed=0)
        seen = {}
        async with app_.run_test(size=(110, 36)) as pilot:
            await pilot.pause()
            seen["rules"] = str(app_.query_one("#rules").content)
            for _ in range(200):
                await pilot.pause()
                if t.human_to_act() and t.hand.phase is Phase.DECLARE:
                    break
            await pilot.press("1")  # a card before declaring: refused (R4.5)
            await pilot.pause()
            seen["message"] = str(app_.query_one("#message").content)
            await pilot.press("r")
            await pilot.pause()
            seen["why"] = str(app_.screen.query_one("#panel-text").content)
            await pilot.press("escape")
            await pilot.pause()
            recent = []
            for _ in range(400):  # play the hand out: the settlement panel, then r on it
                await pilot.pause()
                if isinstance(app_.screen, InfoScreen) and app_.screen.kind in ("hand", "standings"):
                    break
                recent = list(app_.recent)
                if t.human_to_act():
                    legal = t.hand.legal_actions()
                    ins = [a for a in legal if a.kind == "in"]
                    passes = [a for a in legal if a.kind == "pass"]
                    app_._try(ins[0] if ins else passes[0] if passes else legal[0])
            seen["recent"] = recent
            seen["panel"] = str(app_.screen.query_one("#panel-text").content)
            await pilot.press("r")
            await pilot.pause()
            seen["panel-why"] = str(app_.screen.query_one("#panel-text").content)
        return seen

    seen = asyncio.run(go())
    assert seen["rules"] == "Rules: with targets (Nap) · ante 1 · bete 5 · options: end=hands:1"
    assert seen["message"] == "Not allowed: Declare in or out first"
    assert "R4.5 — everyone declares in or out, the dealer last" in seen["why"]
    assert not RULE_ID.search(seen["panel"]) and "Stacks: you " in seen["panel"] and "Zed" not in seen["panel"]
    assert "R5.4 — what stays in the pot carries over to the next hand" in seen["panel-why"]
    assert seen["recent"] and not any("Zed" in line for line in seen["recent"])
    assert any(line.startswith("You") for line in seen["recent"])


def test_pilot_rules_line_in_the_players_language(tmp_path):
    t = _app_table(tmp_path, "nl", Rules.preset("pot-bete"))

    async def go():
        app_ = RamsliApp(t, speed=0)
        async with app_.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            return str(app_.query_one("#rules").content), app_.screen_text()

    line, screen = asyncio.run(go())
    assert line == "Regels: bete ter grootte van de pot · inzet 1 · bete de pot · geen andere opties"
    assert "Regels: bete ter grootte van de pot" in screen  # visible on an 80x24 screen


def test_the_opponents_and_their_levels_are_named_at_the_start_and_on_rules(tmp_path):
    """Issue #13: the player sees whom they face, by level: at the start (under the rules line) and on
    ``rules``; the default bot shows as its level ``hard``; German says ``Gegner``."""
    out = _play(tmp_path / "a", "en", "rules\nquit\n", "--bots", "easy,expert")
    lines = out.splitlines()
    assert lines[2] == "Opponents: Anna (easy), Bruno (expert)"
    assert out.count("Opponents: Anna (easy), Bruno (expert)") == 2
    args = [
        "play",
        "--plain",
        "--seed",
        "11",
        "--players",
        "3",
        "--name",
        "Zed",
        "--rule",
        "end=hands:3",
        "--speed",
        "0",
        "--lang",
        "de",
        "--data-dir",
        str(tmp_path / "b"),
    ]
    r = runner.invoke(app, args, input="ende\n")
    assert r.exit_code == 0, r.output
    assert "Gegner: Anna (schwer), Bruno (schwer)" in r.output
