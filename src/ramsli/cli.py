"""The ``ramsli`` command line (Typer).

Each command lives in its own module under :mod:`ramsli.commands` and is
registered here; front ends depend on the engine, never the other way round.
Run ``ramsli --help`` for the list.
"""

from __future__ import annotations

import gettext
import importlib
import sys
from collections.abc import Callable
from typing import Any

import click
import rich.table
import rich.text
import typer
import typer.core
import typer.models

from ramsli import __version__
from ramsli.frontends.i18n import set_language
from ramsli.frontends.usage import error_line, usage_error_text, usage_head
from ramsli.i18n import LANGS, detect_language, translation


def _flags_as_flags() -> None:
    """``--help`` shows a flag as a flag (``--plain``, not ``--plain <bool>``) in every command:
    Typer prints the type of on/off options too; a flag takes no value, so none is shown."""
    option: Any = getattr(typer.core, "TyperOption", None)  # patched in place: Typer's own class
    shown: Callable[[click.Parameter, click.Context], str | None] | None = getattr(option, "display_type_rich", None)
    if shown is None or getattr(shown, "_flags_as_flags", False):
        return
    original = shown

    def display_type_rich(self: click.Parameter, ctx: click.Context) -> str | None:
        if getattr(self, "is_flag", False) and getattr(self, "metavar", None) is None:
            return None
        return original(self, ctx)

    display_type_rich.__dict__["_flags_as_flags"] = True
    option.display_type_rich = display_type_rich


_flags_as_flags()


def _fold(renderable: Any) -> Any:
    """``renderable`` with its Rich texts set to fold a word longer than its column onto the next
    line (``overflow="fold"``) instead of cutting it with "…"; a ``Columns`` is folded item by item."""
    if isinstance(renderable, rich.text.Text):
        renderable.overflow = "fold"
    for item in getattr(renderable, "renderables", ()) or ():
        _fold(item)
    return renderable


def _help_folds() -> None:
    """Every ``--help`` shows its texts in full at any width: Rich's tables cut a word wider than
    its column with "…" (``'easy,medium,hard,exper…'`` at 80 columns); Typer's help tables and the
    ``Columns`` of an option's help are replaced, in Typer's help module, by ones that fold every
    cell. Runs when a help is first shown: importing Typer's help module costs start-up time."""
    # local: Typer's Rich help module and rich.columns are needed by --help alone (start-up time)
    import rich.columns
    import typer.rich_utils

    if getattr(typer.rich_utils, "_ramsli_folds", False):
        return

    class FoldingTable(rich.table.Table):
        def add_row(self, *renderables: Any, **kwargs: Any) -> None:
            super().add_row(*(_fold(r) for r in renderables), **kwargs)
            for column in self.columns:
                column.overflow = "fold"

    class FoldingColumns(rich.columns.Columns):
        def __init__(self, renderables: Any = None, *args: Any, **kwargs: Any) -> None:
            super().__init__([_fold(r) for r in renderables or ()], *args, **kwargs)

    module: Any = typer.rich_utils
    module.Table, module.Columns = FoldingTable, FoldingColumns
    module._ramsli_folds = True


def _folding_help() -> None:
    """Typer's commands and groups call :func:`_help_folds` before they format a help."""
    for cls in (typer.core.TyperCommand, typer.core.TyperGroup):
        original: Any = cls.format_help
        if getattr(original, "_ramsli_folds", False):
            continue

        def format_help(self: Any, ctx: click.Context, formatter: click.HelpFormatter, _shown: Any = original) -> None:
            _help_folds()
            _help_in_language(self, ctx)
            _shown(self, ctx, formatter)

        format_help.__dict__["_ramsli_folds"] = True
        setattr(cls, "format_help", format_help)  # noqa: B010 - patched in place: Typer's own classes


_folding_help()


def pgettext(context: str, message: str) -> str:
    """Mark ``message`` as a msgid of ``context`` for the catalogs (``scripts/i18n.py`` extracts it);
    returns it unchanged: the help is translated when it is shown (:func:`_help_in_language`)."""
    return message


#: the words of ``--help`` around the commands' own texts, in the catalogs (context ``help``): the
#: root's description, the panels of :data:`HELP_PANELS` and Typer's titles. A help follows the
#: command's ``--lang`` when it was given before ``--help``, else the locale's language
#: (:func:`ramsli.i18n.detect_language`), as every command's messages do.
_HELP_WORDS = frozenset(
    {
        pgettext("help", "Ramsli (Rams, Ramscheln): the 19th-century gambling trick-taking pub game."),
        pgettext("help", "Print the version and exit."),
        pgettext("help", "Options"),
        pgettext("help", "Commands"),
        pgettext("help", "Arguments"),
        pgettext("help", "Play"),
        pgettext("help", "After a game"),
        pgettext("help", "Rules"),
        pgettext("help", "Bots and research"),
        pgettext("help", "Server upkeep"),
        pgettext("help", "Other"),
    }
)


