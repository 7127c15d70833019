"""The languages are written in one place (:data:`ramsli.i18n.LANGUAGES`): adding one is its entry
plus its catalog (CONTRIBUTING.md, *Adding a language*).

- every entry but English has a catalog in ``ramsli/i18n/locale`` and every catalog an entry;
- no other file of the package, Python or JavaScript, enumerates the language codes or names;
- the front ends, the commands, the saves, the server and the page read the one list.
"""

from __future__ import annotations

import dataclasses
import json
import re
import typing
from pathlib import Path

import pytest
from babel.core import Locale
from typer.testing import CliRunner

import ramsli
from ramsli import i18n
from ramsli.cli import app
from ramsli.commands import play, review, verify
from ramsli.frontends import storage

from helpers import ROOT

SRC = Path(ramsli.__file__).resolve().parent
I18N = SRC / "i18n"


def test_every_language_but_english_has_a_catalog_and_every_catalog_a_language():
    folders = {p.name for p in i18n.LOCALE_DIR.iterdir() if p.is_dir()}
    assert folders == set(i18n.CATALOG_LANGS)
    assert i18n.SOURCE == i18n.LANGS[0] == "en" and "en" not in i18n.CATALOG_LANGS
    for code in i18n.CATALOG_LANGS:
        assert i18n.catalog_path(code).is_file() and i18n.catalog_path(code, ".mo").is_file(), code
        assert i18n.catalog_language(i18n.translation(code)) == code  # the catalog's header names it


def test_the_catalogs_are_this_packages_folder_and_the_scripts():
    from test_i18n import script

    assert script.LOCALE.resolve() == i18n.LOCALE_DIR.resolve() == (SRC / "i18n" / "locale")
    assert tuple(script.LANGS) == i18n.CATALOG_LANGS


def test_each_language_is_a_babel_locale_named_by_its_own_name():
    assert len(set(i18n.LANGS)) == len(i18n.LANGS)
    for lang in i18n.LANGUAGES:
        locale = Locale.parse(lang.number_locale)
        assert locale.language == lang.code
        assert locale.get_display_name(lang.code).lower() == lang.name.lower()  # "Deutsch" in German


def _quoted_codes(line: str) -> set[str]:
    return {c for c in i18n.CATALOG_LANGS if re.search(rf"""["']{c}["']""", line)}


def _enumerations() -> list[str]:
    """Every line of the package and ``scripts/`` (Python, JavaScript, HTML) outside ``ramsli/i18n`` that lists two
    or more language codes as strings, names a language by its own name, or declares a member per
    language (``nl = "nl"``)."""
    names = [lang.name for lang in i18n.LANGUAGES if lang.code != i18n.SOURCE]
    found = []
    for path in sorted(SRC.rglob("*")) + sorted((ROOT / "scripts").rglob("*")):
        if path.suffix not in (".py", ".js", ".html") or I18N in path.parents:
            continue
        doctest = False  # a doctest's line or the output it expects: calls with sample languages
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            code_part = line.split("#")[0] if path.suffix == ".py" else line
            doctest = line.lstrip().startswith(">>>") or (doctest and bool(line.strip()))
            if (
                (len(_quoted_codes(code_part)) >= 2 and not doctest)
                or any(name in line for name in names)
                or any(re.match(rf"""\s*{c}\s*=\s*["']{c}["']""", line) for c in i18n.CATALOG_LANGS)
            ):
                found.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    return found


def test_the_languages_are_enumerated_only_in_ramsli_i18n():
    assert _enumerations() == []


def test_the_search_finds_an_enumeration():
    """The search of the test above finds the shapes the list was once copied in."""
    assert len(_quoted_codes('LANGS = ["en", "de", "nl", "it"]')) == 3
    assert len(_quoted_codes("ok = ('de', 'it')")) == 2
    assert not _quoted_codes('"delta", "nlx"')


def test_every_command_takes_the_one_list():
    for command in (play.play, review.review, verify.verify):
        assert typing.get_args(typing.get_type_hints(command)["lang"]) == (i18n.Lang, type(None)), command.__name__
    assert [m.value for m in i18n.Lang] == list(i18n.LANGS)
    result = CliRunner().invoke(app, ["play", "--lang", "sv"])
    assert result.exit_code == 2 and all(repr(c) in result.output for c in i18n.LANGS), result.output


def test_a_save_keeps_any_language_of_the_list(tmp_path):
    from ramsli.frontends.storage import SavedSession

    assert "lang" in {f.name for f in dataclasses.fields(SavedSession)}
    assert storage.LANGS is i18n.LANGS


@pytest.mark.parametrize("code", i18n.LANGS)
def test_a_page_offers_every_language_and_the_service_worker_caches_each(code, sqlite_url):
    """The page's data names every language (code and own name, for the picker) and the service
    worker is served with every code (an offline page each): both from the one list."""
    from fastapi.testclient import TestClient

    from ramsli.server.app import create_app

    with TestClient(create_app(sqlite_url)) as client:
        page = client.get(f"/how-to-play?lang={code}")
        data = re.search(r'id="ramsli-page">(.*?)</script>', page.text).group(1)
        assert json.loads(data)["lang"] == code
        for lang in i18n.LANGUAGES:
            assert json.dumps(lang.code) in data and json.dumps(lang.name, ensure_ascii=False) in data, lang
        worker = client.get("/sw.js").text
        codes = [json.dumps(c) for c in i18n.LANGS]
        assert ", ".join(codes) in worker, worker[:600]  # the list, in its order
        assert worker.index('"use strict";') < worker.index(codes[0])  # written after the directive
