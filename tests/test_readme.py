"""The README's two commands stay true: CI runs exactly the second one."""

from helpers import ROOT


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("```sh", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.strip().splitlines()]


def test_readme_starts_with_two_commands():
    cmds = _commands()
    assert len(cmds) == 2
    assert cmds[0].endswith("ramsli serve --open")  # the browser table (issue 11)
    assert "pytest" in cmds[1]


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _commands()[1] in ci.splitlines()