def _reader(ctx: Any) -> gettext.NullTranslations:
    """The catalog of the reader of ``ctx``'s command: its ``--lang`` when that was read already,
    else the locale's language (:func:`ramsli.i18n.detect_language`), as every command's messages."""
    given = getattr(ctx, "params", {}).get("lang") if ctx is not None else None
    code = getattr(given, "value", given)
    return translation(code if code in LANGS else detect_language())


def _help_in_language(command: Any, ctx: click.Context) -> None:
    """Put the words of :data:`_HELP_WORDS` of ``command``'s help (its description, its commands'
    panels, its options' help, Typer's titles) in the reader's language, the English kept aside."""
    import typer.rich_utils

    tr = _reader(ctx)

    def say(english: str) -> str:
        return tr.pgettext("help", english) if english in _HELP_WORDS else english

    module: Any = typer.rich_utils
    for name, english in (("OPTIONS_PANEL_TITLE", "Options"), ("COMMANDS_PANEL_TITLE", "Commands")):
        setattr(module, name, say(english))
    module.ARGUMENTS_PANEL_TITLE = say("Arguments")
    targets = [command, *getattr(command, "commands", {}).values(), *getattr(command, "params", [])]
    for item in targets:
        for attr in ("help", "rich_help_panel"):
            english = item.__dict__.setdefault(f"_ramsli_en_{attr}", getattr(item, attr, None))
            if isinstance(english, str):
                setattr(item, attr, say(english))


def _plain_errors() -> None:
    """Click's usage errors (``--lang xx``, ``--hands abc``, a ``BadParameter``) in the same plain
    look as the commands' own errors (:func:`ramsli.commands.show_errors`): ``Usage:``, ``Try
    'ramsli CMD --help' for help.``, ``Error: …`` on stderr, as Click prints them, instead of
    Typer's Rich box (which wraps a long message and draws a frame a screen reader reads out).
    Typer shows errors plainly when its ``main`` runs without a markup mode; ``--help`` keeps its
    Rich layout (``format_help`` reads the command's own mode). If this Typer has no ``_main``,
    nothing changes and the boxes stay."""
    run: Any = getattr(typer.core, "_main", None)
    if run is None:
        return
    for cls in (typer.core.TyperCommand, typer.core.TyperGroup):
        if getattr(cls.main, "_ramsli_plain", False):
            continue

        def main(
            self: Any,  # Typer's own Click command (Typer carries its own copy of Click)
            args: Any = None,
            prog_name: str | None = None,
            complete_var: str | None = None,
            standalone_mode: bool = True,
            windows_expand_args: bool = True,
            **extra: Any,
        ) -> Any:
            return run(
                self,
                args=args,
                prog_name=prog_name,
                complete_var=complete_var,
                standalone_mode=standalone_mode,
                windows_expand_args=windows_expand_args,
                rich_markup_mode=None,
                **extra,
            )

        main.__dict__["_ramsli_plain"] = True
        setattr(cls, "main", main)  # noqa: B010 - patched in place: Typer's own classes


_plain_errors()


def _errors_in_language() -> None:
    """Click's usage errors (``--players abc``, ``--nope``, a missing option) in the reader's
    language (:func:`_reader`), in the look :func:`_plain_errors` keeps: the usage line, the
    ``--help`` hint, ``Error: …`` (``Aufruf: …``, ``Fehler: Ungültiger Wert für '--players' / '-P':
    'abc' ist keine ganze Zahl``), the words of :mod:`ramsli.frontends.usage`. Typer's copy of
    Click says them in English only; its ``UsageError.show`` is replaced in place (found beside
    ``typer.BadParameter``, wherever this Typer keeps its Click)."""
    usage_error: Any = getattr(sys.modules.get(typer.BadParameter.__module__), "UsageError", None)
    if usage_error is None or getattr(usage_error.show, "_ramsli_words", False):
        return

    def show(self: Any, file: Any = None) -> None:
        tr = _reader(self.ctx)
        if self.ctx is not None:
            typer.echo(usage_head(self.ctx, tr) + "\n", file=file, err=file is None)
        typer.echo(error_line(usage_error_text(self, tr), tr), file=file, err=file is None)

    show.__dict__["_ramsli_words"] = True
    usage_error.show = show


_errors_in_language()


def _version(value: bool) -> None:
    if value:
        typer.echo(f"ramsli {__version__}")
        raise typer.Exit()


