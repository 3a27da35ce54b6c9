"""The ``pinochle`` command (the console script) and ``python -m pinochle_cli``: the command line
(``pinochle_cli.cli.main``), stopped by Ctrl-C at once from its first moment on.

Ctrl-C ends any command with exit code 130 and no traceback: ``main`` catches ``KeyboardInterrupt`` from the very
start (the command line's own imports included: importing the package itself loads nothing), and
``watch_ctrl_c`` ends the process ``GRACE`` seconds after a Ctrl-C that the main thread has not acted on by then:
one that came while compiled code runs without Python's lock (the solver's search, in this process), which Python
would only see when that code returns. The watch is a thread woken by Python's own signal handler (its wakeup
socket), on every system.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
import time

__all__ = ["GRACE", "STOPPED", "main", "watch_ctrl_c"]

# the exit code of a command stopped by Ctrl-C, and the seconds the usual way out gets before the watch ends it
STOPPED = 130
GRACE = 0.5
_SOCKETS: list[socket.socket] = []


def _stop_now() -> None:
    """End the process at once: the terminal's line ended, exit code 130."""
    with contextlib.suppress(OSError):
        os.write(2, b"\n")
    os._exit(STOPPED)


def watch_ctrl_c() -> None:
    """From now on, a Ctrl-C the main thread has not ended the command on within ``GRACE`` seconds ends it."""
    if threading.current_thread() is not threading.main_thread():
        return
    ring, wake = socket.socketpair()
    wake.setblocking(False)
    try:
        signal.set_wakeup_fd(wake.fileno(), warn_on_full_buffer=False)
    except (ValueError, OSError):
        ring.close()
        wake.close()
        return

    def watch() -> None:
        while True:
            try:
                signals = ring.recv(512)
            except OSError:
                return
            if not signals:
                return
            if signal.SIGINT in signals:
                time.sleep(GRACE)
                _stop_now()

    # the sockets live as long as the process
    _SOCKETS.extend((ring, wake))
    threading.Thread(target=watch, name="ctrl-c", daemon=True).start()


def main() -> None:
    """The command line, as the ``pinochle`` command runs it."""
    # a command with a time budget (hint) counts it from here: its own start-up is in the user's wait
    started = time.monotonic()
    try:
        watch_ctrl_c()
        # the command line's imports: a Ctrl-C meanwhile stops as anywhere else
        from .cli import main as command_line

        command_line(started)
    except KeyboardInterrupt:
        # a second Ctrl-C on the way out changes nothing
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        with contextlib.suppress(OSError, ValueError):
            sys.stderr.write("\n")
            sys.stderr.flush()
        sys.exit(STOPPED)


if __name__ == "__main__":
    main()
