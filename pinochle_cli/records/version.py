"""A record's version, and a change that names the version it was made from.

``version_of(data)`` is a digest of the record file's bytes: it changes whenever they do. A change (a deal added,
undone, redone, edited) may carry an ``Expected``: the version it was made from and the number of the deal it
means. Under the record's lock, before anything is written, ``check_expected`` refuses it with a
``StaleRecordError`` when the record is no longer that version or that deal is not the one meant: a form left open
on one phone while another phone or a terminal changed the record enters nothing twice and nothing into a record
it did not show.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from ..errors import StaleRecordError

__all__ = ["Expected", "check_expected", "version_of"]


def version_of(data: bytes) -> str:
    """The version of a record's bytes (16 hex digits of their SHA-256)."""
    return hashlib.sha256(data).hexdigest()[:16]


@dataclass(frozen=True)
class Expected:
    """What a change was made from: the record's ``version`` (None: any) and the ``number`` of the deal it means
    (the deal added or put back, the deal taken out or edited; None: any)."""

    version: str | None = None
    number: int | None = None


def check_expected(expected: Expected | None, data: bytes, meant: int, deals: int, what: str, path: str) -> None:
    """Refuse ``what`` (a ``StaleRecordError``) unless the record's bytes ``data`` are the expected version and
    ``meant`` is the expected deal; ``deals``: how many deals the record holds now."""
    if expected is None:
        return
    stale = expected.version is not None and version_of(data) != expected.version
    if expected.number is not None and expected.number != meant:
        stale = True
    if stale:
        held = f"{deals} deal{'s' if deals != 1 else ''}"
        meant_text = "" if expected.number is None else f" (it meant deal {expected.number})"
        raise StaleRecordError(f"the sheet changed since {what} was made from it{meant_text}: it holds {held} now; "
                               "nothing was written", source=path, deals=deals)
