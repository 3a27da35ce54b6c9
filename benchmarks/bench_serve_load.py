"""The score page under load: how long a phone waits for the page while a hundred idle connections are open, and
whether the right PIN from a phone is taken while another device sends wrong ones.

    python benchmarks/bench_serve_load.py [--idle N] [--reads N] [--against REV]

Each server runs as a user runs it (``python -m pinochle_cli serve FILE``, on loopback). ``--against REV`` runs the
same load against another git revision too (a temporary ``git worktree`` of REV, its package first on
``PYTHONPATH``), in the same run: old and new figures side by side.

1. The phone alone reads the page ``--reads`` times (a new connection each time): the median and the longest wait.
2. ``--idle`` connections are opened and left silent; the phone reads the page again (each read given up after
   ``GIVE_UP`` seconds). The idle connections come from 127.0.0.2 where the system lets a socket take that
   address (Linux: all of 127/8 is loopback), else from 127.0.0.1 like the phone.
3. A server with a PIN (``--host 0.0.0.0``): a guesser at 127.0.0.2 sends wrong PINs as fast as it is answered for
   ``GUESSING`` seconds; meanwhile the phone at 127.0.0.1 opens the page and sends the right PIN: its wait, and
   whether the PIN was taken.

The first line gives the machine's cores and load; timings on a busy machine are noisy.
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parent.parent
GIVE_UP = 10.0
GUESSING = 4.0
OTHER = "127.0.0.2"
TOKEN = re.compile(r'name="token" value="([0-9a-f]+)"')


def _git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout.strip()


class Server:
    """``pinochle serve`` of a fresh record, from the checkout ``tree``, in a process of its own."""

    def __init__(self, tree: Path, folder: Path, *args: str) -> None:
        record = folder / "night.yaml"
        env = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONUNBUFFERED": "1",
               "PYTHONPATH": os.pathsep.join([str(tree), *filter(None, [os.environ.get("PYTHONPATH")])])}
        if not record.exists():
            subprocess.run([sys.executable, "-m", "pinochle_cli", "record", "new", str(record), "--team",
                            "Us=Ann,Cy", "--team", "Them=Bob,Di"], env=env, check=True, capture_output=True, cwd=folder)
        # run from the record's folder: ``-m`` puts the current folder first on the path
        self.proc = subprocess.Popen([sys.executable, "-m", "pinochle_cli", "serve", str(record), "--port", "0",
                                      *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     cwd=folder)
        assert self.proc.stdout is not None
        first = self.proc.stdout.readline()
        if not first.startswith("Serving "):
            raise RuntimeError(first + self.proc.stderr.read() if self.proc.stderr else first)
        self.port = int(first.rsplit(":", 1)[1].strip().strip("/"))
        self.pin = None
        while True:
            line = self.proc.stdout.readline()
            if not line or line.startswith("Ctrl-C"):
                break
            if line.startswith("PIN to enter deals: "):
                self.pin = line.split(": ", 1)[1].strip()

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.communicate(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.communicate()


def _other_address() -> str | None:
    """127.0.0.2 where a socket may take it as its own address, else None."""
    try:
        with socket.socket() as probe:
            probe.bind((OTHER, 0))
        return OTHER
    except OSError:
        return None


def _read_page(port: int, source: str | None = None) -> tuple[float, int | None]:
    """Seconds to read the page on a new connection and its status (None: no answer within ``GIVE_UP``)."""
    started = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GIVE_UP,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request("GET", "/", headers={"Host": "localhost"})
        answer = conn.getresponse()
        answer.read()
        return time.perf_counter() - started, answer.status
    except OSError:
        return time.perf_counter() - started, None
    finally:
        conn.close()


def _reads(port: int, count: int) -> str:
    waits, failed = [], 0
    for _ in range(count):
        seconds, status = _read_page(port)
        if status == 200:
            waits.append(seconds)
        else:
            failed += 1
    if not waits:
        return f"no page in {count} tries (each given up after {GIVE_UP:.0f} s)"
    shown = f"median {1000 * statistics.median(waits):.1f} ms, longest {1000 * max(waits):.1f} ms"
    return shown + (f", {failed} of {count} without a page" if failed else "")


def _idle(port: int, count: int, source: str | None) -> list[socket.socket]:
    out = []
    for _ in range(count):
        sock = socket.socket()
        if source:
            sock.bind((source, 0))
        sock.settimeout(5)
        try:
            sock.connect(("127.0.0.1", port))
        except OSError:
            sock.close()
            break
        out.append(sock)
    return out


def _pin(port: int, pin: str, source: str | None) -> int | None:
    """Open the page and send ``pin`` as the page does: the answer's status (None: none)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=GIVE_UP,
                                      source_address=(source, 0) if source else None)
    try:
        conn.request("GET", "/", headers={"Host": "localhost"})
        page = conn.getresponse()
        html = page.read().decode()
        cookie = "; ".join(c.split(";", 1)[0] for c in page.headers.get_all("Set-Cookie") or [])
        found = TOKEN.search(html)
        body = urlencode({"token": found.group(1) if found else "", "pin": pin})
        conn.request("POST", "/pin", body=body, headers={
            "Host": "localhost", "Origin": "http://localhost", "Cookie": cookie,
            "Content-Type": "application/x-www-form-urlencoded"})
        answer = conn.getresponse()
        answer.read()
        return answer.status
    except OSError:
        return None
    finally:
        conn.close()


