"""Refusal texts and HTTP statuses are data: each package declares its codes in tables
(:class:`~ramsli.refusal.RefusalText`), gathered explicitly by :func:`~ramsli.refusal.collect`;
nothing is registered when a module is imported.

- every code raised anywhere in the package has a text where its reader looks it up;
- no two tables declare one code with different texts, and every table is gathered;
- the HTTP statuses are the declared ones.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Mapping
from pathlib import Path

import pytest

import ramsli
from ramsli import refusal
from ramsli.bots import refusals as bot_refusals
from ramsli.frontends import i18n
from ramsli.refusal import Refusal, RefusalText, collect
from ramsli.server.protocol import messages

SRC = Path(ramsli.__file__).resolve().parent

#: the calls that raise a refusal with a literal code as their first argument
RAISERS = ("Refusal", "BotSpecError", "PydanticCustomError")


def _raised() -> list[tuple[str, str]]:
    """(code, where) of every refusal made with a literal code in the package's source."""
    sites = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            f = node.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else ""
            first = node.args[0]
            if name in RAISERS and isinstance(first, ast.Constant) and isinstance(first.value, str):
                sites.append((first.value, f"{path.relative_to(SRC)}:{node.lineno}"))
    return sites


def _tables(module: object) -> dict[str, Mapping[str, RefusalText]]:
    """The refusal tables a module declares: its module-level mappings of code -> RefusalText."""
    return {
        name: value
        for name, value in vars(module).items()
        if isinstance(value, Mapping)
        and value
        and all(isinstance(k, str) and isinstance(v, RefusalText) for k, v in value.items())
    }


def test_every_code_raised_anywhere_has_a_text():
    sites = _raised()
    assert len(sites) > 150  # the engine's, the bots' and the server's
    for code, where in sites:
        assert code in messages.REFUSALS, (where, code)  # the server answers every one of them
        if not where.startswith(("server/", "client/")):  # the client makes the server's codes
            assert code in i18n.REFUSALS, (where, code)  # and the terminal shows the engine's and the bots'


def test_the_engines_exceptions_read_their_text_without_a_front_end():
    with pytest.raises(ramsli.RulesError, match=r"unknown preset 'x'; allowed are"):
        ramsli.Rules.preset("x")
    assert str(Refusal("not_held", "R4.10", {"seat": 1, "card": "AS"})) == "p2 does not hold AS (R4.10)"
    assert Refusal("not_held", "R4.10", {"seat": 1, "card": "AS"}).text(reader=1) == "you do not hold AS"


def test_every_table_is_gathered_and_no_code_has_two_texts():
    for module, gathered in ((refusal, refusal.REFUSALS), (bot_refusals, bot_refusals.REFUSALS)):
        for name, table in _tables(module).items():
            assert table.items() <= gathered.items(), (module.__name__, name)
    tables = {
        f"{m.__name__}.{name}": table
        for m in (refusal, bot_refusals, messages)
        for name, table in _tables(m).items()
        if name != "REFUSALS"
    }
    assert {"ramsli.refusal.HAND", "ramsli.server.protocol.messages.CLUBS"} <= set(tables)
    for (a, ta), (b, tb) in itertools.combinations(tables.items(), 2):
        for code in ta.keys() & tb.keys():
            assert ta[code] == tb[code], (code, a, b)
    everything = collect(*tables.values())
    assert everything == dict(messages.REFUSALS)
    assert collect(refusal.REFUSALS, bot_refusals.REFUSALS) == dict(i18n.REFUSALS)


def test_a_code_declared_twice_with_two_texts_is_refused():
    with pytest.raises(ValueError, match="'must_follow' is declared twice"):
        collect(refusal.REFUSALS, {"must_follow": RefusalText("follow!")})


def test_nothing_is_registered_at_import():
    """No module of the package calls a registering function or adds to a shared table at its
    top level: the tables are constants."""
    found = []
    for path in sorted(SRC.rglob("*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            call = node.value if isinstance(node, ast.Expr) else None
            if not isinstance(call, ast.Call):
                continue
            f = call.func
            if (isinstance(f, ast.Name) and f.id == "register") or (
                isinstance(f, ast.Attribute) and f.attr in ("update", "setdefault") and isinstance(f.value, ast.Name)
            ):
                found.append(f"{path.relative_to(SRC)}:{node.lineno}: {ast.unparse(call)[:60]}")
    assert found == []
    assert not hasattr(refusal, "register")


@pytest.mark.parametrize(
    "code,status",
    [
        ("no_table", 404),
        ("no_method", 405),
        ("bad_token", 403),
        ("not_open", 403),
        ("no_free_seat", 409),
        ("not_logged_in", 401),
        ("json_only", 415),
        ("login_flood", 429),
        ("invite_revoked", 410),
        ("players_count", 422),
        ("chat_flood", 429),
        ("bad_message", 422),
        ("refused", 422),
        ("session_over", 409),
        ("table_broken", 503),
    ],
)
def test_the_http_status_of_a_code_is_the_declared_one(code, status):
    assert messages.STATUS[code] == status
    if code in messages.REFUSALS and code != "session_over":
        assert messages.REFUSALS[code].status == status


def test_every_declared_status_is_an_error_and_other_codes_answer_400():
    assert all(400 <= s <= 599 for s in messages.STATUS.values())
    assert "stale_seq" in messages.REFUSALS and "stale_seq" not in messages.STATUS
    status, body = messages.error_body(refusal.Refused(Refusal("stale_seq", None, {"seq": 3})), "en")
    assert status == 400 and body["code"] == "stale_seq"
