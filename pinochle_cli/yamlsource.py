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


def _convert(node: yaml.Node, source: str) -> Node:
    line, column = node.start_mark.line + 1, node.start_mark.column + 1
    if isinstance(node, yaml.MappingNode):
        out = Node("map", source, line, column)
        for key_node, value_node in node.value:
            key = _convert(key_node, source)
            if key.kind != "scalar":
                raise YamlError(f"{key.where}: a mapping key must be a plain value")
            text = key.raw
            if text in out.entries:
                first = out.entries[text][0]
                raise YamlError(f"{key.where}: duplicate key {text!r} (first at line {first.line})")
            out.entries[text] = (key, _convert(value_node, source))
        return out
    if isinstance(node, yaml.SequenceNode):
        out = Node("seq", source, line, column)
        out.items = [_convert(n, source) for n in node.value]
        return out
    assert isinstance(node, yaml.ScalarNode)
    try:
        value = _scalar_value(node)
    except yaml.YAMLError as exc:
        raise YamlError(f"{source}:{line}:{column}: {exc}") from None
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
    except yaml.YAMLError as exc:
        raise YamlError(f"{source}: not valid YAML: {exc}") from None
    if root is None:
        return Node("map", source, 1, 1)
    return _convert(root, source)


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
