"""The package's architecture, checked from its source: no import cycles, no oversized modules, one name one
meaning.

Each rule is a checker over a package on disk that returns what breaks it, a test that ``pinochle_cli`` has
nothing to report beyond a named, temporary allowance, and a test that runs the checker on a small package made
in ``tmp_path`` that breaks the rule, so that a checker that can no longer see anything fails too.

- no import cycle between the package's modules: every ``import`` and ``from … import`` counts, relative or
  absolute, at module level, inside a function or under ``if TYPE_CHECKING:``;
- no module longer than ``MODULE_LIMIT`` lines (a longer one is split along its concerns);
- one name, one meaning: no two modules share a file name (``__init__.py`` aside), and no two modules define a
  public top-level class or type alias (a capitalised name bound at the top of a module that is not a constant in
  capitals) of the same name;
- the benchmarks stand on their own: none imports from the test suite.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pinochle_cli

PACKAGE = Path(pinochle_cli.__file__).resolve().parent
MODULE_LIMIT = 500

# The one exception to "no cycle" that is allowed by design is not an import statement, so the checker does not
# see it: the command line's lazy registry (``cli/__init__.py``, ``COMMANDS``) names each command's module as a
# string, imported with importlib when that command runs, and those modules may import from ``cli`` again.
ALLOWED_CYCLES: list[set[str]] = []
ALLOWED_LONG: set[str] = set()


# --------------------------------------------------------------------------- (a) import cycles

def _modules(package: Path) -> dict[str, Path]:
    """Each module of ``package`` (a folder) by its dotted name, a package by its own name."""
    out = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _imported(name: str, path: Path, node: ast.Import | ast.ImportFrom, modules: dict[str, Path]) -> set[str]:
    """The package's modules one import statement of module ``name`` (file ``path``) imports."""
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names if alias.name in modules}
    base = node.module or ""
    if node.level:
        here = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        base = ".".join(here[:len(here) - node.level + 1] + ([node.module] if node.module else []))
    out = set()
    for alias in node.names:
        if f"{base}.{alias.name}" in modules:
            out.add(f"{base}.{alias.name}")
        elif base in modules:
            out.add(base)
    return out


