"""A small declarative schema: one description gives both the validator and the JSON Schema.

Each type checks a located YAML ``Node`` and returns plain Python data, or raises
``RulesetError`` with ``file:line:column``, the dotted path and what was expected. The same
objects emit a JSON Schema (``to_json``), so the published schema file and the loader cannot
drift apart (a test compares them).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from .errors import RulesetError, SchemaError
from .yamlsource import Node

__all__ = [
    "Bool", "Field", "Int", "MapOf", "Nullable", "Obj", "Pattern", "Schema", "Seq", "Str",
    "Union", "Whatever", "fail",
]


# keys quoted when a mapping has too many
_KEYS_SHOWN = 8


def json_text(document: Mapping[str, Any]) -> str:
    """A JSON Schema document as ``rulesets schema`` and ``record schema`` print it."""
    # here: loading a ruleset or a record needs no JSON (start-up)
    import json

    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def fail(node: Node, path: str, message: str) -> SchemaError:
    return SchemaError(message, source=node.source, line=node.line, column=node.column, path=path)


def _join(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


class Schema:
    """Base type: ``check`` validates and converts; ``to_json`` describes."""

    kinds: tuple[str, ...] = ("scalar",)
    description = "a value"
    # the refusal of a value of the wrong kind
    wrong = "expected {what}, got {got}"

    def check(self, node: Node, path: str) -> Any:
        raise NotImplementedError

    def to_json(self) -> dict[str, Any]:
        raise NotImplementedError

    def expect(self, node: Node, path: str) -> SchemaError:
        return fail(node, path, self.wrong.format(what=self.description, got=node.describe()))

    def check_kind(self, node: Node, path: str) -> None:
        """Refuse a value of the wrong kind (scalar, list, mapping) without checking inside it."""
        if node.kind not in self.kinds:
            raise self.expect(node, path)


class Int(Schema):
    def __init__(self, minimum: int | None = None, maximum: int | None = None, *,
                 description: str | None = None) -> None:
        """With ``description``, a value out of range is refused with it too ("expected a whole number")."""
        self.minimum, self.maximum = minimum, maximum
        self.worded = description is not None
        self.description = description or (
            "an integer" if minimum is None or minimum == 0 else f"an integer of at least {minimum}")

    def check(self, node: Node, path: str) -> int:
        if node.kind != "scalar" or isinstance(node.value, bool) or not isinstance(node.value, int):
            raise self.expect(node, path)
        value = int(node.value)
        if self.worded and not self._within(value):
            raise self.expect(node, path)
        if self.minimum is not None and value < self.minimum:
            raise fail(node, path, f"expected an integer of at least {self.minimum}, got {value}")
        if self.maximum is not None and value > self.maximum:
            raise fail(node, path, f"expected at most {self.maximum}, got {value}")
        return value

    def _within(self, value: int) -> bool:
        return (self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "integer"}
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        return out


class Bool(Schema):
    description = "true or false"

    def check(self, node: Node, path: str) -> bool:
        if node.kind != "scalar" or not isinstance(node.value, bool):
            raise self.expect(node, path)
        return bool(node.value)

    def to_json(self) -> dict[str, Any]:
        return {"type": "boolean"}


class Str(Schema):
    """Text; with ``choices``, one of them. Numbers written bare (``10``) are read as text."""

    def __init__(self, choices: tuple[str, ...] | None = None, *, numbers: bool = False) -> None:
        self.choices = choices
        self.numbers = numbers
        self.description = ("one of " + ", ".join(repr(c) for c in choices)) if choices else "text"

    def check(self, node: Node, path: str) -> str:
        ok = node.kind == "scalar" and (isinstance(node.value, str) or (
            self.numbers and isinstance(node.value, int) and not isinstance(node.value, bool)))
        if not ok:
            raise self.expect(node, path)
        text = node.raw
        if self.choices is not None and text not in self.choices:
            raise self.expect(node, path)
        return text

    def to_json(self) -> dict[str, Any]:
        if self.choices is not None:
            return {"enum": list(self.choices)}
        if self.numbers:
            return {"type": ["string", "integer"]}
        return {"type": "string"}


class Pattern(Schema):
    """Text matching a regular expression (case-insensitive); bare numbers are read as text.
    ``convert``: what the text is made into (a rank's text into a ``Rank``)."""

    def __init__(self, regex: str, description: str, *, convert: Callable[[str], Any] | None = None) -> None:
        self.regex = regex
        self.description = description
        self.convert = convert

    @cached_property
    # compiled on first use: not at every start-up
    def _re(self) -> re.Pattern[str]:
        return re.compile(f"^(?:{self.regex})$", re.IGNORECASE)

    def check(self, node: Node, path: str) -> Any:
        if node.kind != "scalar" or node.value is None or isinstance(node.value, bool):
            raise self.expect(node, path)
        if not self._re.match(node.raw.replace("\ufe0f", "")):
            raise self.expect(node, path)
        return node.raw if self.convert is None else self.convert(node.raw)

    def to_json(self) -> dict[str, Any]:
        return {"type": ["string", "integer"], "pattern": f"(?i)^(?:{self.regex})$"}


class Whatever(Schema):
    """Any value; checked later by whoever uses it (option patches are re-validated whole)."""

    kinds = ("scalar", "seq", "map")
    description = "any value"

    def check(self, node: Node, path: str) -> Node:
        return node

    def to_json(self) -> dict[str, Any]:
        return {}


class Nullable(Schema):
    def __init__(self, inner: Schema) -> None:
        self.inner = inner
        self.kinds = inner.kinds
        self.description = f"{inner.description} or null"

    def check(self, node: Node, path: str) -> Any:
        if node.kind == "scalar" and node.value is None:
            return None
        return self.inner.check(node, path)

    def to_json(self) -> dict[str, Any]:
        return {"anyOf": [self.inner.to_json(), {"type": "null"}]}


class Seq(Schema):
    kinds = ("seq",)

    def __init__(self, item: Schema, *, min_items: int = 0, max_items: int | None = None, unique: bool = False,
                 description: str | None = None, frozen: bool = False) -> None:
        """``frozen``: give a tuple (for a frozen model) rather than a list."""
        self.item, self.min_items, self.max_items = item, min_items, max_items
        self.unique, self.frozen = unique, frozen
        self.description = description or f"a list of {item.description}"

    def check(self, node: Node, path: str) -> list[Any] | tuple[Any, ...]:
        if node.kind != "seq":
            raise self.expect(node, path)
        if len(node.items) < self.min_items:
            raise fail(node, path, f"expected at least {self.min_items} item(s), got {len(node.items)}")
        if self.max_items is not None and len(node.items) > self.max_items:
            raise fail(node, path, f"expected at most {self.max_items} items, got {len(node.items)}")
        out = [self.item.check(n, f"{path}[{i}]") for i, n in enumerate(node.items)]
        if self.unique:
            seen: dict[str, int] = {}
            for i, n in enumerate(node.items):
                key = str(out[i]).upper()
                if key in seen:
                    raise fail(n, f"{path}[{i}]", f"{n.raw!r} is listed twice")
                seen[key] = i
        return tuple(out) if self.frozen else out

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "array", "items": self.item.to_json()}
        if self.min_items:
            out["minItems"] = self.min_items
        if self.max_items is not None:
            out["maxItems"] = self.max_items
        return out


