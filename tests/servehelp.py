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


# a form that changes the record, and the hidden fields it carries
FORM = re.compile(r'<form method="post" action="(/[a-z]+)#said"[^>]*>(.*?)</form>', re.DOTALL)
HIDDEN = re.compile(r'<input type="hidden" name="(\w+)" value="([^"]*)">')


class Phone:
    """One phone: its own cookies, and the hidden fields of each form of the page it last showed (kept as a browser
    keeps them: the page after a change is the one the change was answered with)."""

    def __init__(self, path: Path, guard: Guard | None = None, *, address: str = "127.0.0.1",
                 app: Any = None) -> None:
        self.guard = guard or Guard(None)
        # phones of one server share its application
        self.app = app or create_app(str(path), self.guard)
        self.client = self.app.test_client()
        self.client.environ_base["REMOTE_ADDR"] = address
        self.token = ""
        self.forms: dict[str, dict[str, str]] = {}

    def read(self, page: Any) -> Any:
        """Keep the forms of a page shown (an answer that is not a page keeps those before)."""
        html = page.get_data(as_text=True)
        if "<form" in html:
            self.forms = {action: dict(HIDDEN.findall(body)) for action, body in FORM.findall(html)}
            found = TOKEN.search(html)
            self.token = found.group(1) if found else self.token
        return page

    def open(self, where: str = "/") -> Any:
        return self.read(self.client.get(where, base_url=ORIGIN))

    def post(self, where: str, data: dict[str, str] | None = None, *, origin: str | None = ORIGIN,
             token: bool = True, hidden: bool = True) -> Any:
        """Send the page's form ``where`` with ``data``; after a change, the page it answers with is shown."""
        if not self.token:
            self.open()
        sent = dict(self.forms.get(where, {"token": self.token})) if hidden else {"token": self.token}
        sent.setdefault("token", self.token)
        if not token:
            sent.pop("token", None)
        form = {**sent, **(data or {})}
        headers = {"Origin": origin} if origin is not None else {}
        answer = self.client.post(where, data=form, headers=headers, base_url=ORIGIN)
        if answer.status_code == 303:
            self.open(answer.location)
        else:
            self.read(answer)
        return answer


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
