"""Cards, table states, hand logs, settlements and standings as translated text.

Shared by the ``--plain`` line mode and the Textual app, so that both say the
same thing in the same words (RULES.md R9). Only public facts appear (R7): a
seat's own cards, the turn-up, declarations, announcements, cards played,
tricks, stacks and the pot.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Sequence

from rich.text import Text

from ramsli.bots.levels import LEVELS
from ramsli.cards import Card, Suit
from ramsli.frontends.i18n import N_, _, ngettext, pgettext, render_refusal, translation
from ramsli.hand import Action, Hand, Observation, Phase
from ramsli.refusal import Refusal
from ramsli.rules import PRESETS, Rules
from ramsli.seats import seat_name
from ramsli.session import EndReason
from ramsli.settlement import Settlement

__all__ = [
    "opponents_line",
    "card_label",
    "card_label_in",
    "suit_label",
    "seat_label",
    "action_text",
    "trick_text",
    "table_lines",
    "info_line",
    "cards_line",
    "prompt_text",
    "only_play",
    "log_lines",
    "settlement_lines",
    "standings_lines",
    "end_reason_text",
    "help_lines",
    "reason_text",
    "refusal_text",
    "phase_text",
    "declaration_text",
    "counters",
    "seat_status",
    "hand_title",
    "session_end_text",
    "last_trick_lines",
    "Said",
    "player_words",
    "RULE_NAMES",
    "rule_name",
    "detail_lines",
    "who",
    "preset_of",
    "preset_word",
    "level_word",
    "PRESET_WORDS",
    "LEVEL_WORDS",
    "rules_line",
    "command_word",
    "takes_trick_text",
]


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


def card_label_in(card: Card | str, lang: str, suits: str = "french") -> str:
    """:func:`card_label` in the language ``lang`` (one of :data:`~ramsli.i18n.LANGS`; English for
    another) rather than the language in use, for a command that prints in its ``--lang`` without
    setting the process's language (``ramsli review``, ``ramsli verify``): de ``"D♥"`` for the
    Dame of hearts, as the German table shows it (R1.6, D-1). ``card`` may be its text (``"QH"``).

    Raises:
        ValueError: for a text that is not a card (R1.6).

    >>> card_label_in("QH", "de"), card_label_in(Card.parse("JS"), "nl"), card_label_in("QH", "en")
    ('D♥', 'B♠', 'Q♥')
    """
    c = card if isinstance(card, Card) else Card.parse(card)
    tr = translation(lang)
    if c.suit is None:
        return tr.gettext("big joker") if c.rank == 16 else tr.gettext("little joker")
    if suits == "german":
        return card_label(c, suits)
    letter = {14: "A", 13: "K", 12: "Q", 11: "J"}.get(c.rank)
    rank = tr.pgettext("rank", letter) if letter else str(c.rank)
    return rank + Suit(c.suit).display(suits)


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
    (Ass König Dame Bube), nl A H V B (Aas Heer Vrouw Boer), it A R D F (Asso Re Donna Fante), fr A R D V
    (As Roi Dame Valet);
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
    the language's own (en S H D C, de P H Ka Kr, nl S H R K, it P C Q F, fr P C K T as in French bridge); German pictures: Gr/La/G/L
    (Grün, Laub), He/H, Sc/Sch/S, Ei/E (D-1), in every language."""
    if suits == "german":
        return {"S": ("Gr", "La", "G", "L"), "H": ("He", "H"), "D": ("Sc", "Sch", "S"), "C": ("Ei", "E")}
    # typed suit letters in the player's language; "a|b" gives two spellings
    local = {
        "S": pgettext("suit letter", "S"),
        "H": pgettext("suit letter", "H"),
        "D": pgettext("suit letter", "D"),
        "C": pgettext("suit letter", "C"),
    }
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
CARD_STYLES = {
    "black": "bold",
    "red": "bold red",
    "blue": "bold blue",
    "green": "bold green",
    "gold": "bold yellow",
    "brown": "bold dark_orange3",
}


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
    ranks = " ".join(
        [rank_letter(r, suits) for r in (14, 13, 12, 11)] + ["10", "…", low]
        if low == "2"
        else [rank_letter(r, suits) for r in range(14, 6, -1)]
    )
    letters = suit_letters(suits)
    local = any(letters[s] != (s,) for s in "SHDC") or any(
        rank_letter(r, suits) != "AKQJ"[14 - r] for r in (14, 13, 12, 11)
    )
    if not local:
        return _("Cards: rank {ranks} then suit {suits} (or ♠ ♥ ♦ ♣), e.g. {examples} (R1.6).").format(
            ranks=ranks, suits="S H D C", examples="AS, 10h, QC"
        )
    shown = " ".join(letters[s][0] + ("=" + suit_label(s, suits) if suits == "german" else "") for s in "SHDC")
    ex = [card_spelling(Card.parse(t), suits) for t in ("AS", "TH", "QC")]
    ex[1] = ex[1][:2] + ex[1][2:].lower()  # any case (R1.6)
    return (
        _("Cards: rank {ranks} then suit {suits} (or ♠ ♥ ♦ ♣), e.g. {examples} (R1.6).").format(
            ranks=ranks, suits=shown, examples=", ".join(ex)
        )
        + " "
        + _("The English notation works too: ranks A K Q J, suits S H D C, e.g. AS, 10h, QC.")
    )


