"""Safe YAML reading that remembers where every value came from.

PyYAML's safe composer builds the node tree; ``to_node`` turns it into ``Node`` values that
keep the scalar's raw text (so ``9`` and ``10`` can be read as ranks, never silently as
integers) and its line and column for error messages. Duplicate keys are refused.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import yaml

from .errors import PinochleError

__all__ = ["Node", "YamlError", "load_node", "load_text"]


class YamlError(PinochleError):
    """Text that is not YAML, or YAML with a duplicate key or an unsupported construct."""


@dataclass
class Node:
    """A YAML value with its position: ``kind`` is ``map``, ``seq`` or ``scalar``."""

    kind: str
    source: str
    line: int
    column: int
    value: Any = None  # python value for scalars (None, bool, int, float, str)
    raw: str = ""  # the scalar's text as written
    items: list[Node] = field(default_factory=list)
    entries: dict[str, tuple[Node, Node]] = field(default_factory=dict)  # key text -> (key, value)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"

    def keys(self) -> Iterator[str]:
        return iter(self.entries)

    def get(self, key: str) -> Node | None:
        pair = self.entries.get(key)
        return pair[1] if pair else None

    def to_python(self) -> Any:
        if self.kind == "map":
            return {k: v.to_python() for k, (_, v) in self.entries.items()}
        if self.kind == "seq":
            return [n.to_python() for n in self.items]
        return self.value

    def describe(self) -> str:
        """How the value looks to a user, for 'got …' in messages."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.value is None:
            return "nothing (null)"
        return repr(self.raw) if isinstance(self.value, str) else self.raw


_CONSTRUCTOR = yaml.SafeLoader("")


def _scalar_value(node: yaml.ScalarNode) -> Any:
    return _CONSTRUCTOR.construct_object(node, deep=True)


MAX_VALUES = 200_000  # values in a document once aliases are expanded (a "billion laughs" stops here)


class _Budget:
    """What a conversion may still do: values left, and the collections being converted (cycles)."""

    def __init__(self) -> None:
        self.left = MAX_VALUES
        self.open: set[int] = set()


def _convert(node: yaml.Node, source: str, budget: _Budget | None = None) -> Node:
    budget = budget or _Budget()
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    budget.left -= 1
    if budget.left < 0:
        raise YamlError(f"{source}:{line}:{column}: too large: more than {MAX_VALUES} values once aliases "
                        f"(*name) are expanded")
    if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)):
        if id(node) in budget.open:
            raise YamlError(f"{source}:{line}:{column}: an alias (*name) refers to a value that contains it")
        budget.open.add(id(node))
        try:
            return _convert_collection(node, source, budget, line, column)
        finally:
            budget.open.discard(id(node))
    return _convert_scalar(node, source, line, column)


def _convert_collection(node: yaml.MappingNode | yaml.SequenceNode, source: str, budget: _Budget, line: int,
                        column: int) -> Node:
    if isinstance(node, yaml.MappingNode):
        out = Node("map", source, line, column)
        for key_node, value_node in node.value:
            key = _convert(key_node, source, budget)
            if key.kind != "scalar":
                raise YamlError(f"{key.where}: a mapping key must be a plain value")
            text = key.raw
            if text in out.entries:
                first = out.entries[text][0]
                raise YamlError(f"{key.where}: duplicate key {text!r} (first at line {first.line})")
            out.entries[text] = (key, _convert(value_node, source, budget))
        return out
    out = Node("seq", source, line, column)
    out.items = [_convert(n, source, budget) for n in node.value]
    return out


def _convert_scalar(node: yaml.Node, source: str, line: int, column: int) -> Node:
    assert isinstance(node, yaml.ScalarNode)
    if node.tag == "tag:yaml.org,2002:merge":
        raise YamlError(f"{source}:{line}:{column}: merge keys (<<) are not supported: write the keys out")
    try:
        value = _scalar_value(node)
    except yaml.MarkedYAMLError as exc:
        raise YamlError(f"{source}:{line}:{column}: {exc.problem or exc.context or 'cannot read this value'}") from None
    except (yaml.YAMLError, ValueError, TypeError, KeyError, AttributeError, OverflowError):
        # an explicit tag the text does not fit, e.g. ``!!int abc`` or ``!!bool maybe``
        tag = node.tag.rsplit(":", 1)[-1]
        raise YamlError(f"{source}:{line}:{column}: {node.value!r} cannot be read as !!{tag}") from None
    if not isinstance(value, (type(None), bool, int, float, str)):
        value = node.value  # timestamps, binary …: keep the text
    return Node("scalar", source, line, column, value=value, raw=node.value)


def load_text(text: str, source: str) -> Node:
    """Parse one YAML document; an empty document is an empty mapping."""
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise YamlError(f"{where}: not valid YAML: {exc.problem or exc}") from None
    except yaml.reader.ReaderError as exc:  # a control character: say where, on one line
        pos = exc.position
        line, column = text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise YamlError(f"{source}:{line}:{column}: not valid YAML: the control character U+{code:04X} is not "
                        f"allowed") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{source}: not valid YAML: {' '.join(str(exc).split())}") from None
    except RecursionError:
        raise YamlError(f"{source}: nested too deeply") from None
    if root is None:
        return Node("map", source, 1, 1)
    try:
        return _convert(root, source)
    except RecursionError:
        raise YamlError(f"{source}: nested too deeply") from None


def load_node(path: str) -> Node:
    """Read and parse a YAML file; unreadable files are a ``YamlError`` naming the path."""
    try:
        with open(path, encoding="utf-8") as fh:
            text = fh.read()
    except OSError as exc:
        raise YamlError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise YamlError(f"{path}: not UTF-8 text") from None
    return load_text(text, path)
