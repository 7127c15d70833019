"""Action ids and the tensor and string encodings shared by the RL adapters (R7).

Needs only NumPy. Every encoding is computed from what one seat may know (R7):
its own cards, the turn-up and any joker turned aside before it, every
declaration and announcement, every card played and who played it, tricks won,
all stacks and the pot, and whose turn it is. Nothing else goes in: the input
is a :class:`~ramsli.hand.Observation` (or a :class:`DealView` while the cards
are being dealt), which holds no hidden card by construction (D-16).

Action ids (``NUM_ACTIONS`` = 62, the same for every seat and every rule set):

======  ==========================================================
id      action
======  ==========================================================
0       ``in`` (declaration, R4.5)
1       ``out`` (declaration, R4.5)
2       ``gr`` (announce General Rams, R4.7)
3       ``pass`` (no General Rams / no target, R4.7, R4.8)
4..7    ``t2``..``t5`` (announce a trick target, R4.8)
8..61   ``pl CARD``: play the card with dense index ``id - 8`` (R4.10;
        :attr:`ramsli.cards.Card.index`: suit-major S H D C, A high,
        52 = X1, 53 = X2)
======  ==========================================================

Tensor layout. ``N`` is the number of seat slots, ``C = 54`` card slots indexed
by :attr:`~ramsli.cards.Card.index` (slots of cards not in the deck in use stay
0). Seats are absolute (slot 0 = ``p1``). The tensor is the concatenation, in
this order, of the pieces returned by :func:`pieces` (name, size, shape):

==============  ============  ===============================================
piece           shape         meaning
==============  ============  ===============================================
observer        (N,)          one-hot: the observing seat
seated          (N,)          1 for each seat taking part in the hand (R3.5)
dealer          (N,)          one-hot: the dealer
to_act          (N,)          one-hot: the seat to act (all 0 while dealing
                              and when the hand is over)
phase           (6,)          one-hot: deal, declare, general-rams, targets,
                              play, over (:data:`PHASES`)
hand*           (C,)          the observer's own unplayed cards
turn_up         (C,)          one-hot: the turn-up (all 0 before it is dealt)
turned_aside    (C,)          jokers turned aside before the turn-up (D-9)
trump           (4,)          one-hot: trump suit S H D C
declared        (N, 3)        per seat one-hot: [not declared, in, out]
                              (under Compulsory Ramsli every seat is ``in``)
general_rams    (N,)          one-hot: the General Rams announcer (R4.7)
targets         (N, 4)        per seat one-hot: target 2, 3, 4, 5 (R4.8)
leader          (N,)          one-hot: leader of the trick in progress
current_trick   (N, C)        card each seat has played to the trick in progress
played          (N, C)        cards each seat played to completed tricks
tricks_won      (N, 6)        per seat one-hot: 0..5 tricks won
stacks          (N,)          each stack / counters on the table (R3.4), in [0, 1]
pot             (1,)          the pot / counters on the table, in [0, 1]
dealt* (ps)     (C,)          the observer's five dealt cards
tricks (ps)     (5, N, N+C)   trick k, k-th play in it: seat one-hot then card
                              one-hot (complete tricks and the one in progress)
==============  ============  ===============================================

Pieces marked ``*`` are private (only with ``private=True``); pieces marked
``(ps)`` are only in the perfect-recall (information-state) layout. With N=3 the
observation layout has :func:`tensor_size` ``(3, False)`` = 557 entries and the
information-state layout 1466.

>>> tensor_size(3, perfect_recall=False), tensor_size(3, perfect_recall=True)
(557, 1466)
>>> from ramsli.hand import Action
>>> action_id(Action.parse("p2 pl AS")), str(id_to_action(8, seat=1))
(8, 'p2 pl AS')
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, SupportsIndex, cast

import numpy as np

from ramsli.cards import Card, format_cards
from ramsli.hand import Action, Observation, Phase, Trick, seat_name
from ramsli.inference import revealed_voids
from ramsli.inference import trump_caps as _trump_caps
from ramsli.rules import Rules
from ramsli.session import check_setup

__all__ = [
    "check_action_id",
    "NUM_ACTIONS",
    "NUM_CARDS",
    "ACTION_IN",
    "ACTION_OUT",
    "ACTION_GR",
    "ACTION_PASS",
    "TARGET_BASE",
    "PLAY_BASE",
    "PHASES",
    "SUIT_ORDER",
    "action_id",
    "id_to_action",
    "action_mask",
    "legal_ids",
    "DealView",
    "pieces",
    "tensor_size",
    "encode",
    "encode_into",
    "observation_string",
    "dealt_cards",
    "known_voids",
    "trump_caps",
    "rules_from_text",
]

ACTION_IN = 0
ACTION_OUT = 1
ACTION_GR = 2
ACTION_PASS = 3
TARGET_BASE = 4  #: t2..t5 are TARGET_BASE + target - 2
PLAY_BASE = 8  #: playing card index i is PLAY_BASE + i
NUM_CARDS = 54
NUM_ACTIONS = PLAY_BASE + NUM_CARDS  # 62

#: Phase names in the order of the ``phase`` one-hot; ``"deal"`` is the chance phase
#: of :mod:`ramsli.rl.openspiel_game` before the turn-up (R4.3, R4.4).
PHASES: tuple[str, ...] = ("deal", "declare", "general-rams", "targets", "play", "over")
SUIT_ORDER = "SHDC"
_SIMPLE_IDS = {"in": ACTION_IN, "out": ACTION_OUT, "gr": ACTION_GR, "pass": ACTION_PASS}


def action_id(action: Action) -> int:
    """The dense id 0..61 of an :class:`~ramsli.hand.Action` (the seat is not part of the id)."""
    if action.card is not None:  # a play ("pl")
        return PLAY_BASE + action.card.index
    if action.target is not None:  # a target ("t")
        return TARGET_BASE + action.target - 2
    return _SIMPLE_IDS[action.kind]


def check_action_id(value: object) -> int:
    """``value`` as a dense action id: an ``int`` or a NumPy integer (also a 0-d integer array);
    ``1.5``, ``'1'``, ``True`` or ``None`` are not ids.

    >>> check_action_id(3)
    3

    Raises:
        TypeError: for anything else, naming the type and what is allowed.
    """
    if not isinstance(value, (bool, float, str, bytes)) and value is not None:
        try:
            return operator.index(cast("SupportsIndex", value))  # a TypeError for a non-integer, caught
        except TypeError:
            pass
    raise TypeError(
        f"action {value!r} ({type(value).__name__}) is not an action id: give a whole number "
        f"0..{NUM_ACTIONS - 1} (an int or a NumPy integer)"
    )


def id_to_action(aid: object, seat: int) -> Action:
    """The :class:`~ramsli.hand.Action` of ``seat`` with dense id ``aid``.

    Raises:
        ValueError: for an id outside 0..61 (the message gives the layout).
        TypeError: for a value that is not a whole number (``1.5``, ``'1'``, ``True``), see :func:`check_action_id`.
    """
    aid = check_action_id(aid)
    if PLAY_BASE <= aid < NUM_ACTIONS:
        return Action.play(seat, Card.from_index(aid - PLAY_BASE))
    if TARGET_BASE <= aid < PLAY_BASE:
        return Action.announce_target(seat, aid - TARGET_BASE + 2)
    if aid == ACTION_IN:
        return Action.declare(seat, True)
    if aid == ACTION_OUT:
        return Action.declare(seat, False)
    if aid == ACTION_GR:
        return Action.general_rams(seat)
    if aid == ACTION_PASS:
        return Action.pass_(seat)
    raise ValueError(
        f"action id {aid} outside 0..{NUM_ACTIONS - 1}: 0 in, 1 out, 2 gr, 3 pass, "
        f"4..7 t2..t5, 8..61 play card index 0..53"
    )


def legal_ids(actions: Iterable[Action]) -> list[int]:
    """Sorted dense ids of ``actions`` (e.g. ``hand.legal_actions()``)."""
    return sorted(action_id(a) for a in actions)


def action_mask(actions: Iterable[Action], dtype: Any = np.int8) -> np.ndarray:
    """A ``(62,)`` 0/1 vector with 1 at the id of each of ``actions``."""
    m = np.zeros(NUM_ACTIONS, dtype=dtype)
    for a in actions:
        m[action_id(a)] = 1
    return m


@dataclass(frozen=True)
class DealView:
    """What a seat knows while the cards are still being dealt (R4.1–R4.4, R7).

    Has the attributes of :class:`~ramsli.hand.Observation` that the encoders read.
    The ante has been taken (R4.1). ``cards`` are the observer's cards dealt so far;
    ``turn_up`` is None until it is dealt.
    """

    seat: int
    dealer: int
    seated: tuple[int, ...]
    stacks: tuple[int, ...]
    pot: int
    cards: tuple[Card, ...] = ()
    turned_aside: tuple[Card, ...] = ()
    turn_up: Card | None = None
    trump: str | None = None
    phase: str = "deal"
    to_act: int | None = None
    declarations: tuple = ()
    active: tuple = ()
    general_rams: int | None = None
    targets: tuple = ()
    tricks: tuple = ()
    current: tuple = ()
    leader: int | None = None
    tricks_won: tuple[int, ...] = field(default=())


def _phase_name(view: Any) -> str:
    ph = view.phase
    return ph.value if isinstance(ph, Phase) else str(ph)


def dealt_cards(view: Observation | DealView) -> list[Card]:
    """The observer's own dealt cards: unplayed cards plus the cards it played (R7)."""
    own = list(view.cards)
    for t in view.tricks:
        own.extend(c for s, c in t.plays if s == view.seat)
    own.extend(c for s, c in view.current if s == view.seat)
    return sorted(own, key=lambda c: c.index)


