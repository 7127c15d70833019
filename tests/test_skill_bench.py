"""bench/skill.py, the skill counters' validation (issue 35 item 5): its designs pair what they claim to
pair, and it fails loudly when it measures nothing."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT, scaled

SCRIPT = ROOT / "bench" / "skill.py"
QUICK = ("--declare-samples", "20", "--play-samples", "4", "--budget", "2000", "--equilibrium-samples", "100")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args, *QUICK],
        capture_output=True,
        text=True,
        timeout=scaled(180),
        cwd=ROOT,
    )


def test_in_the_field_design_a_bot_against_itself_is_level_on_every_hand(tmp_path):
    # A and B the same deterministic bot, in the same seat, against the same field bots (``easy`` slips at
    # random: only the same seeds make them play alike): every hand is the same hand, so every measure's
    # gap is exactly 0 (the pairing holds)
    out = tmp_path / "skill.json"
    r = _run("--pairs", "tips/tips", "--field", "easy", "--deals", "2", "--true-deals", "6", "--out", str(out))
    assert r.returncode == 0, r.stderr
    (pair,) = json.loads(out.read_text())["pairs"]
    assert pair["true"]["deals"] == 6 and pair["true"]["gap"] == 0.0 and pair["true"]["sd_deal"] == 0.0
    assert pair["hands_each"] == 2 * 4  # one seat per hand, every seat, for A and for B
    for k in ("net", "corrected", "skill"):
        assert pair[k]["gap"] == 0.0, k
    assert pair["skill"]["nonzero"] > 0  # the tips and the expert disagree somewhere: something was valued
    assert all(x == 0.0 for x in pair["per_deal"]["skill"])


def test_the_line_up_design_values_every_seat_and_a_pair_that_measures_nothing_fails():
    # line-up random, tips, random, tips in every rotation: each plays 4 rotations × 2 seats; then the
    # tips against the tips measured by the tips: every decision agrees with the baseline, every value 0
    r = _run(
        "--pairs",
        "random/tips,tips/tips",
        "--baseline",
        "tips",
        "--design",
        "lineup",
        "--deals",
        "1",
        "--true-deals",
        "2",
    )
    assert "random/tips: true gap" in r.stdout and "(8 hands each)" in r.stdout, r.stdout + r.stderr
    assert r.returncode == 1 and "tips/tips: NOTHING MEASURED" in r.stderr


def test_the_declaration_check_compares_the_coach_with_the_replayed_truth():
    r = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "skill_decisions.py"), "--field", "tips", "--deals", "4"]
        + ["--declare-samples", "20", "--jobs", "1", "--no-equilibrium"],
        capture_output=True,
        text=True,
        timeout=scaled(180),
        cwd=ROOT,
    )
    # the tips go in on hands the expert folds (and the reverse): each such hand replayed both ways
    assert r.returncode == 0, r.stderr
    assert (
        "tips in one seat, tips elsewhere, 4 players, 4 deals (16 hands), declarations, the expert's values:"
        in r.stdout
    )
    assert "the expert not:" in r.stdout and "the truth replayed" in r.stdout


def test_an_unknown_bot_is_refused_before_any_work():
    for script, args in (("skill.py", ["--pairs", "foo/easy"]), ("skill_decisions.py", ["--field", "foo"])):
        r = subprocess.run(
            [sys.executable, str(ROOT / "bench" / script), *args],
            capture_output=True,
            text=True,
            timeout=scaled(60),
            cwd=ROOT,
        )
        assert r.returncode == 2 and "unknown bot 'foo'; allowed are" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr
