"""What the score page's tests share: a record to serve, and a browser-like client that reads the page's form
token and posts forms the way the page does."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

flask = pytest.importorskip("flask", reason="the serve extra (Flask) is not installed")

from pinochle_cli.cli import cli  # noqa: E402
from pinochle_cli.serve.app import create_app  # noqa: E402
from pinochle_cli.serve.security import Guard  # noqa: E402

HOST = "localhost"
ORIGIN = f"http://{HOST}"
TOKEN = re.compile(r'name="token" value="([0-9a-f]+)"')


def new_record(folder: Path, *args: str, name: str = "game.yaml") -> Path:
    path = folder / name
    table = args or ("--team", "Us=Ann,Cy", "--team", "Them=Bob,Di")
    made = CliRunner().invoke(cli, ["record", "new", str(path), *table], env={"PINOCHLE_RULESET": None})
    assert made.exit_code == 0, made.output
    return path


class Phone:
    """One phone: its own cookies, the token of the page it last opened."""

    def __init__(self, path: Path, guard: Guard | None = None) -> None:
        self.guard = guard or Guard(None)
        self.app = create_app(str(path), self.guard)
        self.client = self.app.test_client()
        self.token = ""

    def open(self) -> Any:
        page = self.client.get("/", base_url=ORIGIN)
        found = TOKEN.search(page.get_data(as_text=True))
        if found:
            self.token = found.group(1)
        return page

    def post(self, where: str, data: dict[str, str] | None = None, *, origin: str | None = ORIGIN,
             token: bool = True) -> Any:
        if not self.token:
            self.open()
        form = {**({"token": self.token} if token else {}), **(data or {})}
        headers = {"Origin": origin} if origin is not None else {}
        return self.client.post(where, data=form, headers=headers, base_url=ORIGIN)


# a deal of the single-deck game: Ann bids 250 in hearts and makes it
MADE = {"bidder": "Ann", "bid": "250", "trump": "H", "meld:Us": "100", "meld:Them": "40", "counters:Us": "150"}


def start_server(path: Path, *args: str) -> tuple[subprocess.Popen[str], str]:
    """``pinochle serve`` of ``path`` in a process of its own; its address (from its first line,
    ``Serving FILE at URL``)."""
    env = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen([sys.executable, "-m", "pinochle_cli", "serve", str(path), *args], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    first = proc.stdout.readline()
    assert first.startswith("Serving "), first + (proc.stderr.read() if proc.stderr else "")
    return proc, first.split(" at ")[1].strip()


def stop_server(proc: subprocess.Popen[str]) -> tuple[int, str, float]:
    """Ctrl-C to the server: its exit code, its stderr and how long it took to stop."""
    started = time.monotonic()
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=30)
    return proc.returncode, err, time.monotonic() - started
