"""The exception hierarchy: errors.py stands alone, bad input is a ValueError, a search limit is not,
``relocated`` moves an error without changing its words, and a message keeps the arguments it names apart."""

from __future__ import annotations

import ast
import inspect
import pickle
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pinochle_cli import errors
from pinochle_cli.errors import (
    Argument,
    Message,
    PinochleError,
    PlayError,
    RecordError,
    SchemaError,
    SearchLimitError,
    ServeError,
    SimulationError,
    YamlError,
    as_message,
    relocated,
)
from pinochle_cli.solver.solve import SolveAborted

# the conditions that are not about bad input: the base, a search stopped by its limit, a page that cannot be
# served (its extra missing, no free port)
NOT_INPUT = {PinochleError, SearchLimitError, ServeError}


def _exception_classes() -> list[type[BaseException]]:
    return [c for _, c in inspect.getmembers(errors, inspect.isclass)
            if c.__module__ == errors.__name__ and issubclass(c, BaseException)]


def test_errors_imports_nothing_from_the_package() -> None:
    tree = ast.parse(Path(errors.__file__).read_text(encoding="utf-8"))
    imported: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"line {node.lineno}: a relative import"
            imported.append(node.module or "")
        elif isinstance(node, ast.Import):
            imported.extend(alias.name for alias in node.names)
    assert imported, "the walk found the module's imports"
    for name in imported:
        top = name.split(".")[0]
        assert top == "__future__" or top in sys.stdlib_module_names, name


def test_every_error_derives_from_the_base() -> None:
    classes = _exception_classes()
    assert len(classes) > 10
    for cls in classes:
        assert issubclass(cls, PinochleError), cls.__name__


def test_bad_input_is_a_value_error_and_nothing_else_is() -> None:
    for cls in _exception_classes():
        assert issubclass(cls, ValueError) == (cls not in NOT_INPUT), cls.__name__


def test_a_search_limit_is_not_bad_input() -> None:
    assert SolveAborted is SearchLimitError
    assert not issubclass(SolveAborted, PlayError)
    assert not issubclass(SolveAborted, ValueError)
    assert issubclass(SolveAborted, PinochleError)  # the command line prints it as ``Error: …``


PLACES = {"source": "other.yaml", "line": 40, "deal": 5, "trick": 9, "field": "meld"}


def _place(exc: RecordError) -> dict[str, object]:
    return {"source": exc.source, "line": exc.line, "deal": exc.deal, "trick": exc.trick, "field": exc.field}


def test_relocated_with_nothing_named_says_the_same() -> None:
    exc = RecordError("bid 250 is below the minimum", source="m.yaml", line=12, deal=3, trick=2, field="bid")
    moved = relocated(exc)
    assert moved is not exc
    assert str(moved) == str(exc)
    assert (moved.detail, _place(moved)) == (exc.detail, _place(exc))


places = st.fixed_dictionaries({}, optional={
    "source": st.sampled_from([None, "other.yaml", "<record>"]),
    "line": st.one_of(st.none(), st.integers(1, 999)),
    "deal": st.one_of(st.none(), st.integers(1, 99)),
    "trick": st.one_of(st.none(), st.integers(1, 20)),
    "field": st.one_of(st.none(), st.sampled_from(["bid", "meld", "play", "counters"])),
})


@given(places)
def test_relocated_changes_only_what_is_named(named: dict[str, object]) -> None:
    exc = RecordError("the hands share cards", source="m.yaml", line=12, deal=3, trick=2, field="hands")
    moved = relocated(exc, **named)
    assert moved.detail == exc.detail
    assert _place(moved) == {**_place(exc), **named}
    expected = RecordError(exc.detail, **{**_place(exc), **named})
    assert str(moved) == str(expected)


def test_relocated_replaces_the_detail_only_when_named() -> None:
    exc = RecordError("no trump", source="m.yaml", deal=2, field="trump")
    moved = relocated(exc, detail="no trump (and more)")
    assert str(moved) == "m.yaml: deal 2, trump: no trump (and more)"


def test_relocated_from_yaml_keeps_the_whole_message() -> None:
    exc = YamlError("m.yaml:3:1: not valid YAML: mapping values are not allowed here")
    moved = relocated(exc)
    assert isinstance(moved, RecordError)
    assert str(moved) == moved.detail == str(exc)
    assert _place(moved) == dict.fromkeys(PLACES)


def test_relocated_from_a_schema_error_keeps_its_file_and_line() -> None:
    exc = SchemaError("expected a number", source="m.yaml", line=7, column=5, path="deals[2].bid")
    moved = relocated(exc, deal=3)
    assert _place(moved) == {"source": "m.yaml", "line": 7, "deal": 3, "trick": None, "field": "deals[2].bid"}
    assert str(moved) == "m.yaml:7: deal 3, deals[2].bid: expected a number"


