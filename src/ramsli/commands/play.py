"""``ramsli play``: sit down at a Ramsli table in the terminal.

With no options a table of five starts at once: the traditional rules (R6),
you in seat p1, the ``hard`` level in the other seats. The
session is saved to the data folder after every action; ``--resume`` continues
it, a hand in progress in the middle, exactly where it was left.
"""

from __future__ import annotations

import functools
import math
import sys
import unicodedata
from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import ParamSpec, TypeVar

import platformdirs
import typer

from ramsli.bots import make_bot
from ramsli.errors import TableError
from ramsli.frontends import game
from ramsli.frontends import text as T
from ramsli.frontends.game import OPPONENT_NAMES, LocalTable, check_bot_names, default_bot, split_bot_specs
from ramsli.frontends.i18n import _, detect_language, ngettext, number_words, set_language
from ramsli.frontends.plain import PlainGame, echo_text, is_yes
from ramsli.frontends.storage import FolderLocked, SavedSession, SaveError, SaveFolder
from ramsli.i18n import Lang, choices_text
from ramsli.rules import Rules, RulesError
from ramsli.session import check_names, check_setup, name_key

__all__ = ["register", "play"]

P = ParamSpec("P")
R = TypeVar("R")


def _default_data_dir() -> str:
    """The user data folder of ramsli (platformdirs), shown in the help of --data-dir."""
    try:
        return str(Path(platformdirs.user_data_dir("ramsli")))
    except Exception:  # noqa: BLE001 - no home folder: the help still works
        return "the user data folder (platformdirs)"


#: computed when the command is imported, so that --help shows the real folder
DEFAULT_DATA_DIR = _default_data_dir()


class Suits(StrEnum):
    french = "french"
    german = "german"


class CutChoice(StrEnum):
    ask = "ask"
    random = "random"


