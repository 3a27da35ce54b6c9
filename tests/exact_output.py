"""Run the commands of ``golden/commands.txt`` as the exact-output test does (also to record them anew).

``python tests/exact_output.py --write`` records every command's exit code, stdout and stderr in
``golden/outputs.json``: run it only when an output is meant to change, and read the diff.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
ENV = {"COLUMNS": "80", "PINOCHLE_RULESET": None, "LC_ALL": "C.UTF-8", "NO_COLOR": None}


def commands() -> list[str]:
    lines = (GOLDEN / "commands.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


@contextmanager
def examples_folder() -> Iterator[Path]:
    """A folder holding a copy of examples/ (record commands write there), as the current directory."""
    old = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "examples"
        shutil.copytree(ROOT / "examples", folder)
        os.chdir(folder)
        try:
            yield folder
        finally:
            os.chdir(old)


def run_all() -> dict[str, list[object]]:
    from click.testing import CliRunner

    from pinochle_cli.cli import cli

    out: dict[str, list[object]] = {}
    with examples_folder():
        for i, line in enumerate(commands()):
            result = CliRunner().invoke(cli, shlex.split(line), env=ENV)
            # the repository's own path (a bundled ruleset's file) is shown as <repo>
            shown = [text.replace(str(ROOT), "<repo>") for text in (result.stdout, result.stderr)]
            out[f"{i:03d} {line}"] = [result.exit_code, *shown]
    return out


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/exact_output.py --write")
    text = json.dumps(run_all(), indent=1, ensure_ascii=False) + "\n"
    (GOLDEN / "outputs.json").write_text(text, encoding="utf-8")
