"""The record's lock: one writer at a time, and no lock file left behind once the write is done.

The lock is a ``.NAME.lock`` file beside the record, held for as long as a write takes:

* where the system has ``fcntl`` (Linux, macOS, the BSDs): an exclusive ``flock`` on that file, which the system
  lets go of when its holder ends, however it ends. The holder removes the file before it lets go; a writer that
  was waiting on the removed file sees, once it holds it, that the name no longer leads to the file it holds, and
  starts again on a new one (the protocol of every careful ``flock`` user: lock, then check the name still leads
  to the locked file). So the folder keeps no lock file between writes, and two writers never hold two files of
  one name;
* elsewhere (Windows): ``filelock``'s lock on the file (``msvcrt`` on Windows, which removes the file when it lets
  go where no one else has it open; a lock file with its owner's process id where the system has neither).

A folder where the lock file cannot be made (read-only, another user's) is said at once as that, never as a
writer to wait for. ``hold`` raises ``LockBusy`` after ``timeout`` seconds of another writer, ``LockUnavailable``
when the lock file cannot be made or locked.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
import warnings
from collections.abc import Iterator

try:
    import fcntl
except ImportError:
    fcntl = None  # type: ignore[assignment]

__all__ = ["LockBusy", "LockUnavailable", "hold", "lock_path"]

# seconds between two tries while another writer holds the lock
POLL = 0.05


class LockBusy(Exception):
    """Another writer held the lock for the whole wait."""


class LockUnavailable(OSError):
    """The lock file cannot be made or locked (the folder is read-only, or another user's)."""


def lock_path(target: str) -> str:
    """The lock file of the record ``target``: ``.NAME.lock`` beside it."""
    return os.path.join(os.path.dirname(target), f".{os.path.basename(target)}.lock")


@contextlib.contextmanager
def hold(target: str, timeout: float) -> Iterator[None]:
    """Hold the lock of the record ``target`` for the block (waiting at most ``timeout`` seconds for it)."""
    if fcntl is None:
        with _portable(target, timeout):
            yield
        return
    fd = _acquire(lock_path(target), time.monotonic() + timeout)
    try:
        yield
    finally:
        # removed while still held: a waiter that locks the removed file sees it is not the one named any more
        with contextlib.suppress(OSError):
            os.unlink(lock_path(target))
        os.close(fd)


def _open(path: str) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        return os.open(path, flags, 0o666)
    except OSError as exc:
        raise LockUnavailable(exc.errno, f"cannot make the lock file {path}: {exc.strerror or exc}") from None


def _acquire(path: str, deadline: float) -> int:
    """An open descriptor of ``path`` that this process holds the lock of, and that ``path`` still names."""
    assert fcntl is not None
    while True:
        fd = _open(path)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
                raise LockUnavailable(exc.errno, f"cannot lock {path}: {exc.strerror or exc}") from None
            if time.monotonic() >= deadline:
                raise LockBusy(path) from None
            time.sleep(POLL)
            continue
        if _names(path, fd):
            return fd
        # the holder before removed it: start again on the file the name leads to now
        os.close(fd)


def _names(path: str, fd: int) -> bool:
    """Whether ``path`` still leads to the file open as ``fd``."""
    try:
        named = os.stat(path, follow_symlinks=False)
    except FileNotFoundError:
        return False
    held = os.fstat(fd)
    return (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)


@contextlib.contextmanager
def _portable(target: str, timeout: float) -> Iterator[None]:
    # where fcntl is missing filelock warns that it uses a lock file; that is fine
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from filelock import FileLock, Timeout

        lock = FileLock(lock_path(target), timeout=timeout)
        try:
            lock.acquire()
        except Timeout:
            raise LockBusy(lock_path(target)) from None
        except OSError as exc:
            raise LockUnavailable(exc.errno, f"cannot lock {lock_path(target)}: {exc.strerror or exc}") from None
    try:
        yield
    finally:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lock.release()
