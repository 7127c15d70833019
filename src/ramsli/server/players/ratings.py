"""Players' ratings: OpenSkill (Plackett–Luce) from the final standings of finished sessions (no I/O
but reading a calibration file).

Every rated session (:func:`ramsli.server.players.records.is_rated`: every seat a person who played it
throughout or a bot) updates the rating of each seat's player from the session's final standings:
the seats ranked by counters at the end, ties sharing a rank (R3.7), each seat a team of one, with
the ``openskill`` package's Plackett–Luce model and the parameters the arena uses
(:data:`ramsli.analysis.arena.MODEL`: μ₀ = 25, σ₀ = 25/3, β = 25/6, τ = 25/300). Sessions are taken
in the order they finished; a session changed afterwards (a ledger hand corrected, a guest seat
claimed) recomputes every rating from the first session on (:func:`replay`).

A rating is shown as one number with its uncertainty: μ ± σ (:func:`shown`); lists are ordered by
the conservative rating μ − 3σ (openskill's ``ordinal()``, as the arena ranks), so one lucky
evening with a large σ does not top the list.

Each bot level is a player of its own (:func:`ramsli.server.storage.directory.bot_key`): ``easy``,
``medium``, ``hard``, ``expert`` and ``random``. **Calibration** (:func:`calibrate`): the bots
start from the ratings they earned against each other in **duplicate sessions**: each session's
deals are played once in every rotation of the bots around the table (so every bot holds every
seat's cards), and each of those sessions is rated exactly as a server session is, by its own
final standings. Every bot meets the same luck, and the gaps between them are on the scale of
one session's outcome (a ranking of the summed rotations would remove the luck and stretch them).
The bundled :data:`CALIBRATION` is such a run (``scripts/calibrate_ratings.py``); ``ramsli serve
--calibration FILE`` takes another (or an arena result, ``ramsli arena --out``). A bot's σ after
hundreds of sessions is small, so the bots barely move and anchor the scale: a person who keeps
beating ``medium`` and losing to ``expert`` settles between their numbers (``docs/clubs.md``).

>>> r = rate({"a": Rating(25.0, 25 / 3), "b": Rating(25.0, 25 / 3)}, [("a", 1), ("b", 2)])
>>> round(r["a"].mu, 3), round(r["b"].mu, 3), r["a"].sessions
(27.635, 22.365, 1)
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from openskill.models import PlackettLuce

from ramsli.analysis.arena import MODEL, Z
from ramsli.bots import make_bot
from ramsli.cards import make_deck
from ramsli.rules import Rules
from ramsli.server.players.records import places
from ramsli.server.storage.directory import bot_key
from ramsli.session import Session

__all__ = [
    "Rating",
    "CALIBRATION",
    "MODEL",
    "Z",
    "rate",
    "replay",
    "shown",
    "conservative",
    "load_calibration",
    "default_rating",
    "calibrate",
    "CALIBRATION_FORMAT",
]

#: the format tag of :func:`calibrate`'s result
CALIBRATION_FORMAT = "ramsli-calibration/1"

#: the bundled calibration: 60 duplicate sessions of the five bot levels (:func:`calibrate`, package data)
CALIBRATION = Path(__file__).resolve().parent / "calibration.json"


class Rating(NamedTuple):
    """A player's rating: ``mu`` (the skill estimate), ``sigma`` (its uncertainty), both on
    OpenSkill's scale, and the number of rated ``sessions`` behind it."""

    mu: float
    sigma: float
    sessions: int = 0


def _model() -> PlackettLuce:
    return PlackettLuce(
        mu=MODEL["mu"], sigma=MODEL["sigma"], beta=MODEL["beta"], tau=MODEL["tau"], kappa=MODEL["kappa"]
    )


def default_rating() -> Rating:
    """A new person's rating: μ₀ = 25, σ₀ = 25/3."""
    return Rating(MODEL["mu"], MODEL["sigma"], 0)


