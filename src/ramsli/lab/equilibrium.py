"""Declaration policies as files, the hand buckets they are keyed by, and the ``equilibrium`` bot.

A *declaration policy* gives, for every seat position in declaration order
(0 = the dealer's left .. ``n - 1`` = the dealer, R4.5), every history of the
declarations before it, and every hand *bucket*, the probability of declaring
``in``. :mod:`ramsli.lab.solve` computes one (an approximate Nash equilibrium of
the declaration stage); this module reads and writes the files and plays them,
in pure Python (no NumPy needed), so that the bot registry can load the bot by
name (:data:`ramsli.bots.base.BOT_MODULES`).

Buckets (:func:`bucket`): the *effective rank* of a trump is the number of trumps
of the deck that are higher and neither in the hand nor the turn-up (0 = no one
can hold a higher trump). The bucket is the tuple (trumps held 0..5; best trump
class: 0 none, 1 + min(effective rank of the best trump, 3); trumps of effective
rank 0 or 1, 0..2; side aces 0..2+; side kings 0..2+), numbered in mixed radix
(6, 5, 3, 3, 3) = 810 buckets. The turn-up counts through the effective ranks.

The file (JSON, :data:`FORMAT`, version :data:`VERSION`)::

    {"format": "ramsli-declaration-policy", "version": 1, "players": 5,
     "rules": {...Rules.to_dict()...}, "abstraction": "trumps-eff-rank-aces-kings/1",
     "play_policy": "tips", "buckets": 810, "stacks": 20, "pot": 0,
     "solver": {...how it was computed...},
     "p_in": [[permille per bucket] per node], "advantage": [[...]] (optional)}

A *node* is ``2**d - 1 + h``: position ``d`` with the declarations before it as bits
``h`` (bit ``j`` set = position ``j`` declared in). ``p_in`` holds P(in) in
thousandths (integers 0..1000); ``advantage`` (optional) the counters ``in`` gains
over ``out`` there against the policy, in hundredths.
"""

from __future__ import annotations

import json
import os
import random
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from ramsli.bots.base import make_bot
from ramsli.bots.tips import declare_in
from ramsli.cards import Card, make_deck
from ramsli.hand import Action, Observation, Phase, random_source
from ramsli.rules import Rules, RulesError
from ramsli.seats import seat_name

__all__ = [
    "FORMAT",
    "VERSION",
    "ABSTRACTION",
    "RADIX",
    "N_BUCKETS",
    "PLAY_BOT",
    "PolicyError",
    "Policy",
    "bucket",
    "bucket_features",
    "node_index",
    "history_bits",
    "load_policy",
    "save_policy",
    "policy_from_json",
    "default_policy",
    "default_policies",
    "policy_key",
    "EquilibriumBot",
]

FORMAT = "ramsli-declaration-policy"
VERSION = 1
ABSTRACTION = "trumps-eff-rank-aces-kings/1"
RADIX = (6, 5, 3, 3, 3)
N_BUCKETS = 6 * 5 * 3 * 3 * 3
#: the play bot of the ``equilibrium`` bot (cards, General Rams, targets); a bot spec
PLAY_BOT = "expert"
#: rule options that do not change one hand's declaration game (they are ignored when matching)
_SESSION_OPTIONS = ("players", "end", "bust", "starting_stack")


#: the largest policy file :func:`load_policy` reads, in bytes (the shipped ones are under 0.4 MB)
MAX_POLICY_BYTES = 8 * 1024 * 1024


class PolicyError(ValueError):
    """A policy file that cannot be used: unreadable, not JSON, another format or version, or a table
    of the wrong shape or with values out of range. The message names the file and what is wrong."""


def _is_trump(c: Card, trump: str) -> bool:
    return c.suit is None or c.suit == trump


def bucket_features(cards: Sequence[Card], turn_up: Card, rules: Rules) -> tuple[int, int, int, int, int]:
    """The bucket features of a hand (see the module text): (trumps, best trump class, trumps of
    effective rank <= 1, side aces (max 2), side kings (max 2)). The trump suit is the turn-up's (R4.4).

    >>> from ramsli.cards import parse_cards
    >>> bucket_features(parse_cards("KS 9S KH 8D AC"), Card.parse("AS"), Rules())
    (2, 1, 1, 1, 1)
    """
    trump = turn_up.suit
    if trump is None:
        raise ValueError("the turn-up is a suited card, never a joker (R4.4, D-9)")
    deck = make_deck(rules.deck, rules.jokers)
    mine = set(cards)
    trumps = [c for c in cards if _is_trump(c, trump)]
    effs = [
        sum(1 for o in deck if _is_trump(o, trump) and o.rank > c.rank and o not in mine and o != turn_up)
        for c in trumps
    ]
    nt = len(trumps)
    best = 0 if not trumps else 1 + min(min(effs), 3)
    top2 = sum(1 for e in effs if e <= 1)
    aces = sum(1 for c in cards if not _is_trump(c, trump) and c.rank == 14)
    kings = sum(1 for c in cards if not _is_trump(c, trump) and c.rank == 13)
    return min(nt, 5), best, min(top2, 2), min(aces, 2), min(kings, 2)


