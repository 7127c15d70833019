"""A session of Ramsli: many hands at one table (RULES.md R3).

:class:`Session` seats the players with equal stacks (R3.3), chooses the first
dealer by a high-card cut (R3.1), deals hand after hand with the deal passing
to the left (R3.2), carries the pot over (R5.4), handles bust players (R3.5)
and the other ends (R3.6), and names the winner (R3.7). Every hand is kept
in :attr:`Session.results`. Conservation (R3.4) holds after every action:
``session.total() == session.bank``.

>>> from ramsli import Session, Rules
>>> s = Session(Rules(end=["hands:3"]), ["Ann", "Bo", "Cy"], seed=1)
>>> while not s.is_over:
...     hand = s.start_hand()
...     while not hand.is_over:
...         s.apply(hand.legal_actions()[-1])
>>> len(s.results), s.end_reason, s.total() == 60
(3, 'hands', True)
"""

from __future__ import annotations

import enum
import random
import time
import unicodedata
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from disarm import skeleton_key

from ramsli.cards import Card, make_deck
from ramsli.errors import SessionError, TableError
from ramsli.hand import MAX_SEATS, Action, Hand, random_source
from ramsli.refusal import Refusal, Refused
from ramsli.rules import Rules
from ramsli.seats import left_of, order_from_dealer, right_of
from ramsli.settlement import Settlement, settle

__all__ = [
    "Session",
    "HandResult",
    "EndReason",
    "SessionSnapshot",
    "first_dealer_cut",
    "check_name",
    "check_names",
    "check_players",
    "check_setup",
    "forbidden_name_char",
    "piled_mark",
    "MAX_MARKS",
    "name_is_blank",
    "name_key",
    "is_default_ignorable",
    "DEFAULT_IGNORABLE",
    "looks_like_a_bot",
    "NAME_FILLERS",
    "NAME_MAX",
]


class EndReason(enum.StrEnum):
    """Why a session ended (``Session.end_reason``); the value is the text of saves and
    session histories.

    A ``str``: ``EndReason.HANDS == "hands"``; its ``repr`` is that text too, so printed
    values read (and evaluate) as the plain text. The lab's kernel keeps integer codes and takes
    its names from here (``ramsli.lab.kernel.END_NAMES``).

    >>> [str(r) for r in EndReason]
    ['bust', 'players', 'win-at', 'hands', 'time', 'quit']
    """

    BUST = "bust"  #: a player cannot pay the ante, option ``bust = "end"`` (R3.5, D-7)
    PLAYERS = "players"  #: fewer than two players left, option ``bust = "leave"`` (R3.5)
    WIN_AT = "win-at"  #: a player reached ``win-at:N`` counters (R3.6, D-8)
    HANDS = "hands"  #: ``hands:N`` hands were dealt (R3.6)
    TIME = "time"  #: ``time:M`` minutes are up (R3.6)
    QUIT = "quit"  #: the table stopped (:meth:`Session.quit`)

    __repr__ = str.__repr__


@dataclass(frozen=True)
class HandResult:
    """One hand of a session, as settled.

    Attributes:
        number: 1-based hand number.
        hand: the finished :class:`~ramsli.hand.Hand` (its ``history`` lists every action), or
            None for a hand played with real cards and recorded by :meth:`Session.record_hand`.
        settlement: the hand's :class:`~ramsli.settlement.Settlement`.
        stacks_after: stacks after settlement, per seat.
        pot_after: the carry-over pot (R5.4).
        left: seats that left as bust after this hand (R3.5 ``leave``).
    """

    number: int
    hand: Hand | None
    settlement: Settlement
    stacks_after: tuple[int, ...]
    pot_after: int
    left: tuple[int, ...] = ()


class SessionSnapshot(TypedDict):
    """:meth:`Session.snapshot`: a session between two hands as plain data (JSON/TOML-ready)."""

    names: list[str]
    seed: int | None
    rules: dict[str, Any]  #: :meth:`Rules.to_dict <ramsli.rules.Rules.to_dict>`
    stacks: list[int]  #: counters per seat
    pot: int  #: the carry-over, counters
    dealer: int
    seated: list[int]
    departed: list[list[int]]  #: ``[seat, after hand number]`` pairs (R3.5)
    hands_played: int
    rng_state: list[Any]  #: ``[version, internal state (a list of ints), gauss]`` of ``random.Random.getstate``
    elapsed: float  #: seconds of play so far (R3.6 ``time:M``)
    end_reason: EndReason | None


