"""Writing a file so that a crash never leaves half of it: an atomic replace, and the record's lock.

* the record is locked (a ``.NAME.lock`` file beside it while a write is under way, removed when it is
  done: ``lockfile``) and read again under the lock;
* new text goes to a temporary file in the same folder, is flushed and fsynced, and replaces the
  file with ``os.replace``: a write killed at any moment leaves the old file or the new one; a new
  file is linked into place, so a full disk leaves no file;
* a symbolic link is written through (its target is replaced, the link stays); a read-only file,
  or one that belongs to another user, is refused rather than replaced;
* the temporary files of writers killed mid-write are removed by the next writer.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import time
from collections.abc import Iterator
from typing import IO

from ..errors import RecordError, YamlError, relocated
from ..yamlsource import open_nonblocking, read_capped
from .lockfile import LockBusy, LockUnavailable, hold, lock_path

__all__ = [
    "LOCK_WAIT", "atomic_write", "check_writable", "create_exclusive", "decode_text", "locked",
    "remove_stale_temporaries", "replace_locked", "write_whole",
]

# --------------------------------------------------------------------------- files

# seconds a writer waits for another one before giving up
LOCK_WAIT = 60.0
# a temporary file this old is a dead writer's where process ids cannot be checked
_STALE_AGE = 3600.0


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
    # make the rename itself durable (best effort)
    with contextlib.suppress(OSError):
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


def create_exclusive(target: str, data: bytes) -> None:
    """Create ``target`` with ``data`` whole or not at all: a temporary file, then a hard link to it."""
    tmp = _write_temp(target, data, _new_file_mode())
    try:
        os.link(tmp, target)
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise
        # a file system without hard links
        _create_exclusive_without_links(target, data)
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


def write_whole(path: str, data: bytes, *, replace: bool) -> None:
    """``path`` holds ``data`` whole, or is as it was: ``atomic_write`` when ``replace``, else a new file
    created whole or not at all (``FileExistsError`` if one is there). A full disk, a file size limit
    or a crash leave the old file untouched and no new one; other failures raise ``OSError``."""
    if replace:
        atomic_write(path, data)
    else:
        create_exclusive(os.path.realpath(path), data)


def _writer_is_gone(name: str, prefix: str, folder: str) -> bool:
    pid_text = name[len(prefix):].partition("-")[0]
    if os.name == "posix" and pid_text.isdigit():
        pid = int(pid_text)
        if pid == os.getpid():
            return False
        try:
            # signal 0: only asks whether the process exists
            os.kill(pid, 0)
        except ProcessLookupError:
            return True
        except OSError:
            # it exists (another user's)
            return False
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


@contextlib.contextmanager
def _record_lock(target: str, path: str) -> Iterator[None]:
    try:
        with hold(target, LOCK_WAIT):
            yield
    except LockBusy:
        raise RecordError(f"another writer has held {lock_path(target)} for {LOCK_WAIT:.0f} seconds; the record "
                          f"is unchanged (if no one else is writing, remove that file)", source=path) from None
    except LockUnavailable as exc:
        raise RecordError(f"cannot lock: {exc.strerror} (is the folder read-only?); the record is unchanged",
                          source=path) from None


def _open_record(target: str, path: str) -> IO[bytes]:
    try:
        fh = open_nonblocking(target)
    except OSError as exc:
        raise RecordError(f"cannot open: {exc.strerror or exc}", source=path) from None
    try:
        # a regular file of a sensible size
        read_capped(fh, path)
        fh.seek(0)
    except YamlError as exc:
        fh.close()
        raise relocated(exc) from None
    return fh


@contextlib.contextmanager
def locked(path: str) -> Iterator[IO[bytes]]:
    """Hold the record's lock; yields the record (the file a link points to) open for reading.

    The lock is a separate ``.NAME.lock`` file beside the record while it is held (``lockfile``: ``flock`` where
    there is ``fcntl``, ``filelock`` elsewhere), so the record itself can be replaced while it is held; it is
    removed when the write is done. Temporary files of writers killed mid-write are removed once the lock is taken.
    """
    target = os.path.realpath(path)
    # a missing or special file: say so before making a lock file
    _open_record(target, path).close()
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


def decode_text(data: bytes, path: str) -> str:
    """The record's bytes as text; ``RecordError`` (naming ``path``) unless they are UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise RecordError("not UTF-8 text", source=path) from None




def replace_locked(path: str, fh: IO[bytes], text: str) -> None:
    """Replace the record ``fh`` (held open by ``locked``) with ``text``, refused if it may not be written."""
    check_writable(path)
    mode = os.fstat(fh.fileno()).st_mode & 0o7777
    # Windows cannot replace a file that is open; the lock is held on its own file
    fh.close()
    try:
        atomic_write(path, text.encode("utf-8"), mode=mode)
    except OSError as exc:
        raise RecordError(f"cannot write: {exc.strerror or exc}; the record is unchanged", source=path) from None