def pieces(
    n_seats: int, perfect_recall: bool, private: bool = True, public: bool = True
) -> list[tuple[str, int, tuple[int, ...]]]:
    """The tensor pieces ``(name, size, shape)`` in layout order (see the module docstring).

    Args:
        n_seats: seat slots N (2..6).
        perfect_recall: add the information-state pieces ``dealt`` and ``tricks``.
        private: include the observer's private pieces (``hand``, ``dealt``).
        public: include the public pieces.
    """
    n, c = n_seats, NUM_CARDS
    out: list[tuple[str, int, tuple[int, ...]]] = [("observer", n, (n,))]
    if public:
        out += [("seated", n, (n,)), ("dealer", n, (n,)), ("to_act", n, (n,)), ("phase", len(PHASES), (len(PHASES),))]
    if private:
        out.append(("hand", c, (c,)))
    if public:
        out += [
            ("turn_up", c, (c,)),
            ("turned_aside", c, (c,)),
            ("trump", 4, (4,)),
            ("declared", n * 3, (n, 3)),
            ("general_rams", n, (n,)),
            ("targets", n * 4, (n, 4)),
            ("leader", n, (n,)),
            ("current_trick", n * c, (n, c)),
            ("played", n * c, (n, c)),
            ("tricks_won", n * 6, (n, 6)),
            ("stacks", n, (n,)),
            ("pot", 1, (1,)),
        ]
    if perfect_recall and private:
        out.append(("dealt", c, (c,)))
    if perfect_recall and public:
        out.append(("tricks", 5 * n * (n + c), (5, n, n + c)))
    return out


