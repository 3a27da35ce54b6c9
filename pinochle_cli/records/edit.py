"""Changing a record after the fact: undo the last deal, redo it, edit a deal, show the deals as entered.

``undo`` takes the last deal's text out of the ``deals`` list and keeps it, line for line, in the
record's history of comments at its end (``history``: the newest entries, within a bound)::

    # record history: deals taken out by `pinochle record undo` and deals as they were before `record edit`
    #@ undone deal 7
    #|   - dealer: Ann
    #|     bidder: Bob

``redo`` puts the last undone deal's text back where it was, so an undo followed by a redo
gives back the file byte for byte; ``edit`` keeps the replaced deal's text there too. A deal
added or edited after an undo ends what redo may put back (the undone deal stays in the history,
retired). Each change is made to the text (the user's comments and layout elsewhere are kept),
read back and checked as a whole record, and written with the same locked, atomic write as
``record add``: a refused change leaves the file as it was. Every change may name the version
of the text it was made from (``Expected``): a record changed since is refused (``StaleRecordError``).
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import yaml

from ..errors import Argument, Message, RecordError, TableNameError, YamlError, as_message, relocated
from ..yamlsource import Node, load_text
from . import MatchRecord, check_record
from .dealspans import DealSpans, checked_change, deal_nodes, deal_spans, with_deals
from .entry import DealInput, check_nothing_left_out, deal_entries
from .history import (
    HISTORY_HEAD,
    drop_entry,
    edited_title,
    has_retired,
    last_undone,
    retire_undone,
    undone_title,
    with_entry,
)
from .safewrite import decode_text, locked, replace_locked
from .version import Expected, check_expected
from .writer import Entries, _block_item, changed_fields, yaml_value

__all__ = ["HISTORY_HEAD", "Change", "deal_lines", "deal_text", "edit_deal", "edit_text", "entered_deals",
           "merged_entries", "redo_deal", "redo_text", "undo_deal", "undo_text"]

# --------------------------------------------------------------------------- the changes, as text

@dataclass(frozen=True)
class Edited:
    """A change made to a record's text: the new text, read; the deal's own lines; the deal's number."""

    text: str
    root: Node
    lines: str
    number: int


def undo_text(text: str, source: str = "<record>", layout: DealSpans | None = None) -> Edited:
    """``text`` without its last deal (kept in the history); ``RecordError`` if there is none."""
    layout = layout or deal_spans(text, source)
    if not layout.spans:
        raise RecordError("no deal to undo", source=source)
    body, last = layout.body, len(layout.spans) - 1
    cut_from, (start, end) = layout.gap_start(last), layout.spans[last]
    cut = body[cut_from:end]
    kept = with_entry(body[:cut_from] + body[end:], undone_title(last + 1), cut)
    undone = last_undone(kept)
    if undone is None or undone[2] != (cut if cut.endswith("\n") else cut + "\n"):
        raise RecordError("could not keep the last deal in the history; the record is unchanged", source=source)
    out = kept.replace("\n", layout.newline)
    root = checked_change(out, source, "take the last deal out", layout.deals[:-1])
    return Edited(out, root, body[start:end], last + 1)


def redo_text(text: str, source: str = "<record>", layout: DealSpans | None = None) -> Edited:
    """``text`` with the last undone deal back where it was; ``RecordError`` if the history has none, or if
    its entry is not exactly one deal (a key of the record, a second deal, text that is not YAML)."""
    layout = layout or deal_spans(text, source)
    body = layout.body
    undone = last_undone(body)
    if undone is None:
        why = (": a deal was added or edited after the last undo (the undone deal stays in the history)"
               if has_retired(body) else " (the record's history has none)")
        raise RecordError(f"no undone deal to redo{why}", source=source)
    start, end, lines = undone
    at = layout.spans[-1][1] if layout.spans else layout.first
    if at < 0:
        raise RecordError("the deals are written `deals: []`: write `deals:` alone to redo into it", source=source,
                          field="deals")
    deal = _undone_deal(lines, source, body.count("\n", 0, start) + 1)
    out = drop_entry(body, start, end)
    out = (out[:at] + lines + out[at:]).replace("\n", layout.newline)
    root = checked_change(out, source, "put the undone deal back", layout.deals, lambda node: node.to_python() == deal,
                    rest=layout.composed)
    return Edited(out, root, _deal_only(lines), len(layout.spans) + 1)


def _undone_deal(lines: str, source: str, title: int) -> Any:
    """The one deal a history entry holds (its title on line ``title``): refused, naming the history's line,
    unless the entry is YAML holding exactly one deal and nothing else."""
    unchanged = "; the record is unchanged"
    try:
        root = load_text("deals:\n" + lines, source)
    except YamlError as exc:
        # the entry's line k + 1 is the history's line title + k
        found = re.match(rf"{re.escape(source)}:(\d+):\d+: (.*)", str(exc), re.DOTALL)
        line, detail = (title + int(found[1]) - 1, found[2]) if found else (title, str(exc))
        detail = detail.removeprefix("not valid YAML: ")
        raise RecordError(f"the undone deal in the history is not valid YAML ({detail}){unchanged}", source=source,
                          line=line) from None
    extra = [key for key, _ in root.entries.values() if key.raw != "deals"]
    if extra:
        raise RecordError(f"the undone deal in the history holds {extra[0].raw!r}, which is not part of a deal: "
                          f"redo puts back one deal, nothing else{unchanged}", source=source,
                          line=title + extra[0].line - 1)
    deals = deal_nodes(root)
    if len(deals) != 1:
        raise RecordError(f"the undone deal in the history holds {len(deals)} deals, not one{unchanged}",
                          source=source, line=title)
    return deals[0].to_python()


