"""Every command of ``golden/commands.txt`` prints, byte for byte, what it printed when recorded."""

from __future__ import annotations

import json

import pytest
from exact_output import GOLDEN, run_all


@pytest.fixture(scope="module")
def now() -> dict[str, list[object]]:
    return run_all()


RECORDED: dict[str, list[object]] = json.loads((GOLDEN / "outputs.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_the_output_is_as_recorded(key: str, now: dict[str, list[object]]) -> None:
    assert now[key] == RECORDED[key]


def test_every_command_is_recorded(now: dict[str, list[object]]) -> None:
    assert sorted(now) == sorted(RECORDED)