def tensor_size(n_seats: int, perfect_recall: bool, private: bool = True, public: bool = True) -> int:
    """Length of the flat tensor of :func:`pieces`."""
    return sum(size for _, size, _ in pieces(n_seats, perfect_recall, private, public))


def encode_into(views: dict[str, np.ndarray], view: Observation | DealView) -> None:
    """Fill the named piece arrays ``views`` (as made from :func:`pieces`) from ``view``.

    Every array is zeroed first; pieces not present in ``views`` are skipped. Reads
    only what ``view.seat`` may know (R7).
    """
    for a in views.values():
        a.fill(0)
    seat = view.seat
    stacks = view.stacks
    n = len(stacks)
    total = sum(stacks) + view.pot
    if "observer" in views:
        views["observer"][seat] = 1
    if "seated" in views:
        for s in view.seated:
            views["seated"][s] = 1
    if "dealer" in views:
        views["dealer"][view.dealer] = 1
    if "to_act" in views and view.to_act is not None:
        views["to_act"][view.to_act] = 1
    if "phase" in views:
        views["phase"][PHASES.index(_phase_name(view))] = 1
    if "hand" in views:
        for c in view.cards:
            views["hand"][c.index] = 1
    if "turn_up" in views and view.turn_up is not None:
        views["turn_up"][view.turn_up.index] = 1
    if "turned_aside" in views:
        for c in view.turned_aside:
            views["turned_aside"][c.index] = 1
    if "trump" in views and view.trump is not None:
        views["trump"][SUIT_ORDER.index(view.trump)] = 1
    if "declared" in views:
        d = views["declared"]
        d[:, 0] = 1
        for s in view.active:
            d[s] = (0, 1, 0)
        for s, what in view.declarations:
            d[s] = (0, 1, 0) if what == "in" else (0, 0, 1)
    if "general_rams" in views and view.general_rams is not None:
        views["general_rams"][view.general_rams] = 1
    if "targets" in views:
        for s, t in view.targets:
            views["targets"][s, t - 2] = 1
    if "leader" in views and view.leader is not None:
        views["leader"][view.leader] = 1
    if "current_trick" in views:
        for s, c in view.current:
            views["current_trick"][s, c.index] = 1
    if "played" in views:
        for t in view.tricks:
            for s, c in t.plays:
                views["played"][s, c.index] = 1
    if "tricks_won" in views:
        won = view.tricks_won or (0,) * n
        for s in range(n):
            views["tricks_won"][s, won[s]] = 1
    if "stacks" in views and total > 0:
        views["stacks"][:] = np.asarray(stacks, dtype=np.float32) / total
    if "pot" in views and total > 0:
        views["pot"][0] = view.pot / total
    if "dealt" in views:
        for c in dealt_cards(view):
            views["dealt"][c.index] = 1
    if "tricks" in views:
        tr = views["tricks"]
        all_tricks = [t.plays for t in view.tricks]
        if view.current:
            all_tricks.append(tuple(view.current))
        for k, plays in enumerate(all_tricks):
            for j, (s, c) in enumerate(plays):
                tr[k, j, s] = 1
                tr[k, j, n + c.index] = 1


