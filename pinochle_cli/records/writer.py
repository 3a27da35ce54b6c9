"""Writing match records: a new record, and one more deal appended at the table.

Appending never loses a deal: under the record's lock the file is read again, the new deal is
added to the text (comments and layout kept: nothing is re-dumped), the whole new text is read
and checked as a record before anything is written (a refused deal leaves the file as it was,
byte for byte), and the text is written atomically (``safewrite``).
"""

from __future__ import annotations

import errno
import json
import os
import re
import warnings
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import yaml

# where fcntl is missing filelock warns that it uses a lock file; that is fine
with warnings.catch_warnings():
    warnings.simplefilter("ignore")

from ..errors import Argument, Message, RecordError, YamlError, relocated
from ..ruleset import Ruleset, bundled_path
from ..yamlsource import Node, load_text
from . import MatchRecord, check_record, parse_record
from .history import bounded, retire_undone
from .safewrite import atomic_write, create_exclusive, decode_text, locked, replace_locked
from .version import Expected, check_expected

__all__ = [
    "Entries", "FAST_LOADER", "add_text", "append_deal", "changed_fields", "check_name", "insert_deal",
    "new_record_text", "ruleset_spec_for", "write_new_record", "yaml_value",
]

Entries = list[tuple[str, Any]]
# libyaml when installed: the same nodes, faster
FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


# --------------------------------------------------------------------------- YAML text, by hand

_PLAIN = re.compile(r"[A-Za-z0-9._/][A-Za-z0-9 _.'/-]*")


def yaml_value(value: Any) -> str:
    """One value as flow-style YAML that reads back as exactly ``value``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        if _PLAIN.fullmatch(value) and not value.endswith(" ") and yaml.safe_load(value) == value:
            return value
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{yaml_value(str(k))}: {yaml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(yaml_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as YAML")


def _block_item(entries: Entries, dash: int, key: int) -> str:
    lines = []
    for i, (k, v) in enumerate(entries):
        lead = " " * dash + "-" + " " * (key - dash - 1) if i == 0 else " " * key
        lines.append(f"{lead}{yaml_value(k)}: {yaml_value(v)}")
    return "\n".join(lines) + "\n"


def _plain(value: Any) -> Any:
    """A value as the reader gives it back (tuples as lists), to compare with what was read."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _one_line_value(node: yaml.Node) -> bool:
    """A value whose text can be replaced in place: a scalar that is not a block scalar, or a flow collection."""
    if isinstance(node, yaml.ScalarNode):
        return node.style not in ("|", ">")
    return bool(getattr(node, "flow_style", False))


def changed_fields(body: str, deal: yaml.Node, old: Mapping[str, Any], entries: Entries, key: int) -> str | None:
    """``body`` (a record's text up to the end of a block-style deal's last line) with that deal's fields
    changed to ``entries``: every field whose value is unchanged keeps its text, layout and comments; a changed
    value is written in place of the old one (a one-line value keeps the comment after it); a field taken out
    loses its lines; a new field gets a line at the end, its key at column ``key``. ``old``: the deal's
    fields as read; ``deal``: its node, composed from the whole text. None where the deal is not a block
    mapping or keeps none of its fields (the caller writes it anew).
    """
    if not isinstance(deal, yaml.MappingNode) or deal.flow_style or not deal.value:
        return None
    new = {k: _plain(v) for k, v in entries}
    items = [(str(k.value), k, v) for k, v in deal.value]
    if not any(name in new for name, _, _ in items):
        return None
    out, at = [], 0
    for i, (name, k, v) in enumerate(items):
        key_at, line_end = int(k.start_mark.index), _line_after(body, _end(v))
        if name in new and name in old and _plain(old[name]) == new[name]:
            continue
        if name not in new:
            # the first field's place after the dash goes to the next field
            cut_to = int(items[i + 1][1].start_mark.index) if i == 0 and i + 1 < len(items) else line_end
            cut_from = key_at if i == 0 else body.rfind("\n", 0, key_at) + 1
            out.append(body[at:cut_from])
        elif _one_line_value(v) and v.start_mark.line == k.start_mark.line:
            out.append(body[at:int(v.start_mark.index)] + yaml_value(new[name]))
            cut_to = _end(v)
        else:
            out.append(body[at:key_at] + f"{yaml_value(name)}: {yaml_value(new[name])}\n")
            cut_to = line_end
        at = cut_to
    out.append(body[at:])
    had = {name for name, _, _ in items}
    text = "".join(out)
    text += "".join(f"{' ' * key}{yaml_value(k)}: {yaml_value(v)}\n" for k, v in entries if k not in had)
    return text


