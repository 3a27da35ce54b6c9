"""``score --chart`` and ``estimate --chart``: exact output at 80 and 60 columns, and in letters on a terminal
that cannot print the symbols; the drawing's own properties (never wider than asked, points where they belong).

The expected outputs are files in ``golden/charts/``; ``python tests/test_charts.py --write`` records them anew.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.charts import LETTERS, SYMBOLS
from pinochle_cli.charts.grid import Rule, Series, draw
from pinochle_cli.cli import cli

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden" / "charts"
HAND = "AH 10H KH QH JH AS AD AC KS QS JD 9H"
CASES = {
    "score-single-deck": ["score", "single-deck-night.yaml", "--chart"],
    "score-two-handed": ["score", "two-handed-night.yaml", "--chart"],
    "score-double-deck": ["score", "double-deck-night.yaml", "--chart"],
    "score-small-4-deals": ["score", "single-deck-small-4-deals.yaml", "--chart"],
    "estimate": ["estimate", HAND, "--samples", "300", "--seed", "7", "--chart"],
    "estimate-hearts": ["estimate", HAND, "--samples", "300", "--seed", "7", "-t", "H", "--chart"],
}
WIDTHS = (80, 60)


def _run(args: list[str], columns: int) -> str:
    env = {"COLUMNS": str(columns), "PINOCHLE_RULESET": None, "LC_ALL": "C.UTF-8"}
    old = os.getcwd()
    os.chdir(ROOT / "examples")
    try:
        result = CliRunner().invoke(cli, args, env=env)
    finally:
        os.chdir(old)
    assert result.exit_code == 0, result.output
    return result.stdout


def _letters(args: list[str], columns: int) -> str:
    """The command on a terminal that encodes cp1252 (a Windows console): no box drawing, no suit symbols."""
    env = {**os.environ, "PYTHONIOENCODING": "cp1252", "PINOCHLE_RULESET": "", "COLUMNS": str(columns)}
    done = subprocess.run([sys.executable, "-m", "pinochle_cli", *args], cwd=ROOT / "examples", env=env,
                          capture_output=True, timeout=120, check=True)
    return done.stdout.decode("cp1252").replace("\r\n", "\n")


def _golden(name: str) -> str:
    return (GOLDEN / f"{name}.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_the_chart_is_as_recorded(case: str, width: int) -> None:
    assert _run(CASES[case], width) == _golden(f"{case}-{width}")


@pytest.mark.parametrize("case", ["score-single-deck", "estimate"])
def test_the_chart_in_letters_is_as_recorded(case: str) -> None:
    out = _letters(CASES[case], 60)
    assert out == _golden(f"{case}-letters")
    chart = out.split("\n\n")[1 if case.startswith("score") else 3]
    assert chart.isascii()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_every_chart_line_fits(case: str, width: int) -> None:
    out = _run(CASES[case], width)
    chart = out[out.index("\n\n") + 2:] if case.startswith("score") else out[out.index("P(make) by bid"):]
    assert max(len(line) for line in chart.splitlines()) <= width


@pytest.mark.parametrize("args", [["score", "single-deck-night.yaml", "--chart", "--json"],
                                  ["score", "single-deck-night.yaml", "--chart", "--brief"],
                                  ["estimate", HAND, "--samples", "10", "--chart", "--json"]])
def test_chart_refuses_what_it_cannot_draw(args: list[str]) -> None:
    old = os.getcwd()
    os.chdir(ROOT / "examples")
    try:
        result = CliRunner().invoke(cli, args, env={"COLUMNS": "80", "PINOCHLE_RULESET": None})
    finally:
        os.chdir(old)
    assert result.exit_code == 2
    assert "--chart" in result.stderr and "Traceback" not in result.output


def test_a_record_without_deals_says_so(tmp_path: Path) -> None:
    path = tmp_path / "empty.yaml"
    made = CliRunner().invoke(cli, ["record", "new", str(path), "--team", "Us=Ann,Cy", "--team", "Them=Bob,Di"],
                              env={"PINOCHLE_RULESET": None})
    assert made.exit_code == 0, made.output
    result = CliRunner().invoke(cli, ["score", str(path), "--chart"], env={"COLUMNS": "60", "PINOCHLE_RULESET": None})
    assert "No deals yet: nothing to chart." in result.stdout


def test_points_land_on_their_rows_and_columns() -> None:
    lines = draw([Series("A", ((0, 0), (4, 100))), Series("B", ((0, 0), (4, 0)))], width=12, height=5,
                 x_range=(0, 4), y_range=(0, 100), x_ticks=[(0, "0"), (4, "4")], y_format=lambda y: str(round(y)),
                 rules=[Rule(50, "50")], glyphs=LETTERS)
    # 12 columns: the labels (3), a space and the axis, 7 for the plot
    assert lines == [
        "100 +      A",
        "    |    ..",
        " 50 +---.---",
        "    | ..",
        "  0 +*.....B",
        "    ++-----+",
        "     0     4",
    ]


@settings(max_examples=60, deadline=None)
@given(st.integers(20, 140), st.integers(2, 20),
       st.lists(st.lists(st.integers(-2000, 3000), min_size=1, max_size=40), min_size=1, max_size=4))
def test_the_chart_is_never_wider_than_asked(width: int, height: int, runs: list[list[int]]) -> None:
    series = [Series(SYMBOLS.markers[i], tuple(enumerate(run))) for i, run in enumerate(runs)]
    every = [v for run in runs for v in run]
    n = max(len(run) for run in runs)
    lines = draw(series, width=width, height=height, x_range=(0, n), y_range=(min(every), max(every) + 1),
                 x_ticks=[(x, str(x)) for x in range(n + 1)], y_format=lambda y: str(round(y)), glyphs=SYMBOLS)
    assert len(lines) == height + 2
    assert max(len(line) for line in lines) <= max(width, len(str(min(every))) + 4)
    # every series' last point is on the chart
    assert all(any(s.marker in line or SYMBOLS.both in line for line in lines) for s in series)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/test_charts.py --write")
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, args in CASES.items():
        for width in WIDTHS:
            (GOLDEN / f"{name}-{width}.txt").write_text(_run(args, width), encoding="utf-8")
    for name in ("score-single-deck", "estimate"):
        (GOLDEN / f"{name}-letters.txt").write_text(_letters(CASES[name], 60), encoding="utf-8")
