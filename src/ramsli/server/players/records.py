"""A finished session summed up, and a club's season table from such records (no I/O here).

A **session record** (:func:`summarize`) is what the season tables and the ratings need of one
finished session (R3), whether it was played at a card table of the server or booked in a pub
ledger: per seat the name, the player or bot it is linked to, and its numbers; per hand the public
facts of its settlement (R5: who was in, tricks, winners of the pot, betes, stacks after). It holds
no card at all (R7, D-16).

A seat's numbers count the hands its player played (a person who took over a seat during the
session counts from their first hand on, ``from_hand``):

- ``hands``: hands dealt while the seat was seated (R3.5);
- ``ins``: hands the seat was in (declared in, or forced in: the settlement's active players, R4.5);
- ``betes``: hands the seat paid a bete (R5.3, R5.6);
- ``pots``: hands the seat took the pot or a share of it (R5.1, R5.2);
- ``net``: counters at the end minus counters before its first hand (R3.3; the whole session:
  the final stack minus the starting stack);
- ``place``: 1 + the number of seats with more counters at the end (ties share the better place,
  R3.7), and ``points``: the placement points of :func:`placement_points`.

**Placement points**: of N seats, the first gets N points, the second N − 1, …, the last 1; seats
tied on counters share the points of the places they cover equally (two tied first of five get
(5 + 4) / 2 = 4.5 each), so every session hands out N(N + 1)/2 points in all.

>>> placement_points([30, 20, 20, 10])
[4.0, 2.5, 2.5, 1.0]
>>> places([30, 20, 20, 10])
[1, 2, 2, 4]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ramsli.session import Session

__all__ = [
    "SeatOwner",
    "summarize",
    "placement_points",
    "places",
    "seat_numbers",
    "season_table",
    "best_of_table",
    "is_rated",
]


@dataclass(frozen=True)
class SeatOwner:
    """Who a seat of a finished session belongs to.

    Attributes:
        player: the id of the person linked to the seat, or None (a guest, or a bot).
        bot: the bot player's key (:func:`ramsli.server.storage.directory.bot_key`) when a bot played the
            seat throughout, else None.
        from_hand: the first hand (1-based) the seat's person played (1 unless they took the seat
            over during the session).
    """

    player: str | None = None
    bot: str | None = None
    from_hand: int = 1


def places(stacks: Sequence[int]) -> list[int]:
    """Each seat's place by counters: 1 + the number of seats with more (ties share the better place, R3.7)."""
    return [1 + sum(1 for v in stacks if v > s) for s in stacks]


def placement_points(stacks: Sequence[int]) -> list[float]:
    """Each seat's placement points (see the module's notes): N for the first of N seats down to 1
    for the last, seats tied on counters sharing the points of the places they cover."""
    n = len(stacks)
    out = []
    for s in stacks:
        better = sum(1 for v in stacks if v > s)
        tied = sum(1 for v in stacks if v == s)
        out.append(float(n - better - (tied - 1) / 2))
    return out


def seat_numbers(session: Session, seat: int, from_hand: int = 1) -> dict[str, int]:
    """The numbers of ``seat`` over the finished hands numbered ``from_hand`` and later (see the
    module's notes): ``{"hands", "ins", "betes", "pots", "start", "stack", "net"}`` in hands and counters."""
    results = session.results
    start = session.rules.starting_stack
    if from_hand > 1 and len(results) >= from_hand - 1:
        start = results[from_hand - 2].stacks_after[seat]
    gone: set[int] = set()
    hands = ins = betes = pots = 0
    for e in results:
        if e.number >= from_hand and seat not in gone:
            st = e.settlement
            hands += 1
            ins += seat in st.active
            betes += seat in st.bete
            pots += seat in st.winners
        gone |= set(e.left)
    stack = session.stacks[seat]
    return {
        "hands": hands,
        "ins": ins,
        "betes": betes,
        "pots": pots,
        "start": start,
        "stack": stack,
        "net": stack - start,
    }


def is_rated(owners: Sequence[SeatOwner]) -> bool:
    """True if a session of these seats updates ratings: every seat is a person who played it from
    the first hand or a bot that played it throughout, and at least one seat is a person."""
    return any(o.player for o in owners) and all(
        (o.player is not None and o.from_hand == 1) or (o.bot is not None and o.player is None) for o in owners
    )


