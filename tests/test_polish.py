"""What a new user tripped over (the ``polish`` lane): small fixes of the terminal, the catalogs
and the server's log, each held by a test that fails without its fix."""

from __future__ import annotations

import logging
import typing
from pathlib import Path
from types import SimpleNamespace

import pytest

from ramsli import Rules
from ramsli.i18n import translation
from ramsli.server.coach import hints

DATA = Path(__file__).parent / "data" / "histories"


class _Idle:
    """A warm-up that does nothing when started (the test is about the log line only)."""

    def start(self) -> None:
        pass


def test_the_missing_lab_extra_is_logged_once_per_process(monkeypatch, caplog):
    """``warm_up_lab`` runs at each server start and each table with hints; without the ``lab``
    extra the log says so once in a process, not once per table."""
    monkeypatch.setattr(hints, "lab_available", lambda: False)
    monkeypatch.setattr(hints, "lab_warm_up", lambda: _Idle())
    hints._say_lab_missing.cache_clear()
    with caplog.at_level(logging.WARNING, logger="ramsli.server.lab"):
        for _ in range(3):
            hints.warm_up_lab()
    said = [r for r in caplog.records if "the lab extra" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]


def test_review_and_skill_declare_the_history_seat_lang_and_seed_once():
    """``ramsli review`` and ``ramsli skill`` take the history, ``--seat``, ``--lang`` and ``--seed``
    from one declaration each (``ramsli.commands.history_opts``), so they say them the same way."""
    from ramsli.commands import history_opts as opts
    from ramsli.commands.review import review
    from ramsli.commands.skill import skill

    shared = {"path": opts.HistoryPath, "seat": opts.SeatOption, "lang": opts.LangOption, "seed": opts.SeedOption}
    for command in (review, skill):
        hints_of = typing.get_type_hints(command, include_extras=True)
        for name, alias in shared.items():
            assert hints_of[name] == alias, (command.__name__, name)


# -- ramsli review: whose cards, and what "(+2 ??)" is ----------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "fr"])
def test_review_names_the_seat_whose_cards_are_shown(lang):
    """``ramsli review`` of every seat heads the cards' column with the seat's player ("Bruno's
    cards", in the reader's language); only the seat asked for with ``--seat`` reads "your cards"."""
    from ramsli.coach.review import Settings, review_hand
    from ramsli.commands.review import _print_hand
    from ramsli.history import HandHistory

    hh = HandHistory.read(DATA / "general-rams-made.toml")
    r = review_hand(hh, 1, Settings(equilibrium_samples=1000, declare_samples=300, play_samples=60, budget=60000))
    assert r.decisions and r.name == "Bruno"
    tr = translation(lang)
    theirs, yours = tr.gettext("{name}'s cards").format(name="Bruno"), tr.gettext("your cards")
    if lang != "en":
        assert theirs != "Bruno's cards", lang  # translated
    from rich.console import Console

    for own, want, not_want in ((False, theirs, yours), (True, yours, theirs)):
        console = Console(width=200, record=True, color_system=None, highlight=False)
        _print_hand(console, r, lang, own=own)
        text = console.export_text()
        assert want in text and not_want not in text, (own, text)


def test_the_session_review_says_what_plus_n_question_marks_is():
    """The session table's "0 (+2 ??)" (hands reviewed, and hands whose cards are not recorded) has
    a line under the table saying it in words, in the reader's language; without such hands no line."""
    from rich.console import Console

    from ramsli.commands.review import _print_session

    def player(seat: int, name: str, hands: int, hidden: int) -> SimpleNamespace:
        return SimpleNamespace(
            seat=seat, name=name, hands=hands, not_reviewed=hidden, decisions=0, declaration_loss=0.0,
            card_loss=0.0, marked_loss=0.0, average_loss=0.0, marks={}, worst=[],
        )  # fmt: skip

    for lang in ("en", "de"):
        tr = translation(lang)
        legend = tr.gettext(
            "{column} “(+n ??)”: n more hands not reviewed, as the player's cards are not recorded in them."
        ).format(column=tr.gettext("hands"))
        if lang != "en":
            assert "not reviewed" not in legend, legend
        for hidden in (2, 0):
            sr = SimpleNamespace(hands=2, players=[player(0, "Ann", 2, 0), player(1, "Bert", 0, hidden)])
            console = Console(width=200, record=True, color_system=None, highlight=False)
            _print_session(console, sr, lang)
            text = console.export_text()
            assert ("0 (+2 ??)" in text) == (legend in text) == (hidden == 2), text


# -- ramsli play --plain: Enter plays the only card allowed -----------------------------------------


@pytest.mark.parametrize("lang", ["en", "de"])
def test_enter_plays_the_only_card_allowed_and_the_prompt_says_so(tmp_path, lang):
    """At a turn with one card allowed (the last card, or the only one that follows suit, R4.10) the
    prompt says "Enter plays J♦." and an empty line plays it; with a choice Enter asks again. The
    input never types card 1: a turn with one card (always the fifth trick) is played by Enter."""
    from typer.testing import CliRunner

    from ramsli.cli import app

    args = ["play", "--plain", "--seed", "7", "--players", "3", "--bots", "random", "--name", "Tess"]
    args += ["--rule", "end=hands:2", "--speed", "0", "--lang", lang, "--data-dir", str(tmp_path)]
    r = CliRunner().invoke(app, args, input="in\n\n2\n3\n4\n5\n" * 60)
    assert r.exit_code == 0, r.output
    tr = translation(lang)
    enter = tr.gettext("Enter plays {card}.").split("{")[0]
    if lang != "en":
        assert enter != "Enter plays ", enter
    said = [line for line in r.output.splitlines() if enter in line]
    assert said, r.output  # the last card of each hand the person stayed in for, at least
    assert tr.ngettext("{n} hand played.", "{n} hands played.", 2).format(n=2) in r.output, r.output


