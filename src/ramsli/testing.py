"""Shared test invariants: the checks every engine state must pass, and the rules written again.

The tests (``tests/test_properties.py``, ``tests/test_soak.py``, ...) and the
soak script ``bench/soak.py`` import these, so they check exactly the same
things. Nothing here is used by the game itself; it stands beside the bots and
the lab, on the engine (README, "Dependencies point one way").

- :func:`check_hand`, :func:`check_observation`, :func:`check_refused`: every
  invariant of one hand state (listed below); each returns violation texts.
- :func:`ref_legal_cards`, :func:`ref_trick_winner`, :func:`ref_settle`: R4.10,
  R4.11 and R5 written again from RULES.md, independent of the engine's code.
- :func:`random_rules`, :func:`random_wrong_action`, :func:`play_random_hand`:
  random positions and random wrong input (seeded).
- :func:`soak`, :func:`main`: the soak run (``python bench/soak.py`` or
  ``python -m ramsli.testing``).

>>> report = soak(hands=20, seed=1, progress=False)
>>> report.hands >= 20, report.violations
(True, [])

The soak plays ``hands`` random hands (default 100,000) across all presets of R6 with
2-6 players: about half inside :class:`~ramsli.session.Session` objects (small
stacks, ``bust = end`` or ``leave``, ``end = hands:N``) so that busts, departures
and carry-overs happen, the other half as plain hands with random stacks and
carry-in pots. Some hands also vary single options (overtrump, batches,
dealer_forced, ante, bete, General Rams with targets...).

After every action it checks (see :func:`check_hand`):

- R3.4 conservation: stacks + pot equal the bank; no stack or pot below zero (R3.3);
- every card is in exactly one place (hands, played tricks, current trick,
  turn-up, turned-aside jokers, stock) and together they are the rules' deck;
- the seat to act has at least one legal action, and every listed action is legal;
- a finished hand is settled; five tricks were played whenever two or more were in;
- R7/D-16: no observation of any seat holds another seat's unplayed or folded
  card or a stock card;
- R4.12: random wrong actions (other seats, cards not held, illegal cards,
  wrong phase kinds, malformed text) are refused and change nothing.

Run::

    python bench/soak.py --hands 100000

Prints a Rich progress bar and a final line ``N hands, K invariant violations``;
exits with status 1 if K > 0. Deterministic for a given ``--seed``.
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import random
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from ramsli.cards import Card, make_deck
from ramsli.errors import IllegalActionError
from ramsli.hand import Action, Hand, Phase
from ramsli.rules import PRESETS, Rules
from ramsli.seats import seat_name
from ramsli.session import Session

__all__ = [
    "check_hand",
    "check_observation",
    "check_refused",
    "random_wrong_action",
    "play_random_hand",
    "random_rules",
    "ref_legal_cards",
    "ref_trick_winner",
    "ref_settle",
    "walk_cards",
    "soak",
    "SoakReport",
    "main",
]

NAMES = ["Ann", "Bo", "Cy", "Di", "Ed", "Fay"]


# --- invariants -------------------------------------------------------------------------------------


def walk_cards(obj, depth: int = 0) -> Iterator[Card]:
    """Every Card object reachable from ``obj`` (fields, tuples, lists, dicts, actions), e.g. an observation (R7)."""
    if depth > 12 or obj is None:
        return
    if isinstance(obj, Card):
        yield obj
    elif isinstance(obj, Action):
        if obj.card is not None:
            yield obj.card
    elif isinstance(obj, (str, int, float, bool, enum.Enum, Rules)):
        return
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield from walk_cards(k, depth + 1)
            yield from walk_cards(v, depth + 1)
    elif isinstance(obj, (tuple, list, set, frozenset)):
        for x in obj:
            yield from walk_cards(x, depth + 1)
    elif dataclasses.is_dataclass(obj):
        for f in dataclasses.fields(obj):
            yield from walk_cards(getattr(obj, f.name), depth + 1)
    elif hasattr(obj, "__dict__"):
        for v in vars(obj).values():
            yield from walk_cards(v, depth + 1)


def check_observation(hand: Hand, seat: int) -> list[str]:
    """R7 / D-16: ``hand.observe(seat)`` holds no other seat's unplayed card and no stock card."""
    out = []
    obs = hand.observe(seat)
    hidden: set[Card] = set()
    for s, h in enumerate(hand.hands):
        if s != seat:
            hidden.update(c for c in h if c is not None)
    if hand.stock is not None:
        hidden.update(hand.stock)
    leaked = [c for c in walk_cards(obs) if c in hidden]
    if leaked:
        out.append(f"R7: observation of {seat_name(seat)} shows hidden cards {sorted(set(map(str, leaked)))}")
    own = sorted(str(c) for c in hand.hands[seat] if c is not None)
    if sorted(map(str, obs.cards)) != own:
        out.append(f"R7: observation of {seat_name(seat)} shows cards {sorted(map(str, obs.cards))}, holds {own}")
    if obs.to_act != hand.to_act or obs.pot != hand.pot or list(obs.stacks) != list(hand.stacks):
        out.append(f"R7: observation of {seat_name(seat)} disagrees with the hand on to_act/pot/stacks")
    if seat == hand.to_act and set(obs.legal) != set(hand.legal_actions()):
        out.append(f"R7: observation of {seat_name(seat)} lists other legal actions than the hand")
    return out


