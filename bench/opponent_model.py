"""Fit and check the opponent model of the expert (:mod:`ramsli.bots.opponent`) on self-play.

    python bench/opponent_model.py record --hands 6000 --seed 1000 --out /tmp/selfplay.jsonl [--jobs 2]
    python bench/opponent_model.py fit    --data /tmp/selfplay.jsonl [--out src/ramsli/bots/opponent_model.json]
    python bench/opponent_model.py check  --data /tmp/heldout.jsonl [--model FILE]

``record``
    Self-play of the built-in bots: each hand (deal ``i`` of ``--seed``, 5 players, equal stacks,
    an empty pot) is played in one of ``--presets`` by a random line-up of ``--bots`` (each seat
    drawn with ``--weights``, seeded by hand), and written as one JSON line: preset, seed, deal
    number, dealer, the bots per seat and every action. Every seat's cards follow from the seed
    (:func:`ramsli.analysis.tournament.deal_deck`), so the file is small and reproducible.
``fit``
    Replays every hand and fits, by maximum likelihood (Newton's method with a small ridge
    penalty, NumPy), the conditional-logit card model and the logistic declaration model of
    :mod:`ramsli.bots.opponent` on the features that module computes (the same code the expert
    runs at play time, so fitting and use cannot drift apart). Hands with an even deal number are
    the training half; the odd ones are held out and reported. Writes the coefficients as JSON with
    how they were fitted.
``check``
    The held-out figures of a model file on any recorded data: mean log-likelihood per decision
    and accuracy of the model, of a uniform choice among the legal cards, and of the tips player
    as a fixed model (the tips' card with probability 1 − ε, ε spread over the others), per bot
    and in all; for the declarations the same against the expert's hand-made ``p_in``.

Not a test: it prints figures for ``docs/benchmarks.md``. Same seed, same data, same figures.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import defaultdict
from multiprocessing import Pool

import numpy as np

from ramsli.analysis.tournament import deal_deck
from ramsli.bots.base import make_bot
from ramsli.hand import Action, Hand
from ramsli.rules import Rules

PLAYERS = 5
_CFG: dict = {}


# --------------------------------------------------------------------------- record


def _record_hand(i: int) -> str:
    seed = _CFG["seed"]
    rng = random.Random(f"{seed}:lineup:{i}")
    preset = _CFG["presets"][i % len(_CFG["presets"])]
    bots = rng.choices(_CFG["bots"], weights=_CFG["weights"], k=PLAYERS)
    rules = Rules.preset(preset)
    deck, cut = deal_deck(rules, seed, i)
    dealer = i % PLAYERS
    hand = Hand.from_deck(rules, [rules.starting_stack] * PLAYERS, dealer, deck, cut, pot=0)
    players = {s: make_bot(b, seed=hash((seed, i, s)) & 0xFFFFFFFF) for s, b in enumerate(bots)}
    actions = []
    while not hand.is_over:
        s = hand.to_act
        a = players[s].act(hand.observe(s))
        hand.apply(a)
        actions.append(str(a))
    return json.dumps({"preset": preset, "seed": seed, "i": i, "dealer": dealer, "bots": bots, "actions": actions})


def record(a: argparse.Namespace) -> None:
    _CFG.update(
        seed=a.seed,
        presets=a.presets.split(","),
        bots=a.bots.split(","),
        weights=[float(w) for w in a.weights.split(",")],
    )
    t0 = time.perf_counter()
    with open(a.out, "w", encoding="utf-8") as f, Pool(a.jobs, initializer=_CFG.update, initargs=(dict(_CFG),)) as pool:
        for n, line in enumerate(pool.imap(_record_hand, range(a.start, a.start + a.hands), chunksize=8), 1):
            f.write(line + "\n")
            if n % 200 == 0:
                f.flush()
                print(f"{n}/{a.hands} hands, {time.perf_counter() - t0:.0f} s", file=sys.stderr, flush=True)


def replay(line: str):
    """The hand of one recorded line: yields ``(hand_before, bot_name, action)`` for every action."""
    rec = json.loads(line)
    rules = Rules.preset(rec["preset"])
    deck, cut = deal_deck(rules, rec["seed"], rec["i"])
    hand = Hand.from_deck(rules, [rules.starting_stack] * PLAYERS, rec["dealer"], deck, cut, pot=0)
    for text in rec["actions"]:
        a = Action.parse(text)
        yield hand, rec["bots"][a.seat], a, rec
        hand.apply(a)


# --------------------------------------------------------------------------- features of recorded hands


def _decisions(line: str) -> dict:
    """The modelled decisions of one recorded hand: every card chosen among two or more legal ones and
    every declaration that was a choice, with their features (:mod:`ramsli.bots.opponent`)."""
    from ramsli.bots.fast import legal, mask_of
    from ramsli.bots.opponent import PlayContext, declare_features, observed_steps, play_features
    from ramsli.bots.tips import TipsBot
    from ramsli.bots.tracking import declaration_context, infer

    tips = TipsBot()
    play_rows: list = []
    decl_rows: list = []
    hand = None
    rec = None
    tips_card: dict[int, int] = {}  # index of the play among all plays -> the tips' card (code)
    n_play = 0
    for hand, bot, a, rec in replay(line):
        if a.kind in ("in", "out"):
            obs = hand.observe(a.seat)
            if len(obs.legal) > 1:
                k = infer(obs)
                ctx = declaration_context(obs)
                nb = sum(1 for _, stay, *_ in ctx if stay)
                nc = len(obs.seated) - len(obs.declarations) - 1
                f = declare_features(
                    k.own,
                    k.visible_trumps,
                    nb,
                    nc,
                    obs.rules.bete_for(obs.pot),
                    obs.pot,
                    obs.rules.targets,
                    obs.rules.general_rams,
                )
                decl_rows.append((bot, rec["preset"], f, a.kind == "in", tips.act(obs).kind == "in"))
        elif a.kind == "pl":
            obs = hand.observe(a.seat)
            if len(obs.legal) > 1:
                t = tips.act(obs)
                tips_card[n_play] = infer(obs).codec.enc(t.card)
            n_play += 1
    # the hand is over: its last state holds every play
    end = hand.observe(0)
    k = infer(end)
    steps = observed_steps(end, k)
    cd = k.codec
    hands = {s: cd.encs(hand.dealt[s]) for s in end.active}
    for j, st in enumerate(steps):
        h = hands[st.seat]
        if j in tips_card:
            lg = legal(h, st.cur, st.ctx.always)
            c = st.ctx
            ctx = PlayContext(c.n_after, c.trick_no, c.my_tricks, c.others & ~mask_of(h), c.trumpless, c.risk, c.always)
            feats = play_features(h, st.cur, lg, ctx)
            play_rows.append(
                (
                    rec["bots"][st.seat],
                    rec["preset"],
                    feats,
                    lg.index(st.code),
                    lg.index(tips_card[j]) if tips_card[j] in lg else -1,
                )
            )
        h.remove(st.code)
    return {"play": play_rows, "declare": decl_rows}


def load_decisions(path: str, jobs: int) -> dict:
    with open(path, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.strip()]
    out: dict = {"play": [], "declare": []}
    with Pool(jobs) as pool:
        for d in pool.imap(_decisions, lines, chunksize=50):
            out["play"] += d["play"]
            out["declare"] += d["declare"]
    return out


# --------------------------------------------------------------------------- fitting


def _stack_play(rows: list) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rows of all legal cards (X), the decision of each row (g), whether it was chosen (y), and the
    number of legal cards per decision."""
    xs, g, y, k = [], [], [], []
    for i, (_, _, feats, chosen, _) in enumerate(rows):
        for j, f in enumerate(feats):
            xs.append(f)
            g.append(i)
            y.append(j == chosen)
        k.append(len(feats))
    return np.array(xs, float), np.array(g), np.array(y, float), np.array(k)