def bucket(cards: Sequence[Card], turn_up: Card, rules: Rules) -> int:
    """The bucket number 0..N_BUCKETS-1 of a hand (the same as the kernel's ``bucket_of``)."""
    nt, best, top2, aces, kings = bucket_features(cards, turn_up, rules)
    return (((nt * 5 + best) * 3 + top2) * 3 + aces) * 3 + kings


def node_index(position: int, history: int) -> int:
    """The node of ``position`` (0 = dealer's left) after declarations ``history`` (bit j = position j in).

    >>> node_index(0, 0), node_index(2, 0b01), node_index(2, 0b11)
    (0, 4, 6)
    """
    if position < 0 or not 0 <= history < (1 << position):
        raise ValueError(f"history {history} is not {position} declarations as bits")
    return (1 << position) - 1 + history


def history_bits(before: Sequence[int | str]) -> int:
    """The declarations before a position (``1``/``"in"``, ``0``/``"out"``, in order) as history bits.

    >>> history_bits(["in", "out", "in"])
    5
    """
    return sum(1 << j for j, b in enumerate(before) if b in (1, True, "in"))


def policy_key(rules: Rules) -> dict[str, Any]:
    """The rule options that define one hand's declaration game (session options left out)."""
    d = rules.to_dict()
    for k in _SESSION_OPTIONS:
        d.pop(k, None)
    return d


@dataclass
class Policy:
    """A declaration policy (see the module text).

    Attributes:
        players: seats 2..6; rules: the rules it was solved for; p_in: P(in) per node and bucket
        (floats 0..1, ``(2**players - 1)`` lists of :data:`N_BUCKETS`); advantage: counters ``in``
        gains over ``out`` per node and bucket against the policy (or None); play_policy: the
        card play it assumes; stacks, pot: the stacks (counters each) and carry-in pot solved for;
        solver: how it was computed (free-form).
    """

    players: int
    rules: Rules
    p_in: list[list[float]]
    advantage: list[list[float]] | None = None
    play_policy: str = "tips"
    stacks: int = 20
    pot: int = 0
    solver: dict[str, Any] = field(default_factory=dict)

    def prob_in(self, position: int, history: int, bucket_no: int) -> float:
        """P(in) at ``position`` after ``history`` with a hand of bucket ``bucket_no`` (R4.5)."""
        return self.p_in[node_index(position, history)][bucket_no]

    def advantage_of(self, position: int, history: int, bucket_no: int) -> float | None:
        """Counters ``in`` gains over ``out`` there against the policy (None if not stored)."""
        if self.advantage is None:
            return None
        return self.advantage[node_index(position, history)][bucket_no]

    def to_json(self) -> dict[str, Any]:
        """The file's JSON object (format :data:`FORMAT` version :data:`VERSION`)."""
        d: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "players": self.players,
            "rules": self.rules.to_dict(),
            "abstraction": ABSTRACTION,
            "play_policy": self.play_policy,
            "buckets": N_BUCKETS,
            "stacks": self.stacks,
            "pot": self.pot,
            "solver": self.solver,
            "p_in": [[int(round(1000 * p)) for p in row] for row in self.p_in],
        }
        if self.advantage is not None:
            d["advantage"] = [[int(round(100 * a)) for a in row] for row in self.advantage]
        return d


def _table(data: dict, key: str, rows: int, lo: int, hi: int, where: str) -> list[list[int]]:
    t = data[key]
    if not isinstance(t, list) or len(t) != rows:
        raise PolicyError(
            f"{where}: {key!r} must be a list of {rows} nodes (2**players - 1), got "
            f"{len(t) if isinstance(t, list) else type(t).__name__}"
        )
    for i, row in enumerate(t):
        if not isinstance(row, list) or len(row) != N_BUCKETS:
            raise PolicyError(f"{where}: {key}[{i}] must be a list of {N_BUCKETS} buckets")
        for b, v in enumerate(row):
            if type(v) is not int or not lo <= v <= hi:
                raise PolicyError(f"{where}: {key}[{i}][{b}] = {v!r}: allowed is a whole number {lo}..{hi}")
    return t


