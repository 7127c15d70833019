"""What an evening's readers are sent: its state, its download and its audit trail (issue 34).

- :func:`state`: ``GET /api/evenings/{id}`` — the evening as the pages show it (who is coming,
  the rounds and their tables, the standings, the audit trail, the reader's own part);
- :func:`download`: ``GET /api/evenings/{id}/download.json`` — everything ``ramsli verify``
  needs to recompute every draw and the standings (``"kind": "ramsli-evening"``);
- :func:`audit`: the log as the page lists it, each entry with who, when and a sentence in the
  reader's language.

Nothing here holds a card, a seat's or a ledger's token, or a seed not yet opened (R7, D-16):
the tables are named by their ids, results are counters and places from the session records, and
the seeds listed are those the ``start_round`` entries opened.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ramsli.evening.check import row_check
from ramsli.evening.duplicate import DealResult
from ramsli.evening.scoring import Standing, TableResult
from ramsli.i18n import translation
from ramsli.refusal import N_
from ramsli.seats import seat_name
from ramsli.server.evenings.log import Pause
from ramsli.server.evenings.state import Evening, results_by_round

__all__ = ["AUDIT", "audit", "state", "download", "seats_json", "summary_of", "standings_json", "named_ids"]

#: the sentence of each audit entry (``{by}``: who did it; the others as the entry says)
AUDIT: Mapping[str, str] = {
    "create": N_("{by} created the evening"),
    "check_in": N_("{who} checked in, playing from round {round}"),
    "check_out": N_("{who} checked out"),
    "withdraw": N_("{who} withdrew: no table from round {round} on"),
    "substitute": N_("{by} added the substitute {who}"),
    "start_round": N_("{by} started round {round}: its tables are drawn and its seed is open"),
    "reseat": N_("{by} swapped the seats of {a} and {b} in round {round}"),
    "pause": N_("{by} paused table {table} of round {round}"),
    "go_on": N_("{by} let table {table} of round {round} go on"),
    "captain": N_("{by} made {who} the captain of table {table} in round {round}"),
    "close": N_("{by} closed the evening"),
}
#: who did it, when nobody is named
SOMEONE = N_("someone")


def summary_of(spec: Mapping[str, Any]) -> str:
    """The rules as one line: the preset and the evening's options (``traditional; ante=2``)."""
    return "; ".join([str(spec.get("preset", "traditional")), *[str(r) for r in spec.get("rules", [])]])


def audit(ev: Evening, names: Mapping[str, str | None], lang: str) -> list[dict[str, Any]]:
    """The audit trail: ``[{"seq", "at", "by": {"id", "name"} | None, "kind", "text"}]``, oldest first."""
    tr = translation(lang)
    out = []
    for e in ev.entries:
        data = e.record.to_data()
        kind = e.kind
        if isinstance(e.record, Pause) and not e.record.paused:
            kind = "go_on"
        who = names.get(str(data.get("participant"))) or data.get("name") or data.get("participant")
        fields = {
            "by": names.get(e.by or "") or tr.gettext(SOMEONE),
            "who": who,
            "round": data.get("from_round", data.get("round")),
            "table": data.get("table"),
            "a": names.get(str(data.get("a"))) or data.get("a"),
            "b": names.get(str(data.get("b"))) or data.get("b"),
        }
        out.append(
            {
                "seq": e.seq,
                "at": e.at,
                "by": None if e.by is None else {"id": e.by, "name": names.get(e.by)},
                "kind": e.kind,
                "text": tr.gettext(AUDIT[kind]).format(**fields),
            }
        )
    return out


def seats_json(ev: Evening, ids: tuple[str, ...]) -> list[dict[str, Any]]:
    """A table's seats: ``[{"seat": "p1", "id", "name", "kind"}]``."""
    return [
        {
            "seat": seat_name(i),
            "id": pid,
            "name": ev.people[pid].name if pid in ev.people else pid,
            "kind": ev.people[pid].kind if pid in ev.people else "person",
        }
        for i, pid in enumerate(ids)
    ]


def _shown(x: float | None) -> float | None:
    return None if x is None else round(x, 2)


