"""Writing match records safely: a new record, and one more deal appended at the table.

Appending never loses a deal:

* the record is locked (a ``.NAME.lock`` file beside it, held with ``filelock``, which works the
  same on Linux, macOS and Windows) and read again under the lock, so two ``record add`` runs at
  the same moment both land;
* the new deal is added to the text (the user's comments and layout are kept: nothing is
  re-dumped), and the whole new text is read and checked as a record before anything is
  written: a refused deal leaves the file as it was, byte for byte;
* the new text goes to a temporary file in the same folder, is flushed and fsynced, and
  replaces the record with ``os.replace``: a write killed at any moment leaves the old file or
  the new one, never a mixture; a new record is linked into place, so a full disk leaves no file;
* a symbolic link is written through (its target is replaced, the link stays); a read-only
  record, or one that belongs to another user, is refused rather than replaced;
* the temporary files of writers killed mid-write are removed by the next writer.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import stat
import tempfile
import time
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, Any

import yaml

with warnings.catch_warnings():  # where fcntl is missing filelock warns that it uses a lock file; that is fine
    warnings.simplefilter("ignore")
    from filelock import FileLock, Timeout

from .cards import format_cards, parse_cards, parse_suit
from .errors import CardError, RecordError, TableNameError, YamlError
from .records import MatchRecord, Table, check_record, parse_record
from .ruleset import Ruleset, bundled_path, split_key_value
from .summary import next_dealer
from .yamlsource import Node, load_text, open_nonblocking, read_capped

__all__ = [
    "DealInput", "append_deal", "atomic_write", "check_name", "check_nothing_left_out", "check_writable",
    "deal_entries", "insert_deal", "locked", "meld_left_out", "new_record_text", "remove_stale_temporaries",
    "replace_locked",
    "ruleset_spec_for", "write_new_record", "yaml_value",
]

Entries = list[tuple[str, Any]]
FAST_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when installed: the same nodes, faster


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


# --------------------------------------------------------------------------- files

LOCK_WAIT = 60.0  # seconds a writer waits for another one before giving up
_STALE_AGE = 3600.0  # a temporary file this old is a dead writer's where process ids cannot be checked


def _temp_prefix(target: str) -> str:
    return f".{os.path.basename(target)}."


def _new_file_mode() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _write_temp(target: str, data: bytes, mode: int) -> str:
    """``data`` in a new temporary file beside ``target``, named with this process's id, flushed to disk."""
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(target), prefix=f"{_temp_prefix(target)}{os.getpid()}-",
                               suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return tmp


def _sync_folder(folder: str) -> None:
    with contextlib.suppress(OSError):  # make the rename itself durable (best effort)
        dfd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)


def atomic_write(path: str, data: bytes, *, mode: int | None = None) -> None:
    """Replace ``path`` with ``data`` all at once: temp file in the same folder, fsync, ``os.replace``.

    A symbolic link is followed: its target is replaced and the link stays. ``mode``: the new
    file's permissions (default: the old file's, or the usual ones for a new file).
    """
    target = os.path.realpath(path)
    if mode is None:
        try:
            mode = os.stat(target).st_mode & 0o7777
        except OSError:
            mode = _new_file_mode()
    tmp = _write_temp(target, data, mode)
    try:
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(os.path.dirname(target))


def _create_exclusive(target: str, data: bytes) -> None:
    """Create ``target`` with ``data`` whole or not at all: a temporary file, then a hard link to it."""
    tmp = _write_temp(target, data, _new_file_mode())
    try:
        os.link(tmp, target)
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise
        _create_exclusive_without_links(target, data)  # a file system without hard links
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
    _sync_folder(os.path.dirname(target))


def _create_exclusive_without_links(target: str, data: bytes) -> None:
    fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), _new_file_mode())
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(target)
        raise


def _writer_is_gone(name: str, prefix: str, folder: str) -> bool:
    pid_text = name[len(prefix):].partition("-")[0]
    if os.name == "posix" and pid_text.isdigit():
        pid = int(pid_text)
        if pid == os.getpid():
            return False
        try:
            os.kill(pid, 0)  # signal 0: only asks whether the process exists
        except ProcessLookupError:
            return True
        except OSError:
            return False  # it exists (another user's)
        return False
    try:
        return time.time() - os.stat(os.path.join(folder, name)).st_mtime > _STALE_AGE
    except OSError:
        return False


