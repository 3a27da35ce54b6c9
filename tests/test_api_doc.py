"""The library's front door as docs/api.md shows it: every example on the page runs, and prints what it says."""

from __future__ import annotations

import doctest
from pathlib import Path

PAGE = Path(__file__).resolve().parent.parent / "docs" / "api.md"


def test_every_example_of_the_api_page_runs_as_shown() -> None:
    failures, tried = doctest.testfile(str(PAGE), module_relative=False, optionflags=doctest.ELLIPSIS,
                                       encoding="utf-8", verbose=False)
    assert tried >= 30, f"only {tried} examples found on {PAGE.name}"
    assert failures == 0


def test_a_wrong_example_is_seen(tmp_path: Path) -> None:
    page = tmp_path / "wrong.md"
    page.write_text("```pycon\n>>> 1 + 1\n3\n\n```\n", encoding="utf-8")
    failures, tried = doctest.testfile(str(page), module_relative=False, verbose=False, report=False)
    assert (failures, tried) == (1, 1)


def test_the_readme_s_python_example_runs_as_shown() -> None:
    readme = PAGE.parent.parent / "README.md"
    failures, tried = doctest.testfile(str(readme), module_relative=False, optionflags=doctest.ELLIPSIS,
                                       encoding="utf-8", verbose=False)
    assert tried >= 5
    assert failures == 0
