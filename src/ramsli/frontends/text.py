"""Cards, table states, hand logs, settlements and standings as translated text.

Shared by the ``--plain`` line mode and the Textual app, so that both say the
same thing in the same words (RULES.md R9). Only public facts appear (R7): a
seat's own cards, the turn-up, declarations, announcements, cards played,
tricks, stacks and the pot.
"""

from __future__ import annotations

import datetime as _dt
from typing import Sequence

from rich.text import Text

from ramsli.cards import Card, Suit
from ramsli.frontends.i18n import pgettext
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
    """A card as shown to the player, short enough for a card button (R1.6, D-1, D-2).

    French pictures: the rank letter of the language in use and the suit symbol (``"A♠"``,
    ``"10♥"``; de ``"D♥"`` for the Dame, nl ``"H♣"`` for the Heer, it ``"F♦"`` for the Fante).
    German pictures: the pack's own rank letters D K O U (Daus, König, Ober, Unter) and suit
    abbreviations Ei Gr He Sc (Eichel, Grün, Herz, Schellen), as the browser table does:
    ``"OHe"`` (Herz-Ober), ``"10Gr"``. Jokers by name (R1.3). Display only: hand histories
    and saves keep the canonical notation (``str(card)``).

    >>> card_label(Card.parse("QH")), card_label(Card.parse("QH"), "german")
    ('Q♥', 'OHe')
    """
    if card.suit is None:
        return _("big joker") if card.rank == 16 else _("little joker")
    if suits == "german":
        return rank_letter(card.rank, suits) + Suit.GERMAN_SHORT[card.suit]
    return rank_letter(card.rank, suits) + Suit(card.suit).display(suits)


def suit_label(suit: str, suits: str = "french") -> str:
    """A suit as shown in a sentence: ``"♥"``; with German pictures its name in the language in use,
    as the browser table says it (en ``"leaves"``, de ``"Grün"``; D-1).

    Raises:
        ValueError: for ``suits`` other than ``"french"``/``"german"``.
    """
    if suits == "german":
        return {"S": _("leaves"), "H": _("hearts"), "D": _("bells"), "C": _("acorns")}[str(suit)]
    return Suit(suit).display(suits)


#: the German pack's rank letters (D-1): Daus, König, Ober, Unter; the same in every language (as the web)
GERMAN_RANK_LETTERS = {14: "D", 13: "K", 12: "O", 11: "U"}
#: the suits after the trumps in a sorted hand: colours alternate (as the browser table's sortHand)
SUIT_ORDER = ("S", "H", "C", "D")


def rank_letter(rank: int, suits: str = "french") -> str:
    """The letter of a rank as the player reads (and types) it: A K Q J in English, de A K D B
    (Ass König Dame Bube), nl A H V B (Aas Heer Vrouw Boer), it A R D F (Asso Re Donna Fante);
    with German pictures D K O U in every language (D-1); ``"10"`` ... ``"2"`` for the rest.

    Args:
        rank: 2..14 (ace 14).
        suits: ``"french"`` or ``"german"``.

    >>> rank_letter(12), rank_letter(12, "german"), rank_letter(9)
    ('Q', 'O', '9')
    """
    if suits == "german":
        return GERMAN_RANK_LETTERS.get(rank, str(rank))
    if rank == 14:
        return pgettext("rank", "A")
    if rank == 13:
        return pgettext("rank", "K")
    if rank == 12:
        return pgettext("rank", "Q")
    if rank == 11:
        return pgettext("rank", "J")
    return str(rank)


def suit_letters(suits: str = "french") -> dict[str, tuple[str, ...]]:
    """The letters a player may type for each suit with the language's rank letters (the English notation
    ``S H D C`` always works besides): suit letter -> spellings, the first shown in help. French pictures:
    the language's own (en S H D C, de P H Ka Kr, nl S H R K, it P C Q F); German pictures: Gr/La/G/L
    (Grün, Laub), He/H, Sc/Sch/S, Ei/E (D-1), in every language."""
    if suits == "german":
        return {"S": ("Gr", "La", "G", "L"), "H": ("He", "H"), "D": ("Sc", "Sch", "S"), "C": ("Ei", "E")}
    # typed suit letters in the player's language; "a|b" gives two spellings
    local = {"S": pgettext("suit letter", "S"), "H": pgettext("suit letter", "H"),
             "D": pgettext("suit letter", "D"), "C": pgettext("suit letter", "C")}
    return {s: tuple(w.strip() for w in local[s].split("|") if w.strip()) or (s,) for s in "SHDC"}


def hand_order(cards: Sequence[Card], trump: str) -> list[Card]:
    """A hand in the order shown: the trumps together at the left end (big joker, little joker, then
    the trump suit, D-2), then the other suits in :data:`SUIT_ORDER`, each rank high to low.

    The numbers a player types (``play 2``, the keys 1-5) count in this order.

    >>> [str(c) for c in hand_order([Card.parse(t) for t in ("7S", "AH", "X2", "KD", "9S")], "D")]
    ['X2', 'KD', '9S', '7S', 'AH']
    """
    def key(c: Card) -> tuple[int, int]:
        if c.suit is None:
            return (0, -c.rank)
        if c.suit == trump:
            return (1, -c.rank)
        return (2 + SUIT_ORDER.index(c.suit), -c.rank)

    return sorted(cards, key=key)


#: colour name -> Rich style of a card on a terminal (``"black"`` is the terminal's own text colour)
CARD_STYLES = {"black": "bold", "red": "bold red", "blue": "bold blue", "green": "bold green",
               "gold": "bold yellow", "brown": "bold dark_orange3"}


