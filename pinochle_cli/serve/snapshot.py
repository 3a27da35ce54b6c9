"""The record as the page shows it, read afresh from the file, and its version (a digest of the file's bytes:
the page asks again only when it changes).

A record with problems (a sheet edited by hand) is read forgivingly: the deals that can be scored
are shown, and the problems beside them.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass

from ..errors import RecordError
from ..records import MatchRecord, parse_record
from ..records.brief import Brief, brief
from ..records.safewrite import _decode

__all__ = ["Snapshot", "read_snapshot", "version_of"]


@dataclass(frozen=True)
class Snapshot:
    version: str
    record: MatchRecord
    brief: Brief

    @property
    def problems(self) -> list[RecordError]:
        return list(self.record.problems)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:16]


def version_of(path: str) -> str:
    """The record file's version: changes whenever its bytes do."""
    with open(path, "rb") as fh:
        return _digest(fh.read())


def read_snapshot(path: str) -> Snapshot:
    """The record at ``path`` and its version, from one read of the file (writes replace it whole)."""
    with open(path, "rb") as fh:
        data = fh.read()
    record = parse_record(_decode(data, path), path, os.path.dirname(os.path.abspath(path)), strict=False)
    return Snapshot(_digest(data), record, brief(record))
