"""``ramsli play``: sit down at a Ramsli table in the terminal (issue #3).

With no options a table of five starts at once: the traditional rules (R6),
you in seat p1, the strongest bot the project has in the other seats. The
session is saved after every hand to the data folder; ``--resume`` continues it.
"""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path
from typing import List, Optional

import typer

__all__ = ["register", "play"]


class Lang(str, Enum):
    en = "en"
    de = "de"
    nl = "nl"
    it = "it"


class Suits(str, Enum):
    french = "french"
    german = "german"


def play(
    players: Optional[int] = typer.Option(None, "--players", "-n", min=2, max=6,
                                          help="Number of players at the table, 2-6 (R2.1); default 5."),
    preset: str = typer.Option("traditional", "--preset", help="Rule preset (R6): traditional, general-rams, "
                               "compulsory, double-penalty, pot-bete, joker, modern-52, rounce, nap."),
    rule: Optional[List[str]] = typer.Option(None, "--rule", "-r", metavar="KEY=VALUE",
                                             help="Change one rule option (R8), e.g. --rule bete=10 "
                                                  "--rule end=hands:10; repeatable."),
    bots: Optional[str] = typer.Option(None, "--bots", help="Bots for the other seats, a comma list in seat "
                                       "order (one name for all), e.g. 'rules,random,montecarlo:samples=64'; "
                                       "default: the strongest bot available."),
    name: Optional[str] = typer.Option(None, "--name", help="Your name at the table; default your login name."),
    seed: Optional[int] = typer.Option(None, "--seed", help="Seed of the shuffles and the bots: the same seed "
                                       "gives the same session."),
    speed: Optional[float] = typer.Option(None, "--speed", min=0.0, help="Seconds to wait after each bot move "
                                          "(default 0.6 in the app, 0 with --plain)."),
    lang: Optional[Lang] = typer.Option(None, "--lang", help="Language: en, de, nl, it; default from the "
                                        "locale (LANGUAGE, LC_ALL, LANG)."),
    suits: Optional[Suits] = typer.Option(None, "--suits", help="Suit pictures: french (♠♥♦♣) or german "
                                          "(Eichel, Grün, Herz, Schellen; D-1)."),
    plain: bool = typer.Option(False, "--plain", help="Lines of text on stdin/stdout instead of the full-screen "
                               "app (screen readers, scripts)."),
    resume: bool = typer.Option(False, "--resume", help="Continue the saved session, stacks and pot intact."),
    data_dir: Optional[Path] = typer.Option(None, "--data-dir", help="Folder for the saved session and the hand "
                                            "histories; default the user data folder (platformdirs)."),
) -> None:
    """Play a session of Ramsli against bots, in the terminal (full-screen app, or --plain lines)."""
    from ramsli.frontends import text as T
    from ramsli.frontends.game import BOT_NAMES, Table, default_bot, default_name, split_bot_specs
    from ramsli.frontends.i18n import _, detect_language, set_language
    from ramsli.frontends.storage import SaveError, Store
    from ramsli.rules import Rules, RulesError

    set_language(lang.value if lang else detect_language())
    store = Store(data_dir)
    table = None
    if resume:
        if not store.exists():
            typer.echo(_("There is no saved session in {dir}; a new session starts.").format(dir=store.root))
        else:
            try:
                saved = store.load()
            except SaveError as e:
                typer.echo(_("The saved session {file} cannot be used: {problem}").format(
                    file=e.path, problem=e.problem), err=True)
                if not typer.confirm(_("Set it aside and start a new session?"), default=False):
                    raise typer.Exit(1)
                saved = None
            if saved is not None:
                if lang is None:
                    set_language(saved.lang if saved.lang in ("en", "de", "nl", "it") else "en")
                if saved.end_reason is not None:
                    winners = [s for s, v in enumerate(saved.stacks) if v == max(saved.stacks)]
                    for line in T.standings_lines(saved.stacks, saved.pot, saved.names, winners,
                                                  saved.end_reason, saved.hands_played):
                        typer.echo(line)
                    typer.echo(_("Start a new session with: ramsli play"))
                    return
                table = Table.resume(saved, store)
                if lang is not None:
                    table.lang = lang.value
                if suits is not None:
                    table.suits = suits.value
                typer.echo(_("Resuming the session after hand {n}.").format(n=saved.hands_played))
    if table is None:
        try:
            rules = Rules.preset(preset).with_assignments(list(rule or []))
        except RulesError as e:
            raise typer.BadParameter(str(e), param_hint="--preset/--rule") from None
        n = players or rules.players or 5
        if rules.players is not None and rules.players != n:
            raise typer.BadParameter(f"--players {n} but the rule option players={rules.players} (R2.1)",
                                     param_hint="--players")
        specs = split_bot_specs(bots) if bots else [default_bot()]
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise typer.BadParameter(f"{len(specs)} bots given for {n - 1} other seats; give one bot for all "
                                     f"or one per seat", param_hint="--bots")
        me = (name or default_name()).strip() or "You"
        names = [me] + [b for b in BOT_NAMES if b != me][: n - 1]
        try:
            table = Table.new(rules, names, specs, seed=seed, store=store,
                              lang=lang.value if lang else detect_language(),
                              suits=suits.value if suits else "french")
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--bots/--players") from None
    if not plain and not (sys.stdin.isatty() and sys.stdout.isatty()):
        typer.echo(_("Not a terminal: playing in --plain mode."), err=True)
        plain = True
    if plain:
        from ramsli.frontends.plain import PlainGame

        code = PlainGame(table, speed=speed if speed is not None else 0.0).run()
    else:
        from ramsli.frontends.tui import run_app

        code = run_app(table, speed=speed if speed is not None else 0.6)
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to the ``ramsli`` app."""
    app.command("play")(play)