def card_colour(card: Card, suits: str = "french", four_colour: bool = False) -> str:
    """The colour a card is drawn in, a key of :data:`CARD_STYLES`: red ♥ ♦ and black ♠ ♣; with
    ``four_colour`` ♦ blue and ♣ green; German pictures green Grün, red Herz, gold Schellen, brown
    Eichel (the browser table's colours); the big joker red, the little joker black."""
    if card.suit is None:
        return "red" if card.rank == 16 else "black"
    if suits == "german":
        return {"S": "green", "H": "red", "D": "gold", "C": "brown"}[card.suit]
    if four_colour:
        return {"S": "black", "H": "red", "D": "blue", "C": "green"}[card.suit]
    return "red" if card.suit in ("H", "D") else "black"


def is_trump(card: Card, trump: str) -> bool:
    """True for a card of the trump suit and for a joker (R1.3, D-2)."""
    return card.suit is None or card.suit == trump


def card_spelling(card: Card, suits: str = "french") -> str:
    """How a player types ``card`` in the language in use: rank letter and suit letter (``"DKr"`` in
    de for the Dame of clubs), falling back on the English notation (``"10H"``) where the local
    spelling would also read as another English card (it: ``10C`` is 10 of cuori and English 10 of clubs).
    Jokers ``X1``, ``X2`` (R1.6)."""
    if card.suit is None:
        return str(card)
    rank = rank_letter(card.rank, suits)
    for letter in suit_letters(suits)[card.suit]:
        text = rank + letter
        try:
            other = Card.parse(text)
        except ValueError:
            return text
        if other is card:
            return text
    return ("10" if card.rank == 10 else str(card)[0]) + card.suit


def card_notation_text(suits: str = "french", deck: str = "piquet32") -> str:
    """The help line on how cards are typed in the language in use (R1.6, D-1): the ranks and suit
    letters, examples, and that the English notation (``AS``, ``10h``) always works too."""
    low = "2" if deck == "full52" else "7"
    ranks = " ".join([rank_letter(r, suits) for r in (14, 13, 12, 11)] + ["10", "…", low]
                     if low == "2" else [rank_letter(r, suits) for r in range(14, 6, -1)])
    letters = suit_letters(suits)
    local = (any(letters[s] != (s,) for s in "SHDC")
             or any(rank_letter(r, suits) != "AKQJ"[14 - r] for r in (14, 13, 12, 11)))
    if not local:
        return _("Cards: rank {ranks} then suit {suits} (or ♠ ♥ ♦ ♣), e.g. {examples} (R1.6).").format(
            ranks=ranks, suits="S H D C", examples="AS, 10h, QC")
    shown = " ".join(letters[s][0] + ("=" + suit_label(s, suits) if suits == "german" else "") for s in "SHDC")
    ex = [card_spelling(Card.parse(t), suits) for t in ("AS", "TH", "QC")]
    ex[1] = ex[1][:2] + ex[1][2:].lower()  # any case (R1.6)
    return (_("Cards: rank {ranks} then suit {suits} (or ♠ ♥ ♦ ♣), e.g. {examples} (R1.6).").format(
        ranks=ranks, suits=shown, examples=", ".join(ex)) + " "
        + _("The English notation works too: ranks A K Q J, suits S H D C, e.g. AS, 10h, QC."))


__all__ += ["GERMAN_RANK_LETTERS", "SUIT_ORDER", "rank_letter", "suit_letters", "hand_order", "CARD_STYLES",
            "card_colour", "is_trump", "cards_text", "card_spelling", "card_notation_text"]


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


def _cards_parts(obs: Observation, suits: str) -> list[tuple[Card, str, str]]:
    """``(card, "2 K♥", " (not playable)")`` per card in :func:`hand_order`."""
    legal = {a.card for a in obs.legal if a.kind == "pl"}
    marking = obs.phase is Phase.PLAY and obs.to_act == obs.seat
    parts = []
    for i, c in enumerate(hand_order(obs.cards, obs.trump), 1):
        label = f"{i} {card_label(c, suits)}"
        parts.append((c, label, " (" + _("not playable") + ")" if marking and c not in legal else ""))
    return parts


def cards_line(obs: Observation, suits: str = "french") -> str:
    """The player's cards numbered 1–5 in :func:`hand_order` (trumps first); in the play
    phase on their turn, unplayable ones are marked. ``play 2`` plays the card numbered 2 here."""
    parts = [label + mark for _c, label, mark in _cards_parts(obs, suits)]
    return _("Your cards: {cards}").format(cards=" · ".join(parts) if parts else "—")


def cards_text(obs: Observation, suits: str = "french", four_colour: bool = False) -> Text:
    """:func:`cards_line` with each card in its colour (:func:`card_colour`), for a terminal;
    ``cards_text(...).plain == cards_line(...)``."""
    line = cards_line(obs, suits)
    text = Text(line)
    pos = line.find(": ") + 2 if ": " in line else 0
    for c, label, mark in _cards_parts(obs, suits):
        start = line.find(label, pos)
        if start < 0:
            continue
        text.stylize(CARD_STYLES[card_colour(c, suits, four_colour)], start, start + len(label))
        pos = start + len(label) + len(mark)
    return text


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


def help_lines(suits: str = "french") -> list[str]:
    """The commands of the ``--plain`` mode; the last line says how cards are written (:func:`card_notation_text`)."""
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
        card_notation_text(suits),
    ]