class Union(Schema):
    """The first alternative whose kind (scalar, list, mapping) fits the value."""

    def __init__(self, *options: Schema, description: str | None = None) -> None:
        self.options = options
        self.kinds = tuple(k for o in options for k in o.kinds)
        self.description = description or " or ".join(o.description for o in options)

    def check(self, node: Node, path: str) -> Any:
        fitting = [o for o in self.options if node.kind in o.kinds]
        if not fitting:
            raise self.expect(node, path)
        last: RulesetError | None = None
        for option in fitting:
            try:
                return option.check(node, path)
            except RulesetError as exc:
                last = exc if last is None else last
        assert last is not None
        if len(fitting) > 1:
            raise self.expect(node, path)
        raise last

    def to_json(self) -> dict[str, Any]:
        return {"anyOf": [o.to_json() for o in self.options]}


@dataclass(frozen=True)
class Field:
    """A key of an ``Obj``. ``prefix``: the value, a mapping, is not kept under the key; its keys join
    the parent's, each with the prefix (``trump: {source: …}`` gives ``trump_source``)."""

    schema: Schema
    required: bool = False
    doc: str = ""
    prefix: str | None = None


class Obj(Schema):
    """A mapping with known keys; unknown keys are refused at their own line."""

    kinds = ("map",)

    def __init__(self, fields: Mapping[str, Field], description: str = "a mapping",
                 post: Callable[[dict[str, Any], Node, str], None] | None = None, *,
                 wrong: str | None = None, unknown: str = "unknown key {key!r} (expected one of: {known})",
                 build: Callable[..., Any] | None = None) -> None:
        """``wrong`` and ``unknown``: how to word a value that is not a mapping, and a key not listed.
        ``build``: what the checked keys are made into (a model class called with them by name)."""
        self.fields = dict(fields)
        self.description = description
        self.post = post
        self.build = build
        self.wrong = wrong or Schema.wrong
        self.unknown_wording = unknown

    def unknown(self, node: Node) -> list[tuple[str, Node, str]]:
        """Each key of the mapping ``node`` that is not a field: (key, its node, its refusal)."""
        known = ", ".join(self.fields)
        return [(key, key_node, self.unknown_wording.format(key=key, known=known))
                for key, (key_node, _) in node.entries.items() if key not in self.fields]

    def check(self, node: Node, path: str) -> Any:
        if node.kind != "map":
            raise self.expect(node, path)
        for key, key_node, message in self.unknown(node):
            raise fail(key_node, _join(path, key), message)
        out: dict[str, Any] = {}
        for key, spec in self.fields.items():
            child = node.get(key)
            if child is None:
                if spec.required:
                    raise fail(node, _join(path, key), "missing (required)")
                continue
            value = spec.schema.check(child, _join(path, key))
            if spec.prefix is None:
                out[key] = value
            elif value is not None:
                out.update((spec.prefix + k, v) for k, v in value.items())
        if self.post is not None:
            self.post(out, node, path)
        return out if self.build is None else self.build(**out)

    def to_json(self) -> dict[str, Any]:
        props: dict[str, Any] = {}
        for key, spec in self.fields.items():
            js = spec.schema.to_json()
            if spec.doc:
                js = {**js, "description": spec.doc}
            props[key] = js
        out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
        required = [k for k, f in self.fields.items() if f.required]
        if required:
            out["required"] = required
        return out


