"""Seats and the order around the table (RULES.md R2.2, R3.2, R4.3, R4.5, R4.9).

Seats are 0-based indices numbered clockwise; seat 0 is called ``p1``. "Left of
X" is the next seat clockwise (R2.2). Seats that are not seated (bust players
who left, R3.5) are skipped. These helpers are the one place the order from the
dealer is computed; :class:`~ramsli.hand.Hand` and
:class:`~ramsli.hand.Observation` expose it as ``.order``.

>>> order_from_dealer(2, (0, 1, 2, 3), 4)
(3, 0, 1, 2)
>>> left_of(3, (0, 2, 3), 4), seat_name(0), parse_seat("p3")
(0, 'p1', 2)
"""

from __future__ import annotations

from collections.abc import Collection

__all__ = ["MAX_SEATS", "seat_name", "parse_seat", "left_of", "right_of", "order_from_dealer"]

#: Most seats at one table (R2.1).
MAX_SEATS = 6


def seat_name(seat: int) -> str:
    """The text name of a 0-based seat index: seat 0 is ``"p1"`` (R2.2).

    >>> seat_name(4)
    'p5'
    """
    return f"p{seat + 1}"


def parse_seat(text: str, n_seats: int = MAX_SEATS) -> int:
    """Parse ``"p1"``..``"p6"`` to a 0-based seat index.

    Raises:
        ValueError: if ``text`` is not ``p1``..``pN``.

    >>> parse_seat("P2")
    1
    """
    t = text.strip().lower()
    if len(t) >= 2 and t[0] == "p" and (t[1:].isascii() and t[1:].isdigit()) and 1 <= int(t[1:]) <= n_seats:
        return int(t[1:]) - 1
    raise ValueError(f"{text!r} is not a seat: seats are p1..p{n_seats} (R2.2)")


def _check(seat: int, seated: Collection[int], n_seats: int) -> None:
    if type(n_seats) is not int or not 1 <= n_seats <= MAX_SEATS:
        raise ValueError(f"{n_seats!r} seat slots: allowed are 1..{MAX_SEATS} (R2.1)")
    if type(seat) is not int or not 0 <= seat < n_seats:
        raise ValueError(f"seat {seat!r} is not a seat index 0..{n_seats - 1} (R2.2)")
    if any(type(s) is not int or not 0 <= s < n_seats for s in seated):
        raise ValueError(f"seated {tuple(seated)!r}: seats are indices 0..{n_seats - 1} (R2.2)")


def order_from_dealer(dealer: int, seated: Collection[int], n_seats: int) -> tuple[int, ...]:
    """The seated seats clockwise from the dealer's left, the dealer last (R4.3 deal,
    R4.5 declarations, R4.9 lead, R5.9 payments); seats not in ``seated`` are skipped (R3.5).

    Also "clockwise from the left of X" for any seat X (R5.6, R5.9 step 2 and 5): pass X
    as ``dealer``; X need not be in ``seated``.

    Args:
        dealer: 0-based seat of the dealer (or of X).
        seated: the seats taking part, in any order.
        n_seats: seat slots at the table (1..6).

    Raises:
        ValueError: for a seat outside 0..n_seats-1 or a bad ``n_seats``.

    >>> order_from_dealer(0, range(5), 5)
    (1, 2, 3, 4, 0)
    >>> order_from_dealer(1, (0, 1, 3), 4)
    (3, 0, 1)
    """
    if (
        type(n_seats) is not int
        or not 1 <= n_seats <= MAX_SEATS
        or type(dealer) is not int
        or not 0 <= dealer < n_seats
    ):
        _check(dealer, seated, n_seats)
    out = []
    for s in range(dealer + 1, dealer + 1 + n_seats):  # hot (every hand): a plain loop
        if s >= n_seats:
            s -= n_seats
        if s in seated:
            out.append(s)
    if len(out) != len(seated):  # a seat outside the table (or a repeated one)
        _check(dealer, seated, n_seats)
    return tuple(out)


def left_of(seat: int, seated: Collection[int], n_seats: int) -> int:
    """The next seated seat clockwise from ``seat`` (R2.2 "left of"; R3.2 the deal passes to
    the left). ``seat`` itself if it is the only seat seated.

    Raises:
        ValueError: for a seat outside 0..n_seats-1, a bad ``n_seats`` or nobody seated.

    >>> left_of(4, range(5), 5), left_of(1, (0, 1, 3), 4)
    (0, 3)
    """
    order = order_from_dealer(seat, seated, n_seats)
    if not order:
        raise ValueError("nobody is seated, so no seat is to the left (R2.2)")
    return order[0]


def right_of(seat: int, seated: Collection[int], n_seats: int) -> int:
    """The previous seated seat counter-clockwise from ``seat`` (R2.2 "right of"; R4.2 the player
    to the dealer's right cuts). ``seat`` itself if it is the only seat seated.

    Raises:
        ValueError: for a seat outside 0..n_seats-1, a bad ``n_seats`` or nobody seated.

    >>> right_of(0, range(5), 5), right_of(3, (0, 1, 3), 4), right_of(0, (0, 2), 3)
    (4, 1, 2)
    """
    order = order_from_dealer(seat, seated, n_seats)
    if not order:
        raise ValueError("nobody is seated, so no seat is to the right (R2.2)")
    others = [s for s in order if s != seat]
    return others[-1] if others else seat
