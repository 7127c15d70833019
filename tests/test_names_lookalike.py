"""R2.2 names, one rule everywhere (issue 12, "look-alike names"): Cyrillic look-alikes, zero-width
characters and two encodings of "Åsa" are judged alike by sessions, hand histories, session
histories, the ledger, the server and ``ramsli play --name`` (:func:`ramsli.session.check_names`)."""

from __future__ import annotations

import json
import random
import re
import shutil

import pytest
from typer.testing import CliRunner

from ramsli import Hand, Rules, Session
from ramsli.cli import app
from ramsli.errors import TableError
from ramsli.frontends.game import OPPONENT_NAMES
from ramsli.frontends.storage import SaveFolder
from ramsli.history import HandHistory, HistoryError, read_hand_files, read_session
from ramsli.ledger import PubLedger
from ramsli.refusal import Refused
from ramsli.session import check_name, forbidden_name_char, name_key, piled_mark
from ramsli.toml_text import value

from helpers import HISTORIES

runner = CliRunner()

#: (case, a name, a second name that R2.2 takes for the same one or refuses)
CASES = [
    ("cyrillic", "Anna", "\u0410nna"),  # Cyrillic А
    ("greek", "Bruno", "Brun\u03bf"),  # Greek ο
    ("zero-width", "Anna", "An\u200bna"),  # U+200B ZERO WIDTH SPACE
    ("two encodings", "\u00c5sa", "A\u030asa"),  # Å precomposed (NFC) and A + combining ring (NFD)
    # issue 38.4: each was accepted beside "Alice Look"
    ("zero-width joiner", "Alice Look", "A\u200dlice Look"),
    ("zero-width non-joiner", "Alice Look", "Ali\u200cce Look"),
    ("variation selector", "Alice Look", "Alic\ufe0fe Look"),
    ("hangul filler", "Alice Look", "Alice\u3164Look"),  # U+3164 for the space
    ("capital I for l", "Alice Look", "AIice Look"),
    ("cherokee", "Lea Look", "\u13de\u13ac\u13aa Look"),  # Cherokee Ꮮ Ꭼ Ꭺ
    ("armenian", "Joy Look", "J\u0585y Look"),  # Armenian օ
    ("cyrillic palochka", "Alice Look", "A\u04cfice Look"),  # ӏ, not in the old hand-made table
]
#: the cases whose second name holds an invisible (default-ignorable) character: refused outright
INVISIBLE = {"zero-width", "zero-width joiner", "zero-width non-joiner", "variation selector", "hangul filler"}


pytestmark = pytest.mark.usefixtures("english")


def _history(names) -> str:
    hand = Hand.new(Rules(), [20] * len(names), 0, random.Random(7))
    while not hand.is_over:
        hand.apply(hand.legal_actions()[0])
    text = HandHistory.from_hand(hand, ["P1", "P2", "P3"]).to_toml()
    return re.sub(r"(?m)^seats = .*$", lambda m: f"seats = {value(list(names))}", text, count=1)


@pytest.mark.parametrize("case,a,b", CASES, ids=[c[0] for c in CASES])
def test_R2_2_sessions_and_histories_agree_on_look_alike_names(case, a, b, tmp_path):
    names = [a, b, "Carla"]
    with pytest.raises(TableError) as engine:
        Session(Rules(), names, seed=1)
    assert (engine.value.field, engine.value.index, engine.value.rule) == ("names", 1, "R2.2")
    with pytest.raises(TableError) as ledger:
        PubLedger(Rules(), names)
    assert str(ledger.value) == str(engine.value)
    with pytest.raises(HistoryError) as hand_file:  # a hand history: the engine's message, with the line
        HandHistory.from_toml(_history(names))
    assert str(hand_file.value) == f"line {hand_file.value.line}: seats: {engine.value}"
    d = tmp_path / "s"  # a session history's session.toml
    shutil.copytree(HISTORIES / "session-3p", d)
    meta = d / "session.toml"
    meta.write_text(
        re.sub(r"(?m)^seats = .*$", lambda m: f"seats = {value(names)}", meta.read_text("utf-8"), count=1),
        encoding="utf-8",
    )
    with pytest.raises(HistoryError) as session_file:
        read_session(d)
    assert str(engine.value) in str(session_file.value)
    # the server: refused as a name (zero-width) or taken as the same name (look-alikes)
    from ramsli.refusal import Refused as ServerError
    from ramsli.session import check_name

    if case in INVISIBLE:
        with pytest.raises(ServerError) as refused:
            check_name(b)
        assert refused.value.refusal.code == "name_invisible"  # says which character (issue 38.4)
        assert refused.value.refusal.fields["char"] == f"U+{ord(forbidden_name_char(b)):04X}"
    else:
        assert name_key(check_name(a)) == name_key(check_name(b))
    # and every name on its own is fine in each of them
    ok = [a, "Bo", "Carla"]
    Session(Rules(), ok, seed=1)
    assert HandHistory.from_toml(_history(ok)).names == tuple(ok)


def _play(tmp_path, name, *extra, input="quit\n"):
    return runner.invoke(
        app,
        [
            "play",
            "--plain",
            "--seed",
            "1",
            "--players",
            "3",
            "--bots",
            "random",
            "--lang",
            "en",
            "--name",
            name,
            "--data-dir",
            str(tmp_path),
            *extra,
        ],
        input=input,
    )


