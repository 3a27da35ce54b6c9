"""No function in the package is longer than about 60 lines, unless a comment above it says why."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "pinochle_cli"
LIMIT = 60
# Long functions without a "# long:" comment saying why (the test fails on a stale entry too).
PENDING: set[tuple[str, str]] = set()


def long_functions() -> set[tuple[str, str]]:
    found = set()
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for node in ast.walk(ast.parse("\n".join(lines))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                explained = lines[first - 2].strip().startswith("# long:") if first > 1 else False
                if (node.end_lineno or node.lineno) - node.lineno + 1 > LIMIT and not explained:
                    found.add((path.relative_to(PACKAGE).as_posix(), node.name))
    return found


def test_functions_are_short() -> None:
    assert long_functions() == PENDING
