"""``--json`` always means JSON: every command that has it prints one JSON document on stdout, nothing else.

Each command with a ``--json`` option is run in ``RUNS`` (the last test walks the command tree, so
a command given ``--json`` later must be added); what is not the document (a prompt, a deal as
scored, a message) goes to stderr. ``play`` is a conversation: one JSON object per event, a line each
(``JSON_LINES``).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import click
import pytest
from clihelp import run_cli

from pinochle_cli.cli import cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HAND = "AH 10H KH QH JH AS AD AC KS QS JD 9H"
DEAL = ["--dealer", "Ann", "--bidder", "Ann", "--bid", "250", "-t", "H", "--meld", "NS=100", "--meld", "EW=0",
        "--counters", "NS=150"]

# each run: the commands that set it up (in the test's folder), then the command whose stdout is JSON
RUNS: dict[str, tuple[list[list[str]], list[str]]] = {
    "analyze": ([], ["analyze", "played.yaml"]),
    "estimate": ([], ["estimate", HAND, "--samples", "300", "--seed", "7"]),
    "legal": ([], ["legal", "--hand", "AH 10H KS QS 9D", "-t", "S", "--trick", "KH"]),
    "meld": ([], ["meld", HAND]),
    "prepare": ([], ["prepare"]),
    "pass": ([], ["pass", "AH 10H KH 9H AS AC AD QS 9S JD 9D 9C", "-t", "H", "--bid", "300", "--samples", "100",
                  "-o", "exchange=3", "--workers", "1"]),
    "record add": ([], ["record", "add", "fresh.yaml", *DEAL]),
    "record add --prompt": ([], ["record", "add", "fresh.yaml", "--prompt", "--dealer", "Ann", "--bidder", "Ann",
                                 "--bid", "250", "-t", "H"]),
    "record edit": ([["record", "add", "fresh.yaml", *DEAL]], ["record", "edit", "fresh.yaml", "1", "--bid", "260"]),
    "record undo": ([["record", "add", "fresh.yaml", *DEAL]], ["record", "undo", "fresh.yaml"]),
    "record redo": ([["record", "add", "fresh.yaml", *DEAL], ["record", "undo", "fresh.yaml"]],
                    ["record", "redo", "fresh.yaml"]),
    "rulesets": ([], ["rulesets"]),
    "rulesets check": ([["rulesets", "copy", "single-deck", "house.yaml"]], ["rulesets", "check", "house.yaml"]),
    "rulesets show": ([], ["rulesets", "show", "double-deck"]),
    "rulesets show --rules": ([], ["rulesets", "show", "double-deck", "--rules"]),
    "score": ([], ["score", "night.yaml"]),
    "score --brief": ([], ["score", "night.yaml", "--brief"]),
    "score (two games)": ([], ["score", "night.yaml", "two.yaml"]),
    "stats": ([], ["stats", "night.yaml", "two.yaml"]),
    "hint": ([], ["hint", "-t", "S", "--hand", "TS QH 9D", "--seat", "1", "--bidder", "2", "--bid", "260", "--tricks",
                  "QD AD QD AD; JC JC AC QC; TD KD 9D TD; QS TS JS JS; 9S KH KS AS; AS KS 9H 9S; 9C KC AC 9H; "
                  "9C AH QC QS; TH TC AH TH", "--leader", "2", "--trick", "KD", "--workers", "1"]),
    "solve": ([], ["solve", "-t", "H", "--hand", "AH KH", "--hand", "QH JH", "--hand", "AS KS", "--hand", "QS JS"]),
    "play": ([], ["play", "--seed", "3", "--time", "0.2"]),
}
# the commands that print JSON Lines, and what is typed to them
JSON_LINES = {"play": "pass\nhint\nshow\nquit\n"}
# what ``record add --prompt`` is asked, answered
TYPED = {"record add --prompt": "100\n0\n150\ny\n"}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    shutil.copy(EXAMPLES / "single-deck-night.yaml", "night.yaml")
    shutil.copy(EXAMPLES / "two-handed-night.yaml", "two.yaml")
    shutil.copy(EXAMPLES / "single-deck-played.yaml", "played.yaml")
    assert run_cli("record", "new", "fresh.yaml", "--team", "NS=Ann,Cy", "--team", "EW=Bob,Di").code == 0
    return tmp_path


@pytest.mark.parametrize("name", sorted(RUNS))
def test_json_means_one_json_document_on_stdout(name: str, folder: Path) -> None:
    setup, args = RUNS[name]
    for step in setup:
        assert run_cli(*step).code == 0, step
    code, out, err = run_cli(*args, "--json", input=TYPED.get(name, JSON_LINES.get(name)))
    assert code == 0, (code, err)
    if name in JSON_LINES:
        assert err == "" and len([json.loads(line) for line in out.splitlines()]) > 3
        return
    json.loads(out)


def test_prompts_go_to_stderr_with_json(folder: Path) -> None:
    code, out, err = run_cli(*RUNS["record add --prompt"][1], "--json", input=TYPED["record add --prompt"])
    assert code == 0
    assert json.loads(out)["deals"][0]["bid"] == 250
    assert err.startswith("NS's meld (a number; 0 for none): 100\n") and err.endswith("Add it? [Y/n]: y\n"), err


def test_the_rules_as_json_are_the_rules_in_words(folder: Path) -> None:
    rules = json.loads(run_cli("rulesets", "show", "two-handed", "--rules", "--json").out)
    text = run_cli("rulesets", "show", "two-handed", "--rules").out
    assert [s["title"] for s in rules["sections"]][:2] == ["The deal", "Counters"]
    assert text == "\n\n".join([f"# {rules['title']}", rules["intro"],
                                *(f"## {s['title']}\n\n{s['text']}" for s in rules["sections"])]) + "\n"


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    ctx = click.Context(group)
    out: list[tuple[str, click.Command]] = [(prefix.strip() or "pinochle", group)]
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix}{name} ")
        else:
            out.append((f"{prefix}{name}", command))
    return out


def test_every_command_with_json_is_run() -> None:
    run = {n.split(" (")[0].split(" --")[0] for n in RUNS}
    for name, command in _commands(cli):
        if any(p.name == "as_json" for p in command.params):
            assert name in run, f"{name} has --json: add it to RUNS"
