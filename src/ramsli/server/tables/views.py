"""What each seat of a server table is sent: every field of a view is made here (R7, D-16).

- :func:`view`: the ``view`` message of one seat, or of a spectator (``docs/protocol.md``,
  *The view*), built from ``Hand.observe(seat)`` and the public log only;
- :func:`finished_hand`: a finished hand to read in the page (the public log, and the reader's
  own dealt cards when they sat there);
- :func:`info`: the public table info (``GET /api/tables/{table}``);
- :func:`trick_record`, :func:`results`, :func:`standings`, :func:`rules_view`: their parts.

Nothing here holds another seat's unplayed or folded cards, the stock, the deck order, the cut,
a seed or an RNG state. A view is a function of the table's state only: the table
(:mod:`ramsli.server.tables.table`) decides when it is sent.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ramsli.hand import Observation, Trick, seat_name
from ramsli.history import settlement_record
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules
from ramsli.session import Session

if TYPE_CHECKING:
    from ramsli.server.tables.table import SeatState, Table

__all__ = [
    "view",
    "countdowns",
    "finished_hand",
    "challenge_ref",
    "info",
    "trick_record",
    "hand_record",
    "results",
    "standings",
    "rules_view",
    "rules_summary",
    "rules_changes",
    "fairness_record",
]


def trick_record(t: Trick) -> dict[str, Any]:
    """A completed (or current) trick as sent: ``{"leader", "plays": [[seat, card]], "winner"}``."""
    return {
        "leader": seat_name(t.leader),
        "plays": [[seat_name(a), str(c)] for a, c in t.plays],
        "winner": None if t.winner is None else seat_name(t.winner),
    }


def rules_changes(preset: str, rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from its preset (R6, R8), option -> value: what a page
    shows in its reader's words beside the preset's name (``{"end": ["hands:10"]}``)."""
    try:
        base = Rules.preset(preset)
    except ValueError:
        base = Rules()
    return dict(rules.diff(base))


def rules_summary(preset: str, rules: Rules) -> str:
    """The preset and the options that differ from it: ``"traditional; end=hands:10"`` (a spec for
    programs and logs; a page shows :func:`rules_changes` in its reader's words)."""
    diff = rules_changes(preset, rules)
    parts = [preset] + [f"{k}={','.join(v) if isinstance(v, list) else v}" for k, v in diff.items()]
    return "; ".join(parts)


def rules_view(preset: str, rules: Rules) -> dict[str, Any]:
    """The ``rules`` of a view and of the table info: ``{"preset", "options", "changes", "summary"}``."""
    return {
        "preset": preset,
        "options": rules.to_dict(),
        "changes": rules_changes(preset, rules),
        "summary": rules_summary(preset, rules),
    }


def results(table_id: str, session: Session | None) -> list[dict[str, Any]]:
    """The view's ``results``: one entry per finished hand of the session (R3): settlement kind,
    winners, bete payers, stacks and pot after, the seats that left, the link of its history."""
    if session is None:
        return []
    out = []
    for e in session.results:
        st = e.settlement
        out.append(
            {
                "hand": e.number,
                "kind": st.kind,
                "winners": [seat_name(w) for w in st.winners],
                "bete": [seat_name(b) for b in st.bete],
                "stacks_after": list(e.stacks_after),
                "pot_after": e.pot_after,
                "left": [seat_name(x) for x in e.left],
                "history": f"/api/tables/{table_id}/hands/{e.number}.toml",
            }
        )
    return out


def standings(table: Table) -> list[dict[str, Any]] | None:
    """Once the session is over, the seats by stack, most first, with shared places on a tie
    (R3.7): ``[{"place", "seat", "name", "stack"}]``; None before."""
    sess = table.session
    if sess is None or not sess.is_over:
        return None
    stacks = sess.stacks
    order = sorted(range(len(table.seats)), key=lambda i: (-stacks[i], i))
    return [
        {
            "place": 1 + sum(1 for v in stacks if v > stacks[i]),
            "seat": seat_name(i),
            "name": table.seats[i].name,
            "stack": stacks[i],
        }
        for i in order
    ]


