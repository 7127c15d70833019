"""What a new user tripped over (the ``polish`` lane): small fixes of the terminal, the catalogs
and the server's log, each held by a test that fails without its fix."""

from __future__ import annotations

import logging
import typing

from ramsli.server.coach import hints


class _Idle:
    """A warm-up that does nothing when started (the test is about the log line only)."""

    def start(self) -> None:
        pass


def test_the_missing_lab_extra_is_logged_once_per_process(monkeypatch, caplog):
    """``warm_up_lab`` runs at each server start and each table with hints; without the ``lab``
    extra the log says so once in a process, not once per table."""
    monkeypatch.setattr(hints, "lab_available", lambda: False)
    monkeypatch.setattr(hints, "lab_warm_up", lambda: _Idle())
    hints._say_lab_missing.cache_clear()
    with caplog.at_level(logging.WARNING, logger="ramsli.server.lab"):
        for _ in range(3):
            hints.warm_up_lab()
    said = [r for r in caplog.records if "the lab extra" in r.getMessage()]
    assert len(said) == 1, [r.getMessage() for r in said]


def test_review_and_skill_declare_the_history_seat_lang_and_seed_once():
    """``ramsli review`` and ``ramsli skill`` take the history, ``--seat``, ``--lang`` and ``--seed``
    from one declaration each (``ramsli.commands.history_opts``), so they say them the same way."""
    from ramsli.commands import history_opts as opts
    from ramsli.commands.review import review
    from ramsli.commands.skill import skill

    shared = {"path": opts.HistoryPath, "seat": opts.SeatOption, "lang": opts.LangOption, "seed": opts.SeedOption}
    for command in (review, skill):
        hints_of = typing.get_type_hints(command, include_extras=True)
        for name, alias in shared.items():
            assert hints_of[name] == alias, (command.__name__, name)
