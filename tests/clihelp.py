"""The one way for the tests to drive the command line: exit code, stdout, stderr (and JSON)."""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from click.testing import CliRunner

from pinochle_cli.cli import cli


class Ran(NamedTuple):
    code: int
    out: str
    err: str


def run_cli(*args: str, env: dict[str, str] | None = None, input: str | None = None) -> Ran:
    """``pinochle ARGS`` (``env``: variables set for this run; ``input``: what is typed); a traceback fails the
    test."""
    result = CliRunner().invoke(cli, list(args), env=env, input=input)
    exc = result.exception
    assert exc is None or isinstance(exc, SystemExit), f"a traceback would show: {exc!r}"
    return Ran(result.exit_code, result.stdout, result.stderr)


def run_cli_json(*args: str) -> Any:
    """``pinochle ARGS --json`` that must succeed quietly; the parsed document."""
    code, out, err = run_cli(*args, "--json")
    assert (code, err) == (0, ""), (code, err)
    return json.loads(out)
