"""A seat's view of the table protocol read back into the engine's :class:`~ramsli.hand.Observation` (R7).

The server builds every seat's ``view`` from ``Hand.observe(seat)`` plus the public log
(``docs/protocol.md``, *The view*); :func:`observation_from_view` is the inverse: the same
:class:`~ramsli.hand.Observation` the engine's bots get at a local table, so any bot plays at a
remote table unchanged. It reads only what the view holds: a view holds no hidden card, and so
neither does the observation.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ramsli.cards import Card
from ramsli.hand import Action, Declaration, Observation, Phase, Trick
from ramsli.rules import Rules
from ramsli.seats import order_from_dealer, parse_seat, seat_name
from ramsli.server.tables.views import hand_record
from ramsli.settlement import Payment, PaymentReason, Settlement, SettlementKind

__all__ = ["observation_from_view", "view_from_observation", "settlement_from_record", "ViewError"]


class ViewError(ValueError):
    """A view that cannot be read as an observation: no hand in it, no seat of its own, or a field
    of the wrong shape. The message names what is missing."""


def _seat(text: object, n: int) -> int:
    if not isinstance(text, str):
        raise ViewError(f"a seat must be text like 'p2', not {text!r}")
    try:
        return parse_seat(text, n)
    except ValueError as e:
        raise ViewError(str(e)) from None


def _seat_or_none(text: object, n: int) -> int | None:
    return None if text is None else _seat(text, n)


def _plays(plays: Sequence[Sequence[str]], n: int) -> tuple[tuple[int, Card], ...]:
    return tuple((_seat(s, n), Card.parse(c)) for s, c in plays)


def _trick(rec: Mapping[str, Any], n: int) -> Trick:
    return Trick(_seat(rec["leader"], n), _plays(rec["plays"], n), _seat_or_none(rec.get("winner"), n))


def settlement_from_record(rec: Mapping[str, Any], active: Sequence[int], n: int) -> Settlement:
    """The :class:`~ramsli.settlement.Settlement` a ``[settlement]`` record (``settlement_record``,
    as in a view's ``hand.settlement``) was written from (R5). ``active`` is the seats that were in
    (the record does not repeat them); ``stacks_before`` is worked out from ``stacks_after`` and the
    counters each seat won and paid (R3.4: they balance).

    Raises:
        ViewError: for a record of the wrong shape.
    """
    try:
        after = tuple(int(x) for x in rec["stacks_after"])
        won, paid = rec["won"], rec["paid"]
        gr = rec.get("general_rams")
        payments = tuple(
            Payment(
                int(p["step"]),
                None if p["from"] == "pot" else _seat(p["from"], n),
                None if p["to"] == "pot" else _seat(p["to"], n),
                int(p["owed"]),
                int(p["paid"]),
                PaymentReason(p["reason"]),
            )
            for p in rec["payments"]
        )
        return Settlement(
            kind=SettlementKind(rec["kind"]),
            pot=int(rec["pot"]),
            tricks=tuple(int(x) for x in rec["tricks"]),
            active=tuple(active),
            winners=tuple(_seat(w, n) for w in rec["winners"]),
            share=int(rec["share"]),
            bete=tuple(_seat(b, n) for b in rec["bete"]),
            general_rams=None if gr is None else _seat(gr, n),
            general_rams_made=None if gr is None else bool(rec["general_rams_made"]),
            targets=tuple((_seat(t["seat"], n), int(t["target"]), bool(t["met"])) for t in rec["targets"]),
            payments=payments,
            carry_over=int(rec["carry_over"]),
            stacks_before=tuple(a - w + p for a, w, p in zip(after, won, paid, strict=True)),
            stacks_after=after,
        )
    except (KeyError, TypeError, ValueError) as e:
        if isinstance(e, ViewError):
            raise
        raise ViewError(f"the settlement record does not read: {e!r}") from None


def observation_from_view(view: Mapping[str, Any]) -> Observation:
    """The :class:`~ramsli.hand.Observation` of the view's own seat (R7): its own cards, its legal
    actions, the declarations, tricks, stacks, pot and rules, exactly as ``Hand.observe(seat)``
    gives them at the server.

    A view a spectator holds (or a seat whose takeover waits for the next deal) has no cards of its
    own and no ``legal``: it reads as the observation of its seat with ``cards == ()`` (a spectator:
    of the first seat dealt in). The seats dealt in the hand are the view's ``fairness.seated``
    (else the seats still seated in the session).

    Raises:
        ViewError: a view without a hand (before the first deal), or a field of the wrong shape.

    >>> observation_from_view({"type": "view", "hand": None})
    Traceback (most recent call last):
    ...
    ramsli.client.observation.ViewError: the view holds no hand yet (before the first deal)
    """
    hand = view.get("hand")
    if not hand:
        raise ViewError("the view holds no hand yet (before the first deal)")
    try:
        seats = view["seats"]
        n = len(seats)
        rules = Rules.from_dict(view["rules"]["options"])
        fair = hand.get("fairness")
        if fair and fair.get("seated"):
            seated = tuple(sorted(_seat(s, n) for s in fair["seated"]))
        else:
            seated = tuple(i for i, s in enumerate(seats) if s["seated"])
        dealer = _seat(hand["dealer"], n)
        you = view["you"]
        seat = _seat(you["seat"], n) if you.get("seat") is not None else seated[0]
        order = order_from_dealer(dealer, seated, n)
        active = tuple(s for s in order if seats[s]["in"] is True)
        current = hand["current"]
        settlement = hand.get("settlement")
        return Observation(
            seat=seat,
            phase=Phase(hand["phase"]),
            rules=rules,
            seated=seated,
            dealer=dealer,
            to_act=_seat_or_none(hand["to_act"], n),
            cards=tuple(Card.parse(c) for c in view["your_cards"]),
            turn_up=Card.parse(hand["turn_up"]),
            turned_aside=tuple(Card.parse(c) for c in hand["turned_aside"]),
            trump=hand["trump"],
            declarations=tuple((_seat(s, n), Declaration(d)) for s, d in hand["declarations"]),
            active=active,
            general_rams=_seat_or_none(hand["general_rams"], n),
            targets=tuple((_seat(s, n), int(t)) for s, t in hand["targets"]),
            tricks=tuple(_trick(t, n) for t in hand["tricks"]),
            current=_plays(current["plays"], n),
            leader=_seat_or_none(current["leader"], n),
            tricks_won=tuple(int(s["tricks"]) for s in seats),
            cards_left=tuple(int(s["cards_left"]) for s in seats),
            stacks=tuple(int(s["stack"]) for s in seats),
            pot=int(hand["pot"]),
            legal=tuple(Action.parse(a, n) for a in view["legal"]),
            settlement=None if settlement is None else settlement_from_record(settlement, active, n),
        )
    except ViewError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise ViewError(f"the view does not read as an observation: {e!r}") from None


def view_from_observation(
    obs: Observation,
    *,
    table: str,
    seq: int,
    number: int | None = None,
    names: Sequence[str] | None = None,
    status: str = "playing",
    preset: str = "custom",
    results: Sequence[Mapping[str, Any]] = (),
    standings: Sequence[Mapping[str, Any]] | None = None,
    end_reason: str | None = None,
) -> dict[str, Any]:
    """A protocol ``view`` message (``docs/protocol.md``) for ``obs.seat`` built from ``obs`` alone:
    what a host that is not a ramsli server (the arena's remote seat, :mod:`ramsli.client.host`)
    sends. It holds what the observation holds and nothing else (R7); the public ``log`` is empty
    (an observation keeps no log), ``fairness`` has only ``seated`` (no deal commitments).
    :func:`observation_from_view` reads it back as ``obs``.
    """
    n = len(obs.stacks)
    declared = dict(obs.declarations)
    seats = []
    for i in range(n):
        if i in declared:
            is_in: bool | None = {"in": True, "out": False}.get(declared[i])
        else:
            is_in = True if i in obs.seated and i in obs.active else None
        seats.append(
            {
                "seat": seat_name(i),
                "name": names[i] if names is not None else seat_name(i),
                "kind": "human" if i == obs.seat else "bot",
                "bot": None,
                "taken": i == obs.seat,
                "stack": obs.stacks[i],
                "seated": i in obs.seated,
                "in": is_in,
                "tricks": obs.tricks_won[i],
                "cards_left": obs.cards_left[i],
                "away": False,
                "bot_playing": False,
                "dealer": obs.dealer == i,
                "external": i == obs.seat,
            }
        )
    hand = dict(hand_record(obs, number, []), fairness={"seated": [seat_name(s) for s in obs.seated]})
    return {
        "type": "view",
        "table": table,
        "seq": seq,
        "you": {"role": "seat", "seat": seat_name(obs.seat), "pending": False},
        "status": status,
        "test_seeded": False,
        "rules": {"preset": preset, "options": obs.rules.to_dict(), "summary": preset},
        "options": {},
        "seats": seats,
        "hand": hand,
        "to_act": hand["to_act"],
        "your_cards": [str(c) for c in obs.cards],
        "legal": [str(a) for a in obs.legal],
        "results": [dict(r) for r in results],
        "standings": None if standings is None else [dict(s) for s in standings],
        "end_reason": end_reason,
    }
