"""The engine's results do not move: digests of seeded random play, every preset (R4, R5, R3).

For each preset of R6, 2,000 seeded hands of 2..6 seats (random stacks, carry-over pots, seats
that left, dealers) are played at random through the public API (``Hand.new``,
``legal_actions``, ``apply``, now and then ``why_illegal`` of a wrong action, an action given as
text, ``observe``), and 20 seeded sessions are played to their end. Everything a result is made
of goes into one SHA-256 per preset: the deal (dealt cards, turn-up, jokers aside, cut, stock),
every legal-action list and every choice, every refusal code, the tricks and their winners,
``Settlement.to_dict()`` and the settlement itself (payments in order), the final stacks and pot,
the session's hand results, stacks, pot, seats and end reason.

The expected digests were taken from the engine before its speed work; a change of any deal,
legal move, trick winner, payment or refusal changes a digest and fails here. Run this file as a
script to print the digests: ``python tests/test_engine_digest.py``.
"""

from __future__ import annotations

import hashlib
import random

import pytest

from ramsli import Action, Hand, Rules, Session
from ramsli.rules import PRESETS

HANDS_PER_PRESET = 2000
SESSIONS_PER_PRESET = 20

#: preset -> SHA-256 (hex) of :func:`preset_digest`; taken before the engine's speed work (issue 28)
EXPECTED: dict[str, str] = {
    "compulsory": "beca8176380c2dbd5bf74d29428490c4a8da641cf32d89cf3161ba317d5d68cf",
    "double-penalty": "a79614fa9358237577565e781190009562aee5560b4c7af7fcb6bebea1e6f05c",
    "general-rams": "c788bdcc693505d508f58bd62ffe92257f5cc0a64f0ec9da539714d0f7bc3a33",
    "joker": "5c8cd6751335f6e002936bbe56a8cb6410e32679982c1cfe9fa92f6c474bbbae",
    "modern-52": "c1bd75715ad37d57f6b03e77cc35a7d339392134e59d738d04bdc6b27922bfb6",
    "nap": "ab3614de4b15ff8fa6033180f955ed627a34df4736a62b9bec4bcf8b8abaf99b",
    "pot-bete": "3b3def9fa35a56606e5f94ba84fc91194a40faaf7a1f19f26b5902fc3444b433",
    "rounce": "81935a1851af0e366a058b979430310a6590dbb4ce70dc26797b1659d9883d36",
    "traditional": "0e7c0b719070d3671edc56f681fdfba92f8a65623329b0f38a20e072bd308cf0",
}


def _card(c: object) -> str:
    return "??" if c is None else str(c)


def _hand_record(hand: Hand) -> str:
    s = hand.settlement
    assert s is not None
    return repr(
        (
            [t.leader for t in hand.tricks],
            [[(seat, str(c)) for seat, c in t.plays] for t in hand.tricks],
            [t.winner for t in hand.tricks],
            s.to_dict(),
            s,
            hand.stacks,
            hand.pot,
            hand.tricks_won,
            hand.thrown_in,
            hand.phase.value,
            hand.to_act,
            hand.leader,
            sorted(hand.targets.items()),
            hand.general_rams,
            [(seat, str(d)) for seat, d in hand.declarations],
            hand.active,
        )
    )


def _play_hand(rules: Rules, rng: random.Random, out: hashlib._Hash) -> None:
    n = rng.randint(2, 6)
    stacks = [rng.randint(0, 8) if rng.random() < 0.2 else rules.starting_stack + rng.randint(-5, 5) for _ in range(n)]
    seated = [s for s in range(n) if stacks[s] >= rules.ante]
    if len(seated) < 2:
        out.update(b"skip")
        return
    dealer = rng.choice(seated)
    pot = rng.randint(0, 6)
    hand = Hand.new(rules, stacks, dealer, rng, pot=pot, seated=seated if len(seated) < n else None)
    out.update(
        repr(
            (n, stacks, dealer, pot, seated, [[_card(c) for c in h] for h in hand.dealt])
            + (str(hand.turn_up), [str(c) for c in hand.turned_aside], hand.cut, [str(c) for c in hand.stock or ()])
            + (hand.stacks, hand.pot, hand.order, hand.phase.value, hand.to_act)
        ).encode()
    )
    probe = rng.randrange(25)  # one step at which a wrong action is tried and a seat observes
    step = 0
    while not hand.is_over:
        legal = hand.legal_actions()
        out.update(" ".join(map(str, legal)).encode())
        if step == probe:
            seat = hand.to_act
            assert seat is not None
            wrong = rng.choice(
                [Action.play(seat, c) for c in hand.dealt[seat] if c is not None]
                + [Action.declare(seat, True), Action.declare(seat, False), Action.pass_(seat)]
                + [Action.general_rams(seat), Action.announce_target(seat, 5), Action.declare(hand.dealer, True)]
            )
            why = hand.why_illegal(wrong)
            out.update(f"{wrong} {None if why is None else (why.code, why.rule, sorted(why.fields.items()))}".encode())
            out.update(repr(hand.observe(rng.choice(hand.seated))).encode())
        action = legal[rng.randrange(len(legal))]
        if step % 7 == 3:
            hand.apply(str(action))  # the text form of histories
        else:
            hand.apply(action)
        step += 1
    out.update(_hand_record(hand).encode())


