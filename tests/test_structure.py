"""The package's shape, checked from its source: what a module may hold, import and say.

Each rule is a checker over source text (or a package on disk) that returns what breaks it, and a
test that the package has nothing to report; a second test runs the checker on a small snippet
that breaks the rule, so a checker that can no longer see anything fails too.

- at most ``TOP_LIMIT`` modules directly in ``pinochle_cli/`` (the rest live in its folders);
- no library ``raise`` (outside ``cli/``) names a command-line flag: the library does not know
  the command line; the ``cli`` commands word their own errors;
- ``errors.py`` imports nothing of the package (every module imports it);
- the compiled code names the pack's 24 cards and a 6-bit card field (63) by constants, not
  bare numbers, except where the constant itself is defined;
- no function is longer than ``LIMIT`` lines unless a ``# long: REASON`` comment beside its
  ``def`` says why;
- a package's ``__init__`` loads neither numpy nor numba (importing a package is cheap).
"""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "pinochle_cli"
TOP_LIMIT = 14
LIMIT = 60
# the modules that compile code (and the rules they compile): game.machine_code finds them by their imports
COMPILED = ["game/kernels.py", "game/trick_rules.py", "player/exchange.py", "player/play.py", "player/tables.py",
            "solver/search.py", "solver/solve.py"]
MAGIC = {24, 63}  # the cards of the pack (0x18) and a 6-bit field (0x3F)
HEAVY = {"numpy", "numba"}
FLAG = re.compile(r"(?<![\w-])--[A-Za-z][\w-]*")
# the lead removes these marks once the branches fixing those rules are merged


def package_files(under: str = "") -> list[Path]:
    return sorted((PACKAGE / under).rglob("*.py"))


def relative(path: Path) -> str:
    return path.relative_to(PACKAGE).as_posix()


# --------------------------------------------------------------------------- (a) top-level modules

def top_modules(package: Path) -> list[str]:
    """Every ``.py`` file directly in ``package`` (``__init__`` and ``__main__`` included)."""
    return sorted(p.name for p in package.glob("*.py"))


def test_few_modules_at_the_top() -> None:
    modules = top_modules(PACKAGE)
    assert len(modules) <= TOP_LIMIT, f"{len(modules)} modules directly in pinochle_cli/: {modules}"


def test_too_many_top_modules_are_seen(tmp_path: Path) -> None:
    for i in range(TOP_LIMIT + 1):
        (tmp_path / f"m{i}.py").write_text("", encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "deep.py").write_text("", encoding="utf-8")
    assert len(top_modules(tmp_path)) == TOP_LIMIT + 1


# --------------------------------------------------------------------------- (b) flags in library errors

