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