def _deal_only(lines: str) -> str:
    """The lines of a deal without the comments and blank lines kept before it."""
    rows = lines.split("\n")
    for i, row in enumerate(rows):
        if row.lstrip().startswith("-"):
            return "\n".join(rows[i:])
    return lines


def edit_text(text: str, number: int, entries: Entries, source: str = "<record>",
              layout: DealSpans | None = None, old: Mapping[str, Any] | None = None) -> Edited:
    """``text`` with deal ``number`` (1-based) changed to ``entries``; its old lines kept in the history.

    Only what changes is written: the fields whose values stay keep their text, layout and comments
    (``changed_fields``; ``old``: the deal's fields as read, read here if not given). A deal written
    otherwise than as a block mapping is written anew.
    """
    layout = layout or deal_spans(text, source)
    _check_number(layout, number, source)
    body = layout.body
    start, end = layout.spans[number - 1]
    line = body[start:end].split("\n", 1)[0]
    dash = len(line) - len(line.lstrip(" "))
    key = dash + len(line[dash:]) - len(line[dash + 1:].lstrip(" "))
    if old is None:
        old = _as_fields([deal_nodes(layout.excerpt(number))[0].to_python()])[0]
    expected = {k: (list(v) if isinstance(v, tuple) else v) for k, v in entries}
    kept = _kept_text(body, start, end, layout.deals[number - 1], old, entries, key)
    for new in ([kept] if kept is not None else []) + [_block_item(entries, dash, key)]:
        out = with_entry(retire_undone(body[:start] + new + body[end:]), edited_title(number), body[start:end])
        out = out.replace("\n", layout.newline)
        try:
            root = checked_change(out, source, f"replace deal {number}", layout.deals[:number - 1],
                            lambda node: node.to_python() == expected, layout.deals[number:])
        # the fields' own text could not be kept (an unusual layout): the deal is written anew
        except RecordError:
            if new is kept:
                continue
            raise
        return Edited(out, root, new, number)
    raise AssertionError("unreachable")  # pragma: no cover


def _kept_text(body: str, start: int, end: int, deal: yaml.Node, old: Mapping[str, Any], entries: Entries,
               key: int) -> str | None:
    """The deal's lines [start, end) with only the changed fields rewritten (``changed_fields``), or None."""
    changed = changed_fields(body[:end], deal, old, entries, key)
    # changed_fields works on the text up to the deal's end, from its first line on
    return None if changed is None else changed[start:]


def _check_number(layout: DealSpans, number: int, source: str) -> None:
    if not 1 <= number <= len(layout.spans):
        raise RecordError(f"no deal {number} (the record has {len(layout.spans)})", source=source)


# --------------------------------------------------------------------------- reading the deals as entered

def entered_deals(text: str, source: str = "<record>") -> list[dict[str, Any]]:
    """Every deal's fields as written in the record; text that is not YAML is a ``RecordError``."""
    try:
        root = load_text(text, source)
    except YamlError as exc:
        raise relocated(exc) from None
    deals = root.get("deals")
    return _as_fields([] if deals is None or deals.kind != "seq" else [d.to_python() for d in deals.items])


def _as_fields(values: list[Any]) -> list[dict[str, Any]]:
    return [d if isinstance(d, dict) else {"?": d} for d in values]


def deal_text(fields: Mapping[str, Any]) -> str:
    """One deal's fields on one line, as flow YAML without the braces."""
    return ", ".join(f"{yaml_value(str(k))}: {yaml_value(v)}" for k, v in fields.items())


def deal_lines(text: str, number: int, source: str = "<record>") -> str:
    """Deal ``number``'s own lines, as written (comments inside it kept)."""
    layout = deal_spans(text, source)
    _check_number(layout, number, source)
    start, end = layout.spans[number - 1]
    return layout.body[start:end]


# --------------------------------------------------------------------------- the changes, to the file

@dataclass(frozen=True)
class Change:
    """A change written: the record after it, and the deal's lines it took out or put in."""

    record: MatchRecord
    lines: str
    number: int


Refusal = Callable[[RecordError, DealSpans, Edited], RecordError]