def make_views(tensor: np.ndarray, layout: Sequence[tuple[str, int, tuple[int, ...]]]) -> dict[str, np.ndarray]:
    """Named, reshaped views into a flat ``tensor`` for the pieces of ``layout``."""
    out = {}
    i = 0
    for name, size, shape in layout:
        out[name] = tensor[i : i + size].reshape(shape)
        i += size
    return out


def encode(view: Observation | DealView, perfect_recall: bool = False) -> np.ndarray:
    """The flat float32 tensor of ``view`` (layout of :func:`pieces`, private and public pieces).

    >>> import random
    >>> from ramsli import Hand, Rules
    >>> hand = Hand.new(Rules(), [20] * 3, dealer=0, rng=random.Random(1))
    >>> t = encode(hand.observe(1))
    >>> t.shape, t.dtype, float(t[:3].sum())
    ((557,), dtype('float32'), 1.0)
    """
    n = len(view.stacks)
    layout = pieces(n, perfect_recall)
    t = np.zeros(sum(s for _, s, _ in layout), dtype=np.float32)
    encode_into(make_views(t, layout), view)
    return t


def _cards(cards: Iterable[Card]) -> str:
    s = format_cards(sorted(cards, key=lambda c: c.index))
    return s or "-"


def observation_string(
    view: Observation | DealView, perfect_recall: bool = False, private: bool = True, public: bool = True
) -> str:
    """A one-line text of what ``view.seat`` knows (R7), e.g. for OpenSpiel's strings.

    Without ``perfect_recall`` the played cards are listed per seat (sorted); with it
    the declarations are listed in the order made and the tricks in the order played,
    and the observer's dealt cards are added. Card order within a holding is sorted
    by card index, so the text does not depend on the order of the deal.
    """
    parts = [f"{seat_name(view.seat)}"]
    n = len(view.stacks)
    if public:
        ph = _phase_name(view)
        parts.append(f"phase {ph}")
        parts.append(f"dealer {seat_name(view.dealer)}")
        if len(view.seated) != n:
            parts.append("seated " + " ".join(seat_name(s) for s in view.seated))
        parts.append("to act " + (seat_name(view.to_act) if view.to_act is not None else "-"))
        parts.append("stacks " + " ".join(str(x) for x in view.stacks) + f" pot {view.pot}")
    if private:
        parts.append("cards " + _cards(view.cards))
        if perfect_recall:
            parts.append("dealt " + _cards(dealt_cards(view)))
    if public:
        parts.append(
            "turn-up "
            + (str(view.turn_up) if view.turn_up is not None else "-")
            + " aside "
            + _cards(view.turned_aside)
        )
        decl = " ".join(f"{seat_name(s)}:{d}" for s, d in view.declarations)
        if not view.declarations and view.active:
            decl = "all in"
        parts.append("declared " + (decl or "-"))
        parts.append("gr " + (seat_name(view.general_rams) if view.general_rams is not None else "-"))
        parts.append("targets " + (" ".join(f"{seat_name(s)}:t{t}" for s, t in view.targets) or "-"))
        won = view.tricks_won or (0,) * n
        parts.append("won " + " ".join(str(w) for w in won))
        if perfect_recall:
            for k, t in enumerate(view.tricks):
                parts.append(
                    f"trick{k + 1} " + " ".join(f"{seat_name(s)}:{c}" for s, c in t.plays) + f" >{seat_name(t.winner)}"
                )
        else:
            played: dict[int, list[Card]] = {}
            for t in view.tricks:
                for s, c in t.plays:
                    played.setdefault(s, []).append(c)
            parts.append(
                "played "
                + (
                    " ".join(f"{seat_name(s)}:{_cards(cs).replace(' ', ',')}" for s, cs in sorted(played.items()))
                    or "-"
                )
            )
        parts.append("trick " + (" ".join(f"{seat_name(s)}:{c}" for s, c in view.current) or "-"))
    return " | ".join(parts)