def standings_json(ev: Evening, lines: list[Standing]) -> list[dict[str, Any]]:
    """The standings as the pages show them (scores to 2 decimals)."""
    return [
        {
            "rank": s.rank,
            "id": s.participant,
            "name": ev.people[s.participant].name if s.participant in ev.people else s.participant,
            "kind": ev.people[s.participant].kind if s.participant in ev.people else "person",
            "score": _shown(s.score),
            "rounds": [_shown(x) for x in s.rounds],
            "net_vs_mean": _shown(s.net_vs_mean),
            "firsts": s.firsts,
            "note": s.note,
        }
        for s in lines
    ]


def state(
    ev: Evening,
    *,
    club: Mapping[str, Any] | None,
    director_name: str | None,
    results: Mapping[tuple[int, int], TableResult | None],
    live: Mapping[tuple[int, int], Mapping[str, Any]],
    names: Mapping[str, str | None],
    me: Mapping[str, Any] | None,
    may: Mapping[str, bool],
    lang: str,
    deals: Sequence[DealResult] = (),
) -> dict[str, Any]:
    """The evening as ``GET /api/evenings/{id}`` answers it (``docs/evenings.md``).

    Args:
        club: ``{"id", "name"}`` of its club, or None; director_name: the director's name.
        results: (round, table number) -> the table's result, or None while it plays.
        live: (round, table number) -> ``{"hands_played", "status"}`` (``playing``, ``paused``, ``done``).
        names: player id -> name (for the audit trail); me: the reader's part, or None (not
            logged in); may: what the reader may do; lang: the audit trail's language.
        deals: a duplicate evening's deals of the rounds every table has finished (its standings).
    """
    spec = ev.spec
    rounds = []
    for r in ev.rounds:
        tables = []
        for plan in r.tables:
            res = results.get((r.round, plan.number))
            lv = live.get((r.round, plan.number), {})
            tables.append(
                {
                    "number": plan.number,
                    "name": plan.name,
                    "kind": plan.kind,
                    "mode": plan.mode,
                    "table": plan.table,
                    "ledger": plan.ledger,
                    "captain": plan.captain,
                    "hands": plan.hands,
                    "hands_played": lv.get("hands_played", 0),
                    "status": lv.get("status", "playing"),
                    # the score sheet's check digit of each hand (hand k at k - 1), real cards only
                    "checks": [row_check(ev.id, r.round, plan.number, k) for k in range(1, plan.hands + 1)]
                    if plan.mode == "cards"
                    else None,
                    "seats": seats_json(ev, plan.seats),
                    "results": None
                    if res is None
                    else [
                        {
                            "id": s.participant,
                            "net": s.net,
                            "place": s.place,
                            "score": _shown(s.score),
                            "bot_hands": s.bot_hands,
                        }
                        for s in res.seats
                    ],
                }
            )
        rounds.append(
            {
                "round": r.round,
                "kind": r.kind,
                "done": all(results.get((r.round, t.number)) is not None for t in r.tables),
                "byes": list(r.byes),
                "swaps": [list(s) for s in r.swaps],
                "tables": tables,
            }
        )
    return {
        "id": ev.id,
        "url": f"/e/{ev.id}",
        "name": spec.get("name"),
        "starts": spec.get("starts"),
        "club": None if club is None else {"id": club["id"], "name": club["name"]},
        "director": {"id": ev.director, "name": director_name},
        "preset": spec.get("preset"),
        "rules": list(spec.get("rules", [])),
        "summary": summary_of(spec),
        "mode": spec.get("mode"),
        "members_only": spec.get("members_only"),
        "format": ev.fmt,
        "rounds": spec.get("rounds"),
        "rounds_total": ev.rounds_total,
        "best": spec.get("best"),
        "hands_per_round": spec.get("hands_per_round"),
        "final_size": spec.get("final_size"),
        "small_final": spec.get("small_final"),
        "recurring": spec.get("recurring"),
        "turn_seconds": spec.get("turn_seconds"),
        "grace_seconds": spec.get("grace_seconds"),
        "status": ev.status,
        "round": ev.round,
        "next": None if ev.next is None else {"id": ev.next, "url": f"/e/{ev.next}"},
        "commitment": ev.commitment,
        "seeds": {str(r.round): r.seed for r in ev.rounds},
        "people": [
            {
                "id": p.id,
                "name": p.name,
                "kind": p.kind,
                "checked_in": p.checked_in,
                "from_round": p.from_round,
                "withdrawn": p.withdrawn_from is not None,
            }
            for p in ev.people.values()
        ],
        "pending_swaps": [list(s) for s in ev.pending],
        "rounds_played": rounds,
        "standings": standings_json(ev, ev.standings(results_by_round(results), deals)),
        "audit": audit(ev, names, lang),
        "download": f"/api/evenings/{ev.id}/download.json",
        "me": None if me is None else dict(me),
        "may": dict(may),
    }