def summarize(
    kind: str,
    session: Session,
    names: Sequence[str],
    dealers: Sequence[int],
    owners: Sequence[SeatOwner],
    *,
    preset: str,
    summary: str,
    finished: float,
) -> dict[str, Any]:
    """The record of a finished ``session`` (``kind``: ``table`` or ``ledger``).

    Args:
        names: the seat names as played; dealers: the dealer (0-based seat) of each finished hand;
        owners: who each seat belongs to; preset, summary: the rules (R6, R8) as the views show
        them; finished: when the session ended (seconds since the epoch).

    Returns:
        ``{"kind", "preset", "summary", "finished", "end_reason", "pot", "rated", "seats": [...],
        "hands": [...]}``: per seat ``seat, name, player, bot, from_hand`` and :func:`seat_numbers`
        with ``place`` and ``points``; per hand ``number, dealer, kind, active, tricks, winners,
        bete, stacks, pot`` (seats 0-based). No card.
    """
    stacks = list(session.stacks)
    place = places(stacks)
    points = placement_points(stacks)
    seats = []
    for i, name in enumerate(names):
        o = owners[i]
        seats.append(
            {
                "seat": i,
                "name": name,
                "player": o.player,
                "bot": o.bot,
                "from_hand": o.from_hand,
                **seat_numbers(session, i, o.from_hand),
                "place": place[i],
                "points": points[i],
            }
        )
    hands = []
    for k, e in enumerate(session.results):
        st = e.settlement
        hands.append(
            {
                "number": e.number,
                "dealer": dealers[k] if k < len(dealers) else None,
                "kind": str(st.kind),
                "active": list(st.active),
                "tricks": [st.tricks[s] if s in st.active else None for s in range(len(names))],
                "winners": list(st.winners),
                "bete": list(st.bete),
                "stacks": list(e.stacks_after),
                "pot": e.pot_after,
            }
        )
    return {
        "kind": kind,
        "preset": preset,
        "summary": summary,
        "finished": finished,
        "end_reason": None if session.end_reason is None else str(session.end_reason),
        "pot": session.pot,
        "rated": is_rated(owners),
        "seats": seats,
        "hands": hands,
    }


def season_table(records: Sequence[Mapping[str, Any]], players: Mapping[str, str | None]) -> dict[str, Any]:
    """A club's season table from its session records (in the order they finished).

    Args:
        records: rows of ``session_records`` (``table_id``, ``kind``, ``finished``, ``data``).
        players: the people to list (the club's members and anyone linked to a seat in the
            records): id -> name (None for a deleted player).

    Returns:
        ``{"rows": [...], "sessions": [...], "running": {...}}``. A row per player: ``player, name,
        sessions, hands, net, per_hand`` (counters a hand), ``in_pct`` (hands in per hand dealt,
        %), ``bete_pct`` (betes per hand in, %), ``pots, points, firsts``; ordered by points, then
        net. ``sessions``: per record its id, kind, finish time and each seat's name, player, net
        and place. ``running``: player id -> the running total of net counters after each session
        of the season (``[[session index, total], ...]``, sessions counted from 1 in the season).

    >>> rec = {"table_id": "t1", "kind": "ledger", "finished": 1.0, "data": {"seats": [
    ...     {"seat": 0, "name": "Ann", "player": "a", "hands": 4, "ins": 3, "betes": 1, "pots": 2,
    ...      "net": 6, "place": 1, "points": 2.0},
    ...     {"seat": 1, "name": "Bo", "player": "b", "hands": 4, "ins": 2, "betes": 0, "pots": 1,
    ...      "net": -6, "place": 2, "points": 1.0}]}}
    >>> t = season_table([rec], {"a": "Ann", "b": "Bo"})
    >>> [(r["name"], r["net"], r["per_hand"], r["in_pct"], r["bete_pct"]) for r in t["rows"]]
    [('Ann', 6, 1.5, 75.0, 33.3), ('Bo', -6, -1.5, 50.0, 0.0)]
    >>> t["running"]["a"]
    [[1, 6]]
    """
    acc: dict[str, dict[str, Any]] = {
        pid: {
            "player": pid,
            "name": name,
            "sessions": 0,
            "hands": 0,
            "ins": 0,
            "betes": 0,
            "net": 0,
            "pots": 0,
            "points": 0.0,
            "firsts": 0,
        }
        for pid, name in players.items()
    }
    running: dict[str, list[list[float]]] = {pid: [] for pid in players}
    sessions = []
    for k, rec in enumerate(records, 1):
        data = rec["data"]
        sessions.append(
            {
                "record": rec["table_id"],
                "kind": rec["kind"],
                "finished": rec["finished"],
                "seats": [
                    {
                        "name": s.get("name"),
                        "player": s.get("player"),
                        "bot": s.get("bot"),
                        "net": s["net"],
                        "place": s["place"],
                    }
                    for s in data.get("seats", [])
                ],
            }
        )
        for s in data.get("seats", []):
            pid = s.get("player")
            if pid is None or pid not in acc:
                continue
            a = acc[pid]
            a["sessions"] += 1
            for key in ("hands", "ins", "betes", "net", "pots"):
                a[key] += s[key]
            a["points"] += s["points"]
            a["firsts"] += s["place"] == 1
            running[pid].append([k, a["net"]])
    rows = []
    for a in acc.values():
        hands, ins = a["hands"], a["ins"]
        rows.append(
            {
                "player": a["player"],
                "name": a["name"],
                "sessions": a["sessions"],
                "hands": hands,
                "net": a["net"],
                "per_hand": round(a["net"] / hands, 2) if hands else 0.0,
                "in_pct": round(100.0 * ins / hands, 1) if hands else 0.0,
                "bete_pct": round(100.0 * a["betes"] / ins, 1) if ins else 0.0,
                "pots": a["pots"],
                "points": a["points"],
                "firsts": a["firsts"],
            }
        )
    rows.sort(key=lambda r: (-r["points"], -r["net"], r["name"] or "", r["player"]))
    return {"rows": rows, "sessions": sessions, "running": running}


