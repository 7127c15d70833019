"""``ramsli review HISTORY.toml`` / ``ramsli review SESSION_DIR``: the coach's review (docs/coach.md).

A hand history: every decision of each seat whose cards it holds (or of ``--seat``) with the
coach's value of each choice, the loss against the best, the marks and one line in player words
for each mark. A session folder (one with ``session.toml``, or one saved by ``ramsli play``): per
player the counters lost to marked decisions, split into declarations and card play, the worst
three decisions with their hand and decision numbers, and the average loss per decision.

Every history is replayed first (every action re-validated, the settlement re-computed and
compared, see ``docs/hand-history.md``).

Exit status:
    0 reviewed;
    2 a missing, unreadable or malformed file, an action the rules do not allow, a recorded
      settlement that the replay does not reproduce (a tampered history), a hand that is not
      finished, or a seat that is not at the table (the message names the file, the line and why).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.cells import cell_len
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ramsli.cards import Card
from ramsli.coach.review import CoachError, Decision, HandReview, Settings, check_history, review_hand
from ramsli.coach.session import SessionReview, review_session
from ramsli.coach.words import decision_line, format_counters, mark_word
from ramsli.commands.history_opts import HistoryPath, LangOption, SeatOption, SeedOption
from ramsli.commands.replay_cmd import _check_input, _safe
from ramsli.frontends.i18n import detect_language, translation
from ramsli.frontends.text import card_label_in
from ramsli.hand import Action, parse_seat, seat_name
from ramsli.history import HandHistory, HistoryError, ReplayError, SessionHistory, read_hand_files, read_session

__all__ = ["register", "review"]


def _fail(message: str) -> NoReturn:
    typer.echo(_safe(message), err=True)
    raise typer.Exit(2)


def _choice_label(a: Action, lang: str) -> str:
    """An action as the reader reads it: ``in``, ``rein``, ``A♠``, ``target 3``."""
    tr = translation(lang)
    _ = tr.gettext
    if a.kind == "in":
        return _("in")
    if a.kind == "out":
        return _("out")
    if a.kind == "gr":
        return _("General Rams")
    if a.kind == "pass":
        return _("pass")
    if a.kind == "t":
        return _("target {n}").format(n=a.target)
    return card_label_in(a.card, lang) if a.card is not None else str(a)


def _where(d: Decision, lang: str) -> str:
    _ = translation(lang).gettext
    if d.kind == "declare":
        return _("declaration")
    if d.kind == "general_rams":
        return _("General Rams")
    if d.kind == "target":
        return _("target")
    return _("trick {n}").format(n=d.trick)


#: a no-break space (the catalogs' French ``95 %``, ``jetons :``) and the narrow one the terminal
#: shows in its place: Rich breaks a line at U+00A0 (Python counts it as white space), not at U+202F
_NBSP, _NNBSP = "\u00a0", "\u202f"


def _add_column(table: Table, header: str) -> None:
    """A column headed ``header`` that is never cut: at least as wide as the header's longest word
    (German ``Entscheidung``), the rest folded onto more lines rather than cut with "…"; its
    no-break spaces stay unbroken (French ``perte (95 %)`` never leaves ``%)`` alone on a line)."""
    header = header.replace(_NBSP, _NNBSP)
    table.add_column(header, overflow="fold", min_width=max((len(w) for w in header.split()), default=1))


def _fit_words(table: Table, width: int) -> Table:
    """``table`` laid out for a console ``width`` cells wide without cutting a word: each column at
    least as wide as its longest word, of the header and of every cell (words split at spaces
    only), so that Rich wraps each cell at word boundaries and never folds a word across lines
    (French ``déclarati|on`` at 80 columns). When the table's natural width does not fit, each
    column gets its longest word plus a share of the room left, in proportion to what it would
    want more (Rich's own shrinking can crush the last column and crop it); returns ``table``."""
    lows, highs = [], []
    for column in table.columns:
        texts = [str(column.header), *(str(cell) for cell in column.cells)]
        words = [w for t in texts for w in t.replace(_NBSP, _NNBSP).split()]
        lows.append(max([column.min_width or 1, *(cell_len(w) for w in words)]))
        highs.append(max([lows[-1], *(cell_len(line) for t in texts for line in t.splitlines())]))
        column.min_width = lows[-1]
    n = len(table.columns)
    room = width - (2 * n - (0 if table.pad_edge else 2)) - (n - 1 + (2 if table.show_edge else 0))
    if sum(highs) > room >= sum(lows):
        spare, want = room - sum(lows), sum(highs) - sum(lows)
        for column, low, high in zip(table.columns, lows, highs, strict=True):
            column.width = low + spare * (high - low) // want
    return table


def _lines_in(lang: str) -> Callable[[Card], str]:
    """How the coach's lines show a card in ``lang``: the language's rank letters (de ``D♥``)."""
    return lambda c: card_label_in(c, lang)


def _signed(x: float, lang: str) -> str:
    return ("+" if x > 0.05 else "") + format_counters(x, lang)


def _print_hand(console: Console, review: HandReview, lang: str, own: bool = True) -> None:
    """Print one seat's review of a hand: its decisions in a table, then the marked lines. The cards'
    column says "your cards" when ``own`` (the seat asked for with ``--seat``), else names the seat's
    player ("Bo's cards"): a review of every seat is not all the reader's own."""
    _ = translation(lang).gettext
    head = _("Hand {number}").format(number=review.hand_number) if review.hand_number else _("Hand")
    console.print(f"[bold]{escape(_safe(head))} — {seat_name(review.seat)} {escape(_safe(review.name))}[/bold]")
    if not review.cards_known:
        console.print(escape(_("The cards of this seat are not recorded (??): nothing to review.")))
        return
    if not review.decisions:
        console.print(escape(_("No decision with a choice (every action was forced).")))
        return
    table = Table(show_edge=False, pad_edge=False)
    for col in (
        "#",
        _("decision"),
        _("your cards")
        if own
        else _("{name}'s cards").format(name=escape(_safe(review.name or seat_name(review.seat)))),
        _("chosen"),
        _("best"),
        _("loss (95%)"),
        _("mark"),
        _("values (counters)"),
    ):
        _add_column(table, col)
    for d in review.decisions:
        # each choice and its value kept on one line (a narrow no-break space: Rich breaks at no other)
        values = " · ".join(f"{_choice_label(c.action, lang)}{_NNBSP}{_signed(c.mean, lang)}" for c in d.choices)
        loss = format_counters(d.loss, lang) + ("" if d.loss_ci95 == 0 else f" ± {format_counters(d.loss_ci95, lang)}")
        table.add_row(
            str(d.number),
            _where(d, lang),
            " ".join(card_label_in(c, lang) for c in d.cards),
            _choice_label(d.chosen, lang),
            _choice_label(d.best, lang),
            loss,
            mark_word(d.mark, lang) if d.mark else "",
            values,
        )
    console.print(_fit_words(table, console.width))
    for src, cards, samples in _sources(review):
        kinds = _("Cards") if cards else _("Declarations and announcements")
        text = (
            _("{what}: valued by the declaration equilibrium ({n} deals each)")
            if src == "equilibrium"
            else _("{what}: valued by the expert ({n} samples each)")
        )
        console.print(escape(text.format(what=kinds, n=samples)))
    for d in review.marked:
        line = decision_line(d, lang, card_label=_lines_in(lang))
        if line:
            console.print(f"  {d.number}. " + escape(line))
    if not review.marked:
        console.print(escape(_("No marked decision: nothing outside the noise cost more than 0.3 counters.")))


def _sources(review: HandReview) -> list[tuple[str, bool, str]]:
    """``(source, cards?, samples)`` per group of decisions valued alike, for the note under the table."""
    groups: dict[tuple[str, bool], list[Decision]] = {}
    for d in review.decisions:
        groups.setdefault((d.source, d.kind == "card"), []).append(d)
    out = []
    for (src, cards), ds in groups.items():
        samples = sorted({d.samples for d in ds})
        out.append((src, cards, str(samples[0]) if len(samples) == 1 else f"{samples[0]}–{samples[-1]}"))
    return out


def _print_session(console: Console, sr: SessionReview, lang: str) -> None:
    _ = translation(lang).gettext
    table = Table(title=_("The coach's review of the session ({n} hands)").format(n=sr.hands), show_edge=False)
    for col in (
        _("player"),
        _("hands"),
        _("decisions"),
        _("lost: declarations"),
        _("lost: cards"),
        _("lost: total"),
        _("per decision"),
        _("marks"),
    ):
        _add_column(table, col)
    for p in sr.players:
        marks = ", ".join(f"{mark_word(m, lang)} {k}" for m, k in p.marks.items() if k) or "—"
        table.add_row(
            escape(_safe(f"{seat_name(p.seat)} {p.name}")),
            str(p.hands) + (f" (+{p.not_reviewed} ??)" if p.not_reviewed else ""),
            str(p.decisions),
            format_counters(p.declaration_loss, lang),
            format_counters(p.card_loss, lang),
            format_counters(p.marked_loss, lang),
            format_counters(p.average_loss, lang, 3),
            escape(marks),
        )
    console.print(_fit_words(table, console.width))
    if any(p.not_reviewed for p in sr.players):
        console.print(
            escape(
                _(
                    "{column} “(+n ??)”: n more hands not reviewed, as the player's cards are not recorded in them."
                ).format(column=_("hands"))
            )
        )
    for p in sr.players:
        if not p.worst:
            continue
        console.print(escape(_safe(_("Worst decisions of {name}:").format(name=p.name))))
        for hand, d in p.worst:
            link = _("hand {hand}, decision {decision}").format(hand=hand, decision=d.number)
            line = decision_line(d, lang, card_label=_lines_in(lang)) or ""
            console.print("  " + escape(_("{label}: {value}").format(label=link, value=line)))


def review(
    path: HistoryPath,
    seat: SeatOption = None,
    json_out: Annotated[
        bool, typer.Option("--json", help="Print the review as JSON (decisions, values, marks; docs/coach.md).")
    ] = False,
    lang: LangOption = None,
    seed: SeedOption = 0,
) -> None:
    """Review a hand or a session: every decision valued in counters, the mistakes marked.

    Exit status 2 for a missing, malformed or tampered history (the reason is printed).
    """
    language = lang.value if lang else detect_language()
    _check_input(path)
    if path.is_file() and path.name == "session.toml":
        path = path.parent
    settings = Settings(seed=seed)
    items, seats, session = read_histories(path, seat, check_session_hands=False)
    err = Console(stderr=True)
    progress = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
        disable=not err.is_terminal,
    )
    _ = translation(language).gettext

    def render(d: Decision) -> str | None:
        return decision_line(d, language, card_label=_lines_in(language))

    try:
        with progress:
            if path.is_dir():
                task = progress.add_task(_("reviewing"), total=None)

                def step(done: int, total: int) -> None:
                    progress.update(task, completed=done, total=total)

                sr = review_session(
                    session if session is not None else [hh for _w, hh in items],
                    seats,
                    settings,
                    progress=step,
                    checked=True,
                )
            else:
                hh = items[0][1]
                chosen = [s for s in seats if s in hh.seated]
                if seat is not None and not chosen:
                    _fail(f"{items[0][0]}: {seat_name(seats[0])} is not seated in this hand (R3.5)")
                task = progress.add_task(_("reviewing"), total=len(chosen))
                reviews = []
                for s in chosen:
                    reviews.append(review_hand(hh, s, settings, checked=True))
                    progress.advance(task)
    except CoachError as e:
        _fail(f"{path}: {e.reason}")
        return
    if json_out:
        if path.is_dir():
            data: object = sr.to_dict(render)
        elif seat is not None:
            data = reviews[0].to_dict(render)
        else:
            data = [r.to_dict(render) for r in reviews if r.cards_known]
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = Console(highlight=False, soft_wrap=True)
    if path.is_dir():
        _print_session(console, sr, language)
        return
    shown = [r for r in reviews if r.cards_known or seat is not None]
    for k, r in enumerate(shown):
        if k:
            console.print()
        _print_hand(console, r, language, own=seat is not None)
    hidden = [seat_name(r.seat) for r in reviews if not r.cards_known and seat is None]
    if hidden:
        console.print()
        console.print(
            escape(_("Not reviewed, their cards are not recorded (??): {seats}").format(seats=", ".join(hidden)))
        )


