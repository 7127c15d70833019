"""bench/levels.py, the levels' ladder (issue 35 item 6): it measures, and it fails loudly when it cannot."""

from __future__ import annotations

import json
import subprocess
import sys

from helpers import ROOT, scaled

SCRIPT = ROOT / "bench" / "levels.py"


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args], capture_output=True, text=True, timeout=scaled(120), cwd=ROOT
    )


def test_the_ladder_reports_each_pair_at_a_mixed_table_and_in_a_field(tmp_path):
    out = tmp_path / "ladder.json"
    r = _run("--levels", "random,easy", "--presets", "traditional", "--deals", "6", "--jobs", "1", "--out", str(out))
    assert r.returncode == 0, r.stderr
    assert "[traditional mixed, 6 deals" in r.stdout and "[traditional field, 6 deals" in r.stdout
    data = json.loads(out.read_text())
    assert data["levels"] == {"random": "random", "easy": "tips:eps=0.35"}
    mixed, field = data["results"]
    # at a mixed table the paired gap is the per-deal difference of the two levels' own results
    pair = mixed["pairs"][0]
    assert (pair["upper"], pair["lower"]) == ("easy", "random")
    assert abs(pair["gap"] - (mixed["levels"]["easy"]["mean"] - mixed["levels"]["random"]["mean"])) < 1e-9
    assert field["pairs"][0]["deals"] == 6 and "not apart:" in r.stdout


def test_a_ladder_that_measures_nothing_fails():
    r = _run("--levels", "easy", "--deals", "6")
    assert r.returncode == 2 and "levels" in r.stderr
    r = _run("--levels", "easy,medium", "--mode", "neither")
    assert r.returncode == 2
