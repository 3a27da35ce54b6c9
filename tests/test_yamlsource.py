"""The YAML reader: the same tree and the same messages with libyaml and without, and bounded work.

The ``parser`` fixture runs each test twice: with libyaml's fast parser (when PyYAML has it) and
with the pure-Python parser forced, as on a machine where PyYAML was installed without libyaml.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_cli import yamlsource
from pinochle_cli.cli import cli
from pinochle_cli.errors import YamlError
from pinochle_cli.yamlsource import MAX_ALIAS_VALUES, MAX_BYTES, MAX_DEPTH, Node, load_node, load_text

FAST = getattr(yaml, "CSafeLoader", None)
PARSERS = ["pure"] + (["libyaml"] if FAST is not None else [])


@pytest.fixture(params=PARSERS)
def parser(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "pure":
        monkeypatch.setattr(yamlsource, "_FAST_LOADER", None)
    yield str(request.param)


def shape(node: Node) -> Any:
    """Everything a caller can see of a tree: kinds, values, raw text and positions."""
    if node.kind == "map":
        return ("map", node.line, node.column, [(k.raw, k.line, k.column, shape(v))
                                                for k, v in node.entries.values()])
    if node.kind == "seq":
        return ("seq", node.line, node.column, [shape(n) for n in node.items])
    return ("scalar", node.line, node.column, node.raw, type(node.value).__name__, node.value)


def outcome(text: str) -> Any:
    try:
        return shape(load_text(text, "x.yaml"))
    except YamlError as exc:
        return str(exc)


@pytest.mark.parametrize(("text", "message"), [
    ("a: &a [*a]", "x.yaml:1:4: an alias (*name) refers to a value that contains it"),
    ("a: &a {b: [1, *a]}", "x.yaml:1:4: an alias (*name) refers to a value that contains it"),
    ("[" * 3000 + "]" * 3000, f"x.yaml:1:{MAX_DEPTH + 1}: nested too deeply (more than {MAX_DEPTH} levels)"),
    ("a: !!int abc", "x.yaml:1:4: 'abc' cannot be read as !!int"),
    ("a: !!float x", "x.yaml:1:4: 'x' cannot be read as !!float"),
    ("a: !!bool maybe", "x.yaml:1:4: 'maybe' cannot be read as !!bool"),
    ("a: !!timestamp junk", "x.yaml:1:4: 'junk' cannot be read as !!timestamp"),
    ("a: !!map x", "x.yaml:1:4: expected a mapping node, but found scalar"),
    ("a: !!python/object:os.system x",
     "x.yaml:1:4: could not determine a constructor for the tag 'tag:yaml.org,2002:python/object:os.system'"),
    ("a: 1\n<<: {b: 2}", "x.yaml:2:1: merge keys (<<) are not supported: write the keys out"),
    ("a: b\x00", "x.yaml:1:5: not valid YAML: the control character U+0000 is not allowed"),
    ("a: 1\nb: [x\n", "x.yaml:3:1: not valid YAML: expected ',' or ']', but got '<stream end>'"),
    ("a: b: c", "x.yaml:1:5: not valid YAML: mapping values are not allowed here"),
    ("\ta: 1", "x.yaml:1:1: not valid YAML: found character '\\t' that cannot start any token"),
    ("a: 1\n---\nb: 2", "x.yaml:2:1: not valid YAML: a second document (---); a file holds one"),
    ("a: *x", "x.yaml:1:4: not valid YAML: the alias *x has no anchor &x before it"),
    ("a: &x 1\nb: &x 2", "x.yaml:2:4: not valid YAML: the anchor &x is defined twice (first at line 1)"),
    ("a: 1\na: 2", "x.yaml:2:1: duplicate key 'a' (first at line 1)"),
    ("? [a]\n: 1", "x.yaml:1:3: a mapping key must be a plain value"),
    ("cards: [Q?, J?]", "x.yaml:1:10: not valid YAML: a '?' inside [...] or {...} needs quotes: write \"Q?\" "
                        "(or leave out the brackets)"),
    ("m: {Ann: Q? J?}", "x.yaml:1:11: not valid YAML: a '?' inside [...] or {...} needs quotes: write \"Q?\" "
                        "(or leave out the brackets)"),
])
def test_yaml_that_broke_the_reader_is_one_located_line(parser: str, text: str, message: str) -> None:
    with pytest.raises(YamlError) as info:
        load_text(text, "x.yaml")
    assert str(info.value) == message


@pytest.mark.parametrize(("text", "expected"), [
    ("cards: [\"Q?\", 'J?']", {"cards": ["Q?", "J?"]}),
    ("cards: Q? J?", {"cards": "Q? J?"}),  # outside brackets a ? is part of the text
    ("a: [9, 10, 1.5, yes, ~]", {"a": [9, 10, 1.5, True, None]}),
    ("a: &x [1, 2]\nb: *x\nc: *x", {"a": [1, 2], "b": [1, 2], "c": [1, 2]}),
    ("deals: !!seq [1]", {"deals": [1]}),
    ("", {}),
])
def test_yaml_reads_as_written(parser: str, text: str, expected: Any) -> None:
    assert load_text(text, "x.yaml").to_python() == expected


def test_ranks_keep_their_text(parser: str) -> None:
    node = load_text("cards: [10, 9, 010]", "x.yaml").get("cards")
    assert node is not None and [n.raw for n in node.items] == ["10", "9", "010"]


def test_an_alias_bomb_stops_at_the_copy_budget(parser: str) -> None:
    lines = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    lines += [f"{c}: &{c} [{', '.join([f'*{p}'] * 10)}]" for p, c in zip("abcdefg", "bcdefgh", strict=True)]
    with pytest.raises(YamlError) as info:
        load_text("\n".join(lines), "x.yaml")
    assert "too large: the aliases (*name) up to here copy" in str(info.value)
    assert str(info.value).endswith(f"values, more than {MAX_ALIAS_VALUES}")


def test_a_long_file_without_aliases_is_not_limited() -> None:
    """A season of deals is a legitimate record: only copies made by aliases count (was: all values)."""
    root = load_text("a: [" + "1," * (MAX_ALIAS_VALUES + 1) + "]", "x.yaml")
    values = root.get("a")
    assert values is not None and len(values.items) == MAX_ALIAS_VALUES + 1


def test_deep_nesting_is_refused_quickly(parser: str) -> None:
    start = time.process_time()
    for text in ("[" * 100_000, "{a: " * 50_000, "".join(f"{' ' * i}a:\n" for i in range(2000))):
        with pytest.raises(YamlError, match=r"nested too deeply \(more than 64 levels\)"):
            load_text(text, "x.yaml")
    assert time.process_time() - start < 5  # was a caught RecursionError after ~60 s


def test_nesting_up_to_the_limit_is_read(parser: str) -> None:
    node = load_text("[" * MAX_DEPTH + "]" * MAX_DEPTH, "x.yaml")
    for _ in range(MAX_DEPTH - 1):
        node = node.items[0]
    assert node.kind == "seq" and node.items == []


def test_a_long_value_is_quoted_briefly() -> None:
    node = load_text("x" * 1_000_000, "x.yaml")
    assert node.describe() == f"{'x' * 40!r}… (1000000 characters)"
    assert load_text("short", "x.yaml").describe() == "'short'"


# ------------------------------------------------------------------ files

def test_a_file_over_the_size_cap_is_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.yaml"
    big.write_bytes(b"a: 1\n" + b"#" * MAX_BYTES)
    with pytest.raises(YamlError, match=r"big\.yaml: too large: more than 4 MB"):
        load_node(str(big))


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_a_device_is_refused_without_reading_it() -> None:
    with pytest.raises(YamlError, match=r"^/dev/zero: cannot read: not a regular file"):
        load_node("/dev/zero")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_a_named_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    with pytest.raises(YamlError, match=r"pipe\.yaml: cannot read: not a regular file"):
        load_node(str(fifo))


def test_a_directory_says_so(tmp_path: Path) -> None:
    with pytest.raises(YamlError, match="cannot read: Is a directory"):
        load_node(str(tmp_path))


# ------------------------------------------------------------------ the two parsers agree

YAMLISH = st.lists(st.sampled_from([*"ab9 10:-,?[]{}\n\"'&*!#|>%@\t.~", "  ", "- ", ": ", "\n  ", "&x ", "*x"]),
                   max_size=30).map("".join)


@pytest.mark.skipif(FAST is None, reason="PyYAML without libyaml: only one parser")
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=YAMLISH)
def test_libyaml_and_the_pure_parser_give_the_same_answer(text: str) -> None:
    fast = outcome(text)
    saved = yamlsource._FAST_LOADER
    yamlsource._FAST_LOADER = None
    try:
        pure = outcome(text)
    finally:
        yamlsource._FAST_LOADER = saved
    assert fast == pure, (text, fast, pure)


def test_the_fast_parser_is_used_when_present() -> None:
    assert (yamlsource._FAST_LOADER is not None) == (FAST is not None)


def test_a_ruleset_that_is_one_long_value_is_quoted_briefly(tmp_path: Path) -> None:
    path = tmp_path / "long.yaml"
    path.write_text("x" * 1_000_000)
    result = CliRunner().invoke(cli, ["meld", "AS", "-r", str(path)], env={"PINOCHLE_RULESET": ""})
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {path}:1:1: a ruleset is a mapping, got {'x' * 40!r}… (1000000 characters)\n")
