"""Writing match records safely: a new record, and one more deal appended at the table.

Appending never loses a deal:

* the file is locked (``fcntl.flock`` on the record itself; after the lock is taken the path is
  checked to still name the locked file, since a finished writer replaces it) and read again
  under the lock, so two ``record add`` runs at the same moment both land;
* the new deal is added to the text (the user's comments and layout are kept: nothing is
  re-dumped), and the whole new text is read and checked as a record before anything is
  written: a refused deal leaves the file as it was, byte for byte;
* the new text goes to a temporary file in the same folder, is flushed and fsynced, and
  replaces the record with ``os.replace``: a write killed at any moment leaves the old file or
  the new one, never a mixture.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import json
import os
import re
import tempfile
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

import yaml

from .cards import format_cards, parse_cards, parse_suit
from .errors import CardError, RecordError, TableNameError
from .records import MatchRecord, Table, parse_record
from .ruleset import Ruleset, bundled_path, split_key_value
from .yamlsource import load_text

__all__ = [
    "DealInput", "append_deal", "atomic_write", "deal_entries", "insert_deal", "locked", "new_record_text",
    "ruleset_spec_for", "write_new_record", "yaml_value",
]

Entries = list[tuple[str, Any]]


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
        root = yaml.compose(body, Loader=yaml.SafeLoader)
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
        close = int(deals.end_mark.index) - 1  # the ']'
        if not deals.value:
            if root.flow_style:
                out = fits(close, _flow_item(entries))
            else:  # `deals: []` in a block record: the list becomes a block list
                out = _replace_with_block(body, deals, entries, key_col)
        else:
            pos = close
            while pos > 0 and body[pos - 1] in " \t\n":
                pos -= 1
            sep = " " if body[pos - 1] == "," else ", "
            out = body[:pos] + sep + _flow_item(entries) + body[pos:]
    elif isinstance(deals, yaml.SequenceNode):
        last = deals.value[-1]
        dash = int(deals.start_mark.column)
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


# --------------------------------------------------------------------------- files

def atomic_write(path: str, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` all at once: temp file in the same folder, fsync, ``os.replace``."""
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{os.path.basename(path)}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):  # make the rename itself durable (best effort)
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


@contextlib.contextmanager
def locked(path: str) -> Iterator[IO[bytes]]:
    """Hold an exclusive lock on the record file; yields it open for reading (the current file)."""
    while True:
        try:
            fh = open(path, "rb")  # noqa: SIM115 - closed below
        except OSError as exc:
            raise RecordError(f"cannot open: {exc.strerror or exc}", source=path) from None
        try:
            fcntl.flock(fh.fileno(), fcntl.LOCK_EX)
            try:
                same = os.path.samestat(os.fstat(fh.fileno()), os.stat(path))
            except FileNotFoundError:
                same = False
            if same:
                break
        except BaseException:
            fh.close()
            raise
        fh.close()  # another writer replaced the file while we waited: lock the new one
    try:
        yield fh
    finally:
        fh.close()  # closing releases the lock