def _softmax_parts(x: np.ndarray, g: np.ndarray, theta: np.ndarray, n: int) -> np.ndarray:
    s = x @ theta
    top = np.full(n, -np.inf)
    np.maximum.at(top, g, s)
    e = np.exp(s - top[g])
    z = np.bincount(g, e, n)
    return e / z[g]


def fit_play(rows: list, ridge: float = 1.0, iters: int = 30) -> np.ndarray:
    """Maximum-likelihood conditional logit (Newton's method, L2 penalty ``ridge``)."""
    x, g, y, _ = _stack_play(rows)
    n = len(rows)
    th = np.zeros(x.shape[1])
    for _ in range(iters):
        p = _softmax_parts(x, g, th, n)
        xbar = np.zeros((n, x.shape[1]))
        np.add.at(xbar, g, p[:, None] * x)
        grad = ((y - p)[:, None] * x).sum(0) - ridge * th
        d = x - xbar[g]
        hess = -(d * p[:, None]).T @ d - ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        th -= step
        if np.abs(step).max() < 1e-7:
            break
    return th


def play_scores(rows: list, th: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """Per decision: log P(chosen) under the model, and 1 if the model's most likely card was chosen."""
    x, g, y, k = _stack_play(rows)
    n = len(rows)
    p = _softmax_parts(x, g, th, n)
    p = (1 - floor) * p + floor / k[g]
    ll = np.log(p[y == 1])
    s = x @ th
    best = np.full(n, -np.inf)
    np.maximum.at(best, g, s)
    top_rows = s >= best[g] - 1e-12
    first_top = np.full(n, -1)
    for r in np.nonzero(top_rows)[0][::-1]:
        first_top[g[r]] = r
    acc = y[first_top]
    return ll, acc


def fit_declare(rows: list, ridge: float = 1.0, iters: int = 40) -> np.ndarray:
    x = np.array([r[2] for r in rows], float)
    y = np.array([r[3] for r in rows], float)
    th = np.zeros(x.shape[1])
    for _ in range(iters):
        p = 1 / (1 + np.exp(-np.clip(x @ th, -30, 30)))
        grad = x.T @ (y - p) - ridge * th
        hess = -(x * (p * (1 - p))[:, None]).T @ x - ridge * np.eye(x.shape[1])
        step = np.linalg.solve(hess, grad)
        th -= step
        if np.abs(step).max() < 1e-8:
            break
    return th


def _declare_p(rows: list, th: np.ndarray, clip: tuple[float, float]) -> np.ndarray:
    x = np.array([r[2] for r in rows], float)
    p = 1 / (1 + np.exp(-np.clip(x @ th, -30, 30)))
    return np.clip(p, *clip)


def _hand_made_p_in(rows: list) -> np.ndarray:
    """The expert's hand-made p_in (sharp 3) rebuilt from the declaration features."""
    from ramsli.bots.opponent import DECLARE_FEATURES

    ix = {n: i for i, n in enumerate(DECLARE_FEATURES)}
    out = []
    for r in rows:
        f = r[2]
        x = 3.0 * (f[ix["strength"]] - f[ix["need"]] + 0.15) - 2.0 * f[ix["no_path"]]
        out.append(min(0.97, max(0.03, 1 / (1 + math.exp(-x)))))
    return np.array(out)


def _ci(x: np.ndarray) -> str:
    return f"{x.mean():+.4f} ± {1.96 * x.std(ddof=1) / math.sqrt(max(len(x), 2)):.4f}"


def _mixture_play_ll(rows: list, model) -> np.ndarray:
    """log P(chosen) per decision under the prior mixture of the model's styles."""
    p = 0
    for st in model.styles:
        ll, _ = play_scores(rows, np.array(st.play_coef), st.play_floor)
        p = p + st.prior * np.exp(ll)
    return np.log(p)


def report(data: dict, model) -> dict:
    """Print the held-out figures of ``model`` on ``data``; return them as a dict.

    Per bot: its own style (the model told which bot plays), the prior mixture of all styles (not
    told), a uniform choice among the legal cards, and the tips player as a fixed model."""
    styles = {st.name: st for st in model.styles}
    out: dict = {"play": {}, "declare": {}}
    groups: dict[str, list] = defaultdict(list)
    for r in data["play"]:
        groups[r[0]].append(r)
        groups["all"].append(r)
    print("card play (decisions among 2+ legal cards): mean log-likelihood per decision (accuracy)")
    print(
        f"  {'bots':12} {'decisions':>9}  {'own style':>16} {'mixture':>9} {'uniform':>16} {'tips ε':>16}  "
        "mixture − uniform"
    )
    for name in sorted(groups, key=lambda n: (n == "all", n)):
        rows = groups[name]
        st = styles.get(name)
        if st is not None:
            ll, acc = play_scores(rows, np.array(st.play_coef), st.play_floor)
        else:
            ll = acc = np.full(len(rows), np.nan)
        mix = _mixture_play_ll(rows, model)
        k = np.array([len(r[2]) for r in rows], float)
        uni = -np.log(k)
        hit = np.array([r[3] == r[4] for r in rows], float)
        eps = min(max(1 - hit.mean(), 1e-3), 0.999)
        tll = np.where(hit == 1, math.log(1 - eps), np.log(eps / (k - 1)))
        out["play"][name] = {
            "decisions": len(rows),
            "loglik_own_style": float(ll.mean()),
            "loglik_mixture": float(mix.mean()),
            "loglik_uniform": float(uni.mean()),
            "loglik_tips": float(tll.mean()),
            "tips_eps": float(eps),
            "accuracy_own_style": float(acc.mean()),
            "accuracy_uniform": float((1 / k).mean()),
            "accuracy_tips": float(hit.mean()),
        }
        print(
            f"  {name:12} {len(rows):9d}  {ll.mean():+8.4f} ({acc.mean():5.1%}) {mix.mean():+9.4f} "
            f"{uni.mean():+8.4f} ({(1 / k).mean():5.1%}) {tll.mean():+8.4f} ({hit.mean():5.1%})  {_ci(mix - uni)}"
        )
    groups = defaultdict(list)
    for r in data["declare"]:
        groups[r[0]].append(r)
        groups["all"].append(r)
    print("declarations that were a choice: mean log-likelihood (accuracy of P(in) > 0.5)")
    print(
        f"  {'bots':12} {'decisions':>9} {'in':>6}  {'own style':>16} {'mixture':>9} {'base rate':>9} "
        f"{'p_in':>16} {'tips ε':>16}"
    )
    for name in sorted(groups, key=lambda n: (n == "all", n)):
        rows = groups[name]
        y = np.array([r[3] for r in rows], float)

        def ll(pp, y=y):
            return np.where(y == 1, np.log(pp), np.log(1 - pp))

        st = styles.get(name)
        p = _declare_p(rows, np.array(st.declare_coef), st.declare_clip) if st else np.full(len(rows), 0.5)
        mixp = sum(s.prior * _declare_p(rows, np.array(s.declare_coef), s.declare_clip) for s in model.styles)
        q = _hand_made_p_in(rows)
        base = np.full(len(rows), min(max(y.mean(), 1e-3), 1 - 1e-3))
        t = np.array([r[4] for r in rows], float)
        eps = min(max((t != y).mean(), 1e-3), 0.999)
        pt = np.where(t == 1, 1 - eps, eps)
        out["declare"][name] = {
            "decisions": len(rows),
            "in_rate": float(y.mean()),
            "loglik_own_style": float(ll(p).mean()),
            "loglik_mixture": float(ll(mixp).mean()),
            "loglik_base_rate": float(ll(base).mean()),
            "loglik_p_in": float(ll(q).mean()),
            "loglik_tips": float(ll(pt).mean()),
            "accuracy_own_style": float(((p > 0.5) == y).mean()),
            "accuracy_p_in": float(((q > 0.5) == y).mean()),
            "accuracy_tips": float((t == y).mean()),
        }
        print(
            f"  {name:12} {len(rows):9d} {y.mean():6.1%}  {ll(p).mean():+8.4f} ({((p > 0.5) == y).mean():5.1%}) "
            f"{ll(mixp).mean():+9.4f} {ll(base).mean():+9.4f} {ll(q).mean():+8.4f} ({((q > 0.5) == y).mean():5.1%}) "
            f"{ll(pt).mean():+8.4f} ({(t == y).mean():5.1%})"
        )
    return out


def _data_note(path: str) -> str:
    """What a recorded file holds: hands, seeds, presets and seats per bot."""
    hands = 0
    seeds: set = set()
    presets: dict[str, int] = defaultdict(int)
    seats: dict[str, int] = defaultdict(int)
    with open(path, encoding="utf-8") as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            hands += 1
            seeds.add(rec["seed"])
            presets[rec["preset"]] += 1
            for b in rec["bots"]:
                seats[b] += 1
    return (
        f"{hands} hands of self-play (bench/opponent_model.py record, seed {', '.join(map(str, sorted(seeds)))}; "
        f"5 players, one hand per deal from equal stacks and an empty pot, each seat's bot drawn at random); "
        f"presets {dict(presets)}; seats per bot {dict(seats)}"
    )


def fit(a: argparse.Namespace) -> None:
    from ramsli.bots.opponent import DECLARE_FEATURES, PLAY_FEATURES, OpponentModel, Style

    t0 = time.perf_counter()
    data = load_decisions(a.data, a.jobs)
    print(
        f"{len(data['play'])} card decisions, {len(data['declare'])} declarations from {a.data} "
        f"({time.perf_counter() - t0:.0f} s)",
        file=sys.stderr,
    )
    priors = dict(p.split("=") for p in a.priors.split(","))
    floors = [0.0, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2]
    clip = (a.clip, 1 - a.clip)
    styles = []
    for name, prior in priors.items():
        if name == "random":
            styles.append(
                Style(name, float(prior), (0.0,) * len(PLAY_FEATURES), 0.0, (0.0,) * len(DECLARE_FEATURES), (0.5, 0.5))
            )
            continue
        prow = [r for r in data["play"] if r[0] == name]
        drow = [r for r in data["declare"] if r[0] == name]
        th = fit_play(prow, a.ridge)
        floor = max(max(floors, key=lambda fl: play_scores(prow, th, fl)[0].mean()), a.min_floor)
        dth = fit_declare(drow, a.ridge)
        print(f"style {name}: {len(prow)} card decisions, {len(drow)} declarations, floor {floor}")
        for n, v in zip(PLAY_FEATURES, th):
            print(f"  play    {n:22} {v:+.3f}")
        for n, v in zip(DECLARE_FEATURES, dth):
            print(f"  declare {n:22} {v:+.3f}")
        styles.append(
            Style(
                name,
                float(prior),
                tuple(round(float(v), 4) for v in th),
                floor,
                tuple(round(float(v), 4) for v in dth),
                clip,
            )
        )
    model = OpponentModel(
        styles,
        {
            "method": (
                "per style (the bot whose decisions it was fitted on): maximum likelihood with an L2 penalty "
                f"(ridge {a.ridge}), Newton's method, NumPy; a conditional logit over the legal cards and a "
                "logistic model of P(in), on the features of ramsli.bots.opponent (each seat's own cards and "
                f"the public record, R7); play floor chosen on the training data among {floors} (at least "
                f"{a.min_floor}); declaration clip {list(clip)}; 'random' is all zeros (uniform play, P(in) 0.5); "
                "priors set by hand"
            ),
            "data": _data_note(a.data),
            "card_decisions": len(data["play"]),
            "declarations": len(data["declare"]),
            "command": "python bench/opponent_model.py " + " ".join(sys.argv[1:]),
        },
    )
    if a.check:
        print(f"held out: {a.check}")
        model.fitted["held_out"] = report(load_decisions(a.check, a.jobs), model)
        model.fitted["held_out_data"] = _data_note(a.check)
    if a.out:
        with open(a.out, "w", encoding="utf-8") as f:
            json.dump(model.to_dict(), f, indent=1)
            f.write("\n")
        print(f"wrote {a.out}", file=sys.stderr)


def check(a: argparse.Namespace) -> None:
    from ramsli.bots.opponent import load_model

    report(load_decisions(a.data, a.jobs), load_model(a.model))


# --------------------------------------------------------------------------- how well the samples place the cards


def _placement_hand(args: tuple) -> list:
    """For every card decision with a choice in one recorded hand, every active seat as the observer:
    the weighted share of the other active seats' hidden cards that each expert variant's samples place
    in the right hand (the truth is known here: a recording, not a game)."""
    line, specs, samples = args
    from ramsli.bots.expert import ExpertBot

    out = []
    for hand, _bot, a, rec in replay(line):
        if a.kind != "pl" or len(hand.legal_actions()) < 2:
            continue
        obs = hand.observe(a.seat)
        row = [len(obs.tricks), 0]
        for spec in specs:
            opts = dict((kv.split("=")[0], float(kv.split("=")[1])) for kv in spec.split(",") if kv)
            bot = ExpertBot(seed=rec["i"] * 7 + a.seat, **{k: (int(v) if v == int(v) else v) for k, v in opts.items()})
            k, checks, played_by = bot._setup(obs)
            cd = k.codec
            truth = {s: set(cd.encs(hand.hands[s])) for s in obs.active if s != a.seat}
            trumps = {s: {c for c in v if c < 32} for s, v in truth.items()}
            n_hidden = sum(len(v) for v in truth.values())
            n_trumps = sum(len(v) for v in trumps.values())
            samples_ = bot._samples(obs, k, checks, played_by, samples)
            tot = sum(w for _, w in samples_)
            right = sum(w * sum(len(truth[s] & set(d.get(s, ()))) for s in truth) for d, w in samples_) / tot
            right_t = sum(w * sum(len(trumps[s] & set(d.get(s, ()))) for s in trumps) for d, w in samples_) / tot
            row += [right / max(n_hidden, 1), right_t / n_trumps if n_trumps else np.nan]
        out.append(row)
    return out


def placement(a: argparse.Namespace) -> None:
    with open(a.data, encoding="utf-8") as f:
        lines = [ln for ln in f if ln.strip()][: a.hands]
    specs = a.specs.split(";")
    rows: list = []
    with Pool(a.jobs) as pool:
        for r in pool.imap(_placement_hand, [(ln, specs, a.samples) for ln in lines], chunksize=4):
            rows += r
    x = np.array(rows, float)
    print(f"{len(x)} card decisions with a choice in {len(lines)} hands of {a.data}, {a.samples} samples each")
    for off, what in ((2, "hidden cards"), (3, "hidden trumps")):
        print(f"share of the active opponents' {what} a sample places in the right hand (weighted):")
        for t in sorted(set(x[:, 0].astype(int))) + [-1]:
            sel = (x[:, 0] == t if t >= 0 else np.ones(len(x), bool)) & ~np.isnan(x[:, off])
            cells = "  ".join(f"{specs[j] or 'default'}: {x[sel, off + 2 * j].mean():.3f}" for j in range(len(specs)))
            print(f"  trick {t + 1 if t >= 0 else 'all'} ({int(sel.sum())}): {cells}")
        sel = ~np.isnan(x[:, off])
        for j in range(1, len(specs)):
            d = x[sel, off + 2 * j] - x[sel, off]
            print(f"  [{specs[j]}] − [{specs[0]}]: {_ci(d)}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("record")
    r.add_argument("--hands", type=int, default=6000)
    r.add_argument("--start", type=int, default=0, help="first deal number")
    r.add_argument("--seed", type=int, default=1000)
    r.add_argument("--presets", default="traditional,traditional,general-rams,nap")
    r.add_argument("--bots", default="montecarlo,expert,tips")
    r.add_argument("--weights", default="0.5,0.25,0.25")
    r.add_argument("--jobs", type=int, default=1)
    r.add_argument("--out", required=True)
    f = sub.add_parser("fit")
    f.add_argument("--data", required=True, help="recorded hands to fit on")
    f.add_argument("--check", default="", help="recorded hands to report the held-out figures on")
    f.add_argument("--ridge", type=float, default=1.0)
    f.add_argument("--min-floor", type=float, default=0.02, help="least play floor (robustness)")
    f.add_argument("--clip", type=float, default=0.02, help="declaration P(in) kept in clip..1-clip")
    f.add_argument("--priors", default="tips=0.3,montecarlo=0.3,expert=0.3,random=0.1", help="styles and priors")
    f.add_argument("--jobs", type=int, default=1)
    f.add_argument("--out", default="")
    c = sub.add_parser("check")
    c.add_argument("--data", required=True)
    c.add_argument("--model", default=None, help="a model file (default: the shipped one)")
    c.add_argument("--jobs", type=int, default=1)
    pl = sub.add_parser("placement")
    pl.add_argument("--data", required=True)
    pl.add_argument("--hands", type=int, default=200)
    pl.add_argument("--samples", type=int, default=48)
    pl.add_argument(
        "--specs",
        default="plays=0,fitted_declarations=0,candidates=1;plays=0,candidates=1;fitted_declarations=0;",
        help="expert options per variant, ';' between variants (the first is the base)",
    )
    pl.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args(argv)
    if a.what == "placement":
        placement(a)
    elif a.what == "record":
        record(a)
    elif a.what == "fit":
        fit(a)
    else:
        check(a)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
