"""The terminal speaks one language (issue 36): ``ramsli review`` and ``ramsli verify`` print cards
with the rank letters of their ``--lang`` (de D/B for Dame/Bube, as the German table shows them,
R1.6, D-1), never cut a column's header, and ``verify`` explains a refused file in that language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ramsli.cli import build_app
from ramsli.frontends.text import card_label_in

DATA = Path(__file__).parent / "data" / "histories"
runner = CliRunner()
#: a hand whose seats hold queens and jacks (p2 J♣; p1 of the session's first hand D♠)
HAND = DATA / "general-rams-made.toml"
SESSION = DATA / "session-3p"


def _review(*args: str, columns: int = 80) -> str:
    r = runner.invoke(build_app(("review",)), ["review", *args], env={"COLUMNS": str(columns)})
    assert r.exit_code == 0, r.output
    return r.stdout


def test_card_label_in_follows_the_language_not_the_process():
    """R1.6, D-1: de A K D B, nl A H V B, it A R D F; English A K Q J; jokers by name."""
    assert [card_label_in(t, "de") for t in ("AS", "KH", "QH", "JS", "10D")] == ["A♠", "K♥", "D♥", "B♠", "10♦"]
    assert [card_label_in(t, "nl") for t in ("KH", "QH", "JS")] == ["H♥", "V♥", "B♠"]
    assert [card_label_in(t, "it") for t in ("KH", "QH", "JS")] == ["R♥", "D♥", "F♠"]
    assert card_label_in("QH", "en") == "Q♥" and card_label_in("X1", "de") == "großer Joker"


@pytest.mark.parametrize("columns", [80, 100])
def test_review_in_german_shows_german_card_letters_and_whole_headers(columns):
    """``ramsli review --lang de``: the table's cards and the coach's lines with D and B, no Q or J;
    every column header whole (no "…") at 80 columns."""
    out = _review(str(HAND), "--lang", "de", columns=columns)
    assert "B♣" in out  # p2's jack of clubs
    assert not re.search(r"\b[QJ][♠♥♦♣]", out), out
    assert "…" not in out
    for word in ("Entscheidung", "Markierung", "Karten", "gewählt", "Verlust"):
        assert word in out, word
    en = _review(str(HAND), "--lang", "en", columns=columns)
    assert "J♣" in en and "B♣" not in en


def test_review_of_a_session_in_german_keeps_its_headers_and_letters():
    """The session's table in German: "Entscheidungen", "Markierungen" whole; the worst decisions'
    lines with German card letters."""
    out = _review(str(SESSION), "--lang", "de")
    assert "…" not in out
    for word in ("Spieler", "Entscheidungen", "Markierungen", "verloren:"):
        assert word in out, word
    assert "D♠" in out and not re.search(r"\b[QJ][♠♥♦♣]", out)


def _verify(*args: str):
    return runner.invoke(build_app(("verify",)), ["verify", *args])


@pytest.mark.parametrize(
    ("name", "words", "english"),
    [
        ("bad-card-twice.toml", "p4, Karte 1: 7♦ wird doppelt gegeben (auch p3, Karte 1) (R1)", "dealt twice"),
        ("bad-unknown-option.toml", "Unbekannte Option 'betee'", "unknown option"),
        ("bad-malformed.toml", "Kein gültiges TOML", "not valid TOML"),
        ("missing.toml", "Keine solche Datei", "no such file"),
        (
            "bad-unknown-cards-play.toml",
            "die Karten von p3 stehen in Zeile 31 als unbekannt (??)",
            "written as unknown",
        ),
    ],
)
def test_verify_explains_a_refused_file_in_german(name, words, english):
    """``ramsli verify --lang de`` on a file it cannot read (exit status 2): the reason in German
    (R1, R8), as ``--lang en`` says it in English."""
    r = _verify(str(DATA / name), "--lang", "de")
    assert r.exit_code == 2
    assert words in r.output, r.output
    assert english not in r.output
    assert "Kartengaben geprüft: 0 von 1" in r.output
    en = _verify(str(DATA / name), "--lang", "en")
    assert en.exit_code == 2 and english in en.output, en.output


def test_verify_s_reasons_follow_the_language_and_its_card_letters():
    """A refused action (R4.10) and a settlement that does not replay (R5), in de, nl and it, with
    the language's card letters; the English text as before."""
    from ramsli.commands.verify import error_text
    from ramsli.history import HandHistory, HistoryError, ReplayError
    from ramsli.refusal import Refusal

    e = ReplayError(7, "p3 pl QH", Refusal("not_held", "R4.10", {"seat": 2, "card": "QH"}))
    assert error_text(e, "en") == "action 7 'p3 pl QH': p3 does not hold QH (R4.10)"  # the file's notation
    assert error_text(e, "de").startswith("Aktion 7 'p3 pl QH': ") and "D♥" in error_text(e, "de")
    assert "V♥" in error_text(e, "nl") and "azione 7" in error_text(e, "it")
    with pytest.raises(HistoryError) as bad:
        HandHistory.read(DATA / "bad-settlement.toml").replay()
    assert "Die Abrechnung passt nicht zum Nachspielen" in error_text(bad.value, "de")
    assert "De afrekening klopt niet" in error_text(bad.value, "nl")
    assert error_text(bad.value, "en").startswith("settlement does not match the replay")  # as the engine says it


