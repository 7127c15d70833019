"""A duplicate evening's deals on the server (issue 35): planned, read back, and shown per deal.

- :func:`plan_sections`: at a round's start, one :func:`ramsli.evening.duplicate.new_deals` per
  **section** (the round's tables of one size) from the OS CSPRNG — never from the evening's seed
  chain, which is opened after the draw — and one bot seed per section. They go to the evening's
  secret (the database; never sent) and into the spec of each of the section's tables
  (``spec["duplicate"]``), which deals hand k from deal k
  (:meth:`ramsli.server.tables.table.Table.duplicate_deal`).
- :func:`table_outcomes`: what a table's finished hands say in public (R7, D-21): per hand, per
  duplicate seat, the declaration, announcement, tricks, counters won and paid and the net, and the
  deal's key (:func:`ramsli.evening.duplicate.deck_key` of its commitments). No card.
- :func:`field_json`: one deal's field as ``GET /api/evenings/{id}/deals/{round}/{hand}`` answers it.
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import Any

from ramsli.evening.duplicate import DealResult, DealSeat, DealTable, deck_key, new_deals, score_deal
from ramsli.evening.scoring import hands_for
from ramsli.rules import Rules
from ramsli.server.evenings.log import TablePlan
from ramsli.server.evenings.state import Evening
from ramsli.session import HandResult

__all__ = ["plan_sections", "table_outcomes", "deal_results", "field_json"]


def plan_sections(spec: Mapping[str, Any], sizes: Sequence[int]) -> dict[str, dict[str, Any]]:
    """The deals of a round's sections: table size (as text) -> ``{"deals": [DealPlan data],
    "bot_seed"}``, ``hands_for(size, hands_per_round)`` deals each (the deal passes to the left
    after each, so everyone deals equally often, R3.2)."""
    rules = Rules.preset(str(spec["preset"])).with_assignments(list(spec.get("rules", [])))
    out: dict[str, dict[str, Any]] = {}
    for size in sorted(set(sizes)):
        hands = hands_for(size, int(spec["hands_per_round"]))
        deals = new_deals(rules.deck, rules.jokers, size, hands)
        out[str(size)] = {"deals": [d.to_data() for d in deals], "bot_seed": secrets.token_hex(16)}
    return out


def _announced(seat: int, res: HandResult) -> str:
    st = res.settlement
    if st.general_rams == seat:
        return "general-rams"
    for s, target, _met in st.targets:
        if s == seat:
            return f"target:{target}"
    return ""


def table_outcomes(
    results: Sequence[HandResult], commitments: Mapping[int, Sequence[str]], plan: TablePlan
) -> dict[int, DealTable]:
    """Hand number -> the table's public outcome of that deal (:class:`DealTable`, seats in
    duplicate order), for each finished hand dealt to every seat of the table (a hand after a
    seat left as bust, R3.5, is not the section's deal). ``commitments``: hand number -> the
    deal's commitments (its key). No card (R7, D-21)."""
    n = len(plan.seats)
    out: dict[int, DealTable] = {}
    for res in results:
        hand = res.hand
        if hand is None or len(hand.seated) != n:
            continue
        st = res.settlement
        seats = []
        for rel in range(n):
            seat = (hand.dealer + rel) % n  # duplicate_seat(seat, dealer, n) == rel
            seats.append(
                DealSeat(
                    participant=plan.seats[seat],
                    seat=rel,
                    net=res.stacks_after[seat] - hand.start_stacks[seat],
                    declared="in" if seat in st.active else "out",
                    announced=_announced(seat, res),
                    tricks=st.tricks[seat] if seat in st.active else 0,
                    won=st.won(seat),
                    paid=st.paid(seat),
                )
            )
        key = deck_key(commitments[res.number]) if res.number in commitments else ""
        out[res.number] = DealTable(plan.number, tuple(seats), key)
    return out


def deal_results(
    ev: Evening, outcomes: Mapping[tuple[int, int], Mapping[int, DealTable]], rounds: Sequence[int]
) -> list[DealResult]:
    """The deals of ``rounds`` (their numbers), per section and hand, each with every table of
    the section that played it (``outcomes``: (round, table) -> :func:`table_outcomes`)."""
    out = []
    for r in ev.rounds:
        if r.round not in rounds:
            continue
        for size in sorted({len(t.seats) for t in r.tables}):
            section = [t for t in r.tables if len(t.seats) == size]
            hands = max(t.hands for t in section)
            for k in range(1, hands + 1):
                tables = [outcomes.get((r.round, t.number), {}).get(k) for t in section]
                played = tuple(t for t in tables if t is not None)
                if played:
                    out.append(DealResult(r.round, size, k, played))
    return out


def field_json(
    ev: Evening,
    round_no: int,
    hand: int,
    section: Sequence[TablePlan],
    outcomes: Mapping[int, DealTable],
    names: Mapping[str, str],
) -> dict[str, Any]:
    """One section's field of one deal: ``{"size", "tables": [{"number", "name", "played",
    "deal_key", "seats": [{"seat", "id", "name", "kind", "declared", "announced", "tricks", "won",
    "paid", "net", "mp", "max", "pct", "vs_field"}]}]}`` — the matchpoints among the tables that
    have played it so far (``outcomes``: table number -> its outcome). No card field (R7, D-21)."""
    size = len(section[0].seats)
    played = tuple(outcomes[t.number] for t in section if t.number in outcomes)
    scores = score_deal(DealResult(round_no, size, hand, played)) if played else {}
    tables = []
    for t in section:
        o = outcomes.get(t.number)
        seats = []
        for s in o.seats if o is not None else ():
            sc = scores[t.number, s.seat]
            p = ev.people.get(s.participant)
            seats.append(
                {
                    **s.to_data(),
                    "id": s.participant,
                    "name": names.get(s.participant, s.participant),
                    "kind": p.kind if p is not None else "person",
                    "mp": float(sc.mp),
                    "max": sc.max,
                    "pct": round(float(sc.pct), 2),
                    "vs_field": round(float(sc.vs_field), 2),
                }
            )
        tables.append(
            {
                "number": t.number,
                "name": t.name,
                "played": o is not None,
                "deal_key": o.key if o is not None else None,
                "seats": seats,
            }
        )
    return {"size": size, "tables": tables}
