"""Tables line up on a terminal whatever the names: cells are measured by display width (wcwidth), so an
emoji or a CJK name takes the two columns it shows in; a column of numbers stays right-aligned when a
row has none (``-``)."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import pytest
from clihelp import run_cli

TEAMS = ["--team", "😀 Aces=Ann,Cy", "--team", "北南=Bob,Di"]
DEAL = ["--dealer", "Ann", "--bidder", "Bob", "--bid", "250", "-t", "H", "--meld", "😀 Aces=20", "--meld", "北南=60",
        "--counters", "😀 Aces=100"]


@pytest.fixture
def wide(tmp_path: Path) -> Path:
    path = tmp_path / "wide.yaml"
    assert run_cli("record", "new", str(path), *TEAMS).code == 0
    assert run_cli("record", "add", str(path), *DEAL).code == 0
    return path


def _width(line: str) -> int:
    """The columns ``line`` takes on a terminal (measured here on its own, not with the program's wcwidth)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in line)


def _tables(text: str) -> list[list[str]]:
    """Each table of ``text``: its header line, the line of dashes and its rows (up to a blank line)."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith("-") and set(line) <= {"-", " "} and i
              and not set(lines[i - 1]) <= {"-", " "}]
    out = []
    for start in starts:
        end = next((j for j in range(start, len(lines)) if not lines[j].strip()), len(lines))
        out.append(lines[start - 1:end])
    return out


@pytest.mark.parametrize("command", [["score"], ["stats"], ["score", "--brief"]])
def test_wide_names_keep_the_columns_in_line(wide: Path, command: list[str]) -> None:
    code, out, err = run_cli(*command, str(wide), env={"COLUMNS": "200"})
    assert (code, err) == (0, "")
    tables = _tables(out)
    assert tables and any("北南" in "".join(t) for t in tables), out
    for table in tables:
        dashes = table[1]
        # each column's cells end where its dashes end (every last column holds numbers, right-aligned)
        assert {_width(line) for line in table} == {_width(dashes)}, "\n".join(table)


def test_a_column_of_numbers_stays_right_aligned_with_a_dash(wide: Path) -> None:
    out = run_cli("stats", str(wide)).out
    rows = {line.split()[0]: line for line in _tables(out)[0][2:] if not line.startswith("-")}
    header = _tables(out)[0][0]
    end = header.index("made %") + len("made %")
    # Ann never bid ("-"), Bob did (0 made): both end under the header's end
    assert rows["Ann"][end - 1] == "-" and rows["Bob"][end - 1] == "0", out
