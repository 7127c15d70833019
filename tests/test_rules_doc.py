"""docs/RULES.md is the shipped copy of the normative rule book (shared/RULES.md beside the repo)."""

import pytest

from helpers import ROOT


def test_shipped_rule_book_matches_the_normative_one():
    shared = ROOT.parent / "shared" / "RULES.md"
    if not shared.exists():
        pytest.skip("shared/RULES.md is not beside this checkout")
    assert (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8") == shared.read_text(encoding="utf-8"), (
        "docs/RULES.md is out of date: copy ../shared/RULES.md over it"
    )


def test_every_rule_id_is_mapped_in_rules_map():
    import re

    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    mapped = (ROOT / "docs" / "rules-map.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"\b(R\d+\.\d+|D-\d+)\b", rules))
    missing = []
    for rid in sorted(ids):
        if re.search(rf"(?<![\w.-]){re.escape(rid)}(?![\d])", mapped):
            continue
        # ranges like R5.1–R5.5 cover the ids between them
        m = re.match(r"R(\d+)\.(\d+)$", rid)
        if m and any(
            int(a) == int(m[1]) and int(b) <= int(m[2]) <= int(c)
            for a, b, _, c in re.findall(r"R(\d+)\.(\d+)[–-]R(\d+)\.(\d+)", mapped)
        ):
            continue
        missing.append(rid)
    assert not missing, f"rule ids without a place in docs/rules-map.md: {missing}"
