"""The cut of R4.2 for a human cutter, shared by ``ramsli play --plain`` and the full-screen app.

The player to the dealer's right cuts (R4.2): when that is the human
(:meth:`ramsli.frontends.game.LocalTable.human_cuts`), the front end asks
:func:`cut_question`, reads the answer with :func:`parse_cut` — a number of
cards to lift from the top, or Enter (or ``random``) for a random cut — and
passes it to :meth:`~ramsli.frontends.game.LocalTable.start_hand`, which saves it
with the hand so that ``--resume`` deals the same cards. Bots and automatic
tables cut at random (seeded).

>>> parse_cut("12", range(1, 32)), parse_cut("", range(1, 32)), parse_cut("random", range(1, 32))
(12, None, None)
"""

from __future__ import annotations

from ramsli.frontends.i18n import _, ngettext, pgettext

__all__ = ["CutError", "cut_question", "parse_cut", "cut_done_text", "random_words"]

#: the longest answer read as a number (Python refuses to read numbers past 4300 digits)
_MAX_DIGITS = 9


class CutError(ValueError):
    """An answer that is not a cut point; the message says what is allowed (R4.2)."""


def random_words() -> set[str]:
    """The words that ask for a random cut: ``random``, ``r`` and the player's language's words."""
    words = {"random", "r"}
    words |= {w.strip() for w in pgettext("cut", "random|r").lower().split("|") if w.strip()}
    return words


def cut_question(points: range, dealer: str) -> str:
    """The question to the human cutter: how many cards to lift, the allowed range, Enter for random.

    Args:
        points: the allowed cut points (``LocalTable.cut_points``: 1..deck size - 1).
        dealer: the dealer's name.
    """
    return _(
        "You cut the deck for {dealer}: lift how many cards from the top? {low} to {high}, or Enter for a random cut."
    ).format(dealer=dealer, low=points[0], high=points[-1])


def parse_cut(text: str, points: range) -> int | None:
    """Read the cutter's answer: a whole number in ``points``, or None for a random cut (an empty
    answer, or a word of :func:`random_words`).

    Raises:
        CutError: for anything else (a word, a number out of range), saying what is allowed; the
            answer is echoed without control characters, at most 20 characters.

    >>> parse_cut("0", range(1, 32))
    Traceback (most recent call last):
    ...
    ramsli.frontends.cut.CutError: '0' is not a cut point: give a whole number from 1 to 31 (at least one card in each packet), or press Enter for a random cut.
    """
    word = text.strip()
    if not word or word.lower() in random_words():
        return None
    if word.isascii() and word.isdigit() and len(word) <= _MAX_DIGITS and int(word) in points:
        return int(word)
    shown = "".join(ch for ch in word if ch.isprintable())
    shown = shown if len(shown) <= 20 else shown[:19] + "…"
    raise CutError(
        _(
            "'{text}' is not a cut point: give a whole number from {low} to {high} (at least one card "
            "in each packet), or press Enter for a random cut."
        ).format(text=shown, low=points[0], high=points[-1])
    )


def cut_done_text(cut: int, chosen: bool) -> str:
    """What the table says after the deal: how many cards were lifted, by the player's choice or at random.

    >>> cut_done_text(12, True), cut_done_text(1, False)
    ('You cut: 12 cards lifted.', 'Random cut: 1 card lifted.')
    """
    if chosen:
        return ngettext("You cut: {n} card lifted.", "You cut: {n} cards lifted.", cut).format(n=cut)
    return ngettext("Random cut: {n} card lifted.", "Random cut: {n} cards lifted.", cut).format(n=cut)