def _guessing(tree: Path, folder: Path, other: str | None) -> str:
    server = Server(tree, folder, "--host", "0.0.0.0")
    stop = threading.Event()
    guesses = [0]

    def guess() -> None:
        while not stop.is_set():
            _pin(server.port, "000000" if server.pin != "000000" else "111111", other)
            guesses[0] += 1

    guesser = threading.Thread(target=guess)
    try:
        guesser.start()
        time.sleep(GUESSING / 2)
        started = time.perf_counter()
        status = _pin(server.port, server.pin or "", None)
        waited = time.perf_counter() - started
        time.sleep(GUESSING / 2)
    finally:
        stop.set()
        guesser.join()
        server.stop()
    taken = {303: "taken", 403: "refused as wrong", 429: "refused: too many wrong PINs"}.get(status or 0, "no answer")
    return f"the phone's right PIN {taken} after {1000 * waited:.1f} ms; the guesser sent {guesses[0]} wrong PINs"


def run(tree: Path, name: str, idle: int, reads: int) -> None:
    other = _other_address()
    with tempfile.TemporaryDirectory(prefix="pinochle-load-") as tmp:
        folder = Path(tmp)
        server = Server(tree, folder)
        try:
            print(f"{name}: the phone alone: {_reads(server.port, reads)}")
            held = _idle(server.port, idle, other)
            try:
                time.sleep(0.5)
                print(f"{name}: {len(held)} idle connections from {other or '127.0.0.1'}: "
                      f"{_reads(server.port, reads)}")
            finally:
                for sock in held:
                    sock.close()
        finally:
            server.stop()
        print(f"{name}: a guesser at {other or '127.0.0.1'}: {_guessing(tree, folder, other)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--idle", type=int, default=100)
    parser.add_argument("--reads", type=int, default=20)
    parser.add_argument("--against", metavar="REV", default=None)
    args = parser.parse_args()
    load = f"  load: {os.getloadavg()[0]:.1f}" if hasattr(os, "getloadavg") else ""
    print(f"cores: {os.cpu_count()}{load}")
    run(ROOT, "this checkout", args.idle, args.reads)
    if args.against:
        with tempfile.TemporaryDirectory(prefix="pinochle-revision-") as tmp:
            tree = Path(tmp) / "tree"
            _git("worktree", "add", "--detach", "--quiet", str(tree), args.against)
            try:
                run(tree, f"{args.against} ({_git('rev-parse', '--short', args.against)})", args.idle, args.reads)
            finally:
                _git("worktree", "remove", "--force", str(tree))


if __name__ == "__main__":
    main()
