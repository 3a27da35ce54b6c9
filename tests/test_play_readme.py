"""The README's sessions of ``pinochle play`` are what the program prints at a terminal.

Each ``text play-session`` block of the README is a terminal recording: ``$ pinochle play …``, then what the
program prints with each line typed after its prompt (``> LINE``); ``...`` stands for lines left out. The test
plays the whole session at a terminal (``input`` answering the prompts: the practice deal's lines from its seed,
with the README's extra ones where the README types them; the followed deal's lines from the example record) and
checks that the README's lines come in that order. The advice's time (``0.2 s``) is not compared, and the session
runs without the review (its advice column depends on the time an answer has; ``test_play_review`` checks it).
"""

from __future__ import annotations

import builtins
import re
import shlex
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from clihelp import run_cli
from playhelp import EXAMPLES, follow_lines, practice_lines

from pinochle_cli.cards import Hand
from pinochle_cli.cli import play_cmd
from pinochle_cli.session.commands import parse_command

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
SECONDS = re.compile(r"\d+(\.\d+)? s\)")


def sessions() -> list[list[str]]:
    """Each session block's lines, its command first."""
    return [block.rstrip("\n").split("\n") for block in re.findall(r"^```text play-session\n(.*?)^```", README,
                                                                    re.S | re.M)]


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def at_a_terminal(args: list[str], typed: list[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What a terminal shows of ``pinochle ARGS`` with ``typed`` answering its prompts (each echoed after ``> ``)."""
    lines: Iterator[str] = iter(typed)

    def answer(prompt: str = "") -> str:
        line = next(lines, None)
        if line is None:
            raise EOFError
        click.echo(f"{prompt}{line}")
        return line

    monkeypatch.setattr(builtins, "input", answer)

    # the command sees a terminal (its sys.stdin only: click's runner has its own)
    monkeypatch.setattr(play_cmd, "sys", _Sys())
    code, out, err = run_cli(*args, "--time", "1", "--no-review")
    assert (code, err) == (0, ""), err
    return out.splitlines()


class _Terminal:
    def isatty(self) -> bool:
        return True


class _Sys:
    stdin = _Terminal()


def _in_order(shown: list[str], got: list[str]) -> None:
    """The README's lines (``...`` aside, the review's left out) appear in ``got`` in that order."""
    normal = [SECONDS.sub("N s)", line) for line in got]
    rest = iter(normal)
    reviewing = False
    for line in shown:
        if line.startswith("Review of your decisions"):
            reviewing = True
        elif reviewing and not line.startswith("  "):
            reviewing = False
        if line.strip() == "..." or reviewing:
            continue
        assert SECONDS.sub("N s)", line) in rest, (line, got)


def test_the_readme_shows_a_practice_session_and_a_followed_deal() -> None:
    found = sessions()
    assert [s[0].split()[:3] for s in found] == [["$", "pinochle", "play"], ["$", "pinochle", "play"]]
    assert "--follow" not in found[0][0] and "--follow" in found[1][0]


def _same(a: str, b: str) -> bool:
    """Two lines that are one command (``9D`` and ``9♦``)."""
    x, y = parse_command(a, 4), parse_command(b, 4)
    return (x.word, x.action) == (y.word, y.action)


def typed_in_full(block: list[str], lines: list[str]) -> list[str]:
    """The README's typed lines with the deal's ``lines`` it leaves out (at a ``...``) put back: a typed line is the
    deal's next one, or after a ``...`` one further on; any other (a refused card, a hint, quit) is typed before the
    next one that is."""
    out: list[str] = []
    idx, skipped, pending = 0, False, []
    for line in block:
        if line.strip() == "...":
            skipped = True
        if not line.startswith("> "):
            continue
        said = line[2:]
        ahead = range(idx, len(lines) if skipped else min(idx + 1, len(lines)))
        j = next((k for k in ahead if _same(said, lines[k])), None)
        if j is None:
            pending.append(said)
            continue
        out += [*lines[idx:j], *pending, said]
        idx, skipped, pending = j + 1, False, []
    return [*out, *lines[idx:], *pending]


def test_the_practice_session(monkeypatch: pytest.MonkeyPatch) -> None:
    block = sessions()[0]
    args = shlex.split(block[0])[2:]
    seed = int(args[args.index("--seed") + 1])
    typed = typed_in_full(block, list(practice_lines("single-deck", seed)))
    _in_order(block[1:], at_a_terminal(args, typed, monkeypatch))


def test_the_followed_deal(monkeypatch: pytest.MonkeyPatch) -> None:
    block = sessions()[1]
    # the record the README starts for the table
    record = re.findall(r"`(pinochle record new table\.yaml[^`]*)`", README)
    assert len(record) == 1
    assert run_cli(*shlex.split(" ".join(record[0].split()))[1:]).code == 0
    args = shlex.split(block[0])[2:]
    lines, hand, dealer = follow_lines(EXAMPLES / "single-deck-played.yaml", int(args[args.index("--seat") + 1]))
    assert Hand.parse(args[args.index("--hand") + 1]) == Hand.parse(hand) and args[args.index("--dealer") + 1] == str(dealer)
    # the README types the example's lines (some left out)
    typed = typed_in_full(block, lines)
    assert len(typed) == len(lines) and all(_same(a, b) for a, b in zip(typed, lines, strict=True))
    got = at_a_terminal(args, typed, monkeypatch)
    _in_order(block[1:], got)
    scored = run_cli("score", "table.yaml")
    example = run_cli("score", str(EXAMPLES / "single-deck-played.yaml"))
    assert scored.out.splitlines()[-1] == example.out.splitlines()[-1]