def first_dealer_cut(
    n_seats: int,
    rng: random.Random | None = None,
    seats: Sequence[int] | None = None,
    deck: str = "piquet32",
    *,
    seed: int | None = None,
) -> tuple[int, list[list[tuple[int, Card]]]]:
    """Choose the first dealer by a high-card cut (R3.1, D-4).

    Every seat draws a card from the shuffled deck of option ``deck`` (``"piquet32"``
    or ``"full52"``; jokers removed); the
    highest rank deals; seats tied for highest draw again among themselves
    from a freshly shuffled deck.

    Give the random source as ``rng`` (a ``random.Random``) or as ``seed``: exactly one.

    Returns:
        ``(dealer, rounds)`` where ``rounds`` lists each round's ``(seat, card)`` draws.

    Raises:
        TypeError: if both or neither of ``rng`` and ``seed`` are given.

    >>> first_dealer_cut(4, seed=3) == first_dealer_cut(4, random.Random(3))
    True
    """
    rng = random_source(seed, rng, "first_dealer_cut", required=True)
    contenders = list(range(n_seats)) if seats is None else list(seats)
    rounds: list[list[tuple[int, Card]]] = []
    while True:
        cards = list(make_deck(deck))  # R3.1: the game's deck, jokers removed
        rng.shuffle(cards)
        draws = list(zip(contenders, cards))
        rounds.append(draws)
        top = max(c.rank for _, c in draws)
        contenders = [s for s, c in draws if c.rank == top]
        if len(contenders) == 1:
            return contenders[0], rounds


#: Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt, stable since Unicode 6):
#: characters a font draws as nothing (zero-width joiner and non-joiner, variation selectors, the
#: Hangul fillers U+115F, U+1160, U+3164, U+FFA0, soft hyphen, bidirectional marks, tags, ...); a
#: name must not hold one (R2.2, issue 38.4): "Ali\u200dce" shows as "Alice"
DEFAULT_IGNORABLE = (
    (0x00AD, 0x00AD),
    (0x034F, 0x034F),
    (0x061C, 0x061C),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x200B, 0x200F),
    (0x202A, 0x202E),
    (0x2060, 0x206F),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFEFF, 0xFEFF),
    (0xFFA0, 0xFFA0),
    (0xFFF0, 0xFFF8),
    (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A),
    (0xE0000, 0xE0FFF),
)
#: characters that show as nothing but are letters or symbols (not format characters): Hangul
#: fillers, the braille blank, the combining grapheme joiner; a name of only these (and spaces)
#: is blank (R2.2)
NAME_FILLERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u034f\u17b4\u17b5")


def is_default_ignorable(ch: str) -> bool:
    """True if the character ``ch`` is a Unicode Default_Ignorable_Code_Point (:data:`DEFAULT_IGNORABLE`).

    >>> is_default_ignorable("\u200d"), is_default_ignorable("\ufe0f"), is_default_ignorable("\u3164"), is_default_ignorable("a")
    (True, True, True, False)
    """
    cp = ord(ch)
    return any(lo <= cp <= hi for lo, hi in DEFAULT_IGNORABLE)


def forbidden_name_char(name: str) -> str | None:
    """The first character of ``name`` that a seat name must not hold (R2.2), or None.

    Refused are control characters (U+0000–U+001F, U+007F–U+009F: escape sequences, tabs,
    line breaks), line and paragraph separators (U+2028, U+2029), the invisible format
    characters (Unicode category Cf: bidirectional controls such as U+202E, zero-width spaces
    such as U+200B, U+FEFF) and every Default_Ignorable_Code_Point (:func:`is_default_ignorable`:
    the zero-width joiner and non-joiner, variation selectors, the Hangul fillers), which would be
    printed to the terminal as they are or make two names look alike (issue 38.4).

    The one exception is an emoji sequence: a zero-width joiner between two symbols
    (``👩\u200d👩``) and a variation selector after a symbol (``❤\ufe0f``) shape the emoji and
    hide nothing between letters.

    >>> forbidden_name_char("Bo\u200bb"), forbidden_name_char("Ali\u200dce"), forbidden_name_char("Zoë")
    ('\u200b', '\u200d', None)
    >>> forbidden_name_char("Ann \U0001f469\u200d\U0001f469"), forbidden_name_char("Ann \u2764\ufe0f")
    (None, None)
    """
    for i, ch in enumerate(name):
        if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") or is_default_ignorable(ch):
            if not _shapes_an_emoji(name, i):
                return ch
    return None


#: nonspacing marks (accents, Unicode category Mn) in a row on one letter a name may hold (UTS #39
#: section 5.4 suggests refusing more than four, and the same mark twice in a row)
MAX_MARKS = 4


def piled_mark(name: str) -> str | None:
    """The first nonspacing mark (category Mn) of ``name`` that piles up on its letter (R2.2,
    "Zalgo" text that covers the names around it), or None: in the decomposed name (NFD), the
    fifth mark in a row (:data:`MAX_MARKS`) or a mark right after the same one.

    >>> piled_mark("Zoë"), piled_mark("Nguyễn"), piled_mark("Bob" + "\u0301" * 5)
    (None, None, '\u0301')
    >>> piled_mark("Bo\u0301\u0301b"), piled_mark("B\u0300\u0301\u0302\u0303\u0304ob")
    ('\u0301', '\u0304')
    """
    run, last = 0, ""
    for ch in unicodedata.normalize("NFD", name):
        if unicodedata.category(ch) == "Mn":
            run += 1
            if run > MAX_MARKS or ch == last:
                return ch
            last = ch
        else:
            run, last = 0, ""
    return None


