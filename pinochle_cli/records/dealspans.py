"""Where the deals of a record's text are, line for line, and a changed text checked against the old.

``deal_spans(text)`` reads a block-style record (each deal a ``- `` item starting its own line) into
``DealSpans``: the text with ``\n`` line ends, each deal's own lines, where the lines before the first deal
start, and the record's YAML nodes; ``DealSpans.excerpt`` reads one deal with the table and rules alone (a long
record is not read whole). ``checked_change`` reads a changed text back and refuses it unless the deals before
and after the change, and everything outside the deals, are written as they were. Both raise ``RecordError``
naming the file (and the line where one is at fault): a record that is not YAML, has no deals, or whose deals
are not such a list; a change that would touch the rest of the file.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import yaml

from ..errors import RecordError, YamlError, relocated
from ..yamlsource import Node, load_text
from .writer import FAST_LOADER, _end, _line_after

__all__ = ["DealSpans", "checked_change", "deal_nodes", "deal_spans", "next_line", "with_deals"]


@dataclass(frozen=True)
class DealSpans:
    """The deals of a block-style record: each deal's own lines, and where the first one may start."""

    # the text with "\n" line ends
    body: str
    newline: str
    # [start, end) of each deal's lines
    spans: tuple[tuple[int, int], ...]
    # where the lines before the first deal start (the line after ``deals:``; -1 for ``deals: []``)
    first: int
    # the whole record as YAML nodes
    composed: yaml.Node | None
    # each deal's node
    deals: tuple[yaml.Node, ...]
    source: str

    def excerpt(self, number: int) -> Node:
        """The record read as the reader reads it, with deal ``number`` its only deal.

        The other deals are left out before reading, so a long record is not read whole.
        """
        start, end = self.spans[number - 1]
        head, tail = self.spans[0][0], self.spans[-1][1]
        try:
            return _load(self.body[:head] + self.body[start:end] + self.body[tail:], self.source)
        # an alias to an anchor in another deal: read the whole record
        except RecordError:
            whole = _load(self.body, self.source)
            return with_deals(whole, deal_nodes(whole)[number - 1:number])

    def gap_start(self, index: int) -> int:
        """Where the lines that belong to deal ``index`` (0-based) start: the end of the deal before it."""
        return self.spans[index - 1][1] if index else self.first


def with_deals(root: Node, deals: list[Node]) -> Node:
    """``root`` with ``deals`` as its list of deals (none: the table and the rules alone)."""
    found = root.get("deals")
    if found is None or found.kind != "seq":
        return root
    entries = dict(root.entries)
    entries["deals"] = (entries["deals"][0], dataclasses.replace(found, items=deals))
    return dataclasses.replace(root, entries=entries)


def _line_start(text: str, index: int) -> int:
    return text.rfind("\n", 0, index) + 1


def next_line(text: str, index: int) -> int:
    """The start of the line after the one holding ``index`` (len(text) at the end)."""
    cut = text.find("\n", index)
    return len(text) if cut < 0 else cut + 1


def _compose(body: str, source: str) -> yaml.Node | None:
    try:
        return yaml.compose(body, Loader=FAST_LOADER)
    except yaml.YAMLError:
        # the reader's own message, with the line and column
        try:
            load_text(body, source)
        except YamlError as exc:
            raise relocated(exc) from None
        raise  # pragma: no cover - the two loaders agree on what is YAML


