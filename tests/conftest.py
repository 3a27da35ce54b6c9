"""What every test shares: an environment that does not leak in, and one way to edit a bundled ruleset.

The command line is driven through ``tests/clihelp.py`` (``run_cli``); ``tests/rulesethelp.py``
holds the edited ruleset's type, for annotations.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rulesethelp import EditedRuleset, EditRuleset, edit_ruleset_text


@pytest.fixture(autouse=True)
def _clean_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """No default ruleset or engine choice from the environment, a fixed terminal width, a UTF-8 locale."""
    monkeypatch.delenv("PINOCHLE_RULESET", raising=False)
    monkeypatch.delenv("PINOCHLE_COMPILED", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("LC_ALL", "C.UTF-8")
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def edited_ruleset(tmp_path: Path) -> EditRuleset:
    """``edited_ruleset(name, (old, new), …, file="house.yaml")``: a house-rules file made from a bundled one."""

    def edit(name: str, *changes: tuple[str, str], file: str = "house.yaml") -> EditedRuleset:
        path = tmp_path / file
        text = edit_ruleset_text(name, *changes)
        path.write_text(text, encoding="utf-8")
        return EditedRuleset(path, text)

    return edit