def download(
    ev: Evening, results: Mapping[tuple[int, int], TableResult | None], deals: Sequence[DealResult] = ()
) -> dict[str, Any]:
    """The evening's download (``"kind": "ramsli-evening"``, version 1): the spec, the
    commitment and the opened seeds, the participants, every round (who played, byes, sizes,
    the order followed, the tables as drawn, the swaps, the tables played, the results; in a
    duplicate evening the ``deals`` of each round every table has finished: per section and
    hand, each table's public outcome per duplicate seat and the deal's key, no card), the
    standings and the log. Scores as computed (not rounded), so a reader recomputes them exactly."""
    spec = ev.spec
    ids = ev.participant_ids()
    rounds = []
    for r in ev.rounds:
        out_results: list[dict[str, Any] | None] = []
        for plan in r.tables:
            res = results.get((r.round, plan.number))
            out_results.append(
                None
                if res is None
                else {
                    "table": plan.number,
                    "kind": res.kind,
                    "mode": plan.mode,
                    "hands": plan.hands,
                    "seats": [s.to_data() for s in res.seats],
                }
            )
        rounds.append(
            {
                "round": r.round,
                "kind": r.kind,
                "participants": list(r.participants),
                "byes": list(r.byes),
                "sizes": list(r.sizes),
                "order": None if r.order is None else list(r.order),
                "drawn": [list(t) for t in r.drawn],
                "swaps": [list(s) for s in r.swaps],
                "tables": [list(t.seats) for t in r.tables],
                "results": out_results,
            }
        )
        if ev.fmt == "duplicate":
            rounds[-1]["deals"] = [
                {
                    "size": d.size,
                    "hand": d.hand,
                    "tables": [
                        {"table": t.table, "deal_key": t.key, "seats": [s.to_data() for s in t.seats]} for t in d.tables
                    ],
                }
                for d in deals
                if d.round == r.round
            ]
    return {
        "kind": "ramsli-evening",
        "version": 1,
        "id": ev.id,
        "name": spec.get("name"),
        "starts": spec.get("starts"),
        "format": ev.fmt,
        "preset": spec.get("preset"),
        "rules": list(spec.get("rules", [])),
        "best": spec.get("best"),
        "rounds": spec.get("rounds"),
        "rounds_total": ev.rounds_total,
        "hands_per_round": spec.get("hands_per_round"),
        "final_size": spec.get("final_size"),
        "small_final": spec.get("small_final"),
        "commitment": ev.commitment,
        "seeds": {str(r.round): r.seed for r in ev.rounds},
        "participants": {
            pid: {"name": ev.people[pid].name, "kind": ev.people[pid].kind} for pid in ids if pid in ev.people
        },
        "rounds_played": rounds,
        "standings": [s.to_data() for s in ev.standings(results_by_round(results), deals)],
        "log": [e.to_data() for e in ev.entries],
    }


def named_ids(ev: Evening) -> set[str]:
    """The player ids the log names (who made each entry, who it is about), and the director."""
    out = {ev.director}
    for e in ev.entries:
        data = e.record.to_data()
        out |= {x for x in (e.by, data.get("participant"), data.get("a"), data.get("b")) if isinstance(x, str)}
    return out