def _root(
    version: bool = typer.Option(
        False, "--version", callback=_version, is_eager=True, help="Print the version and exit."
    ),
) -> None:
    """Ramsli (Rams, Ramscheln): the 19th-century gambling trick-taking pub game."""
    # every command speaks the locale's language (LANGUAGE, LC_ALL, LC_MESSAGES, LANG) unless its
    # own --lang says otherwise: the one choice of ramsli.i18n.detect_language, made for all commands
    set_language(detect_language())


#: each command's module, so that ``ramsli COMMAND`` imports that module alone (a quicker start)
COMMANDS = {
    "play": "play",
    "serve": "serve",
    "bot": "bot",
    "review": "review",
    "skill": "skill",
    "replay": "replay_cmd",
    "verify": "verify",
    "rules": "rules_cmd",
    "presets": "rules_cmd",
    "tournament": "tournament",
    "arena": "arena",
    "simulate": "simulate",
    "odds": "odds",
    "tips": "tips",
    "solve": "solve",
    "dataset": "dataset",
    "backup": "backup",
}
#: the command modules, each once, in the order of their commands in ``--help``; each exposes ``register(app)``
COMMAND_MODULES = tuple(dict.fromkeys(COMMANDS.values()))

#: the panels of ``ramsli --help`` and their commands, in the order a user wants them: playing first,
#: then looking back at a game, the rules, the bots and research tools, and the server's upkeep last
HELP_PANELS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Play", ("play", "serve", "bot")),
    ("After a game", ("review", "skill", "replay", "verify")),
    ("Rules", ("rules", "presets")),
    ("Bots and research", ("tournament", "arena", "simulate", "odds", "tips", "solve", "dataset")),
    ("Server upkeep", ("backup",)),
)
#: command name -> its panel in ``--help``
_HELP_PANEL = {name: panel for panel, names in HELP_PANELS for name in names}
#: command name -> its place in ``--help``
_HELP_ORDER = {name: i for i, name in enumerate(name for _p, names in HELP_PANELS for name in names)}


def build_app(modules: tuple[str, ...] = COMMAND_MODULES) -> typer.Typer:
    """The ``ramsli`` Typer app with the commands of ``modules`` (default: every command).

    >>> sorted(c.name or "" for c in build_app(("rules_cmd",)).registered_commands)
    ['presets', 'rules']
    """
    app = typer.Typer(
        name="ramsli",
        help="Ramsli (Rams, Ramscheln): the 19th-century gambling trick-taking pub game.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )
    app.callback()(_root)
    for name in modules:
        importlib.import_module(f"ramsli.commands.{name}").register(app)
    _order_help(app)
    return app


def _order_help(app: typer.Typer) -> None:
    """Put ``app``'s commands in :data:`HELP_PANELS`' order, each in its panel (``--help`` lists them
    so: ``play`` and ``serve`` first, ``backup`` last); a command not listed comes last, in "Other"."""
    last = len(_HELP_ORDER)
    app.registered_commands.sort(key=lambda c: _HELP_ORDER.get(c.name or "", last))
    for command in app.registered_commands:
        if command.rich_help_panel is None or isinstance(command.rich_help_panel, typer.models.DefaultPlaceholder):
            command.rich_help_panel = _HELP_PANEL.get(command.name or "", "Other")


def __getattr__(name: str) -> Any:
    """``ramsli.cli.app``: the app with every command, built on first use."""
    if name == "app":
        app = build_app()
        globals()["app"] = app
        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: optional packages and the extra that brings them
OPTIONAL = {
    "numpy": "lab",
    "numba": "lab",
    "llvmlite": "lab",
    "matplotlib": "lab",
    "pyspiel": "rl",
    "open_spiel": "rl",
    "pettingzoo": "rl",
    "gymnasium": "rl",
    "dask": "dask",
    "distributed": "dask",
}


def main() -> None:
    """Console-script entry point.

    A command that needs an optional package (the strategy lab's NumPy/Numba/matplotlib,
    the research adapters' OpenSpiel) says which extra to install instead of a traceback.
    """
    app = globals().get("app")
    if app is None:  # ``ramsli COMMAND ...`` imports that command's module alone; anything else, all
        args = sys.argv[1:]
        app = build_app((COMMANDS[args[0]],)) if args and args[0] in COMMANDS else __getattr__("app")
    try:
        app()
    except ModuleNotFoundError as e:
        top = (e.name or "").split(".")[0]
        if top not in OPTIONAL:
            raise
        extra = OPTIONAL[top]
        typer.echo(
            f"Error: this command needs the optional package {top!r} of the extra '{extra}': "
            f"in a checkout run  pip install -e '.[{extra}]'  (installed from a package index: "
            f"pip install 'ramsli[{extra}]')",
            err=True,
        )
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
