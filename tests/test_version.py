"""The version is written in one place, ``ramsli.__version__`` (``src/ramsli/__init__.py``); every other
place reads it (the package metadata, ``ramsli --version``, the catalogs' headers, the Dask workers'
check) or names it on purpose (``CHANGELOG.md``'s latest release)."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib

import pytest
from babel.messages.pofile import read_po
from typer.testing import CliRunner

import ramsli
from ramsli.analysis.cluster import ClusterError, check_workers
from ramsli.cli import app

from helpers import ROOT

VERSION = ramsli.__version__


def test_the_version_is_a_release_number():
    assert re.fullmatch(r"\d+\.\d+\.\d+", VERSION), VERSION


def test_pyproject_reads_the_version_from_the_package():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert "version" not in project["project"] and "version" in project["project"]["dynamic"]
    assert project["tool"]["setuptools"]["dynamic"]["version"] == {"attr": "ramsli.__version__"}


def test_the_installed_metadata_and_the_command_line_say_the_package_version():
    assert importlib.metadata.version("ramsli") == VERSION, "reinstall: pip install -e '.[test]'"
    r = CliRunner().invoke(app, ["--version"])
    assert r.exit_code == 0 and r.output == f"ramsli {VERSION}\n"


def test_the_catalogs_carry_the_package_version():
    locale = ROOT / "src" / "ramsli" / "i18n" / "locale"
    for path in [locale / "ramsli.pot", *sorted(locale.glob("*/LC_MESSAGES/ramsli.po"))]:
        with path.open("rb") as f:
            cat = read_po(f)
        assert (cat.project, cat.version) == ("ramsli", VERSION), path


def test_the_dask_workers_must_have_the_package_version():
    check_workers({"tcp://w:1": {"ramsli": VERSION, "missing": []}})
    with pytest.raises(ClusterError, match=re.escape(f"ramsli[dask]=={VERSION}")):
        check_workers({"tcp://w:1": {"ramsli": VERSION + ".dev0", "missing": []}})


def test_the_changelog_names_the_version_as_its_latest_release():
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    headings = re.findall(r"(?m)^## \[([^\]]+)\]", text)
    assert headings[:2] == ["Unreleased", VERSION], headings


def test_no_other_file_writes_the_version():
    """A release changes one line: the literal version stands nowhere else in the sources, scripts,
    docs, CI and build files (the catalogs' headers are written by ``scripts/i18n.py`` from it)."""
    literal = re.compile(rf"(?<![\w.]){re.escape(VERSION)}(?![\w.])")
    files = [ROOT / "pyproject.toml", ROOT / "README.md", ROOT / ".ci" / "run", ROOT / "CONTRIBUTING.md"]
    for folder, pattern in [("src", "*.py"), ("src", "*.js"), ("scripts", "*.py"), ("bench", "*.py"), ("docs", "*.md")]:
        files += sorted((ROOT / folder).rglob(pattern))
    found = [
        f"{path.relative_to(ROOT)}:{n}"
        for path in files
        if path != ROOT / "src" / "ramsli" / "__init__.py"
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if literal.search(line)
    ]
    assert found == []
