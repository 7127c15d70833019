"""``ramsli verify FILE...``: check the deals of downloaded hand histories offline.

A hand history downloaded from a ramsli table (``ramsli-hh/2``) carries the commitments the table
made to every card of the deck before the first declaration and the openings of the cards its
reader may know (``[fairness]``; ``docs/fairness.md``). For each file this command reads and
replays the hand (every action re-checked, the settlement re-computed) and then checks, with
:func:`ramsli.fairness.check_deal`: the digest is the commitments'; every opening matches its
commitment; the reader's own cards, the turn-up, the jokers turned aside and every played card
are opened, each at the position the deal gives it and as that card, at distinct positions of
one deck; nothing else is opened. A folder stands for the hand histories in it
(``*.toml`` but ``session.toml``).

Exit status:
    0 every deal checks;
    1 a mismatch: a card or salt that does not match its commitment, a card at another place, a
      card opened twice, a changed commitment (the line names the file, position and card);
    2 no mismatch, but a file is missing, unreadable or malformed, has no commitments, a
      commitment list of the wrong length or a position opened twice, or does not replay.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ramsli.fairness import MALFORMED, check_deal
from ramsli.frontends.i18n import detect_language, render_refusal, translation
from ramsli.history import HandHistory, HistoryError, ReplayError
from ramsli.i18n import Lang, choices_text
from ramsli.refusal import Refusal

__all__ = ["register", "verify", "verify_file"]


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(q for q in p.glob("*.toml") if q.name != "session.toml")
        else:
            out.append(p)
    return out


def verify_file(path: Path, lang: str = "en") -> tuple[int, list[str]]:
    """Check one hand history's deal.

    Returns:
        ``(status, lines)``: 0 (checked), 1 (a mismatch) or 2 (unreadable, no commitments, or
        does not replay), and what to print, in ``lang``.
    """
    tr = translation(lang)
    _ = tr.gettext
    try:
        hh = HandHistory.read(path)
        if hh.fairness is None:
            return 2, [f"{path}: {render_refusal(Refusal('fair_no_proof'), translations=tr)}"]
        hand = hh.replay()
    except (HistoryError, ReplayError) as e:
        if isinstance(e, ReplayError):
            line = f"{path}:{e.line}: " if e.line is not None else f"{path}: "
            return 2, [line + str(e)]
        return 2, [str(e.with_path(path)) if e.path is None else str(e)]
    found = check_deal(hh.fairness, hand)
    title = _("hand {n}").format(n=hh.hand_number) if hh.hand_number is not None else _("hand")
    if not found:
        proof = hh.fairness
        text = _("deal checked: {opened} of {size} cards opened, each as committed (digest {digest}…)").format(
            opened=len(proof.openings), size=len(proof.commitments), digest=proof.digest[:16]
        )
        return 0, [f"{path}: {title}: {text}"]
    status = 2 if all(r.code in MALFORMED for r in found) else 1
    head = _("DEAL DOES NOT CHECK") if status == 1 else _("cannot be checked")
    return status, [f"{path}: {title}: {head}: {render_refusal(r, translations=tr)}" for r in found]


def verify(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Hand histories downloaded from a ramsli table (.toml), or folders of them.",
            show_default=False,
        ),
    ],
    lang: Annotated[
        Lang | None,
        typer.Option("--lang", help=f"Language: {choices_text()}; default from the locale (LANGUAGE, LC_ALL, LANG)."),
    ] = None,
) -> None:
    """Check that each hand's deck was fixed before the first declaration and did not change.

    Exit status 0 every deal checks, 1 a mismatch (position and card named), 2 a malformed file.
    """
    language = lang.value if lang else detect_language()
    _ = translation(language).gettext
    files = _files(paths)
    if not files:
        typer.echo(_("error: no hand history given"), err=True)
        raise typer.Exit(2)
    worst = {0: 0, 1: 0, 2: 0}
    for f in files:
        status, lines = verify_file(f, language)
        worst[status] += 1
        for line in lines:
            typer.echo(line, err=status != 0)
    typer.echo(
        _("deals checked: {checked} of {total}; do not check: {bad}; cannot be read: {broken}").format(
            checked=worst[0], total=len(files), bad=worst[1], broken=worst[2]
        )
    )
    raise typer.Exit(1 if worst[1] else 2 if worst[2] else 0)


def register(app: typer.Typer) -> None:
    """Add the ``verify`` command to the ``ramsli`` app."""
    app.command("verify")(verify)
