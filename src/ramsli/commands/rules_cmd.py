"""``ramsli presets`` and ``ramsli rules``: what the presets set (R6) and what every
rule option means (R8).

Exit status 2 for an unknown preset or option, or a bad value; the message lists
what is allowed.
"""

from __future__ import annotations

from typing import Annotated, Any

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

from ramsli.commands import fail
from ramsli.frontends.text import refusal_text
from ramsli.rules import OPTIONS, PRESET_NOTES, PRESETS, Rules, RulesError

__all__ = ["register", "presets", "rules"]


def _show(v: Any) -> str:
    """An option value as written in TOML and on ``--rule``."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(str(x) for x in v) + "]" if v else "[] (none)"
    if v is None:
        return "(unset)"
    return str(v)


def presets() -> None:
    """List the presets of R6 and the options each one sets (on top of `traditional`)."""
    table = Table(title="Ramsli presets (R6)", show_lines=False)
    table.add_column("preset", style="bold")
    table.add_column("sets")
    table.add_column("what it is")
    for name, opts in PRESETS.items():
        sets = ", ".join(f"{k}={_show(v)}" for k, v in opts.items()) or "(the defaults of R8)"
        table.add_row(name, escape(sets), escape(PRESET_NOTES.get(name, "")))
    Console(highlight=False).print(table)
    typer.echo("Adjust any preset option by option: ramsli rules --preset NAME --rule key=value")


def rules(
    preset: Annotated[
        str, typer.Option("--preset", "-p", help=f"Preset of R6 to start from ({', '.join(PRESETS)}).")
    ] = "traditional",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            "-r",
            metavar="KEY=VALUE",
            help="Change one option (e.g. bete=10, overtrump=when-trumping, end=win-at:30,hands:50); repeatable.",
        ),
    ] = None,
    toml: Annotated[bool, typer.Option("--toml", help="Print the options as TOML (for a rules file).")] = False,
) -> None:
    """Show every rule option (R8): its value, allowed values, default, rule id and meaning."""
    try:
        r = Rules.preset(preset).with_assignments(list(rule or []))
    except RulesError as e:
        fail(refusal_text(e))
    if toml:
        typer.echo(r.to_toml(), nl=False)
        return
    values = r.to_dict()
    changed = r.diff()
    table = Table(
        title=escape(f"Ramsli rule options (R8): preset {preset}" + (f" with {', '.join(rule or [])}" if rule else ""))
    )
    table.add_column("option", style="bold", no_wrap=True)
    table.add_column("value", max_width=16, overflow="fold")
    table.add_column("rule", no_wrap=True)
    table.add_column("meaning; default; allowed values", ratio=1)
    for name, info in OPTIONS.items():
        value = escape(_show(values.get(name)))
        if name in changed:
            value = f"[yellow]{value}[/yellow] *"
        table.add_row(
            name,
            value,
            info.rule,
            escape(info.help) + f"\n[dim]default: {escape(info.default)}; allowed: {escape(info.values)}[/dim]",
        )
    console = Console(highlight=False)
    console.print(table)
    console.print("* differs from the traditional preset", markup=False)


def register(app: typer.Typer) -> None:
    """Add the ``presets`` and ``rules`` commands to the ``ramsli`` app."""
    app.command("presets")(presets)
    app.command("rules")(rules)
