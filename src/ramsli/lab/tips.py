"""The original rules' "Tips and Strategy" in numbers (``ramsli tips``).

:func:`build_report` measures every claim of the Tips section of the original
rule texts (RULES.md calls them the seeds, ``rules-en.txt``) with the batch kernel and the ``tips`` policy
(:class:`ramsli.bots.tips.TipsBot`, as the kernel plays it) as the table, and writes a Markdown report with PNG
charts (matplotlib, Agg). Every number comes from seeded simulation: the same
seed and counts give the same report.

Wording rule: a verdict is drawn only when the 95% interval excludes 0 (else "no
measurable difference at this sample size"), and never from fewer than
:data:`MIN_EVENTS` events (the count is given and the sample called too small).
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ramsli.lab import kernel as K
from ramsli.lab import warmup
from ramsli.lab.limits import atomic_output
from ramsli.lab.odds import estimate
from ramsli.rules import Rules

__all__ = ["build_report", "paired_variant", "sign", "MIN_EVENTS", "GR_MAX_HANDS"]

#: fewest events (e.g. General Rams announcements) a conclusion is drawn from
MIN_EVENTS = 100
#: most hands played to find MIN_EVENTS General Rams announcements
GR_MAX_HANDS = 5_000_000
NO_DIFF = "no measurable difference at this sample size"


def sign(mean: float, ci95: float) -> int:
    """+1 if the 95% interval ``mean ± ci95`` lies above 0, -1 if below, 0 if it includes 0."""
    if mean - ci95 > 0:
        return 1
    if mean + ci95 < 0:
        return -1
    return 0


def _s(v: dict) -> int:
    return sign(v["mean"], v["ci95"])


def paired_variant(rules: Rules, n: int, hands: int, seed: int, variant: int, seat: int = 0) -> dict:
    """Counters per hand of ``seat`` playing the tips policy with ``variant`` against the plain tips
    policy, on the same deals and decision tables (paired, so the difference is sharp).

    Returns ``{"diff", "ci95", "changed"}``: mean difference (variant - plain) per hand, its 95% CI,
    and the share of hands whose result for ``seat`` changed.
    """
    var = np.zeros(n, np.int64)
    var[seat] = variant
    a = K.play_batch(rules, n, hands, seed=seed, policy=K.TIPS)
    b = K.play_batch(rules, n, hands, seed=seed, policy=K.TIPS, variant=var)
    d = (b.stacks[:, seat] - a.stacks[:, seat]).astype(float)
    changed = d != 0
    return {
        "diff": float(d.mean()),
        "ci95": 1.96 * float(d.std(ddof=1)) / np.sqrt(len(d)),
        "changed": float(changed.mean()),
        "diff_when_changed": float(d[changed].mean()) if changed.any() else 0.0,
    }


def _fmt(x: dict | None) -> str:
    if x is None:
        return "n/a"
    return f"{x['mean']:+.2f} ± {x['ci95']:.2f}"


def build_report(
    out: str = "tips.md", hands: int = 200_000, seed: int = 0, odds_time: float = 1.0, progress=None, note=None
) -> dict:
    """Measure the claims and write ``out`` (Markdown) with charts under ``<out dir>/tips/``.

    Args:
        out: the Markdown file; hands: hands per simulated claim; seed: ≥ 0;
        odds_time: seconds per single-hand odds estimate; progress: ``progress(step, total)``;
        note: called with a one-line message before the kernel's one-time compile (Numba,
        :func:`ramsli.lab.warmup.wait_for_kernel`).

    Returns:
        the measured numbers (dict).
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    warmup.wait_for_kernel(K.KINDS, note)  # compiled once in a child process if the cache is cold
    t0 = time.perf_counter()
    outp = Path(out)
    chart_dir = outp.parent / "tips"
    chart_dir.mkdir(parents=True, exist_ok=True)
    steps = 8
    step = 0

    def tick():
        nonlocal step
        step += 1
        if progress:
            progress(step, steps)

    r = Rules()
    res: dict = {}
    ob = int(min(20000, max(500, hands // 10)))  # odds batch size
    # 1 stay in only with a path; three low side cards and the 7 of trump is a fold
    hands_q = {
        "three low side cards + 7 of trump (9H 8D 8C 9C 7S)": "9H 8D 8C 9C 7S",
        "three low side cards + 7 and 8 of trump (9H 8D 9C 8S 7S)": "9H 8D 9C 8S 7S",
        "a side ace, rest low (AH 8D 8C 9C 7S)": "AH 8D 8C 9C 7S",
        "a top trump, rest low (KS 8D 8C 9C 9H)": "KS 8D 8C 9C 9H",
        "trump + side king (7S KH 8D 8C 9C)": "7S KH 8D 8C 9C",
    }
    q1 = {}
    for label, cards in hands_q.items():
        q1[label] = estimate(
            cards,
            "TS" if "TS" not in cards else "QS",
            5,
            0,
            "",
            r,
            bot="tips",
            time_s=odds_time,
            precision=0.02,
            seed=seed,
            batch=ob,
        )
    res["stay_in"] = q1
    tick()
    # 2 count the in declarations; the walkover remark
    mediocre = "AH 9D 8C 9C 7S"
    q2 = {
        "fourth to declare, nobody in before": estimate(
            mediocre, "TS", 5, 3, "out,out,out", r, time_s=odds_time, precision=0.02, seed=seed, batch=ob
        ),
        "fourth to declare, one in before": estimate(
            mediocre, "TS", 5, 3, "in,out,out", r, time_s=odds_time, precision=0.02, seed=seed, batch=ob
        ),
        "fourth to declare, three in before": estimate(
            mediocre, "TS", 5, 3, "in,in,in", r, time_s=odds_time, precision=0.02, seed=seed, batch=ob
        ),
    }
    weak = "9H 8D 8C 9C 7S"
    q2w = {
        "dealer, one in before (walkover if out)": estimate(
            weak, "TS", 5, 4, "in,out,out,out", r, time_s=odds_time, precision=0.02, seed=seed, batch=ob
        ),
        "dealer, two in before": estimate(
            weak, "TS", 5, 4, "in,in,out,out", r, time_s=odds_time, precision=0.02, seed=seed, batch=ob
        ),
    }
    res["count_ins"] = q2
    res["walkover"] = q2w
    tick()
    # 3 lead trumps with strong trump length; 4 hold back a sole ace
    res["trump_lead"] = paired_variant(r, 5, hands, seed, K.VAR_NO_TRUMP_LEAD)
    tick()
    res["ace_early"] = paired_variant(r, 5, hands, seed, K.VAR_ACE_EARLY)
    tick()
    # 6 General Rams shape
    # the shape is rare (about 1 hand in 2,000): play on until MIN_EVENTS announcements (or GR_MAX_HANDS)
    gr_rules = Rules.preset("general-rams")
    made_l, gain_l, without_l = [], [], []
    played = 0
    while True:
        m = hands * 5 if played == 0 else min(max(hands * 5, 200_000), GR_MAX_HANDS - played)
        b = K.play_batch(gr_rules, 5, m, seed=seed, start=played, policy=K.TIPS)
        # the same deals without the announcement: the announcer's counters under traditional play
        b0 = K.play_batch(r, 5, m, seed=seed, start=played, policy=K.TIPS)
        rows = np.nonzero(b.gr >= 0)[0]
        who = b.gr[rows]
        made_l.extend((b.tricks[rows, who] == 5).tolist())
        gain_l.extend((b.stacks[rows, who] - b.stacks0[who]).tolist())
        without_l.extend((b0.stacks[rows, who] - b0.stacks0[who]).tolist())
        played += m
        if len(gain_l) >= MIN_EVENTS or played >= GR_MAX_HANDS:
            break
    gain = np.asarray(gain_l, float)
    diff = gain - np.asarray(without_l, float)
    k = len(gain)
    res["general_rams"] = {
        "hands": played,
        "announced": k,
        "made": float(np.mean(made_l)) if k else 0.0,
        "counters_when_announced": float(gain.mean()) if k else 0.0,
        "counters_same_hands_without": float(np.mean(without_l)) if k else 0.0,
        "diff": float(diff.mean()) if k else 0.0,
        "diff_ci95": 1.96 * float(diff.std(ddof=1)) / np.sqrt(k) if k > 1 else float("inf"),
    }
    tick()
    # 7 fold 90%: tight play at 3, 5, 6 players (seat 0 tight, the others tips), sessions of play
    tight = {}
    for n in (3, 5, 6):
        var = np.zeros(n, np.int64)
        var[0] = K.VAR_TIGHT
        bt = K.play_batch(r, n, hands, seed=seed, policy=K.TIPS, variant=var)
        ins = bt.decl[:, 0] == 1
        won = ins & (bt.stacks[:, 0] > bt.stacks0[0] - r.ante)  # took a pot share (or more)
        d = (bt.stacks[:, 0] - bt.stacks0[0]).astype(float)
        # sessions: the carry-over makes pots bigger; counters per hand over whole sessions
        ss = K.play_sessions(r, n, max(200, hands // 200), seed=seed, policy=K.TIPS, variant=var)
        per_hand = float(ss["seat_delta"][:, 0].sum() / ss["n_hands"].sum())
        tight[n] = {
            "in_rate": float(ins.mean()),
            "win_when_in": float(won[ins].mean()) if ins.any() else 0.0,
            "counters_per_hand": float(d.mean()),
            "ci95": 1.96 * float(d.std(ddof=1)) / np.sqrt(len(d)),
            "session_counters_per_hand": per_hand,
            "break_even_pot": 1.0 / max(float(ins.mean()) * (float(won[ins].mean()) if ins.any() else 1), 1e-9),
        }
    res["tight"] = tight
    tick()
    # charts
    fig, ax = plt.subplots(figsize=(8, 4))
    labels = list(q1) + list(q2) + list(q2w)
    vals = [v["ev_diff"]["mean"] for v in list(q1.values()) + list(q2.values()) + list(q2w.values())]
    errs = [v["ev_diff"]["ci95"] for v in list(q1.values()) + list(q2.values()) + list(q2w.values())]
    ax.barh(range(len(labels)), vals, xerr=errs, color=["#4c72b0" if v > 0 else "#c44e52" for v in vals])
    ax.set_yticks(range(len(labels)), [lab.split(" (")[0] for lab in labels], fontsize=7)
    ax.axvline(0, color="black", lw=0.8)
    ax.set_xlabel("counters: in minus out (95% CI)")
    ax.set_title("Stay in or fold? (5 players, traditional, vs tips)")
    fig.tight_layout()
    fig.savefig(chart_dir / "stay_in.png", dpi=110)
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ns = list(tight)
    ax.bar(
        [str(n) for n in ns],
        [tight[n]["counters_per_hand"] for n in ns],
        yerr=[tight[n]["ci95"] for n in ns],
        color="#55a868",
        label="single hands",
    )
    ax.plot([str(n) for n in ns], [tight[n]["session_counters_per_hand"] for n in ns], "ko-", label="sessions")
    ax.axhline(0, color="black", lw=0.8)
    ax.set_xlabel("players")
    ax.set_ylabel("counters per hand")
    ax.set_title("Tight play (in ~10-25% of hands) vs the tips table")
    ax.legend()
    fig.tight_layout()
    fig.savefig(chart_dir / "tight.png", dpi=110)
    plt.close(fig)
    tick()
    res["elapsed_s"] = time.perf_counter() - t0
    with atomic_output(outp) as f:  # complete or not there: no empty file on a full disk
        f.write(_markdown(res, hands, seed, out, odds_time))
    return res


def _command(hands: int, seed: int, out: str, odds_time: float) -> str:
    cmd = f"ramsli tips --hands {hands} --seed {seed}"
    if odds_time != 1.0:
        cmd += f" --odds-time {odds_time:g}"
    if out != "tips.md":
        cmd += f" --out {out}"
    return cmd


def _markdown(res: dict, hands: int, seed: int, out: str = "tips.md", odds_time: float = 1.0) -> str:
    """The report text. Every verdict follows :func:`sign` (95% interval) and :data:`MIN_EVENTS`."""
    L: list[str] = []
    a = L.append
    a("# The original rules' tips in numbers")
    a("")
    a(
        f"Generated by `{_command(hands, seed, out, odds_time)}` ({res['elapsed_s']:.0f} s). The table is five "
        "players of `traditional` (ante 1, bete 5, dealer forced) playing the `tips` policy — the rule books' tips "
        "as fixed rules (see `ramsli.bots.tips`; the kernel plays it with `tracking=False`) — in the batch kernel, which agrees exactly with the engine. "
        "Counters are a player's stack after the hand minus before the ante; a fold costs the ante (-1). "
        "Intervals are 95%; where an interval includes 0 the report says there is no measurable difference "
        "at this sample size, and no conclusion is drawn from fewer than "
        f"{MIN_EVENTS} events. Single hands start from an empty pot; carry-over is counted only where sessions "
        "are played."
    )
    a("")
    a('## 1. "Stay in only with a realistic path to a trick … three low non-trumps and a 7 of trump is a fold"')
    a("")
    a("Seat 1 (dealer's left, first to declare), spades trump (turn-up 10♠ or Q♠):")
    a("")
    a("| hand | P(≥1 trick) | P(most tricks) | in | in − out |")
    a("| --- | ---: | ---: | ---: | ---: |")
    for k, v in res["stay_in"].items():
        a(
            f"| {k} | {v['p_trick']['mean']:.1%} | {v['p_most']['mean']:.1%} | {_fmt(v['ev_in'])} | "
            f"{_fmt(v['ev_diff'])} |"
        )
    low = list(res["stay_in"].values())[0]["ev_diff"]
    a("")
    verdict = {
        -1: "**The tip is right** about the weak hand: staying in with it is worth",
        1: "**The tip is wrong** about the weak hand: staying in with it is worth",
        0: f"For the weak hand there is {NO_DIFF}: staying in with it is worth",
    }[_s(low)]
    a(f"{verdict} {_fmt(low)} counters against folding.")
    good = [k for k, v in res["stay_in"].items() if _s(v["ev_diff"]) > 0]
    close = [k for k, v in res["stay_in"].items() if _s(v["ev_diff"]) == 0]
    a(
        "Hands with a path that are worth staying in: "
        + (", ".join(good) if good else "none of those listed")
        + "."
        + (f" Too close to call ({NO_DIFF}): {', '.join(close)}." if close else "")
    )
    a("")
    a("![stay in or fold](tips/stay_in.png)")
    a("")
    a('## 2. "Count the \'in\' declarations" and "folding may hand them a walk-over"')
    a("")
    a("A mediocre hand (one side ace, AH 9D 8C 9C 7S), fourth of 5 to declare (--seat 3):")
    a("")
    a("| before me | P(≥1 trick) | in − out |")
    a("| --- | ---: | ---: |")
    for k, v in res["count_ins"].items():
        a(f"| {k} | {v['p_trick']['mean']:.1%} | {_fmt(v['ev_diff'])} |")
    ci = [v["ev_diff"] for v in res["count_ins"].values()]
    a("")
    # the two estimates are independent: the interval of their difference
    drop = sign(ci[0]["mean"] - ci[2]["mean"], float(np.hypot(ci[0]["ci95"], ci[2]["ci95"])))
    trend = {1: "lower", -1: "raise", 0: f"change the value of staying in measurably ({NO_DIFF})"}[drop]
    a(
        (
            f"Players in before me {trend} the value of staying in: "
            if drop
            else f"Players in before me do not {trend}: "
        )
        + f"from {_fmt(ci[0])} (nobody in) to {_fmt(ci[2])} (three in). "
        + {
            -1: "With three in, folding is the better play — the tip is right.",
            1: "Even with three in, this hand should stay in — the tip overstates the danger here.",
            0: f"With three in, in and out are too close to call ({NO_DIFF}).",
        }[_s(ci[2])]
    )
    a("")
    a(
        "The walkover remark cannot happen as written (the dealer declares last, R10); read as "
        '"only one player is in before you", a weak hand (9H 8D 8C 9C 7S) as the dealer:'
    )
    a("")
    a("| before me | in − out |")
    a("| --- | ---: |")
    for k, v in res["walkover"].items():
        a(f"| {k} | {_fmt(v['ev_diff'])} |")
    wv = list(res["walkover"].values())[0]["ev_diff"]
    a("")
    a(
        f"Denying the walkover with a weak hand is worth {_fmt(wv)} counters: "
        + {1: "worth it.", -1: "not worth the bete risk.", 0: f"{NO_DIFF}."}[_s(wv)]
    )
    a("")
    a('## 3. "Lead trumps when you are in with strong trump length"')
    tl = res["trump_lead"]
    a("")
    a(
        f"One player never leading trumps for strength, against the same deals played with the tip: "
        f"{tl['diff']:+.4f} ± {tl['ci95']:.4f} counters per hand ({tl['changed']:.1%} of hands change; "
        f"{tl['diff_when_changed']:+.2f} per changed hand). "
        + {
            -1: "**The tip helps** (dropping it loses counters).",
            0: f"**{NO_DIFF[0].upper() + NO_DIFF[1:]}.**",
            1: "**The tip hurts**: not leading trumps does better.",
        }[sign(tl["diff"], tl["ci95"])]
    )
    a("")
    a('## 4. "Hold back a sole Ace for the middle of the round"')
    ae = res["ace_early"]
    a("")
    a(
        f"Leading a sole side ace at once instead of saving it for tricks 3–4: {ae['diff']:+.4f} ± {ae['ci95']:.4f} "
        f"counters per hand ({ae['changed']:.1%} of hands change; {ae['diff_when_changed']:+.2f} per changed hand). "
        + {
            -1: "**Saving it is better — the tip is right.**",
            1: "**Leading it at once is better — the tip is wrong here.**",
            0: f"**{NO_DIFF[0].upper() + NO_DIFF[1:]}.**",
        }[sign(ae["diff"], ae["ci95"])]
    )
    a("")
    a('## 5. "Strict overtrump helps you count"')
    a("")
    a(
        "True by the rules, not a matter of numbers: under R4.10 (D-14) a player who does not play a trump to a "
        "trump lead holds none, and one who does not overtrump holds no higher trump — the engine's legal "
        "moves make these inferences certain. The kernel's `tips` policy (`tips:tracking=0`) "
        "does not use them; the `tips` bot (alias `rules`) and `montecarlo` do."
    )
    a("")
    a('## 6. "General Rams is a 5-trick certainty bet" with the tip\'s shape')
    g = res["general_rams"]
    a("")
    a(
        f"In {g['hands']:,} hands of `general-rams` the tip's shape (ace of trump, another top trump, three side "
        f"aces or kings) came up and was announced {g['announced']:,} times."
    )
    if g["announced"] < MIN_EVENTS:
        a(
            f"That is too small a sample to say how often it takes all five tricks or whether the bet pays "
            f"(fewer than {MIN_EVENTS} announcements); run `ramsli tips` with more --hands."
        )
    else:
        d = sign(g["diff"], g["diff_ci95"])
        a(
            f"It took all five tricks **{g['made']:.1%}** of the time. The announcer won "
            f"{g['counters_when_announced']:+.2f} counters per announcement, against "
            f"{g['counters_same_hands_without']:+.2f} on the same deals without General Rams (difference "
            f"{g['diff']:+.2f} ± {g['diff_ci95']:.2f}). "
            + {
                1: "A certainty it is not, but the bet pays.",
                -1: "The bet does not pay: the shape is not certain enough.",
                0: f"Whether the bet pays: {NO_DIFF}.",
            }[d]
        )
    a("")
    a("## 7. \"A 10% win rate at being 'in' pays for all your antes if you fold 90% of the time\"")
    a("")
    a(
        "A tight player (in only with two of top trumps and side aces, or a top trump and three trumps) against "
        "the tips table:"
    )
    a("")
    a("| players | in-rate | pot share when in | counters/hand (single hands) | counters/hand (sessions) |")
    a("| ---: | ---: | ---: | ---: | ---: |")
    for n, v in res["tight"].items():
        a(
            f"| {n} | {v['in_rate']:.1%} | {v['win_when_in']:.1%} | {v['counters_per_hand']:+.3f} ± {v['ci95']:.3f} "
            f"| {v['session_counters_per_hand']:+.3f} |"
        )
    a("")
    a(
        "Arithmetic: folding 90% of hands costs 0.9 antes per hand; being in 10% of the time and winning the pot "
        "10% of those (1% of hands) brings back 0.01 × pot, which pays the antes only if the pot is about 100 "
        'antes. Read literally the claim is **wrong** at every table size; read as "winning when in", the '
        "table shows whether a tight player pays for the antes in single hands at 3, 5 and 6 players: "
        + "; ".join(
            f"{n} players: " + {1: "yes", -1: "no", 0: NO_DIFF}[sign(v["counters_per_hand"], v["ci95"])]
            for n, v in res["tight"].items()
        )
        + "."
    )
    a("")
    a("![tight play](tips/tight.png)")
    a("")
    return "\n".join(L)