def policy_from_json(data: Any, where: str = "policy") -> Policy:
    """A :class:`Policy` from the file's JSON object, validated.

    Raises:
        PolicyError: naming ``where`` and the first problem.
    """
    if not isinstance(data, dict):
        raise PolicyError(f'{where}: not a policy file (a JSON object with "format": "{FORMAT}")')
    if data.get("format") != FORMAT:
        raise PolicyError(f"{where}: format {data.get('format')!r} is not {FORMAT!r}")
    if data.get("version") != VERSION:
        raise PolicyError(f"{where}: version {data.get('version')!r} is not supported; allowed is {VERSION}")
    missing = [k for k in ("players", "rules", "abstraction", "buckets", "p_in") if k not in data]
    if missing:
        raise PolicyError(f"{where}: missing field {missing[0]!r}")
    n = data["players"]
    if type(n) is not int or not 2 <= n <= 6:
        raise PolicyError(f"{where}: players {n!r}: allowed are 2..6 (R2.1)")
    if data["abstraction"] != ABSTRACTION or data["buckets"] != N_BUCKETS:
        raise PolicyError(
            f"{where}: abstraction {data['abstraction']!r} with {data['buckets']!r} buckets; "
            f"this ramsli reads {ABSTRACTION!r} with {N_BUCKETS}"
        )
    try:
        rules = Rules.from_dict(data["rules"])
    except RulesError as e:
        raise PolicyError(f"{where}: rules: {e}") from None
    rows = (1 << n) - 1
    p = _table(data, "p_in", rows, 0, 1000, where)
    adv = None
    if data.get("advantage") is not None:
        adv = [[v / 100 for v in row] for row in _table(data, "advantage", rows, -(10**9), 10**9, where)]
    for k in ("stacks", "pot"):
        if k in data and (type(data[k]) is not int or data[k] < 0):
            raise PolicyError(f"{where}: {k} {data[k]!r}: allowed is a whole number >= 0 (counters)")
    solver = data.get("solver", {})
    if not isinstance(solver, dict):
        raise PolicyError(f"{where}: solver must be a JSON object")
    return Policy(
        players=n,
        rules=rules,
        p_in=[[v / 1000 for v in row] for row in p],
        advantage=adv,
        play_policy=str(data.get("play_policy", "tips")),
        stacks=data.get("stacks", 20),
        pot=data.get("pot", 0),
        solver=solver,
    )


