"""Policy files from outside (issue 14): what ``load_policy`` refuses, and that a server never opens one
a client names. Found by the adversarial tester: a FIFO hung ``ramsli serve``, ``/dev/zero`` ate memory,
deep nesting gave a RecursionError, a policy for another number of players crashed ``ramsli play``."""

from __future__ import annotations

import os
import random

import pytest

from ramsli import Hand, Rules
from ramsli.bots import make_bot
from ramsli.bots.base import play_hand
from ramsli.lab import equilibrium as E
from ramsli.server.tables.hub import Hub, SpecError


def test_not_a_regular_file_is_refused_without_reading(tmp_path):
    fifo = tmp_path / "p.json"
    os.mkfifo(fifo)  # opening it for reading would block until a writer comes
    for path, words in (
        (fifo, "not a regular file"),
        ("/dev/zero", "not a regular file"),
        (tmp_path, "not a regular file"),
        (tmp_path / "missing.json", "cannot read"),
    ):
        with pytest.raises(E.PolicyError, match=words):
            E.load_policy(path)


def test_deep_nesting_and_oversize_are_policy_errors(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(E.PolicyError, match="nested too deeply|not a policy file|JSON"):
        E.load_policy(deep)
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(E.MAX_POLICY_BYTES + 1)
    with pytest.raises(E.PolicyError, match=f"at most {E.MAX_POLICY_BYTES} bytes"):
        E.load_policy(big)
    with pytest.raises(ValueError):  # make_bot's callers (play, tournament) see a ValueError
        make_bot(f"equilibrium:policy={deep},play=random")


def test_a_client_cannot_name_a_policy_file_on_the_server():
    hub = Hub(None)
    for path in ("/etc/passwd", "/no/such/p.json", "/dev/zero"):  # refused before it is opened: no probing
        with pytest.raises(SpecError, match="names a file on the server"):
            hub.parse_spec({"seats": [{"kind": "human"}, {"kind": "bot", "bot": f"equilibrium:policy={path}"}]})
    _r, _p, seats, _o, _s = hub.parse_spec({"seats": [{"kind": "human"}, {"kind": "bot", "bot": "equilibrium"}]})
    assert seats[1]["bot"] == "equilibrium"  # the shipped policies are fine


def test_a_policy_for_another_table_size_falls_back_to_the_tips_declaration(tmp_path):
    """R3.5 bust=leave shrinks a table: the bot declares by the tips then (counted), it does not crash."""
    pol = E.default_policy(Rules(), 3)
    assert pol is not None
    path = tmp_path / "p3.json"
    E.save_policy(pol, path)
    bots = {s: make_bot(f"equilibrium:policy={path},play=random", seed=s) for s in range(5)}
    hand = Hand.new(Rules(), [20] * 5, dealer=0, rng=random.Random(4))
    play_hand(hand, bots)
    assert hand.is_over and hand.total() == 100  # chips conserved (R3.4)
    assert sum(b.fallbacks for b in bots.values()) >= 1