def _flow_item(entries: Entries) -> str:
    return yaml_value(dict(entries))


def _end(node: yaml.Node) -> int:
    """Where a node's own text ends (block collections' marks run on over comments)."""
    if isinstance(node, yaml.ScalarNode) or getattr(node, "flow_style", False):
        return int(node.end_mark.index)
    if isinstance(node, yaml.MappingNode):
        return max((_end(v) for pair in node.value for v in pair), default=int(node.start_mark.index))
    if isinstance(node, yaml.SequenceNode):
        return max((_end(v) for v in node.value), default=int(node.start_mark.index))
    return int(node.end_mark.index)  # pragma: no cover


def _dash_column(body: str, first: yaml.Node) -> int:
    """The column of the ``-`` before a block list's first item (the list's own mark may be a tag)."""
    at = int(first.start_mark.index) - 1
    while at > 0 and body[at] in " \t\n":
        at -= 1
    return at - (body.rfind("\n", 0, at) + 1)


def _line_after(text: str, index: int) -> int:
    """The index just past the end of the line holding ``index`` (len(text) at the end)."""
    if index > 0 and text[index - 1] == "\n":
        return index
    cut = text.find("\n", index)
    return len(text) if cut < 0 else cut + 1


def _cut_value(body: str, start: int, end: int) -> tuple[str, int]:
    """Remove an inline value (``[]``, ``~``) and the spaces before it unless a comment follows."""
    rest = body[end:]
    stripped = rest.lstrip(" \t")
    if not stripped or stripped[0] == "\n":
        while start > 0 and body[start - 1] in " \t":
            start -= 1
        return body[:start] + stripped, start
    return body[:start] + rest, start


def _replace_with_block(body: str, value: yaml.Node, entries: Entries, key_col: int) -> str:
    """``body`` with an empty ``deals`` value (``[]`` or nothing) replaced by a block list of one deal."""
    body2, start = _cut_value(body, int(value.start_mark.index), int(value.end_mark.index))
    at = _line_after(body2, start)
    addition = _block_item(entries, key_col + 2, key_col + 4)
    if at == len(body2) and not body2.endswith("\n"):
        addition = "\n" + addition
    return body2[:at] + addition + body2[at:]


