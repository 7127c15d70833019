"""The report of ``ramsli solve --report docs/solve.md``: solve, measure, plot, write.

For each game of :data:`CONFIGS` it solves the declaration stage
(:func:`ramsli.lab.solve.solve`, keeping snapshots of the average strategy), deals
one sample of fresh deals to fit best responses on and another to measure them on,
and measures the exploitability of the tips policy, of the computed policy and of
every snapshot (convergence). For each game it then sets the seeds' declaration
tips beside the equilibrium: at every declaration the equilibrium reaches (weighted
by how often it is reached), which clause of the tips applies, what the tips say,
how often the equilibrium stays in, and what following the tip costs against the
best reply to the equilibrium. Plots go to a folder named like the report
(``docs/solve/``); policies, if asked, to ``policies_dir``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ramsli.analysis.tournament import run_tournament
from ramsli.lab import kernel as K
from ramsli.lab import solve as SV
from ramsli.lab import solve_kernel as S
from ramsli.lab.equilibrium import PLAY_BOT, load_policy, policy_from_json, save_policy
from ramsli.rules import Rules

__all__ = ["CONFIGS", "SIZES", "write_report", "render_report", "tips_clauses", "CLAUSES"]

#: (preset, players, carry-in pot) of the report. With an empty pot, pot-bete at 5 players is the
#: traditional game (the bete is the pot of 5 antes), so it is also solved after a carry-over of 5.
CONFIGS: tuple[tuple[str, int, int], ...] = (
    ("traditional", 3, 0),
    ("traditional", 4, 0),
    ("traditional", 5, 0),
    ("traditional", 6, 0),
    ("double-penalty", 5, 0),
    ("pot-bete", 5, 0),
    ("pot-bete", 5, 5),
)
#: sizes per number of players: solver deals, batch, iterations; best-response and evaluation deals
SIZES: dict[int, dict[str, int]] = {
    2: dict(deals=100_000, batch=10_000, iterations=500, br=200_000, eval=200_000),
    3: dict(deals=200_000, batch=20_000, iterations=500, br=300_000, eval=200_000),
    4: dict(deals=200_000, batch=20_000, iterations=500, br=300_000, eval=200_000),
    5: dict(deals=200_000, batch=20_000, iterations=500, br=300_000, eval=200_000),
    6: dict(deals=120_000, batch=12_000, iterations=500, br=150_000, eval=100_000),
}
CLAUSES = ("count", "path", "walkover", "no path")
_CLAUSE_TEXT = {
    "count": 'three or more in before and the hand not strong: out ("count the in declarations")',
    "path": "a realistic path to a trick (top trump, side ace, trump + side king, two trumps to the J): in",
    "walkover": 'one in before, no path but a trump or a side king: in ("do not hand a walkover")',
    "no path": 'no path to a trick: out ("three low non-trumps and a 7 of trump is a fold")',
}


def _features(deals: SV.SampledDeals) -> dict[str, np.ndarray]:
    """The tips policy's features per deal and position (R10; :mod:`ramsli.bots.tips`)."""
    c = deals.cards.astype(np.int64)
    suit = K._SUIT[c]
    rank = K._RANK[c]
    trump = K._SUIT[deals.turn_up.astype(np.int64)][:, None, None]
    t = (suit == trump) | (suit == 4)
    nt = t.sum(-1)
    top = (t & (rank >= 13)).sum(-1)
    aces = (~t & (rank == 14)).sum(-1)
    kings = (~t & (rank == 13)).sum(-1)
    hi = np.where(t, rank, 0).max(-1)
    path = (top >= 1) | (aces >= 1) | ((nt >= 1) & (kings >= 1)) | ((nt >= 2) & (hi >= 11))
    strong = (top + aces >= 2) | (nt >= 3)
    return dict(nt=nt, kings=kings, path=path, strong=strong)


def node_stats(deals: SV.SampledDeals, sigma: np.ndarray, n: int, forced: bool):
    """(reach, advantage of in over out, P(in)) per deal and node under the policy ``sigma``."""
    nodes = (1 << n) - 1
    reach = np.empty((len(deals), nodes))
    adv = np.empty((len(deals), nodes))
    pin = np.empty((len(deals), nodes))
    S.node_advantages(deals.pay, deals.bucket, sigma, n, S.NB, forced, reach, adv, pin)
    return reach, adv, pin