def play(
    players: int | None = typer.Option(
        None, "--players", "-P", help="Number of players at the table, 2-6 (R2.1); default 5."
    ),
    preset: str | None = typer.Option(
        None,
        "--preset",
        "-p",
        help="Rule preset (R6): traditional (the default), "
        "general-rams, compulsory, double-penalty, pot-bete, joker, modern-52, "
        "rounce, nap.",
    ),
    rule: list[str] | None = typer.Option(
        None,
        "--rule",
        "-r",
        metavar="KEY=VALUE",
        help="Change one rule option (R8), e.g. --rule bete=10 --rule end=hands:10; repeatable.",
    ),
    bots: str | None = typer.Option(
        None,
        "--bots",
        help="Bots for the other seats, a comma list in seat "
        "order (one name for all): a level - beginner (random moves), easy (the tips, with slips), "
        "medium, hard, expert (the strongest) - or a bot, e.g. 'hard' or "
        "'easy,medium,hard,expert' or 'rules,random,montecarlo:samples=64'; "
        "default: hard.",
    ),
    name: str | None = typer.Option(
        None,
        "--name",
        help="Your name at the table; default your login name, or "
        "'Player' (translated) when there is none or it is root.",
    ),
    seed: int | None = typer.Option(
        None, "--seed", help="Seed of the shuffles and the bots, 0 to 2^63-1: the same seed gives the same session."
    ),
    speed: float | None = typer.Option(
        None, "--speed", help="Seconds to wait after each bot move, 0 to 10 (default 0.6 in the app, 0 with --plain)."
    ),
    lang: Lang | None = typer.Option(
        None, "--lang", help=f"Language: {choices_text()}; default from the locale (LANGUAGE, LC_ALL, LANG)."
    ),
    suits: Suits | None = typer.Option(
        None, "--suits", help="Suit pictures: french (♠♥♦♣) or german (Eichel, Grün, Herz, Schellen; D-1)."
    ),
    four_colour: bool | None = typer.Option(
        None,
        "--four-colour/--two-colour",
        help="Cards in four "
        "colours (♠ black, ♥ red, ♦ blue, ♣ green) or the usual two (red "
        "♥ ♦, black ♠ ♣, the default); kept with the saved session.",
    ),
    plain: bool = typer.Option(
        False, "--plain", help="Lines of text on stdin/stdout instead of the full-screen app (screen readers, scripts)."
    ),
    resume: bool = typer.Option(
        False,
        "--resume",
        help="Continue the saved session, stacks and pot intact, a hand "
        "in progress where it was left (its own rules, bots, names and seed are kept).",
    ),
    data_dir: str | None = typer.Option(
        None, "--data-dir", help=f"Folder for the saved session and the hand histories; default {DEFAULT_DATA_DIR}"
    ),
    cut: CutChoice | None = typer.Option(
        None,
        "--cut",
        help="When you are the cutter (the player to the "
        "dealer's right, R4.2): ask where to cut, or cut at random. Default: "
        "ask in a terminal, random for scripts and pipes.",
    ),
) -> None:
    """Play a session of Ramsli against bots, in the terminal (full-screen app, or --plain lines)."""
    set_language(lang.value if lang else detect_language())
    if players is not None:
        _check_players(players)  # also with --resume, which then ignores it
    if speed is not None and not (math.isfinite(speed) and 0 <= speed <= MAX_SPEED):
        raise typer.BadParameter(
            _("{x} seconds: allowed are 0 to {max} seconds after each bot move").format(
                x=f"{speed:g}", max=f"{MAX_SPEED:g}"
            ),
            param_hint="--speed",
        )
    if seed is not None and not 0 <= seed < MAX_SEED:
        raise typer.BadParameter(
            _("{seed}: allowed are whole numbers from 0 to {max}").format(seed=seed, max=number_words(MAX_SEED - 1)),
            param_hint="--seed",
        )

    def new_session_args() -> tuple[Rules, list[str], list[str]]:
        """The rules, names and bot specs of a new session, every option checked (BadParameter)."""
        try:
            rules = Rules.preset(preset or "traditional").with_assignments(list(rule or []))
        except RulesError as e:
            raise typer.BadParameter(T.refusal_text(e), param_hint="--preset/--rule") from None
        n = players or rules.players or 5
        try:
            check_setup(rules, n)  # R2.1, R3.5: the engine's one set-up check, as the server and the lab
        except TableError as e:
            raise typer.BadParameter(T.refusal_text(e), param_hint=_SETUP_OPTION.get(e.field, "--players")) from None
        try:
            specs = split_bot_specs(bots) if bots is not None else [default_bot()]
        except ValueError as e:
            raise typer.BadParameter(T.refusal_text(e), param_hint="--bots") from None
        if len(specs) == 1:
            specs = specs * (n - 1)
        if len(specs) != n - 1:
            raise typer.BadParameter(
                ngettext(
                    "{given} bots given for {n} other seat; give one bot for all or one per seat",
                    "{given} bots given for {n} other seats; give one bot for all or one per seat",
                    n - 1,
                ).format(given=len(specs), n=n - 1),
                param_hint="--bots",
            )
        me = _clean_name(name or "") or game.default_name()
        # R2.2, compared as the engine compares names (name_key: look-alike letters, width, case): a bot
        # whose name looks like the player's gets another; the engine then checks every name
        names = [me] + [b for b in OPPONENT_NAMES if name_key(b) != name_key(me)][: n - 1]
        try:
            check_names(names)  # before a saved session is set aside: a refused name changes nothing
        except TableError as e:
            raise typer.BadParameter(T.refusal_text(e), param_hint="--name") from None
        try:
            check_bot_names(specs)  # an unknown bot is refused before the saved session is moved
            for spec in set(specs):
                make_bot(spec, 0)  # and a bad bot option
        except ValueError as e:
            raise typer.BadParameter(T.refusal_text(e), param_hint="--bots") from None
        return rules, names, specs

    # every option of a new session is refused before a saved session is even mentioned
    fresh = None if resume else new_session_args()
    store = SaveFolder(_data_dir(data_dir, _) if data_dir is not None else None)
    _lock(store, _)
    table: LocalTable | None = None
    saved: SavedSession | None = None
    announce_aside = False
    aside = None  # "The saved session was set aside in ...": printed, and shown inside the app too
    notice = None  # "Resuming the session after hand N.": printed in --plain mode, shown inside the app
    if store.exists() and not resume:
        # nothing lost: an unfinished session is never replaced silently
        try:
            old = store.load()
        except SaveError as e:
            typer.echo(
                _("The saved session {file} cannot be used: {problem}").format(file=e.path, problem=e.problem), err=True
            )
            old = None
        if old is not None and old.end_reason is None:
            typer.echo(
                _("A saved session (hand {n}, your stack {stack}) exists: ramsli play --resume continues it.").format(
                    n=old.hands_played + 1, stack=old.stacks[old.human]
                )
            )
            if _interactive() and not _confirm(
                _("Set it aside and start a new session?")
                + " "
                + _("A session set aside goes to {dir}.").format(dir=store.root / "sessions")
            ):
                resume = True
        announce_aside = old is None or old.end_reason is None  # a finished session moves to its folder quietly
    if resume:
        if not store.exists():
            typer.echo(_("There is no saved session in {dir}; a new session starts.").format(dir=store.root))
        else:
            try:
                saved = store.load()
                if saved.end_reason is None:
                    table = LocalTable.resume(saved, store)
            except (SaveError, ValueError) as e:
                path, problem = (
                    (e.path, e.problem) if isinstance(e, SaveError) else (store.session_file, T.refusal_text(e))
                )
                typer.echo(
                    _("The saved session {file} cannot be used: {problem}").format(file=path, problem=problem), err=True
                )
                if not _interactive() or not _confirm(
                    _("Set it aside and start a new session?")
                    + " "
                    + _("It is kept in {dir}; nothing is deleted.").format(dir=store.root)
                ):
                    typer.echo(_("Run ramsli play without --resume to set it aside and start a new session."), err=True)
                    raise typer.Exit(2) from None
                where = _set_aside(store, _)
                aside = _("The saved session was set aside in {path}.").format(path=where)
                typer.echo(aside)
                saved = table = None
            if saved is not None:
                if lang is None:
                    set_language(saved.lang)
                if saved.end_reason is not None:
                    winners = [s for s, v in enumerate(saved.stacks) if v == max(saved.stacks)]
                    for line in T.standings_lines(
                        saved.stacks, saved.pot, saved.names, winners, saved.end_reason, saved.hands_played, saved.human
                    ):
                        typer.echo(T.player_words(line))  # the game's words; rule ids are for why
                    typer.echo(_("Start a new session with: ramsli play"))
                    return
                assert table is not None  # a saved session that is not over was resumed above
                if lang is not None:
                    table.lang = lang.value
                if suits is not None:
                    table.suits = suits.value
                if four_colour is not None:
                    table.four_colour = four_colour
                for key, value in saved.unknown_display.items():
                    if (
                        (key == "lang" and lang is None)
                        or (key == "suits" and suits is None)
                        or (key == "four_colour" and four_colour is None)
                    ):
                        typer.echo(
                            _("The saved {option} {value} is not known; using {default}.").format(
                                option=key, value=_short(value), default=getattr(table, key)
                            ),
                            err=True,
                        )
                ignored = [
                    opt
                    for opt, given in (
                        ("--players", players is not None),
                        ("--preset", preset is not None),
                        ("--rule", bool(rule)),
                        ("--bots", bots is not None),
                        ("--name", name is not None),
                        ("--seed", seed is not None),
                    )
                    if given
                ]
                if ignored:
                    typer.echo(
                        _("Ignored with --resume: {options} (the saved session keeps its own).").format(
                            options=", ".join(ignored)
                        ),
                        err=True,
                    )
                if saved.hand_actions is not None:
                    notice = _("Resuming hand {n} where it was left.").format(n=saved.hands_played + 1)
                else:
                    notice = _("Resuming the session after hand {n}.").format(n=saved.hands_played)
    if table is None:
        rules, names, specs = fresh or new_session_args()
        where = _set_aside(store, _)  # nothing lost: the old session keeps its file (R3.4)
        if where is not None and announce_aside:
            aside = _("The saved session was set aside in {path}.").format(path=where)
            typer.echo(aside)
        try:
            table = LocalTable.new(
                rules,
                names,
                specs,
                seed=seed,
                store=store,
                lang=lang.value if lang else detect_language(),
                suits=suits.value if suits else "french",
                four_colour=bool(four_colour),
            )
        except TableError as e:  # a name the engine refuses (R2.2): the player's own, from --name
            hint = "--name" if e.field == "names" else _SETUP_OPTION.get(e.field, "--players")
            raise typer.BadParameter(T.refusal_text(e), param_hint=hint) from None
        except ValueError as e:
            raise typer.BadParameter(T.refusal_text(e), param_hint="--bots/--players") from None
        except OSError as e:
            raise typer.BadParameter(
                _("cannot write the session into {dir}: {problem}").format(dir=store.root, problem=e.strerror or e),
                param_hint="--data-dir",
            ) from None
    if not plain and not _terminal():
        typer.echo(_("Not a terminal: playing in --plain mode."), err=True)
        plain = True
    if plain:
        if notice:
            typer.echo(notice)
        code = PlainGame(
            table, speed=speed if speed is not None else 0.0, ask_cut=None if cut is None else cut is CutChoice.ask
        ).run()
    else:
        table.ask_cut = cut is not CutChoice.random  # R4.2: the app asks the player where to cut
        # kept local: Textual takes about 130 ms to import, which ``ramsli --help`` and --plain never need
        from ramsli.frontends.tui import run_app

        shown = " ".join(x for x in (aside, notice) if x) or None  # the full screen hides what was printed
        code = run_app(table, speed=speed if speed is not None else 0.6, notice=shown)
    if code:
        raise typer.Exit(code)