__all__ += [
    "GERMAN_RANK_LETTERS",
    "SUIT_ORDER",
    "rank_letter",
    "suit_letters",
    "hand_order",
    "CARD_STYLES",
    "card_colour",
    "is_trump",
    "cards_text",
    "card_spelling",
    "card_notation_text",
]


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
    ``"You play A♠"``, ``"You announce General Rams"``, ``"You: in"`` (the human is named one way).
    """
    who = names[action.seat]
    k = action.kind
    if k == "pl":
        assert action.card is not None  # a play always names its card (R4.10)
        card = card_label(action.card, suits)
    if human is not None and action.seat == human:
        if k in ("in", "out"):
            return _("You: {declaration}").format(declaration=declaration_text(k))
        if k == "pass":
            return _("You: no announcement")
        if k == "gr":
            return _("You announce General Rams")
        if k == "t":
            return _("You announce a target of {n} tricks").format(n=action.target)
        return _("You play {card}").format(card=card)
    if k in ("in", "out"):
        return _("{name}: {declaration}").format(name=who, declaration=declaration_text(k))
    if k == "gr":
        return _("{name} announces General Rams").format(name=who)
    if k == "pass":
        return _("{name}: no announcement").format(name=who)
    if k == "t":
        return _("{name} announces a target of {n} tricks").format(name=who, n=action.target)
    return _("{name} plays {card}").format(name=who, card=card)


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
    body = ", ".join(f"{who(s, names, obs.seat)} {card_label(c, suits)}" for s, c in plays)
    line = _("Trick {n}: {cards}").format(n=n, cards=body)
    winner = obs.tricks[-1].winner if not obs.current and obs.tricks else None
    if winner is not None:  # a finished trick has its winner (R4.11)
        line += " — " + takes_trick_text(winner, names, obs.seat)
    return line


def takes_trick_text(winner: int, names: Sequence[str], human: int | None = None, n: int | None = None) -> str:
    """``"Bo takes the trick"``, ``"You take trick 3"`` (R4.11): the human in the second person."""
    if n is None:
        if winner == human:
            return _("You take the trick")
        return _("{name} takes the trick").format(name=names[winner])
    if winner == human:
        return _("You take trick {n}").format(n=n)
    return _("{name} takes trick {n}").format(name=names[winner], n=n)


def last_trick_lines(obs: Observation, names: Sequence[str], suits: str = "french") -> list[str]:
    """The last finished trick, one line per card in the order played, then who took it (R4.11);
    ``["No trick is finished yet."]`` before the first one."""
    tr = obs.last_trick
    if tr is None:
        return [_("No trick is finished yet.")]
    lines = [_("Trick {n}").format(n=len(obs.tricks))]
    lines += [f"  {who(s, names, obs.seat)}: {card_label(c, suits)}" for s, c in tr.plays]
    if tr.winner is not None:  # a finished trick has its winner (R4.11)
        lines.append(takes_trick_text(tr.winner, names, obs.seat))
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
        out.append(
            "{seat} {name}  {stack}  {status}  {tricks}{marks}".format(
                seat=seat_name(s),
                name=name.ljust(width),
                stack=_("stack {n}").format(n=obs.stacks[s]).ljust(10),
                status=seat_status(obs, s).ljust(6),
                tricks=ngettext("{n} trick", "{n} tricks", obs.tricks_won[s]).format(n=obs.tricks_won[s]).ljust(9),
                marks=("  [" + ", ".join(marks) + "]") if marks else "",
            )
        )
    return out


def info_line(obs: Observation, suits: str = "french") -> str:
    """``"Pot: 5 · Turn-up: 9♥ · Trump: ♥"`` (R4.4), with any joker turned aside (D-9)."""
    parts = [
        _("Pot: {n}").format(n=obs.pot),
        _("Turn-up: {card}").format(card=card_label(obs.turn_up, suits)),
        _("Trump: {suit}").format(suit=suit_label(obs.trump, suits)),
    ]
    if obs.turned_aside:
        parts.append(_("turned aside: {cards}").format(cards=", ".join(card_label(c, suits) for c in obs.turned_aside)))
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


def only_play(obs: Observation) -> Action | None:
    """The one card the observer may play now (its last card, or the only card of its hand the
    rules allow: follow suit, trump, R4.10), as its play action; None when it has a choice, or when
    it is not its turn to play."""
    plays = [a for a in obs.legal if a.kind == "pl"] if obs.phase is Phase.PLAY else []
    return plays[0] if len(plays) == 1 else None


def prompt_text(obs: Observation, suits: str = "french", enter: bool = False) -> str:
    """What the player is asked now, with the commands that answer it (R4.5–R4.10). With ``enter``
    (a front end where an empty line plays the only legal card), a seat with one card it may play
    is told so: "Enter plays 7♠." (:func:`only_play`; the card in ``suits``' pictures)."""
    text = _prompt(obs)
    one = only_play(obs) if enter else None
    if one is not None and one.card is not None:
        text += " " + _("Enter plays {card}.").format(card=card_label(one.card, suits))
    return text


def _prompt(obs: Observation) -> str:
    ph = obs.phase
    if ph is Phase.DECLARE:
        return _("Declare: in or out?")
    if ph is Phase.GENERAL_RAMS:
        return _("Announce General Rams (gr) or pass?")
    if ph is Phase.TARGETS:
        top = max(a.target for a in obs.legal if a.kind == "t" and a.target is not None)
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
    out = [
        _("Dealer: {name}").format(name=who(hand.dealer, names, human)),
        _("Turn-up: {card}").format(card=card_label(hand.turn_up, suits))
        + " · "
        + _("Trump: {suit}").format(suit=suit_label(hand.trump, suits)),
    ]
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
                winner = hand.tricks[done].winner
                done += 1
                if winner is not None:  # a finished trick has its winner (R4.11)
                    out.append("  " + takes_trick_text(winner, names, human, done))
    return out


def settlement_lines(st: Settlement, names: Sequence[str], human: int | None = None) -> list[str]:
    """Who took the pot, who paid bete, General Rams and target payments, what carries over (R5);
    seat ``human`` (the player reading) in the second person ("You take the pot"), as everywhere."""
    out = []
    me = human

    def nm(s: int) -> str:
        return who(s, names, human)

    if st.kind == "thrown-in":
        out.append(_("Everyone is out: the hand is thrown in and the pot of {n} carries over (D-10).").format(n=st.pot))
    elif st.kind == "walkover":
        w = st.winners[0]
        text = (
            _("You are the only player in and take the pot of {n} without play (R4.6).")
            if w == me
            else _("{name} is the only player in and takes the pot of {n} without play (R4.6).")
        )
        out.append(text.format(name=names[w], n=st.share))
    else:
        out.append(_("Tricks: {list}").format(list=", ".join(f"{nm(s)} {st.tricks[s]}" for s in st.active)))
        if len(st.winners) == 1:
            w = st.winners[0]
            text = (
                _("You take the pot: {counters} (R5.1).") if w == me else _("{name} takes the pot: {counters} (R5.1).")
            )
            out.append(text.format(name=names[w], counters=counters(st.share)))
        elif me in st.winners:
            out.append(
                _("You and {names} share the pot: {counters} each (R5.2).").format(
                    names=", ".join(names[s] for s in st.winners if s != me), counters=counters(st.share)
                )
            )
        else:
            out.append(
                _("{names} share the pot: {counters} each (R5.2).").format(
                    names=", ".join(names[s] for s in st.winners), counters=counters(st.share)
                )
            )
        if st.general_rams is not None:
            gr = names[st.general_rams]
            mine = st.general_rams == me
            if st.general_rams_made:
                text = (
                    _("You made General Rams and collect {counters} more (R5.6).")
                    if mine
                    else _("{name} made General Rams and collects {counters} more (R5.6).")
                )
                out.append(
                    text.format(
                        name=gr, counters=counters(sum(p.paid for p in st.payments if p.reason == "general-rams"))
                    )
                )
            else:
                text = (
                    _("You failed General Rams and pay {counters} into the pot (R5.6).")
                    if mine
                    else _("{name} failed General Rams and pays {counters} into the pot (R5.6).")
                )
                out.append(
                    text.format(
                        name=gr,
                        counters=counters(sum(p.paid for p in st.payments if p.reason == "general-rams-penalty")),
                    )
                )
        for s in st.bete:
            paid = sum(p.paid for p in st.payments if p.reason == "bete" and p.payer == s)
            text = (
                _("You took no trick and pay bete: {counters} (R5.3).")
                if s == me
                else _("{name} took no trick and pays bete: {counters} (R5.3).")
            )
            out.append(text.format(name=names[s], counters=counters(paid)))
        for s, t, met in st.targets:
            if met:
                n = sum(p.paid for p in st.payments if p.reason == "target" and p.payee == s)
                text = (
                    _("You made the target of {t} tricks and are paid {counters} (R5.7).")
                    if s == me
                    else _("{name} made the target of {t} tricks and is paid {counters} (R5.7).")
                )
                out.append(text.format(name=names[s], t=t, counters=counters(n)))
            else:
                n = sum(p.paid for p in st.payments if p.reason == "target-missed" and p.payer == s)
                text = (
                    _("You missed the target of {t} tricks and pay {counters} into the pot (R5.7).")
                    if s == me
                    else _("{name} missed the target of {t} tricks and pays {counters} into the pot (R5.7).")
                )
                out.append(text.format(name=names[s], t=t, counters=counters(n)))
    for s, n in sorted(st.shortfalls().items()):
        text = (
            _("You could not pay {counters}; the shortfall is forgiven (D-6).")
            if s == me
            else _("{name} could not pay {counters}; the shortfall is forgiven (D-6).")
        )
        out.append(text.format(name=names[s], counters=counters(n)))
    if st.kind != "thrown-in":
        out.append(_("Carry-over to the next hand: {counters} (R5.4).").format(counters=counters(st.carry_over)))
    out.append(_("Stacks: {list}").format(list=", ".join(f"{nm(s)} {v}" for s, v in enumerate(st.stacks_after))))
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
    texts: dict[str, str] = {
        EndReason.BUST: _("a player cannot pay the ante (R3.5)"),
        EndReason.PLAYERS: _("fewer than two players are left (R3.5)"),
        EndReason.WIN_AT: _("a player reached the winning stack (R3.6)"),
        EndReason.HANDS: _("the agreed number of hands is played (R3.6)"),
        EndReason.TIME: _("the agreed time is up (R3.6)"),
        EndReason.QUIT: _("the session was stopped"),
    }
    return texts.get(reason or "", _("the session is not over"))


def standings_lines(
    stacks: Sequence[int],
    pot: int,
    names: Sequence[str],
    winners: Sequence[int],
    end_reason: str | None,
    hands: int,
    human: int | None = None,
) -> list[str]:
    """The final standings (R3.7): stacks high to low, the winner(s), any pot left unwon (D-18);
    seat ``human`` (the player reading) as "you" ("You win.")."""
    out = [
        _("The session is over: {reason}.").format(reason=end_reason_text(end_reason)),
        ngettext("{n} hand played.", "{n} hands played.", hands).format(n=hands),
    ]
    order = sorted(range(len(names)), key=lambda s: (-stacks[s], s))
    for rank, s in enumerate(order, 1):
        out.append(f"{rank}. " + _("{label}: {value}").format(label=who(s, names, human), value=counters(stacks[s])))
    if len(winners) == 1 and winners[0] == human:
        out.append(_("You win (R3.7)."))
    elif len(winners) == 1:
        out.append(_("Winner: {name} (R3.7).").format(name=names[winners[0]]))
    elif human in winners:
        out.append(
            _("You share the win with {names} (R3.7).").format(names=", ".join(names[s] for s in winners if s != human))
        )
    else:
        out.append(_("Shared win: {names} (R3.7).").format(names=", ".join(names[s] for s in winners)))
    if pot:
        out.append(_("{counters} stay unwon in the pot (D-18).").format(counters=counters(pot)))
    return out


def reason_text(
    refusal: Refusal,
    names: Sequence[str] = (),
    suits: str = "french",
    human: int | None = None,
    *,
    with_rule: bool = True,
) -> str:
    """A refusal (``hand.why_illegal``, ``IllegalActionError.refusal``, a set-up check's
    ``TableError.refusal``) in the player's language, rendered by its code, with seats as names
    and the rule id in parentheses (``with_rule``); seat ``human`` (the player reading) in the
    second person ("you do not hold A♠"). A seat without a name in ``names`` reads ``p3``.

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("de") and reason_text(Refusal("must_follow", "R4.10", {"suit": "H"}))
    'Farbe bedienen: spiel ♥ (R4.10)'
    >>> set_language("en") and reason_text(Refusal("not_held", "R4.10", {"seat": 0, "card": "AS"}), ["Zed"])
    'Zed does not hold A♠ (R4.10)'
    """

    def seat(i: int) -> str:
        return names[i] if 0 <= i < len(names) else seat_name(i)

    def card(text: str) -> str:
        try:
            return card_label(Card.parse(text), suits)
        except ValueError:  # a card the engine quotes as given: shown as it is
            return text

    return render_refusal(
        refusal,
        seat_label=seat,
        card_label=card,
        suit_label=lambda s: suit_label(s, suits) if s in Suit.SYMBOLS else s,
        reader=human,
        with_rule=with_rule,
    )


def refusal_text(
    error: BaseException,
    names: Sequence[str] = (),
    suits: str = "french",
    human: int | None = None,
    *,
    with_rule: bool = True,
) -> str:
    """What the player reads for a refused input: the error's :class:`~ramsli.refusal.Refusal`
    (its ``refusal`` attribute: :class:`~ramsli.errors.TableError`,
    :class:`~ramsli.errors.IllegalActionError`, :class:`~ramsli.refusal.Refused`, and any other
    error that carries one) rendered by its code in the player's language with
    :func:`reason_text`; an error without a refusal reads as its own message. No message is
    taken apart.

    Args:
        error: the exception caught.
        names, suits, human, with_rule: as for :func:`reason_text`.

    >>> from ramsli.errors import TableError
    >>> from ramsli.frontends.i18n import set_language
    >>> e = TableError(Refusal("ante_above_stack", "R3.5", {"ante": 30, "stack": 20}), "ante")
    >>> set_language("nl") and refusal_text(e)
    'De inzet 30 is hoger dan de startstapel 20: niemand zou hem kunnen betalen (R3.5)'
    >>> set_language("en") and refusal_text(ValueError("no such folder"))
    'no such folder'
    """
    refusal = getattr(error, "refusal", None)
    if isinstance(refusal, Refusal):
        return reason_text(refusal, names, suits, human, with_rule=with_rule)
    return str(error)


def help_lines(suits: str = "french") -> list[str]:
    """The commands of the ``--plain`` mode, each under the word of the player's language (the
    English word beside it when that differs: English commands always work too); the last line
    says how cards are written (:func:`card_notation_text`)."""

    def cmd(canon: str) -> str:
        local = command_word(canon)
        return local if local == canon else f"{local} ({canon})"

    play = command_word("play")
    return [
        _("Commands:"),
        f"  {cmd('in')} / {cmd('out')} — " + _("declare in (play the hand) or out (fold) (R4.5)"),
        f"  {play} AS, {play} 10h, {play} 3"
        + ("" if play == "play" else " (play)")
        + " — "
        + _("play a card by name or by its number 1 to 5 (R4.10)"),
        "  gr — " + _("announce General Rams (R4.7)"),
        f"  {cmd('pass')} — " + _("no announcement (R4.7, R4.8)"),
        f"  {command_word('target')} 3"
        + ("" if command_word("target") == "target" else " (target)")
        + " — "
        + _("announce a trick target of 3 (R4.8)"),
        f"  {cmd('state')} — " + _("show the table again"),
        f"  {cmd('log')} — " + _("show the hand so far"),
        f"  {cmd('last')} — " + _("show the last trick again"),
        f"  {cmd('why')} — " + _("name the rule behind the last message"),
        f"  {cmd('rules')} — " + _("show the rules in force"),
        f"  {cmd('help')} — " + _("show this help"),
        f"  {cmd('quit')} — " + _("save and leave; play --resume continues"),
        card_notation_text(suits),
    ]


def command_word(canon: str) -> str:
    """The typed word of the player's language for the plain-mode command ``canon`` (its first
    word when there are several: ``"raus"`` for ``out`` in German, ``"pas"`` in Dutch); the
    English word for English or a command without its own word (``gr``).

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("nl") and command_word("in")
    'mee'
    >>> set_language("en") and command_word("in")
    'in'
    """
    local = pgettext("command", canon)
    first = next((w.strip() for w in local.split("|") if w.strip()), canon)
    return first


def who(seat: int, names: Sequence[str], human: int | None = None) -> str:
    """A seat in a list of seats: its player's name, or "you" (translated) for seat ``human``, the
    player reading (the human is named one way, in the second person, everywhere)."""
    return _("you") if seat == human else names[seat]


# -- player words: the sentence in the game's words, the rule ids as a detail ---------

_RULE_ID = r"(?:R\d+(?:\.\d+)*|D-\d+)"
#: a parenthesis holding only rule ids, e.g. " (R5.1)", " (R4.7, R4.8)", with the blanks before it
RULE_REF = re.compile(r"[ \u00a0]*\((" + _RULE_ID + r"(?:\s*[,;/]\s*" + _RULE_ID + r")*)\)")
_ONE_ID = re.compile(_RULE_ID)


class Said(str):
    """A line as the player sees it: the sentence without rule ids, which are kept in :attr:`rules`
    (in the order cited) for the detail the player can ask for (``why`` in plain mode, ``r`` in the app)."""

    rules: tuple[str, ...]

    def __new__(cls, text: str, rules: Sequence[str] = ()) -> Said:
        obj = super().__new__(cls, text)
        obj.rules = tuple(rules)
        return obj


def player_words(text: str) -> Said:
    """``text`` with every parenthesis of rule ids taken out, the ids kept in ``.rules`` (R4.12 names
    the rule of a refusal; the player sees it on asking). Other parentheses stay.

    >>> s = player_words("Bo takes the pot: 5 counters (R5.1).")
    >>> str(s), s.rules
    ('Bo takes the pot: 5 counters.', ('R5.1',))
    >>> player_words("Pass? (gr) (R4.7, R4.8)").rules
    ('R4.7', 'R4.8')
    """
    rules: list[str] = []

    def cut(m: re.Match[str]) -> str:
        for rid in _ONE_ID.findall(m.group(1)):
            if rid not in rules:
                rules.append(rid)
        return ""

    return Said(RULE_REF.sub(cut, text), rules)


#: one line per rule id of RULES.md: what the rule says, in the player's words (translated at use)
RULE_NAMES: dict[str, str] = {
    "R1.1": N_("the piquet deck of 32 cards"),
    "R1.2": N_("the full deck of 52 cards"),
    "R1.3": N_("the jokers are the highest trumps"),
    "R1.4": N_("suits have no order; only trump beats another suit"),
    "R1.5": N_("cards carry no points; only tricks count"),
    "R1.6": N_("how a card is written: rank, then suit"),
    "R2.1": N_("3 to 6 players; 2 are allowed"),
    "R2.2": N_("everyone plays alone; seats go clockwise"),
    "R3.1": N_("the first dealer is found by cutting for the highest card"),
    "R3.2": N_("the deal passes to the left after each hand"),
    "R3.3": N_("everyone starts with the same stack"),
    "R3.4": N_("no counter is ever made or lost"),
    "R3.5": N_("a player who cannot pay the ante is bust"),
    "R3.6": N_("the session ends at a winning stack, after a number of hands or at a time"),
    "R3.7": N_("the player with the most counters wins"),
    "R4.1": N_("everyone seated pays the ante into the pot"),
    "R4.2": N_("the dealer shuffles and the player to the right cuts"),
    "R4.3": N_("five cards each, dealt in two rounds"),
    "R4.4": N_("the turn-up sets the trump"),
    "R4.5": N_("everyone declares in or out, the dealer last"),
    "R4.6": N_("the only player in takes the pot without play"),
    "R4.7": N_("General Rams: a player announces to take all five tricks"),
    "R4.8": N_("trick targets of 2 to 5 tricks"),
    "R4.9": N_("the player left of the dealer leads; the trick winner leads the next trick"),
    "R4.10": N_("follow suit; if you cannot, trump; overtrump a trump"),
    "R4.11": N_("the highest trump wins the trick, else the highest card of the suit led"),
    "R4.12": N_("a move against the rules is refused and changes nothing"),
    "R5.1": N_("most tricks takes the pot"),
    "R5.2": N_("players tied for most tricks share the pot"),
    "R5.3": N_("a player in with no trick pays the bete"),
    "R5.4": N_("what stays in the pot carries over to the next hand"),
    "R5.5": N_("a player who is out pays nothing beyond the ante"),
    "R5.6": N_("General Rams pays three times the pot, or costs three times the bete"),
    "R5.7": N_("a target made is paid by the others; a target missed pays into the pot"),
    "R5.8": N_("no one pays more than their stack"),
    "R5.9": N_("the order of the payments"),
    "R1": N_("the cards"),
    "R2": N_("players and seats"),
    "R3": N_("the session"),
    "R4": N_("playing one hand"),
    "R5": N_("settlement"),
    "R6": N_("the presets"),
    "R7": N_("what each player may know"),
    "R8": N_("the rule options"),
    "R9": N_("the game's words in each language"),
    "R10": N_("notes on the seeds' tips"),
    "D-1": N_("German suit pictures are the same game"),
    "D-2": N_("the jokers belong to the trump suit"),
    "D-3": N_("how a card is written"),
    "D-4": N_("players tied in the cut for dealer draw again"),
    "D-5": N_("the starting stack is 20 counters"),
    "D-6": N_("a payment larger than a stack takes the stack; the rest is forgiven"),
    "D-7": N_("bust: a stack smaller than the ante before a hand"),
    "D-8": N_("a winning stack ends the session; players tied for most share the win"),
    "D-9": N_("a joker turned up is set aside and the next card turned"),
    "D-10": N_("everyone out: the hand is thrown in and the pot carries over"),
    "D-11": N_("at most one General Rams a hand"),
    "D-12": N_("General Rams does not change the lead"),
    "D-13": N_("how trick targets are paid"),
    "D-14": N_("overtrump also when following a trump lead"),
    "D-15": N_("how General Rams is paid"),
    "D-16": N_("folded cards stay hidden, also after the hand"),
    "D-17": N_("the order of the payments"),
    "D-18": N_("a pot left at the end stays unwon"),
    "D-19": N_("the order of the deal"),
    "D-20": N_("Rounce is played with the full deck"),
    "D-21": N_("duplicate: another table's outcome only after your own, and never its cards"),
}


def rule_name(rule: str) -> str:
    """The one-line name of a rule id in the player's language: ``"R5.1"`` → ``"most tricks takes the
    pot"``; ``R4.10.3``-style sub-ids fall back to their rule, an unknown id to ``""``."""
    key = rule
    while key not in RULE_NAMES and "." in key:
        key = key.rsplit(".", 1)[0]
    return _(RULE_NAMES[key]) if key in RULE_NAMES else ""


def detail_lines(rules: Sequence[str]) -> list[str]:
    """The detail of the last message: one line per rule id with its name (``"R4.10 — follow suit;
    …"``), or a line saying no rule was named yet."""
    if not rules:
        return [_("No rule was named yet: this is shown after a refusal or a settlement.")]
    out = [_("The rules behind the last message:")]
    for rid in rules:
        name = rule_name(rid)
        out.append(f"  {rid} — {name}" if name else f"  {rid}")
    return out


def preset_of(rules: Rules) -> str:
    """The preset of R6 these rules are closest to: the one fewest options differ from (the
    first in R6's order on a tie, so ``traditional`` before the others). A save holds the rules,
    not the preset's name; this names them the same way before and after ``--resume`` (e.g.
    ``double-penalty`` with ``general_rams=true`` is named ``general-rams`` with bete 10: the
    same rules).

    >>> preset_of(Rules.preset("nap")), preset_of(Rules(bete=7))
    ('nap', 'traditional')
    """

    def differing(name: str) -> int:
        return len(rules.diff(Rules.preset(name)))

    return min(PRESETS, key=lambda name: (differing(name), list(PRESETS).index(name)))


def _option_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(str(v) for v in value)
    return str(value)


#: the presets' names in words (R6), the same msgids as the web page's ``R.presetName``
#: (``server/web/common.js``): one name per preset in every front end; ``--preset`` takes the ids
PRESET_WORDS: dict[str, str] = {
    "traditional": N_("traditional"),
    "general-rams": N_("General Rams"),
    "compulsory": N_("Compulsory Ramsli"),
    "double-penalty": N_("double bete"),
    "pot-bete": N_("bete of the pot"),
    "joker": N_("with jokers"),
    "modern-52": N_("modern, 52 cards"),
    "rounce": N_("Rounce"),
    "nap": N_("with targets (Nap)"),
}

#: the levels' names in words, as the web page says ``medium`` and ``hard``
#: (``R.botLevel``); ``--bots`` takes the ids
LEVEL_WORDS: dict[str, str] = {
    "easy": N_("easy"),
    "medium": N_("medium"),
    "hard": N_("hard"),
    "expert": N_("expert"),
}


def preset_word(preset: str) -> str:
    """A preset's name in the player's language (R6); an id without a name reads as it is.

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("de") and (preset_word("traditional"), preset_word("double-penalty"))
    ('traditionell', 'doppelte Bete')
    >>> set_language("en") and preset_word("nap")
    'with targets (Nap)'
    """
    return _(PRESET_WORDS[preset]) if preset in PRESET_WORDS else preset


def level_word(level: str) -> str:
    """A level's name in the player's language; any other bot spec reads as given
    (a bot's name and options are what ``--bots`` takes).

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("it") and (level_word("hard"), level_word("montecarlo:samples=64"))
    ('difficile', 'montecarlo:samples=64')
    """
    return _(LEVEL_WORDS[level]) if level in LEVEL_WORDS else level


def opponents_line(names: Sequence[str], bots: Sequence[str | None], human: int) -> str:
    """Who plays the other seats, by level where a bot is one, the level's name in the
    player's language: the spec as given to ``--bots``, a level's spec (``montecarlo:samples=6,eps=0.1``,
    the default) shown as its level (``hard``).

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("en") and opponents_line(["Ann", "Bruno", "Carla"], [None, "montecarlo:samples=6,eps=0.1", "tips"], 0)
    'Opponents: Bruno (hard), Carla (tips)'
    >>> set_language("de") and opponents_line(["Ann", "Bruno", "Carla"], [None, "hard", "easy"], 0)
    'Gegner: Bruno (schwer), Carla (leicht)'
    """
    level_of = {spec: name for name, spec in LEVELS.items()}
    parts = [
        f"{names[s]} ({level_word(level_of.get(spec, spec))})"
        for s, spec in enumerate(bots)
        if s != human and spec is not None
    ]
    return _("Opponents: {list}").format(list=", ".join(parts))


def rules_line(rules: Rules) -> str:
    """The rules in force in one line (R6, R8): the preset's name in the player's language
    (:func:`preset_word`), ante, bete and every option the preset does not set, as ``--rule``
    writes them.

    >>> from ramsli.frontends.i18n import set_language
    >>> set_language("en") and rules_line(Rules().replace(end=["hands:3"]))
    'Rules: traditional · ante 1 · bete 5 · options: end=hands:3'
    >>> set_language("de") and rules_line(Rules())
    'Regeln: traditionell · Grundeinsatz 1 · Bete 5 · keine weiteren Optionen'
    """
    preset = preset_of(rules)
    bete = _("the pot") if rules.bete == "pot" else str(rules.bete)
    changed = rules.diff(Rules.preset(preset))
    changed.pop("bete", None)
    changed.pop("ante", None)
    options = (
        _("options: {list}").format(list=", ".join(f"{k}={_option_value(v)}" for k, v in changed.items()))
        if changed
        else _("no other options")
    )
    return _("Rules: {preset} · ante {ante} · bete {bete} · {options}").format(
        preset=preset_word(preset), ante=rules.ante, bete=bete, options=options
    )