# --- reference rules, written again from RULES.md (independent of the engine's code) -------------------


def _is_trump(c: Card, trump: str) -> bool:
    return c.suit is None or c.suit == trump  # D-2: jokers belong to the trump suit


def ref_legal_cards(cards, trick, trump: str, overtrump: str) -> set[Card]:
    """R4.10 as written: follow suit, else trump, overtrump (D-14), else any card."""
    if not trick:
        return set(cards)
    lead = trick[0][1]
    led_trump = _is_trump(lead, trump)
    if not led_trump:
        follow = [c for c in cards if c.suit == lead.suit and not c.is_joker]
        if follow:
            return set(follow)
    trumps = [c for c in cards if _is_trump(c, trump)]
    if not trumps:
        return set(cards)
    in_trick = [c.rank for _, c in trick if _is_trump(c, trump)]
    if in_trick and (not led_trump or overtrump == "always"):
        higher = [c for c in trumps if c.rank > max(in_trick)]
        if higher:
            return set(higher)
    return set(trumps)


def ref_trick_winner(trick, trump: str) -> int:
    """R4.11: highest trump if any trump was played, else highest card of the led suit."""
    trumps = [(c.rank, s) for s, c in trick if _is_trump(c, trump)]
    if trumps:
        return max(trumps)[1]
    led = trick[0][1].suit
    return max((c.rank, s) for s, c in trick if c.suit == led)[1]


