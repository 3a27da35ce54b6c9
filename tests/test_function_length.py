"""No function in the package is longer than about 60 lines, unless a comment above it says why."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pinochle_cli"
LIMIT = 60
# Long functions without a "# long:" comment saying why (the test fails on a stale entry too).
PENDING: set[tuple[str, str]] = set()


def _comment_above(lines: list[str], first: int) -> list[str]:
    """The comment lines directly above line ``first`` (1-based), nearest first."""
    found = []
    for line in reversed(lines[:first - 1]):
        if not line.strip().startswith("#"):
            break
        found.append(line.strip())
    return found


def long_functions() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                explained = any(line.startswith("# long:") for line in _comment_above(lines, first))
                if (node.end_lineno or node.lineno) - node.lineno + 1 > LIMIT and not explained:
                    found.add((path.relative_to(PACKAGE).as_posix(), node.name))
    return found


def test_functions_are_short() -> None:
    assert long_functions() == PENDING