def remove_stale_temporaries(target: str) -> list[str]:
    """Remove the temporary files that writers of ``target`` killed mid-write left; call under the lock."""
    folder, prefix = os.path.dirname(target), _temp_prefix(target)
    try:
        names = [n for n in os.listdir(folder) if n.startswith(prefix) and n.endswith(".tmp")]
    except OSError:
        return []
    removed = []
    for name in names:
        if _writer_is_gone(name, prefix, folder):
            with contextlib.suppress(OSError):
                os.unlink(os.path.join(folder, name))
                removed.append(name)
    return removed


def _lock_file(target: str) -> str:
    return os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.lock")


@contextlib.contextmanager
def _record_lock(target: str, path: str) -> Iterator[None]:
    lock = FileLock(_lock_file(target), timeout=LOCK_WAIT)
    try:
        lock.acquire()
    except Timeout:
        raise RecordError(f"another writer has held {_lock_file(target)} for {LOCK_WAIT:.0f} seconds; the record "
                          f"is unchanged (if no one else is writing, remove that file)", source=path) from None
    except OSError as exc:
        raise RecordError(f"cannot lock: {exc.strerror or exc}; the record is unchanged", source=path) from None
    try:
        yield
    finally:
        lock.release()


def _open_record(target: str, path: str) -> IO[bytes]:
    try:
        fh = open_nonblocking(target)
    except OSError as exc:
        raise RecordError(f"cannot open: {exc.strerror or exc}", source=path) from None
    try:
        read_capped(fh, path)  # a regular file of a sensible size
        fh.seek(0)
    except YamlError as exc:
        fh.close()
        raise RecordError(str(exc)) from None
    return fh


@contextlib.contextmanager
def locked(path: str) -> Iterator[IO[bytes]]:
    """Hold the record's lock; yields the record (the file a link points to) open for reading.

    The lock is a separate ``.NAME.lock`` file beside the record (``filelock``: ``fcntl`` where
    there is one, ``msvcrt`` on Windows, a lock file with the owner's process id elsewhere), so the
    record itself can be replaced while it is held. Temporary files of writers killed mid-write
    are removed once the lock is taken.
    """
    target = os.path.realpath(path)
    _open_record(target, path).close()  # a missing or special file: say so before making a lock file
    with _record_lock(target, path):
        remove_stale_temporaries(target)
        fh = _open_record(target, path)
        try:
            yield fh
        finally:
            fh.close()


def check_writable(path: str) -> None:
    """Refuse to replace a record that is read-only or belongs to someone else (it would change owner)."""
    info = os.stat(os.path.realpath(path))
    if not info.st_mode & stat.S_IWUSR:
        raise RecordError("read-only: make it writable to add to it; the record is unchanged", source=path)
    geteuid = getattr(os, "geteuid", None)
    if geteuid is not None and info.st_uid != geteuid():
        raise RecordError(f"not yours to write (it belongs to user id {info.st_uid}); the record is unchanged",
                          source=path)


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
            root = _load(new_text, path)
            record = check_record(root, base)
        except RecordError as exc:
            if exc.deal != number:
                raise
            # the new deal is not in the file: say which deal and field, not a line that does not exist
            raise RecordError(exc.detail, source=path, deal=number, trick=exc.trick, field=exc.field) from None
        _confirm(root, path, entries, len(current.deals))
        replace_locked(path, fh, new_text)
    return record


def replace_locked(path: str, fh: IO[bytes], text: str) -> None:
    """Replace the record ``fh`` (held open by ``locked``) with ``text``, refused if it may not be written."""
    check_writable(path)
    mode = os.fstat(fh.fileno()).st_mode & 0o7777
    fh.close()  # Windows cannot replace a file that is open; the lock is held on its own file
    try:
        atomic_write(path, text.encode("utf-8"), mode=mode)
    except OSError as exc:
        raise RecordError(f"cannot write: {exc.strerror or exc}; the record is unchanged", source=path) from None


