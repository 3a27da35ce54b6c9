"""Safe YAML reading that remembers where every value came from.

PyYAML's safe parser turns the text into events (libyaml's fast C parser when PyYAML was built
with it, the pure-Python one otherwise) and ``_Composer`` builds ``Node`` values from them
without recursion: each keeps the scalar's raw text (so ``9`` and ``10`` can be read as ranks,
never silently as integers) and its line and column for error messages.

What a file can make the reader do is bounded before the work is done: files larger than
``MAX_BYTES`` and special files (devices, pipes) are refused, collections nested deeper than
``MAX_DEPTH`` are refused as soon as the parser reaches that depth, and aliases (``*name``) may
copy at most ``MAX_ALIAS_VALUES`` values in all. Duplicate keys and merge keys are refused.

The two parsers word their errors differently and disagree on a few corner cases, so a text
the fast parser refuses is read again by the pure one, whose message is the one shown: the
messages and their line and column do not depend on how PyYAML was installed.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

import yaml

from .errors import RecordError, YamlError

__all__ = ["MAX_ALIAS_VALUES", "MAX_BYTES", "MAX_DEPTH", "Node", "YamlError", "load_node", "load_text",
           "check_distinct", "open_nonblocking", "read_capped", "read_source"]

# a season of deals is well under 1 MB
MAX_BYTES = 4 * 1024 * 1024
# rulesets and records nest 6 levels deep
MAX_DEPTH = 64
# values copied by aliases (a "billion laughs" stops here)
MAX_ALIAS_VALUES = 200_000
# characters of a long scalar quoted in a message
_SHOWN = 40

# None: PyYAML without libyaml
_FAST_LOADER: type[Any] | None = getattr(yaml, "CSafeLoader", None)
# tabs the pure parser refuses more often; line breaks counted differently
_PURE_ONLY = "\t\x85\u2028\u2029"


@dataclass
class Node:
    """A YAML value with its position: ``kind`` is ``map``, ``seq`` or ``scalar``.

    A value reached through an alias (``*name``) is the anchored node itself, shared.
    """

    kind: str
    source: str
    line: int
    column: int
    # python value for scalars (None, bool, int, float, str)
    value: Any = None
    # the scalar's text as written
    raw: str = ""
    items: list[Node] = field(default_factory=list)
    # key text -> (key, value)
    entries: dict[str, tuple[Node, Node]] = field(default_factory=dict)

    @property
    def where(self) -> str:
        return f"{self.source}:{self.line}:{self.column}"

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
        """How the value looks to a user, for 'got …' in messages (a long text is cut short)."""
        if self.kind == "map":
            return "a mapping"
        if self.kind == "seq":
            return "a list"
        if self.value is None:
            return "nothing (null)"
        if len(self.raw) > _SHOWN:
            return f"{self.raw[:_SHOWN]!r}… ({len(self.raw)} characters)"
        return repr(self.raw) if isinstance(self.value, str) else self.raw


_CONSTRUCTOR = yaml.SafeLoader("")
_RESOLVE: Callable[..., str] = yaml.resolver.Resolver().resolve
_NOT_PRINTABLE = yaml.reader.Reader.NON_PRINTABLE
_HEADER_COMMENT = re.compile(r"[^ ]#")
# characters the pure scanner may read past a value (a simple key is at most 1024)
_LOOKAHEAD = 1100


class _Open:
    """A collection being composed: its node, the key waiting for its value, its size so far."""

    __slots__ = ("anchor", "flow", "key", "node", "size")

    def __init__(self, node: Node, anchor: str | None, flow: bool) -> None:
        self.node = node
        self.anchor = anchor
        self.flow = flow
        self.key: Node | None = None
        self.size = 1


class _AskThePureParser(Exception):
    """The fast parser met something it places differently (an empty value's position)."""


class _Composer:
    """Builds the ``Node`` tree from parser events without recursion, bounding depth and alias copies."""

    def __init__(self, text: str, source: str, fast: bool) -> None:
        self.text = text
        self.fast = fast
        self.source = source
        self.stack: list[_Open] = []
        # anchor -> (node, values in it)
        self.anchors: dict[str, tuple[Node, int]] = {}
        # collections not finished yet (an alias to one is a cycle)
        self.open_ids: set[int] = set()
        # values copied by aliases so far
        self.copied = 0
        # (tag, text, implicit) -> value: each read once
        self.scalars: dict[tuple[Any, ...], Any] = {}
        self.root: Node | None = None
        self.documents = 0

    def at(self, mark: Any) -> str:
        return f"{self.source}:{mark.line + 1}:{mark.column + 1}"

    def feed(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.ScalarEvent):
            node = self.scalar(event)
            self.name(event.anchor, node, 1, event)
            self.attach(node, 1)
        elif isinstance(event, yaml.CollectionStartEvent):
            self.start(event)
        elif isinstance(event, yaml.CollectionEndEvent):
            done = self.stack.pop()
            self.open_ids.discard(id(done.node))
            if done.anchor is not None:
                self.anchors[done.anchor] = (done.node, done.size)
            self.attach(done.node, done.size)
        elif isinstance(event, yaml.AliasEvent):
            self.attach(*self.alias(event))
        elif isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                raise YamlError(f"{self.at(event.start_mark)}: not valid YAML: a second document (---); "
                                f"a file holds one")

    def start(self, event: yaml.CollectionStartEvent) -> None:
        if len(self.stack) >= MAX_DEPTH:
            raise YamlError(f"{self.at(event.start_mark)}: nested too deeply (more than {MAX_DEPTH} levels)")
        mark: Any = event.start_mark
        if self.fast:
            self.check_fast(event, mark)
        kind = "seq" if isinstance(event, yaml.SequenceStartEvent) else "map"
        node = Node(kind, self.source, mark.line + 1, mark.column + 1)
        self.name(event.anchor, node, 1, event)
        self.stack.append(_Open(node, event.anchor, bool(event.flow_style)))
        self.open_ids.add(id(node))

    def name(self, anchor: str | None, node: Node, size: int, event: yaml.NodeEvent) -> None:
        if anchor is None:
            return
        if anchor in self.anchors:
            first = self.anchors[anchor][0]
            raise YamlError(f"{self.at(event.start_mark)}: not valid YAML: the anchor &{anchor} is defined twice "
                            f"(first at line {first.line})")
        self.anchors[anchor] = (node, size)

    def alias(self, event: yaml.AliasEvent) -> tuple[Node, int]:
        found = self.anchors.get(event.anchor or "")
        if found is None:
            raise YamlError(f"{self.at(event.start_mark)}: not valid YAML: the alias *{event.anchor} has no "
                            f"anchor &{event.anchor} before it")
        node, size = found
        if id(node) in self.open_ids:
            raise YamlError(f"{node.where}: an alias (*name) refers to a value that contains it")
        self.copied += size
        if self.copied > MAX_ALIAS_VALUES:
            raise YamlError(f"{self.at(event.start_mark)}: too large: the aliases (*name) up to here copy "
                            f"{self.copied} values, more than {MAX_ALIAS_VALUES}")
        return node, size

    def attach(self, node: Node, size: int) -> None:
        if not self.stack:
            self.root = node
            return
        parent = self.stack[-1]
        parent.size += size
        if parent.node.kind == "seq":
            parent.node.items.append(node)
        elif parent.key is None:
            if node.kind != "scalar":
                raise YamlError(f"{node.where}: a mapping key must be a plain value")
            parent.key = node
        else:
            key, parent.key = parent.key, None
            entries = parent.node.entries
            if key.raw in entries:
                raise YamlError(f"{key.where}: duplicate key {key.raw!r} (first at line {entries[key.raw][0].line})")
            entries[key.raw] = (key, node)

    def scalar(self, event: yaml.ScalarEvent) -> Node:
        start: Any = event.start_mark
        line, column = start.line + 1, start.column + 1
        if self.fast:
            self.check_fast(event, start)
        key = (event.tag, event.value, event.implicit)
        if key not in self.scalars:
            self.scalars[key] = self.read_scalar(event, start)
        return Node("scalar", self.source, line, column, value=self.scalars[key], raw=event.value)

    def read_scalar(self, event: yaml.ScalarEvent, start: Any) -> Any:
        where = f"{self.source}:{start.line + 1}:{start.column + 1}"
        tag = event.tag
        if tag is None or tag == "!":
            tag = _RESOLVE(yaml.ScalarNode, event.value, event.implicit)
        if tag == "tag:yaml.org,2002:merge":
            raise YamlError(f"{where}: merge keys (<<) are not supported: write the keys out")
        return _scalar_value(yaml.ScalarNode(tag, event.value, start, None, event.style), where)

    def check_fast(self, event: yaml.NodeEvent, start: Any) -> None:
        """Hand the text to the pure parser where libyaml reads it differently: an empty value (placed
        where the next token starts), ``Q?`` in brackets (a complete value for libyaml only), a block
        scalar header with a comment not after a space, an unusual tag handle."""
        tag = getattr(event, "tag", None)
        if tag not in (None, "!") and not str(tag).startswith("tag:yaml.org,2002:"):
            raise _AskThePureParser
        if not isinstance(event, yaml.ScalarEvent):
            return
        if not event.style and (not event.value or ("?" in event.value and self.stack and self.stack[-1].flow)):
            raise _AskThePureParser
        if event.style in ("|", ">"):
            index = self.text.find(event.style, int(start.index))
            end = self.text.find("\n", index)
            if _HEADER_COMMENT.search(self.text[index:] if end < 0 else self.text[index:end]):
                raise _AskThePureParser


def _question_mark(source: str, line: int, column: int) -> str:
    return (f"{source}:{line + 1}:{column + 1}: not valid YAML: a '?' inside [...] or {{...}} needs quotes: "
            f"write \"Q?\" (or leave out the brackets)")


def _scalar_value(node: yaml.ScalarNode, where: str) -> Any:
    try:
        value = _CONSTRUCTOR.construct_object(node, deep=True)
    except yaml.MarkedYAMLError as exc:
        raise YamlError(f"{where}: {exc.problem or exc.context or 'cannot read this value'}") from None
    except (yaml.YAMLError, ValueError, TypeError, KeyError, AttributeError, OverflowError):
        # an explicit tag the text does not fit, e.g. ``!!int abc`` or ``!!bool maybe``
        tag = node.tag.rsplit(":", 1)[-1]
        raise YamlError(f"{where}: {node.value!r} cannot be read as !!{tag}") from None
    if not isinstance(value, (type(None), bool, int, float, str)):
        # timestamps, binary …: keep the text
        value = node.value
    return value


def _compose(text: str, source: str, loader: type[Any]) -> Node | None:
    composer = _Composer(text, source, loader is not yaml.SafeLoader)
    events = yaml.parse(text, Loader=loader)
    at = 0
    try:
        for event in events:
            mark: Any = event.start_mark
            at = int(mark.index)
            composer.feed(event)
    except YamlError:
        if composer.fast:
            _look_ahead(composer, events, at + _LOOKAHEAD)
        raise
    return composer.root


def _look_ahead(composer: _Composer, events: Iterator[yaml.Event], until: int) -> None:
    """The pure parser reads a little ahead of the value it returns, and would report a syntax error
    there before this value's error: read as far with libyaml, and hand trouble to the pure parser."""
    for event in events:
        mark: Any = event.start_mark
        if int(mark.index) > until:
            return
        if isinstance(event, yaml.NodeEvent):
            composer.check_fast(event, mark)


def _fast_path_fits(text: str) -> bool:
    """libyaml gives the pure parser's answer: no control characters (the pure reader refuses them up
    front), no tabs and none of the line breaks the two count differently."""
    return (_FAST_LOADER is not None and _NOT_PRINTABLE.search(text) is None
            and not any(ch in text for ch in _PURE_ONLY))


def _compose_pure(text: str, source: str) -> Node | None:
    try:
        return _compose(text, source, yaml.SafeLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark
        if mark is not None and str(exc.problem).endswith("but got '?'"):
            raise YamlError(_question_mark(source, mark.line, mark.column)) from None
        where = f"{source}:{mark.line + 1}:{mark.column + 1}" if mark else source
        raise YamlError(f"{where}: not valid YAML: {exc.problem or exc}") from None
    # a control character: say where, on one line
    except yaml.reader.ReaderError as exc:
        pos = exc.position
        line, column = text.count("\n", 0, pos) + 1, pos - text.rfind("\n", 0, pos)
        code = exc.character if isinstance(exc.character, int) else ord(str(exc.character)[:1] or "\0")
        raise YamlError(f"{source}:{line}:{column}: not valid YAML: the control character U+{code:04X} is not "
                        f"allowed") from None
    except yaml.YAMLError as exc:
        raise YamlError(f"{source}: not valid YAML: {' '.join(str(exc).split())}") from None


def load_text(text: str, source: str) -> Node:
    """Parse one YAML document; an empty document is an empty mapping."""
    root: Node | None = None
    if _fast_path_fits(text):
        try:
            root = _compose(text, source, _FAST_LOADER)  # type: ignore[arg-type]
        # the pure parser words the message
        except (yaml.YAMLError, UnicodeError, _AskThePureParser):
            root = _compose_pure(text, source)
    else:
        root = _compose_pure(text, source)
    return Node("map", source, 1, 1) if root is None else root


def read_capped(fh: IO[bytes], path: str) -> bytes:
    """The contents of an open file; ``YamlError`` if it is not a regular file or larger than ``MAX_BYTES``."""
    mode = os.fstat(fh.fileno()).st_mode
    if stat.S_ISDIR(mode):
        raise YamlError(f"{path}: cannot read: {os.strerror(errno.EISDIR)}")
    if not stat.S_ISREG(mode):
        raise YamlError(f"{path}: cannot read: not a regular file (a device, a pipe or a socket)")
    data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise YamlError(f"{path}: too large: more than {MAX_BYTES // (1024 * 1024)} MB (a ruleset or a record is "
                        f"a small text file)")
    return data


def open_nonblocking(path: str) -> IO[bytes]:
    """Open for reading without waiting on a named pipe (``read_capped`` then refuses it)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    return os.fdopen(fd, "rb")


def read_source(path: str) -> str:
    """The text of a ruleset or record file, read the one safe way every reader uses.

    Raises ``YamlError`` naming ``path`` when it cannot be opened, is not a regular file (a
    device such as ``/dev/zero``, a named pipe: refused without waiting), is larger than
    ``MAX_BYTES`` (refused after reading at most one byte more) or is not UTF-8.
    """
    try:
        with open_nonblocking(path) as fh:
            data = read_capped(fh, path)
    except OSError as exc:
        raise YamlError(f"{path}: cannot read: {exc.strerror or exc}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise YamlError(f"{path}: not UTF-8 text") from None


def load_node(path: str) -> Node:
    """Read (``read_source``) and parse a YAML file; unreadable files are a ``YamlError`` naming the path."""
    return load_text(read_source(path), path)


def check_distinct(paths: Sequence[str]) -> None:
    """Refuse one file given twice (``night.yaml`` and ``./night.yaml``, a link to it): a game counted twice.

    Files are compared by identity (device and inode, where the system has them) and by their resolved
    path; a file that cannot be read is left to the reader. Raises ``RecordError`` naming both.
    """
    seen: dict[tuple[int, int] | str, str] = {}
    for path in paths:
        try:
            info = os.stat(path)
        except (OSError, ValueError):
            continue
        keys: list[tuple[int, int] | str] = [os.path.normcase(os.path.realpath(path))]
        if info.st_ino:
            keys.append((info.st_dev, info.st_ino))
        first = next((seen[k] for k in keys if k in seen), None)
        if first is not None:
            raise RecordError(f"{first} and {path} are the same file: give each game once (it would count twice)")
        seen.update(dict.fromkeys(keys, path))
