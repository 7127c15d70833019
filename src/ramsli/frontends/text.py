"""Cards, table states, hand logs, settlements and standings as translated text.

Shared by the ``--plain`` line mode and the Textual app, so that both say the
same thing in the same words (RULES.md R9). Only public facts appear (R7): a
seat's own cards, the turn-up, declarations, announcements, cards played,
tricks, stacks and the pot.
"""

from __future__ import annotations

import datetime as _dt
from typing import Sequence

from ramsli.cards import Card, Suit
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.rules import Rules
from ramsli.session import EndReason
from ramsli.settlement import Settlement
from ramsli.frontends.i18n import _, ngettext, translate_reason

__all__ = ["card_label", "suit_label", "seat_label", "action_text", "trick_text", "table_lines", "info_line",
           "cards_line", "prompt_text", "log_lines", "settlement_lines", "standings_lines", "end_reason_text",
           "help_lines", "reason_text", "phase_text", "declaration_text", "counters", "seat_status",
           "hand_title", "session_end_text", "last_trick_lines"]


def card_label(card: Card, suits: str = "french") -> str:
    """A card as shown to the player: ``"A♠"``, ``"10♥"``, ``"Grün Daus"`` (D-1), jokers by name (R1.3)."""
    if card.suit is None:
        return _("big joker") if card.rank == 16 else _("little joker")
    return card.display(suits)


def suit_label(suit: str, suits: str = "french") -> str:
    """A suit as shown: ``"♥"`` or, with German pictures, ``"Herz"`` (D-1)."""
    return Suit(suit).display(suits)


def seat_label(seat: int, names: Sequence[str]) -> str:
    """A seat's player name."""
    return names[seat]


def counters(n: int) -> str:
    """``"1 counter"``, ``"5 counters"`` in the language in use (R9: Chip, fiche, gettone)."""
    return ngettext("{n} counter", "{n} counters", n).format(n=n)


def declaration_text(decl: str) -> str:
    """``"in"``/``"out"`` in the language in use (R9: rein/raus, mee/pas, dentro/fuori)."""
    return _("in") if decl == "in" else _("out")


def phase_text(phase: Phase) -> str:
    """The hand's phase in words."""
    return {
        Phase.DECLARE: _("declarations"),
        Phase.GENERAL_RAMS: _("General Rams"),
        Phase.TARGETS: _("targets"),
        Phase.PLAY: _("play"),
        Phase.OVER: _("hand over"),
    }[phase]


def action_text(action: Action, names: Sequence[str], suits: str = "french", human: int | None = None) -> str:
    """One action as a sentence: ``"Anna: in"``, ``"Anna plays A♠"`` (R4.5–R4.10).

    The moves of seat ``human`` (the player reading) are in the second person:
    ``"You play A♠"``, ``"You announce General Rams"``.
    """
    who = names[action.seat]
    k = action.kind
    if human is not None and action.seat == human and k not in ("in", "out", "pass"):
        if k == "gr":
            return _("You announce General Rams")
        if k == "t":
            return _("You announce a target of {n} tricks").format(n=action.target)
        return _("You play {card}").format(card=card_label(action.card, suits))
    if k in ("in", "out"):
        return _("{name}: {declaration}").format(name=who, declaration=declaration_text(k))
    if k == "gr":
        return _("{name} announces General Rams").format(name=who)
    if k == "pass":
        return _("{name}: no announcement").format(name=who)
    if k == "t":
        return _("{name} announces a target of {n} tricks").format(name=who, n=action.target)
    return _("{name} plays {card}").format(name=who, card=card_label(action.card, suits))


def trick_text(obs: Observation, names: Sequence[str], suits: str = "french") -> str:
    """The trick on the table: ``"Trick 2: Anna A♠, Bo 7♠"``; after the last card, the last trick."""
    if obs.current:
        n = len(obs.tricks) + 1
        plays = obs.current
    elif obs.tricks:
        n = len(obs.tricks)
        plays = obs.tricks[-1].plays
    else:
        return _("No card on the table yet.")
    body = ", ".join(f"{names[s]} {card_label(c, suits)}" for s, c in plays)
    line = _("Trick {n}: {cards}").format(n=n, cards=body)
    if not obs.current and obs.tricks:
        line += " — " + _("{name} takes the trick").format(name=names[obs.tricks[-1].winner])
    return line


