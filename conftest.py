"""Every doctest (``src/ramsli``, ``docs``) starts with the terminal's language English: a docstring
that sets another language (``set_language("de") and …``) must not change what the next one reads,
whichever worker runs them in whichever order."""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def _doctests_start_in_english(request: pytest.FixtureRequest) -> Iterator[None]:
    if type(request.node).__name__ == "DoctestItem":
        from ramsli.frontends import i18n

        i18n.set_language("en")
    yield