def read_histories(
    path: Path, seat: str | None, *, check_session_hands: bool
) -> tuple[list[tuple[str, HandHistory]], list[int], SessionHistory | None]:
    """The hand histories of ``path`` (a hand's file, a folder of them, or a session's folder, read
    and replayed with its course checked: R3.2, R3.4, R5.4) as ``(file, history)``, the seats asked
    for (``seat``, or every seat) and the session (None for loose hands). Every hand is checked for
    the coach (:func:`ramsli.coach.review.check_history`); a session's hands only if
    ``check_session_hands``. Exits with status 2 and the reason (``FILE:LINE: …``) for a missing,
    malformed or tampered history or a seat the hands do not have."""
    session: SessionHistory | None = None
    try:
        if path.is_dir() and (path / "session.toml").exists():
            session = read_session(path)  # replays and checks every hand and the session's course
            items = [(str(path / f), hh) for f, hh in zip(session.files, session.hands)]
        elif path.is_dir():
            items = [(str(p), hh) for p, hh in read_hand_files(path)]
        else:
            items = [(str(path), HandHistory.read(path))]
        if not items:
            _fail(f"{path}: no hand history in this folder (hand-0001.toml, ...)")
        if session is None or check_session_hands:
            for where, hh in items:
                try:
                    check_history(hh)
                except (HistoryError, ReplayError, CoachError) as e:
                    _fail(_located(where, e))
    except ReplayError as e:
        _fail(_located(e.path or str(path), e))
    except HistoryError as e:
        _fail(str(e))
    n = len(items[0][1].names)
    if seat is None:
        return items, list(range(n)), session
    try:
        return items, [parse_seat(seat, n)], session
    except ValueError as e:
        _fail(f"--seat: {e}")


def _located(where: str, e: Exception) -> str:
    """``FILE:LINE: reason`` for a history's error."""
    if isinstance(e, HistoryError):
        return str(e.with_path(where)) if e.path is None else str(e)
    line = getattr(e, "line", None)
    return (f"{where}:{line}: " if line is not None else f"{where}: ") + str(e)


def register(app: typer.Typer) -> None:
    """Add the ``review`` command to the ``ramsli`` app."""
    app.command("review")(review)
