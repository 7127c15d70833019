"""A refused bot spec is a refusal rendered by its code (``ramsli.bots.refusals``): at the server's
``POST /api/tables`` and in ``ramsli play --bots``, the German text holds no English phrase; its
fields are names, numbers and the spec as given."""

from __future__ import annotations

import asyncio
import re

import pytest
from typer.testing import CliRunner

from ramsli.bots import make_bot
from ramsli.bots.refusals import REFUSALS, BotSpecError
from ramsli.cli import app
from ramsli.frontends import i18n
from ramsli.i18n import CATALOG_LANGS

from clubworld import World

pytestmark = pytest.mark.usefixtures("english")

#: a spec refused for each reason, and the code it is refused with
BAD_SPECS = [
    ("hardd", "unknown_bot"),
    ("Hard", "unknown_bot_case"),
    ("easy:samples=3", "level_options"),
    ("montecarlo:samples", "bot_option_syntax"),
    ("montecarlo:samples=2,samples=50", "bot_option_twice"),
    ("tips:tracking=perhaps", "bot_option_bool"),
    ("montecarlo:samples=abc", "bot_option_int"),
    ("montecarlo:samples=0", "bot_option_range"),
    ("montecarlo:depth=2", "bot_option_unknown"),
    ("random:x=1", "bot_option_none"),
]
#: the English phrases of the bot-spec texts (the words around the fields)
ENGLISH = [
    "unknown bot",
    "allowed are",
    "or a level",
    "weakest first",
    "names are lower case",
    "takes no options",
    "stands for the bot",
    "name a bot",
    "other budgets",
    "is not key=value",
    "is given twice",
    "give each option once",
    "is not true or false",
    "is not a whole number",
    "is out of range",
    "allowed is",
    "has no option",
    "its options are",
]


def _english_in(text: str) -> list[str]:
    return [p for p in ENGLISH if p in text]


@pytest.mark.parametrize(("spec", "code"), BAD_SPECS)
def test_make_bot_refuses_with_a_code_and_fields_of_names_and_numbers(spec, code):
    """Each bad spec is a ``BotSpecError`` (a ``ValueError``) with its refusal; the English
    message is the refusal's English text, and no field holds an English phrase."""
    with pytest.raises(BotSpecError) as caught:
        make_bot(spec, seed=0)
    refusal = caught.value.refusal
    assert refusal.code == code and str(caught.value) == refusal.text(texts=REFUSALS)
    for value in refusal.fields.values():
        assert not _english_in(str(value)), (code, value)
        assert not re.search(r"\b(or|and|the|is|are)\b", str(value)), (code, value)


def test_every_bot_spec_text_is_translated():
    for lang in CATALOG_LANGS:
        tr = i18n.translation(lang)
        for code, entry in REFUSALS.items():
            text = entry.text
            local = tr.gettext(text)
            assert local != text and set(re.findall(r"{\w+}", local)) == set(re.findall(r"{\w+}", text)), (lang, code)


def test_the_servers_bot_refusals_are_german_through_and_through(sqlite_url):
    """A tester's finding: ``POST /api/tables`` with an unknown bot answered in German around an
    English reason ("Platz p2: unknown bot 'hardd'; allowed are …"). Each bad spec is refused with
    its own code, the seat's field named, and its message has no English phrase."""

    async def go():
        async with World(sqlite_url) as w:
            c = w.client("de")
            for spec, code in BAD_SPECS:
                got, answer = await c.call(
                    "POST", "/api/tables", {"seats": [{"kind": "human"}, {"kind": "bot", "bot": spec}]}
                )
                assert (got, answer["error"], answer["code"]) == (422, "bad_message", code), (spec, answer)
                assert answer["fields"]["field"] == "seats[1].bot"
                assert not _english_in(answer["message"]), (spec, answer["message"])
            assert not w.hub.tables  # nothing was made
            bad = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "hardd"}]}
            got, answer = await c.call("POST", "/api/tables", bad)
            assert answer["message"].startswith("Unbekannter Bot 'hardd'; erlaubt sind random, ")
            assert answer["message"].endswith(
                "oder eine Stufe: beginner, easy, medium, hard, expert (die schwächste zuerst)"
            )
            good = {"seats": [{"kind": "human"}, {"kind": "bot", "bot": "montecarlo:samples=8"}, {"kind": "bot"}]}
            got, answer = await c.call("POST", "/api/tables", good)
            assert got == 201 and [s["bot"] for s in answer["seats"]] == [None, "montecarlo:samples=8", "rules"], answer

    asyncio.run(go())


@pytest.mark.parametrize(("spec", "code"), [s for s in BAD_SPECS if s[1] not in ("unknown_bot", "unknown_bot_case")])
def test_ramsli_play_bots_refusals_in_german(tmp_path, spec, code):
    """``ramsli play --bots`` renders a bad option of a bot by its code, in the player's language."""
    r = CliRunner().invoke(app, ["play", "--plain", "--lang", "de", "--data-dir", str(tmp_path), "--bots", spec])
    assert r.exit_code == 2, r.output
    shown = " ".join(r.output.replace("│", " ").split())
    assert "--bots" in shown and not _english_in(shown), shown