def known_voids(view: Observation | DealView) -> dict[int, set[str]]:
    """Suits each seat is known to be void in, from its plays (R4.10.1, R4.10.2).

    A seat that did not follow the led suit holds none of it; one that also did not
    trump holds no trump either. Jokers count as trump (D-2). Only public plays are
    used, so this is information every seat has (R7). The inference lives in
    :func:`ramsli.inference.revealed_voids`; this is that function.
    """
    return revealed_voids(view)


def trump_caps(view: Observation | DealView) -> dict[int, int]:
    """Per seat, the highest trump rank it can still hold, from its plays (R4.10.3, D-14).

    A seat that played a trump lower than the highest trump already in the trick,
    where it had to overtrump if able (a trumped side-suit lead, or with
    ``overtrump = "always"`` also a trump lead), held no higher trump. Public
    information only (R7). The inference lives in :func:`ramsli.inference.trump_caps`.
    """
    return _trump_caps(view)


def rules_from_text(preset: str, rules: str = "", players: int | None = None) -> Rules:
    """The :class:`~ramsli.rules.Rules` of ``preset`` plus options ``"key=value;key=value"`` (R6, R8).

    ``key:value`` is accepted as well as ``key=value`` (OpenSpiel game strings cannot hold ``=``).
    With ``players`` given, the table is checked by the engine's set-up check,
    :func:`ramsli.session.check_setup`.

    Raises:
        RulesError: for an unknown preset or option or a bad value (the message lists
            what is allowed).
        TableError: with ``players`` given: not 2..6 players, a ``players`` option that does not
            match them (R2.1), an ante above the starting stack (R3.5).

    >>> rules_from_text("nap", "bete=10;ante:2").bete
    10
    """
    r = Rules.preset(preset)
    assignments = []
    for a in rules.split(";"):
        a = a.strip()
        if not a:
            continue
        key, eq, _ = a.partition("=")
        if not eq or ":" in key:
            a = a.replace(":", "=", 1)
        assignments.append(a)
    if assignments:
        r = r.with_assignments(assignments)
    if players is not None:
        check_setup(r, players)
    return r


_ = Trick  # re-exported for type hints in adapters