def _strings(node: ast.AST) -> Iterator[str]:
    """The string constants in ``node``: plain strings and the literal parts of f-strings."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
            yield sub.value


def flags_raised(source: str) -> list[tuple[int, str]]:
    """``(line, flag)`` for each ``raise`` whose message names a command-line flag (``--word``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and node.exc is not None:
            found += [(node.lineno, flag) for text in _strings(node.exc) for flag in FLAG.findall(text)]
    return sorted(found)


def test_the_library_raises_no_command_line_flag() -> None:
    found = {f"{relative(p)}:{line}": flag for p in package_files() if not relative(p).startswith("cli/")
             for line, flag in flags_raised(p.read_text(encoding="utf-8"))}
    assert not found


def test_a_flag_in_a_raise_is_seen() -> None:
    source = ('def f(n):\n'
              '    if n:\n'
              '        raise ValueError(f"--exact-from {n}: too early")\n'
              '    raise ValueError("give " + "--samples" + " a number")\n'
              'raise KeyError("a - b -- c, no flag")\n')
    assert flags_raised(source) == [(3, "--exact-from"), (4, "--samples")]


# --------------------------------------------------------------------------- (c) errors.py stands alone

def package_imports(source: str) -> list[int]:
    """The lines that import from the package: a relative import, or ``pinochle_cli`` by name
    (anywhere, ``if TYPE_CHECKING:`` included)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
            if node.level >= 1:
                lines.append(node.lineno)
                continue
        elif isinstance(node, ast.Import):
            names = [a.name for a in node.names]
        else:
            continue
        if any(n == "pinochle_cli" or n.startswith("pinochle_cli.") for n in names):
            lines.append(node.lineno)
    return sorted(lines)


def test_errors_imports_nothing_of_the_package() -> None:
    assert package_imports((PACKAGE / "errors.py").read_text(encoding="utf-8")) == []


def test_a_package_import_in_errors_is_seen() -> None:
    source = ("import json\n"
              "from typing import TYPE_CHECKING\n"
              "if TYPE_CHECKING:\n"
              "    from .cards import Card\n"
              "from pinochle_cli.cards import Suit\n"
              "import pinochle_cli.ruleset\n"
              "from . import cards\n"
              "import pinochle_cli_extra\n")
    assert package_imports(source) == [4, 5, 6, 7]


# --------------------------------------------------------------------------- (d) named constants in compiled code

def _is_constant_definition(node: ast.AST) -> bool:
    """An assignment to UPPER_CASE names only (``N_CARDS = 24``, ``CARD_MASK: int = 0x3F``, ``A, B = 24, 16``)."""
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, ast.AnnAssign):
        targets = [node.target]
    else:
        return False
    names = [n for t in targets for n in (t.elts if isinstance(t, ast.Tuple) else [t])]
    return all(isinstance(n, ast.Name) and n.id.isupper() for n in names)


def magic_numbers(source: str) -> list[tuple[int, int]]:
    """``(line, value)`` for each bare int literal in ``MAGIC`` outside a constant's definition."""
    tree = ast.parse(source)
    allowed = {id(sub) for node in ast.walk(tree) if _is_constant_definition(node) for sub in ast.walk(node)}
    return sorted((node.lineno, node.value) for node in ast.walk(tree)
                  if isinstance(node, ast.Constant) and type(node.value) is int and node.value in MAGIC
                  and id(node) not in allowed)


def test_compiled_code_names_its_numbers() -> None:
    found = {f"{name}:{line}": value for name in COMPILED
             for line, value in magic_numbers((PACKAGE / name).read_text(encoding="utf-8"))}
    assert not found


def test_a_bare_number_in_compiled_code_is_seen() -> None:
    source = ("N_CARDS = 24\n"
              "CARD_MASK: int = 0x3F\n"
              "WIDE = (1 << 24) - 1\n"
              "def f(x):\n"
              "    for c in range(24):\n"
              "        x = (x >> 6) & 0x3F\n"
              "    local = 63\n"
              "    return x + 24.0 + N_CARDS\n")
    assert magic_numbers(source) == [(5, 24), (6, 63), (7, 63)]


# --------------------------------------------------------------------------- (e) short functions

def _explained(lines: list[str], node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A ``# long:`` comment in the comment lines directly above the function (its decorators
    included) or on the line right after its ``def`` line."""
    first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
    above = []
    for line in reversed(lines[:first - 1]):
        if not line.strip().startswith("#"):
            break
        above.append(line.strip())
    after = lines[node.lineno].strip() if node.lineno < len(lines) else ""
    return any(line.startswith("# long:") for line in [*above, after])


def long_functions(source: str) -> list[tuple[int, str, int]]:
    """``(line, name, length)`` of each function (methods and nested ones too) longer than ``LIMIT``
    lines without a ``# long:`` comment saying why."""
    lines = source.splitlines()
    return [(node.lineno, node.name, (node.end_lineno or node.lineno) - node.lineno + 1)
            for node in ast.walk(ast.parse(source))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            and (node.end_lineno or node.lineno) - node.lineno + 1 > LIMIT and not _explained(lines, node)]


def test_functions_are_short() -> None:
    found = {f"{relative(p)}:{line} {name}": length for p in package_files()
             for line, name, length in long_functions(p.read_text(encoding="utf-8"))}
    assert not found


def _function(name: str, lines: int, indent: str = "", first: str = "") -> str:
    """A function ``lines`` body lines long (one more with its ``def``), ``first`` its first line."""
    return f"{indent}def {name}():\n{first}" + "".join(f"{indent}    x{i} = {i}\n" for i in range(lines))


def test_a_long_function_is_seen() -> None:
    source = (_function("short", 1) + _function("exact", LIMIT - 1) + _function("long", LIMIT)
              + "# long: one table, row by row\n@staticmethod\n" + _function("told_above", LIMIT)
              + _function("told_after", LIMIT, first="    # long: one table, row by row\n")
              + "class C:\n    def method(self):\n" + _function("inner", LIMIT, "        ") + "        return inner\n")
    assert sorted((name, length) for _, name, length in long_functions(source)) == [
        ("inner", LIMIT + 1), ("long", LIMIT + 1), ("method", LIMIT + 3)]


# --------------------------------------------------------------------------- (f) light packages

# imports each package named on the command line, then prints the heavy modules loaded (a JSON list)
LOADED = """
import importlib, json, sys
for name in sys.argv[1:]:
    importlib.import_module(name)
print(json.dumps(sorted(m for m in sys.modules if m.split(".")[0] in {heavy})))
""".replace("{heavy}", repr(HEAVY))


def packages(root: Path) -> list[str]:
    """The dotted names of ``root`` and every folder below it that holds Python modules."""
    folders = {p.parent for p in root.rglob("*.py") if "__pycache__" not in p.parts}
    return sorted(".".join((root.name, *f.relative_to(root).parts)) for f in folders)


def heavy_on_import(names: list[str], path: Path) -> list[str]:
    """The heavy modules (numpy, numba) loaded by importing the packages ``names`` from ``path``."""
    done = subprocess.run([sys.executable, "-c", LOADED, *names], cwd=path, capture_output=True, text=True,
                          check=True, env={**os.environ, "PYTHONPATH": str(path)})
    return list(json.loads(done.stdout.splitlines()[-1]))


def test_importing_a_package_loads_nothing_heavy() -> None:
    names = packages(PACKAGE)
    assert {"pinochle_cli.estimate", "pinochle_cli.solver", "pinochle_cli.docs"} <= set(names)
    assert heavy_on_import(names, ROOT) == []


def test_a_heavy_package_init_is_seen(tmp_path: Path) -> None:
    (tmp_path / "light" / "heavy").mkdir(parents=True)
    (tmp_path / "light" / "__init__.py").write_text('"""Light."""\n', encoding="utf-8")
    (tmp_path / "light" / "heavy" / "__init__.py").write_text("import numpy\n", encoding="utf-8")
    assert packages(tmp_path / "light") == ["light", "light.heavy"]
    assert heavy_on_import(["light"], tmp_path) == []
    assert "numpy" in heavy_on_import(["light.heavy"], tmp_path)