def ref_settle(hand: Hand) -> tuple[list[int], int]:
    """R5.1-R5.9 as written, from the hand's facts: returns (stacks after, carry-over)."""
    rules = hand.rules
    n = hand.n_seats
    st = list(hand.start_stacks)
    for s in hand.seated:
        st[s] -= rules.ante
    P = hand.carry_in + rules.ante * len(hand.seated)
    pot = P
    order = [(hand.dealer + k) % n for k in range(1, n + 1)]
    act = [s for s in order if s in hand.active]
    tw = hand.tricks_won

    def pay(payer, payee, amount):
        nonlocal pot
        if amount <= 0:
            return
        if payer is None:
            amount = min(amount, pot)
            pot -= amount
        else:
            amount = min(amount, st[payer])  # R5.8
            st[payer] -= amount
        if payee is None:
            pot += amount
        else:
            st[payee] += amount

    def left_of(seat, seats):
        return sorted(seats, key=lambda x: (x - seat) % n)

    if not act:
        return st, pot
    if len(act) == 1:
        pay(None, act[0], P)
        return st, pot
    best = max(tw[s] for s in act)
    winners = [s for s in act if tw[s] == best]
    for s in winners:
        pay(None, s, P // len(winners))
    bete = P if rules.bete == "pot" else rules.bete
    gr = hand.general_rams
    if gr is not None and tw[gr] == 5:
        others = left_of(gr, [s for s in act if s != gr])
        each, rem = divmod(2 * P, len(others))
        for i, s in enumerate(others):
            pay(s, gr, each + (1 if i < rem else 0))
    for s in act:
        if tw[s] == 0 and not (s == gr and tw[gr] < 5):
            pay(s, None, bete)
    if gr is not None and tw[gr] < 5:
        pay(gr, None, 3 * P if rules.general_rams_penalty == "triple-pot" else 3 * bete)
    for s in act:
        if s in hand.targets:
            t = hand.targets[s]
            b = t - 1 if rules.target_bonus == "t-1" else t
            others = left_of(s, [o for o in act if o != s])
            if tw[s] >= t:
                for o in others:
                    pay(o, s, b)
            else:
                pay(s, None, b * len(others))
    return st, pot


def _p(seat: int | None) -> str:
    """A seat's name in a finding: ``p1`` for 0, ``p?`` for None."""
    return "p?" if seat is None else seat_name(seat)


def check_hand(hand: Hand, bank: int, observe: str = "all") -> list[str]:
    """All invariants of one hand state; returns violation texts (empty: all fine).

    Args:
        hand: the hand.
        bank: counters at the table (sum of starting stacks, R3.4).
        observe: ``"all"`` seats, ``"acting"`` seat only, or ``"none"`` (R7 checks).
    """
    out: list[str] = []
    if hand.total() != bank:
        out.append(f"R3.4: stacks {list(hand.stacks)} + pot {hand.pot} = {hand.total()} != bank {bank}")
    if hand.pot < 0 or any(s < 0 for s in hand.stacks):
        out.append(f"R3.3: negative stack or pot: {list(hand.stacks)} pot {hand.pot}")
    # every card in exactly one place
    places: list[Card] = []
    for h in hand.hands:
        places.extend(c for c in h if c is not None)
    for t in hand.tricks:
        places.extend(c for _, c in t.plays)
    places.extend(c for _, c in hand.current)
    places.append(hand.turn_up)
    places.extend(hand.turned_aside)
    if hand.stock is not None:
        places.extend(hand.stock)
    if len(set(places)) != len(places):
        seen: set[Card] = set()
        dup: set[Card] = set()
        for c in places:
            (dup if c in seen else seen).add(c)
        out.append(f"cards in two places: {sorted(map(str, dup))}")
    if hand.stock is not None:
        deck = set(make_deck(hand.rules.deck, hand.rules.jokers))
        if set(places) != deck:
            out.append(
                f"cards missing or foreign: missing {sorted(map(str, deck - set(places)))}, "
                f"foreign {sorted(map(str, set(places) - deck))}"
            )
    if hand.turn_up.is_joker or any(not c.is_joker for c in hand.turned_aside):
        out.append("D-9: joker turn-up or a non-joker turned aside")
    if hand.trump != hand.turn_up.suit:
        out.append("R4.4: trump is not the turn-up's suit")
    to_act = hand.to_act
    if not hand.is_over:
        if to_act is None:
            out.append(f"the hand is not over (phase {hand.phase.value}) but no seat is to act")
        else:
            legal = hand.legal_actions()
            if not legal:
                out.append(f"no legal action for {_p(to_act)} in phase {hand.phase.value}")
            for a in legal:
                if a.seat != to_act:
                    out.append(f"legal action {a} is not of the seat to act {_p(to_act)}")
                elif not hand.is_legal(a):
                    out.append(f"legal action {a} is refused by is_legal: {hand.why_illegal(a)}")
            if to_act not in hand.seated:
                out.append(f"{_p(to_act)} to act is not seated")
            if hand.phase is Phase.PLAY:
                if to_act not in hand.active:
                    out.append(f"{_p(to_act)} to play is not in")
                held = hand.hands[to_act]
                mine = [c for c in held if c is not None]
                if len(mine) == len(held):  # no unknown card
                    ref = ref_legal_cards(mine, hand.current, hand.trump, hand.rules.overtrump)
                    got = {a.card for a in legal}
                    if got != ref:
                        out.append(
                            f"R4.10: legal cards {sorted(map(str, got))} but the rules allow "
                            f"{sorted(map(str, ref))} (holding {sorted(map(str, mine))}, "
                            f"trick {[str(c) for _, c in hand.current]}, trump {hand.trump})"
                        )
    else:
        st = hand.settlement
        if st is None:
            out.append("hand over without settlement")
        else:
            if len(hand.active) >= 2:
                if len(hand.tricks) != 5 or st.kind != "played":
                    out.append(f"R4.9: {len(hand.active)} in but {len(hand.tricks)} tricks ({st.kind})")
                if sum(hand.tricks_won) != 5:
                    out.append(f"R4.9: tricks won {list(hand.tricks_won)} do not sum to 5")
                if any(len(h) for h in (hand.hands[s] for s in hand.active)):
                    out.append("R4.9: an active seat has unplayed cards after five tricks")
            elif len(hand.active) == 1:
                if st.kind != "walkover" or hand.tricks:
                    out.append(f"R4.6: one in but kind {st.kind} with {len(hand.tricks)} tricks")
            elif st.kind != "thrown-in" or st.carry_over != st.pot:
                out.append(f"D-10: all out but kind {st.kind}, carry {st.carry_over} of pot {st.pot}")
            order = [
                s for s in ((hand.dealer + k) % hand.n_seats for k in range(1, hand.n_seats + 1)) if s in hand.active
            ]
            for i, t in enumerate(hand.tricks):
                if t.winner != ref_trick_winner(t.plays, hand.trump):
                    out.append(f"R4.11: trick {i + 1} {[str(c) for _, c in t.plays]} won by {_p(t.winner)}")
                lead = order[0] if i == 0 else hand.tricks[i - 1].winner
                if t.leader != lead or t.plays[0][0] != lead:
                    out.append(f"R4.9: trick {i + 1} led by {_p(t.leader)}, should be {_p(lead)}")
                k = order.index(lead) if lead in order else 0
                if [s for s, _ in t.plays] != order[k:] + order[:k]:
                    out.append(f"R4.10: trick {i + 1} played in order {[s for s, _ in t.plays]}")
            ref_stacks, ref_pot = ref_settle(hand)
            if list(st.stacks_after) != ref_stacks or st.carry_over != ref_pot:
                out.append(
                    f"R5: settlement {list(st.stacks_after)} carry {st.carry_over}, rules give "
                    f"{ref_stacks} carry {ref_pot} (tricks {list(hand.tricks_won)}, "
                    f"gr {hand.general_rams}, targets {hand.targets})"
                )
            if sum(st.stacks_after) + st.carry_over != bank:
                out.append("R3.4: settlement does not conserve counters")
            if list(st.stacks_after) != list(hand.stacks) or st.carry_over != hand.pot:
                out.append("settlement stacks/pot differ from the hand's")
            for p in st.payments:
                if not 0 <= p.paid <= p.owed:
                    out.append(f"R5.8: payment {p} pays outside 0..owed")
    if observe != "none":
        seats = range(hand.n_seats) if observe == "all" else ([hand.to_act] if hand.to_act is not None else [])
        for s in seats:
            out.extend(check_observation(hand, s))
    return out


def random_wrong_action(hand: Hand, rng: random.Random) -> Action | str:
    """A random action that is often illegal now: another seat, a card not held, an illegal
    card, a wrong-phase kind, an unseated seat, or malformed text."""
    n = hand.n_seats
    r = rng.random()
    if r < 0.05:
        return rng.choice(["p9 in", "p1 pl ZZ", "hello", "p2 t7", "", "p1 pl", f"{seat_name(n)} in"])
    seat = rng.randrange(n) if (r < 0.4 or hand.to_act is None) else hand.to_act
    kind = rng.choice(["in", "out", "gr", "pass", "t", "pl", "pl", "pl"])
    if kind == "pl":
        if hand.hands[seat] and rng.random() < 0.7:
            card = rng.choice(hand.hands[seat])
            if card is None:
                card = rng.choice(make_deck(hand.rules.deck, hand.rules.jokers))
        else:
            card = rng.choice(make_deck(hand.rules.deck, hand.rules.jokers))
        return Action.play(seat, card)
    if kind == "t":
        return Action.announce_target(seat, rng.randint(2, 5))
    return Action.parse(f"{seat_name(seat)} {kind}")


def check_refused(hand: Hand, action: Action | str) -> list[str]:
    """R4.12: if ``action`` is illegal now, applying it raises IllegalActionError naming a rule and
    changes nothing; ``is_legal`` agrees with ``legal_actions``. Legal actions are not applied."""
    out = []
    if isinstance(action, Action):
        legal = hand.legal_actions()
        if hand.is_legal(action) != (action in legal):
            out.append(f"is_legal({action}) = {hand.is_legal(action)} but legal_actions has it: {action in legal}")
        if action in legal:
            return out
    before = hand.fingerprint()
    total = hand.total()
    try:
        hand.apply(action)
    except IllegalActionError as e:
        if not (isinstance(e.rule, str) and e.rule.startswith(("R", "D-"))):
            out.append(f"R4.12: refusal of {action!r} names no rule: {e.rule!r}")
    except Exception as e:  # noqa: BLE001 - any other exception is a violation
        out.append(f"R4.12: {action!r} raised {type(e).__name__}: {e}")
    else:
        if isinstance(action, str) and hand.fingerprint() != before:
            # a legal action given as text: accepted, fine, but then we cannot continue from here
            out.append(f"text action {action!r} was accepted though checked as wrong")
        elif not isinstance(action, str):
            out.append(f"R4.12: illegal {action} was accepted")
        return out
    if hand.fingerprint() != before or hand.total() != total:
        out.append(f"R4.12: refused {action!r} changed the state")
    return out


def play_random_hand(
    hand: Hand,
    rng: random.Random,
    bank: int,
    apply: Callable | None = None,
    wrong: float = 0.3,
    observe: str = "all",
    after: Callable[[], list[str]] | None = None,
) -> list[str]:
    """Play ``hand`` to the end with uniformly random legal actions, checking every invariant
    before the first and after every action.

    Args:
        apply: how to apply an action (default ``hand.apply``; a session passes ``session.apply``).
        wrong: chance per step of also trying a random wrong action (which must be refused).
        observe: which observations to check (see :func:`check_hand`).
        after: extra check run after each action (e.g. session conservation).
    Returns:
        violation texts, each prefixed with the action history so far.
    """
    apply = apply or hand.apply
    out: list[str] = []
    steps = 0
    while True:
        v = check_hand(hand, bank, observe)
        if after is not None:
            v += after()
        if v:
            hist = " ".join(map(str, hand.history))
            out.extend(f"{msg}  [after: {hist}]" for msg in v)
            return out
        if hand.is_over:
            return out
        if rng.random() < wrong:
            bad = random_wrong_action(hand, rng)
            if isinstance(bad, str):
                v = check_refused(hand, bad)
            elif bad not in hand.legal_actions():
                v = check_refused(hand, bad)
            if v:
                out.extend(v)
                return out
        legal = hand.legal_actions()
        apply(legal[rng.randrange(len(legal))])
        steps += 1
        if steps > 200:
            out.append("hand did not end after 200 actions")
            return out


def random_rules(rng: random.Random, preset: str | None = None, vary: float = 0.3) -> Rules:
    """A preset of R6 (random if not given), with single options varied with chance ``vary`` each."""
    name = preset or rng.choice(list(PRESETS))
    changes: dict = {}
    if rng.random() < vary:
        changes["overtrump"] = rng.choice(["always", "when-trumping"])
    if rng.random() < vary:
        changes["batches"] = rng.choice(["3+2", "2+3"])
    if rng.random() < vary:
        changes["dealer_forced"] = rng.random() < 0.5
    if rng.random() < vary:
        changes["ante"] = rng.choice([0, 1, 2, 3])
    if rng.random() < vary:
        changes["bete"] = rng.choice([0, 1, 5, 10, "pot"])
    if rng.random() < vary:
        changes["general_rams"] = True
        changes["general_rams_penalty"] = rng.choice(["triple-bete", "triple-pot"])
    if rng.random() < vary:
        changes["targets"] = True
        changes["target_bonus"] = rng.choice(["t-1", "t"])
    if rng.random() < vary / 2:
        changes["jokers"] = True
    if rng.random() < vary / 3:
        changes["compulsory"] = True
    return Rules.preset(name, **changes)


# --- the soak run -------------------------------------------------------------------------------------


@dataclass
class SoakReport:
    """Result of :func:`run`: hands played, sessions played, and violation texts."""

    hands: int = 0
    sessions: int = 0
    session_hands: int = 0
    busts: int = 0
    violations: list[str] = field(default_factory=list)
    by_preset: dict[str, int] = field(default_factory=dict)


def _session_checks(session: Session, report: SoakReport, label: str) -> list[str]:
    out = []
    if session.total() != session.bank:
        out.append(f"{label} R3.4: session total {session.total()} != bank {session.bank}")
    return out


def _run_session(rng: random.Random, report: SoakReport, budget: int, wrong: float, observe: str) -> None:
    preset = rng.choice(list(PRESETS))
    rules = random_rules(rng, preset)
    n = rng.randint(2, 6)
    stack = rng.choice([1, 2, 3, 5, 8, 20])
    rules = rules.replace(
        starting_stack=stack,
        bust=rng.choice(["end", "leave"]),
        end=[f"hands:{max(1, min(budget, rng.randint(1, 40)))}"],
    )
    seed = rng.randrange(2**32)
    label = f"[session seed={seed} preset={preset} n={n} rules={rules.diff()}]"
    s = Session(rules, NAMES[:n], seed=seed)
    report.sessions += 1
    floor = max(rules.ante, 1)
    departed: set[int] = set()
    while not s.is_over:
        for seat in s.seated:
            if s.stacks[seat] < floor:
                report.violations.append(f"{label} R3.5: seated {seat_name(seat)} has {s.stacks[seat]} < {floor}")
        if s.dealer not in s.seated:
            report.violations.append(f"{label} R3.5: dealer {seat_name(s.dealer)} is not seated")
        hand = s.start_hand()
        if set(hand.seated) & departed:
            report.violations.append(f"{label} R3.5: departed seats {departed} seated again")
        v = play_random_hand(
            hand,
            rng,
            s.bank,
            apply=s.apply,
            wrong=wrong,
            observe=observe,
            after=lambda: _session_checks(s, report, label),
        )
        report.hands += 1
        report.session_hands += 1
        report.by_preset[preset] = report.by_preset.get(preset, 0) + 1
        if v:
            report.violations.extend(f"{label} {m}" for m in v)
            return
        if s.hand is not None:
            report.violations.append(f"{label} hand over but session still holds it")
            return
        entry = s.results[-1]
        departed.update(entry.left)
        if not s.is_over:  # R3.2 / R3.5: the deal passes to the next remaining seat clockwise
            nxt = next(x for x in ((hand.dealer + k) % n for k in range(1, n + 1)) if x in s.seated)
            if s.dealer != nxt:
                report.violations.append(
                    f"{label} R3.2: dealer {seat_name(s.dealer)} after {seat_name(hand.dealer)}, "
                    f"should be {seat_name(nxt)} (seated {s.seated})"
                )
        report.busts += len(entry.left)
        if entry.pot_after != s.pot or list(entry.stacks_after) != list(s.stacks):
            report.violations.append(f"{label} ledger entry disagrees with the session")
    if s.total() != s.bank:
        report.violations.append(f"{label} R3.4 at end: {s.total()} != {s.bank}")
    if s.end_reason == "bust" and rules.bust != "end":
        report.violations.append(f"{label} R3.5: ended by bust with bust=leave")
    if s.end_reason == "hands" and len(s.results) != rules.end_value("hands"):
        report.violations.append(f"{label} R3.6: ended after {len(s.results)} hands, not {rules.end_value('hands')}")
    if s.end_reason == "players" and len(s.seated) >= 2:
        report.violations.append(f"{label} R3.5: ended for players with {len(s.seated)} seated")
    top = max(s.stacks)
    if sorted(s.winners()) != [i for i, v in enumerate(s.stacks) if v == top]:
        report.violations.append(f"{label} R3.7: winners {s.winners()} for stacks {s.stacks}")


def _run_plain(rng: random.Random, report: SoakReport, wrong: float, observe: str) -> None:
    preset = rng.choice(list(PRESETS))
    rules = random_rules(rng, preset)
    n = rng.randint(2, 6)
    stacks = [rng.choice([rules.ante, rules.ante + 1, rules.ante + 3, 20]) for _ in range(n)]
    pot = rng.choice([0, 0, 1, 7])
    seated = None
    if n >= 3 and rng.random() < 0.2:  # some seats have left (R3.5 leave)
        seated = sorted(rng.sample(range(n), rng.randint(2, n - 1)))
    dealer = rng.choice(seated if seated else range(n))
    seed = rng.randrange(2**32)
    hand = Hand.new(rules, stacks, dealer, random.Random(seed), pot=pot, seated=seated)
    v = play_random_hand(hand, rng, sum(stacks) + pot, wrong=wrong, observe=observe)
    report.hands += 1
    report.by_preset[preset] = report.by_preset.get(preset, 0) + 1
    if v:
        label = (
            f"[hand seed={seed} preset={preset} n={n} stacks={stacks} pot={pot} seated={seated} "
            f"dealer={dealer} rules={rules.diff()}]"
        )
        report.violations.extend(f"{label} {m}" for m in v)


def soak(
    hands: int = 100_000,
    seed: int = 0,
    progress: bool = True,
    wrong: float = 0.3,
    observe: str = "all",
    max_violations: int = 50,
) -> SoakReport:
    """Play at least ``hands`` random hands (some in sessions, the others plain) and check every invariant.

    Args:
        hands: hands to play at least (a session is finished once started).
        seed: seed of the random source; the same seed gives the same report.
        progress: show a Rich progress bar on the terminal.
        wrong: chance per action of also trying a random wrong action (R4.12).
        observe: whose observations to check for hidden cards (see :func:`check_hand`, R7).
        max_violations: stop early after this many violations.
    """
    rng = random.Random(seed)
    report = SoakReport()
    bar = None
    if progress:
        bar = Progress(
            TextColumn("soak"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("violations {task.fields[v]}"),
            TimeRemainingColumn(),
        )
        bar.start()
        task = bar.add_task("soak", total=hands, v=0)
    try:
        while report.hands < hands and len(report.violations) < max_violations:
            before = report.hands
            if rng.random() < 0.15:
                _run_session(rng, report, hands - report.hands, wrong, observe)
            else:
                _run_plain(rng, report, wrong, observe)
            if bar is not None:
                bar.update(task, advance=report.hands - before, v=len(report.violations))
    finally:
        if bar is not None:
            bar.stop()
    return report


def main(argv: list[str] | None = None) -> int:
    """Command line of the soak: ``python bench/soak.py [--hands N] [--seed S] [--no-progress]`` (or
    ``python -m ramsli.testing ...``); returns the exit status, 1 if there was any violation, else 0."""
    p = argparse.ArgumentParser(
        description="Soak test of the ramsli engine: random hands, all invariants "
        "checked after every action (R3.4, R4.9, R4.12, R7)."
    )
    p.add_argument("--hands", type=int, default=100_000, help="hands to play (default 100000)")
    p.add_argument("--seed", type=int, default=0, help="seed of the random source (default 0)")
    p.add_argument(
        "--wrong", type=float, default=0.3, help="chance per action of also trying a random wrong action (default 0.3)"
    )
    p.add_argument(
        "--observe",
        choices=["all", "acting", "none"],
        default="all",
        help="whose observations to check for hidden cards after every action (default all)",
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    args = p.parse_args(argv)
    console = Console()
    report = soak(args.hands, args.seed, progress=not args.no_progress, wrong=args.wrong, observe=args.observe)
    for v in report.violations[:20]:
        print("violation:", v)
    console.print(
        f"sessions: {report.sessions} ({report.session_hands} hands, {report.busts} bust players); "
        f"hands per preset: {dict(sorted(report.by_preset.items()))}",
        highlight=False,
    )
    console.print(f"{report.hands} hands, {len(report.violations)} invariant violations", highlight=False)
    return 1 if report.violations else 0


if __name__ == "__main__":
    sys.exit(main())