def _decode(data: bytes, path: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text", source=path) from None


def append_deal(path: str, build: Callable[[MatchRecord], Entries]) -> MatchRecord:
    """Append one deal to the record at ``path`` and return the record with it.

    ``build(record)`` turns the current record (read under the lock) into the deal's fields.
    The new deal and the record are checked before writing; on any error the file is untouched.
    """
    base = os.path.dirname(os.path.abspath(path))
    with locked(path) as fh:
        data = fh.read()
        text = _decode(data, path)
        current = parse_record(text, path, base)
        try:
            entries = build(current)
        except RecordError as exc:
            if exc.source is not None:
                raise
            raise RecordError(exc.detail, source=path, deal=exc.deal, trick=exc.trick, field=exc.field) from None
        new_text = insert_deal(text, entries, path)
        number = len(current.deals) + 1
        try:
            record = parse_record(new_text, path, base)
        except RecordError as exc:
            if exc.deal != number:
                raise
            # the new deal is not in the file: say which deal and field, not a line that does not exist
            raise RecordError(exc.detail, source=path, deal=number, trick=exc.trick, field=exc.field) from None
        _confirm(new_text, path, entries, len(current.deals))
        mode = os.fstat(fh.fileno()).st_mode & 0o7777
        try:
            atomic_write(path, new_text.encode("utf-8"), mode=mode)
        except OSError as exc:
            raise RecordError(f"cannot write: {exc.strerror or exc}; the record is unchanged", source=path) from None
    return record


def _confirm(text: str, path: str, entries: Entries, before: int) -> None:
    """The appended text reads back as exactly one more deal with exactly these fields."""
    root = load_text(text, path)
    deals = root.get("deals")
    items = deals.items if deals is not None and deals.kind == "seq" else []
    expected = {k: (list(v) if isinstance(v, tuple) else v) for k, v in entries}
    if len(items) != before + 1 or items[-1].to_python() != expected:
        raise RecordError("could not add the deal without changing the rest of the file; the record is unchanged "
                          "(is it written in an unusual layout?)", source=path)


def write_new_record(path: str, text: str, *, force: bool = False) -> MatchRecord:
    """Check ``text`` as a record and create ``path`` with it (refusing an existing file unless ``force``)."""
    base = os.path.dirname(os.path.abspath(path))
    try:
        record = parse_record(text, path, base)
    except RecordError as exc:  # about the options given, not about a line of a file that is not there yet
        raise RecordError(exc.detail, source=path, field=exc.field) from None
    if os.path.exists(path) and not force:
        raise RecordError("already exists (use --force to replace it)", source=path)
    try:
        if force:
            atomic_write(path, text.encode("utf-8"))
        else:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
            with os.fdopen(fd, "wb") as fh:
                fh.write(text.encode("utf-8"))
                fh.flush()
                os.fsync(fh.fileno())
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise RecordError("already exists (use --force to replace it)", source=path) from None
        raise RecordError(f"cannot write: {exc.strerror or exc}", source=path) from None
    return record


def new_record_text(ruleset_spec: str, options: Mapping[str, str], *,
                    teams: Sequence[tuple[str, Sequence[str]]] = (), players: Sequence[str] = (),
                    seating: Sequence[str] = ()) -> str:
    """The text of an empty record."""
    lines = [
        "# Pinochle match record. `pinochle score FILE` shows the standings;",
        "# `pinochle record add FILE ...` adds a deal. Comments and layout are kept.",
        f"ruleset: {yaml_value(ruleset_spec)}",
    ]
    if options:
        def choice(v: str) -> str:  # the reader takes a choice's raw text: 75 and "75" are the same choice
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
    del spec  # the loaded ruleset's own file decides, whatever named it
    bundled = bundled_path(rules.name)
    if bundled is not None and os.path.abspath(bundled) == os.path.abspath(rules.path):
        return rules.name
    folder = os.path.dirname(os.path.abspath(record_path))
    try:
        return os.path.relpath(os.path.abspath(rules.path), folder).replace(os.sep, "/")
    except ValueError:  # on another drive (Windows): only the full path reaches it
        return os.path.abspath(rules.path)


# --------------------------------------------------------------------------- a deal from options

@dataclass
class DealInput:
    """A deal as given on the command line (names may be abbreviated: ``NS`` for North-South)."""

    dealer: str | None = None
    bidder: str | None = None
    bid: int | None = None
    trump: str | None = None
    auction: str | None = None
    meld: Sequence[str] = ()  # SIDE=N or PLAYER=N or PLAYER=CARDS
    counters: Sequence[str] = ()  # SIDE=N or PLAYER=N
    tricks: Sequence[str] = ()
    conceded: bool = False
    no_trump: bool = False
    redeal: bool = False
    notes: str | None = None


def _pairs(items: Sequence[str], fld: str, deal: int) -> list[tuple[str, str]]:
    out = []
    for item in items:
        split = split_key_value(item)
        if split is None:
            raise RecordError(f"{item!r} is not NAME=VALUE (e.g. NS=60)", deal=deal, field=fld)
        out.append(split)
    return out


def _resolve(table: Table, text: str, fld: str, deal: int) -> tuple[str, int, str | None]:
    try:
        return table.resolve(text, abbreviations=True)
    except TableNameError as exc:
        raise RecordError(str(exc), deal=deal, field=fld) from None


def _player(table: Table, text: str, fld: str, deal: int) -> str:
    _kind, side, who = _resolve(table, text, fld, deal)
    if who is None:
        raise RecordError(f"{text!r} is the team {table.sides[side]}; name a player ({', '.join(table.seating)})",
                          deal=deal, field=fld)
    return who


def _numbers(table: Table, items: Sequence[str], fld: str, deal: int) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, value in _pairs(items, fld, deal):
        _kind, side, who = _resolve(table, key, fld, deal)
        name = who or table.sides[side]
        if not re.fullmatch(r"\d+", value):
            raise RecordError(f"{key}={value}: expected a whole number", deal=deal, field=fld)
        if name in out:
            raise RecordError(f"{name} given twice", deal=deal, field=fld)
        out[name] = int(value)
    return out


def _sides_given(table: Table, names: Sequence[str]) -> set[int]:
    given = set()
    for name in names:
        _kind, side, _who = table.resolve(name)
        given.add(side)
    return given


def deal_entries(record: MatchRecord, deal: DealInput) -> Entries:
    """The fields of the next deal of ``record``, names written in full, in the order a person reads them.

    The dealer defaults to the player after the previous deal's dealer; the counters of one side
    left out are inferred from the deal's total.
    """
    table, rules = record.table, record.rules
    number = len(record.deals) + 1
    entries: Entries = []
    dealer = _player(table, deal.dealer, "dealer", number) if deal.dealer else None
    if dealer is None and record.deals and record.deals[-1].dealer is not None:
        dealer = table.seating[(table.seat_of(record.deals[-1].dealer) + 1) % rules.players]
    if dealer is not None:
        entries.append(("dealer", dealer))
    if deal.auction:
        calls: list[Any] = []
        for token in re.split(r"[\s,]+", deal.auction.strip()):
            if token:
                calls.append(int(token) if token.isdigit() else token.lower())
        entries.append(("auction", calls))
    if deal.bidder:
        entries.append(("bidder", _player(table, deal.bidder, "bidder", number)))
    if deal.bid is not None:
        entries.append(("bid", deal.bid))
    if deal.trump:
        try:
            entries.append(("trump", parse_suit(deal.trump).word))
        except CardError as exc:
            raise RecordError(str(exc), deal=number, field="trump") from None
    if deal.meld:
        meld: dict[str, Any] = {}
        for key, value in _pairs(deal.meld, "meld", number):
            _kind, side, who = _resolve(table, key, "meld", number)
            name = who or table.sides[side]
            if name in meld:
                raise RecordError(f"{name} given twice", deal=number, field="meld")
            if re.fullmatch(r"\d+", value):
                meld[name] = int(value)
            else:
                if who is None:
                    raise RecordError(f"{key}={value}: a team's meld is a number; cards are shown by a player",
                                      deal=number, field="meld")
                try:
                    meld[name] = format_cards(parse_cards(value), ascii=True)
                except CardError as exc:
                    raise RecordError(f"{key}: {exc}", deal=number, field="meld") from None
        missing = [s for i, s in enumerate(table.sides) if i not in _sides_given(table, list(meld))]
        for side_name in missing:
            meld[side_name] = 0
        entries.append(("meld", meld))
    if deal.counters:
        counters: dict[str, int] = _numbers(table, deal.counters, "counters", number)
        absent = [i for i in range(len(table.sides)) if i not in _sides_given(table, list(counters))]
        if len(absent) == 1:
            rest = rules.counter_total - sum(counters.values())
            if rest < 0:
                raise RecordError(f"the counters given add up to {sum(counters.values())}, more than the "
                                  f"{rules.counter_total} in a deal", deal=number, field="counters")
            counters[table.sides[absent[0]]] = rest
        entries.append(("counters", counters))
    if deal.tricks:
        entries.append(("tricks", _numbers(table, deal.tricks, "tricks", number)))
    for key, on in (("conceded", deal.conceded), ("no-trump", deal.no_trump), ("redeal", deal.redeal)):
        if on:
            entries.append((key, True))
    if deal.notes:
        entries.append(("notes", deal.notes))
    return entries
