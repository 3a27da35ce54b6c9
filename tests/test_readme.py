"""The README's console examples are what the program prints (lines shown as `...` are skipped)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from clihelp import run_cli

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def examples() -> list[tuple[str, list[str]]]:
    """(command, expected lines) for every `$ pinochle …` in a console block, with its output."""
    found = []
    for indent, block in re.findall(r"^( *)```console\n(.*?)^ *```", README, re.S | re.M):
        lines = [line[len(indent):] for line in block.replace("\\\n", " ").splitlines()]
        for i, line in enumerate(lines):
            if not line.startswith("$ pinochle "):
                continue
            output = []
            for nxt in lines[i + 1:]:
                if nxt.startswith("$ "):
                    break
                output.append(nxt)
            found.append((line[2:].split("#")[0].strip(), output))
    return found


EXAMPLES = [e for e in examples() if e[1]]


def test_the_readme_has_examples() -> None:
    assert len(EXAMPLES) >= 6


@pytest.mark.parametrize(("command", "expected"), EXAMPLES, ids=[c[:60] for c, _ in EXAMPLES])
def test_readme_example(command: str, expected: list[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    args = shlex.split(command)[1:]
    if args[0] == "record":  # the walkthrough starts a record in a folder of its own
        monkeypatch.chdir(tmp_path)
        if args[1] == "add":
            assert run_cli("record", "new", "night.yaml", "-r", "single-deck", "--team", "North-South=Ann,Cy",
                           "--team", "East-West=Bob,Di")[0] == 0
    else:
        monkeypatch.chdir(ROOT)
    code, out, _ = run_cli(*args)
    assert code in (0, 1)
    got = out.splitlines()
    if "..." in [e.strip() for e in expected]:  # a shortened output: the shown lines, in order
        rest = iter(got)
        missing = [line for line in expected if line.strip() != "..." and line not in rest]
        assert not missing, (missing, got)
    else:
        assert got == expected


def card_night() -> list[tuple[str, list[str]]]:
    """The card-night walkthrough: its commands in order, each with the lines it prints (prompts and answers too)."""
    found = []
    for block in re.findall(r"^```console card-night\n(.*?)^```", README, re.S | re.M):
        for chunk in ("\n" + block).split("\n$ ")[1:]:
            command, *output = chunk.rstrip("\n").split("\n")
            found.append((command, output))
    return found


def test_the_card_night_walkthrough(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The whole evening, one command after another in one folder; a prompted add gets the answers shown."""
    from click.testing import CliRunner  # not run_cli: the prompts and their refusals interleave, as on a terminal

    from pinochle_cli.cli import cli

    monkeypatch.chdir(tmp_path)
    (tmp_path / "examples").symlink_to(ROOT / "examples")
    steps = card_night()
    assert [c.split()[:3] for c, _ in steps][:3] == [["pinochle", "record", "new"], ["pinochle", "record", "add"],
                                                     ["pinochle", "record", "add"]]
    for command, expected in steps:
        args = shlex.split(command.split("#")[0])[1:]
        asked = any(line.startswith("Add it? [Y/n]:") for line in expected)
        deal = next((i for i, line in enumerate(expected) if line.startswith("Deal ")), 0)
        prompts = [line for line in expected[:deal] if asked and not line.startswith("  ") and "(the rest of" not in line]
        prompts += [line for line in expected if line.startswith("Add it? [Y/n]:")]
        answers = "".join(line.split(": ", 1)[1] + "\n" if ": " in line else "\n" for line in prompts)
        if prompts:
            args.append("--prompt")
        result = CliRunner().invoke(cli, args, input=answers or None,
                                    env={"PINOCHLE_RULESET": "", "COLUMNS": "80"})
        assert result.exit_code == 0, (command, result.output)
        got = [line.rstrip() for line in result.output.splitlines()]
        if "..." in expected:
            assert got[:expected.index("...")] == expected[:expected.index("...")], command
        else:
            assert got == expected, command