def _seat_record(table: Table, s: SeatState, obs: Observation | None, now: float) -> dict[str, Any]:
    sess = table.session
    i = s.index
    if obs is not None:
        stack = obs.stacks[i]
    elif sess is not None:
        stack = sess.stacks[i]
    else:
        stack = table.rules.starting_stack
    declared = dict(obs.declarations) if obs is not None else {}
    waiting = table.status == "waiting"
    if i in declared:
        is_in: bool | None = {"in": True, "out": False}.get(declared[i])
    else:
        is_in = True if obs is not None and i in obs.seated and i in obs.active else None
    return {
        "seat": seat_name(i),
        "name": s.name,
        "kind": "human" if (s.taken or (waiting and s.kind == "human")) else "bot",
        "bot": None if s.taken else (s.bot if waiting else s.bot_spec),
        "taken": s.taken,
        "stack": stack,
        "seated": (i in sess.seated) if sess is not None else True,
        "in": is_in,
        "tricks": obs.tricks_won[i] if obs is not None else 0,
        "cards_left": obs.cards_left[i] if obs is not None else 0,
        "away": table.is_away(s),
        "bot_playing": table.proxy_playing(s, now),
        "bot_in": _seconds_until(table.bot_due(s), now),
        "left": s.left,
        "dealer": obs is not None and obs.dealer == i,
        "external": s.taken and s.external,
    }


def fairness_record(
    table: Table, number: int | None, reader: SeatState | None, seated: tuple[int, ...]
) -> dict[str, Any] | None:
    """The ``fairness`` of a hand as ``reader`` (None: a spectator) is sent it
    (``docs/fairness.md``): ``{"scheme", "table", "hand", "dealer", "digest", "commitments",
    "openings": [{"position", "card", "salt"}], "seated"}`` (no ``table``, ``hand``, ``dealer``
    under ``ramsli-deal/1``), one commitment per deck position in dealt order, the openings
    of the cards the reader may know now (R7, D-16; :meth:`~ramsli.server.tables.table.Table.proof`) and
    the seats dealt in that hand (``seated``, R3.5: the deal's places follow from them); None
    for a hand dealt without commitments."""
    proof = table.proof(number, reader) if number is not None else None
    if proof is None:
        return None
    data = proof.to_data()
    data.pop("seat", None)
    data["seated"] = [seat_name(s) for s in seated]
    return data


def _seconds_until(due: float | None, now: float) -> float | None:
    """Seconds from ``now`` until ``due`` (both ``time.monotonic()``), one decimal; None if
    ``due`` is None or has passed."""
    if due is None or due <= now:
        return None
    return round(due - now, 1)


def countdowns(table: Table, now: float) -> dict[str, Any]:
    """The view's countdowns, in seconds from the moment the view is made (a client counts them
    down itself; every seat sees the same):

    - ``timer``: ``{"seat", "left", "seconds"}`` — the turn timer of the person to act (a bot
      plays their move at 0), or None;
    - ``next_deal``: ``{"in", "waiting"}`` between hands — the next deal at the latest, and the
      seats whose person has not closed the summary yet (the deal comes when none is left), or None;
    - ``starts_in``: a table made by "Play again" that is waiting: seconds until it starts with
      bots in the seats of those who did not come, or None; ``expect``: the seats kept for the
      people of the last session (``[]`` at another table).

    Each seat's ``bot_in`` (in :func:`view`) is the seconds until a bot plays for its away person.
    """
    timer = None
    due = table.timer_due()
    sess = table.session
    if due is not None and sess is not None and sess.hand is not None and sess.hand.to_act is not None:
        timer = {
            "seat": seat_name(sess.hand.to_act),
            "left": max(0.0, round(due - now, 1)),
            "seconds": table.options.turn_seconds,
        }
    next_deal = None
    if table.status == "playing" and sess is not None and sess.hand is None:
        next_deal = {
            "in": max(0.0, round(table.deal_due() - now, 1)),
            "waiting": [seat_name(s.index) for s in table.readers()],
        }
    return {
        "timer": timer,
        "next_deal": next_deal,
        "starts_in": _seconds_until(table.start_due(), now),
        "expect": [seat_name(i) for i in (table.rematch or {}).get("expect", [])],
    }


