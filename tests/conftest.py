"""The fixtures shared by the test files; what they share besides fixtures is in ``helpers.py``.

- ``traditional``: the traditional preset's rules;
- ``english``: the terminal's language is English before and after a test (files that switch it use
  ``pytestmark = pytest.mark.usefixtures("english")``);
- ``db_url`` (an SQLite file, then a fresh PostgreSQL database), ``sqlite_url``: empty server databases;
- ``server_factory``: real ``ramsli serve`` processes, stopped afterwards;
- ``chromium``: a headless Chromium through Playwright, one per test module, its waits scaled.

The wait scale (``helpers.SCALE``, ``RAMSLI_TEST_SCALE``) is worked out once, when the run starts, and
exported, so that xdist's workers and the processes the tests start use the same value; the run's
header names it. Hypothesis runs without its deadline and its too-slow health check (profile ``ramsli``).
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, settings

from ramsli.rules import Rules

from helpers import LAUNCH_ARGS, SCALE, SCALE_ENV, ServerProcess, chromium_path, pg_admin, postgres_base, scaled


def pytest_configure(config):
    """Export the wait scale worked out by the first process (the workers start after this)."""
    if not os.environ.get(SCALE_ENV):
        os.environ[SCALE_ENV] = f"{SCALE:g}"


# Hypothesis's own clocks are speed requirements (a 200 ms deadline per example, a health check on slow
# data generation): off for every property test, as most already said one by one; a test's own
# @settings still applies on top.
settings.register_profile("ramsli", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("ramsli")


def pytest_report_header(config):
    return f"ramsli: every wait in the tests times out after scaled(seconds), {SCALE_ENV}={SCALE:g}"


def _starts_processes(item: pytest.Item) -> bool:
    """Whether ``item`` drives a real browser or starts a real ``ramsli serve`` (the long tests)."""
    names = getattr(item, "fixturenames", ())
    return "chromium" in names or "server_factory" in names or hasattr(getattr(item, "module", None), "ServerProcess")


def pytest_collection_modifyitems(session, config, items):
    """The files that drive a browser or start servers come first, each file's tests in their order;
    the rest keeps its order. With ``-n 2`` (``addopts``: ``--dist loadfile --no-loadscope-reorder``)
    a worker takes the next file, in this order, when it has nearly finished its own: the long files
    are done early and the run ends on short ones, so both workers finish together (xdist's default
    ``load`` sends long runs of tests ahead: in a busy run one worker finished the last browser files
    alone while the other idled for 311 s)."""
    heavy = {item.path for item in items if _starts_processes(item)}
    items.sort(key=lambda item: item.path not in heavy)


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


class ScaledBrowser:
    """A Playwright browser whose every context (also the one behind ``new_page``) waits
    ``scaled(30)`` seconds for an action, a navigation or a ``wait_for_*`` (Playwright's default: 30 s
    on any machine); everything else is the browser's."""

    def __init__(self, browser) -> None:
        self.browser = browser

    def __getattr__(self, name: str):
        return getattr(self.browser, name)

    @staticmethod
    def _scaled(context):
        context.set_default_timeout(scaled(30_000))
        context.set_default_navigation_timeout(scaled(30_000))
        return context

    def new_context(self, **options):
        return self._scaled(self.browser.new_context(**options))

    def new_page(self, **options):
        page = self.browser.new_page(**options)
        self._scaled(page.context)
        return page


@pytest.fixture(scope="module")
def chromium():
    """A headless Chromium (Debian's, see :func:`helpers.chromium_path`); skips or fails without one.
    Its waits are scaled (:class:`ScaledBrowser`), and so are ``expect``'s (Playwright's default: 5 s)."""
    path = chromium_path()
    from playwright.sync_api import expect, sync_playwright

    expect.set_options(timeout=scaled(5_000))
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=path, headless=True, args=LAUNCH_ARGS, timeout=scaled(30_000))
        yield ScaledBrowser(browser)
        browser.close()
