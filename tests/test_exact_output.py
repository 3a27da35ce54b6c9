"""Every command of ``golden/commands.txt`` prints, byte for byte, what it printed when recorded.

Each command is a case of its own, in a fresh copy of examples/, except the commands around a file a command
writes, which run in their order in one case (``exact_output.cases``): the cases spread over the workers.
"""

from __future__ import annotations

import json

import pytest
from exact_output import GOLDEN, Case, cases, run_case

RECORDED: dict[str, list[object]] = json.loads((GOLDEN / "outputs.json").read_text(encoding="utf-8"))
CASES = cases()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_the_output_is_as_recorded(case: Case) -> None:
    now = run_case(case)
    for key, _words in case.commands:
        assert now[key] == RECORDED[key], key


def test_every_command_is_recorded() -> None:
    assert sorted(key for case in CASES for key, _words in case.commands) == sorted(RECORDED)