def best_of_table(
    evening_scores: Sequence[Mapping[str, Any]], n: int, players: Mapping[str, str | None] | None = None
) -> list[dict[str, Any]]:
    """A season scored as "best N of M evenings" (a season's ``best_of``, issue 34 item 6).

    Each participant's **season score** is the sum of their N best evening scores of the season
    (an evening's score: the participant's total in that evening's standings, 0 to 100 a round,
    ``docs/evenings.md``); with fewer than N evenings, the sum of all of them (an evening missed counts
    0). Ranked by season score, then by the sum of all their evening scores of the season (the evenings
    left out break a tie), then equal: tied rows share the better rank (listed by name, then id).
    Sums are rounded to 2 decimals.

    Args:
        evening_scores: one row per evening and participant: ``{"evening", "participant", "score"}``.
        n: N, at least 1.
        players: the people to list (e.g. the club's members): id -> name; each gets a row (score 0
            without an evening) and no one else does. None: every participant of ``evening_scores``,
            no names.

    Returns:
        Rows ``{"rank", "participant", "name", "score", "counted", "evenings", "total"}``: ``counted``
        the evenings that make the score (``[[evening, score], ...]``, best first; of equal scores the
        earlier listed), ``evenings`` how many the participant played, ``total`` the sum of all.

    Raises:
        ValueError: ``n`` below 1, or a participant listed twice for one evening.

    >>> rows = best_of_table([
    ...     {"evening": "e1", "participant": "a", "score": 100.0}, {"evening": "e2", "participant": "a", "score": 50.0},
    ...     {"evening": "e3", "participant": "a", "score": 75.0}, {"evening": "e1", "participant": "b", "score": 150.0}], 2)
    >>> [(r["rank"], r["participant"], r["score"], r["counted"], r["total"]) for r in rows]
    [(1, 'a', 175.0, [['e1', 100.0], ['e3', 75.0]], 225.0), (2, 'b', 150.0, [['e1', 150.0]], 150.0)]
    """
    if n < 1:
        raise ValueError(f"best of {n}: N is at least 1")
    per: dict[str, list[tuple[str, float]]] = {pid: [] for pid in (players or {})}
    seen: set[tuple[str, str]] = set()
    for row in evening_scores:
        pid, ev = str(row["participant"]), str(row["evening"])
        if (ev, pid) in seen:
            raise ValueError(f"{pid} is listed twice for evening {ev}")
        seen.add((ev, pid))
        if players is not None and pid not in players:
            continue
        per.setdefault(pid, []).append((ev, float(row["score"])))
    rows: list[dict[str, Any]] = []
    for pid, scores in per.items():
        best = sorted(scores, key=lambda x: -x[1])[:n]  # stable: of equal scores the earlier evening
        rows.append(
            {
                "participant": pid,
                "name": None if players is None else players.get(pid),
                "score": round(sum(s for _, s in best), 2),
                "counted": [[ev, s] for ev, s in best],
                "evenings": len(scores),
                "total": round(sum(s for _, s in scores), 2),
            }
        )
    rows.sort(key=lambda r: (-r["score"], -r["total"], r["name"] or "", r["participant"]))
    for r in rows:
        r["rank"] = 1 + sum(1 for o in rows if (o["score"], o["total"]) > (r["score"], r["total"]))
    return [{"rank": r.pop("rank"), **r} for r in rows]