def tips_clauses(deals: SV.SampledDeals, sigma: np.ndarray, n: int, forced: bool) -> list[dict[str, Any]]:
    """The seeds' declaration tips beside the equilibrium ``sigma``, per position and clause of the tips.

    Returns one row per (position, clause) met: ``position`` (1 = the dealer's left), ``clause``,
    ``share`` (of that position's declarations, weighted by reach under the equilibrium),
    ``tips_in`` (the tips' answer), ``eq_in`` (the equilibrium's P(in)), ``holds`` (share of those
    declarations where the tips' answer is the better one against the equilibrium), ``cost``
    (counters per such declaration lost by following the tip instead of the better answer) and
    ``gain`` (counters per such declaration of the tip's answer over the other one).
    """
    reach, adv, pin = node_stats(deals, sigma, n, forced)
    f = _features(deals)
    rows = []
    for d in range(n):
        acc = {c: np.zeros(6) for c in CLAUSES}
        total = 0.0
        for h in range(1 << d):
            node = (1 << d) - 1 + h
            if forced and d == n - 1 and h == 0:
                continue
            k = bin(h).count("1")
            r = reach[:, node]
            a = adv[:, node]
            strong, path = f["strong"][:, d], f["path"][:, d]
            walk = (k == 1) & ((f["nt"][:, d] >= 1) | (f["kings"][:, d] >= 1))
            clause = np.where((k >= 3) & ~strong, 0, np.where(path, 1, np.where(walk, 2, 3)))
            tin = (clause == 1) | (clause == 2)
            tip_adv = np.where(tin, a, -a)  # the tip's answer over the other one
            total += r.sum()
            for ci, c in enumerate(CLAUSES):
                m = clause == ci
                w = r[m]
                acc[c] += [
                    w.sum(),
                    (w * pin[m, node]).sum(),
                    (w * (tip_adv[m] >= 0)).sum(),
                    (w * np.maximum(-tip_adv[m], 0)).sum(),
                    (w * tip_adv[m]).sum(),
                    (w * tin[m]).sum(),
                ]
        for c in CLAUSES:
            w, wp, wh, wc, wg, wt = acc[c]
            if w <= 0:
                continue
            rows.append(
                {
                    "position": d + 1,
                    "clause": c,
                    "share": w / total if total else 0.0,
                    "tips_in": wt / w,
                    "eq_in": wp / w,
                    "holds": wh / w,
                    "cost": wc / w,
                    "gain": wg / w,
                }
            )
    return rows


def _in_rates(deals: SV.SampledDeals, sigma: np.ndarray, n: int, forced: bool) -> list[float]:
    reach, _, pin = node_stats(deals, sigma, n, forced)
    out = []
    for d in range(n):
        lo, hi = (1 << d) - 1, (1 << (d + 1)) - 1
        out.append(float((reach[:, lo:hi] * pin[:, lo:hi]).sum() / len(deals)))
    return out


def _tips_in_rates(deals: SV.SampledDeals, n: int, forced: bool) -> list[float]:
    """The tips policy's own in-rate per position in tips self-play (declarations only)."""
    rates = np.zeros(n)
    for i in range(len(deals)):
        k = 0
        for d in range(n):
            go = deals.tips[i, d, k] == 1 or (forced and d == n - 1 and k == 0)
            rates[d] += go
            k += int(go)
    return list(rates / len(deals))