# -- the locale's language for every command -----------------------------------------------------


@pytest.mark.parametrize(("env", "lang"), [({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "C.UTF-8"}, "en")])
def test_a_command_without_lang_speaks_the_locales_language(env, lang):
    """A command with no ``--lang`` of its own (``ramsli tournament``) refuses a table of one seat
    (R2.1) in the locale's language, chosen as ``ramsli play`` chooses it (``detect_language``)."""
    from typer.testing import CliRunner

    from ramsli.cli import app
    from ramsli.frontends.i18n import render_refusal
    from ramsli.refusal import Refusal
    from ramsli.session import check_setup

    try:
        check_setup(Rules(), 1)
    except Exception as e:  # noqa: BLE001 - the refusal of one seat, whatever its class
        refusal = e.refusal
    assert isinstance(refusal, Refusal) and refusal.rule == "R2.1"
    want = render_refusal(refusal, translations=translation(lang))
    full = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", **env}
    r = CliRunner().invoke(app, ["tournament", "--bots", "rules"], env=full)
    assert r.exit_code == 2 and want in r.output, (want, r.output)


# -- refusals read as sentences -----------------------------------------------------------------------


@pytest.mark.parametrize("lang", ["en", "de", "nl", "it", "fr"])
def test_every_refusal_reads_as_a_sentence_in_every_language(lang):
    """Every refusal code (the engine's, the bots', the server's) and its "you" text, rendered for a
    person (on the wire, on the page, in the terminal), starts with an upper-case letter when its
    text starts with a word; one that starts with a name (``{seat}``, ``{field}``) keeps the name as
    written. The machine code and the English ``Refusal.text()`` of the exceptions are unchanged."""
    import string

    from ramsli.frontends.i18n import render_refusal
    from ramsli.refusal import SEAT_FIELDS, Refusal
    from ramsli.server.protocol.messages import REFUSALS, render

    tr = translation(lang)
    checked = 0
    for code, entry in REFUSALS.items():
        for template, reader in ((entry.text, None), (entry.you, 1)):
            if template is None:
                continue
            names = {f for _lit, f, _spec, _conv in string.Formatter().parse(template) if f}
            fields = {f: (1 if f in SEAT_FIELDS else "D" if f in ("suit", "trump") else 7) for f in names}
            refusal = Refusal(code, "R4.12", fields | ({"seat": 1} if reader else {}))
            shown = render_refusal(refusal, translations=tr, reader=reader, texts=REFUSALS)
            local = tr.gettext(template)
            if local[:1].isalpha():
                assert shown[:1].isupper(), (lang, code, shown)
                checked += 1
            if reader is None:
                assert render(refusal, lang) == shown  # the server's answer is the same text
    assert checked > 100, checked
    r = Refusal("must_follow", "R4.10", {"suit": "H"})
    assert r.code == "must_follow" and r.text() == "must follow suit: play ♥"  # the exceptions' English


# -- Rich tables at 80 columns: no word cut ----------------------------------------------------------


def _tokens(text: str) -> list[str]:
    """The words of a rendered table, its box lines taken out."""
    for box in "│┃━╇─┼":
        text = text.replace(box, " ")
    return text.split()


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_review_table_wraps_at_word_boundaries_at_80_columns(lang):
    """``ramsli review`` at 80 columns in French and German: every word of the table (headers,
    "déclaration", "Markierung", "(95 %)", each card and its value) is whole on one line, as at
    400 columns; none is folded across lines or cropped at the right edge."""
    from rich.console import Console

    from ramsli.coach.review import Settings, review_hand
    from ramsli.commands.review import _print_hand
    from ramsli.history import HandHistory

    hh = HandHistory.read(DATA / "general-rams-made.toml")
    fast = Settings(equilibrium_samples=1000, declare_samples=300, play_samples=60, budget=60000)
    for seat in (0, 1):
        r = review_hand(hh, seat, fast)
        said = {}
        for width in (400, 80):
            console = Console(width=width, record=True, color_system=None, highlight=False)
            _print_hand(console, r, lang, own=seat == 0)
            text = console.export_text()
            table = "\n".join(ln for ln in text.splitlines() if "│" in ln or "┃" in ln)
            said[width] = table
            assert all(len(line) <= width for line in text.splitlines()), width
        narrow = set(_tokens(said[80]))
        missing = [w for w in _tokens(said[400]) if w not in narrow]
        assert not missing, (lang, seat, missing, said[80])


@pytest.mark.parametrize(("env", "lang"), [({"LANG": "de_DE.UTF-8"}, "de"), ({"LANG": "C.UTF-8"}, "en")])
def test_the_help_follows_the_locales_language(env, lang):
    """``ramsli --help`` without ``--lang``: its description, its panels (Play, After a game, …) and
    Typer's titles in the locale's language; in English for a locale that is not ours."""
    from typer.testing import CliRunner

    from ramsli.cli import app

    tr = translation(lang)
    full = {"LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "COLUMNS": "200", **env}
    out = CliRunner().invoke(app, ["--help"], env=full).output
    for english in ("Options", "Play", "After a game", "Bots and research", "Print the version and exit."):
        local = tr.pgettext("help", english)
        if lang != "en":
            assert local != english, english  # translated
        assert local in out, (english, out)
    if lang != "en":
        assert "After a game" not in out and "Bots and research" not in out, out