def _play_session(rules: Rules, seed: int, out: hashlib._Hash) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    session = Session(rules, [f"N{i}" for i in range(n)], seed=seed)
    hands = 0
    while not session.is_over and hands < 60:
        hand = session.start_hand()
        while not hand.is_over:
            legal = hand.legal_actions()
            session.apply(legal[rng.randrange(len(legal))])
        hands += 1
    out.update(
        repr(
            (
                [(r.number, r.settlement.to_dict(), r.stacks_after, r.pot_after, r.left) for r in session.results],
                session.stacks,
                session.pot,
                session.seated,
                session.dealer,
                None if session.end_reason is None else str(session.end_reason),
            )
        ).encode()
    )


def preset_digest(name: str, hands: int = HANDS_PER_PRESET, sessions: int = SESSIONS_PER_PRESET) -> str:
    """SHA-256 (hex) of ``hands`` seeded random hands and ``sessions`` seeded sessions of a preset."""
    rules = Rules.preset(name)
    out = hashlib.sha256()
    rng = random.Random(f"digest {name}")
    for _ in range(hands):
        _play_hand(rules, rng, out)
    for k in range(sessions):
        _play_session(rules, 1000 + k, out)
    return out.hexdigest()


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_R4_R5_results_of_seeded_play_are_unchanged(name: str) -> None:
    """Every deal, legal move, trick winner (R4.10, R4.11), payment (R5) and session result (R3)
    of seeded random play equals what the engine gave before its speed work."""
    assert name in EXPECTED, f"no expected digest for preset {name!r}: run this file as a script"
    assert preset_digest(name) == EXPECTED[name]


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_R4_12_checking_an_action_before_applying_it_changes_no_result(name: str) -> None:
    """A front end's order (the server's): ``why_illegal`` of the action, then ``apply``. The check
    is asked before and after ``legal_actions`` of a state; it accepts exactly the legal actions
    (every play of a held card outside them is refused under R4.10 or R4.12), and the hands end
    exactly as hands that only apply (fingerprints, R4, R5)."""
    rules = Rules.preset(name)
    rng = random.Random(f"check {name}")
    for k in range(200):
        n = 2 + k % 5
        dealer = k % n
        checked = Hand.new(rules, [rules.starting_stack] * n, dealer, seed=k)
        plain = Hand.new(rules, [rules.starting_stack] * n, dealer, seed=k)
        while not plain.is_over:
            legal = plain.legal_actions()
            action = legal[rng.randrange(len(legal))]
            seat = checked.to_act
            assert seat is not None
            if k % 2:  # asked first, before the legal actions of this state are known
                assert checked.why_illegal(action) is None
            assert checked.legal_actions() == legal
            for card in checked.hands[seat]:
                assert card is not None
                play = Action.play(seat, card)
                why = checked.why_illegal(play)
                assert (why is None) == (play in legal), (play, why)
                if why is not None:
                    assert why.rule in ("R4.10", "R4.12", "R4.9", "R4.5", "R4.7", "R4.8"), why
            assert checked.why_illegal(action) is None
            checked.apply(action)
            plain.apply(action)
            assert checked.fingerprint() == plain.fingerprint()
        assert checked.is_over and checked.settlement == plain.settlement


def test_R4_10_legal_plays_follow_held_cards_changed_directly_once_the_cache_is_dropped() -> None:
    """Code that swaps held cards (a test's tampering) and drops the cached legal plays gets the legal
    plays of the cards now held (R4.10); ``why_illegal`` and ``apply`` judge by those."""
    hand = Hand.new(Rules(compulsory=True), [20] * 2, dealer=0, seed=5)
    seat = hand.to_act
    assert seat is not None
    hand.legal_actions()  # cached for the cards dealt
    other = 1 - seat
    mine, theirs = hand.hands[seat][0], hand.hands[other][0]
    assert mine is not None and theirs is not None
    hand.hands[seat][0], hand.hands[other][0] = theirs, mine
    hand._forget_legal_plays()
    assert Action.play(seat, theirs) in hand.legal_actions()
    assert Action.play(seat, mine) not in hand.legal_actions()
    assert hand.why_illegal(Action.play(seat, mine)) is not None
    hand.apply(Action.play(seat, theirs))
    assert hand.current == [(seat, theirs)]


if __name__ == "__main__":
    for preset in sorted(PRESETS):
        print(f"    {preset!r}: {preset_digest(preset)!r},")
