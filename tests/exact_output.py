"""Run the commands of ``golden/commands.txt`` as the exact-output test does (also to record them anew).

Each command runs in a folder holding a fresh copy of examples/, as the current directory. The commands that
write a file (``WRITERS``) and every command naming a file one of them writes form one group, run in their
order in one folder; every other command runs alone, in a folder of its own, and must leave it as it found it.

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
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = Path(__file__).resolve().parent / "golden"
ENV = {"COLUMNS": "80", "PINOCHLE_RULESET": None, "LC_ALL": "C.UTF-8", "NO_COLOR": None}
# the commands that write the files they name
WRITERS = {("record", "new"), ("record", "add"), ("record", "edit"), ("record", "undo"), ("record", "redo"),
           ("rulesets", "copy")}


def commands() -> list[str]:
    lines = (GOLDEN / "commands.txt").read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.startswith("#")]


class Case(NamedTuple):
    """Commands run one after the other in one folder, ``(key, words)`` each (the key as in outputs.json);
    ``writes``: a group around a written file (a command alone must leave its folder as it found it)."""

    name: str
    commands: tuple[tuple[str, tuple[str, ...]], ...]
    writes: bool


def cases() -> list[Case]:
    """Every command once: the groups around the files the writers write, each in order, and the others alone."""
    lines = [(f"{i:03d} {line}", tuple(shlex.split(line))) for i, line in enumerate(commands())]
    written = {word for _, words in lines if words[:2] in WRITERS for word in words[2:] if word.endswith(".yaml")}
    grouped: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
    for key, words in lines:
        files = written.intersection(words)
        assert len(files) <= 1, f"{key}: a command naming two written files would join their groups"
        grouped.setdefault(files.pop() if files else key, []).append((key, words))
    return [Case(f"{run[0][0][:3]}… {by}" if by in written else by, tuple(run), by in written)
            for by, run in grouped.items()]


def _contents(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


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


def run_case(case: Case) -> dict[str, list[object]]:
    """Each command's ``[exit code, stdout, stderr]`` by its key; a command alone must change no file."""
    from click.testing import CliRunner

    from pinochle_cli.cli import cli

    out: dict[str, list[object]] = {}
    with examples_folder() as folder:
        before = None if case.writes else _contents(folder)
        for key, words in case.commands:
            result = CliRunner().invoke(cli, list(words), env=ENV)
            # the repository's own path (a bundled ruleset's file) is shown as <repo>
            shown = [text.replace(str(ROOT), "<repo>") for text in (result.stdout, result.stderr)]
            out[key] = [result.exit_code, *shown]
        if before is not None:
            assert _contents(folder) == before, f"{case.name} writes a file: add its command to WRITERS"
    return out


def run_all() -> dict[str, list[object]]:
    out: dict[str, list[object]] = {}
    for case in cases():
        out.update(run_case(case))
    return dict(sorted(out.items()))


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python tests/exact_output.py --write")
    text = json.dumps(run_all(), indent=1, ensure_ascii=False) + "\n"
    (GOLDEN / "outputs.json").write_text(text, encoding="utf-8")
