"""The console-script entry point turns a missing optional package into an install hint."""

import re

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

from ramsli import cli

from helpers import scaled


def _command_needing(pkg):
    def cmd() -> None:
        raise ModuleNotFoundError(f"No module named {pkg!r}", name=pkg)

    return cmd


@pytest.mark.parametrize("pkg,extra", [("numba", "lab"), ("matplotlib.pyplot", "lab"), ("pyspiel", "rl")])
def test_missing_optional_package_names_the_extra(monkeypatch, capsys, pkg, extra):
    app = typer.Typer()
    app.command()(_command_needing(pkg))
    monkeypatch.setattr(cli, "app", app)
    monkeypatch.setattr("sys.argv", ["ramsli"])
    with pytest.raises(SystemExit) as e:
        cli.main()
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert f"ramsli[{extra}]" in err and f"-e '.[{extra}]'" in err


def test_other_missing_modules_are_not_hidden(monkeypatch):
    app = typer.Typer()
    app.command()(_command_needing("ramsli_does_not_exist"))
    monkeypatch.setattr(cli, "app", app)
    monkeypatch.setattr("sys.argv", ["ramsli"])
    with pytest.raises(ModuleNotFoundError):
        cli.main()


def test_python_dash_m_ramsli_is_the_command_line():
    """``python -m ramsli`` runs the same command line as ``ramsli``."""
    import subprocess
    import sys

    r = subprocess.run([sys.executable, "-m", "ramsli", "--help"], capture_output=True, text=True, timeout=scaled(120))
    assert r.returncode == 0, r.stderr
    assert "Usage:" in r.stdout and "play" in r.stdout and "serve" in r.stdout


def test_every_command_is_found_by_its_module_alone():
    """``ramsli COMMAND`` builds an app from that command's module only (a quicker start): the map
    names every command of the full app, and each module registers the commands mapped to it."""
    full = {c.name for c in cli.build_app().registered_commands}
    assert full == set(cli.COMMANDS)
    for name, module in cli.COMMANDS.items():
        assert name in {c.name for c in cli.build_app((module,)).registered_commands}


def test_a_command_imports_its_own_module_and_not_the_others():
    import subprocess
    import sys

    code = (
        "import sys; sys.argv = ['ramsli', 'presets']; from ramsli import cli\n"
        "try:\n    cli.main()\nexcept SystemExit:\n    pass\n"
        "print(sorted(m for m in sys.modules if m.startswith('ramsli.commands.')))"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=scaled(120))
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip().splitlines()[-1] == "['ramsli.commands.rules_cmd']"


def _squeezed(text: str) -> str:
    """``text`` without white space and the help panels' box characters."""
    return "".join(ch for ch in text if not ch.isspace() and ch not in "│╭╮╰╯─")


@pytest.mark.parametrize("columns", [40, 80, 200])
@pytest.mark.parametrize("command", [[], ["play"], ["serve"], ["bot"]])
def test_help_texts_are_shown_in_full_at_any_width(command, columns):
    """A tester's finding: at 80 columns ``ramsli play --help`` cut ``'easy,medium,hard,expert'`` to
    ``'easy,medium,hard,exper…'``. Every option's help and every command's help is in the output
    whole (wrapped or folded, never cut) at the usual and at a wide terminal; at a narrow one, where
    the option names fold too and their lines interleave with the help's, nothing is cut with "…"."""
    r = CliRunner().invoke(cli.app, [*command, "--help"], env={"COLUMNS": str(columns), "TERMINAL_WIDTH": None})
    assert r.exit_code == 0, r.output
    shown = _squeezed(r.output)
    group = get_command(cli.app)
    cmd = group.commands[command[0]] if command else group  # type: ignore[attr-defined]
    texts = [p.help for p in cmd.params if getattr(p, "help", None)]
    if not command:
        texts += [c.help.split("\n\n")[0] for c in group.commands.values() if c.help]  # type: ignore[attr-defined]
    assert texts
    for text in texts if columns >= 80 else ():
        assert _squeezed(text) in shown, text
    assert "…" not in r.output