class MapOf(Schema):
    """A mapping whose keys are free (names, ranks) and whose values share one type."""

    kinds = ("map",)

    def __init__(self, value: Schema, key: Schema | None = None, *, min_items: int = 0,
                 max_items: int | None = None, description: str | None = None, typed_keys: bool = False,
                 named: Callable[[str, Any], Any] | None = None) -> None:
        """``typed_keys``: the keys are what ``key`` makes of them (a rank's text → a ``Rank``).
        ``named``: each entry is made into one model from its key and value (a combination named by its
        key); the mapping becomes a tuple of them, in order."""
        self.value, self.key, self.min_items, self.max_items = value, key, min_items, max_items
        self.typed_keys, self.named = typed_keys, named
        self.description = description or f"a mapping of {value.description}"

    def check(self, node: Node, path: str) -> Any:
        if node.kind != "map":
            raise self.expect(node, path)
        if len(node.entries) < self.min_items:
            raise fail(node, path, f"expected at least {self.min_items} entr{'y' if self.min_items == 1 else 'ies'}")
        if self.max_items is not None and len(node.entries) > self.max_items:
            keys = ", ".join(repr(k) for k in list(node.entries)[:_KEYS_SHOWN])
            more = ", …" if len(node.entries) > _KEYS_SHOWN else ""
            raise fail(node, path, f"expected at most {self.max_items} entr{'y' if self.max_items == 1 else 'ies'}, "
                                   f"got {len(node.entries)} ({keys}{more})")
        out: dict[Any, Any] = {}
        for key, (key_node, value_node) in node.entries.items():
            typed = self.key.check(key_node, _join(path, key)) if self.key is not None else key
            out[typed if self.typed_keys else key] = self.value.check(value_node, _join(path, key))
        return out if self.named is None else tuple(self.named(k, v) for k, v in out.items())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "object", "additionalProperties": self.value.to_json()}
        if self.key is not None:
            key_js = self.key.to_json()
            if "pattern" in key_js:
                out["propertyNames"] = {"pattern": key_js["pattern"]}
            elif "enum" in key_js:
                out["propertyNames"] = {"enum": key_js["enum"]}
        if self.min_items:
            out["minProperties"] = self.min_items
        if self.max_items is not None:
            out["maxProperties"] = self.max_items
        return out
