"""R1 cards: decks (R1.1-R1.3), no suit order (R1.4), no points (R1.5), notation (R1.6, D-3), D-1, D-2."""

from __future__ import annotations

import pickle

import pytest

from ramsli.cards import (
    BIG_JOKER,
    LITTLE_JOKER,
    Card,
    CardError,
    Suit,
    format_cards,
    full_deck,
    make_deck,
    parse_cards,
    piquet_deck,
)
from ramsli.hand import trick_winner


def test_R1_1_piquet_deck_is_32_cards_A_to_7_in_four_suits():
    deck = piquet_deck()
    assert len(deck) == 32 and len(set(deck)) == 32
    assert {c.suit for c in deck} == {"S", "H", "D", "C"}
    assert sorted({c.rank for c in deck}) == [7, 8, 9, 10, 11, 12, 13, 14]
    assert make_deck("piquet32") == deck
    assert not any(c.is_joker for c in deck)


def test_R1_1_rank_order_high_to_low():
    order = [Card.parse(t + "S").rank for t in "AKQJT987"]
    assert order == sorted(order, reverse=True)


def test_D1_german_suits_are_display_only():
    assert Card.parse("AC").display("german") == "Eichel Daus"
    assert Card.parse("QS").display("german") == "Grün Ober"
    assert Card.parse("JH").display("german") == "Herz Unter"
    assert Card.parse("KD").display("german") == "Schellen König"
    assert Suit("S").display("german") == "Grün"
    assert Card.parse("TH").display() == "10♥"
    with pytest.raises(ValueError, match="french"):
        Suit("S").display("klingon")


def test_R1_2_full_deck_is_52_cards_ace_high():
    deck = full_deck()
    assert len(deck) == 52 and len(set(deck)) == 52
    assert sorted({c.rank for c in deck}) == list(range(2, 15))
    assert make_deck("full52") == deck
    with pytest.raises(ValueError, match="piquet32"):
        make_deck("tarot78")


def test_R1_3_D2_jokers_added_and_rank_above_ace():
    deck = make_deck("piquet32", jokers=True)
    assert len(deck) == 34 and BIG_JOKER in deck and LITTLE_JOKER in deck
    assert len(make_deck("full52", jokers=True)) == 54
    assert BIG_JOKER.rank > LITTLE_JOKER.rank > Card.parse("AH").rank
    assert BIG_JOKER.is_joker and BIG_JOKER.suit is None
    # D-2: big joker > little joker > ace of trump, in a trick
    assert trick_winner([(0, Card.parse("AH")), (1, LITTLE_JOKER), (2, BIG_JOKER)], "H") == 2
    assert trick_winner([(0, Card.parse("AH")), (1, LITTLE_JOKER), (2, Card.parse("KH"))], "H") == 1


def test_R1_4_suits_have_no_order():
    # 7♠ led, A♦ and A♣ discarded by void players: the led suit wins, no suit beats another except trump
    trick = [(0, Card.parse("7S")), (1, Card.parse("AD")), (2, Card.parse("AC"))]
    assert trick_winner(trick, "H") == 0
    trick = [(0, Card.parse("7D")), (1, Card.parse("AS")), (2, Card.parse("AC"))]
    assert trick_winner(trick, "H") == 0


def test_R1_5_cards_carry_no_points():
    # a trick of aces and tens is worth one trick, like any other: the engine has no card points
    assert not hasattr(Card.parse("AS"), "points")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("AS", "AS"),
        ("as", "AS"),
        ("aS", "AS"),
        ("TD", "TD"),
        ("td", "TD"),
        ("10D", "TD"),
        ("10d", "TD"),
        ("10♥", "TH"),
        ("A♠", "AS"),
        ("q♣", "QC"),
        ("7♦", "7D"),
        ("2c", "2C"),
        ("x1", "X1"),
        ("X2", "X2"),
        (" KH ", "KH"),
    ],
)
def test_R1_6_D3_notation_input(text, expected):
    c = Card.parse(text)
    assert str(c) == expected
    assert c is Card.parse(expected)  # interned


def test_R1_6_jokers_X1_big_X2_little():
    assert Card.parse("X1") is BIG_JOKER and Card.parse("X2") is LITTLE_JOKER
    assert BIG_JOKER.rank == 16 and LITTLE_JOKER.rank == 15


@pytest.mark.parametrize(
    "bad", ["", "A", "1S", "11S", "AZ", "ZS", "X3", "XS", "AS1", "10", "T", "♠A", "10♥♥", "Ace of spades"]
)
def test_R1_6_malformed_card_gives_CardError_listing_what_is_allowed(bad):
    with pytest.raises(CardError) as e:
        Card.parse(bad)
    msg = str(e.value)
    assert "R1.6" in msg
    for allowed in ("A K Q J T", "S H D C", "X1", "X2"):
        assert allowed in msg
    assert isinstance(e.value, ValueError)


def test_R1_6_non_text_is_refused():
    with pytest.raises(CardError, match="R1.6"):
        Card.parse(14)


def test_R1_6_parse_cards_and_format_roundtrip():
    cs = parse_cards("AS, 10h  x2 qd")
    assert format_cards(cs) == "AS TH X2 QD"
    assert parse_cards(["AS", "9c"]) == [Card.parse("AS"), Card.parse("9C")]
    with pytest.raises(CardError):
        parse_cards("AS QQ")


def test_cards_are_interned_through_copy_and_pickle():
    c = Card.parse("9S")
    assert pickle.loads(pickle.dumps(c)) is c
    assert Card.of(9, "S") is c and Card.of("9", "S") is c
    assert Card.from_index(c.index) is c
    with pytest.raises(CardError):
        Card.of(15, "S")
    with pytest.raises(IndexError):
        Card.from_index(-1)


def test_card_indexes_are_dense_and_unique():
    every = full_deck(jokers=True)
    assert sorted(c.index for c in every) == list(range(54))
