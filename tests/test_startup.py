"""Start-up: each command imports only what it uses; the command list needs no command imported."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.shell_completion import ShellComplete
from click.testing import CliRunner

from pinochle_cli.cli import COMMANDS, cli
from pinochle_cli.cli.common import PinochleGroup
from pinochle_cli.ruleset import bundled_names, bundled_path
from pinochle_cli.ruleset import loading as ruleset_module
from pinochle_cli.yamlsource import YamlError, load_node

ROOT = Path(__file__).resolve().parent.parent
HAND = "AH TH KH QH JH KH QS JD 9H"

# runs the command line as `pinochle ARGS`, then prints the modules it loaded (stdout's last line)
LOADED = """
import json, sys
from pinochle_cli.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)))
"""


def loaded_modules(*args: str) -> set[str]:
    env = {**os.environ, "PINOCHLE_RULESET": "", "COLUMNS": "100"}
    done = subprocess.run([sys.executable, "-c", LOADED, *args], cwd=ROOT, env=env, capture_output=True, text=True,
                          check=True)
    return set(json.loads(done.stdout.splitlines()[-1]))


def fresh(group: PinochleGroup) -> PinochleGroup:
    """The command line with no command imported yet."""
    return PinochleGroup(group.name, lazy=COMMANDS, params=group.params, help=group.help,
                         context_settings=group.context_settings)


def _eager() -> click.Group:
    """The same command line with every command imported, listed by click itself."""
    return click.Group(cli.name, commands={n: c.load() for n, c in COMMANDS.items()}, params=cli.params,
                       help=cli.help, context_settings=cli.context_settings)


@pytest.mark.parametrize("args", [
    ["--version"],
    ["--help"],
    ["meld", HAND, "-t", "H", "--json"],
    ["meld", HAND],
    ["legal", "--hand", "KH 9H AS", "--trick", "AS QH", "-t", "H", "--play", "9H"],
    ["score", "examples/single-deck-night.yaml"],
    ["score", "examples/single-deck-night.yaml", "--json"],
    ["meld", "-r", "double", HAND, "-t", "H"],
])
def test_a_command_at_the_table_loads_no_numpy(args: list[str]) -> None:
    assert "numpy" not in loaded_modules(*args)


def test_the_estimator_loads_numpy() -> None:  # the check above can see numpy when it is there
    assert "numpy" in loaded_modules("estimate", "AH TH KH QH JH AS KS QS KD QD KC QC", "--samples", "500")


def test_the_heuristic_estimate_loads_the_player_not_the_solver() -> None:
    modules = loaded_modules("estimate", "AH TH KH QH JH AS KS QS KD QD KC QC", "--samples", "10", "-t", "H")
    assert not {"pinochle_cli.solver.solve", "pinochle_cli.estimate.double_dummy"} & modules
    assert {"numba", "pinochle_cli.player.play"} <= modules
    assert "pinochle_cli.solver.solve" in loaded_modules("estimate", "AH TH KH QH JH AS KS QS KD QD KC QC", "--play",
                                                  "double-dummy", "--exact-from", "13")


def test_help_and_version_load_no_command() -> None:
    for args in (["--help"], ["--version"]):
        assert not {m for m in loaded_modules(*args) if m.endswith("_cmd")}


def test_a_command_loads_only_its_own_module() -> None:
    commands = {m for m in loaded_modules("legal", "--hand", "KH 9H AS", "-t", "H") if m.endswith("_cmd")}
    assert commands == {"pinochle_cli.cli.legal_cmd"}


def test_every_registered_command_resolves_under_its_name() -> None:
    group = fresh(cli)
    ctx = click.Context(group)
    assert group.list_commands(ctx) == sorted(COMMANDS)
    for name in COMMANDS:
        command = group.get_command(ctx, name)
        assert isinstance(command, click.Command)
        assert command.name == name
    assert group.get_command(ctx, "no-such-command") is None


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_a_summary_is_shortened_as_the_commands_own_help(name: str) -> None:
    command = COMMANDS[name].load()
    group = fresh(cli)
    for limit in range(10, 160):
        assert group.listed_help(name, limit) == command.get_short_help_str(limit), limit
    assert name not in group.commands  # listed without importing it


@pytest.mark.parametrize("columns", ["40", "80", "100", "200"])
def test_help_lists_the_commands_as_click_does(columns: str) -> None:
    eager = _eager()
    lazy = fresh(cli)
    runner = CliRunner()
    expected = runner.invoke(eager, ["--help"], env={"COLUMNS": columns}).output
    assert runner.invoke(lazy, ["--help"], env={"COLUMNS": columns}).output == expected
    assert not lazy.commands
    listed = expected.split("Commands:\n")[1]
    assert [line.split()[0] for line in listed.splitlines() if line.startswith("  ") and line[2] != " "] == \
        sorted(COMMANDS)


@pytest.mark.parametrize("incomplete", ["", "r", "s", "x"])
def test_command_names_complete_as_click_does_without_importing(incomplete: str) -> None:
    def completions(group: click.Group) -> list[tuple[str, str | None]]:
        completer = ShellComplete(group, {}, "pinochle", "_PINOCHLE_COMPLETE")
        return [(i.value, i.help) for i in completer.get_completions([], incomplete)]

    group = fresh(cli)
    assert completions(group) == completions(_eager())
    assert not group.commands


def test_a_lazy_entry_that_is_not_a_command_is_refused() -> None:
    from pinochle_cli.cli.common import LazyCommand

    with pytest.raises(TypeError, match="common:CONTEXT_SETTINGS is not a click command"):
        LazyCommand("common:CONTEXT_SETTINGS", "").load()


# --------------------------------------------------------------------------- bundled names

def _parsed_aliases(path: Path) -> list[str]:
    node = load_node(str(path)).get("aliases")
    return [a.raw for a in node.items] if node is not None and node.kind == "seq" else []


@pytest.mark.parametrize("name", bundled_names())
def test_the_aliases_line_gives_what_the_whole_file_gives(name: str) -> None:
    path = bundled_path(name)
    assert path is not None
    assert ruleset_module._file_aliases(path) == _parsed_aliases(path) != []


@pytest.mark.parametrize("text", [
    "name: x\naliases:\n  - one\n  - '2'\n",  # a block list: the whole file is read
    "name: x\naliases: [one, \"2\"]  # a comment\n",
    "name: x\naliases: [one,\n  two]\n",  # a flow list over two lines
    "name: x\n",
    "name: x\naliases: one\n",
    "aliases: [one]\naliases: [two]\n",  # duplicate keys: not YAML this program reads
])
def test_aliases_of_any_layout(tmp_path: Path, text: str) -> None:
    path = tmp_path / "x.yaml"
    path.write_text(text, encoding="utf-8")
    try:
        expected = _parsed_aliases(path)
    except YamlError:
        expected = []
    assert ruleset_module._file_aliases(path) == expected


def test_bundled_names_resolve_without_parsing_a_file(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(path: str) -> None:
        raise AssertionError(f"{path} parsed")

    monkeypatch.setattr(ruleset_module, "load_node", refuse)
    ruleset_module._alias_map.cache_clear()
    try:
        assert bundled_path(" Single-Deck ") == bundled_path("single-deck")
        assert bundled_path("double") == bundled_path("80") == bundled_path("double-deck")
        assert bundled_path("2-HANDED") == bundled_path("two-handed")
        assert bundled_path("four-deck") is None
    finally:
        ruleset_module._alias_map.cache_clear()