def deal_spans(text: str, source: str) -> DealSpans:
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text.replace("\r\n", "\n")
    root = _compose(body, source)
    found = [(k, v) for k, v in (root.value if isinstance(root, yaml.MappingNode) else [])
             if isinstance(k, yaml.ScalarNode) and k.value == "deals"]
    if not found:
        raise RecordError("the record has no deals", source=source)
    key, deals = found[-1]
    first = _line_after(body, int(key.end_mark.index))
    if isinstance(deals, yaml.ScalarNode) and deals.tag.endswith(":null"):
        return DealSpans(body, newline, (), first, root, (), source)
    if isinstance(deals, yaml.SequenceNode) and deals.flow_style and not deals.value:
        # ``deals: []``: nowhere to put a block back
        return DealSpans(body, newline, (), -1, root, (), source)
    if not isinstance(deals, yaml.SequenceNode) or deals.flow_style or getattr(root, "flow_style", False):
        raise RecordError("the deals are not written as a block list (one `- ` line starting each deal): "
                          "undo, redo and edit change only such a list", source=source,
                          line=int(deals.start_mark.line) + 1, field="deals")
    spans = []
    for item in deals.value:
        start = _line_start(body, int(item.start_mark.index))
        if body[start:int(item.start_mark.index)].strip(" ") != "-":
            raise RecordError("a deal does not start its own line with `- `", source=source,
                              line=int(item.start_mark.line) + 1, field="deals")
        spans.append((start, _line_after(body, _end(item))))
    return DealSpans(body, newline, tuple(spans), first, root, tuple(deals.value), source)


def _load(text: str, source: str) -> Node:
    try:
        return load_text(text, source)
    except YamlError as exc:
        raise relocated(exc) from None


def deal_nodes(root: Node) -> list[Node]:
    deals = root.get("deals")
    return [] if deals is None or deals.kind != "seq" else deals.items


def _same(a: yaml.Node, b: yaml.Node) -> bool:
    """The same YAML value written the same way (tags and scalar texts), wherever it stands."""
    if type(a) is not type(b) or a.tag != b.tag or len(a.value) != len(b.value):
        return False
    if isinstance(a, yaml.ScalarNode):
        return bool(a.value == b.value)
    if isinstance(a, yaml.MappingNode):
        return all(_same(ka, kb) and _same(va, vb) for (ka, va), (kb, vb) in zip(a.value, b.value, strict=True))
    return all(_same(x, y) for x, y in zip(a.value, b.value, strict=True))


def checked_change(out: str, source: str, what: str, before: Sequence[yaml.Node],
             new: Callable[[Node], bool] | None = None, after: Sequence[yaml.Node] = (),
             rest: yaml.Node | None = None) -> Node:
    """The new text, read; refused unless its deals are ``before``, one that fits ``new`` (if given), ``after``,
    and (``rest``: the record before the change, composed) everything but the deals is as it was."""
    composed = _compose(out.replace("\r\n", "\n"), source)
    deals = _composed_deals(composed)
    cut = len(before) + (new is not None)
    root = _load(out, source)
    items = deal_nodes(root)
    fits = (len(deals) == cut + len(after) == len(items) and all(map(_same, before, deals))
            and all(map(_same, after, deals[cut:])) and (new is None or new(items[len(before)]))
            and (rest is None or _same_outside_deals(rest, composed)))
    if not fits:
        raise RecordError(f"could not {what} without changing the rest of the file; the record is unchanged "
                          "(is it written in an unusual layout?)", source=source)
    return root


def _same_outside_deals(a: yaml.Node | None, b: yaml.Node | None) -> bool:
    """The two records' top-level keys other than ``deals`` are the same, written the same way."""
    def outside(root: yaml.Node | None) -> list[tuple[yaml.Node, yaml.Node]]:
        pairs = root.value if isinstance(root, yaml.MappingNode) else []
        return [(k, v) for k, v in pairs if not (isinstance(k, yaml.ScalarNode) and k.value == "deals")]
    mine, theirs = outside(a), outside(b)
    return len(mine) == len(theirs) and all(_same(ka, kb) and _same(va, vb)
                                            for (ka, va), (kb, vb) in zip(mine, theirs, strict=True))


def _composed_deals(root: yaml.Node | None) -> list[yaml.Node]:
    for k, v in root.value if isinstance(root, yaml.MappingNode) else []:
        if isinstance(k, yaml.ScalarNode) and k.value == "deals" and isinstance(v, yaml.SequenceNode):
            return list(v.value)
    return []
