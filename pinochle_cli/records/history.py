"""A record's history: the deals taken out by undo and the deals as they were before an edit, kept as comments
at the end of the file (the reader skips them), newest last::

    # record history: deals taken out by `pinochle record undo` and deals as they were before `record edit`
    #@ undone deal 7
    #|   - dealer: Ann
    #|     bidder: Bob

The contract:

* ``with_entry`` adds an entry, then drops the oldest ones until at most ``HISTORY_ENTRIES`` entries and
  ``HISTORY_BYTES`` bytes are left (``bounded``, which a deal added applies too): a long night's history stays
  small, and the record stays well under the reader's size limit however many deals are added, edited and undone.
* Redo takes the newest ``undone deal`` entry (``last_undone``). A new deal or an edit makes every
  ``undone deal`` entry a ``retired`` one (``retire_undone``): it stays in the history, but is never put back,
  as an editor forgets what it could redo once something new is typed.
* Every function here works on text with ``\\n`` line ends and never raises.
"""

from __future__ import annotations

import re

__all__ = ["HISTORY_BYTES", "HISTORY_ENTRIES", "HISTORY_HEAD", "bounded", "can_redo", "drop_entry", "edited_title",
           "entries", "has_retired", "last_undone", "retire_undone", "span", "undone_title", "with_entry"]

HISTORY_HEAD = ("# record history: deals taken out by `pinochle record undo` and deals as they were "
                "before `record edit`")
# the newest entries kept
HISTORY_ENTRIES = 100
HISTORY_BYTES = 256 * 1024
_ENTRY = "#@ "
_LINE = "#|"
_UNDONE = "undone deal "
# the lines of the history after its head: entries' titles and their kept lines
_KEPT_LINES = re.compile(r"(?:#[@|][^\n]*\n)*")
_TITLE = re.compile(r"^#@ ", re.MULTILINE)
_RETIRED = re.compile(r"^#@ undone deal (\d+)$", re.MULTILINE)
_RETIRED_TITLE = r"#@ deal \1 undone, then replaced (not to be redone)"
_RETIRED_FOUND = "undone, then replaced"


def undone_title(number: int) -> str:
    return f"{_UNDONE}{number}"


def edited_title(number: int) -> str:
    return f"deal {number} before record edit"


def _next_line(text: str, index: int) -> int:
    cut = text.find("\n", index)
    return len(text) if cut < 0 else cut + 1


def span(body: str) -> tuple[int, int]:
    """[start, end) of the history block (both ``len(body)`` when there is none)."""
    head = body.find(HISTORY_HEAD + "\n")
    if head < 0 or (head and body[head - 1] != "\n"):
        return len(body), len(body)
    kept = _KEPT_LINES.match(body, head + len(HISTORY_HEAD) + 1)
    end = kept.end() if kept is not None else head + len(HISTORY_HEAD) + 1
    # the last line of a file may have no line end
    if end < len(body) and body.startswith((_ENTRY, _LINE), end) and "\n" not in body[end:]:
        end = len(body)
    return head, end


def entries(body: str) -> list[tuple[int, int]]:
    """[start, end) of each entry of the history, oldest first (its title line and its kept lines)."""
    start, end = span(body)
    if start == end:
        return []
    titles = [found.start() for found in _TITLE.finditer(body, start, end)]
    return list(zip(titles, [*titles[1:], end], strict=True))


def bounded(body: str) -> str:
    """``body`` without the oldest entries beyond ``HISTORY_ENTRIES`` entries or ``HISTORY_BYTES`` bytes (the newest
    entry is always kept)."""
    start, end = span(body)
    if start == end or (body.count("\n" + _ENTRY, start, end) <= HISTORY_ENTRIES
                        and len(body[start:end].encode("utf-8")) <= HISTORY_BYTES):
        return body
    found = entries(body)
    size = sum(len(body[a:b].encode("utf-8")) for a, b in found)
    cut = 0
    while len(found) - cut > 1 and (len(found) - cut > HISTORY_ENTRIES or size > HISTORY_BYTES):
        a, b = found[cut]
        size -= len(body[a:b].encode("utf-8"))
        cut += 1
    if not cut:
        return body
    return body[:found[0][0]] + body[found[cut][0]:]


def with_entry(body: str, title: str, lines: str) -> str:
    """``body`` with one more history entry: ``title`` and ``lines`` (each kept behind ``#|``); the oldest entries
    dropped beyond the limits."""
    start, end = span(body)
    # the last line of a file may have no line end
    whole = lines if lines.endswith("\n") else lines + "\n"
    kept = "".join(f"{_LINE} {line}\n" if line else f"{_LINE}\n" for line in whole.split("\n")[:-1])
    entry = f"{_ENTRY}{title}\n{kept}"
    if start == end:
        lead = "" if not body or body.endswith("\n") else "\n"
        return body + lead + HISTORY_HEAD + "\n" + entry
    return bounded(body[:end] + entry + body[end:])


def last_undone(body: str) -> tuple[int, int, str] | None:
    """The newest undone deal in the history: [start, end) of its entry and its text."""
    found = [(a, b) for a, b in entries(body) if body.startswith(_ENTRY + _UNDONE, a)]
    if not found:
        return None
    start, stop = found[-1]
    lines = []
    at = _next_line(body, start)
    while at < stop:
        nxt = _next_line(body, at)
        line = body[at + len(_LINE):nxt].rstrip("\n")
        lines.append(line[1:] if line.startswith(" ") else line)
        at = nxt
    return start, stop, "".join(line + "\n" for line in lines)


def can_redo(text: str) -> bool:
    """Whether the record's text holds an undone deal that redo would put back."""
    return last_undone(text.replace("\r\n", "\n")) is not None


def has_retired(body: str) -> bool:
    """Whether the history holds an undone deal retired by a later deal or edit."""
    start, end = span(body)
    return _RETIRED_FOUND in body[start:end]


def drop_entry(body: str, start: int, end: int) -> str:
    """``body`` without [start, end), and without the history's head when no entry is left."""
    out = body[:start] + body[end:]
    h_start, h_end = span(out)
    if h_start < h_end and h_end - h_start == len(HISTORY_HEAD) + 1:
        out = out[:h_start] + out[h_end:]
    return out


def retire_undone(body: str) -> str:
    """``body`` with every undone deal of its history retired: kept, never redone (a new deal or an edit was made
    after it)."""
    start, end = span(body)
    if start == end:
        return body
    return body[:start] + _RETIRED.sub(_RETIRED_TITLE, body[start:end]) + body[end:]