def _shapes_an_emoji(name: str, i: int) -> bool:
    """True if ``name[i]`` is a zero-width joiner between two symbols (So, Sk: emoji and their skin
    tones) or a variation selector U+FE0E/U+FE0F right after a symbol."""
    ch = name[i]
    before = unicodedata.category(name[i - 1]) if i > 0 else ""
    if ch in "\ufe0e\ufe0f":
        return before in ("So", "Sk")
    if ch == "\u200d" and 0 < i < len(name) - 1:
        after_symbol = before in ("So", "Sk") or name[i - 1] in "\ufe0e\ufe0f"
        return after_symbol and unicodedata.category(name[i + 1]) == "So"
    return False


def name_is_blank(name: str) -> bool:
    """True if ``name`` shows as nothing: empty after removing spaces and :data:`NAME_FILLERS` (R2.2).

    >>> name_is_blank("\u3164"), name_is_blank(" \u2800 "), name_is_blank("Bo")
    (True, True, False)
    """
    return not "".join(ch for ch in name if ch not in NAME_FILLERS).strip()


def _inner_capital_i(word: str) -> str:
    """``word`` with each capital ``I`` after its first letter written ``l``, unless the word is all
    capitals: in most fonts "AIice" is "Alice", while "ALICE" and "Ian" keep their I."""
    if len(word) < 2 or word.upper() == word:
        return word
    return word[0] + word[1:].replace("I", "l")


def name_key(name: str) -> str:
    """The form in which two seat names are compared (R2.2): Unicode NFKC, :data:`NAME_FILLERS`
    taken for spaces, without the other default-ignorable characters, a capital I inside a word of small
    letters taken for l ("AIice" is "Alice"), casefolded, accents dropped, then the UTS #39
    confusables skeleton (:func:`disarm.skeleton_key` with the TR39 digit classes: Cyrillic,
    Greek, Cherokee, Armenian look-alikes, 0 as o, 1 as l), spaces collapsed. Names with the same
    key look alike (issue 38.4).

    >>> name_key(" ANN ") == name_key("\u0430nn") == name_key("Ａnn")
    True
    >>> name_key("AIice Look") == name_key("Alice Look") == name_key("ALICE LOOK") != name_key("Ian")
    True
    """
    text = unicodedata.normalize("NFKC", name)
    text = "".join(
        " " if ch in NAME_FILLERS else ch for ch in text if not is_default_ignorable(ch) or ch in NAME_FILLERS
    )
    text = " ".join(_inner_capital_i(w) for w in text.split()).casefold()
    text = unicodedata.normalize("NFKD", text)
    text = unicodedata.normalize("NFC", "".join(ch for ch in text if not unicodedata.combining(ch)))
    return " ".join(skeleton_key(text, digit_policy="tr39").split())


#: longest seat name a person may take at a table, characters (R2.2)
NAME_MAX = 24


def looks_like_a_bot(name: str, bots: Iterable[str] = ()) -> bool:
    """True if ``name`` imitates the label of a bot-played seat: a bot's name (one of ``bots``, or
    ``bot``) followed by a seat name and maybe a prime (``rules p4``, ``montecarlo p2'``),
    compared as :func:`name_key` compares names (R2.2). The engine knows no bot: the caller
    names them.

    >>> looks_like_a_bot("Rules P3", ["rules"]), looks_like_a_bot("Rulesy", ["rules"]), looks_like_a_bot("bot p1")
    (True, False, True)
    """
    key = name_key(name).replace(" ", "")
    labels = sorted({name_key(b) for b in bots} | {"bot"}, key=len, reverse=True)
    for b in labels:
        if key.startswith(b):
            rest = key[len(b) :].rstrip("'")
            if len(rest) >= 2 and rest[0] == "p" and all(c.isdigit() or c == "l" for c in rest[1:]):
                return True
    return False