@pytest.mark.parametrize(
    ("args", "command", "says"),
    [
        (["play", "--plain", "--lang", "xx"], "play", "'xx' is not allowed; allowed are 'en', 'de'"),  # Click's check
        (["simulate", "--hands", "abc"], "simulate", "'--hands'"),
        (["play", "--plain", "--bots", "hardd"], "play", "Unknown bot 'hardd'"),  # a BadParameter of ours
        (["odds", "AS 9S KH 8D 7C", "--turn-up", "10S", "--seed", "-1"], "odds", "--seed -1"),  # fail()
        (["serve", "--port", "99999"], "serve", "--port 99999 is not a TCP port"),
        (["rules", "--rule", "bete=x"], "rules", "Option 'bete': 'x' is not allowed"),
    ],
)
def test_every_usage_error_has_the_same_plain_look(args, command, says):
    """Click's usage errors and the commands' own (``ramsli.commands.fail``) look the same: the
    usage line, ``Try 'ramsli CMD --help' for help.``, then ``Error: …`` on one line each, no
    Rich box around them (which cut long messages into framed lines), exit status 2."""
    r = CliRunner().invoke(cli.app, args, env={"COLUMNS": "80"})
    assert r.exit_code == 2, r.output
    lines = [x for x in r.output.splitlines() if x.strip()]
    assert lines[0].startswith("Usage: ") and f" {command} " in lines[0], r.output
    assert re.fullmatch(rf"Try '\S+ {command} --help' for help\.", lines[1]), r.output
    errors = lines[2:]
    assert errors and all(x.startswith("Error: ") for x in errors), r.output
    assert any(says in x for x in errors), r.output
    assert not set("│╭╮╰╯") & set(r.output)


def test_help_lists_play_and_serve_first_in_panels():
    """``ramsli --help`` lists the commands in the order a user wants them (issue 36): ``play`` and
    ``serve`` first, in a "Play" panel, ``review``/``replay``/``verify`` after them, the rules, the
    research tools and ``backup`` last; every command of the app is in a panel of HELP_PANELS."""
    r = CliRunner().invoke(cli.build_app(), ["--help"], env={"COLUMNS": "100"})
    assert r.exit_code == 0, r.output
    out = r.output
    where = {name: re.search(rf"│ {name}\s", out) for name in cli.COMMANDS}
    assert all(where.values()), [n for n, m in where.items() if m is None]
    place = {name: m.start() for name, m in where.items() if m is not None}
    assert place["play"] < place["serve"] < place["review"] < place["replay"] < place["rules"] < place["presets"]
    assert max(place, key=lambda n: place[n]) == "backup"
    assert out.index("─ Play ") < place["play"] and out.index("─ After a game ") < place["review"]
    listed = {name for _panel, names in cli.HELP_PANELS for name in names}
    assert listed == set(cli.COMMANDS)


@pytest.mark.parametrize(
    "args",
    [
        ["tournament", "--bots", "foo,random"],
        ["tournament", "--preset", "foo"],
        ["tournament", "--rule", "bete=abc"],
        ["arena", "--bots", "foo,random"],
        ["simulate", "--bots", "foo"],
        ["simulate", "--hands", "3", "--sessions", "3"],
        ["solve", "--iterations", "3", "--time", "3"],
        ["odds", "AS", "--turn-up", "2H"],
        ["dataset", "--bots", "foo", "--out", "never-written"],
        ["bot", "nolink"],
        ["skill", "--baseline", "foo", "."],
    ],
    ids=lambda a: "-".join(a[:2]),
)
def test_the_research_commands_errors_read_as_sentences(args):
    """A fresh user's finding: the research commands printed the English text of an exception as it
    was, "Error: unknown bot 'foo'; …", "Error: give one of …", where every other error of the CLI
    starts with a capital letter. Each error line reads as a sentence; a line that opens with an
    option or a path keeps it as given (:func:`ramsli.commands.error_sentence`)."""
    r = CliRunner().invoke(cli.app, args, env={"COLUMNS": "400"})
    assert r.exit_code == 2, r.output
    lines = [line.removeprefix("Error: ") for line in r.output.splitlines() if line.startswith(("Error: ", "--"))]
    assert lines, r.output
    for line in lines:
        after = line.split(": ", 1)[1] if line.startswith("--baseline: ") else line
        assert not after[:1].islower(), (args, line)