def last_trick_lines(obs: Observation, names: Sequence[str], suits: str = "french") -> list[str]:
    """The last finished trick, one line per card in the order played, then who took it (R4.11);
    ``["No trick is finished yet."]`` before the first one."""
    tr = obs.last_trick
    if tr is None:
        return [_("No trick is finished yet.")]
    lines = [_("Trick {n}").format(n=len(obs.tricks))]
    lines += [f"  {names[s]}: {card_label(c, suits)}" for s, c in tr.plays]
    lines.append(_("{name} takes the trick").format(name=names[tr.winner]))
    return lines


def seat_status(obs: Observation, seat: int) -> str:
    """``in``, ``out`` or ``…`` (not declared yet) for one seat, translated."""
    if seat not in obs.seated:
        return _("not seated")
    for s, d in obs.declarations:
        if s == seat:
            return declaration_text(d)
    if obs.rules.compulsory:
        return declaration_text("in")
    return "…"


def table_lines(obs: Observation, names: Sequence[str], human: int) -> list[str]:
    """One line per seat: seat, name, stack, in/out, tricks taken, dealer button, whose turn (R7)."""
    width = max(len(n) for n in names)
    out = []
    for s, name in enumerate(names):
        marks = []
        if s == obs.dealer:
            marks.append(_("dealer"))
        if s == obs.general_rams:
            marks.append(_("General Rams"))
        for ts, t in obs.targets:
            if ts == s:
                marks.append(_("target {n}").format(n=t))
        if s == obs.to_act:
            marks.append(_("to act"))
        if s == human:
            marks.append(_("you"))
        out.append("{seat} {name}  {stack}  {status}  {tricks}{marks}".format(
            seat=f"p{s + 1}", name=name.ljust(width),
            stack=_("stack {n}").format(n=obs.stacks[s]).ljust(10),
            status=seat_status(obs, s).ljust(6),
            tricks=ngettext("{n} trick", "{n} tricks", obs.tricks_won[s]).format(n=obs.tricks_won[s]).ljust(9),
            marks=("  [" + ", ".join(marks) + "]") if marks else ""))
    return out


def info_line(obs: Observation, suits: str = "french") -> str:
    """``"Pot: 5 · Turn-up: 9♥ · Trump: ♥"`` (R4.4), with any joker turned aside (D-9)."""
    parts = [_("Pot: {n}").format(n=obs.pot),
             _("Turn-up: {card}").format(card=card_label(obs.turn_up, suits)),
             _("Trump: {suit}").format(suit=suit_label(obs.trump, suits))]
    if obs.turned_aside:
        parts.append(_("turned aside: {cards}").format(
            cards=", ".join(card_label(c, suits) for c in obs.turned_aside)))
    return " · ".join(parts)


def cards_line(obs: Observation, suits: str = "french") -> str:
    """The player's cards numbered 1–5; in the play phase on their turn, unplayable ones are marked."""
    legal = {a.card for a in obs.legal if a.kind == "pl"}
    marking = obs.phase is Phase.PLAY and obs.to_act == obs.seat
    parts = []
    for i, c in enumerate(obs.cards, 1):
        label = f"{i} {card_label(c, suits)}"
        if marking and c not in legal:
            label += " (" + _("not playable") + ")"
        parts.append(label)
    return _("Your cards: {cards}").format(cards=" · ".join(parts) if parts else "—")


def prompt_text(obs: Observation) -> str:
    """What the player is asked now, with the commands that answer it (R4.5–R4.10)."""
    ph = obs.phase
    if ph is Phase.DECLARE:
        return _("Declare: in or out?")
    if ph is Phase.GENERAL_RAMS:
        return _("Announce General Rams (gr) or pass?")
    if ph is Phase.TARGETS:
        top = max(a.target for a in obs.legal if a.kind == "t")
        return _("Announce a trick target (target 2 to {top}) or pass?").format(top=top)
    if ph is Phase.PLAY:
        if len(obs.cards) == 1:
            if obs.current:
                return _("Your turn: play your last card (1).")
            return _("Your lead: play your last card (1).")
        if obs.current:
            return _("Your turn: play a card (1 to {n}).").format(n=len(obs.cards))
        return _("Your lead: play a card (1 to {n}).").format(n=len(obs.cards))
    return ""