def check_name(name: Any, bots: Iterable[str] = ()) -> str:
    """One seat name a person chose, as R2.2 wants it, stripped: 1..:data:`NAME_MAX` characters of
    text without a character refused by :func:`forbidden_name_char`, not blank
    (:func:`name_is_blank`) and not imitating the label of a bot-played seat
    (:func:`looks_like_a_bot`, with the bot names ``bots``).

    Raises:
        Refused: ``bad_name``, ``name_invisible`` (a default-ignorable character such as a
            zero-width joiner, a variation selector or a Hangul filler, issue 38.4),
            ``name_marks`` (accents piled on a letter: :func:`piled_mark`) or ``bot_name`` (R2.2).

    >>> check_name("  Ann ")
    'Ann'
    >>> check_name("tips p2", ["tips"])
    Traceback (most recent call last):
    ...
    ramsli.refusal.Refused: the name tips p2 looks like a bot's seat; choose a name of your own (R2.2)
    """
    if not isinstance(name, str) or name_is_blank(name) or len(name.strip()) > NAME_MAX:
        raise Refused(Refusal("bad_name", "R2.2", {"max": NAME_MAX}))
    ch = forbidden_name_char(name)
    if ch is not None and is_default_ignorable(ch):
        raise Refused(Refusal("name_invisible", "R2.2", {"char": f"U+{ord(ch):04X}"}))
    if ch is not None:
        raise Refused(Refusal("bad_name", "R2.2", {"max": NAME_MAX}))
    mark = piled_mark(name)
    if mark is not None:
        raise Refused(Refusal("name_marks", "R2.2", {"char": f"U+{ord(mark):04X}", "most": MAX_MARKS}))
    if looks_like_a_bot(name, bots):
        raise Refused(Refusal("bot_name", "R2.2", {"name": name.strip()}))
    return name.strip()


def check_names(names: Sequence[str]) -> None:
    """Check the seat names of a table: 2..6 names (R2.1), each non-empty text without a
    character refused by :func:`forbidden_name_char` and not blank (:func:`name_is_blank`), all
    different by :func:`name_key` (ignoring case, surrounding spaces and look-alike letters,
    R2.2). :class:`Session` and the hand history reader both call it.

    Raises:
        TableError: ``field`` ``"names"``; ``index`` the 0-based position of the first bad
            name, or None when the number of names is wrong. Codes: ``seat_count`` (R2.1),
            ``name_blank``, ``name_char``, ``name_twice`` (R2.2).

    >>> check_names(["Ann", "Bo", " ann"])
    Traceback (most recent call last):
    ...
    ramsli.errors.TableError: name 3 ' ann' is also the name of p1: every player needs a name of their own (names that differ only in case, spaces or look-alike letters are the same) (R2.2)
    """
    n = len(names)
    if not 2 <= n <= MAX_SEATS:
        raise TableError(Refusal("seat_count", "R2.1", {"count": n, "most": MAX_SEATS}), "names")
    seen: dict[str, int] = {}
    for i, name in enumerate(names):
        if not isinstance(name, str) or name_is_blank(name):
            raise TableError(Refusal("name_blank", "R2.2", {"number": i + 1}), "names", i)
        ch = forbidden_name_char(name)
        if ch is not None:
            refusal = Refusal("name_char", "R2.2", {"number": i + 1, "name": repr(name), "char": f"U+{ord(ch):04X}"})
            raise TableError(refusal, "names", i)
        key = name_key(name)
        if key in seen:
            refusal = Refusal("name_twice", "R2.2", {"number": i + 1, "name": repr(name), "seat": seen[key]})
            raise TableError(refusal, "names", i)
        seen[key] = i


def check_players(rules: Rules, n_names: int) -> None:
    """Check the ``players`` option against the number of players (R2.1).

    Raises:
        TableError: ``players_mismatch`` (``field`` ``"players"``) if ``rules.players`` is set
            and differs from ``n_names``.
    """
    if rules.players is not None and rules.players != n_names:
        refusal = Refusal("players_mismatch", "R2.1", {"players": rules.players, "count": n_names})
        raise TableError(refusal, "players")


def check_setup(rules: Rules, n_players: int) -> None:
    """The one set-up check of a table about to play: 2..6 players (R2.1), the ``players``
    option matching them (R2.1), and an ante the starting stack can pay (R3.5, R4.1). The CLI,
    the server, the pub ledger's API and the lab call it before they make a table, so every
    front end refuses the same set-up with the same refusal. (A :class:`Session` itself accepts
    an ante above the starting stack: by R3.5 everyone is bust before the first hand and the
    session ends at once.)

    Args:
        rules: the rules in force.
        n_players: how many players (seats) the table has.

    Raises:
        TableError: ``seat_count`` (``field`` ``"names"``), ``players_mismatch``
            (``"players"``) or ``ante_above_stack`` (``"ante"``).

    >>> check_setup(Rules(ante=30), 5)
    Traceback (most recent call last):
    ...
    ramsli.errors.TableError: the ante 30 is more than the starting stack 20: nobody could pay it (R3.5)
    """
    if type(n_players) is not int or not 2 <= n_players <= MAX_SEATS:
        raise TableError(Refusal("seat_count", "R2.1", {"count": n_players, "most": MAX_SEATS}), "names")
    check_players(rules, n_players)
    if rules.ante > rules.starting_stack:
        refusal = Refusal("ante_above_stack", "R3.5", {"ante": rules.ante, "stack": rules.starting_stack})
        raise TableError(refusal, "ante")