def insert_deal(text: str, entries: Entries, source: str = "<record>") -> str:
    """``text`` with one more deal at the end of its ``deals`` list, everything else kept as written."""
    newline = "\r\n" if "\r\n" in text else "\n"
    body = text.replace("\r\n", "\n")
    try:
        root = yaml.compose(body, Loader=FAST_LOADER)
    except yaml.YAMLError as exc:
        raise RecordError(f"not valid YAML: {exc}", source=source) from None
    if not isinstance(root, yaml.MappingNode):
        raise RecordError("a record is a mapping", source=source)
    deals: yaml.Node | None = None
    key_node: yaml.Node | None = None
    for k, v in root.value:
        if isinstance(k, yaml.ScalarNode) and k.value == "deals":
            key_node, deals = k, v
    key_col = int(root.value[0][0].start_mark.column) if root.value else 0

    def fits(pos: int, addition: str) -> str:
        return body[:pos] + addition + body[pos:]

    if deals is None or key_node is None:
        if root.flow_style:
            raise RecordError("cannot add a deal to a record written as one flow mapping {…}: "
                              "write it in block style", source=source)
        head = body if body.endswith("\n") or not body else body + "\n"
        out = head + " " * key_col + "deals:\n" + _block_item(entries, key_col + 2, key_col + 4)
    elif isinstance(deals, yaml.SequenceNode) and deals.flow_style:
        # the ']'
        close = int(deals.end_mark.index) - 1
        if not deals.value:
            if root.flow_style:
                out = fits(close, _flow_item(entries))
            # `deals: []` in a block record: the list becomes a block list
            else:
                out = _replace_with_block(body, deals, entries, key_col)
        else:
            pos = close
            while pos > 0 and body[pos - 1] in " \t\n":
                pos -= 1
            sep = " " if body[pos - 1] == "," else ", "
            out = body[:pos] + sep + _flow_item(entries) + body[pos:]
    elif isinstance(deals, yaml.SequenceNode):
        last = deals.value[-1]
        dash = _dash_column(body, deals.value[0])
        key = int(last.start_mark.column) if isinstance(last, yaml.MappingNode) else dash + 2
        at = _line_after(body, _end(last))
        addition = _block_item(entries, dash, key)
        if at == len(body) and not body.endswith("\n"):
            addition = "\n" + addition
        out = body[:at] + addition + body[at:]
    elif isinstance(deals, yaml.ScalarNode) and deals.tag.endswith(":null"):
        out = _replace_with_block(body, deals, entries, key_col)
    else:
        raise RecordError("deals is not a list", source=source, line=int(deals.start_mark.line) + 1, field="deals")
    return out.replace("\n", newline) if newline != "\n" else out



def append_deal(path: str, build: Callable[[MatchRecord], Entries], *, expect: Expected | None = None) -> MatchRecord:
    """Append one deal to the record at ``path`` and return the record with it.

    ``build(record)`` turns the current record (read under the lock) into the deal's fields.
    The new deal and the record are checked before writing; on any error (a ``RecordError``
    naming ``path``, the deal and field) the file is untouched. ``expect``: the version the deal was
    entered from and its number (a ``StaleRecordError`` if the record is not that version any more).
    What the history held to redo is retired: a new deal ends it.
    """
    base = os.path.dirname(os.path.abspath(path))
    with locked(path) as fh:
        data = fh.read()
        text = decode_text(data, path)
        current = parse_record(text, path, base)
        number = len(current.deals) + 1
        check_expected(expect, data, number, len(current.deals), f"deal {number}", path)
        try:
            entries = build(current)
        except RecordError as exc:
            if exc.source is not None:
                raise
            raise relocated(exc, source=path, line=None) from None
        new_text = add_text(text, entries, path)
        try:
            root = _load(new_text, path)
            record = check_record(root, base)
        except RecordError as exc:
            if exc.deal != number:
                raise
            # the new deal is not in the file: say which deal and field, not a line that does not exist
            raise relocated(exc, source=path, line=None) from None
        _confirm(root, path, entries, len(current.deals))
        replace_locked(path, fh, new_text)
    return record


def add_text(text: str, entries: Entries, source: str = "<record>") -> str:
    """``text`` with one more deal (``insert_deal``), the undone deals of its history retired (a new deal ends
    what redo could put back) and the history within its bounds."""
    added = insert_deal(text, entries, source)
    if "\r\n" not in added:
        return bounded(retire_undone(added))
    return bounded(retire_undone(added.replace("\r\n", "\n"))).replace("\n", "\r\n")


def _load(text: str, path: str) -> Node:
    try:
        return load_text(text, path)
    except YamlError as exc:
        raise relocated(exc) from None


