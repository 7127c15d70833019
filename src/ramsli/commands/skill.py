"""``ramsli skill HISTORY.toml`` / ``ramsli skill SESSION_DIR``: skill counters (docs/skill.md).

A hand history: for each seat whose cards it holds (or ``--seat``), every decision with a real
choice, the choice made against the expert's in the same place, each valued by the coach, and the
hand's skill counters (the sum of *chosen − expert*) with its 95% interval, beside the deal's value,
the net counters and the luck. A session folder: per player the skill counters per hand with
their 95% interval, beside the net counters per hand and the net less the deal's value.

Every history is replayed first, as ``ramsli review`` does.

Exit status:
    0 valued;
    2 a missing, unreadable or malformed file, an action the rules do not allow, a recorded
      settlement that the replay does not reproduce (a tampered history), a hand that is not
      finished, a seat that is not at the table, or an unknown ``--baseline`` bot.
"""

from __future__ import annotations

import json
import math
from typing import Annotated

import typer
from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ramsli.bots.base import make_bot
from ramsli.bots.refusals import BotSpecError
from ramsli.coach.review import CoachError, Settings
from ramsli.coach.skill import BASELINE, DecisionSkill, HandSkill, SkillSummary, skill_of_hand
from ramsli.coach.words import format_counters
from ramsli.commands.history_opts import HistoryPath, LangOption, SeatOption, SeedOption
from ramsli.commands.replay_cmd import _check_input, _safe
from ramsli.commands.review import _add_column, _choice_label, _fit_words, read_histories
from ramsli.frontends.i18n import detect_language, render_refusal, translation
from ramsli.hand import seat_name

__all__ = ["register", "skill", "SESSION_FORMAT"]

#: the format of ``ramsli skill SESSION_DIR --json``
SESSION_FORMAT = "ramsli-skill-session/1"


def _fail(message: str) -> None:
    typer.echo(_safe(message), err=True)
    raise typer.Exit(2)


def _signed(x: float, lang: str) -> str:
    return ("+" if x > 0.0005 else "") + format_counters(x, lang, 2)


def _pm(mean: float, ci: float, lang: str) -> str:
    """``+0.12 ± 0.05`` in the reader's locale (``± ∞`` for an unbounded interval)."""
    return _signed(mean, lang) + " ± " + (format_counters(ci, lang, 2) if math.isfinite(ci) else "∞")


def _where(d: DecisionSkill, lang: str) -> str:
    _ = translation(lang).gettext
    if d.kind == "declare":
        return _("declaration")
    if d.kind == "general_rams":
        return _("General Rams")
    if d.kind == "target":
        return _("target")
    return _("trick {n}").format(n=d.trick)


def _print_hand(console: Console, hs: HandSkill, lang: str) -> None:
    _ = translation(lang).gettext
    head = _("Hand {number}").format(number=hs.hand_number) if hs.hand_number else _("Hand")
    console.print(f"[bold]{escape(_safe(head))} — {seat_name(hs.seat)} {escape(_safe(hs.name))}[/bold]")
    if not hs.cards_known:
        console.print(escape(_("The cards of this seat are not recorded (??): nothing to review.")))
        return
    if hs.decisions:
        table = Table(show_edge=False, pad_edge=False)
        for col in ("#", _("decision"), _("chosen"), _("expert"), _("chosen − expert (95%)")):
            _add_column(table, col)
        for d in hs.decisions:
            table.add_row(
                str(d.number),
                _where(d, lang),
                _choice_label(d.chosen, lang),
                _choice_label(d.expert, lang),
                "0" if d.chosen == d.expert else _pm(d.diff, d.diff_ci95, lang),
            )
        console.print(_fit_words(table, console.width))
    else:
        console.print(escape(_("No decision with a choice (every action was forced).")))
    console.print(
        escape(
            _("Skill counters: {skill} (your decisions against the expert's)").format(
                skill=_pm(hs.skill, hs.ci95, lang)
            )
        )
    )
    console.print(
        escape(
            _("Value of the deal {deal}, net {net}, luck {luck}").format(
                deal=_signed(hs.deal_value, lang), net=_signed(hs.net, lang), luck=_signed(hs.luck, lang)
            )
        )
    )


