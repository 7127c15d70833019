"""Runs the soak of :mod:`ramsli.testing` with a small count (the full run is 100,000 hands:
``python bench/soak.py``), and checks that the soak really catches a broken engine (mutation checks)."""

from __future__ import annotations

import ramsli.hand
import ramsli.rules
from ramsli import testing


def test_soak_small_count_has_no_invariant_violations():
    report = testing.soak(hands=2000, seed=1, progress=False)
    assert report.hands >= 2000
    assert report.sessions > 0 and report.busts > 0  # sessions with busts were played
    assert set(report.by_preset) == set(ramsli.rules.PRESETS)  # every preset of R6
    assert report.violations == []


def test_soak_main_exit_status_and_report(capsys):
    assert testing.main(["--hands", "30", "--no-progress", "--seed", "3"]) == 0
    assert "30 hands, 0 invariant violations" in capsys.readouterr().out


def test_soak_catches_a_wrong_trick_winner(monkeypatch):
    monkeypatch.setattr(ramsli.hand, "trick_winner", lambda trick, trump: trick[0][0])  # the leader always wins
    report = testing.soak(hands=200, seed=2, progress=False, max_violations=1)
    assert any("R4.11" in v for v in report.violations)


def test_soak_catches_wrong_legal_plays(monkeypatch):
    monkeypatch.setattr(ramsli.hand, "legal_plays", lambda cards, trick, trump, overtrump="always": list(cards))
    report = testing.soak(hands=200, seed=2, progress=False, max_violations=1)
    assert report.violations and any("R4.10" in v for v in report.violations)


def test_soak_exit_status_1_on_violation(monkeypatch, capsys):
    monkeypatch.setattr(ramsli.hand, "trick_winner", lambda trick, trump: trick[0][0])
    assert testing.main(["--hands", "200", "--no-progress"]) == 1
    assert "invariant violations" in capsys.readouterr().out