def hand_record(obs: Observation, number: int | None, log: list[str]) -> dict[str, Any]:
    """The ``hand`` of a view as ``obs``'s seat is sent it (``docs/protocol.md``; R7: only what the
    observation holds): number, phase, dealer, to act, turn-up, trump, the jokers turned aside, pot,
    declarations, General Rams, targets, the current and the last trick, the tricks, the public
    ``log`` (action texts) and the settlement of a finished hand. Without ``fairness`` (the table's)."""
    tricks = [trick_record(t) for t in obs.tricks]
    return {
        "number": number,
        "phase": obs.phase.value,
        "dealer": seat_name(obs.dealer),
        "to_act": None if obs.to_act is None else seat_name(obs.to_act),
        "turn_up": str(obs.turn_up),
        "trump": obs.trump,
        "turned_aside": [str(c) for c in obs.turned_aside],
        "pot": obs.pot,
        "declarations": [[seat_name(a), d] for a, d in obs.declarations],
        "general_rams": None if obs.general_rams is None else seat_name(obs.general_rams),
        "targets": [[seat_name(a), t] for a, t in obs.targets],
        "current": {
            "leader": None if obs.leader is None else seat_name(obs.leader),
            "plays": [[seat_name(a), str(c)] for a, c in obs.current],
        },
        "last_trick": tricks[-1] if tricks else None,
        "tricks": tricks,
        "log": log,
        "settlement": settlement_record(obs.settlement) if obs.settlement is not None else None,
    }


def view(table: Table, seat: int | None) -> dict[str, Any]:
    """The view of ``seat`` (None: a spectator), as ``docs/protocol.md`` describes it (R7).

    A seat nobody sits at yet (a bot seat whose link was opened, a takeover still ``pending``
    until the next deal) gets a spectator's view: a bot plays those cards, and the person
    holding the link may not see them (R7, D-16); ``you.pending`` says so. ``paused``: an
    evening's director paused the table (nothing moves until it goes on); ``evening``: the
    evening it plays for (``{"id", "round", "table", "name"}``), or None. ``bot_moves``: the
    moves a bot made for this seat's person (turn timer, away) in the hand the view shows, only in
    that seat's own view (issue 36.3; R7, D-16: another seat and a spectator get ``[]``).
    """
    sess = table.session
    hand, number = table.current_hand()
    private = seat is not None and table.seats[seat].taken
    obs: Observation | None = None
    if hand is not None:
        obs = hand.observe(seat if private and seat is not None else hand.seated[0])
    now = time.monotonic()
    hand_v = None
    if hand is not None and obs is not None:
        hand_v = hand_record(obs, number, [str(a) for a in hand.history])
        reader = table.seats[seat] if private and seat is not None else None
        hand_v["fairness"] = fairness_record(table, number, reader, obs.seated)
    mine = obs if private else None
    return {
        "type": "view",
        "table": table.id,
        "seq": table.seq,
        "you": {
            "role": "seat" if seat is not None else "spectator",
            "seat": None if seat is None else seat_name(seat),
            "pending": seat is not None and table.seats[seat].pending is not None,
        },
        "status": table.status,
        "test_seeded": table.seed is not None,
        "rules": table.rules_view,
        "options": table.options.to_dict(),
        "seats": [_seat_record(table, s, obs, now) for s in table.seats],
        "hand": hand_v,
        "to_act": hand_v["to_act"] if hand_v else None,
        "your_cards": [str(c) for c in mine.cards] if mine is not None else [],
        "legal": [str(a) for a in mine.legal] if mine is not None else [],
        "bot_moves": _bot_moves(table, seat, number) if private else [],
        "results": results(table.id, sess),
        "standings": standings(table),
        "end_reason": sess.end_reason if sess is not None else None,
        "pot_left": sess.pot if sess is not None and sess.is_over else None,
        "next_table": table.next_table,
        "paused": table.paused,
        "evening": table.evening,
        "challenge": challenge_ref(table),
        **countdowns(table, now),
    }