def _rewrite(path: str, change: Callable[[DealSpans], Edited], refused: Refusal | None = None, *,
             expect: Expected | None = None, meant: Callable[[DealSpans], int] = lambda layout: 0,
             what: str = "the change") -> Change:
    """Under the record's lock: read, check it is the version expected (``meant``: the deal the change means), change
    the text, check the new text as a record, write it atomically."""
    base = os.path.dirname(os.path.abspath(path))
    with locked(path) as fh:
        data = fh.read()
        layout = deal_spans(decode_text(data, path), path)
        check_expected(expect, data, meant(layout), len(layout.spans), what, path)
        edited = change(layout)
        try:
            record = check_record(edited.root, base)
        except RecordError as exc:
            raise (refused(exc, layout, edited) if refused is not None else exc) from None
        replace_locked(path, fh, edited.text)
    return Change(record, edited.lines, edited.number)


def undo_deal(path: str, *, expect: Expected | None = None) -> Change:
    """Take the last deal out of the record at ``path`` (kept in its history); ``expect``: the version it was asked
    from and the deal it means to take out."""
    return _rewrite(path, lambda layout: undo_text(layout.body, path, layout), expect=expect,
                    meant=lambda layout: len(layout.spans), what="the undo")


def redo_deal(path: str, *, expect: Expected | None = None) -> Change:
    """Put the last undone deal back, checked like a deal added (refused: a ``RecordError``, file unchanged);
    ``expect``: the version it was asked from and the number the deal put back takes."""
    return _rewrite(path, lambda layout: redo_text(layout.body, path, layout), _refused_redo, expect=expect,
                    meant=lambda layout: len(layout.spans) + 1, what="the redo")


def _refused_redo(exc: RecordError, layout: DealSpans, edited: Edited) -> RecordError:
    return relocated(exc, detail=Message(*as_message(exc.detail).parts, " (the undone deal no longer fits the record; "
                                         "it stays in the history)"), line=None)


def edit_deal(path: str, number: int, build: Callable[[MatchRecord, Mapping[str, Any]], Entries], *,
              expect: Expected | None = None) -> Change:
    """Replace deal ``number`` with ``build(record, old fields)``; every later deal is checked again.

    Refused (file unchanged) with a ``RecordError`` naming the first deal that no longer holds; ``expect``: the
    version the edit was made from.
    """
    base = os.path.dirname(os.path.abspath(path))

    def change(layout: DealSpans) -> Edited:
        _check_number(layout, number, path)
        excerpt = layout.excerpt(number)
        # the table and rules: the deals are checked anew
        record = check_record(with_deals(excerpt, []), base)
        old = _as_fields([deal_nodes(excerpt)[0].to_python()])[0]
        try:
            entries = build(record, old)
        except RecordError as exc:
            if exc.source is not None:
                raise
            raise relocated(exc, source=path, line=None) from None
        return edit_text(layout.body, number, entries, path, layout, old)

    def refused(exc: RecordError, layout: DealSpans, edited: Edited) -> RecordError:
        if exc.deal is None or exc.deal < number:
            return exc
        if exc.deal == number:
            return relocated(exc, source=path, line=None)
        start, end = layout.spans[number - 1]
        shift = edited.lines.count("\n") - layout.body.count("\n", start, end)
        line = None if exc.line is None else exc.line - shift
        return relocated(exc, detail=Message(*as_message(exc.detail).parts, f" (deal {exc.deal} no longer holds with "
                                             f"deal {number} edited; the record is unchanged)"), source=path, line=line)
    return _rewrite(path, change, refused, expect=expect, meant=lambda layout: number,
                    what=f"the edit of deal {number}")


FLAGS = ("conceded", "no-trump", "redeal")


def merged_entries(record: MatchRecord, number: int, old: Mapping[str, Any], given: DealInput,
                   clear: Sequence[str] = ()) -> Entries:
    """Deal ``number``'s fields after an edit: ``old`` with the fields ``given`` replacing its own
    (``record`` gives the table: its deals are not used).

    A side's meld given replaces that side's meld only; a flag given (conceded, no-trump, redeal)
    replaces the others; ``clear`` names fields to take out (``RecordError`` if the deal lacks one).
    """
    for name in clear:
        if name not in old:
            raise RecordError(Message(Argument("clear", name), f": deal {number} has no {name} "
                                      f"({', '.join(old) or 'no fields'})"), deal=number, field=name)
    new = dict(deal_entries(record, given, number=number))
    if not given.dealer:
        new.pop("dealer", None)
    fields = {k: v for k, v in old.items() if k not in clear}
    if any(flag in new for flag in FLAGS):
        fields = {k: v for k, v in fields.items() if k not in FLAGS}
    if "meld" in new and isinstance(fields.get("meld"), dict):
        new["meld"] = _merged_meld(record, fields["meld"], new["meld"])
    fields.update(new)
    entries = list(fields.items())
    check_nothing_left_out(record, entries, number)
    return entries


def _merged_meld(record: MatchRecord, old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """``old`` meld with the sides ``new`` names replaced by ``new``'s entries, in ``old``'s order."""
    def side(name: str) -> int | None:
        try:
            return record.table.resolve(str(name))[1]
        except TableNameError:
            return None
    out: dict[str, Any] = {}
    for key, value in old.items():
        replaced = [k for k in new if side(k) == side(key)]
        out.update({k: new[k] for k in replaced} if replaced else {key: value})
    out.update({k: v for k, v in new.items() if k not in out})
    return out
