"""Any terminal, any shell: letters for suits where symbols cannot be printed; completion of names."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.shell_completion import ShellComplete

from pinochle_cli.cli import cli
from pinochle_cli.cli.common import plain_fallback

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(("encoding", "expected"), [
    ("cp1252", "AH 10S QD 9C >= 99.5 % <- bid up to here — é\n"),  # a Windows console or redirect
    ("utf-8", "A♥ 10♠ Q♦ 9♣ ≥ 99.5 % ← bid up to here — é\n"),  # what it can print, it prints
])
def test_a_stream_that_cannot_encode_suits_gets_letters(encoding: str, expected: str) -> None:
    raw = io.BytesIO()
    stream = io.TextIOWrapper(raw, encoding=encoding)
    plain_fallback(stream)
    stream.write("A♥ 10♠ Q♦ 9♣ ≥ 99.5 % ← bid up to here — é\n")
    stream.flush()
    assert raw.getvalue().decode(encoding) == expected


@pytest.mark.parametrize(("args", "code", "expected"), [
    (["score", "examples/single-deck-night.yaml"], 0, " 1  Ann     Ann 270 H  "),
    (["legal", "--hand", "AS 9S", "--trick", "KS", "-t", "H", "--play", "9S"], 1,
     "play     9S: not allowed \u2014 AS beats the KS and you must beat it"),
])
def test_the_program_on_a_cp1252_terminal(args: list[str], code: int, expected: str) -> None:
    """As on Windows with output redirected: exit as usual, letter cards, no traceback."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "PINOCHLE_RULESET": "", "COLUMNS": "80"}
    done = subprocess.run([sys.executable, "-m", "pinochle_cli", *args], cwd=ROOT, env=env, capture_output=True,
                          check=False)
    out = done.stdout.decode("cp1252")
    assert (done.returncode, done.stderr) == (code, b"")
    assert expected in out.splitlines()[5 if args[0] == "score" else 3]
    assert not set("♠♥♦♣") & set(out)


def complete(args: list[str], incomplete: str) -> list[str]:
    completer = ShellComplete(cli, {}, "pinochle", "_PINOCHLE_COMPLETE")
    return [item.value for item in completer.get_completions(args, incomplete)]


@pytest.fixture(autouse=True)
def _in_the_project(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)


def test_complete_ruleset_names() -> None:
    assert complete(["meld", "-r"], "single") == ["single-deck", "single-deck-small"]
    assert complete(["rulesets", "show"], "d") == ["double-deck"]
    assert complete(["meld", "-r"], "examples/") == ["examples/"]  # a path: the shell completes files


def test_complete_option_names_and_values_of_the_game_named() -> None:
    assert complete(["meld", "-r", "double-deck", "-o"], "beat") == ["beat-partner=yes", "beat-partner=no"]
    assert complete(["legal", "-o"], "target=") == ["target=1500", "target=1000", "target=2000"]
    assert complete(["estimate", "-r", "small", "-o"], "overtake") == ["overtake=always", "overtake=trump-lead"]


def test_complete_suits() -> None:
    assert complete(["meld", "-t"], "") == ["S", "H", "D", "C", "spades", "hearts", "diamonds", "clubs"]
    assert complete(["legal", "-t"], "h") == ["H", "hearts"]


def test_complete_a_records_players(tmp_path: Path) -> None:
    assert complete(["record", "add", "examples/single-deck-night.yaml", "--dealer"], "") == ["Ann", "Cy", "Bob", "Di"]
    assert complete(["record", "add", "examples/two-handed-night.yaml", "--bidder"], "") != []
    assert complete(["record", "add", str(tmp_path / "none.yaml"), "--dealer"], "") == []


def test_the_help_says_how_to_turn_completion_on() -> None:
    assert '_PINOCHLE_COMPLETE=bash_source pinochle' in (cli.help or "")
