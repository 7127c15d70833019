"""Ramsli as an OpenSpiel game: ``python_ramsli`` (needs ``pip install ramsli[rl]``).

Importing this module registers the game with ``pyspiel``::

    import pyspiel
    import ramsli.rl.openspiel_game  # noqa: F401  (registers "python_ramsli")
    game = pyspiel.load_game("python_ramsli", {"players": 4, "preset": "nap", "rules": "bete=10;ante=2"})

One episode is **one hand** (R4, R5) starting from equal stacks and an empty pot.

Parameters (all optional):

==========  ======  =============  ==================================================
name        type    default        meaning
==========  ======  =============  ==================================================
players     int     3              seats, 2..6 (R2.1)
preset      str     traditional    a preset of R6 (``Rules.preset``)
rules       str     ``""``         rule options on top of the preset, ``key=value``
                                   or ``key:value``, separated by ``;``, e.g.
                                   ``"bete=10;jokers=true"`` (R8); stored as
                                   ``bete:10;jokers:true`` because an OpenSpiel game
                                   string cannot hold ``=`` in a value (nor ``,``:
                                   the ``end`` list option cannot be given here,
                                   and it has no effect on one hand anyway)
stack       int     0              every seat's stack before the ante, counters;
                                   0 = the rules' ``starting_stack`` (R3.3)
dealer      int     0              the dealer's seat, 0-based (R4.2)
==========  ======  =============  ==================================================

Chance nodes (the deal, R4.2–R4.4): the ante is taken first (R4.1), then the
cards are dealt **one at a time**, each chance outcome being the dense index
(:attr:`ramsli.cards.Card.index`, 0..53) of a card not yet dealt, uniformly: 5·N
cards in the order of R4.3 (batches of 3 then 2, or 2 then 3, from the dealer's
left, dealer last), then the turn-up; a joker turned up is set aside and another
chance node turns the next card (D-9). Drawing the next card uniformly from the
cards not yet dealt gives the same distribution as a uniform shuffle followed by
any cut (R4.2), so the cut is not a separate chance node. The stock below the
turn-up is never dealt, observed or used. Once the turn-up is a suited card the
engine's :class:`~ramsli.hand.Hand` is built with :meth:`Hand.from_deck
<ramsli.hand.Hand.from_deck>` (the dealt cards on top, the stock in deck order
below, cut 1) and every later move is ``hand.apply``.

Player actions: the 62 ids of :mod:`ramsli.rl.encoding` (0 in, 1 out, 2 gr,
3 pass, 4..7 t2..t5, 8 + card index = play that card). Legal actions are the
engine's ``hand.legal_actions()`` (R4.5–R4.10).

Returns: each seat's counters won or lost in the hand, i.e. its stack after
settlement minus its stack before the ante (R5). Counters that go to the next
hand's pot (betes, tie remainders, D-10 thrown-in antes, R5.4) belong to no one
in a one-hand episode, so the game is general-sum: the returns add up to minus
the carry-over. Bounds: −stack .. (N−1)·stack (R3.3: no stack goes below 0).

Observations (R7): :meth:`RamsliState.information_state_tensor` and
:meth:`RamsliState.observation_tensor` are float32 vectors with the layouts of
:func:`ramsli.rl.encoding.pieces` (``perfect_recall=True`` / ``False``): for N
seats the observation tensor has ``tensor_size(N, False)`` entries (557 for N=3)
and the information-state tensor ``tensor_size(N, True)`` (1466 for N=3). The
strings are :func:`ramsli.rl.encoding.observation_string`. Both show the
observer's own cards, the turn-up and jokers aside, declarations, announcements,
played cards with who played them, tricks won, stacks, the pot and whose turn it
is — never another seat's unplayed or folded cards nor the stock (D-16).

``max_game_length`` is 8·N player decisions (N declarations, N General Rams
questions, N target questions, 5·N plays); at most 5·N + 3 chance nodes come first.

For ISMCTS, :meth:`RamsliState.resample_from_infostate` deals the cards the
player cannot see again at random, keeping every card it has seen where it was
and respecting what other seats' plays reveal: suits they are void in
(R4.10.1–2) and trumps they cannot hold because they did not overtrump (R4.10.3).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel

from ramsli.bots import register_bot
from ramsli.cards import Card, format_cards, make_deck
from ramsli.hand import Action, Hand, Phase, order_from_dealer, random_source, seat_name
from ramsli.inference import infer
from ramsli.rl.encoding import (
    NUM_ACTIONS,
    NUM_CARDS,
    DealView,
    action_id,
    dealt_cards,
    encode_into,
    id_to_action,
    legal_ids,
    make_views,
    observation_string,
    pieces,
    rules_from_text,
)
from ramsli.rules import Rules

__all__ = [
    "GAME_NAME",
    "RamsliGame",
    "RamsliState",
    "RamsliObserver",
    "rules_from_params",
    "make_resampler",
    "ISMCTSRamsliBot",
    "register_ismcts_bot",
    "game_for_observation",
    "state_for_observation",
]

GAME_NAME = "python_ramsli"
_MAX_PLAYERS = 6
_DEFAULT_PARAMS: dict[str, Any] = {"players": 3, "preset": "traditional", "rules": "", "stack": 0, "dealer": 0}

_GAME_TYPE = pyspiel.GameType(
    short_name=GAME_NAME,
    long_name="Python Ramsli",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_MAX_PLAYERS,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULT_PARAMS,
)


def rules_from_params(preset: str, rules: str, players: int) -> Rules:
    """The :class:`~ramsli.rules.Rules` of a game: ``preset`` plus ``key=value;...`` options (R6, R8).

    Raises:
        RulesError: for an unknown preset or option or a bad value.
        TableError: from :func:`ramsli.session.check_setup`: ``players`` outside 2..6 or unlike
            the option ``players`` (R2.1), an ante above the starting stack (R3.5).
    """
    return rules_from_text(preset, rules, players)


def _normalize(assignment: str) -> str:
    """``"bete=10"`` or ``"bete:10"`` -> ``"bete:10"`` (``=`` cannot appear in an OpenSpiel game string)."""
    a = assignment.strip()
    key, eq, value = a.partition("=")
    if eq and ":" not in key:
        return f"{key.strip()}:{value.strip()}"
    return a


def _normalize_rules(rules: str) -> str:
    return ";".join(_normalize(a) for a in rules.split(";") if a.strip())


class _Config:
    """The immutable set-up of one game (shared, never copied: clones stay cheap)."""

    def __init__(self, params: dict[str, Any]) -> None:
        p = {**_DEFAULT_PARAMS, **params}
        p["rules"] = _normalize_rules(str(p["rules"]))
        n = int(p["players"])
        rules = rules_from_params(str(p["preset"]), str(p["rules"]), n)
        stack = int(p["stack"]) or rules.starting_stack
        dealer = int(p["dealer"])
        if not 0 <= dealer < n:
            raise ValueError(f"dealer={dealer}: allowed are 0..{n - 1} (seats, R4.2)")
        if stack < rules.bust_below:
            raise ValueError(f"stack={stack} cannot pay the ante {rules.ante} (R3.5)")
        self.params = p
        self.rules = rules
        self.n = n
        self.stack = stack
        self.dealer = dealer
        self.deck = tuple(make_deck(rules.deck, rules.jokers))
        self.deck_ids = tuple(c.index for c in self.deck)
        self.order = order_from_dealer(dealer, range(n), n)  # dealer's left first (R4.3)
        fb = rules.first_batch
        #: the seat receiving each of the 5·N hand cards, in deal order (R4.3)
        self.deal_seats: tuple[int, ...] = tuple(s for batch in (fb, 5 - fb) for s in self.order for _ in range(batch))
        #: at most 5·N hand cards, 2 jokers aside and the turn-up (R4.3, R4.4, D-9)
        self.max_chance_nodes = 5 * n + 1 + (2 if rules.jokers else 0)

    def __deepcopy__(self, memo) -> _Config:
        return self

    def __copy__(self) -> _Config:
        return self


_CONFIGS: dict[tuple, _Config] = {}


def _config(params: dict[str, Any]) -> _Config:
    p = {**_DEFAULT_PARAMS, **params}
    p["rules"] = _normalize_rules(str(p["rules"]))
    key = tuple(sorted(p.items()))
    cfg = _CONFIGS.get(key)
    if cfg is None:
        cfg = _CONFIGS[key] = _Config(dict(key))
    return cfg


class RamsliGame(pyspiel.Game):
    """The OpenSpiel game ``python_ramsli``: one hand of Ramsli (see the module docstring).

    Attributes (read-only): ``config.rules`` (Rules), ``config.n`` (seats),
    ``config.stack`` (counters), ``config.dealer`` (seat).

    Raises:
        ValueError: for a dealer outside the table or a stack below the ante;
            :class:`~ramsli.errors.TableError` (a ``ValueError``, :func:`ramsli.session.check_setup`)
            for ``players`` outside 2..6 or unlike the option ``players`` (R2.1), or an ante above
            the starting stack (R3.5); :class:`~ramsli.rules.RulesError` for bad rules.
    """

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        cfg = _config(params or {})
        super().__init__(
            _GAME_TYPE,
            pyspiel.GameInfo(
                num_distinct_actions=NUM_ACTIONS,
                max_chance_outcomes=NUM_CARDS,
                num_players=cfg.n,
                min_utility=float(-cfg.stack),
                max_utility=float((cfg.n - 1) * cfg.stack),
                utility_sum=None,
                max_game_length=8 * cfg.n,
            ),
            cfg.params,
        )

    @property
    def config(self) -> _Config:
        """The game's set-up (rules, seats, stack, dealer), from its parameters."""
        return _config(self.get_parameters())

    def new_initial_state(self) -> RamsliState:
        """The state before the first card is dealt (the ante is taken, R4.1)."""
        return RamsliState(self)

    def make_py_observer(self, iig_obs_type=None, params=None) -> RamsliObserver:
        """An observer for ``iig_obs_type`` (default: the observation, no perfect recall)."""
        return RamsliObserver(self, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params)


