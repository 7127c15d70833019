"""The console-script entry point turns a missing optional package into an install hint."""

import pytest
import typer

from ramsli import cli


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

    r = subprocess.run([sys.executable, "-m", "ramsli", "--help"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "Usage:" in r.stdout and "play" in r.stdout and "serve" in r.stdout