class Session:
    """A table of 2–6 seats playing hand after hand (R3).

    Args:
        rules: the rules in force (``starting_stack``, ``ante``, ``bust``, ``end``...).
        names: one name per seat, clockwise (2..6 names).
        seed: seed of the session's random source (shuffles, cuts, first dealer);
            the same seed gives the same deals.
        rng: instead of ``seed``, the random source itself (a ``random.Random``); give at
            most one of ``seed`` and ``rng`` (neither: an unseeded source).
        dealer: the first dealer's seat; default: chosen by high-card cut (R3.1).
        clock: a function returning seconds (for the ``time:M`` end, R3.6); default
            ``time.monotonic``.

    Raises:
        TableError: (a ``ValueError``) for fewer than 2 or more than 6 names, a bad or
            repeated name (R2.2, see :func:`check_names`), a ``players`` option that does not
            match the number of names (R2.1), or a dealer outside the seats.
        TypeError: if both ``seed`` and ``rng`` are given.

    Attributes:
        stacks (list[int]): counters per seat; pot (int): the pot (outside a hand, the
        carry-over); seated (list[int]): seats still at the table; dealer (int): the
        dealer of the current or next hand; results (list[HandResult], one per finished hand); hand (the
        current Hand or None); end_reason (None or an :class:`EndReason`: ``"bust"``, ``"players"``,
        ``"win-at"``, ``"hands"``, ``"time"``, ``"quit"``); bank (the sum of starting stacks).
    """

    rules: Rules  #: the rules in force
    names: list[str]  #: one name per seat, clockwise
    seed: int | None  #: the seed given (None: an unseeded source or ``rng``)
    rng: random.Random  #: the session's random source (shuffles, cuts, first dealer)
    clock: Callable[[], float]  #: seconds, for the ``time:M`` end (R3.6)
    started: float  #: the clock's reading at the start of play
    stacks: list[int]  #: counters per seat between hands
    bank: int  #: counters at the table: the sum of the starting stacks (R3.4)
    pot: int  #: the pot between hands (the carry-over, R5.4)
    seated: list[int]  #: seats still at the table (R3.5)
    cut_rounds: list[list[tuple[int, Card]]]  #: the first dealer's cut, round by round (R3.1)
    dealer: int  #: the dealer of the current or next hand (R3.2)
    results: list[HandResult]  #: the finished hands, one per hand
    hands_played: int  #: every deal, also of hands before a restore (R3.6 ``hands:N``)
    hand: Hand | None  #: the hand in progress
    end_reason: EndReason | None  #: why the session ended, None while it runs
    departed: list[tuple[int, int]]  #: ``(seat, after hand number)`` of seats that left (R3.5)

    def __init__(
        self,
        rules: Rules,
        names: Sequence[str],
        seed: int | None = None,
        dealer: int | None = None,
        clock: Callable[[], float] = time.monotonic,
        *,
        rng: random.Random | None = None,
    ) -> None:
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules object, not {type(rules).__name__} (R8)")
        n = len(names)
        check_names(names)
        check_players(rules, n)
        self.rules = rules
        self.names = list(names)
        self.seed = seed
        self.rng = random_source(seed, rng, "Session")
        self.clock = clock
        self.started = clock()
        self.stacks = [rules.starting_stack] * n
        self.bank = rules.starting_stack * n
        self.pot = 0
        self.seated = list(range(n))
        self.cut_rounds = []
        if dealer is None:
            dealer, self.cut_rounds = first_dealer_cut(n, self.rng, deck=rules.deck)
        elif type(dealer) is not int or not 0 <= dealer < n:  # 1.0, True, "1" are not seats
            raise TableError(Refusal("dealer_invalid", "R3.2", {"given": repr(dealer)[:40]}), "dealer")
        self.dealer = dealer
        self.results = []
        self.hands_played = 0
        self.hand = None
        self.end_reason = None
        self.departed = []
        self._check_before_hand()

    # -- queries ---------------------------------------------------------------

    @property
    def n_seats(self) -> int:
        """Number of seats at the start of the session."""
        return len(self.names)

    @property
    def is_over(self) -> bool:
        """True once the session has ended (R3.5, R3.6)."""
        return self.end_reason is not None

    def total(self) -> int:
        """All stacks plus the pot, including a hand in progress (R3.4); always equals :attr:`bank`."""
        if self.hand is not None:
            return self.hand.total()
        return sum(self.stacks) + self.pot

    def current_stacks(self) -> list[int]:
        """Stacks per seat now, including a hand in progress (after its ante)."""
        return list(self.hand.stacks) if self.hand is not None else list(self.stacks)

    @property
    def cutter(self) -> int:
        """The seat that cuts the next hand: the seated player to the right of its dealer (R4.2),
        the previous seated seat counter-clockwise (R2.2); the dealer only when alone.

        >>> from ramsli import Rules
        >>> Session(Rules(), ["Ann", "Bo", "Cy"], dealer=0).cutter
        2
        """
        return right_of(self.dealer, self.seated, self.n_seats)

    @property
    def cut_points(self) -> range:
        """The cut points allowed for the next hand (R4.2): 1..deck size - 1, at least one card in
        each packet (the deck of option ``deck``, with the ``jokers``).

        >>> from ramsli import Rules
        >>> Session(Rules(), ["Ann", "Bo", "Cy"], dealer=0).cut_points
        range(1, 32)
        """
        return range(1, len(make_deck(self.rules.deck, self.rules.jokers)))

    def winners(self) -> list[int]:
        """The seats with the most counters (R3.7, D-8); several on a shared win."""
        stacks = self.current_stacks()
        top = max(stacks)
        return [s for s, v in enumerate(stacks) if v == top]

    # -- play --------------------------------------------------------------------

    def start_hand(self, deck: Sequence[Card] | None = None, cut: int | None = None) -> Hand:
        """Take the ante and deal the next hand (R4.1–R4.4).

        Args:
            deck: a given shuffled deck (for replays and tests); default: shuffled with the
                session's random source.
            cut: the cut point (R4.2), one of :attr:`cut_points`: with ``deck`` as given, else the
                point the cutter (:attr:`cutter`) chose for the session's own shuffle; default: a
                random point from the session's random source (which is drawn either way, so a
                chosen cut never changes the deals that follow).

        Raises:
            SessionError: if the session is over or a hand is in progress.
            ValueError: for a ``cut`` outside :attr:`cut_points` (R4.2); nothing changes.
        """
        self._check_can_deal()
        if deck is None:
            if cut is not None and (type(cut) is not int or cut not in self.cut_points):
                raise ValueError(
                    f"cut {cut!r} must leave at least one card in each packet: 1..{len(self.cut_points)} (R4.2)"
                )
            hand = Hand.new(self.rules, self.stacks, self.dealer, self.rng, pot=self.pot, seated=self.seated, cut=cut)
        else:
            hand = Hand.from_deck(
                self.rules,
                self.stacks,
                self.dealer,
                deck,
                cut if cut is not None else self.rng.randrange(1, len(deck)),
                pot=self.pot,
                seated=self.seated,
            )
        return self._begin(hand)

    def start_hand_from_cards(
        self,
        hands: Sequence[Sequence[Card | None]],
        turn_up: Card,
        turned_aside: Sequence[Card] = (),
        cut: int | None = None,
    ) -> Hand:
        """Take the ante and set up the next hand with given dealt cards, as a hand history
        records them (R4.1, R4.3, R4.4): at this session's table, with its stacks, its
        carry-over pot (R5.4), its dealer (the deal passing left, R3.2) and its seated seats
        (bust seats gone, R3.5). The session's random source is not used.

        Args:
            hands: per seat slot the five dealt cards (``None`` for an unknown card ``??``);
                empty for a seat not seated.
            turn_up, turned_aside, cut: as :meth:`~ramsli.hand.Hand.from_cards`.

        Raises:
            SessionError: if the session is over (R3.5, R3.6) or a hand is in progress.
            ValueError: if the engine refuses the deal (a card dealt twice, a seat not
                seated holding cards, ...; see :meth:`~ramsli.hand.Hand.from_cards`).

        >>> from ramsli import Rules, Card
        >>> s = Session(Rules(), ["Ann", "Bo"], dealer=0)
        >>> cards = [Card.parse(c) for c in "AS KS QS JS TS AH KH QH JH TH 9C".split()]
        >>> hand = s.start_hand_from_cards([cards[5:10], cards[:5]], cards[10])
        >>> hand.dealer, hand.pot, s.current_stacks()
        (0, 2, [19, 19])
        """
        self._check_can_deal()
        hand = Hand.from_cards(
            self.rules,
            self.stacks,
            self.dealer,
            hands,
            turn_up,
            turned_aside,
            pot=self.pot,
            seated=self.seated,
            cut=cut,
        )
        return self._begin(hand)

    def _check_can_deal(self) -> None:
        if self.end_reason is not None:
            raise SessionError(Refusal("session_over", "R3.6", {"end_reason": str(self.end_reason)}))
        if self.hand is not None:
            raise SessionError(Refusal("hand_in_progress", "R3"))

    def _begin(self, hand: Hand) -> Hand:
        self.hand = hand
        if hand.is_over:  # cannot happen today (compulsory still plays), kept for safety
            self._close_hand()
        return hand

    def apply(self, action: Action | str) -> None:
        """Apply an action to the current hand; close the hand when it is settled.

        Raises:
            SessionError: if no hand is in progress.
            IllegalActionError: if the action is illegal (R4.12); nothing changes.
        """
        if self.hand is None:
            raise SessionError(Refusal("no_hand_in_progress", "R3"))
        self.hand.apply(action)
        if self.hand.is_over:
            self._close_hand()

    def abandon_hand(self) -> None:
        """Drop the hand in progress, returning stacks and pot to before its ante (nothing is lost)."""
        self.hand = None

    def quit(self) -> None:
        """End the session now (``end_reason = "quit"``); a hand in progress is abandoned."""
        self.abandon_hand()
        if self.end_reason is None:
            self.end_reason = EndReason.QUIT

    @property
    def last(self) -> HandResult | None:
        """The result of the most recent finished hand, or None."""
        return self.results[-1] if self.results else None

    # -- internals ------------------------------------------------------------------

    def _close_hand(self) -> None:
        hand = self.hand
        assert hand is not None and hand.settlement is not None
        self.hand = None
        self._close(hand, hand.settlement, hand.dealer)

    def _close(self, hand: Hand | None, settlement: Settlement, dealer: int) -> HandResult:
        """Book a settled hand: stacks and carry-over (R5.4), ends (R3.6), bust (R3.5), next dealer (R3.2)."""
        self.stacks = list(settlement.stacks_after)
        self.pot = settlement.carry_over
        self.hands_played += 1
        number = self.hands_played
        before = set(self.seated)
        self._check_after_hand(number)
        left = tuple(sorted(before - set(self.seated)))
        entry = HandResult(number, hand, settlement, tuple(self.stacks), self.pot, left)
        self.results.append(entry)
        if self.end_reason is None:
            self.dealer = self._next_dealer(dealer)  # R3.2
        return entry

    def record_hand(
        self,
        active: Sequence[int],
        tricks_won: Sequence[int],
        general_rams: int | None = None,
        targets: dict[int, int] | None = None,
    ) -> HandResult:
        """Book the next hand as it was played with real cards: take the ante (R4.1), settle by
        :func:`~ramsli.settlement.settle` (R5) and book it as :meth:`apply` books a dealt hand
        (carry-over R5.4, ends R3.6, bust R3.5, the deal passing left R3.2). The entry's ``hand``
        is None. No hand is dealt and the random source is not used.

        The caller gives what the table declared and took; the checks of what a real table may
        declare (R4.5-R4.9) are :mod:`ramsli.ledger`'s. Here only the bookkeeping is guarded.

        Args:
            active: the seats that were in (R4.5), any order; empty = thrown in (D-10).
            tricks_won: tricks per seat slot (all zero for a walkover or a thrown-in hand).
            general_rams: the General Rams announcer or None (R4.7).
            targets: seat -> announced target (R4.8).

        Returns:
            the new :class:`HandResult` (also appended to :attr:`results`).

        Raises:
            SessionError: if the session is over or a dealt hand is in progress.
            TableError: (field ``"seated"``) if an active seat is not seated (R3.5), or
                (field ``"tricks"``) if ``tricks_won`` has not one entry per seat slot.

        >>> from ramsli import Rules
        >>> s = Session(Rules(), ["Ann", "Bo", "Cy"], dealer=2)
        >>> e = s.record_hand([0, 1], [3, 2, 0])
        >>> e.settlement.winners, s.stacks, s.pot, s.dealer
        ((0,), [22, 19, 19], 0, 0)
        """
        self._check_can_deal()
        n = self.n_seats
        if len(tricks_won) != n:
            raise TableError(Refusal("trick_counts", "R4.9", {"count": len(tricks_won), "seats": n}), "tricks")
        bad = [s for s in active if s not in self.seated]
        if bad:
            raise TableError(Refusal("not_seated", "R3.5", {"seat": bad[0]}), "seated", bad[0])
        floor = self.rules.ante
        for s in self.seated:
            if self.stacks[s] < floor:  # cannot happen after _check_before_hand; kept for safety
                raise TableError(
                    Refusal("cannot_pay_ante", "R3.5", {"seat": s, "stack": self.stacks[s], "ante": floor}), "stacks", s
                )
        stacks = list(self.stacks)
        pot = self.pot
        for s in self.seated:  # R4.1 ante
            stacks[s] -= self.rules.ante
            pot += self.rules.ante
        order = order_from_dealer(self.dealer, self.seated, n)
        in_order = [s for s in order if s in set(active)]
        settlement = settle(
            self.rules,
            order,
            in_order,
            list(tricks_won),
            stacks,
            pot,
            general_rams=general_rams,
            targets=targets,
            thrown_in=not in_order,
        )
        return self._close(None, settlement, self.dealer)

    def _check_after_hand(self, number: int) -> None:
        """R3.6 ends, then R3.5 bust before the next hand's ante."""
        r = self.rules
        win_at = r.end_value("win-at")
        if win_at is not None and max(self.stacks) >= win_at:
            self.end_reason = EndReason.WIN_AT
            return
        n_hands = r.end_value("hands")
        if n_hands is not None and number >= n_hands:
            self.end_reason = EndReason.HANDS
            return
        minutes = r.end_value("time")
        if minutes is not None and self.clock() - self.started >= minutes * 60:
            self.end_reason = EndReason.TIME
            return
        self._check_before_hand(number)

    def _check_before_hand(self, number: int = 0) -> None:
        """R3.5 (D-7): a stack below max(ante, 1) is bust."""
        floor = self.rules.bust_below
        bust = [s for s in self.seated if self.stacks[s] < floor]
        if not bust:
            return
        if self.rules.bust == "end":
            self.end_reason = EndReason.BUST
            return
        self.seated = [s for s in self.seated if s not in bust]
        self.departed.extend((s, number) for s in bust)
        if len(self.seated) < 2:
            self.end_reason = EndReason.PLAYERS

    def snapshot(self) -> SessionSnapshot:
        """The session between two hands as plain data (JSON/TOML-ready), for saving.

        Holds the stacks, pot, dealer, seated seats, departures, hands played, the
        state of the random source and the elapsed seconds, so that :meth:`restore`
        continues with exactly the deals that would have come.

        Raises:
            SessionError: while a hand is in progress (save before or after a hand).
        """
        if self.hand is not None:
            raise SessionError(Refusal("hand_in_progress", "R3"))
        version, internal, gauss = self.rng.getstate()
        return {
            "names": list(self.names),
            "seed": self.seed,
            "rules": self.rules.to_dict(),
            "stacks": list(self.stacks),
            "pot": self.pot,
            "dealer": self.dealer,
            "seated": list(self.seated),
            "departed": [list(d) for d in self.departed],
            "hands_played": self.hands_played,
            "rng_state": [version, list(internal), gauss],
            "elapsed": max(0.0, self.clock() - self.started),
            "end_reason": self.end_reason,
        }

    @classmethod
    def restore(cls, data: Mapping[str, Any], clock: Callable[[], float] = time.monotonic) -> Session:
        """Rebuild a session from :meth:`snapshot` data (the results start empty).

        Raises:
            ValueError: for missing or inconsistent fields, e.g. stacks and pot that do not
                add up to the starting stacks (R3.4), or a dealer who is not seated (R3.2).
        """
        try:
            rules = Rules.from_dict(data["rules"])
            names = list(data["names"])
            stacks = [int(x) for x in data["stacks"]]
            pot = int(data["pot"])
            dealer = int(data["dealer"])
            seated = sorted(int(x) for x in data["seated"])
            version, internal, gauss = data["rng_state"]
            rng_state = (int(version), tuple(int(x) for x in internal), gauss)
            hands_played = int(data["hands_played"])
        except (KeyError, TypeError, ValueError) as e:
            raise ValueError(f"session snapshot is incomplete or malformed: {e}") from None
        n = len(names)
        if len(stacks) != n or any(x < 0 for x in stacks) or pot < 0:
            raise ValueError("session snapshot: one stack >= 0 per seat and a pot >= 0 are required (R3.3)")
        if sum(stacks) + pot != rules.starting_stack * n:
            raise ValueError(
                f"session snapshot: stacks {sum(stacks)} + pot {pot} != "
                f"{rules.starting_stack * n} counters at the start (R3.4)"
            )
        if not seated or any(not 0 <= x < n for x in seated) or dealer not in seated:
            raise ValueError("session snapshot: the dealer must be one of the seated seats (R3.2, R3.5)")
        if hands_played < 0:
            raise ValueError(f"session snapshot: hands_played {hands_played} is negative")
        try:
            departed = [(int(a), int(b)) for a, b in data.get("departed") or []]
            elapsed = float(data.get("elapsed") or 0.0)
        except (TypeError, ValueError) as e:
            raise ValueError(f"session snapshot: bad 'departed' or 'elapsed': {e}") from None
        if any(not 0 <= a < n or a in seated or not 0 <= b <= hands_played for a, b in departed):
            raise ValueError(
                "session snapshot: 'departed' must list seats that left, not seated, after a hand already played (R3.5)"
            )
        end_reason = data.get("end_reason")
        if end_reason is not None and end_reason not in EndReason.__members__.values():
            raise ValueError(
                f"session snapshot: end_reason {end_reason!r} is unknown; allowed are {', '.join(EndReason)} or none"
            )
        self = cls(rules, names, seed=data.get("seed"), dealer=dealer, clock=clock)
        self.stacks = stacks
        self.pot = pot
        self.seated = seated
        self.departed = departed
        self.hands_played = hands_played
        try:
            self.rng.setstate(rng_state)
        except (TypeError, ValueError) as e:
            raise ValueError(f"session snapshot: bad random state: {e}") from None
        self.started = clock() - elapsed
        self.end_reason = None if end_reason is None else EndReason(end_reason)
        return self

    def _next_dealer(self, dealer: int) -> int:
        return left_of(dealer, self.seated, self.n_seats)  # R3.2, R3.5: skips seats that left
