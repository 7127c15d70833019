"""``ramsli verify FILE...``: check the deals of downloaded hand histories offline.

A hand history downloaded from a ramsli table (``ramsli-hh/2``) carries the commitments the table
made to every card of the deck before the first declaration and the openings of the cards its
reader may know (``[fairness]``; ``docs/fairness.md``). For each file this command reads and
replays the hand (every action re-checked, the settlement re-computed) and then checks, with
:func:`ramsli.fairness.check_deal`: the digest is the commitments'; every opening matches its
commitment; the reader's own cards, the turn-up, the jokers turned aside and every played card
are opened, each at the position the deal gives it and as that card, at distinct positions of
one deck; nothing else is opened. A folder stands for the hand histories in it
(``*.toml`` but ``session.toml``). Both schemes are read: a ``ramsli-deal/2`` digest is bound to
its table, hand, dealer and seats (a binding that is not this hand's is a mismatch), a
``ramsli-deal/1`` digest covers the commitments only; the line of a deal that checks says which.

An evening's download (``GET /api/evenings/{id}/download.json``, ``"kind": "ramsli-evening"``;
issue 34) is checked with :func:`ramsli.evening.verify.verify_download`: every opened seed hashes
down to the commitment, each round's table sizes are the documented split, each round's draw
recomputes from its seed (and the standings before it), the tables are that draw after the
recorded re-seats, each table result's places and scores follow from its nets, and the
standings recompute (``docs/evenings.md``). A file is read as an evening when its name ends in
``.json`` or its text starts with ``{``.

Exit status:
    0 every deal checks;
    1 a mismatch: a card or salt that does not match its commitment, a card at another place, a
      card opened twice, a changed commitment (the line names the file, position and card);
    2 no mismatch, but a file is missing, unreadable or malformed, has no commitments, a
      commitment list of the wrong length or a position opened twice, or does not replay (an
      evening: not JSON, or not an evening download of a version this ramsli reads).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer

from ramsli.commands.replay_cmd import _card_label, error_text
from ramsli.evening.verify import Finding, Malformed, verify_download
from ramsli.fairness import MALFORMED, SCHEME, SCHEME_V1, DealProof, check_deal
from ramsli.frontends.i18n import N_, detect_language, render_refusal, translation
from ramsli.history import HandHistory, HistoryError, ReplayError
from ramsli.i18n import Lang, choices_text
from ramsli.refusal import Refusal
from ramsli.seats import seat_name

__all__ = [
    "register",
    "verify",
    "verify_file",
    "error_text",
    "verify_evening",
    "is_evening_file",
    "finding_text",
    "scheme_text",
]


def _files(paths: list[Path]) -> list[Path]:
    out: list[Path] = []
    for p in paths:
        if p.is_dir():
            out += sorted(q for q in p.glob("*.toml") if q.name != "session.toml")
        else:
            out.append(p)
    return out


#: the text of each evening finding that checks, by its ``what`` (placeholders: round, table, n, found)
EVENING_OK = {
    "commitment": N_("the commitment is a SHA-256 digest ({found}…)"),
    "seed": N_("round {round}: the seed hashes down to the commitment"),
    "sizes": N_("round {round}: tables of {found}, as documented"),
    "finalists": N_("round {round}: the Final and the Small final are the best of the qualifying standings"),
    "order": N_("round {round}: the tables are cut from the standings after the rounds before"),
    "draw": N_("round {round}: the draw recomputes from the seed"),
    "tables": N_("round {round}: the tables are the draw after the recorded re-seats ({n})"),
    "result": N_("round {round}, table {table}: the places and scores recompute from the counters won"),
    "deals": N_("round {round}: the {n} deals seat everyone from their dealer and add up to each table's result"),
    "deal_keys": N_(
        "round {round}: each of the {n} deals has one deal key at every table of its section (the same cards)"
    ),
    "standings": N_("the standings recompute from the results ({n} lines)"),
}
#: the text of each evening finding that does not check, by its ``what``
#: (placeholders: round, table, rank, expected, found)
EVENING_BAD = {
    "commitment": N_("the commitment is not a SHA-256 digest: {found}"),
    "seed": N_("round {round}: the seed does not hash down to the commitment: {found}"),
    "seed_missing": N_("round {round}: the seed is not opened"),
    "roster": N_("round {round}: the draw cannot be recomputed: {found}"),
    "sizes": N_("round {round}: tables of {found}, but the split gives {expected}"),
    "finalists": N_("round {round}: the final round should seat {expected}, the download seats {found}"),
    "order": N_("round {round}: the tables should be cut from {expected}, the download has {found}"),
    "draw": N_("round {round}, table {table}: the draw gives {expected}, the download has {found}"),
    "tables": N_(
        "round {round}, table {table}: the draw after the re-seats gives {expected}, the download has {found}"
    ),
    "swaps": N_("round {round}: the recorded re-seats do not apply: {found}"),
    "result": N_("round {round}, table {table}: the result should be {expected}, the download has {found}"),
    "deals": N_(
        "round {round}: the deals do not fit the tables (seats from the dealer, nets adding up to the results): {found}"
    ),
    "deal_keys": N_("round {round}, table {table}: the tables were not dealt the same cards: {found}"),
    "standings": N_("standings, rank {rank}: the results give {expected}, the download has {found}"),
    "standings_broken": N_("the standings cannot be recomputed: {found}"),
}


def finding_text(f: Finding, gettext: Callable[[str], str]) -> str:
    """One evening finding as a line of text, translated with ``gettext``.

    >>> finding_text(Finding(False, 2, "seed"), lambda s: s)
    'round 2: the seed is not opened'
    """
    key = f.what
    if not f.ok:
        if key == "seed" and not f.found:
            key = "seed_missing"
        elif key == "tables" and f.table is None:
            key = "swaps"
        elif key == "standings" and f.rank is None:
            key = "standings_broken"
    template = (EVENING_OK if f.ok else EVENING_BAD).get(key, "{found}")
    found = f.found[:16] if f.ok and key == "commitment" else f.found
    return gettext(template).format(
        round=f.round, table=f.table, rank=f.rank, expected=f.expected, found=found, n=f.expected
    )


def is_evening_file(path: Path) -> bool:
    """Whether ``path`` is read as an evening download: named ``*.json``, or its text starts with ``{``."""
    if path.suffix.lower() == ".json":
        return True
    try:
        with path.open("rb") as fh:
            return fh.read(64).lstrip().startswith(b"{")
    except OSError:
        return False


def verify_evening(path: Path, lang: str = "en") -> tuple[int, list[str]]:
    """Check one evening download (issue 34).

    Returns:
        ``(status, lines)``: 0 (every finding checks), 1 (a finding does not) or 2 (not readable
        as JSON, or not an evening download), and what to print, in ``lang``.
    """
    _ = translation(lang).gettext
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return 2, [f"{path}: " + _("cannot be read: no such file")]
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        return 2, [f"{path}: " + _("cannot be read: not a JSON file ({error})").format(error=e)]
    except RecursionError:  # nested deeper than any download
        return 2, [f"{path}: " + _("cannot be read: not a JSON file ({error})").format(error="nested too deep")]
    try:
        findings = verify_download(data)
    except Malformed as e:
        return 2, [
            f"{path}: "
            + _("cannot be read: not an evening download ({field} is missing or malformed)").format(field=e.field)
        ]
    lines = []
    results: dict[int | None, int] = {}
    last: dict[int | None, int] = {}
    for i, f in enumerate(findings):  # the table results that check: one line a round
        if f.ok and f.what == "result":
            results[f.round] = results.get(f.round, 0) + 1
            last[f.round] = i
    for i, f in enumerate(findings):
        if f.ok and f.what == "result":
            if last[f.round] == i:
                text = _("round {round}: the places and scores of {n} tables recompute from the counters won")
                lines.append(f"{path}: " + text.format(round=f.round, n=results[f.round]))
            continue
        text = finding_text(f, _)
        lines.append(f"{path}: {text}" if f.ok else f"{path}: " + _("DOES NOT CHECK") + f": {text}")
    bad = sum(not f.ok for f in findings)
    if bad:
        lines.append(
            f"{path}: " + _("EVENING DOES NOT CHECK: {bad} of {total} checks fail").format(bad=bad, total=len(findings))
        )
        return 1, lines
    lines.append(f"{path}: " + _("evening checked: all {total} checks pass").format(total=len(findings)))
    return 0, lines


#: what each scheme's line says (placeholders of ramsli-deal/2: table, hand, dealer, seats)
SCHEME_TEXT = {
    SCHEME_V1: N_("the digest does not name its table and hand"),
    SCHEME: N_("bound to table {table}, hand {hand}, dealer {dealer}, seats {seats}"),
}


def scheme_text(proof: DealProof, gettext: Callable[[str], str]) -> str:
    """Which scheme a proof uses (``docs/fairness.md``), as a clause of text in ``gettext``'s language:
    a ``ramsli-deal/2`` digest names its table, hand, dealer and seats; a ``ramsli-deal/1`` digest
    covers the commitments only.

    >>> from ramsli.fairness import DealBinding
    >>> scheme_text(DealProof((), "", (), None, DealBinding("k3v9q2", 3, 0, (0, 1, 2))), lambda s: s)
    'ramsli-deal/2: bound to table k3v9q2, hand 3, dealer p1, seats p1 p2 p3'
    >>> scheme_text(DealProof((), "", ()), lambda s: s)
    'ramsli-deal/1: the digest does not name its table and hand'
    """
    b = proof.binding
    if b is None:
        return SCHEME_V1 + ": " + gettext(SCHEME_TEXT[SCHEME_V1])
    text = gettext(SCHEME_TEXT[SCHEME])
    seats = " ".join(seat_name(x) for x in b.seated)
    return SCHEME + ": " + text.format(table=b.table, hand=b.hand, dealer=seat_name(b.dealer), seats=seats)


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
        line = f"{e.path or path}:{e.line}: " if e.line is not None else f"{e.path or path}: "
        return 2, [line + error_text(e, lang)]
    proof = hh.fairness
    found = check_deal(proof, hand, number=hh.hand_number)
    title = _("hand {n}").format(n=hh.hand_number) if hh.hand_number is not None else _("hand")
    if not found:
        text = _("deal checked: {opened} of {size} cards opened, each as committed (digest {digest}…)").format(
            opened=len(proof.openings), size=len(proof.commitments), digest=proof.digest[:16]
        )
        return 0, [f"{path}: {title}: {text}; {scheme_text(proof, _)}"]
    status = 2 if all(r.code in MALFORMED for r in found) else 1
    head = _("DEAL DOES NOT CHECK") if status == 1 else _("cannot be checked")
    cards = _card_label(lang)
    return status, [f"{path}: {title}: {head}: {render_refusal(r, translations=tr, card_label=cards)}" for r in found]


def verify(
    paths: Annotated[
        list[Path],
        typer.Argument(
            metavar="FILE...",
            help="Hand histories downloaded from a ramsli table (.toml), or folders of them; "
            "or an evening's download (.json).",
            show_default=False,
        ),
    ],
    lang: Annotated[
        Lang | None,
        typer.Option("--lang", help=f"Language: {choices_text()}; default from the locale (LANGUAGE, LC_ALL, LANG)."),
    ] = None,
) -> None:
    """Check that each hand's deck was fixed before the first declaration and did not change;
    or that an evening's draws and standings recompute from its download.

    Exit status 0 every deal checks, 1 a mismatch (position and card named), 2 a malformed file.
    """
    language = lang.value if lang else detect_language()
    _ = translation(language).gettext
    files = _files(paths)
    if not files:
        typer.echo(_("error: no hand history given"), err=True)
        raise typer.Exit(2)
    worst = {0: 0, 1: 0, 2: 0}
    evenings = {0: 0, 1: 0, 2: 0}
    for f in files:
        evening = is_evening_file(f)
        status, lines = (verify_evening if evening else verify_file)(f, language)
        (evenings if evening else worst)[status] += 1
        for line in lines:
            typer.echo(line, err=status != 0)
    if sum(worst.values()):
        typer.echo(
            _("deals checked: {checked} of {total}; do not check: {bad}; cannot be read: {broken}").format(
                checked=worst[0], total=sum(worst.values()), bad=worst[1], broken=worst[2]
            )
        )
    if sum(evenings.values()):
        typer.echo(
            _("evenings checked: {checked} of {total}; do not check: {bad}; cannot be read: {broken}").format(
                checked=evenings[0], total=sum(evenings.values()), bad=evenings[1], broken=evenings[2]
            )
        )
    bad = worst[1] + evenings[1]
    broken = worst[2] + evenings[2]
    raise typer.Exit(1 if bad else 2 if broken else 0)


def register(app: typer.Typer) -> None:
    """Add the ``verify`` command to the ``ramsli`` app."""
    app.command("verify")(verify)
