"""Runs the soak of :mod:`ramsli.testing` with a small count (the full run is 100,000 hands:
``python bench/soak.py``), and checks that the soak really catches a broken engine (mutation checks)."""

from __future__ import annotations

import ramsli.hand
import ramsli.rules
from ramsli import testing
from ramsli.hand import Hand, Phase


def _leader_always_wins(monkeypatch):
    """Break R4.11 in the engine: every card of every trick as strong as any other, so the
    first card played (the leader's) stays the best."""
    flat = {t: {led: dict.fromkeys(by_card, 0) for led, by_card in v.items()} for t, v in ramsli.hand._STRENGTH.items()}
    monkeypatch.setattr(ramsli.hand, "_STRENGTH", flat)


def _every_card_legal(monkeypatch):
    """Break R4.10 in the engine: in play, every held card is legal (and accepted by apply)."""
    real = Hand.legal_actions

    def every_card(self):
        actions = real(self)
        if self.phase is Phase.PLAY and self.to_act is not None and None not in self.hands[self.to_act]:
            table = ramsli.hand._PLAY_TABLE[self.to_act]
            self._legal = [table[c.index] for c in self.hands[self.to_act]]
            return self._legal[:]
        return actions

    monkeypatch.setattr(Hand, "legal_actions", every_card)


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
    _leader_always_wins(monkeypatch)
    report = testing.soak(hands=200, seed=2, progress=False, max_violations=1)
    assert any("R4.11" in v for v in report.violations)


def test_soak_catches_wrong_legal_plays(monkeypatch):
    _every_card_legal(monkeypatch)
    report = testing.soak(hands=200, seed=2, progress=False, max_violations=1)
    assert report.violations and any("R4.10" in v for v in report.violations)


def test_soak_exit_status_1_on_violation(monkeypatch, capsys):
    _leader_always_wins(monkeypatch)
    assert testing.main(["--hands", "200", "--no-progress"]) == 1
    assert "invariant violations" in capsys.readouterr().out
