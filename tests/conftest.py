"""The fixtures shared by the test files; what they share besides fixtures is in ``helpers.py``.

- ``traditional``: the traditional preset's rules;
- ``english``: the terminal's language is English before and after a test (files that switch it use
  ``pytestmark = pytest.mark.usefixtures("english")``);
- ``db_url`` (an SQLite file, then a fresh PostgreSQL database), ``sqlite_url``: empty server databases;
- ``server_factory``: real ``ramsli serve`` processes, stopped afterwards;
- ``chromium``: a headless Chromium through Playwright, one per test module.
"""

from __future__ import annotations

import pytest

from ramsli.rules import Rules

from helpers import LAUNCH_ARGS, ServerProcess, chromium_path, pg_admin, postgres_base


@pytest.fixture
def traditional() -> Rules:
    return Rules.preset("traditional")


@pytest.fixture
def english():
    """The terminal's language is English when the test starts and again after it ends."""
    from ramsli.frontends import i18n

    i18n.set_language("en")
    yield
    i18n.set_language("en")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request, tmp_path):
    """A fresh, empty server database: an SQLite file, or a new database on the PostgreSQL test cluster."""
    if request.param == "sqlite":
        yield f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}"
        return
    import secrets

    base = postgres_base()
    name = "ramsli_test_" + secrets.token_hex(6)
    pg_admin(base, f"CREATE DATABASE {name}")
    yield base.rsplit("/", 1)[0] + "/" + name
    pg_admin(base, f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


@pytest.fixture
def sqlite_url(tmp_path):
    """A fresh SQLite server database file."""
    return f"sqlite+aiosqlite:///{tmp_path / 'server.sqlite'}"


@pytest.fixture
def server_factory(tmp_path):
    """``server_factory(database_url)`` -> a started :class:`helpers.ServerProcess`; all are stopped afterwards."""
    made: list[ServerProcess] = []

    def make(database: str) -> ServerProcess:
        sp = ServerProcess(database, tmp_path)
        made.append(sp)
        return sp.start()

    yield make
    for sp in made:
        sp.stop()


@pytest.fixture(scope="module")
def chromium():
    """A headless Chromium (Debian's, see :func:`helpers.chromium_path`); skips or fails without one."""
    path = chromium_path()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=LAUNCH_ARGS)
        yield browser
        browser.close()
