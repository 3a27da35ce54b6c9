"""Where a session is kept between runs, so that ``resume`` continues it: a JSON file written whole after every entry.

A session with a record keeps its journal beside the record (``.NAME.play.json``, beside ``NAME``); one without
keeps it in the user's data folder (``$PINOCHLE_DATA_DIR`` when set, else ``%APPDATA%\\pinochle`` on Windows,
``~/Library/Application Support/pinochle`` on macOS, ``$XDG_DATA_HOME/pinochle`` or
``~/.local/share/pinochle`` elsewhere) as ``play.json``. ``save`` writes it atomically (``records.safewrite``:
a crash leaves the old file or the new one, never half of it); ``load`` reads it back, ``JournalError`` when
it is missing, unreadable or not a session's; ``drop`` removes it once the match is over. The journal holds
the session's settings and its state; the record never holds half a deal.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from ..errors import JournalError

__all__ = ["FORMAT", "data_dir", "drop", "journal_path", "load", "save"]

# the journal's format: a journal of another format is refused rather than misread
FORMAT = "pinochle-play/1"


def data_dir() -> Path:
    """The user's data folder for the program (see the module docstring); not created here."""
    env = os.environ.get("PINOCHLE_DATA_DIR")
    if env:
        return Path(env)
    home = Path.home()
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", home / "AppData" / "Roaming")) / "pinochle"
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "pinochle"
    return Path(os.environ.get("XDG_DATA_HOME") or home / ".local" / "share") / "pinochle"


def journal_path(record: str | None) -> Path:
    """The journal of a session writing to ``record`` (None: a session without one)."""
    if record is None:
        return data_dir() / "play.json"
    path = Path(os.path.abspath(record))
    return path.with_name(f".{path.name}.play.json")


def save(path: Path, state: dict[str, Any]) -> None:
    """Write the session ``state`` to ``path`` whole (its folder made when missing); ``JournalError`` when it cannot
    be written."""
    data = json.dumps({"format": FORMAT, "session": state}, ensure_ascii=False).encode("utf-8")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
            os.replace(temp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temp)
            raise
    except OSError as exc:
        raise JournalError(f"{path}: cannot keep the session: {exc.strerror or exc}") from None


def load(path: Path) -> dict[str, Any]:
    """The session state kept in ``path``; ``JournalError`` naming the file when there is none to resume."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise JournalError(f"{path}: no session is kept there to resume") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise JournalError(f"{path}: cannot read the kept session: {exc}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise JournalError(f"{path}: the kept session is not JSON (line {exc.lineno}): {exc.msg}") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("session"), dict):
        raise JournalError(f"{path}: not a session kept by this program (format {FORMAT})")
    state: dict[str, Any] = data["session"]
    return state


def drop(path: Path) -> None:
    """Remove the journal (nothing to do when it is gone)."""
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