def test_skill_in_german_shows_german_card_letters_and_whole_headers():
    """``ramsli skill --lang de``: the chosen and the expert's cards with D/B (B♣ for the jack of
    clubs), the headers whole at 60 columns."""
    r = runner.invoke(
        build_app(("skill",)), ["skill", str(HAND), "--seat", "p2", "--lang", "de"], env={"COLUMNS": "60"}
    )
    assert r.exit_code == 0, r.output
    assert "B♣" in r.stdout and not re.search(r"\b[QJ][♠♥♦♣]", r.stdout), r.stdout
    assert "…" not in r.stdout and "Entscheidung" in r.stdout and "Experte" in r.stdout


def test_replay_speaks_the_language_with_its_card_letters():
    """``ramsli replay --lang de``: the deal, tricks and settlement in German with D/B (R1.6, R4,
    R5); ``--lang en`` as before; a refused action (R4.10) explained in German too."""
    app = build_app(("replay_cmd",))
    de = runner.invoke(app, ["replay", str(DATA / "nap-targets.toml"), "--lang", "de"])
    assert de.exit_code == 0, de.output
    assert "Stich 1: p3 Clara spielt aus: p3 A♣, p2 9♣; gewonnen von p3 Clara" in de.stdout
    assert "p4 Dirk: B♣ 9♦ K♣ A♠ D♠" in de.stdout and "Abrechnung: Pott 4" in de.stdout
    assert not re.search(r"\b[QJ][♠♥♦♣]|Trick|Settlement", de.stdout), de.stdout
    en = runner.invoke(app, ["replay", str(DATA / "nap-targets.toml"), "--lang", "en"])
    assert "Trick 1: p3 Clara leads: p3 A♣, p2 9♣; won by p3 Clara" in en.stdout and "J♣ 9♦ K♣ A♠ Q♠" in en.stdout
    bad = runner.invoke(app, ["replay", str(DATA / "bad-illegal-follow-suit.toml"), "--lang", "de"])
    assert bad.exit_code == 1 and "Aktion " in bad.output and "bedienen" in bad.output, bad.output
    session = runner.invoke(app, ["replay", str(SESSION), "--lang", "en"])
    assert "\n\nSession ended (hands); winners Bruno" in session.stdout and "\\n" not in session.stdout


def test_verify_names_an_unknown_or_missing_key_in_the_language(tmp_path):
    """A hand-edited file: an unknown key and a missing key, said in Dutch and Italian (exit 2)."""
    unknown = tmp_path / "unknown.toml"
    unknown.write_text('format = "ramsli-hh/2"\nseatz = 1\n', encoding="utf-8")
    missing = tmp_path / "missing.toml"
    missing.write_text('format = "ramsli-hh/2"\n', encoding="utf-8")
    r = _verify(str(unknown), "--lang", "it")
    assert r.exit_code == 2 and "unknown.toml:2: Chiave sconosciuta 'seatz'" in r.output, r.output
    r = _verify(str(missing), "--lang", "nl")
    assert r.exit_code == 2 and "De sleutel 'seats' ontbreekt" in r.output, r.output
    assert "missing key 'seats'" in _verify(str(missing), "--lang", "en").output
