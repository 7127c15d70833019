"""The check digit of a score sheet's row: the row a pub keeper reads and the hand the ledger books
are the same one (issue 34; ``docs/evenings-print.md``). Pure: hashlib only.
"""

from __future__ import annotations

import hashlib

__all__ = ["DAMM", "damm_digit", "row_check"]

#: the Damm algorithm's quasigroup of order 10 (weakly totally anti-symmetric): row = interim digit,
#: column = next digit of the number
DAMM: tuple[tuple[int, ...], ...] = (
    (0, 3, 1, 7, 5, 9, 8, 6, 4, 2),
    (7, 0, 9, 2, 1, 5, 4, 8, 6, 3),
    (4, 2, 0, 6, 8, 7, 1, 3, 5, 9),
    (1, 7, 5, 0, 9, 8, 3, 4, 2, 6),
    (6, 1, 2, 3, 0, 4, 5, 9, 7, 8),
    (3, 6, 7, 4, 2, 0, 9, 5, 8, 1),
    (5, 8, 6, 9, 7, 2, 0, 1, 3, 4),
    (8, 9, 4, 5, 3, 6, 2, 0, 1, 7),
    (9, 4, 3, 8, 6, 1, 7, 2, 0, 5),
    (2, 5, 8, 1, 4, 3, 6, 7, 9, 0),
)


def damm_digit(digits: str) -> int:
    """The Damm check digit of a string of decimal digits: every single wrong digit and every swap of
    two neighbouring digits changes it.

    Raises:
        ValueError: for a character that is no decimal digit.

    >>> damm_digit("572"), damm_digit("5724")
    (4, 0)
    """
    interim = 0
    for ch in digits:
        if ch not in "0123456789":
            raise ValueError(f"not a decimal digit: {ch!r}")
        interim = DAMM[interim][ord(ch) - 48]
    return interim


def _evening_digits(evening_id: str) -> str:
    """Four decimal digits standing for an evening: the first 32 bits of SHA-256 of its id (UTF-8), modulo 10⁴."""
    return f"{int(hashlib.sha256(evening_id.encode()).hexdigest()[:8], 16) % 10_000:04d}"


def row_check(evening_id: str, round: int, table: int, hand: int) -> str:
    """The check digit of hand ``hand`` of table ``table`` in round ``round`` of an evening: one character.

    It is ``(T + hand) mod 10``, where ``T``, the table's digit, is the Damm digit (:func:`damm_digit`)
    of ``EEEERRTT``: ``EEEE`` the four digits of the evening (the first 32 bits of SHA-256 of its id,
    UTF-8, modulo 10 000), ``RR`` the round and ``TT`` the table, zero-padded. So on one sheet any ten
    rows in a row have ten different digits (the row above or below never shares one), and the same
    hand at another table or in another round whose number differs in one digit has another digit
    (tables 1 to 9 of a round all differ); a sheet of another evening shares it one time in ten. The
    score sheet prints it on every row and the pub ledger of the table shows it on the same hand: the
    keeper compares them to be sure the hand booked is the row read (``docs/evenings-print.md``).

    Raises:
        ValueError: round or table outside 0..99, or a negative hand.

    >>> [row_check("k3x9", 1, 2, h) for h in range(1, 11)]
    ['8', '9', '0', '1', '2', '3', '4', '5', '6', '7']
    >>> [row_check("k3x9", 1, t, 1) for t in range(1, 8)]
    ['7', '8', '5', '3', '1', '0', '6']
    """
    if not (0 <= round <= 99 and 0 <= table <= 99 and hand >= 0):
        raise ValueError(f"round {round}, table {table}, hand {hand}: out of the printed range")
    return str((damm_digit(f"{_evening_digits(evening_id)}{round:02d}{table:02d}") + hand) % 10)
