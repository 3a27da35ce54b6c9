"""`pinochle rulesets`, shared options and the error contract of the command line."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import run_cli as run
from rulesethelp import EditRuleset

from pinochle_cli import __version__

ROOT = Path(__file__).resolve().parent.parent


def test_version() -> None:
    assert run("--version") == (0, f"pinochle, version {__version__}\n", "")


@pytest.mark.parametrize("args", [["-h"], ["--help"], ["rulesets", "-h"], ["rulesets", "show", "-h"],
                                  ["rulesets", "check", "-h"], ["meld", "-h"], ["legal", "-h"], ["score", "-h"],
                                  ["estimate", "-h"], ["record", "-h"]])
def test_help_everywhere(args: list[str]) -> None:
    code, out, _ = run(*args)
    assert code == 0 and out.startswith("Usage: pinochle")


def test_list_json() -> None:
    code, out, err = run("rulesets", "--json")
    assert code == 0 and err == ""
    data = json.loads(out)
    assert [r["name"] for r in data] == ["two-handed", "single-deck", "single-deck-small", "double-deck",
                                         "three-handed"]
    assert data[3] == {"name": "double-deck", "players": 4, "deck_size": 80, "hand_size": 20, "minimum_bid": 50,
                       "target": 500, "deals": None, "description": data[3]["description"]}


def test_list_table() -> None:
    code, out, _ = run("rulesets")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["name", "players", "deck", "cards", "each", "widow", "minimum", "bid", "target"]
    assert lines[2].split() == ["two-handed", "2", "48", "12", "-", "-", "1000"]
    assert lines[3].split() == ["single-deck", "4", "48", "12", "-", "250", "1500"]
    assert lines[6].split() == ["three-handed", "3", "48", "15", "3", "250", "1500"]


def test_show_table_has_every_part() -> None:
    code, out, _ = run("rulesets", "show", "single-deck-small", "-o", "target=4-deals")
    assert code == 0
    for needle in ["counters    A 1, 10 1, K 1; last trick 1; 25 in a deal", "auction     minimum 25",
                   "double-pinochle    30 | 32", "match       4 deals", "Meld (+ trump, * a plain suit):",
                   "Options (-o KEY=VALUE):"]:
        assert needle in out, needle
    assert "pinochle pinochles Q♠ J♦ 4, double 30" in [" ".join(line.split()) for line in out.splitlines()]
    assert "run and extra king" not in out
    code, out, _ = run("rulesets", "show", "single-deck-small", "-o", "run-extra=4")
    assert "run and extra king and queen family A+ 10+ K+ K+ Q+ Q+ J+ 23 each" in " ".join(out.split())


def test_show_json() -> None:
    code, out, _ = run("rulesets", "show", "double-deck", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["counter_total"] == 50 and data["last_trick"] == 2
    assert data["auction"]["steps"] == [{"from": 50, "by": 1, "to": 60}, {"from": 65, "by": 5, "to": None}]
    assert data["meld"][0] == {"name": "run", "class": "family", "cards": ["A+", "10+", "K+", "Q+", "J+"],
                               "points": [15, 150, 225, 300]}
    assert data["options"][0] == {"name": "target", "description": "points that win the match", "default": "500",
                                  "choices": ["500", "250", "1000"], "chosen": "500"}
    assert [o["name"] for o in data["options"]] == ["target", "exchange", "must-trump", "beat-partner", "last-trick"]


def test_check_valid_file(edited_ruleset: EditRuleset) -> None:
    path = edited_ruleset("single-deck").path
    code, out, _ = run("rulesets", "check", str(path))
    assert code == 0
    assert out == f"{path}: valid ruleset 'single-deck' (4 players, 48 cards, 12 meld combinations, 5 options)\n"
    code, out, _ = run("rulesets", "check", str(path), "--json")
    assert json.loads(out)["valid"] is True


def test_check_misspelt_key_names_its_line(edited_ruleset: EditRuleset) -> None:
    path = edited_ruleset("single-deck", ("last_trick:", "last_trik:")).path
    text = path.read_text(encoding="utf-8")
    line = next(i for i, t in enumerate(text.splitlines(), 1) if t.startswith("last_trik"))
    code, out, err = run("rulesets", "check", str(path))
    assert (code, out) == (2, "")
    assert err.startswith(f"Error: {path}:{line}:1: last_trik: unknown key 'last_trik' (expected one of: ")
    assert "Traceback" not in err


@pytest.mark.parametrize(("args", "message"), [
    (["rulesets", "show", "nope"], "Error: no bundled ruleset named 'nope' and no such file (bundled: two-handed, "
                                   "single-deck, single-deck-small, double-deck, three-handed)\n"),
    (["rulesets", "show", "single-deck-small", "-o", "target=99"],
     "Error: option target='99' is not a choice (choices: 150, 75, 4-deals, 8-deals)\n"),
    (["rulesets", "show", "single-deck-small", "-o", "colour=red"],
     "Error: single-deck-small has no option 'colour' (its options: marriage-required, exchange, run-extra, "
     "double-pinochle, overtake, target)\n"),
    (["rulesets", "show", "single-deck", "-o", "target"], "Error: option 'target' is not KEY=VALUE\n"),
    (["rulesets", "check", "missing.yaml"], "Error: missing.yaml: no such ruleset file\n"),
])
def test_error_paths(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert (code, out, err) == (2, "", message)


def test_option_choice_case_insensitive() -> None:
    code, out, _ = run("rulesets", "show", "single-deck-small", "-o", "OVERTAKE=Trump-Lead", "--json")
    assert code == 0
    assert {o["name"]: o["chosen"] for o in json.loads(out)["options"]}["overtake"] == "trump-lead"


def test_schema_command() -> None:
    code, out, _ = run("rulesets", "schema")
    assert code == 0 and json.loads(out)["title"] == "pinochle_cli ruleset"


def test_python_dash_m() -> None:
    p = subprocess.run([sys.executable, "-m", "pinochle_cli", "rulesets", "--json"], capture_output=True, text=True,
                       check=False)
    assert p.returncode == 0 and len(json.loads(p.stdout)) == 5