def conservative(r: Rating) -> float:
    """μ − 3σ: the order of rating lists."""
    return r.mu - Z * r.sigma


def shown(r: Rating) -> dict[str, float | int]:
    """A rating as the pages show it: ``{"rating": μ, "uncertainty": σ, "order": μ − 3σ, "sessions"}``
    (one decimal place for the first three).

    >>> shown(Rating(27.63, 7.95, 1))
    {'rating': 27.6, 'uncertainty': 8.0, 'order': 3.8, 'sessions': 1}
    """
    return {
        "rating": round(r.mu, 1),
        "uncertainty": round(r.sigma, 1),
        "order": round(conservative(r), 1),
        "sessions": r.sessions,
    }


def rate(ratings: Mapping[str, Rating], standings: Sequence[tuple[str, int]]) -> dict[str, Rating]:
    """The ratings after one session.

    Args:
        ratings: each player's rating before (every player of ``standings``).
        standings: one ``(player, place)`` per seat (place 1 is the most counters; ties share a place).
            A player seated more than once (a bot level in two seats) is updated once, by the mean
            of its seats' changes.

    Returns:
        The new rating of every player of ``standings`` (``sessions`` one more).

    Raises:
        ValueError: fewer than two seats, or a player without a rating.
    """
    if len(standings) < 2:
        raise ValueError("a rated session needs at least two seats")
    model = _model()
    teams = []
    for pid, _place in standings:
        if pid not in ratings:
            raise ValueError(f"player {pid!r} has no rating")
        r = ratings[pid]
        teams.append([model.rating(mu=r.mu, sigma=r.sigma, name=pid)])
    new = model.rate(teams, ranks=[float(place) for _pid, place in standings])
    sums: dict[str, list[float]] = {}
    for (pid, _place), team in zip(standings, new):
        s = sums.setdefault(pid, [0.0, 0.0, 0.0])
        s[0] += team[0].mu
        s[1] += team[0].sigma
        s[2] += 1
    return {pid: Rating(mu / n, sigma / n, ratings[pid].sessions + 1) for pid, (mu, sigma, n) in sums.items()}


def replay(
    sessions: Iterable[tuple[Sequence[str], Sequence[tuple[str, int]]]], start: Mapping[str, Rating]
) -> dict[tuple[str, str], Rating]:
    """Every rating after ``sessions`` (in order), from ``start`` (a player missing from it starts
    at :func:`default_rating`).

    Args:
        sessions: per session its scopes (``"server"``, a club id) and its standings (as :func:`rate`).
        start: the first rating of players who do not start at the default (the calibrated bots).

    Returns:
        ``(scope, player) -> Rating`` for every player of a session in that scope.
    """
    out: dict[tuple[str, str], Rating] = {}
    for scopes, standings in sessions:
        for scope in scopes:
            before = {pid: out.get((scope, pid), start.get(pid, default_rating())) for pid, _ in standings}
            for pid, r in rate(before, standings).items():
                out[(scope, pid)] = r
    return out