def load_policy(path: str | os.PathLike) -> Policy:
    """Read and validate a policy file.

    Raises:
        PolicyError: if the file cannot be read, is not JSON, or fails validation (:func:`policy_from_json`).
    """
    where = str(path)
    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode):  # a FIFO would block, /dev/zero never ends, a folder is no file
            raise PolicyError(f"{where}: not a regular file; a policy file is a JSON file written by ramsli solve")
        if st.st_size > MAX_POLICY_BYTES:
            raise PolicyError(f"{where}: {st.st_size} bytes; a policy file has at most {MAX_POLICY_BYTES} bytes")
        with open(path, "rb") as f:
            raw = f.read(MAX_POLICY_BYTES + 1)
        if len(raw) > MAX_POLICY_BYTES:
            raise PolicyError(f"{where}: more than {MAX_POLICY_BYTES} bytes; a policy file is not that large")
        text = raw.decode("utf-8")
    except PolicyError:
        raise
    except UnicodeDecodeError:
        raise PolicyError(f"{where}: not a policy file (not UTF-8 text)") from None
    except (OSError, ValueError) as e:  # ValueError: a NUL in the path
        raise PolicyError(f"{where}: cannot read the policy file ({getattr(e, 'strerror', None) or e})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise PolicyError(f"{where}: not valid JSON (line {e.lineno}, column {e.colno}: {e.msg})") from None
    except RecursionError:
        raise PolicyError(f"{where}: not a policy file (JSON nested too deeply)") from None
    try:
        return policy_from_json(data, where)
    except RecursionError:
        raise PolicyError(f"{where}: not a policy file (JSON nested too deeply)") from None


def save_policy(policy: Policy, path: str | os.PathLike) -> None:
    """Write ``policy`` as a policy file (JSON, one node per line); the file is replaced whole."""
    data = policy.to_json()
    head = {k: v for k, v in data.items() if k not in ("p_in", "advantage")}
    lines = ["{"] + [f"  {json.dumps(k)}: {json.dumps(v, sort_keys=True)}," for k, v in head.items()]
    for key in ("p_in", "advantage"):
        if key in data:
            rows = ",\n".join("    " + json.dumps(r, separators=(",", ":")) for r in data[key])
            lines.append(f"  {json.dumps(key)}: [\n{rows}\n  ],")
    lines[-1] = lines[-1].rstrip(",")
    tmp = Path(f"{path}.tmp")
    tmp.write_text("\n".join(lines) + "\n}\n", encoding="utf-8")
    os.replace(tmp, path)


def default_policies() -> list[str]:
    """Names of the policy files shipped with ramsli (package data ``ramsli/lab/policies``)."""
    try:
        folder = resources.files("ramsli.lab") / "policies"
        return sorted(p.name for p in folder.iterdir() if p.name.endswith(".json"))
    except (FileNotFoundError, NotADirectoryError, ModuleNotFoundError):
        return []


_cache: dict[str, Policy] = {}


def default_policy(rules: Rules, players: int, pot: int = 0) -> Policy | None:
    """The shipped policy solved for these rules (session options aside), this number of players and this
    carry-in pot (counters; the shipped ones are solved for an empty pot), or None."""
    key = policy_key(rules)
    for name in default_policies():
        if name not in _cache:
            with resources.as_file(resources.files("ramsli.lab") / "policies" / name) as p:
                _cache[name] = load_policy(p)
        pol = _cache[name]
        if pol.players == players and pol.pot == pot and policy_key(pol.rules) == key:
            return pol
    return None


class EquilibriumBot:
    """The ``equilibrium`` bot: declares by a declaration policy, plays like :data:`PLAY_BOT`.

    Args:
        seed: seed of its random source (mixed declarations draw from it; the play bot gets its own seed
            from it); rng: instead of ``seed``.
        policy: a policy file path, or ``"default"``: the shipped policy for the table's rules and number
            of players (:func:`default_policy`); where there is none, the tips declaration is used
            (``fallbacks`` counts those declarations). A policy file solved for another number of players
            than the table has (or has come to have, R3.5 ``bust=leave``) falls back the same way.
        play: the bot spec that plays cards, General Rams and targets (default :data:`PLAY_BOT`).

    Raises:
        PolicyError: for a policy file that cannot be used; ValueError: for a bad ``play`` spec.
    """

    name = "equilibrium"
    #: options that name a file: a server never lets a client set them (it would open paths on its disk)
    FILE_OPTIONS = ("policy",)

    def __init__(
        self,
        seed: int | None = None,
        policy: str = "default",
        play: str = PLAY_BOT,
        *,
        rng: random.Random | None = None,
    ) -> None:
        self.rng = random_source(seed, rng, "EquilibriumBot")
        self.policy_name = str(policy)
        self._policy = None if self.policy_name == "default" else load_policy(self.policy_name)
        self.player = make_bot(str(play), self.rng.randrange(2**31))
        self.fallbacks = 0

    def _policy_for(self, obs: Observation) -> Policy | None:
        if self._policy is not None:
            if self._policy.players != len(obs.order):  # e.g. after a player left bust (R3.5 leave)
                return None  # the tips declaration, counted in fallbacks
            return self._policy
        return default_policy(obs.rules, len(obs.order))

    def act(self, obs: Observation) -> Action:
        """One of ``obs.legal``: a declaration by the policy (R4.5), anything else by the play bot.

        Raises:
            ValueError: if ``obs.legal`` is empty (not this seat's turn).
        """
        if not obs.legal:
            raise ValueError(f"seat {seat_name(obs.seat)} has no legal action: it is not its turn")
        if obs.phase is not Phase.DECLARE:
            return self.player.act(obs)
        if len(obs.legal) == 1:
            return obs.legal[0]
        position = obs.order.index(obs.seat)
        before = [d for _, d in obs.declarations]
        pol = self._policy_for(obs)
        if pol is None:
            self.fallbacks += 1
            ins = sum(1 for d in before if d == "in")
            return Action.declare(obs.seat, declare_in(obs.cards, obs.trump, ins))
        p = pol.prob_in(position, history_bits(before), bucket(obs.cards, obs.turn_up, obs.rules))
        go_in = p >= 1.0 or (p > 0.0 and self.rng.random() < p)
        return Action.declare(obs.seat, go_in)