#: the option to name when the engine's set-up check refuses a field (TableError.field, R2.1, R3.5)
_SETUP_OPTION = {"names": "--players", "players": "--players", "ante": "--rule"}


def _check_players(players: int) -> None:
    """``--players`` checked by the engine's set-up check (2..6 players, R2.1) before anything else,
    also with ``--resume`` (which then ignores it); the default rules have no other set-up to refuse.

    Raises:
        typer.BadParameter: exit code 2, the engine's refusal in the player's language.
    """
    try:
        check_setup(Rules(), players)
    except TableError as e:
        raise typer.BadParameter(T.refusal_text(e), param_hint="--players") from None


#: the longest wait after a bot move (seconds) that --speed accepts
MAX_SPEED = 10.0
#: the longest player name kept (characters)
MAX_NAME = 20
#: seeds are 0 <= seed < MAX_SEED (as for the other commands)
MAX_SEED = 2**63


def _short(value: object) -> str:
    """A value read from a save file, made safe and short to print."""
    return repr(echo_text(value if isinstance(value, str) else repr(value), 20))


def _confirm(question: str) -> bool:
    """Ask a yes/no question in the player's language: ``[y/N]``, ``[j/N]``, ``[s/N]``; default no.
    The answer is read as :func:`~ramsli.frontends.plain.is_yes` reads it (y, yes, ja, sì...)."""
    mark = _("[y/N]")
    answer = typer.prompt(question + " " + mark, default="", show_default=False)
    return is_yes(answer)


