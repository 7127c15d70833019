"""The in/out question, solved: a declaration equilibrium and its exploitability (``ramsli solve``).

**The game.** One hand of Ramsli (R4, R5) from starting stacks (``starting_stack``
each) and an empty carry-in pot (``--pot`` to change it): the seats declare
``in``/``out`` in order from the dealer's left (R4.5; the dealer forced in when
everyone before is out, under ``dealer_forced``); then the cards — and General
Rams (R4.7) and targets (R4.8) when those options are on — are played by the
batch kernel's fixed ``tips`` play policy (:mod:`ramsli.bots.tips`). A seat's
payoff is its stack after settlement minus its stack before the ante (counters,
as in ``ramsli odds``); counters left in the pot for later hands count for no one.
Only the declarations are solved: **General Rams and targets are not** (they
follow the tips policy), and compulsory Ramsli has no declarations to solve.

**The abstraction.** A seat's information at its declaration is its hand, the
turn-up and the declarations before it. The history is kept whole (all ``2**d``
histories of position ``d``); the hand and turn-up are bucketed
(:func:`ramsli.lab.equilibrium.bucket`: trumps held, the *effective* rank of the
best trump — higher trumps that are neither in hand nor the turn-up — trumps of
effective rank 0–1, side aces, side kings). These are the features the seeds'
tips use (top trumps, trump count, side aces, side kings), made turn-up aware:
with the ace turned up, the king of trump is the top trump.

**The algorithm.** CFR+ (regret matching+, linear averaging) with chance
sampling over a sample of deals: ``deals`` deals are dealt by the kernel (hand
numbers ``0 .. deals-1`` of the seed) and each is played under every one of the
``2**n`` declaration masks (:func:`ramsli.lab.solve_kernel.deal_tables`); the
sample is cut into blocks of ``batch`` deals, and iteration ``t`` runs one CFR+
update over block ``t mod blocks`` (with ``deals = batch * iterations`` it is
plain chance-sampled MCCFR with fresh deals each iteration). The result is the
average strategy; infosets the average never reaches take the best reply to it
without conditioning on reach (trembling). For more than two seats CFR has no
convergence guarantee to a Nash equilibrium; the exploitability below measures
how close the result is.

**Exploitability** (:func:`exploit`). For a policy (a policy table, ``tips``, or
a bot asked at every node), a best response is computed per position against the
others playing the policy — within the abstraction (the responder sees only its
bucket and the history) — on ``br_deals`` fresh deals, and then evaluated on
``eval_deals`` other fresh deals: the gain per position, and its mean over the
positions (a player who sits at every position equally often), with a 95%
interval over deals. Being measured on deals it was not fitted to, the gain is
an honest (if conservative) estimate of what the best response gains.

Everything random is the seed's: the same seed and sizes give the same policy,
locally or on a Dask cluster (the tables are the kernel's, per hand number), and
a run resumed from its checkpoint gives the same policy as one uninterrupted.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from itertools import combinations
from typing import Any

import numpy as np

from ramsli.analysis.cluster import LAB_PACKAGES, DaskRunner, LocalRunner, Runner, run_chunks
from ramsli.bots.base import make_bot
from ramsli.cards import Card, make_deck
from ramsli.errors import TableError
from ramsli.hand import Action, Hand
from ramsli.lab import kernel as K
from ramsli.lab import solve_kernel as S
from ramsli.lab.equilibrium import (
    ABSTRACTION,
    N_BUCKETS,
    Policy,
    PolicyError,
    bucket,
    bucket_features,
    default_policy,
    history_bits,
    load_policy,
    node_index,
)
from ramsli.lab.limits import LimitError, check_counters, check_seed
from ramsli.lab.odds import OddsError, parse_query
from ramsli.rules import Rules
from ramsli.session import check_setup

__all__ = [
    "SolveError",
    "SampledDeals",
    "deal_sample",
    "solve",
    "SolveResult",
    "exploit",
    "policy_sigma",
    "ask",
    "hand_advantage",
    "load_policy",
    "check_game",
    "measure",
    "mean_ci",
    "run_cfr",
    "new_state",
    "average",
    "CHECKPOINT_VERSION",
    "BR_OFFSET",
    "EVAL_OFFSET",
]

#: checkpoint format version
CHECKPOINT_VERSION = 1
#: hand numbers of the best-response deals and of the evaluation deals start here (the solver's are below)
BR_OFFSET = 1 << 40
EVAL_OFFSET = 1 << 41
#: deals per task when the tables are dealt on a runner
CHUNK = 5000

assert S.NB == N_BUCKETS


class SolveError(ValueError):
    """A bad ``ramsli solve`` request (game, sizes, checkpoint, policy); the message says what is allowed."""


def check_game(rules: Rules, n: int) -> None:
    """Refuse games the solver does not cover.

    Raises:
        SolveError: for what the engine's set-up check refuses (:func:`ramsli.session.check_setup`:
            not 2..6 players, a ``players`` option that does not match, R2.1; an ante above the
            starting stack, R3.5; the same message, the engine's ``TableError`` as its
            ``__cause__``), compulsory Ramsli (no declarations, R4.5), or counters beyond the
            kernel's limits.
    """
    try:
        check_setup(rules, n)
    except TableError as e:
        raise SolveError(str(e)) from e
    if rules.compulsory:
        raise SolveError("compulsory Ramsli has no declarations to solve (R4.5); choose another preset")
    try:
        check_counters(rules)
    except LimitError as e:
        raise SolveError(str(e)) from None


# ---------------------------------------------------------------------------
# deal tables


def _table_chunk(rules_dict: dict, n: int, seed: int, start: int, count: int, pot: int):
    """Deal and play hands ``start .. start+count-1`` of ``seed`` under every mask (a task)."""
    rules = Rules.from_dict(rules_dict)
    nm = 1 << n
    pay = np.empty((count, nm, n), np.float32)
    bucket_ = np.empty((count, n), np.int64)
    tips = np.empty((count, n, n), np.int8)
    cards = np.empty((count, n, 5), np.int8)
    tus = np.empty(count, np.int8)
    fine = np.empty((count, n), np.int64)
    S.deal_tables(
        seed,
        start,
        count,
        n,
        K.base_deck(rules),
        K.pack_rules(rules),
        np.zeros(n, np.int64),
        np.full(n, rules.starting_stack, np.int64),
        pot,
        pay,
        bucket_,
        tips,
        cards,
        tus,
        fine,
        K._chunks(count),
    )
    return pay, bucket_, tips, cards, tus, fine


@dataclass
class SampledDeals:
    """Deals with their payoff tables (see :func:`ramsli.lab.solve_kernel.deal_tables`).

    Attributes:
        pay (B, 2**n, n) float32: counters per declaration mask and position; bucket (B, n);
        tips (B, n, n) int8; cards (B, n, 5) int8; turn_up (B,) int8; weight (B,) float64 (1 each);
        fine (B, n): the finer responder's buckets (:func:`ramsli.lab.solve_kernel.fine_bucket_of`), or None.
    """

    pay: np.ndarray
    bucket: np.ndarray
    tips: np.ndarray
    cards: np.ndarray
    turn_up: np.ndarray
    weight: np.ndarray
    fine: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.pay)

    def part(self, lo: int, hi: int) -> SampledDeals:
        """Deals ``lo .. hi-1``."""
        return SampledDeals(
            self.pay[lo:hi],
            self.bucket[lo:hi],
            self.tips[lo:hi],
            self.cards[lo:hi],
            self.turn_up[lo:hi],
            self.weight[lo:hi],
            None if self.fine is None else self.fine[lo:hi],
        )


def deal_sample(
    rules: Rules,
    n: int,
    seed: int,
    start: int,
    count: int,
    pot: int = 0,
    runner: Runner | None = None,
    progress: Callable[[int], None] | None = None,
) -> SampledDeals:
    """Deal hands ``start .. start+count-1`` of ``seed`` and play each under every declaration mask.

    The work is cut into tasks of :data:`CHUNK` deals played on ``runner`` (default: this process);
    the result is the same wherever they run. ``progress(deals)`` is called as tasks finish.
    """
    runner = runner or LocalRunner(1)
    work = [
        (rules.to_dict(), n, seed, s, min(CHUNK, start + count - s), pot) for s in range(start, start + count, CHUNK)
    ]
    res = run_chunks(runner, _table_chunk, work, on_done=(lambda k, r: progress(len(r[0]))) if progress else None)
    if not res:
        z = _table_chunk(rules.to_dict(), n, seed, start, 0, pot)
        return SampledDeals(z[0], z[1], z[2], z[3], z[4], np.zeros(0), z[5])
    p = [np.concatenate([r[j] for r in res]) for j in range(6)]
    return SampledDeals(p[0], p[1], p[2], p[3], p[4], np.ones(count), p[5])


# ---------------------------------------------------------------------------
# solving


@dataclass
class SolveResult:
    """What :func:`solve` returns.

    Attributes:
        policy: the average strategy as a :class:`~ramsli.lab.equilibrium.Policy`;
        iterations: CFR+ iterations done; seconds: wall-clock time (not part of the result);
        snapshots: iteration -> P(in) per infoset (the average strategy then), for convergence plots.
    """

    policy: Policy
    iterations: int
    seconds: float
    sigma: np.ndarray
    snapshots: dict[int, np.ndarray] = field(default_factory=dict)


def _config(rules: Rules, n: int, seed: int, deals: int, batch: int, pot: int) -> dict[str, Any]:
    return {
        "rules": rules.to_dict(),
        "players": n,
        "seed": seed,
        "deals": deals,
        "batch": batch,
        "pot": pot,
        "abstraction": ABSTRACTION,
        "play_policy": "tips",
    }


def _save_checkpoint(
    path: str | os.PathLike, cfg: dict, t: int, state: dict[str, np.ndarray], snapshots: dict[int, np.ndarray]
) -> None:
    tmp = f"{path}.tmp.npz"
    arrays: dict[str, Any] = dict(
        version=np.int64(CHECKPOINT_VERSION),
        config=np.array(json.dumps(cfg, sort_keys=True)),
        t=np.int64(t),
        snap_t=np.array(sorted(snapshots), np.int64),
        snaps=np.array([snapshots[k] for k in sorted(snapshots)]).reshape(len(snapshots), len(state["sigma"])),
        **state,
    )
    np.savez(tmp, **arrays)
    os.replace(tmp, path)


def _load_checkpoint(path: str | os.PathLike, cfg: dict) -> tuple[int, dict[str, np.ndarray], dict[int, np.ndarray]]:
    try:
        z = np.load(path, allow_pickle=False)
        version = int(z["version"])
        saved = json.loads(str(z["config"]))
        t = int(z["t"])
        state = {k: z[k].copy() for k in ("sigma", "regret", "ssum", "norm", "reach_mass")}
        snaps = {int(k): z["snaps"][i].copy() for i, k in enumerate(z["snap_t"])}
    except FileNotFoundError:
        raise SolveError(f"--checkpoint {path}: no such file to resume from") from None
    except (OSError, ValueError, KeyError, json.JSONDecodeError) as e:
        raise SolveError(f"--checkpoint {path}: not a ramsli solve checkpoint ({e})") from None
    if version != CHECKPOINT_VERSION:
        raise SolveError(f"--checkpoint {path}: version {version}; this ramsli reads {CHECKPOINT_VERSION}")
    if saved != cfg:
        diff = [k for k in cfg if saved.get(k) != cfg[k]]
        raise SolveError(
            f"--checkpoint {path} is of another solve (it differs in {', '.join(diff)}); resume "
            "with the same preset, rules, players, seed, --deals, --batch and --pot"
        )
    return t, state, snaps


def average(state: dict[str, np.ndarray]) -> np.ndarray:
    norm = state["norm"]
    return np.where(norm > 0, state["ssum"] / np.where(norm > 0, norm, 1), 0.5)


def solve(
    rules: Rules,
    n: int,
    iterations: int | None = 1000,
    time_s: float | None = None,
    seed: int = 0,
    deals: int = 200_000,
    batch: int = 20_000,
    pot: int = 0,
    checkpoint: str | os.PathLike | None = None,
    resume: bool = False,
    checkpoint_every: int = 100,
    snapshot_at: Sequence[int] = (),
    runner: Runner | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    finish_deals: int = 100_000,
) -> SolveResult:
    """Compute an approximate equilibrium of the declaration stage (see the module text).

    Args:
        rules, n: the game (``check_game``); iterations: CFR+ iterations (or None with ``time_s``:
            as many as fit in that many seconds, which is not reproducible); seed: ≥ 0;
        deals: deals in the sample (hand numbers ``0 .. deals-1``); batch: deals per iteration
            (``deals`` must be a multiple); pot: carry-in pot (counters);
        checkpoint: file (``.npz``) written every ``checkpoint_every`` iterations and at the end;
        resume: continue from ``checkpoint`` (same game and sizes; the result equals an uninterrupted run);
        snapshot_at: iterations at which to keep the average strategy (for convergence plots);
        runner: where the deal tables are dealt (default this process); progress: called as
            ``progress(phase, done, total)`` with phase ``"deal"`` (deals) or ``"solve"`` (iterations);
        finish_deals: fresh deals for the final best-reply pass (off-path infosets, advantages).

    Raises:
        SolveError: for a bad game or sizes, or a checkpoint that does not fit.
    """
    check_game(rules, n)
    try:
        check_seed(seed)
    except LimitError as e:
        raise SolveError(str(e)) from None
    if iterations is None and time_s is None:
        raise SolveError("give --iterations or --time")
    if iterations is not None and iterations < 1:
        raise SolveError(f"--iterations {iterations}: allowed is a whole number >= 1")
    if batch < 1 or deals < batch or deals % batch:
        raise SolveError(f"--deals {deals} and --batch {batch}: allowed are batch >= 1 and deals a multiple of batch")
    if resume and checkpoint is None:
        raise SolveError("--resume needs --checkpoint FILE")
    cfg = _config(rules, n, seed, deals, batch, pot)
    nodes = (1 << n) - 1
    forced = bool(rules.dealer_forced)
    state = new_state(n, forced)
    t = 0
    snapshots: dict[int, np.ndarray] = {}
    if resume and checkpoint is not None:  # --resume without a checkpoint is refused above
        t, state, snapshots = _load_checkpoint(checkpoint, cfg)
    t0 = time.perf_counter()
    sample = deal_sample(
        rules, n, seed, 0, deals, pot, runner, progress=(lambda k: progress("deal", k, deals)) if progress else None
    )

    def on_iter(t_: int) -> None:
        if progress:
            progress("solve", t_, iterations or 0)
        if checkpoint is not None and checkpoint_every > 0 and t_ % checkpoint_every == 0:
            _save_checkpoint(checkpoint, cfg, t_, state, snapshots)

    t = run_cfr(
        state,
        sample,
        n,
        forced,
        t,
        iterations,
        batch,
        time_limit=None if time_s is None else t0 + time_s,
        snapshot_at=snapshot_at,
        snapshots=snapshots,
        on_iter=on_iter,
    )
    if checkpoint is not None:
        _save_checkpoint(checkpoint, cfg, t, state, snapshots)
    sigma = average(state)
    # off-path infosets (never reached by the average): the best reply to it, reach aside
    fresh = deal_sample(rules, n, seed, BR_OFFSET - finish_deals, finish_deals, pot, runner) if finish_deals else None
    adv = None
    if fresh is not None:
        cfv = _br_cfv(fresh, 0, sigma, None, n, forced)
        reach = cfv[:, 2]
        cond = np.where(reach > 0, (cfv[:, 0] - cfv[:, 1]) / np.where(reach > 0, reach, 1), 0.0)
        off = state["reach_mass"] <= 1e-9 * max(1.0, float(state["reach_mass"].max()))
        sigma = sigma.copy()
        sigma[off] = np.where(cfv[off, 3] > 0, 1.0, np.where(cfv[off, 3] < 0, 0.0, sigma[off]))
        if forced:
            sigma[((1 << (n - 1)) - 1) * S.NB : (1 << (n - 1)) * S.NB] = 1.0
        cnt = _bucket_counts(fresh, n)
        adv = np.where(reach > 0, cond, np.where(cnt > 0, cfv[:, 3] / np.maximum(cnt, 1), 0.0))
    policy = Policy(
        players=n,
        rules=rules,
        p_in=sigma.reshape(nodes, S.NB).tolist(),
        advantage=None if adv is None else adv.reshape(nodes, S.NB).tolist(),
        play_policy="tips",
        stacks=rules.starting_stack,
        pot=pot,
        solver={
            "algorithm": "CFR+ (chance-sampled, linear averaging)",
            "iterations": t,
            "seed": seed,
            "deals": deals,
            "batch": batch,
            "finish_deals": finish_deals,
        },
    )
    return SolveResult(policy, t, time.perf_counter() - t0, sigma, snapshots)


def new_state(n: int, forced: bool) -> dict[str, np.ndarray]:
    """A fresh CFR+ state for ``n`` positions: P(in) 0.5 everywhere (1 where the dealer is forced in)."""
    ni = ((1 << n) - 1) * S.NB
    state = {
        "sigma": np.full(ni, 0.5),
        "regret": np.zeros((ni, 2)),
        "ssum": np.zeros(ni),
        "norm": np.zeros(ni),
        "reach_mass": np.zeros(ni),
    }
    if forced:
        state["sigma"][((1 << (n - 1)) - 1) * S.NB : (1 << (n - 1)) * S.NB] = 1.0
    return state


def run_cfr(
    state: dict[str, np.ndarray],
    sample: SampledDeals,
    n: int,
    forced: bool,
    t: int,
    iterations: int | None,
    batch: int,
    time_limit: float | None = None,
    snapshot_at: Sequence[int] = (),
    snapshots: dict[int, np.ndarray] | None = None,
    on_iter: Callable[[int], None] | None = None,
) -> int:
    """CFR+ iterations ``t+1 .. iterations`` over ``sample`` (block ``(t-1) mod blocks`` of ``batch`` deals at
    iteration ``t``), updating ``state`` in place; stops early at ``time.perf_counter() >= time_limit``.
    Returns the last iteration done. The average strategy is :func:`average`."""
    blocks = max(1, len(sample) // batch)
    snap_set = set(int(x) for x in snapshot_at)
    while iterations is None or t < iterations:
        if time_limit is not None and time.perf_counter() >= time_limit:
            break
        part = sample.part((t % blocks) * batch, (t % blocks + 1) * batch)
        t += 1
        S.cfr_batch(
            part.pay,
            part.bucket,
            part.weight,
            state["sigma"],
            state["regret"],
            state["ssum"],
            state["norm"],
            state["reach_mass"],
            float(t),
            n,
            S.NB,
            forced,
        )
        if snapshots is not None and t in snap_set:
            snapshots[t] = average(state)
        if on_iter is not None:
            on_iter(t)
    return t


def _bucket_counts(deals: SampledDeals, n: int) -> np.ndarray:
    """Deals per infoset (node, bucket), reach aside: every history of position d counts the deal."""
    nodes = (1 << n) - 1
    out = np.zeros(nodes * S.NB)
    for d in range(n):
        c = np.bincount(deals.bucket[:, d], minlength=S.NB).astype(float)
        for h in range(1 << d):
            node = (1 << d) - 1 + h
            out[node * S.NB : (node + 1) * S.NB] = c
    return out


# ---------------------------------------------------------------------------
# policies as node probabilities, best responses, exploitability


def policy_sigma(policy: Policy, n: int, forced: bool = True) -> np.ndarray:
    """P(in) per infoset (node * NB + bucket) of a policy table, as float64.

    Raises:
        SolveError: if the policy is for another number of players.
    """
    if policy.players != n:
        raise SolveError(f"the policy is for {policy.players} players, not {n}")
    sigma = np.array(policy.p_in, np.float64).reshape(-1)
    if forced:
        sigma[((1 << (n - 1)) - 1) * S.NB : (1 << (n - 1)) * S.NB] = 1.0
    return sigma


def _br_cfv(deals: SampledDeals, kind: int, sigma, given, n: int, forced: bool, fine: bool = False) -> np.ndarray:
    nodes = (1 << n) - 1
    nbr = S.NBF if fine else S.NB
    cfv = np.zeros((nodes * nbr, 4))
    sig = np.zeros(1) if sigma is None else sigma
    giv = np.zeros((1, 1)) if given is None else given
    S.br_values(
        deals.pay,
        deals.bucket,
        deals.tips,
        giv,
        deals.weight,
        kind,
        sig,
        n,
        S.NB,
        forced,
        deals.fine if fine else deals.bucket,
        nbr,
        cfv,
    )
    return cfv


def bot_node_probs(bot_spec: str, rules: Rules, deals: SampledDeals, n: int, seed: int = 0) -> np.ndarray:
    """P(in) (0 or 1) per deal and node as a bot declares, asked through the engine (slow: one
    declaration per node and deal). Dealers and seats follow the kernel's deals (dealer = seat n-1
    here; positions are what matters)."""
    nodes = (1 << n) - 1
    out = np.zeros((len(deals), nodes))
    for i in range(len(deals)):
        hands = [[Card.from_index(int(c)) for c in deals.cards[i, p]] for p in range(n)]
        tu = Card.from_index(int(deals.turn_up[i]))
        for d in range(n):
            for h in range(1 << d):
                hand = Hand.from_cards(rules, [rules.starting_stack] * n, n - 1, hands, tu)
                for j in range(d):
                    hand.apply(Action.declare(j, bool((h >> j) & 1)))
                legal = hand.legal_actions()
                if len(legal) == 1:
                    out[i, (1 << d) - 1 + h] = 1.0 if legal[0] == Action.declare(d, True) else 0.0
                    continue
                bot = make_bot(bot_spec, seed=seed * 1_000_003 + i * 64 + d)
                a = bot.act(hand.observe(d))
                out[i, (1 << d) - 1 + h] = 1.0 if a == Action.declare(d, True) else 0.0
    return out


def _policy_kind(spec, rules: Rules, n: int):
    """(kind, sigma, bot spec, name) for a policy given as a Policy, a file, 'tips', 'equilibrium' or a bot."""
    forced = bool(rules.dealer_forced)
    if isinstance(spec, Policy):
        return 0, policy_sigma(spec, n, forced), None, "policy"
    if isinstance(spec, np.ndarray):
        return 0, spec, None, "policy"
    if spec == "tips":
        return 1, None, None, "tips"
    if spec == "equilibrium":
        pol = default_policy(rules, n)
        if pol is None:
            raise SolveError(f"no shipped equilibrium policy for these rules at {n} players; give a policy file")
        return 0, policy_sigma(pol, n, forced), None, "equilibrium"
    if os.path.exists(str(spec)) or str(spec).endswith(".json"):
        try:
            pol = load_policy(spec)
        except PolicyError as e:
            raise SolveError(str(e)) from None
        return 0, policy_sigma(pol, n, forced), None, str(spec)
    try:
        make_bot(str(spec), seed=0)
    except ValueError as e:
        raise SolveError(f"--exploit {spec!r}: not a policy file, 'tips', 'equilibrium' or a bot ({e})") from None
    return 2, None, str(spec), str(spec)


def exploit(
    spec,
    rules: Rules,
    n: int,
    seed: int = 0,
    br_deals: int = 200_000,
    eval_deals: int = 100_000,
    pot: int = 0,
    runner: Runner | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    br_sample: SampledDeals | None = None,
    eval_sample: SampledDeals | None = None,
    fine: bool = False,
) -> dict[str, Any]:
    """Estimate how many counters per hand a best-responding seat gains against ``spec`` (see the module text).

    Args:
        spec: a :class:`Policy`, a P(in) array per infoset, a policy file path, ``"tips"``, ``"equilibrium"``
            (the shipped policy) or a bot spec (asked through the engine at every node of every deal: slow,
            use small sizes; only the bot's declarations are taken, the cards are played by the tips play
            policy as for every policy here);
        br_deals: fresh deals to fit the best response on (hand numbers from :data:`BR_OFFSET`);
        eval_deals: fresh deals to measure it on (from :data:`EVAL_OFFSET`); br_sample / eval_sample:
            such samples already dealt (e.g. shared by several policies); fine: the responder sees finer
            buckets than the policy (:func:`ramsli.lab.solve_kernel.fine_bucket_of`).

    Returns:
        ``{"policy", "players", "exploitability": {"mean", "ci95"}, "per_position": [{"mean", "ci95"}, ...],
        "value": [counters per position under the policy], "br_deals", "eval_deals"}`` (counters per hand).

    Raises:
        SolveError: for a bad game, sizes, or policy.
    """
    check_game(rules, n)
    if br_deals < 1 or eval_deals < 2:
        raise SolveError("--br-deals must be >= 1 and --eval-deals >= 2")
    kind, sigma, bot, name = _policy_kind(spec, rules, n)
    forced = bool(rules.dealer_forced)
    nodes = (1 << n) - 1
    if br_sample is None:
        br_sample = deal_sample(
            rules,
            n,
            seed,
            BR_OFFSET,
            br_deals,
            pot,
            runner,
            progress=(lambda k: progress("deal", k, br_deals + eval_deals)) if progress else None,
        )
    if eval_sample is None:
        eval_sample = deal_sample(
            rules,
            n,
            seed,
            EVAL_OFFSET,
            eval_deals,
            pot,
            runner,
            progress=(lambda k: progress("deal", k, br_deals + eval_deals)) if progress else None,
        )
    giv_br = bot_node_probs(bot, rules, br_sample, n, seed) if kind == 2 else None
    giv_ev = bot_node_probs(bot, rules, eval_sample, n, seed + 1) if kind == 2 else None
    m = measure(kind, sigma, br_sample, eval_sample, n, forced, giv_br, giv_ev, fine=fine)
    return {
        "policy": name,
        "players": n,
        "rules": rules.diff(),
        "responder": "fine" if fine else "abstraction",
        **{k: v for k, v in m.items() if k != "br"},
        "seed": seed,
        "nodes": nodes,
        "abstraction": ABSTRACTION,
    }


def mean_ci(x: np.ndarray) -> dict[str, float]:
    """``{"mean", "ci95"}`` of a sample: its mean and the half-width of its 95% interval (normal)."""
    half = 1.96 * float(x.std(ddof=1)) / math.sqrt(len(x)) if len(x) > 1 else float("inf")
    return {"mean": float(x.mean()), "ci95": half}


def measure(
    kind: int,
    sigma,
    br_sample: SampledDeals,
    eval_sample: SampledDeals,
    n: int,
    forced: bool,
    given_br=None,
    given_eval=None,
    fine: bool = False,
) -> dict[str, Any]:
    """Fit a best response per position on ``br_sample`` and measure its gain on ``eval_sample``.

    ``kind`` 0: ``sigma`` is P(in) per infoset; 1: the tips policy; 2: P(in) per deal and node given
    (``given_br``, ``given_eval``). Returns ``exploitability`` (mean over positions; mean and 95% CI
    over the evaluation deals, weighted equally), ``per_position``, ``value`` (the policy's own
    counters per position), ``br`` (the best response, 1/0 per infoset), and the deal counts. With
    ``fine`` the responder sees the finer buckets (``SampledDeals.fine``), a check of the abstraction.
    """
    cfv = _br_cfv(br_sample, kind, sigma, given_br, n, forced, fine)
    br = (cfv[:, 0] > cfv[:, 1]).astype(np.float64)
    gain = np.empty((len(eval_sample), n))
    base = np.empty((len(eval_sample), n))
    S.eval_gain(
        eval_sample.pay,
        eval_sample.bucket,
        eval_sample.tips,
        np.zeros((1, 1)) if given_eval is None else given_eval,
        kind,
        np.zeros(1) if sigma is None else sigma,
        br,
        n,
        S.NB,
        forced,
        eval_sample.fine if fine else eval_sample.bucket,
        S.NBF if fine else S.NB,
        gain,
        base,
    )
    return {
        "exploitability": mean_ci(gain.mean(axis=1)),
        "per_position": [mean_ci(gain[:, d]) for d in range(n)],
        "value": [float(v) for v in base.mean(axis=0)],
        "br": br,
        "br_deals": len(br_sample),
        "eval_deals": len(eval_sample),
    }


# ---------------------------------------------------------------------------
# the player's question


def hand_advantage(
    policy: Policy,
    mine: Sequence[Card],
    turn_up: Card,
    position: int,
    history: int,
    samples: int = 20_000,
    seed: int = 0,
) -> dict[str, Any]:
    """The counters ``in`` gains over ``out`` for this very hand (not its bucket) at ``position`` (0-based)
    after ``history``, against everyone else playing ``policy``.

    The other hands are dealt at random from the unseen cards and weighted by how likely the policy
    makes the declarations before (their reach), so the estimate conditions on ``history``; the later
    seats declare by the policy. Returns ``{"mean", "ci95", "samples", "effective"}`` (counters; the
    interval is the ratio estimator's normal one; ``effective`` is the reach-weighted sample size).
    """
    rules, n = policy.rules, policy.players
    unknown = np.array(
        sorted(c.index for c in make_deck(rules.deck, rules.jokers) if c not in mine and c != turn_up), np.int64
    )
    pay = np.empty((samples, 1 << n, n), np.float32)
    bkt = np.empty((samples, n), np.int64)
    S.hand_tables(
        seed,
        0,
        samples,
        n,
        position,
        np.array([c.index for c in mine], np.int64),
        turn_up.index,
        unknown,
        K.base_deck(rules),
        K.pack_rules(rules),
        np.zeros(n, np.int64),
        np.full(n, policy.stacks, np.int64),
        policy.pot,
        pay,
        bkt,
        K._chunks(samples),
    )
    nodes = (1 << n) - 1
    reach = np.empty((samples, nodes))
    adv = np.empty((samples, nodes))
    pin = np.empty((samples, nodes))
    sigma = policy_sigma(policy, n, bool(rules.dealer_forced))
    S.node_advantages(pay, bkt, sigma, n, S.NB, bool(rules.dealer_forced), reach, adv, pin)
    node = node_index(position, history)
    r, a = reach[:, node], adv[:, node]
    w = r.sum()
    if w <= 0:
        return {"mean": float("nan"), "ci95": float("inf"), "samples": samples, "effective": 0.0}
    mean = float((r * a).sum() / w)
    half = 1.96 * float(np.sqrt(((r * (a - mean)) ** 2).sum())) / w
    return {"mean": mean, "ci95": half, "samples": samples, "effective": float(w * w / (r * r).sum())}


def ask(
    policy: Policy,
    cards: str,
    turn_up: str,
    position: int,
    before: Sequence[str] | None = None,
    ins_before: int | None = None,
    samples: int = 0,
    seed: int = 0,
) -> dict[str, Any]:
    """The equilibrium's answer for one hand: P(in) and the size of the mistake of the other choice.

    Args:
        policy: the policy; cards: five cards; turn_up: the turn-up; position: 1-based place in the
            declaration order (1 = the dealer's left, ``players`` = the dealer, R4.5);
        before: the declarations before, in order (``"in"``/``"out"``), or ``ins_before``: how many of
            them were in — then every order of them is answered.

    Returns:
        ``{"cards", "turn_up", "position", "bucket", "features", "answers": [{"before", "p_in",
        "advantage", "mistake"}]}``; ``advantage``: counters ``in`` gains over ``out`` for this bucket
        against the policy (negative: fold); ``mistake``: counters lost per such hand by the
        other choice (|advantage|).

    Raises:
        SolveError: for a bad hand or position, or ``before`` and ``ins_before`` both or neither given.
    """
    n = policy.players
    rules = policy.rules
    if not 1 <= position <= n:
        raise SolveError(f"--position {position}: allowed are 1..{n} (1 = the dealer's left, {n} = the dealer)")
    d = position - 1
    if (before is None) == (ins_before is None):
        raise SolveError("give either --before in,out,... or --ins-before K")
    if before is not None:
        histories = [[b.strip().lower() for b in before]]
    else:
        assert ins_before is not None  # exactly one of before and ins_before is given (checked above)
        if not 0 <= ins_before <= d:
            raise SolveError(f"--ins-before {ins_before}: allowed are 0..{d} at position {position}")
        histories = [["in" if j in c else "out" for j in range(d)] for c in combinations(range(d), ins_before)]
    answers = []
    mine = tu = None
    for hist in histories:
        try:
            mine, tu, bef = parse_query(cards, turn_up, n, d, hist, rules)
        except OddsError as e:
            raise SolveError(str(e)) from None
        b = bucket(mine, tu, rules)
        h = history_bits(bef)
        p = policy.prob_in(d, h, b)
        forced = rules.dealer_forced and d == n - 1 and h == 0
        adv = policy.advantage_of(d, h, b)
        ans = {
            "before": hist,
            "p_in": 1.0 if forced else p,
            "forced_in": forced,
            "advantage": adv,
            "mistake": None if adv is None or forced else abs(adv),
        }
        if samples > 0 and not forced:
            ans["hand"] = hand_advantage(policy, mine, tu, d, h, samples, seed)
        answers.append(ans)
    assert mine is not None and tu is not None  # there is always at least one history
    return {
        "cards": " ".join(str(c) for c in mine),
        "turn_up": str(tu),
        "position": position,
        "players": n,
        "bucket": bucket(mine, tu, rules),
        "features": dict(
            zip(
                ("trumps", "best_trump_class", "trumps_eff_rank_le1", "side_aces", "side_kings"),
                bucket_features(mine, tu, rules),
            )
        ),
        "answers": answers,
    }


def make_runner(scheduler: str | None, jobs: int = 1) -> Runner:
    """A :class:`DaskRunner` for ``scheduler`` (workers need the extra 'lab'), else a :class:`LocalRunner`."""
    if scheduler:
        return DaskRunner(scheduler, needs=LAB_PACKAGES)
    return LocalRunner(jobs)


__all__ += ["make_runner", "bot_node_probs"]