def log_lines(hand: Hand, names: Sequence[str], suits: str = "french", human: int | None = None) -> list[str]:
    """The hand so far, one line per action, with trick winners (only public facts, R7);
    the moves of seat ``human`` in the second person (see :func:`action_text`)."""
    out = [_("Dealer: {name}").format(name=names[hand.dealer]),
           _("Turn-up: {card}").format(card=card_label(hand.turn_up, suits)) + " · "
           + _("Trump: {suit}").format(suit=suit_label(hand.trump, suits))]
    if hand.rules.compulsory:
        out.append(_("Compulsory Ramsli: everyone is in (R4.5)."))
    plays = 0
    done = 0
    n_active = max(len(hand.active), 1)
    for a in hand.history:
        out.append(action_text(a, names, suits, human))
        if a.kind == "pl":
            plays += 1
            if plays % n_active == 0 and done < len(hand.tricks):
                t = hand.tricks[done]
                done += 1
                out.append("  " + _("{name} takes trick {n}").format(name=names[t.winner], n=done))
    return out


def settlement_lines(st: Settlement, names: Sequence[str]) -> list[str]:
    """Who took the pot, who paid bete, General Rams and target payments, what carries over (R5)."""
    out = []
    if st.kind == "thrown-in":
        out.append(_("Everyone is out: the hand is thrown in and the pot of {n} carries over (D-10).")
                   .format(n=st.pot))
    elif st.kind == "walkover":
        out.append(_("{name} is the only player in and takes the pot of {n} without play (R4.6).")
                   .format(name=names[st.winners[0]], n=st.share))
    else:
        out.append(_("Tricks: {list}").format(list=", ".join(f"{names[s]} {st.tricks[s]}" for s in st.active)))
        if len(st.winners) == 1:
            out.append(_("{name} takes the pot: {counters} (R5.1).").format(name=names[st.winners[0]], counters=counters(st.share)))
        else:
            out.append(_("{names} share the pot: {counters} each (R5.2).").format(
                names=", ".join(names[s] for s in st.winners), counters=counters(st.share)))
        if st.general_rams is not None:
            gr = names[st.general_rams]
            if st.general_rams_made:
                out.append(_("{name} made General Rams and collects {counters} more (R5.6).").format(
                    name=gr, counters=counters(sum(p.paid for p in st.payments if p.reason == "general-rams"))))
            else:
                out.append(_("{name} failed General Rams and pays {counters} into the pot (R5.6).").format(
                    name=gr, counters=counters(sum(p.paid for p in st.payments if p.reason == "general-rams-penalty"))))
        for s in st.bete:
            paid = sum(p.paid for p in st.payments if p.reason == "bete" and p.payer == s)
            out.append(_("{name} took no trick and pays bete: {counters} (R5.3).").format(name=names[s], counters=counters(paid)))
        for s, t, met in st.targets:
            if met:
                n = sum(p.paid for p in st.payments if p.reason == "target" and p.payee == s)
                out.append(_("{name} made the target of {t} tricks and is paid {counters} (R5.7).").format(
                    name=names[s], t=t, counters=counters(n)))
            else:
                n = sum(p.paid for p in st.payments if p.reason == "target-missed" and p.payer == s)
                out.append(_("{name} missed the target of {t} tricks and pays {counters} into the pot (R5.7).")
                           .format(name=names[s], t=t, counters=counters(n)))
    for s, n in sorted(st.shortfalls().items()):
        out.append(_("{name} could not pay {counters}; the shortfall is forgiven (D-6).").format(name=names[s], counters=counters(n)))
    if st.kind != "thrown-in":
        out.append(_("Carry-over to the next hand: {counters} (R5.4).").format(counters=counters(st.carry_over)))
    out.append(_("Stacks: {list}").format(list=", ".join(f"{names[s]} {v}" for s, v in enumerate(st.stacks_after))))
    return out


def hand_title(n: int, dealer: str, rules: Rules | None = None) -> str:
    """``"Hand 2 — dealer: Anna"``, or ``"Hand 2 of 10 — dealer: Anna"`` when the session ends after
    an agreed number of hands (``end=hands:10``, R3.6)."""
    total = rules.end_value("hands") if rules is not None else None
    if total is not None:
        return _("Hand {n} of {total} — dealer: {name}").format(n=n, total=total, name=dealer)
    return _("Hand {n} — dealer: {name}").format(n=n, name=dealer)