def challenge_ref(table: Table) -> dict[str, Any] | None:
    """The weekly challenge's deal a table plays (issue 35, docs/challenge.md): ``{"week", "deal",
    "club"}`` (``club`` None for the server's challenge), or None for another table."""
    ref = table.spec.get("challenge")
    if not isinstance(ref, dict):
        return None
    scope = ref.get("scope")
    return {"week": ref.get("week"), "deal": ref.get("deal"), "club": None if scope == "server" else scope}


def _bot_moves(table: Table, seat: int | None, number: int | None) -> list[dict[str, Any]]:
    """The moves a bot made for ``seat``'s person in hand ``number`` (the hand the view shows), oldest
    first (``{"n", "by", "hand", "action"}``, ``SeatState.bot_moves``): a view names no card of
    another hand."""
    if seat is None or number is None:
        return []
    return [dict(m) for m in table.seats[seat].bot_moves if m["hand"] == number]


def finished_hand(table: Table, number: int, seat: SeatState | None) -> dict[str, Any]:
    """A readable account of finished hand ``number`` for ``seat`` (None: a spectator): the
    public log (declarations, every trick, the settlement) and, when
    :meth:`~ramsli.server.tables.table.Table.own_cards_shown`, that seat's own dealt cards; never
    anyone else's unplayed or folded cards, the stock or the cut (R7, D-16).

    Raises:
        Refused: ``no_hand`` if hand ``number`` is not finished.
    """
    s = table.session
    if s is None or not 1 <= number <= len(s.results):
        raise Refused(Refusal("no_hand", None, {"number": number}))
    entry = s.results[number - 1]
    hand = entry.hand
    if hand is None:  # a hand booked without cards (not at a server table)
        raise Refused(Refusal("no_hand", None, {"number": number}))
    obs = hand.observe(hand.seated[0])  # only public fields are read from it
    own = seat if seat is not None and table.own_cards_shown(seat, number) else None
    return {
        "number": number,
        "dealer": seat_name(hand.dealer),
        "turn_up": str(hand.turn_up),
        "trump": obs.trump,
        "turned_aside": [str(c) for c in hand.turned_aside],
        "declarations": [[seat_name(a), d] for a, d in obs.declarations],
        "tricks": [trick_record(t) for t in obs.tricks],
        "settlement": settlement_record(entry.settlement),
        "your_cards": [str(c) for c in hand.dealt[own.index] if c is not None] if own is not None else [],
        "history": f"/api/tables/{table.id}/hands/{number}.toml",
        "fairness": fairness_record(table, number, own, hand.seated),
    }


def info(table: Table, spectate: bool = False) -> dict[str, Any]:
    """Public table info (no tokens, no cards): status, rules, options, seats; ``paused`` and
    ``evening`` (``{"id", "round", "table", "name"}`` of the evening it plays for, or None) as in
    :func:`view`; ``spectate`` (the spectator link) only with ``spectate`` true: for a holder of a
    token of the table or at a table open in the lobby (issue 38.1)."""
    out = {
        "table": table.id,
        "status": table.status,
        "seq": table.seq,
        "test_seeded": table.seed is not None,
        "rules": table.rules_view,
        "options": table.options.to_dict(),
        "seats": [
            {
                "seat": seat_name(s.index),
                "name": s.name,
                "kind": s.kind,
                "bot": s.bot,
                "taken": s.taken,
                "external": s.taken and s.external,
            }
            for s in table.seats
        ],
        "paused": table.paused,
        "evening": table.evening,
        "challenge": challenge_ref(table),
    }
    if spectate:
        out["spectate"] = f"/t/{table.id}/watch/{table.spectator_token}"
    return out
