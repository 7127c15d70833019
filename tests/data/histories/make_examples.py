"""Regenerate the example hand histories in this directory (and docs/examples/).

Run: /work/venv/bin/python tests/data/histories/make_examples.py

Every file is produced by the engine from a fixed seed, so the output is the
same on every run; the broken files are made from good ones by one edit each.
"""

from __future__ import annotations

import random
import re
import shutil
from pathlib import Path

from ramsli import Hand, Rules, Session
from ramsli.history import HandHistory, write_session

HERE = Path(__file__).resolve().parent
DOCS = HERE.parents[2] / "docs" / "examples"
NAMES = ["Anna", "Bruno", "Clara", "Dirk", "Edda", "Fritz"]


def play_random(hand: Hand, rng: random.Random, prefer: str | None = None) -> None:
    """Random legal play; ``prefer`` = an action kind taken whenever legal (e.g. "gr", "in")."""
    while not hand.is_over:
        legal = hand.legal_actions()
        pick = [a for a in legal if a.kind == prefer] if prefer else []
        hand.apply(pick[0] if pick else legal[rng.randrange(len(legal))])


def find(rules: Rules, n: int, ok, prefer: str | None = None, hide: bool = False, max_seed: int = 20000):
    """The first seed's hand (random play) for which ``ok(hand)`` holds."""
    for seed in range(max_seed):
        rng = random.Random(seed)
        hand = Hand.new(rules, [20] * n, dealer=seed % n, rng=rng)
        play_random(hand, rng, prefer)
        if ok(hand):
            return HandHistory.from_hand(hand, NAMES[:n], hand_number=1, hide_folded=hide)
    raise RuntimeError("no hand found")


def illegal_variant(hh: HandHistory) -> str:
    """The text of ``hh`` with one card play replaced by a card the seat holds but may
    not play there because it must follow suit (R4.10)."""
    hand = hh.start()
    for a in hh.actions:
        if a.kind == "pl" and hand.current:
            bad = [c for c in hand.hands[a.seat] if c not in hand.legal_cards()]
            for c in bad:
                why = hand.why_illegal(type(a).play(a.seat, c))
                if why and why.code == "must_follow":
                    text = hh.to_toml()
                    return text.replace(f'    "{a}",', f'    "{a.__class__.play(a.seat, c)}",', 1)
        hand.apply(a)
    raise RuntimeError("no follow-suit spot")


def main() -> None:
    files: dict[str, str] = {}
    gr = find(
        Rules.preset("general-rams"),
        3,
        lambda h: h.general_rams is not None and h.settlement.general_rams_made,
        prefer="gr",
    )
    files["general-rams-made.toml"] = gr.to_toml()
    files["general-rams-failed.toml"] = find(
        Rules.preset("general-rams", general_rams_penalty="triple-pot"),
        4,
        lambda h: h.general_rams is not None and not h.settlement.general_rams_made and len(h.active) == 4,
        prefer="gr",
    ).to_toml()
    trad = find(Rules(), 5, lambda h: len(h.active) == 3 and h.settlement.bete, hide=True)
    files["traditional-folded.toml"] = trad.to_toml()
    files["nap-targets.toml"] = find(
        Rules.preset("nap"),
        4,
        lambda h: (
            len(h.targets) >= 2
            and any(m for *_, m in h.settlement.targets)
            and not all(m for *_, m in h.settlement.targets)
        ),
    ).to_toml()
    files["joker-aside.toml"] = find(Rules.preset("joker"), 4, lambda h: bool(h.turned_aside)).to_toml()
    files["walkover.toml"] = find(Rules(), 4, lambda h: h.settlement.kind == "walkover", hide=True).to_toml()
    files["thrown-in.toml"] = find(
        Rules(dealer_forced=False), 3, lambda h: h.settlement.kind == "thrown-in", hide=True
    ).to_toml()
    files["modern-52-6p.toml"] = find(Rules.preset("modern-52"), 6, lambda h: len(h.active) >= 4).to_toml()

    # broken files, one fault each
    t = trad.to_toml()
    files["bad-illegal-follow-suit.toml"] = illegal_variant(trad)
    files["bad-settlement.toml"] = t.replace("carry_over = ", "carry_over = 1", 1)
    files["bad-unknown-card.toml"] = t.replace('turn_up = "', 'turn_up = "Z', 1)
    seat_lines = [x for x in t.splitlines() if re.match(r"p\d = \[", x) and '"??"' not in x]
    a_line, b_line = seat_lines[0], seat_lines[1]
    dup = a_line.split('"')[1]
    files["bad-card-twice.toml"] = t.replace(b_line, b_line.replace(b_line.split('"')[1], dup, 1), 1)
    files["bad-malformed.toml"] = t.replace("\npot = 0\n", "\npot = \n", 1)
    files["bad-unknown-option.toml"] = t.replace("bete = 5\n", "bete = 5\nbetee = 10\n", 1)
    played_seat = next(a.seat for a in trad.actions if a.kind == "pl")
    line = next(x for x in t.splitlines() if x.startswith(f"p{played_seat + 1} = ["))
    files["bad-unknown-cards-play.toml"] = t.replace(line, f'p{played_seat + 1} = ["??", "??", "??", "??", "??"]')

    for name, text in files.items():
        (HERE / name).write_text(text, encoding="utf-8", newline="\n")

    # a short session: 3 players, hands:4
    s = Session(Rules(end=["hands:4"]), NAMES[:3], seed=11)
    rng = random.Random(11)
    while not s.is_over:
        h = s.start_hand()
        while not h.is_over:
            legal = h.legal_actions()
            s.apply(legal[rng.randrange(len(legal))])
    sess = HERE / "session-3p"
    if sess.exists():
        shutil.rmtree(sess)
    write_session(sess, s)

    DOCS.mkdir(parents=True, exist_ok=True)
    (DOCS / "general-rams-made.toml").write_text(files["general-rams-made.toml"], encoding="utf-8", newline="\n")


if __name__ == "__main__":
    main()
