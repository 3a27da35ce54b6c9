"""Every command that reads a record or a ruleset reads it the one safe way (yamlsource.read_source).

Each is given ``/dev/zero`` (a device that never ends), a named pipe nobody writes to and a file
over ``MAX_BYTES``, in every place it takes one (a record argument, ``-r PATH``, a ruleset
argument, a record naming it as its ruleset): it must answer at once with exit 2 and one line
on stderr, nothing on stdout. A command added later with a file argument or ``-r`` must be added
to ``READERS`` (the last test walks the command tree).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import click
import pytest

from pinochle_cli.cli import cli
from pinochle_cli.yamlsource import MAX_BYTES

# every command that reads a file: its arguments, BAD standing for the file, TMP for a fresh folder
READERS: dict[str, list[str]] = {
    "analyze": ["analyze", "BAD"],
    "estimate -r": ["estimate", "AS KS", "-r", "BAD"],
    "hint -r": ["hint", "--hand", "AS", "-t", "S", "-r", "BAD"],
    "legal -r": ["legal", "--hand", "AS", "-t", "S", "-r", "BAD"],
    "meld -r": ["meld", "AS", "-r", "BAD"],
    "pass -r": ["pass", "AS KS", "-t", "S", "--bid", "300", "-r", "BAD"],
    "solve -r": ["solve", "--hand", "AS", "--hand", "KS", "--hand", "QS", "--hand", "JS", "-t", "S", "-r", "BAD"],
    "record add": ["record", "add", "BAD", "--bid", "250", "--no-prompt"],
    "record add --prompt": ["record", "add", "BAD", "--prompt"],
    "record edit": ["record", "edit", "BAD", "1", "--bid", "300"],
    "record new -r": ["record", "new", "TMP/new.yaml", "-r", "BAD", "--player", "Ann", "--player", "Bob"],
    "record redo": ["record", "redo", "BAD"],
    "record show": ["record", "show", "BAD"],
    "record show N": ["record", "show", "BAD", "1"],
    "record undo": ["record", "undo", "BAD"],
    "rulesets check": ["rulesets", "check", "BAD"],
    "rulesets copy": ["rulesets", "copy", "BAD", "TMP/copy.yaml"],
    "rulesets show": ["rulesets", "show", "BAD"],
    "rulesets show --rules": ["rulesets", "show", "BAD", "--rules"],
    "score": ["score", "BAD"],
    "serve": ["serve", "BAD", "--port", "0"],
    "score (its ruleset)": ["score", "TMP/names-it.yaml"],
    "stats": ["stats", "BAD"],
}

KINDS = ["device", "fifo", "too large"]
# seconds: a refusal is immediate; the limit only keeps a reader that waits or reads forever from hanging the run
LIMIT = 30.0


def _bad_file(kind: str, tmp: Path) -> str:
    if kind == "device":
        if not os.path.exists("/dev/zero"):
            pytest.skip("needs /dev/zero")
        return "/dev/zero"
    if kind == "fifo":
        if not hasattr(os, "mkfifo"):
            pytest.skip("needs named pipes")
        fifo = tmp / "pipe.yaml"
        os.mkfifo(fifo)
        return str(fifo)
    big = tmp / "big.yaml"
    big.write_bytes(b"ruleset: single-deck\n" + b"#" * MAX_BYTES + b"\n")
    return str(big)


def _limits() -> None:
    # a reader that reads /dev/zero to the end runs out of memory here, not on the machine
    import resource

    cap = 4 << 30
    resource.setrlimit(resource.RLIMIT_AS, (cap, cap))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("name", sorted(READERS))
def test_every_reader_refuses_a_special_or_huge_file_at_once(name: str, kind: str, tmp_path: Path) -> None:
    bad = _bad_file(kind, tmp_path)
    (tmp_path / "names-it.yaml").write_text(f"ruleset: {bad}\nplayers: [Ann, Bob]\ndeals:\n", encoding="utf-8")
    args = [bad if a == "BAD" else a.replace("TMP", str(tmp_path)) for a in READERS[name]]
    start = time.monotonic()
    ran = subprocess.run([sys.executable, "-m", "pinochle_cli", *args], capture_output=True, text=True,
                         timeout=LIMIT, stdin=subprocess.DEVNULL, cwd=tmp_path,
                         preexec_fn=_limits if os.name == "posix" else None)
    took = time.monotonic() - start
    lines = ran.stderr.splitlines()
    assert (ran.returncode, ran.stdout, len(lines)) == (2, "", 1), ran
    assert lines[0].startswith("Error: ") and bad in lines[0], lines
    assert any(w in lines[0] for w in ("not a regular file", "too large")), lines
    assert took < LIMIT / 2, took
    assert not (tmp_path / "new.yaml").exists() and not (tmp_path / "copy.yaml").exists()


def _commands(group: click.Group, prefix: str = "") -> list[tuple[str, click.Command]]:
    ctx = click.Context(group)
    out = []
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        assert command is not None
        if isinstance(command, click.Group):
            out += _commands(command, f"{prefix}{name} ")
        out.append((f"{prefix}{name}", command))
    return out


def test_every_command_that_reads_a_file_is_listed() -> None:
    """A command with a file or ruleset argument, or -r, is among ``READERS``."""
    readers = {n.removesuffix(" -r").split(" --")[0].removesuffix(" N") for n in READERS if "(" not in n}
    for name, command in _commands(cli):
        takes = {p.name for p in command.params} & {"path", "record_paths", "ruleset"}
        if takes:
            assert name in readers, f"{name} reads {takes}: add it to READERS"
