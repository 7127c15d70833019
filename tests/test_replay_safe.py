"""``ramsli replay`` prints nothing read from a file that could steer the terminal (R2.2's forbidden characters)."""

import pytest

from ramsli.commands.replay_cmd import _safe


@pytest.mark.parametrize(
    "raw,shown",
    [
        ("Bo\x1b[31mb", "Bo\\x1b[31mb"),  # an escape sequence (Cc)
        ("Ann\nerror: fake", "Ann\\nerror: fake"),  # a line break: no forged second line
        ("Cy\u202egnal", "Cy\\u202egnal"),  # a bidirectional override (Cf)
        ("Di\u200bx", "Di\\u200bx"),  # a zero-width space (Cf): two names that look alike
        ("Ed\u2028x", "Ed\\u2028x"),  # a line separator (Zl)
    ],
)
def test_unsafe_characters_are_escaped(raw, shown):
    assert _safe(raw) == shown


def test_text_and_joiners_are_kept():
    assert _safe("Fay 👩\u200d👩 Ærø/hand-0001.toml") == "Fay 👩\u200d👩 Ærø/hand-0001.toml"