@pytest.mark.parametrize("name", sorted(PLACES))
def test_relocated_none_drops_a_part(name: str) -> None:
    exc = RecordError("x", **PLACES)
    moved = relocated(exc, **{name: None})
    assert _place(moved) == {**PLACES, name: None}


def test_relocated_keeps_the_parameter_at_fault() -> None:
    moved = relocated(RecordError("samples 0: too few", source="a.yaml", parameter="samples"), source="b.yaml")
    assert (moved.parameter, moved.source, moved.detail) == ("samples", "b.yaml", "samples 0: too few")


# --------------------------------------------------------------------------- messages name arguments apart

def _flags(message: Message) -> str:
    return message.worded(lambda a: f"--{a.parameter}" + ("" if a.value in (None, True) else f" {a.value}"))


def test_a_message_names_its_arguments_apart() -> None:
    error = RecordError(Message(Argument("clear", "bid"), ": deal 2 has no bid"), source="a.yaml", deal=2)
    assert str(error) == "a.yaml: deal 2: clear bid: deal 2 has no bid" and error.parameter == "clear"
    assert _flags(error.message) == "a.yaml: deal 2: --clear bid: deal 2 has no bid"
    moved = relocated(error, source="b.yaml")
    assert _flags(moved.message) == "b.yaml: deal 2: --clear bid: deal 2 has no bid"
    force = Message("exists (use ", Argument("force", True, assigned=True), " to replace it)")
    assert (str(force), _flags(force)) == ("exists (use force=True to replace it)", "exists (use --force to replace it)")


def test_a_plain_message_names_no_argument() -> None:
    """Plain text is words only (nothing reads arguments out of it): a message naming one is a ``Message``."""
    assert _flags(as_message("samples 0: give more")) == "samples 0: give more"
    error = SimulationError("seed -1: no", parameter="seed")
    assert (error.message.arguments, error.parameter, _flags(error.message)) == ((), "seed", "seed -1: no")
    named = Message(Argument("samples", 0), ": give more")
    assert as_message(named) is named and _flags(SimulationError(named).message) == "--samples 0: give more"


def _is_text(node: ast.expr) -> bool:
    """Is ``node`` plain text: a string, an f-string, text joined with ``+`` or ``%``, or ``"…".format(…)``?"""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return _is_text(node.left) or _is_text(node.right)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format"
            and _is_text(node.func.value))


def plain_with_parameter(source: str) -> list[int]:
    """The lines of ``source`` where a call passes ``parameter=`` with its message (first argument, or ``message=``
    or ``detail=``) as plain text."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not any(k.arg == "parameter" for k in node.keywords):
            continue
        said = [*node.args[:1], *(k.value for k in node.keywords if k.arg in ("message", "detail"))]
        if any(_is_text(arg) for arg in said):
            lines.append(node.lineno)
    return lines


def test_the_check_finds_a_parameter_beside_plain_text() -> None:
    snippet = (
        'raise SimulationError(f"samples {n}: too few", parameter="samples")\n'
        'raise SimulationError("samples: too few", parameter="samples")\n'
        'raise RecordError(detail + " (and more)", deal=2, parameter="meld")\n'
        'raise RulesetError(message="{}: bad".format(x), parameter="name")\n'
        'raise SimulationError(Message(Argument("samples", n), ": too few"))\n'
        'raise SimulationError(Message("too few"), parameter="samples")\n'
        'raise PlayError(result.error, parameter=result.parameter)\n'
        'raise SimulationError(f"samples {n}: too few")\n'
    )
    assert plain_with_parameter(snippet) == [1, 2, 3, 4]


def test_no_library_raise_passes_a_parameter_with_plain_text() -> None:
    """A message naming the argument at fault is a ``Message`` of its parts, so that a caller words the argument
    its own way (the command line: as its option) without reading text."""
    package = Path(errors.__file__).parent
    found = {str(path.relative_to(package)): lines for path in sorted(package.rglob("*.py"))
             if (lines := plain_with_parameter(path.read_text(encoding="utf-8")))}
    assert found == {}


def test_a_message_crosses_to_a_worker_process_whole() -> None:
    """Solver failures come back from worker processes pickled: the arguments stay apart."""
    error = pickle.loads(pickle.dumps(PlayError(Message(Argument("time_limit", 0), ": give seconds"))))
    assert (str(error), error.parameter, error.message.arguments) == ("time_limit 0: give seconds", "time_limit",
                                                                       (Argument("time_limit", 0),))