def import_graph(package: Path) -> dict[str, set[str]]:
    """Which modules of ``package`` each of its modules imports, anywhere in its source."""
    modules = _modules(package)
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        found = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                found |= _imported(name, path, node, modules)
        graph[name] = found - {name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected sets of more than one module (each holds a cycle), by Tarjan's algorithm."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    out: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                out.append(part)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_import_cycle() -> None:
    found = [cycle for cycle in import_cycles(import_graph(PACKAGE)) if cycle not in ALLOWED_CYCLES]
    assert not found, "import cycles: " + "; ".join(" <-> ".join(sorted(cycle)) for cycle in found)


def test_an_import_cycle_is_seen(tmp_path: Path) -> None:
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("", encoding="utf-8")
    (pkg / "sub" / "__init__.py").write_text("from .c import C\n", encoding="utf-8")
    # a imports b at the top; b imports a inside a function: a cycle
    (pkg / "a.py").write_text("from . import b\n", encoding="utf-8")
    (pkg / "b.py").write_text("def f():\n    from .a import x\n    return x\n", encoding="utf-8")
    # c imports d absolutely; d imports c only for type checking, from two levels up: a cycle too
    (pkg / "sub" / "c.py").write_text("import pkg.sub.d\n", encoding="utf-8")
    (pkg / "sub" / "d.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                                      "    from ..sub.c import C\n", encoding="utf-8")
    # e imports a, nothing imports e: no cycle
    (pkg / "e.py").write_text("from pkg import a\nimport os\n", encoding="utf-8")
    graph = import_graph(pkg)
    assert graph["pkg.e"] == {"pkg.a"} and graph["pkg.sub"] == {"pkg.sub.c"}
    assert sorted(sorted(c) for c in import_cycles(graph)) == [["pkg.a", "pkg.b"], ["pkg.sub.c", "pkg.sub.d"]]


# --------------------------------------------------------------------------- (b) module size

def long_modules(package: Path, limit: int) -> dict[str, int]:
    """The modules of ``package`` longer than ``limit`` lines (path below the package: lines)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > limit:
            found[path.relative_to(package).as_posix()] = lines
    return found


def test_no_module_over_the_limit() -> None:
    found = {name: n for name, n in long_modules(PACKAGE, MODULE_LIMIT).items() if name not in ALLOWED_LONG}
    assert not found, f"modules over {MODULE_LIMIT} lines: {found}"


def test_a_long_module_is_seen(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "short.py").write_text("x = 1\n" * MODULE_LIMIT, encoding="utf-8")
    (tmp_path / "sub" / "long.py").write_text("x = 1\n" * (MODULE_LIMIT + 1), encoding="utf-8")
    assert long_modules(tmp_path, MODULE_LIMIT) == {"sub/long.py": MODULE_LIMIT + 1}


# --------------------------------------------------------------------------- (c) one name, one meaning

def shared_file_names(package: Path) -> dict[str, list[str]]:
    """The file names (``__init__.py`` aside) that more than one module of ``package`` has: name: paths."""
    by_name: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        if path.name != "__init__.py":
            by_name.setdefault(path.name, []).append(path.relative_to(package).as_posix())
    return {name: paths for name, paths in by_name.items() if len(paths) > 1}


def _public_types(tree: ast.Module) -> set[str]:
    """The public classes and type aliases bound at the top of a module (under a top-level ``if`` too)."""
    found = set()
    body = [n for node in tree.body for n in ([node, *node.body, *node.orelse] if isinstance(node, ast.If) else [node])]
    for node in body:
        if isinstance(node, ast.ClassDef):
            found.add(node.name)
        elif isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            found |= {t.id for t in targets if isinstance(t, ast.Name) and t.id[:1].isupper() and not t.id.isupper()}
    return {name for name in found if not name.startswith("_")}


def shared_type_names(package: Path) -> dict[str, list[str]]:
    """The public top-level class and type alias names that more than one module of ``package`` defines."""
    by_name: dict[str, list[str]] = {}
    for path in sorted(package.rglob("*.py")):
        for name in _public_types(ast.parse(path.read_text(encoding="utf-8"))):
            by_name.setdefault(name, []).append(path.relative_to(package).as_posix())
    return {name: paths for name, paths in by_name.items() if len(paths) > 1}


def test_no_two_modules_share_a_file_name() -> None:
    assert shared_file_names(PACKAGE) == {}


def test_no_two_modules_share_a_class_or_type_name() -> None:
    assert shared_type_names(PACKAGE) == {}


def test_a_shared_name_is_seen(tmp_path: Path) -> None:
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "a" / "judge.py").write_text("class Question:\n    pass\nJob = tuple[int, int]\n"
                                             "CHUNK = 8\n_Hidden = int\ndef check_bid() -> None: ...\n",
                                             encoding="utf-8")
    (tmp_path / "b" / "judge.py").write_text("from typing import TYPE_CHECKING, TypeVar\nJob = TypeVar('Job')\n"
                                             "CHUNK = 4\n_Hidden = str\ndef check_bid() -> None: ...\n"
                                             "if TYPE_CHECKING:\n    class Question: ...\n", encoding="utf-8")
    (tmp_path / "b" / "other.py").write_text("class Answer:\n    pass\n", encoding="utf-8")
    assert shared_file_names(tmp_path) == {"judge.py": ["a/judge.py", "b/judge.py"]}
    assert shared_type_names(tmp_path) == {"Job": ["a/judge.py", "b/judge.py"],
                                           "Question": ["a/judge.py", "b/judge.py"]}


# --------------------------------------------------------------------------- (d) benchmarks stand on their own

def reaches_into_tests(folder: Path) -> list[str]:
    """The scripts of ``folder`` (benchmarks) that import from the test suite: a ``tests`` folder put on
    ``sys.path``, or a module imported as ``tests.…`` (reading the suite's data is no import)."""
    out = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            named = _puts_tests_on_the_path(node)
            imported = (isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "tests") or (
                isinstance(node, ast.Import) and any(a.name.split(".")[0] == "tests" for a in node.names))
            if named or imported:
                out.append(path.name)
                break
    return out


def _puts_tests_on_the_path(node: ast.AST) -> bool:
    """``sys.path.insert(…)`` or ``sys.path.append(…)`` with ``"tests"`` among its arguments."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("insert", "append") and ast.unparse(node.func.value) == "sys.path"):
        return False
    return any(isinstance(n, ast.Constant) and n.value == "tests" for a in node.args for n in ast.walk(a))


def test_no_benchmark_imports_from_the_tests() -> None:
    assert reaches_into_tests(PACKAGE.parent / "benchmarks") == []


def test_the_benchmark_check_finds_a_script_that_reaches_into_the_tests(tmp_path: Path) -> None:
    (tmp_path / "bench_a.py").write_text('import sys\nsys.path.insert(0, str(ROOT / "tests"))\n', encoding="utf-8")
    (tmp_path / "bench_b.py").write_text("from tests.helpers import x\n", encoding="utf-8")
    (tmp_path / "bench_c.py").write_text('import pinochle_cli\nDATA = ROOT / "tests" / "experts"\n', encoding="utf-8")
    assert reaches_into_tests(tmp_path) == ["bench_a.py", "bench_b.py"]