def _terminal() -> bool:
    """True if stdin and stdout are a terminal, where the full-screen app can run."""
    return sys.stdin.isatty() and sys.stdout.isatty()


def _interactive() -> bool:
    """True if a question can be asked (stdin is a terminal); scripts and pipes are never prompted."""
    return sys.stdin.isatty()


def _clean_name(text: str) -> str:
    """The player's name without control characters (escape codes, NUL, tabs; bytes that are not UTF-8)
    and surrounding blanks, at most :data:`MAX_NAME` long. Invisible format characters (Unicode category
    Cf: zero-width spaces, bidirectional controls) are kept, so that the engine's R2.2 check refuses them
    as sessions, hand histories and the server do (:func:`ramsli.session.check_names`)."""
    kept = "".join(c for c in text if unicodedata.category(c)[0] != "C" or unicodedata.category(c) == "Cf")
    return kept.strip()[:MAX_NAME].strip()


def _data_dir(text: str, _: Callable[[str], str]) -> Path:
    """``--data-dir`` checked: not empty, and a folder (or a path where one can be made).

    Raises:
        typer.BadParameter: exit code 2, naming the path and what is allowed.
    """
    if not text.strip():
        raise typer.BadParameter(
            _("the folder name is empty; give a folder, e.g. --data-dir ~/ramsli"), param_hint="--data-dir"
        )
    path = Path(text).expanduser()
    probe = path
    while not probe.exists() and probe != probe.parent:
        probe = probe.parent
    if not probe.is_dir():
        raise typer.BadParameter(
            _("{path} is not a folder: {file} is a file; give a folder").format(path=path, file=probe),
            param_hint="--data-dir",
        )
    return path


def _lock(store: SaveFolder, _: Callable[[str], str]) -> None:
    """Hold the data folder's lock while this command runs: a second ``ramsli play``
    on the same folder, in the app or in --plain mode, stops with exit 1 and says why.

    Raises:
        typer.Exit: code 1 if another process holds the folder.
        typer.BadParameter: exit code 2 if the folder cannot be made or written.
    """
    try:
        store.lock()
    except FolderLocked as e:
        typer.echo(
            _(
                "Another ramsli play is using the data folder {dir}; finish that game first, or give "
                "another folder with --data-dir."
            ).format(dir=e.root),
            err=True,
        )
        raise typer.Exit(1) from None
    except OSError as e:
        raise typer.BadParameter(
            _("cannot write the session into {dir}: {problem}").format(dir=store.root, problem=e.strerror or e),
            param_hint="--data-dir",
        ) from None
    _HELD.append(store)


#: stores whose folder lock this process took in the running command (released when it returns)
_HELD: list[SaveFolder] = []


def _releasing_locks(command: Callable[P, R]) -> Callable[P, R]:
    """Wrap a command so that every folder lock it took is released when it returns or raises."""

    @functools.wraps(command)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return command(*args, **kwargs)
        finally:
            while _HELD:
                _HELD.pop().unlock()

    return run


def _set_aside(store: SaveFolder, _: Callable[[str], str]) -> Path | None:
    """Move the saved session out of the way (never deleted); exit 2 with the reason if the folder refuses."""
    try:
        return store.set_aside()
    except OSError as e:
        raise typer.BadParameter(
            _("cannot write the session into {dir}: {problem}").format(dir=store.root, problem=e.strerror or e),
            param_hint="--data-dir",
        ) from None


def register(app: typer.Typer) -> None:
    """Add the ``play`` command to the ``ramsli`` app."""
    app.command("play")(_releasing_locks(play))