#: the unknown bot's refusal (``unknown_bot``) as each language words it
UNKNOWN_BOT = {
    "en": "Error: Unknown bot 'foo'; allowed are",
    "de": "Fehler: Unbekannter Bot 'foo'; erlaubt sind",
    "fr": "Erreur\u00a0: Bot inconnu 'foo'\u00a0; autorisés\u00a0:",
}


@pytest.mark.parametrize("lang", sorted(UNKNOWN_BOT))
@pytest.mark.parametrize("command", ["tournament", "arena", "simulate", "dataset"])
def test_the_research_commands_refuse_a_bot_in_the_readers_language(command, lang):
    """The research commands printed a refused bot spec in English under any locale ("Erreur : Unknown
    bot 'foo'…"); the refusal is rendered by its code in the reader's language, as ``ramsli play``
    does (R7's standards: a message in the player's language saying what is allowed)."""
    locale = {"en": "en_US", "de": "de_DE", "fr": "fr_FR"}[lang] + ".UTF-8"
    env = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": locale, "COLUMNS": "400"}
    args = [command, "--bots", "foo,random"] + (["--out", "never-written"] if command == "dataset" else [])
    r = CliRunner().invoke(cli.app, args, env=env)
    assert r.exit_code == 2, r.output
    assert UNKNOWN_BOT[lang] in r.output, r.output


#: (usage line, error line) of ``ramsli play --players abc`` in each language: Click's usage error
#: in the reader's words, the value and the option as given
CLICK_ERRORS = {
    "en": ("Usage: ramsli play", "Error: Invalid value for '--players' / '-P': 'abc' is not a whole number"),
    "de": ("Aufruf: ramsli play", "Fehler: Ungültiger Wert für '--players' / '-P': 'abc' ist keine ganze Zahl"),
    "nl": ("Gebruik: ramsli play", "Fout: Ongeldige waarde voor '--players' / '-P': 'abc' is geen geheel getal"),
    "it": ("Uso: ramsli play", "Errore: Valore non valido per '--players' / '-P': 'abc' non è un numero intero"),
    "fr": (
        "Usage\u00a0: ramsli play",
        "Erreur\u00a0: Valeur non valide pour '--players' / '-P'\u00a0: 'abc' n'est pas un nombre entier",
    ),
}


@pytest.mark.usefixtures("english")
@pytest.mark.parametrize("lang", sorted(CLICK_ERRORS))
def test_click_usage_errors_speak_the_readers_language(lang):
    """A fresh user's finding: with ``LANG=de_DE.UTF-8`` (or ``--lang de``) a bad option value
    printed Click's English, "Error: Invalid value for '--players' / '-P': Input should be a valid
    integer, …". Click's usage errors, their usage line and the commands' own errors read in the
    locale's language, or in the language ``--lang`` names when it came first."""
    from ramsli.i18n import LANGS

    usage, error = CLICK_ERRORS[lang]
    locale = {"en": "en_US", "de": "de_DE", "nl": "nl_NL", "it": "it_IT", "fr": "fr_FR"}[lang] + ".UTF-8"
    env = {"LANGUAGE": None, "LC_ALL": None, "LC_MESSAGES": None, "LANG": locale, "COLUMNS": "200"}
    runs = {
        "locale": CliRunner().invoke(cli.app, ["play", "--plain", "--players", "abc"], env=env),
        "--lang": CliRunner().invoke(
            cli.app, ["play", "--plain", "--lang", lang, "--players", "abc"], env=env | {"LANG": "C.UTF-8"}
        ),
    }
    for how, r in runs.items():
        assert r.exit_code == 2, (how, r.output)
        lines = [x for x in r.output.splitlines() if x.strip()]
        assert lines[0].startswith(usage + " "), (how, r.output)
        assert lines[2] == error, (how, r.output)
    # the commands' own errors (ramsli.commands.fail) say "Error:" in the same words
    r = CliRunner().invoke(cli.app, ["tournament", "--bots", "foo"], env=env)
    first, error_word = CLICK_ERRORS[lang][0].split(" ")[0], error.split(" ")[0]
    assert r.output.startswith(first + " ") and f"\n{error_word} " in r.output, r.output
    assert set(CLICK_ERRORS) == set(LANGS)  # every language of the catalogs