def calibrate(
    bots: Sequence[str] = ("easy", "medium", "hard", "expert", "random"),
    sessions: int = 100,
    hands: int = 10,
    preset: str = "traditional",
    seed: int = 0,
    progress: Any = None,
) -> dict[str, Any]:
    """The bots' ratings from duplicate sessions (see the module's notes), in the format
    :func:`load_calibration` reads (``ramsli-calibration/1``).

    Session ``m`` deals hand ``k`` from ``random.Random(f"{seed}:calibrate:{m}:{k}")`` (deck and
    cut, R4.2) with first dealer ``m mod n``; it is played ``n`` times, bot ``j`` at seat
    ``(j + r) mod n`` in rotation ``r``, each time a session of ``hands`` hands (or until one is
    bust, R3.5) from equal stacks, and each rotation is rated by its final standings (R3.7) with
    :func:`rate`, in order. The same arguments give the same ratings.

    Args:
        bots: the bot specs (2..6), one seat each; sessions: duplicate sessions; hands: hands a
        session (R3.6 ``end=hands:N``); preset: the rules (R6); seed: the deals' seed;
        progress: called with the number of sessions rated so far, if given.

    >>> cal = calibrate(["tips", "random"], sessions=2, hands=2, seed=1)
    >>> cal["format"], [e["spec"] for e in cal["entrants"]], cal["entrants"][0]["sessions"]
    ('ramsli-calibration/1', ['tips', 'random'], 4)
    """
    n = len(bots)
    rules = Rules.preset(preset).with_assignments([f"end=hands:{hands}", f"players={n}"])
    ratings = {b: Rating(MODEL["mu"], MODEL["sigma"], 0) for b in bots}
    names = [f"seat{i + 1}" for i in range(n)]
    done = 0
    for m in range(sessions):
        for r in range(n):
            seat_of = [(j + r) % n for j in range(n)]
            bot_at = {seat_of[j]: j for j in range(n)}
            players = {
                seat_of[j]: make_bot(bots[j], seed=(seed * 1_000_003 + m * 97 + r * 7 + j) & 0xFFFFFFFF)
                for j in range(n)
            }
            s = Session(rules, names, dealer=m % n, clock=lambda: 0.0)
            k = 0
            while not s.is_over:
                rng = random.Random(f"{seed}:calibrate:{m}:{k}")
                deck = list(make_deck(rules.deck, rules.jokers))
                rng.shuffle(deck)
                hand = s.start_hand(deck=deck, cut=rng.randrange(1, len(deck)))
                while not hand.is_over:
                    seat = hand.to_act
                    assert seat is not None  # a hand that is not over has a seat to act
                    s.apply(players[seat].act(hand.observe(seat)))
                k += 1
            place = places(list(s.stacks))
            ratings.update(rate(ratings, [(bots[bot_at[seat]], place[seat]) for seat in range(n)]))
            done += 1
            if progress is not None:
                progress(done)
    return {
        "format": CALIBRATION_FORMAT,
        "sessions": sessions,
        "rotations": n,
        "hands": hands,
        "preset": preset,
        "seed": seed,
        "model": {"name": "openskill PlackettLuce", **MODEL},
        "entrants": [
            {
                "spec": b,
                "mu": round(ratings[b].mu, 3),
                "sigma": round(ratings[b].sigma, 3),
                "sessions": ratings[b].sessions,
            }
            for b in bots
        ],
    }


def load_calibration(path: str | Path | None = None) -> dict[str, Rating]:
    """The bots' first ratings from a calibration (:func:`calibrate`, format
    ``ramsli-calibration/1``) or an arena result (``ramsli arena --out``, ``ramsli-arena/1``);
    default :data:`CALIBRATION`: bot key (:func:`~ramsli.server.storage.directory.bot_key` of each
    entrant's spec) -> its μ and σ there.

    Raises:
        ValueError: a file that is neither (the message names it).
        OSError: a file that cannot be read.
    """
    p = Path(path) if path is not None else CALIBRATION
    try:
        data: Any = json.loads(p.read_text(encoding="utf-8"))
    except ValueError as e:
        raise ValueError(f"{p}: not JSON ({e})") from None
    if (
        not isinstance(data, dict)
        or data.get("format") not in (CALIBRATION_FORMAT, "ramsli-arena/1")
        or not isinstance(data.get("entrants"), list)
    ):
        raise ValueError(
            f"{p}: not a calibration (scripts/calibrate_ratings.py, {CALIBRATION_FORMAT}) "
            "or an arena result (ramsli arena --out FILE.json, ramsli-arena/1)"
        )
    out: dict[str, Rating] = {}
    for entrant in data["entrants"]:
        try:
            out[bot_key(str(entrant["spec"]))] = Rating(float(entrant["mu"]), float(entrant["sigma"]), 0)
        except (KeyError, TypeError, ValueError):
            raise ValueError(f"{p}: an entrant without spec, mu and sigma") from None
    return out