def _load(text: str, path: str) -> Node:
    try:
        return load_text(text, path)
    except YamlError as exc:
        raise RecordError(str(exc)) from None


def _confirm(root: Node, path: str, entries: Entries, before: int) -> None:
    """The appended text (read: ``root``) is exactly one more deal with exactly these fields."""
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
            _create_exclusive(os.path.realpath(path), text.encode("utf-8"))
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise RecordError("already exists (use --force to replace it)", source=path) from None
        raise RecordError(f"cannot write: {exc.strerror or exc}", source=path) from None
    return record


def check_name(name: str, option: str) -> None:
    """A player's or a team's name is one line of printable characters (a table must show it)."""
    if not name.isprintable():
        raise RecordError(f"{option} {name!r}: a name is one line of printable characters")


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


def deal_entries(record: MatchRecord, deal: DealInput, *, number: int | None = None) -> Entries:
    """The fields of deal ``number`` (default: the next) of ``record``, names written in full, in the order a
    person reads them.

    The dealer defaults to the player after the previous deal's dealer; the counters of one side
    left out are inferred from the deal's total. A side's meld left out is not filled in (see
    ``meld_left_out``).
    """
    table = record.table
    number = len(record.deals) + 1 if number is None else number
    entries: Entries = []
    dealer = _player(table, deal.dealer, "dealer", number) if deal.dealer else next_dealer(record)
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
        entries.append(("meld", _meld_entries(table, deal.meld, number)))
    if deal.counters:
        entries.append(("counters", _counter_entries(record, deal.counters, number)))
    if deal.tricks:
        entries.append(("tricks", _numbers(table, deal.tricks, "tricks", number)))
    for key, on in (("conceded", deal.conceded), ("no-trump", deal.no_trump), ("redeal", deal.redeal)):
        if on:
            entries.append((key, True))
    if deal.notes:
        entries.append(("notes", deal.notes))
    return entries


def _meld_entries(table: Table, items: Sequence[str], number: int) -> dict[str, Any]:
    meld: dict[str, Any] = {}
    for key, value in _pairs(items, "meld", number):
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
    return meld


def _counter_entries(record: MatchRecord, items: Sequence[str], number: int) -> dict[str, int]:
    """Counters by side or player; one side left out is inferred; a total that is off names what was typed."""
    table, total = record.table, record.rules.counter_total
    counters = _numbers(table, items, "counters", number)
    absent = [i for i in range(len(table.sides)) if i not in _sides_given(table, list(counters))]
    typed = " and ".join(items)
    given = sum(counters.values())
    if len(absent) == 1:
        if given > total:
            raise RecordError(f"{typed}: more than the {total} counters in a deal", deal=number, field="counters")
        counters[table.sides[absent[0]]] = total - given
    elif not absent and given != total:
        raise RecordError(f"{typed} add up to {given}; the counters of a deal add up to {total} (give one side "
                          "and the other is inferred)", deal=number, field="counters")
    return counters


def meld_left_out(record: MatchRecord, entries: Entries) -> list[str]:
    """The sides of a deal (not a redeal) whose meld is not given: a side with none is given as 0."""
    fields = dict(entries)
    if fields.get("redeal"):
        return []
    given = _sides_given(record.table, list(fields.get("meld") or {}))
    return [s for i, s in enumerate(record.table.sides) if i not in given]


def check_nothing_left_out(record: MatchRecord, entries: Entries, number: int) -> None:
    """Refuse a deal that leaves out what the checker would otherwise take as nothing: a side's meld
    (rather than 0), or the trump of a deal played out in a game whose bidder names trump."""
    missing = meld_left_out(record, entries)
    if missing:
        names = " and ".join(missing)
        example = " ".join(f"--meld {s}=0" for s in missing)
        raise RecordError(f"no meld given for {names} (a side with no meld: {example})", deal=number,
                          field="meld")
    fields = dict(entries)
    played = ("counters" in fields or "tricks" in fields) and not fields.get("conceded")
    rules = record.rules
    if played and rules.trump_source == "bid" and "trump" not in fields and not fields.get("no-trump"):
        suits = " ".join(s.letter for s in rules.suits)
        raise RecordError(f"not given; the bidder named one of {suits}", deal=number, field="trump")