def _confirm(root: Node, path: str, entries: Entries, before: int) -> None:
    """The appended text (read: ``root``) is exactly one more deal with exactly these fields."""
    deals = root.get("deals")
    items = deals.items if deals is not None and deals.kind == "seq" else []
    expected = {k: (list(v) if isinstance(v, tuple) else v) for k, v in entries}
    if len(items) != before + 1 or items[-1].to_python() != expected:
        raise RecordError("could not add the deal without changing the rest of the file; the record is unchanged "
                          "(is it written in an unusual layout?)", source=path)


def write_new_record(path: str, text: str, *, force: bool = False) -> MatchRecord:
    """Check ``text`` as a record and create ``path`` with it (refusing an existing file unless ``force``).

    Raises ``RecordError`` naming ``path`` and the field, never a line or deal of ``text``.
    """
    base = os.path.dirname(os.path.abspath(path))
    try:
        record = parse_record(text, path, base)
    # about the options given, not about a line of a file that is not there yet
    except RecordError as exc:
        raise relocated(exc, source=path, line=None, deal=None, trick=None) from None
    if os.path.exists(path) and not force:
        raise RecordError(_EXISTS, source=path)
    try:
        if force:
            atomic_write(path, text.encode("utf-8"))
        else:
            create_exclusive(os.path.realpath(path), text.encode("utf-8"))
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise RecordError(_EXISTS, source=path) from None
        raise RecordError(f"cannot write: {exc.strerror or exc}", source=path) from None
    return record


# a new record's file is there already
_EXISTS = Message("already exists (use ", Argument("force", True, assigned=True), " to replace it)")


def check_name(name: str, option: str) -> None:
    """A player's or a team's name is one line of printable characters (a table must show it)."""
    if not name.isprintable():
        raise RecordError(f"{option} {name!r}: a name is one line of printable characters")


def new_record_text(ruleset_spec: str, options: Mapping[str, str], *,
                    teams: Sequence[tuple[str, Sequence[str]]] = (), players: Sequence[str] = (),
                    seating: Sequence[str] = (), title: str | None = None) -> str:
    """The text of an empty record (``title``: the match's name, shown by the score page and ``score``)."""
    lines = [
        "# Pinochle match record. `pinochle score FILE` shows the standings;",
        "# `pinochle record add FILE ...` adds a deal. Comments and layout are kept.",
        *([f"title: {yaml_value(title)}"] if title else []),
        f"ruleset: {yaml_value(ruleset_spec)}",
    ]
    if options:
        # the reader takes a choice's raw text: 75 and "75" are the same choice
        def choice(v: str) -> str:
            return v if re.fullmatch(r"[\w.-]+", v) and yaml.safe_load(v) is not None else yaml_value(v)
        lines.append("options: {" + ", ".join(f"{yaml_value(k)}: {choice(str(v))}" for k, v in options.items()) + "}")
    if teams:
        lines.append("teams:")
        lines += [f"  {yaml_value(name)}: {yaml_value(list(members))}" for name, members in teams]
    if players:
        lines.append(f"players: {yaml_value(list(players))}")
    if seating:
        lines.append(f"seating: {yaml_value(list(seating))}")
    lines.append("deals: []")
    return "\n".join(lines) + "\n"


def ruleset_spec_for(spec: str | None, rules: Ruleset, record_path: str) -> str:
    """How a new record names its ruleset: a bundled game by name; a file (given with -r or in
    $PINOCHLE_RULESET) by its path from the record's folder, so the two can move together."""
    # the loaded ruleset's own file decides, whatever named it
    del spec
    bundled = bundled_path(rules.name)
    if bundled is not None and os.path.abspath(bundled) == os.path.abspath(rules.path):
        return rules.name
    folder = os.path.dirname(os.path.abspath(record_path))
    try:
        return os.path.relpath(os.path.abspath(rules.path), folder).replace(os.sep, "/")
    # on another drive (Windows): only the full path reaches it
    except ValueError:
        return os.path.abspath(rules.path)