def _print_session(console: Console, rows: list[tuple[int, str, SkillSummary]], hands: int, lang: str) -> None:
    _ = translation(lang).gettext
    table = Table(title=_("Skill counters of the session ({n} hands)").format(n=hands), show_edge=False)
    for col in (
        _("player"),
        _("hands"),
        _("decisions"),
        _("skill per hand (95%)"),
        _("net per hand (95%)"),
        _("net less the deal's value (95%)"),
    ):
        _add_column(table, col)
    for seat, name, s in rows:
        net, corrected = s.net(), s.corrected()
        table.add_row(
            escape(_safe(f"{seat_name(seat)} {name}")),
            str(s.hands),
            str(s.decisions),
            _pm(s.mean, s.ci95, lang) if s.hands else "—",
            _pm(net[0], net[2], lang) if s.hands else "—",
            _pm(corrected[0], corrected[2], lang) if s.hands else "—",
        )
    console.print(_fit_words(table, console.width))
    console.print(escape(_("Skill counters per hand: your decisions against the expert's, valued by the coach.")))


def skill(
    path: HistoryPath,
    seat: SeatOption = None,
    json_out: Annotated[bool, typer.Option("--json", help="Print the skill counters as JSON (docs/skill.md).")] = False,
    lang: LangOption = None,
    seed: SeedOption = 0,
    baseline: Annotated[
        str, typer.Option("--baseline", help="The bot whose choices yours are measured against (a bot spec).")
    ] = BASELINE,
    equilibrium: Annotated[
        bool,
        typer.Option(
            "--equilibrium/--no-equilibrium", help="Value declarations by the solved equilibrium where there is one."
        ),
    ] = True,
    equilibrium_samples: Annotated[
        int, typer.Option("--equilibrium-samples", min=2, max=200_000, help="Deals per declaration by the equilibrium.")
    ] = Settings.equilibrium_samples,
    declare_samples: Annotated[
        int,
        typer.Option(
            "--declare-samples", min=1, max=1000, help="The expert's rollouts per declaration or announcement."
        ),
    ] = Settings.declare_samples,
    play_samples: Annotated[
        int, typer.Option("--play-samples", min=1, max=400, help="The expert's samples per card decision.")
    ] = Settings.play_samples,
) -> None:
    """Skill counters: the counters your decisions gained against the expert's, with the luck taken out.

    Exit status 2 for a missing, malformed or tampered history (the reason is printed).
    """
    language = lang.value if lang else detect_language()
    _check_input(path)
    try:
        make_bot(baseline)
    except BotSpecError as e:  # the bots' refusal in the reader's language, a sentence (as ramsli play says it)
        _fail(f"--baseline: {render_refusal(e.refusal, translations=translation(language))}")
    if path.is_file() and path.name == "session.toml":
        path = path.parent
    settings = Settings(
        seed=seed,
        equilibrium=equilibrium,
        equilibrium_samples=equilibrium_samples,
        declare_samples=declare_samples,
        play_samples=play_samples,
    )
    items, seats, _session = read_histories(path, seat, check_session_hands=True)
    if not path.is_dir() and seat is not None and seats[0] not in items[0][1].seated:
        _fail(f"{items[0][0]}: {seat_name(seats[0])} is not seated in this hand (R3.5)")
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
    jobs = [(hh, s) for _w, hh in items for s in seats if s in hh.seated]
    results: list[HandSkill] = []
    try:
        with progress:
            task = progress.add_task(_("reviewing"), total=len(jobs))
            for hh, s in jobs:
                results.append(skill_of_hand(hh, s, settings, baseline=baseline, checked=True))
                progress.advance(task)
    except CoachError as e:
        _fail(f"{path}: {e.reason}")
        return
    if path.is_dir():
        names = items[0][1].names
        rows = [(s, names[s], SkillSummary.of([r for r in results if r.seat == s])) for s in seats]
        if json_out:
            data: object = {
                "format": SESSION_FORMAT,
                "hands": len(items),
                "baseline": baseline,
                "coach_seed": seed,
                "players": [
                    {"seat": seat_name(s), "name": name, "summary": summary.to_dict()} for s, name, summary in rows
                ],
                "skills": [r.to_dict() for r in results if r.cards_known],
            }
            typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
            return
        _print_session(Console(highlight=False, soft_wrap=True), rows, len(items), language)
        return
    if json_out:
        data = results[0].to_dict() if seat is not None else [r.to_dict() for r in results if r.cards_known]
        typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    console = Console(highlight=False, soft_wrap=True)
    shown = [r for r in results if r.cards_known or seat is not None]
    for k, r in enumerate(shown):
        if k:
            console.print()
        _print_hand(console, r, language)
    hidden = [seat_name(r.seat) for r in results if not r.cards_known and seat is None]
    if hidden:
        console.print()
        console.print(
            escape(_("Not reviewed, their cards are not recorded (??): {seats}").format(seats=", ".join(hidden)))
        )


def register(app: typer.Typer) -> None:
    """Add the ``skill`` command to the ``ramsli`` app."""
    app.command("skill")(skill)
