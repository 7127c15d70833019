"""Cards, suits, ranks and decks (RULES.md R1).

Cards carry no points (R1.5): a card has a suit and a rank, nothing else.

Every card is an interned :class:`Card` object: parsing the same text twice
gives the very same object, so cards compare and hash cheaply.

>>> from ramsli.cards import Card, piquet_deck
>>> Card.parse("AS")
Card('AS')
>>> Card.parse("10♥") is Card.parse("th")
True
>>> len(piquet_deck())
32
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import ClassVar

from ramsli.refusal import Refusal

__all__ = [
    "Suit",
    "SUITS",
    "RANK_CHARS",
    "Card",
    "CardError",
    "BIG_JOKER",
    "LITTLE_JOKER",
    "JOKERS",
    "piquet_deck",
    "full_deck",
    "make_deck",
    "parse_cards",
    "format_cards",
    "rank_name",
]


class CardError(ValueError):
    """A card string that is not valid notation (R1.6 / D-3).

    Args:
        refusal: the record (codes ``card_notation``, ``card_not_text``, ``rank_range``, with the
            input as given in ``given`` or the ``rank``); or a message of a front end's own, already
            in the reader's language (its typed-card parser), when no refusal applies.

    Attributes:
        refusal (Refusal | None): the record; None only for a front end's own message. Every
            card error the engine raises has one: render it by ``refusal.code``.
        rule (str): the rule id, ``"R1.6"``.

    The message (``str(error)``) is the English text: what was given, what is allowed, the rule id.

    >>> e = CardError(Refusal("rank_range", "R1.6", {"rank": 1}))
    >>> str(e), e.refusal.code
    ('rank 1 is not 2..14 (R1.6)', 'rank_range')
    """

    refusal: Refusal | None
    rule: str

    def __init__(self, refusal: Refusal | str) -> None:
        if isinstance(refusal, Refusal):
            self.refusal = refusal
            self.rule = refusal.rule or "R1.6"
            super().__init__(str(refusal))
        else:
            self.refusal = None
            self.rule = "R1.6"
            super().__init__(refusal)


class Suit(str):
    """A suit letter: ``"S"``, ``"H"``, ``"D"`` or ``"C"`` (R1.1, R1.6).

    Suits have no order of their own (R1.4). ``Suit`` is a ``str``, so
    ``Suit("S") == "S"``.
    """

    __slots__ = ()

    SYMBOLS: ClassVar[dict[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    #: German-suited pictures (R1.1, D-1): display only.
    GERMAN: ClassVar[dict[str, str]] = {"S": "Grün", "H": "Herz", "D": "Schellen", "C": "Eichel"}
    #: Short German glyphs for compact displays.
    GERMAN_SHORT: ClassVar[dict[str, str]] = {"S": "Gr", "H": "He", "D": "Sc", "C": "Ei"}

    @property
    def symbol(self) -> str:
        """The French suit symbol, e.g. ``"♠"``."""
        return Suit.SYMBOLS[str(self)]

    def display(self, suits: str = "french") -> str:
        """The suit as shown to a player.

        Args:
            suits: ``"french"`` (♠♥♦♣) or ``"german"`` (Grün, Herz, Schellen, Eichel; D-1).

        Raises:
            ValueError: for any other ``suits`` value.
        """
        if suits == "french":
            return self.symbol
        if suits == "german":
            return Suit.GERMAN[str(self)]
        raise ValueError(f"unknown suit pictures {suits!r}: allowed are 'french', 'german'")


SUITS: tuple[Suit, ...] = (Suit("S"), Suit("H"), Suit("D"), Suit("C"))
_SUIT_INPUT = {
    "S": "S",
    "H": "H",
    "D": "D",
    "C": "C",
    "♠": "S",
    "♥": "H",
    "♦": "D",
    "♣": "C",
    "♤": "S",
    "♡": "H",
    "♢": "D",
    "♧": "C",
}

#: Rank characters of R1.6, high to low.
RANK_CHARS = "AKQJT98765432"
_RANK_VALUE = {ch: 14 - i for i, ch in enumerate(RANK_CHARS)}  # A=14 ... 2=2
_RANK_NAMES_EN = {14: "A", 13: "K", 12: "Q", 11: "J", 10: "10"}
_RANK_NAMES_DE = {14: "Daus", 13: "König", 12: "Ober", 11: "Unter", 10: "10"}


def rank_name(rank: int, suits: str = "french") -> str:
    """Display name of a rank value (2..14) for French or German pictures (D-1)."""
    table = _RANK_NAMES_DE if suits == "german" else _RANK_NAMES_EN
    return table.get(rank, str(rank))


class Card:
    """One playing card or joker (R1).

    Attributes:
        suit: the suit letter (``"S"``, ``"H"``, ``"D"``, ``"C"``), or ``None`` for a joker.
        rank: 2..14 (ace = 14); jokers have 16 (big, ``X1``) and 15 (little, ``X2``),
            so that big joker > little joker > ace of trump (R1.3, D-2).
        index: a dense index 0..53 (suit-major for the 52 cards, 52 = X1, 53 = X2),
            stable across versions; used for tensors and bit sets.

    Cards are interned: ``Card("QD")`` (the ``repr``'s form), :meth:`Card.parse` and
    :meth:`Card.of` all give the one card object. ``Card(text)`` raises
    :class:`CardError` as :meth:`parse` does.

    >>> c = Card.parse("QD")
    >>> (c.suit, c.rank, str(c))
    ('D', 12, 'QD')
    >>> Card("QD") is c and eval(repr(c)) is c
    True
    """

    __slots__ = ("suit", "rank", "index", "_text")
    _BY_TEXT: ClassVar[dict[str, Card]] = {}
    _BY_INDEX: ClassVar[list[Card]] = []

    suit: Suit | None
    rank: int
    index: int
    _text: str

    def __new__(cls, text: str) -> Card:
        return cls.parse(text)  # Card('AS'): the interned card

    @classmethod
    def _make(cls, suit: Suit | None, rank: int, index: int, text: str) -> Card:
        """A new card object: only :func:`_build` calls it, once per card of the 54."""
        card = object.__new__(cls)
        card.suit = suit
        card.rank = rank
        card.index = index
        card._text = text
        return card

    @property
    def is_joker(self) -> bool:
        """True for ``X1`` and ``X2`` (R1.3)."""
        return self.suit is None

    @classmethod
    def of(cls, rank: int | str, suit: str) -> Card:
        """The card of a rank (2..14 or a rank character) and suit letter.

        Raises:
            CardError: for an unknown rank or suit.
        """
        if isinstance(rank, int):
            if not 2 <= rank <= 14:
                raise CardError(Refusal("rank_range", "R1.6", {"rank": rank}))
            rch = RANK_CHARS[14 - rank]
        else:
            rch = rank
        return cls.parse(rch + suit)

    @classmethod
    def from_index(cls, index: int) -> Card:
        """The card with dense index ``index`` (0..53).

        Raises:
            IndexError: for an index outside 0..53.
        """
        if index < 0:
            raise IndexError(f"card index {index} outside 0..53")
        return cls._BY_INDEX[index]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse R1.6 notation: rank + suit, e.g. ``"AS"``, ``"TD"``, ``"10h"``, ``"Q♣"``, ``"X1"``.

        Ranks ``A K Q J T 9 8 7 6 5 4 3 2`` (``10`` for ``T``), suits ``S H D C``
        or ``♠ ♥ ♦ ♣``, case-insensitive; jokers ``X1`` (big) and ``X2`` (little).

        Raises:
            CardError: if ``text`` is not a card; the message lists what is allowed.
        """
        if not isinstance(text, str):
            raise CardError(Refusal("card_not_text", "R1.6", {"type": type(text).__name__}))
        key = text.strip().upper()
        card = cls._BY_TEXT.get(key)
        if card is not None:
            return card
        if key.startswith("10") and len(key) == 3:
            card = cls._BY_TEXT.get("T" + _SUIT_INPUT.get(key[2], "?"))
        elif len(key) == 2:
            card = cls._BY_TEXT.get(key[0] + _SUIT_INPUT.get(key[1], "?"))
        if card is None:
            given = repr(text) if len(text) <= 40 else repr(text[:40]) + "…"
            raise CardError(Refusal("card_notation", "R1.6", {"given": given}))
        return card

    def display(self, suits: str = "french") -> str:
        """The card as shown to a player: ``"A♠"``, ``"10♥"``, ``"Daus Grün"``, ``"Big joker"``.

        Args:
            suits: ``"french"`` or ``"german"`` (D-1, display only).
        """
        if self.suit is None:
            return "🃏1" if self.rank == 16 else "🃏2"
        if suits == "german":
            return f"{Suit.GERMAN[self.suit]} {rank_name(self.rank, 'german')}"
        return f"{rank_name(self.rank)}{self.suit.symbol}"

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __reduce__(self) -> tuple[Callable[[str], Card], tuple[str]]:  # pickling keeps interning
        return (Card.parse, (self._text,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Card:
        return self

    def __lt__(self, other: Card) -> bool:
        """Sort order for display only (suit-major, high rank first); not trick strength."""
        return self.index < other.index


def _build() -> None:
    idx = 0
    for s in SUITS:
        for r in range(14, 1, -1):
            ch = RANK_CHARS[14 - r]
            c = Card._make(s, r, idx, ch + s)
            Card._BY_TEXT[ch + s] = c
            Card._BY_INDEX.append(c)
            idx += 1
    for text, rank in (("X1", 16), ("X2", 15)):
        c = Card._make(None, rank, idx, text)
        Card._BY_TEXT[text] = c
        Card._BY_INDEX.append(c)
        idx += 1


_build()

BIG_JOKER: Card = Card.parse("X1")
LITTLE_JOKER: Card = Card.parse("X2")
JOKERS: tuple[Card, Card] = (BIG_JOKER, LITTLE_JOKER)

_PIQUET = tuple(c for c in Card._BY_INDEX[:52] if c.rank >= 7)
_FULL = tuple(Card._BY_INDEX[:52])


def piquet_deck(jokers: bool = False) -> tuple[Card, ...]:
    """The 32-card piquet deck (R1.1) in a fixed order, plus ``X1 X2`` if ``jokers`` (R1.3)."""
    return _PIQUET + JOKERS if jokers else _PIQUET


def full_deck(jokers: bool = False) -> tuple[Card, ...]:
    """The 52-card deck (R1.2) in a fixed order, plus ``X1 X2`` if ``jokers`` (R1.3)."""
    return _FULL + JOKERS if jokers else _FULL


def make_deck(deck: str = "piquet32", jokers: bool = False) -> tuple[Card, ...]:
    """The deck named by option ``deck`` (``"piquet32"`` or ``"full52"``; R8), unshuffled.

    Raises:
        ValueError: for an unknown deck name.
    """
    if deck == "piquet32":
        return piquet_deck(jokers)
    if deck == "full52":
        return full_deck(jokers)
    raise ValueError(f"unknown deck {deck!r}: allowed are 'piquet32', 'full52' (R1)")


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Parse several cards: ``"AS 9S KH"`` (spaces or commas) or an iterable of card strings.

    Raises:
        CardError: at the first malformed card.
    """
    if isinstance(text, str):
        parts = text.replace(",", " ").split()
    else:
        parts = list(text)
    return [Card.parse(p) for p in parts]


def format_cards(cards: Iterable[Card]) -> str:
    """Cards in R1.6 notation separated by spaces, e.g. ``"AS 9S KH"``."""
    return " ".join(c._text for c in cards)