def _heat(deals: SV.SampledDeals, sigma: np.ndarray, n: int, forced: bool):
    """P(in) by (best trump class, trumps) per position, for nobody in before and one in before."""
    reach, _, pin = node_stats(deals, sigma, n, forced)
    nt = deals.bucket // (5 * 27)
    bc = (deals.bucket // 27) % 5
    out = np.full((2, n, 5, 6), np.nan)
    for row, k in enumerate((0, 1)):
        for d in range(n):
            num = np.zeros((5, 6))
            den = np.zeros((5, 6))
            for h in range(1 << d):
                if bin(h).count("1") != k:
                    continue
                node = (1 << d) - 1 + h
                r = reach[:, node]
                np.add.at(num, (bc[:, d], nt[:, d]), r * pin[:, node])
                np.add.at(den, (bc[:, d], nt[:, d]), r)
            with np.errstate(invalid="ignore"):
                out[row, d] = np.where(den > 1e-9 * len(deals), num / np.maximum(den, 1e-300), np.nan)
    return out


def _hands_plot(folder: Path, heat: np.ndarray, n_heat: int) -> None:
    """``hands.png``: P(in) of the equilibrium per position, trumps held and best trump."""
    import matplotlib.pyplot as plt

    rows = ("nobody in before", "one in before")
    fig, axes = plt.subplots(2, n_heat, figsize=(2.3 * n_heat, 4.8), sharey=True)
    for row in range(2):
        for d in range(n_heat):
            ax = axes[row, d]
            im = ax.imshow(heat[row, d], vmin=0, vmax=1, cmap="RdYlGn", origin="lower", aspect="auto")
            for (yy, xx), v in np.ndenumerate(heat[row, d]):
                if not np.isnan(v):
                    ax.text(xx, yy, f"{v:.0%}"[:-1], ha="center", va="center", fontsize=6)
            ax.set_xticks(range(6))
            ax.set_yticks(range(5), ["none", "top", "2nd", "3rd", "lower"])
            if row == 1:
                ax.set_xlabel("trumps held")
            if d == 0:
                ax.set_ylabel(f"{rows[row]}\nbest trump")
            if row == 0:
                ax.set_title(f"position {d + 1}" + (" (dealer)" if d == n_heat - 1 else ""), fontsize=9)
    fig.colorbar(im, ax=axes, shrink=0.7, label="P(in), %")
    fig.suptitle("Where the equilibrium stays in (traditional, 5 players; best trump by effective rank)", fontsize=10)
    fig.savefig(folder / "hands.png", dpi=110)
    plt.close(fig)


def _plots(folder: Path, results: list[dict], heat: np.ndarray | None, clause_rows: list[dict], n_heat: int) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    # convergence
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for r in results:
        its = [s["iterations"] for s in r["snapshots"]]
        m = [s["exploitability"]["mean"] for s in r["snapshots"]]
        ci = [s["exploitability"]["ci95"] for s in r["snapshots"]]
        (line,) = ax.plot(
            its,
            m,
            marker="o",
            ms=3,
            label=f"{r['preset']} {r['players']}p" + (f" pot {r['pot']}" if r.get("pot") else ""),
        )
        ax.fill_between(its, np.array(m) - ci, np.array(m) + ci, color=line.get_color(), alpha=0.15)
        ax.axhline(r["tips"]["exploitability"]["mean"] / 10, color=line.get_color(), ls=":", lw=0.8)
    ax.set_xscale("log")
    ax.set_yscale("symlog", linthresh=1e-3)
    ax.axhline(0, color="k", lw=0.5)
    ax.set_xlabel("CFR+ iterations")
    ax.set_ylabel("exploitability (counters per hand)")
    ax.set_title("Convergence (dotted: a tenth of the tips policy's)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(folder / "convergence.png", dpi=110)
    plt.close(fig)
    # exploitability per policy
    fig, ax = plt.subplots(figsize=(7, 4.2))
    x = np.arange(len(results))
    for j, (key, label) in enumerate((("tips", "tips"), ("equilibrium", "equilibrium (computed)"))):
        m = [r[key]["exploitability"]["mean"] for r in results]
        ci = [r[key]["exploitability"]["ci95"] for r in results]
        ax.bar(x + (j - 0.5) * 0.38, m, 0.38, yerr=ci, capsize=3, label=label)
        for xi, v in zip(x, m):
            ax.text(xi + (j - 0.5) * 0.38, max(v, 0) + 0.01, f"{v:.3f}", ha="center", fontsize=7)
    ax.set_xticks(
        x,
        [f"{r['preset']}\n{r['players']}p" + (f" pot {r['pot']}" if r.get("pot") else "") for r in results],
        fontsize=7,
    )
    ax.set_ylabel("counters per hand a best response gains")
    ax.set_title("Exploitability per policy (95% CI)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(folder / "exploitability.png", dpi=110)
    plt.close(fig)
    if heat is not None:
        _hands_plot(folder, heat, n_heat)
    # tips beside the equilibrium
    fig, axes = plt.subplots(1, len(CLAUSES), figsize=(11, 3.4), sharey=True)
    for ax, c in zip(axes, CLAUSES):
        rs = [r for r in clause_rows if r["clause"] == c]
        pos = [r["position"] for r in rs]
        ax.bar(np.array(pos) - 0.2, [r["tips_in"] for r in rs], 0.4, label="tips: in")
        ax.bar(np.array(pos) + 0.2, [r["eq_in"] for r in rs], 0.4, label="equilibrium: P(in)")
        ax.set_title(c, fontsize=9)
        ax.set_xlabel("position")
        ax.set_ylim(0, 1.05)
    axes[0].set_ylabel("in-rate")
    axes[0].legend(fontsize=7)
    fig.suptitle("The seeds' declaration tips beside the equilibrium (traditional, 5 players)", fontsize=10)
    fig.tight_layout()
    fig.savefig(folder / "tips.png", dpi=110)
    plt.close(fig)


def _game(r: dict) -> str:
    return f"{r['preset']}, {r['players']} players" + (f", carry-in pot {r['pot']}" if r.get("pot") else "")


def _fmt(s: dict, digits: int = 4) -> str:
    return f"{s['mean']:+.{digits}f} ± {s['ci95']:.{digits}f}"


def write_report(
    path: str | Path,
    seed: int = 0,
    scheduler: str | None = None,
    quiet: bool = False,
    configs: Sequence[tuple[str, int, int]] = CONFIGS,
    sizes: dict[int, dict[str, int]] | None = None,
    policies_dir: str | Path | None = None,
    duplicate_deals: int = 0,
    command: str = "ramsli solve --report docs/solve.md",
) -> dict[str, Any]:
    """Run the measurements and write the report to ``path`` with its plots in ``path``'s stem folder.

    Args:
        seed: the seed of every solve and sample; configs: the games; sizes: per players, the sizes
            (default :data:`SIZES`); policies_dir: write each computed policy there as
            ``PRESET-N.json``; duplicate_deals: deals of the duplicate matches of the ``equilibrium`` bot
            (0: none); command: the command named at the top of the report.

    Returns:
        the measured numbers (also written as ``path``'s stem folder ``/results.json``).

    Raises:
        SolveError, ClusterError, OSError.
    """
    sizes = sizes or SIZES
    path = Path(path)
    folder = path.with_suffix("")
    folder.mkdir(parents=True, exist_ok=True)
    t_start = time.perf_counter()
    say = (lambda m: None) if quiet else (lambda m: print(m, flush=True))
    results: list[dict[str, Any]] = []
    heat: np.ndarray | None = None
    n_heat = 0
    clause_rows: list[dict] = []
    all_clauses: dict[str, list[dict]] = {}
    with SV.make_runner(scheduler) as runner:
        for preset, n, pot in configs:
            z = sizes[n]
            rules = Rules.preset(preset)
            forced = bool(rules.dealer_forced)
            t0 = time.perf_counter()
            snaps = sorted({int(x) for x in np.unique(np.geomspace(1, z["iterations"], 9).round())})
            sol = SV.solve(
                rules,
                n,
                iterations=z["iterations"],
                seed=seed,
                deals=z["deals"],
                batch=z["batch"],
                pot=pot,
                snapshot_at=snaps,
                runner=runner,
                finish_deals=z["br"] // 2,
            )
            t_solve = time.perf_counter() - t0
            if policies_dir is not None and pot == 0:
                Path(policies_dir).mkdir(parents=True, exist_ok=True)
                save_policy(sol.policy, Path(policies_dir) / f"{preset}-{n}.json")
            brs = SV.deal_sample(rules, n, seed, SV.BR_OFFSET, z["br"], pot, runner)
            evs = SV.deal_sample(rules, n, seed, SV.EVAL_OFFSET, z["eval"], pot, runner)
            tips = SV.measure(1, None, brs, evs, n, forced)
            eq = SV.measure(0, sol.sigma, brs, evs, n, forced)
            always = SV.measure(0, np.ones_like(sol.sigma), brs, evs, n, forced)
            tips_f = SV.measure(1, None, brs, evs, n, forced, fine=True)
            eq_f = SV.measure(0, sol.sigma, brs, evs, n, forced, fine=True)
            snap_res = [
                {"iterations": t, **{k: v for k, v in SV.measure(0, s, brs, evs, n, forced).items() if k != "br"}}
                for t, s in sorted(sol.snapshots.items())
            ]
            rows = tips_clauses(evs, sol.sigma, n, forced)
            all_clauses[f"{preset}-{n}" + (f"-pot{pot}" if pot else "")] = rows
            r: dict[str, Any] = {
                "preset": preset,
                "players": n,
                "pot": pot,
                "sizes": z,
                "solve_seconds": t_solve,
                "seconds": time.perf_counter() - t0,
                "tips": {k: v for k, v in tips.items() if k != "br"},
                "equilibrium": {k: v for k, v in eq.items() if k != "br"},
                "always_in": {k: v for k, v in always.items() if k != "br"},
                "tips_fine": {k: v for k, v in tips_f.items() if k != "br"},
                "equilibrium_fine": {k: v for k, v in eq_f.items() if k != "br"},
                "snapshots": snap_res,
                "eq_in_rate": _in_rates(evs, sol.sigma, n, forced),
                "tips_in_rate": _tips_in_rates(evs.part(0, min(len(evs), 20_000)), n, forced),
            }
            if preset == "traditional" and n == 5 or heat is None and n == max(c[1] for c in configs) and not pot:
                heat = _heat(evs, sol.sigma, n, forced)
                clause_rows = rows
                n_heat = n
                ask_policy = policy_from_json(sol.policy.to_json())  # as written to the file
            results.append(r)
            e, t_ = r["equilibrium"]["exploitability"], r["tips"]["exploitability"]
            say(f"{preset} {n}p pot {pot}: tips {_fmt(t_)}, equilibrium {_fmt(e)} ({r['seconds']:.0f} s)")
    duplicate = []
    if duplicate_deals > 0:
        for seat, other in (
            ("equilibrium", "montecarlo"),
            ("equilibrium", "tips"),
            ("equilibrium:play=tips", "tips"),
            ("montecarlo", "tips"),
        ):
            res = run_tournament([seat] + [other] * 4, Rules(), duplicate_deals, seed=seed, duplicate=True)
            per = np.array(res.per_deal, float)
            diff = per[:, 0] - per[:, 1:].mean(axis=1)
            d = res.to_dict()
            duplicate.append({"seat": seat, "opponents": other, "difference": SV.mean_ci(diff), **d})
            say(f"duplicate {seat} vs {other}: {d['bots'][0]['mean']:+.3f}, difference {_fmt(SV.mean_ci(diff), 3)}")
    _plots(folder, results, heat, clause_rows, n_heat)
    data = {
        "seed": seed,
        "results": results,
        "clauses": all_clauses,
        "duplicate": duplicate,
        "play_bot": PLAY_BOT,
        "seconds": time.perf_counter() - t_start,
    }
    (folder / "results.json").write_text(json.dumps(data, indent=1, default=float) + "\n", encoding="utf-8")
    path.write_text(_markdown(data, folder.name, _answers(ask_policy, seed), command), encoding="utf-8")
    return data


def _answers(policy, seed: int) -> list[dict]:
    """The report's worked question: 9S KH 8D 7C 9C, third to speak after one in, every trump suit."""
    return [
        SV.ask(policy, "9S KH 8D 7C 9C", tu, position=3, ins_before=1, samples=20_000, seed=seed)
        for tu in ("7S", "7H", "7D", "8C")
    ]


def render_report(
    path: str | Path, policy_file: str | Path, command: str = "ramsli solve --report docs/solve.md"
) -> None:
    """Write the report's Markdown again from its ``results.json`` (no measuring; the plots are kept),
    with the worked question answered by ``policy_file``."""
    path = Path(path)
    folder = path.with_suffix("")
    data = json.loads((folder / "results.json").read_text(encoding="utf-8"))
    path.write_text(
        _markdown(data, folder.name, _answers(load_policy(policy_file), data["seed"]), command), encoding="utf-8"
    )


def _markdown(data: dict, folder: str, answers: list[dict], command: str) -> str:
    res = data["results"]
    L = [
        "# The in/out question, solved: a declaration equilibrium and its exploitability",
        "",
        f"Generated by `{command}` (seed {data['seed']}, {data['seconds'] / 60:.0f} min on the shared 2-core "
        f"machine); the numbers are also in [`{folder}/results.json`]({folder}/results.json). Code: "
        "`ramsli.lab.solve` (solver, exploitability), `ramsli.lab.solve_kernel` (Numba), "
        "`ramsli.lab.equilibrium` (policy files, buckets, the `equilibrium` bot), `ramsli.lab.solve_report`.",
        "",
        "## What is solved",
        "",
        "One hand of Ramsli from stacks of 20 and an empty pot: the seats declare in or out in order from the "
        "dealer's left (R4.5, the dealer forced in when everyone before is out); the cards — and General Rams "
        "and targets where those options are on — are played by the batch kernel's fixed **`tips` play "
        "policy**. A seat's payoff is its stack after the hand minus before the ante (counters); counters left "
        "in the pot for later hands count for nobody. **Not covered:** General Rams and target announcements "
        "(they follow the tips policy), card play (fixed), carry-in pots other than `--pot`, and compulsory "
        "Ramsli (nothing to declare).",
        "",
        "**Abstraction.** A seat knows its hand, the turn-up and the declarations before it. The history is kept "
        "whole; the hand is bucketed by the features the seeds' tips reason with, made turn-up aware: trumps "
        "held (0–5); the *effective rank* of the best trump (how many higher trumps are neither in the hand nor "
        "the turn-up: top, 2nd, 3rd, lower, none); how many trumps have effective rank 0–1; side aces (0, 1, "
        "2+); side kings (0, 1, 2+) — 810 buckets. The effective rank is what makes a king of trump under a "
        "turned-up ace a top trump. Suits other than trump are not told apart (voids and guards are not "
        "seen): a finer abstraction would need more deals per bucket than two shared cores give.",
        "",
        "**Algorithm.** CFR+ (regret matching+, linear averaging) with chance sampling: the kernel deals a "
        "sample of deals and plays each under all 2^n declaration masks; each iteration updates the regrets "
        "over one block of the sample. Infosets the average strategy never reaches take the best reply to it. "
        "With more than two seats CFR carries no guarantee of reaching a Nash equilibrium, so the result is "
        "judged by its measured exploitability.",
        "",
        "**Exploitability.** Per position, a best response to the others playing the policy is fitted on one "
        "sample of fresh deals — *within the abstraction*: it sees only its bucket and the history — and its "
        "gain is measured on another sample of fresh deals; reported is the mean over the positions (a player "
        "sitting at every position in turn), with a 95% interval over deals. The best response is therefore "
        "a conservative estimate: a responder who sees more than the bucket could gain more.",
        "",
        "## Exploitability per policy",
        "",
        "| game | tips | computed equilibrium | ratio | always in | deals (solve / fit / measure) | time |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in res:
        t, e, a = (r[k]["exploitability"] for k in ("tips", "equilibrium", "always_in"))
        ratio = e["mean"] / t["mean"] if t["mean"] > 0 else float("nan")
        z = r["sizes"]
        L.append(
            f"| {_game(r)} | {_fmt(t)} | {_fmt(e)} | {ratio:.3f} | "
            f"{a['mean']:+.3f} | {z['deals']:,} / {z['br']:,} / {z['eval']:,} | {r['seconds']:.0f} s |"
        )
    L += [
        "",
        "Counters per hand a best-responding seat gains (95% CI). The aim was the computed policy at "
        "most a tenth of the tips policy's: the *ratio* column. `always in` (everyone always in) is a "
        "baseline. With an empty carry-in pot, `pot-bete` at 5 players *is* `traditional` (the bete is the "
        "pot of five antes, 5 counters), so those two rows agree to the last digit; with a carry-in pot of 5 "
        "(the pot after one bete) the bete is 10 and the game differs. The shipped policies are those solved "
        "for an empty pot.",
        "",
        "**A responder who sees more.** The same measurement with a best response that sees a finer "
        "abstraction than the policy — every bucket split by the side-suit voids (0, 1, 2+) and the second "
        "trump's effective rank (12 times as many buckets) — bounds how much the abstraction itself hides. "
        "It is fitted on the same deals, so it is noisier (more infosets, fewer deals each):",
        "",
        "| game | tips, finer responder | equilibrium, finer responder | ratio |",
        "| --- | ---: | ---: | ---: |",
    ]
    for r in res:
        t, e = r["tips_fine"]["exploitability"], r["equilibrium_fine"]["exploitability"]
        ratio = e["mean"] / t["mean"] if t["mean"] > 0 else float("nan")
        L.append(f"| {_game(r)} | {_fmt(t)} | {_fmt(e)} | {ratio:.3f} |")
    L += [
        "",
        f"![exploitability]({folder}/exploitability.png)",
        "",
        "## Convergence",
        "",
        f"![convergence]({folder}/convergence.png)",
        "",
        "Exploitability of the average strategy after each number of iterations, measured on the same "
        "fresh deals as above.",
        "",
        "## Which hands the equilibrium plays, by position",
        "",
        f"![hands]({folder}/hands.png)",
        "",
        "P(in) of the equilibrium (traditional, 5 players), weighted by how often each hand meets each history, "
        "by the best trump's effective rank and the number of trumps (side aces and kings pooled).",
        "",
        "| game | in-rate by position (equilibrium) | in-rate by position (tips, self-play) |",
        "| --- | --- | --- |",
    ]
    for r in res:
        L.append(
            f"| {_game(r)} | {' '.join(f'{x:.0%}' for x in r['eq_in_rate'])} | "
            f"{' '.join(f'{x:.0%}' for x in r['tips_in_rate'])} |"
        )
    L += [
        "",
        "## The seeds' tips beside the equilibrium",
        "",
        "Every declaration the equilibrium reaches is put under the clause of the tips that decides it "
        "(`ramsli.bots.tips`):",
        "",
    ]
    for c in CLAUSES:
        L.append(f"- **{c}**: {_CLAUSE_TEXT[c]}")
    L += [
        "",
        "*share*: of that position's declarations; *tips*: the tips' answer; *equilibrium*: its P(in); "
        "*holds*: the share of those declarations where the tip's answer is the better one against the "
        "equilibrium; *tip's edge*: counters per declaration the tip's answer gains over the other one (negative: "
        "the tip is wrong on average); *cost*: counters per declaration lost by following the tip instead of "
        "the better answer.",
        "",
        f"![tips]({folder}/tips.png)",
        "",
    ]
    key5 = "traditional-5" if "traditional-5" in data["clauses"] else next(iter(data["clauses"]))
    L += [
        f"**In short** ({key5.replace('-', ', ', 1)} players, all positions together, weighted by how often "
        "each clause decides):",
        "",
    ]
    for c in CLAUSES:
        rows = [r for r in data["clauses"][key5] if r["clause"] == c]
        w = sum(r["share"] for r in rows)
        if w <= 0:
            continue
        avg = {k: sum(r[k] * r["share"] for r in rows) / w for k in ("holds", "gain", "cost", "eq_in", "tips_in")}
        verdict = (
            "**does not hold**: on average the other answer is better"
            if avg["gain"] < 0
            else "**holds**"
            if avg["holds"] >= 0.75
            else "**holds on average**, with many exceptions"
        )
        L.append(
            f"- *{c}* (tips: {'in' if avg['tips_in'] > 0.5 else 'out'}; the equilibrium is in "
            f"{avg['eq_in']:.0%} of the time): {verdict} — the tip's answer is the better one in "
            f"{avg['holds']:.0%} of these declarations, gains {avg['gain']:+.2f} counters over the other "
            f"answer, and following it costs {avg['cost']:.2f} counters per declaration against the best answer."
        )
    L.append("")
    for r0 in res:
        key = f"{r0['preset']}-{r0['players']}" + (f"-pot{r0['pot']}" if r0["pot"] else "")
        rows = data["clauses"][key]
        L += [
            f"### {_game(r0)}",
            "",
            "| position | clause | share | tips | equilibrium | holds | tip's edge | cost |",
            "| ---: | --- | ---: | ---: | ---: | ---: | ---: | ---: |",
        ]
        for r in rows:
            if r["share"] < 0.001:
                continue
            L.append(
                f"| {r['position']} | {r['clause']} | {r['share']:.1%} | {'in' if r['tips_in'] > 0.5 else 'out'}"
                f" | {r['eq_in']:.0%} | {r['holds']:.0%} | {r['gain']:+.2f} | {r['cost']:.2f} |"
            )
        L.append("")
    L += [
        "Tips 3–5 of `docs/tips.md` are about card play, which is fixed here; tip 6 (General Rams) is not "
        'solved. Tip 7 ("fold 90% of the time") is the in-rate table above.',
        "",
        "## The player's question: stay in, third to speak, after one in?",
        "",
        '`ramsli solve --ask "9S KH 8D 7C 9C" --position 3 --ins-before 1` (5 players, traditional; without '
        "`--turn-up` every trump suit is answered, its lowest card not in the hand turned up):",
        "",
        "| turn-up | before | equilibrium (bucket) | P(in) | the other choice costs (bucket) | "
        "this very hand: in − out |",
        "| --- | --- | --- | ---: | ---: | ---: |",
    ]
    for a in answers:
        for x in a["answers"]:
            verdict = "stay in" if x["p_in"] >= 0.5 else "fold"
            cost = "" if x["mistake"] is None else f"{x['mistake']:.2f} counters"
            hand = x.get("hand")
            exact = "" if not hand else f"{hand['mean']:+.2f} ± {hand['ci95']:.2f}"
            L.append(f"| {a['turn_up']} | {','.join(x['before'])} | {verdict} | {x['p_in']:.0%} | {cost} | {exact} |")
    L += [
        "",
        "The policy answers by the hand's bucket; *the other choice costs* is the bucket's average "
        "against the equilibrium: what a seat holding such a hand there loses per hand by the other choice. "
        "*This very hand* samples 20,000 deals of the other cards with these five cards fixed, weighted by "
        "how likely the equilibrium makes the declarations before, the later seats declaring by it "
        "(`ramsli.lab.solve.hand_advantage`; `--samples` of `--ask`): positive means in is better.",
        "",
    ]
    split = sorted(
        {
            a["turn_up"]
            for a in answers
            for x in a["answers"]
            if x.get("hand")
            and abs(x["hand"]["mean"]) > x["hand"]["ci95"]
            and (x["hand"]["mean"] > 0) != (x["p_in"] >= 0.5)
        }
    )
    if split:
        L += [
            f"Where the two disagree (turn-up {', '.join(split)}), this hand is weaker or stronger than its "
            "bucket's average — the price of the abstraction, shown rather than hidden.",
            "",
        ]
    if data["duplicate"]:
        L += [
            "## The `equilibrium` bot in duplicate",
            "",
            "One seat against four of the same opponent, every deal in every rotation (traditional, 5 players, "
            f"the shipped policy); the `equilibrium` bot plays cards like `{data.get('play_bot', 'montecarlo')}` "
            "(`ramsli.lab.equilibrium.PLAY_BOT`; `equilibrium:play=tips` plays like tips). Every seat loses "
            "counters on average (betes go to later pots), so what counts is the *difference*: the seat's "
            "counters per hand minus the opponents' average, per deal, with its 95% interval.",
            "",
            "| seat | opponents | deals | seat: counters per hand | opponents: counters per hand | difference |",
            "| --- | --- | ---: | ---: | ---: | ---: |",
        ]
        for d in data["duplicate"]:
            b = d["bots"]
            L.append(
                f"| `{d['seat']}` | `{d['opponents']}` | {d['deals']} | {b[0]['mean']:+.3f} ± {b[0]['ci95']:.3f} | "
                f"{np.mean([x['mean'] for x in b[1:]]):+.3f} | {_fmt(d['difference'], 3)} |"
            )
        L += [
            "",
            "The equilibrium is solved against tips card play; against `montecarlo`, who plays its cards "
            "better, it has not been re-solved (the play policy of the solver is the kernel's tips).",
            "",
        ]
    L += [
        "## Reproduce",
        "",
        f"    {command}",
        "",
        "Each game alone: `ramsli solve --preset P --players N --iterations T --deals D --batch B --out F.json`, "
        "then `ramsli solve --preset P --players N --exploit F.json` (or `--exploit tips`). The same seed gives "
        "the same policy, locally, with `--jobs`, or on a Dask cluster (`--scheduler tcp://…`); "
        "`--checkpoint F.npz` / `--resume` continue a long run with the same result.",
        "",
    ]
    return "\n".join(L)