@pytest.mark.parametrize(
    "name",
    ["\u0410nna", "\uff21nna", "BRUN\u039f"],
    ids=["cyrillic", "fullwidth", "greek-capital"],
)
def test_play_keeps_a_name_like_a_bots_and_the_bot_gets_another(tmp_path, name):
    r = _play(tmp_path, name, input="in\n1\n2\n3\n4\n5\n" * 40)
    assert r.exit_code == 0, r.output  # was refused, blaming the bot's name
    saved = json.loads((tmp_path / "session.json").read_text("utf-8"))
    names = saved["names"]
    assert names[0] == name and len({name_key(x) for x in names}) == 3
    assert set(names[1:]) <= set(OPPONENT_NAMES)
    # the hand histories it wrote pass the history reader's R2.2 check: the same rule
    files = read_hand_files(tmp_path / "sessions" / saved["session_id"])
    assert files and all(h.names == tuple(names) for _p, h in files)


@pytest.mark.parametrize(
    "name,char",
    [
        ("An\u200bna", "U+200B"),
        ("\u202eTess", "U+202E"),
        ("Te\u00adss", "U+00AD"),
        ("\ufeffTess", "U+FEFF"),
        ("An\u200cna", "U+200C"),  # issue 38.4: the joiners are refused too
        ("Te\ufe0fss", "U+FE0F"),
    ],
)
def test_play_refuses_invisible_characters_in_a_name_as_the_engine_does_and_changes_nothing(tmp_path, name, char):
    first = _play(tmp_path, "Tess")
    assert first.exit_code == 0, first.output
    before = (tmp_path / "session.json").read_bytes()
    r = _play(tmp_path, name)
    assert r.exit_code == 2, r.output
    out = " ".join(r.output.replace("│", " ").split())
    assert "Invalid value for --name" in out and char in out and "(R2.2)" in out
    assert (tmp_path / "session.json").read_bytes() == before  # not set aside: nothing changed
    assert not (tmp_path / "sessions").exists() or not list((tmp_path / "sessions").glob("*/session.json"))


@pytest.mark.parametrize("name", ["\u00c5sa", "A\u030asa"], ids=["NFC", "NFD"])
def test_play_takes_either_encoding_of_a_name(tmp_path, name):
    r = _play(tmp_path, name)
    assert r.exit_code == 0, r.output
    assert SaveFolder(tmp_path).load().names[0] == name


def test_a_save_with_look_alike_names_is_refused_on_resume(tmp_path):
    assert _play(tmp_path, "Tess").exit_code == 0
    path = tmp_path / "session.json"
    data = json.loads(path.read_text("utf-8"))
    data["names"][1] = "T\u0435ss"  # Cyrillic е: the same name as p1's
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    r = runner.invoke(app, ["play", "--plain", "--resume", "--data-dir", str(tmp_path)], input="quit\n")
    assert r.exit_code == 2
    assert "cannot be used" in r.output and "is also the name of p1" in r.output and "(R2.2)" in r.output


# -- accents piled up, and what the invisible-character refusal names (breakit 2, items 10 and 11) --


@pytest.mark.parametrize(
    "name,char",
    [
        ("Bob" + "\u0301" * 18, "U+0301"),  # the attacker's "Zalgo" name
        ("Bo\u0301\u0301b", "U+0301"),  # the same mark twice in a row
        ("B\u0300\u0301\u0302\u0303\u0304ob", "U+0304"),  # a fifth mark on one letter
        ("\u00e9\u0301\u0301", "U+0301"),  # é precomposed, then piled on (judged in NFD)
    ],
)
@pytest.mark.parametrize("lang", ["en", "de", "nl", "it", "fr"])
def test_R2_2_a_name_with_accents_piled_on_a_letter_is_refused_in_the_readers_language(name, char, lang):
    from ramsli.server.protocol.messages import render

    with pytest.raises(Refused) as e:
        check_name(name)
    refusal = e.value.refusal
    assert refusal.code == "name_marks" and refusal.rule == "R2.2" and refusal.fields["char"] == char
    text = render(refusal, lang)
    assert char in text and "4" in text
    if lang != "en":
        assert text != render(refusal, "en")


@pytest.mark.parametrize(
    "name",
    [
        "Zoë",
        "Nguy\u1ec5n Ng\u00f4",
        "A\u030asa",
        "Ph\u1ea1m \u0110\u1ed3ng",
        "\u05e9\u05b8\u05c1\u05dc\u05d5\u05b9\u05dd",
        "B\u0300\u0301\u0302\u0303ob",
    ],
)
def test_R2_2_names_with_a_few_accents_on_a_letter_are_kept(name):
    """Vietnamese (two marks on a letter), Hebrew with its points, four different marks on a letter:
    all taken (UTS #39 refuses only more than four, or the same one twice)."""
    assert piled_mark(name) is None
    assert check_name(name) == name


@pytest.mark.parametrize(
    "name,char,words",
    [
        ("\u202eTess", "U+202E", "direction"),  # RIGHT-TO-LEFT OVERRIDE
        ("\u2066Tess", "U+2066", "direction"),  # LEFT-TO-RIGHT ISOLATE
        ("Te\u00adss", "U+00AD", "soft hyphen"),
        ("A\u200dnn", "U+200D", "joiner"),
        ("Ann\ufe0f", "U+FE0F", "variation selector"),
        ("Ann\u3164", "U+3164", "filler"),
    ],
)
def test_the_invisible_character_refusal_names_the_kind_of_character_found(name, char, words):
    """The ``name_invisible`` text covers the bidi controls and the soft hyphen too, not only
    joiners, variation selectors and fillers."""
    with pytest.raises(Refused) as e:
        check_name(name)
    assert e.value.refusal.code == "name_invisible" and e.value.refusal.fields["char"] == char
    assert char in str(e.value) and words in str(e.value)