class RamsliState(pyspiel.State):
    """One hand of Ramsli in OpenSpiel: chance nodes for the deal, then the engine's Hand."""

    def __init__(self, game: RamsliGame) -> None:
        super().__init__(game)
        self._g = game.config
        self._seq: list[int] = []  # card indices in deal order (hand cards, jokers aside, turn-up)
        self._hand: Hand | None = None

    # -- OpenSpiel API -----------------------------------------------------

    def current_player(self) -> int:
        """The seat to act, ``PlayerId.CHANCE`` while dealing, ``PlayerId.TERMINAL`` when settled."""
        h = self._hand
        if h is None:
            return pyspiel.PlayerId.CHANCE
        seat = h.to_act
        if seat is None:  # the hand is over
            return pyspiel.PlayerId.TERMINAL
        return seat

    def _legal_actions(self, player: int) -> list[int]:
        h = self._hand
        if h is None or h.is_over or player != h.to_act:
            return []
        return legal_ids(h.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """Every card not yet dealt (dense card index), each with equal probability."""
        used = set(self._seq)
        rest = [i for i in self._g.deck_ids if i not in used]
        p = 1.0 / len(rest)
        return [(i, p) for i in rest]

    def _apply_action(self, action: int) -> None:
        if self._hand is None:
            self._deal(int(action))
        else:
            h = self._hand
            seat = h.to_act
            if seat is None:
                raise ValueError("the hand is over: no action can be applied (R5)")
            h.apply(id_to_action(action, seat))

    def _deal(self, idx: int) -> None:
        g = self._g
        if idx in self._seq or idx not in g.deck_ids:
            raise ValueError(f"card index {idx} is not a card left to deal (R4.3)")
        self._seq.append(idx)
        if len(self._seq) <= len(g.deal_seats) or Card.from_index(idx).is_joker:
            return  # still dealing, or a joker turned aside (D-9)
        used = set(self._seq)
        full = [Card.from_index(i) for i in self._seq] + [c for c in g.deck if c.index not in used]
        deck = [full[-1]] + full[:-1]  # cut 1 puts the dealt cards back on top (R4.2)
        self._hand = Hand.from_deck(g.rules, [g.stack] * g.n, g.dealer, deck, 1)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {Card.from_index(int(action))}"
        return str(id_to_action(action, player))

    def is_terminal(self) -> bool:
        """True once the hand is settled (R5)."""
        return self._hand is not None and self._hand.is_over

    def returns(self) -> list[float]:
        """Counters won or lost per seat in this hand: stack after settlement minus stack
        before the ante (R5); all 0 before the end."""
        h = self._hand
        if h is None or not h.is_over:
            return [0.0] * self._g.n
        return [float(h.stacks[s] - h.start_stacks[s]) for s in range(self._g.n)]

    def __str__(self) -> str:
        """The whole state (all cards: for debugging, not for players)."""
        g = self._g
        hands = self.dealt_hands()
        parts = [f"dealer {seat_name(g.dealer)}"]
        parts += [f"{seat_name(s)}: {format_cards(hands[s]) or '-'}" for s in range(g.n)]
        h = self._hand
        if h is not None:
            parts.append(f"turn-up {h.turn_up}")
            parts.append("history " + (", ".join(str(a) for a in h.history) or "-"))
            parts.append(f"stacks {' '.join(map(str, h.stacks))} pot {h.pot}")
        return " | ".join(parts)

    # -- ramsli helpers ----------------------------------------------------------

    @property
    def hand(self) -> Hand | None:
        """The engine's Hand once the deal is complete, else None. Do not mutate it."""
        return self._hand

    def dealt_hands(self) -> list[list[Card]]:
        """The cards dealt so far, per seat (all seats: not an observation)."""
        g = self._g
        out: list[list[Card]] = [[] for _ in range(g.n)]
        for i, idx in enumerate(self._seq[: len(g.deal_seats)]):
            out[g.deal_seats[i]].append(Card.from_index(idx))
        return out

    def view(self, player: int):
        """What ``player`` may know now (R7): the Hand's Observation, or a DealView while dealing."""
        h = self._hand
        if h is not None:
            return h.observe(player)
        g = self._g
        n_hand = len(g.deal_seats)
        aside = tuple(Card.from_index(i) for i in self._seq[n_hand:])
        return DealView(
            seat=player,
            dealer=g.dealer,
            seated=tuple(range(g.n)),
            stacks=(g.stack - g.rules.ante,) * g.n,
            pot=g.n * g.rules.ante,
            cards=tuple(self.dealt_hands()[player]),
            turned_aside=aside,
            tricks_won=(0,) * g.n,
        )

    def resample_from_infostate(
        self, player_id: int, probability_sampler=None, rng: random.Random | None = None
    ) -> RamsliState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen are
        dealt again at random (R7), respecting what other seats' plays reveal
        (voids and overtrump caps, R4.10), so the history stays legal.

        Args:
            player_id: the seat whose information is kept.
            probability_sampler: OpenSpiel's sampler (a callable returning a float in
                [0, 1)); used to seed the draw when ``rng`` is not given.
            rng: a seeded random source (for reproducible searches).
        """
        if rng is None:
            seed = int(probability_sampler() * 2**53) if probability_sampler is not None else None
            rng = random.Random(seed)
        g = self._g
        n_hand = len(g.deal_seats)
        view = self.view(player_id)
        played: dict[int, list[int]] = {s: [] for s in range(g.n)}
        for t in view.tricks:
            for s, c in t.plays:
                played[s].append(c.index)
        for s, c in view.current:
            played[s].append(c.index)
        positions: dict[int, list[int]] = {s: [] for s in range(g.n)}
        for i in range(min(len(self._seq), n_hand)):
            positions[g.deal_seats[i]].append(i)
        need = {s: len(positions[s]) - len(played[s]) for s in range(g.n) if s != player_id}
        assign = _sample_hidden(view, g.deck, need, rng)
        seq = list(self._seq)
        for s, cards in assign.items():
            for pos, idx in zip(positions[s], played[s] + cards):
                seq[pos] = idx
        new = self.get_game().new_initial_state()
        for idx in seq:
            new.apply_action(idx)
        if self._hand is not None:
            for a in self._hand.history:
                new.apply_action(action_id(a))
        return new


def _sample_hidden(view, deck, need: dict[int, int], rng: random.Random) -> dict[int, list[int]]:
    """Deal the cards ``view.seat`` has not seen, ``need[s]`` to each seat s (card indices),
    avoiding its void suits and trumps above its cap (:mod:`ramsli.inference`, R4.10).

    Raises:
        ValueError: if no deal of 50 tries fits the plays seen.
    """
    deal = infer(view, deck, need).sample(rng, tries=50)
    if deal is None:
        raise ValueError("no deal of the hidden cards fits the plays seen (R4.10)")
    return {s: [c.index for c in cards] for s, cards in deal.items()}


def make_resampler(seed: int | None = None):
    """A seeded resampler for ``ISMCTSBot.set_resampler`` (reproducible searches).

    >>> r = make_resampler(1)  # bot.set_resampler(r)
    """
    rng = random.Random(seed)

    def resample(state: RamsliState, player: int) -> RamsliState:
        return state.resample_from_infostate(player, rng=rng)

    return resample


class RamsliObserver:
    """OpenSpiel observer (PyObserver interface): ``tensor``, ``dict``, ``set_from``, ``string_from``.

    ``perfect_recall`` selects the information-state layout; ``private_info`` must be
    ``SINGLE_PLAYER`` (the observer's own cards) or ``NONE`` (public pieces only):
    another seat's cards are never shown (R7).

    Raises:
        ValueError: for ``private_info=ALL_PLAYERS`` or observer parameters.
    """

    def __init__(self, game: RamsliGame, iig_obs_type, params) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {params}")
        if iig_obs_type.private_info == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError("private_info=ALL_PLAYERS would show hidden cards; R7 forbids it")
        self.perfect_recall = bool(iig_obs_type.perfect_recall)
        self.private = iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        self.public = bool(iig_obs_type.public_info)
        self.layout = pieces(game.config.n, self.perfect_recall, self.private, self.public)
        self.tensor = np.zeros(sum(s for _, s, _ in self.layout), np.float32)
        self.dict = make_views(self.tensor, self.layout)

    def set_from(self, state: RamsliState, player: int) -> None:
        """Fill :attr:`tensor` with what ``player`` knows of ``state`` (R7)."""
        encode_into(self.dict, state.view(player))

    def string_from(self, state: RamsliState, player: int) -> str:
        """What ``player`` knows of ``state`` as text (R7)."""
        return observation_string(state.view(player), self.perfect_recall, self.private, self.public)


pyspiel.register_game(_GAME_TYPE, RamsliGame)


# -- OpenSpiel's ISMCTS as a ramsli bot ------------------------------------------------


def _history_from_observation(obs) -> list:
    """The actions of the hand so far, rebuilt from public information only (R7).

    Declarations, announcements and plays are public; the passes of the General Rams
    and target questions are implied by the order of asking (R4.7, R4.8).
    """
    rules = obs.rules
    hist: list[Action] = [Action.declare(s, d == "in") for s, d in obs.declarations]
    ph = obs.phase
    asking_done = ph in (Phase.PLAY, Phase.OVER)
    if rules.general_rams and ph is not Phase.DECLARE and len(obs.active) >= 2:
        for s in obs.active:
            if obs.general_rams == s:
                hist.append(Action.general_rams(s))
                break
            if ph is Phase.GENERAL_RAMS and s == obs.to_act:
                break
            hist.append(Action.pass_(s))
    if rules.targets and (ph is Phase.TARGETS or asking_done) and len(obs.active) >= 2:
        tg = dict(obs.targets)
        for s in obs.active:
            if s == obs.general_rams:
                continue
            if ph is Phase.TARGETS and s == obs.to_act:
                break
            hist.append(Action.announce_target(s, tg[s]) if s in tg else Action.pass_(s))
    for t in obs.tricks:
        hist.extend(Action.play(s, c) for s, c in t.plays)
    hist.extend(Action.play(s, c) for s, c in obs.current)
    return hist


def game_for_observation(obs) -> RamsliGame:
    """The ``python_ramsli`` game of the hand ``obs`` belongs to (same rules, seats, dealer).

    The hand must have started from equal stacks and an empty pot (as in
    :mod:`ramsli.analysis.tournament`), since that is what one episode of the game is.

    Raises:
        ValueError: if the hand did not start from equal stacks and an empty pot, or not
            every seat is seated.
    """
    n = len(obs.stacks)
    rules = obs.rules
    if len(obs.seated) != n:
        raise ValueError("the OpenSpiel game seats every seat; this hand has seats that left (R3.5)")
    start = obs.stacks[obs.seat] + rules.ante  # stacks before the ante while nothing is settled
    if sum(obs.stacks) + obs.pot != n * start:
        raise ValueError("the OpenSpiel game starts from equal stacks and an empty pot")
    opts = ";".join(f"{k}:{v}" for k, v in rules.diff().items() if k not in ("end", "players"))
    return pyspiel.load_game(
        GAME_NAME, {"players": n, "preset": "traditional", "rules": opts, "stack": start, "dealer": obs.dealer}
    )


def state_for_observation(obs, rng: random.Random) -> RamsliState:
    """A ``python_ramsli`` state that seat ``obs.seat`` cannot tell from the real one (R7).

    The cards it cannot see are dealt at random (respecting known voids), then the
    public history is replayed.
    """
    game = game_for_observation(obs)
    cfg = game.config
    played: dict[int, list[int]] = {s: [] for s in range(cfg.n)}
    for t in obs.tricks:
        for s, c in t.plays:
            played[s].append(c.index)
    for s, c in obs.current:
        played[s].append(c.index)
    played[obs.seat] = [c.index for c in dealt_cards(obs)]
    tail = [c.index for c in obs.turned_aside] + [obs.turn_up.index]
    need = {s: 5 - len(played[s]) for s in range(cfg.n) if s != obs.seat}
    assign = _sample_hidden(obs, cfg.deck, need, rng)
    assign[obs.seat] = []
    cards = {s: played[s] + assign[s] for s in range(cfg.n)}
    seq = [cards[s].pop(0) for s in cfg.deal_seats] + tail
    state = game.new_initial_state()
    for idx in seq:
        state.apply_action(idx)
    for a in _history_from_observation(obs):
        state.apply_action(action_id(a))
    return state


class ISMCTSRamsliBot:
    """OpenSpiel's ``ISMCTSBot`` playing as a ramsli bot (registered as ``"ismcts"``).

    It sees only the :class:`~ramsli.hand.Observation` (R7): a state consistent with
    it is rebuilt (:func:`state_for_observation`) and ISMCTS searches from there,
    resampling the hidden cards every simulation. Only for hands that start from
    equal stacks and an empty pot (one episode of ``python_ramsli``).

    Args:
        seed: seed of the search and the resampling.
        rng: instead of ``seed``, the random source itself (a ``random.Random``); not both.
        sims: ISMCTS simulations per decision (``max_simulations``), >= 2 (OpenSpiel's
            ISMCTS only creates the root in its first simulation).
        uct: the UCT exploration constant (OpenSpiel's ``uct_c``).
        rollouts: random rollouts per leaf evaluation.
    """

    name = "ismcts"

    def __init__(
        self,
        seed: int | None = None,
        sims: int = 200,
        uct: float = 2.0,
        rollouts: int = 1,
        *,
        rng: random.Random | None = None,
    ) -> None:
        if int(sims) < 2 or int(rollouts) < 1 or float(uct) < 0:
            raise ValueError(
                f"sims={sims}, rollouts={rollouts}, uct={uct}: allowed are sims >= 2, rollouts >= 1, uct >= 0"
            )
        self.rng = random_source(seed, rng, "ISMCTSRamsliBot")
        self.sims = int(sims)
        self.uct = float(uct)
        self.rollouts = int(rollouts)

    def act(self, obs):
        """One of ``obs.legal``, chosen by ISMCTS.

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        if not obs.legal:
            raise ValueError(f"seat {seat_name(obs.seat)} has no legal action: it is not its turn")
        if len(obs.legal) == 1:
            return obs.legal[0]
        from open_spiel.python.algorithms import ismcts, mcts

        state = state_for_observation(obs, self.rng)
        nprng = np.random.RandomState(self.rng.getrandbits(31))
        ev = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=nprng)
        bot = ismcts.ISMCTSBot(state.get_game(), ev, uct_c=self.uct, max_simulations=self.sims, random_state=nprng)
        bot.set_resampler(make_resampler(self.rng.getrandbits(62)))
        return id_to_action(bot.step(state), obs.seat)


def register_ismcts_bot() -> None:
    """Add ``"ismcts"`` (:class:`ISMCTSRamsliBot`) to the ramsli bot registry."""
    register_bot("ismcts", ISMCTSRamsliBot)