def session_end_text(rules: Rules, elapsed: float = 0.0, now: _dt.datetime | None = None) -> str:
    """When the session ends, besides the hand count of :func:`hand_title` (R3.5, R3.6).

    Args:
        rules: the session's rules (``end`` and ``bust``).
        elapsed: seconds of the session already played (for ``end=time:M``).
        now: the wall clock (default now), to show the end time of ``time:M`` as ``HH:MM``.

    Returns:
        e.g. ``"first to 30 counters"``, ``"until 21:30"``, both joined by ``" · "``; with no end
        condition ``"until a player is bust"`` (``bust=end``) or ``"until one player is left"``
        (``bust=leave``); ``""`` when only ``hands:N`` is agreed (the title says "of N").
    """
    parts = []
    win_at = rules.end_value("win-at")
    if win_at is not None:
        parts.append(_("first to {n} counters").format(n=win_at))
    minutes = rules.end_value("time")
    if minutes is not None:
        now = now or _dt.datetime.now()
        until = now + _dt.timedelta(seconds=max(0.0, minutes * 60 - elapsed))
        parts.append(_("until {time}").format(time=until.strftime("%H:%M")))
    if not rules.end:
        parts.append(_("until a player is bust") if rules.bust == "end" else _("until one player is left"))
    return " · ".join(parts)


def end_reason_text(reason: str | None) -> str:
    """Why the session ended (R3.5, R3.6)."""
    return {
        EndReason.BUST: _("a player cannot pay the ante (R3.5)"),
        EndReason.PLAYERS: _("fewer than two players are left (R3.5)"),
        EndReason.WIN_AT: _("a player reached the winning stack (R3.6)"),
        EndReason.HANDS: _("the agreed number of hands is played (R3.6)"),
        EndReason.TIME: _("the agreed time is up (R3.6)"),
        EndReason.QUIT: _("the session was stopped"),
    }.get(reason or "", _("the session is not over"))


def standings_lines(stacks: Sequence[int], pot: int, names: Sequence[str], winners: Sequence[int],
                    end_reason: str | None, hands: int) -> list[str]:
    """The final standings (R3.7): stacks high to low, the winner(s), any pot left unwon (D-18)."""
    out = [_("The session is over: {reason}.").format(reason=end_reason_text(end_reason)),
           ngettext("{n} hand played.", "{n} hands played.", hands).format(n=hands)]
    order = sorted(range(len(names)), key=lambda s: (-stacks[s], s))
    for rank, s in enumerate(order, 1):
        out.append(f"{rank}. {names[s]}: " + counters(stacks[s]))
    if len(winners) == 1:
        out.append(_("Winner: {name} (R3.7).").format(name=names[winners[0]]))
    else:
        out.append(_("Shared win: {names} (R3.7).").format(names=", ".join(names[s] for s in winners)))
    if pot:
        out.append(_("{counters} stay unwon in the pot (D-18).").format(counters=counters(pot)))
    return out


def reason_text(why: tuple[str, str], names: Sequence[str], suits: str = "french") -> str:
    """``hand.why_illegal`` output in the player's language, with seats as names and the rule id."""
    reason, rule = why

    def seat(text: str) -> str:
        i = int(text[1:]) - 1
        return names[i] if 0 <= i < len(names) else text

    return translate_reason(reason, rule, seat_label=seat,
                            card_label=lambda t: card_label(Card.parse(t), suits),
                            suit_label=lambda s: suit_label(s, suits))


def help_lines() -> list[str]:
    """The commands of the ``--plain`` mode."""
    return [
        _("Commands:"),
        "  in / out — " + _("declare in (play the hand) or out (fold) (R4.5)"),
        "  play AS, play 10h, play 3 — " + _("play a card by name or by its number 1 to 5 (R4.10)"),
        "  gr — " + _("announce General Rams (R4.7)"),
        "  pass — " + _("no announcement (R4.7, R4.8)"),
        "  target 3 — " + _("announce a trick target of 3 (R4.8)"),
        "  state — " + _("show the table again"),
        "  log — " + _("show the hand so far"),
        "  help — " + _("show this help"),
        "  quit — " + _("save and leave; play --resume continues"),
        _("Cards: rank A K Q J 10 9 8 7 then suit S H D C (or ♠ ♥ ♦ ♣), e.g. AS, 10h, QC (R1.6)."),
    ]
