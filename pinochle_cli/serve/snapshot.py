"""The record as the page shows it, read afresh from the file, its version (a digest of the file's bytes: the page
asks again only when it changes, and every change the page sends names it), and whether redo has a deal to put
back.

A record with problems (a sheet edited by hand) is read forgivingly: the deals that can be scored
are shown, and the problems beside them.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from ..errors import RecordError, YamlError
from ..records import MatchRecord, parse_record
from ..records.brief import Brief, brief
from ..records.history import can_redo
from ..records.safewrite import decode_text
from ..records.version import version_of as _digest
from ..yamlsource import open_nonblocking, read_capped

__all__ = ["Snapshot", "read_bytes", "read_snapshot", "version_of"]


@dataclass(frozen=True)
class Snapshot:
    version: str
    record: MatchRecord
    brief: Brief
    # the record's history holds an undone deal redo would put back
    can_redo: bool = False

    @property
    def problems(self) -> list[RecordError]:
        return list(self.record.problems)


def read_bytes(path: str) -> bytes:
    """The record file's bytes, read as every reader reads a record (no device, pipe or huge file:
    a ``YamlError`` naming ``path``)."""
    try:
        with open_nonblocking(path) as fh:
            return read_capped(fh, path)
    except OSError as exc:
        raise YamlError(f"{path}: cannot read: {exc.strerror or exc}") from None


def version_of(path: str) -> str:
    """The record file's version: changes whenever its bytes do."""
    return _digest(read_bytes(path))


def read_snapshot(path: str) -> Snapshot:
    """The record at ``path`` and its version, from one read of the file (writes replace it whole)."""
    data = read_bytes(path)
    text = decode_text(data, path)
    record = parse_record(text, path, os.path.dirname(os.path.abspath(path)), strict=False)
    return Snapshot(_digest(data), record, brief(record), can_redo(text))
