"""The documentation ships with the project and stays true: generated game pages, links, packaging."""

from __future__ import annotations

import ast
import re
import shlex
import sys
from pathlib import Path

import pytest
from clihelp import run_cli

from pinochle_cli.ruleset import bundled_names, load_ruleset
from pinochle_cli.ruleset.rulebook import rules_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
SHIPPED = [*PAGES, ROOT / "pyproject.toml", *sorted((ROOT / "pinochle_cli").rglob("*.py")),
           *sorted((ROOT / "rulesets").iterdir()), *sorted((ROOT / "examples").rglob("*.yaml"))]
LINK = re.compile(r"\]\(([^)\s]+)\)")


@pytest.mark.parametrize("name", bundled_names())
def test_each_game_page_is_what_the_generator_writes(name: str) -> None:
    page = ROOT / "docs" / "games" / f"{name}.md"
    assert page.read_text(encoding="utf-8") == rules_text(load_ruleset(name)), (
        f"regenerate: pinochle rulesets show {name} --rules > docs/games/{name}.md")
    assert run_cli("rulesets", "show", name, "--rules") == (0, rules_text(load_ruleset(name)), "")


def test_there_is_a_page_for_each_game_and_no_other() -> None:
    assert sorted(p.stem for p in (ROOT / "docs" / "games").glob("*.md")) == sorted(bundled_names())


def test_rules_text_follows_the_options() -> None:
    rules = load_ruleset("single-deck", {"last-trick": "20", "beat-partner": "no"})
    text = rules_text(rules)
    assert text.startswith("# single-deck (beat-partner=no, last-trick=20)\n")
    shown = run_cli("rulesets", "show", "single-deck", "-o", "last-trick=20", "-o", "beat-partner=no", "--rules").out
    assert shown.startswith("# single-deck (-o beat-partner=no -o last-trick=20)\n")
    assert shown.split("\n", 1)[1] == text.split("\n", 1)[1]
    assert "the last trick adds 20. A deal holds 260 points in all." in text
    assert "beat the winning card if able (not while the partner is winning)" in text
    assert "(default `10`, now `20`)" in text


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves_inside_the_repository(page: Path) -> None:
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        resolved = (page.parent / target.split("#")[0]).resolve()
        assert resolved.exists(), f"{page.name}: {target} does not exist"
        assert ROOT in resolved.parents or resolved == ROOT, f"{page.name}: {target} points outside the repository"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: str(p.relative_to(ROOT)))
def test_nothing_shipped_points_at_the_developers_notes(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    for word in ("shared/", "RECORDS.md", "CLI.md", "RULES.md", "DESIGN.md"):
        assert word not in text, f"{path.relative_to(ROOT)} mentions {word}"


@pytest.mark.parametrize("name", bundled_names())
def test_each_bundled_ruleset_names_a_source_that_exists(name: str) -> None:
    source = load_ruleset(name).source
    paths = re.findall(r"docs/games/[\w.-]+\.md", source)
    assert paths and all((ROOT / p).is_file() for p in paths), source


@pytest.mark.parametrize(("args", "page"), [
    (["record", "format"], "records.md"), (["docs", "records"], "records.md"), (["docs", "json"], "json.md"),
    (["docs", "estimate"], "estimate.md"), (["docs", "solver"], "solver.md"),
    (["docs", "serve"], "serve.md"), (["docs", "play"], "play.md")])
def test_the_pages_are_printed_by_the_program(args: list[str], page: str) -> None:
    assert run_cli(*args) == (0, (ROOT / "docs" / page).read_text(encoding="utf-8"), "")


def test_the_pages_are_installed_with_the_package() -> None:
    """`pip install .` puts docs/ into the package (pinochle_cli/docs/pages), where the program reads it first."""
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["setuptools"]
    setup = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    folders = next(ast.literal_eval(node.value) for node in setup.body
                   if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", "") == "DATA_FOLDERS")
    assert folders["pinochle_cli.docs.pages"] == "docs"
    # every page, in docs/ or a folder of it, is in a data package's own patterns (a folder that is not named
    # a package of its own is one setuptools warns it would ignore)
    data = setuptools["package-data"]
    for page in (ROOT / "docs").rglob("*.md"):
        package = next(p for p, folder in folders.items() if (ROOT / folder) == page.parent)
        assert any(page.match(pattern) for pattern in data[package]), page


def test_an_unknown_page_is_a_usage_error() -> None:
    code, out, err = run_cli("docs", "nope")
    assert (code, out) == (2, "")
    assert err.startswith("Error: Invalid value for '[records|json|estimate|solver|serve|hint|api|play]': 'nope' is "
                          "not one of 'records', 'json', 'estimate', 'solver', 'serve', 'hint', 'api', 'play'")


README = (ROOT / "README.md").read_text(encoding="utf-8")


def _option_examples() -> list[str]:
    spans = re.findall(r"`([^`\n]*-o [^`\n]*)`", README)
    lines = [line[2:] for line in README.splitlines() if line.startswith("$ pinochle ") and " -o " in line]
    return [s for s in spans + lines if "KEY=VALUE" not in s]


@pytest.mark.parametrize("example", _option_examples())
def test_readme_option_examples_run_on_the_game_they_name(example: str) -> None:
    words = shlex.split(example.split("#")[0])
    game = words[words.index("-r") + 1] if "-r" in words else "single-deck"
    options = dict(words[i + 1].split("=", 1) for i, w in enumerate(words) if w == "-o")
    assert options and load_ruleset(game, options).chosen.items() >= options.items()


def test_the_first_command_leaves_pinochle_on_the_path() -> None:
    """The set-up activates the environment before the first `pinochle`, so every later example runs."""
    first = re.search(r"```sh\n(?:#.*\n)*(.*)\n", README)
    assert first is not None
    steps = [step.strip() for step in first.group(1).split("&&")]
    assert steps[:3] == ["python3 -m venv .venv", ". .venv/bin/activate", "pip install ."]
    assert steps[3].startswith("pinochle ")
    assert ".venv/bin/pinochle" not in README
