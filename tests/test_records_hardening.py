"""The score sheet survives links, permissions, full disks, killed writers and platforms without fcntl.

Real files in temporary folders; the full disk is ``RLIMIT_FSIZE`` in a subprocess, the killed
writer a real ``kill -9``.
"""

from __future__ import annotations

import os
import resource
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from pinochle_cli.cli import cli
from pinochle_cli.records import parse_record

ROOT = Path(__file__).resolve().parent.parent
RECORD = """\
ruleset: single-deck
teams:
  North-South: [Ann, Cy]
  East-West: [Bob, Di]
deals:
  - {dealer: Ann, bidder: Bob, bid: 250, trump: hearts, meld: {North-South: 20, East-West: 100},
     counters: {North-South: 100, East-West: 150}}
"""
ADD = ["--bidder", "Di", "--bid", "300", "--trump", "S", "--meld", "EW=190", "--meld", "NS=40", "--counters", "NS=150"]
NEW = ["-r", "two-handed", "--player", "Ann", "--player", "Bob"]


def invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, list(args), env={"PINOCHLE_RULESET": "", "COLUMNS": "120"})


def run(*args: str, limit_file_size: int | None = None) -> subprocess.CompletedProcess[str]:
    def limit() -> None:
        if limit_file_size is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_size, limit_file_size))

    env = {**os.environ, "PINOCHLE_RULESET": "", "PYTHONPATH": str(ROOT)}
    return subprocess.run([sys.executable, "-m", "pinochle_cli", *args], preexec_fn=limit, capture_output=True,
                          text=True, timeout=120, env=env, check=False)


def deals(path: Path) -> int:
    return len(parse_record(path.read_text(), str(path)).deals)


def others(folder: Path, *keep: str) -> list[str]:
    """Files in ``folder`` besides ``keep`` and the lock files (temporaries left behind)."""
    return sorted(p.name for p in folder.iterdir() if p.name not in keep and not p.name.endswith(".lock"))


@pytest.fixture
def sheet(tmp_path: Path) -> Path:
    path = tmp_path / "night.yaml"
    path.write_text(RECORD)
    return path


# ------------------------------------------------------------------ 1. links

@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_a_link_is_written_through_to_its_target(sheet: Path, tmp_path: Path) -> None:
    other = tmp_path / "elsewhere"
    other.mkdir()
    link = other / "link.yaml"
    link.symlink_to(os.path.relpath(sheet, other))
    result = invoke("record", "add", str(link), *ADD)
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and link.resolve() == sheet
    assert deals(sheet) == 2
    assert others(other, "link.yaml") == [] and others(tmp_path, "night.yaml", "elsewhere") == []


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
def test_record_new_force_through_a_link_replaces_the_target(sheet: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.yaml"
    link.symlink_to("night.yaml")
    result = invoke("record", "new", str(link), *NEW, "--force")
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and "two-handed" in sheet.read_text()


# ------------------------------------------------------------------ 2. permissions

def test_a_read_only_record_is_refused_and_unchanged(sheet: Path) -> None:
    sheet.chmod(0o444)
    before = sheet.read_bytes()
    result = invoke("record", "add", str(sheet), *ADD)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr == f"Error: {sheet}: read-only: make it writable to add to it; the record is unchanged\n"
    assert sheet.read_bytes() == before and stat.S_IMODE(sheet.stat().st_mode) == 0o444


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root to give a file away")
def test_someone_elses_record_is_refused_and_unchanged(sheet: Path) -> None:
    os.chown(sheet, 4242, 4242)
    before = sheet.read_bytes()
    result = invoke("record", "add", str(sheet), *ADD)
    assert result.exit_code == 2
    assert result.stderr == (f"Error: {sheet}: not yours to write (it belongs to user id 4242); "
                             f"the record is unchanged\n")
    assert sheet.read_bytes() == before and sheet.stat().st_uid == 4242


# ------------------------------------------------------------------ 3. a full disk

def test_record_new_on_a_full_disk_leaves_no_file(tmp_path: Path) -> None:
    path = tmp_path / "new.yaml"
    full = run("record", "new", str(path), *NEW, limit_file_size=0)
    assert full.returncode == 2 and full.stdout == ""
    assert full.stderr == f"Error: {path}: cannot write: File too large\n"
    assert others(tmp_path) == []  # no record, no temporary file
    again = run("record", "new", str(path), *NEW)
    assert again.returncode == 0, again.stderr
    assert len(parse_record(path.read_text(), str(path)).deals) == 0


def test_record_add_on_a_full_disk_leaves_the_record(sheet: Path) -> None:
    before = sheet.read_bytes()
    full = run("record", "add", str(sheet), *ADD, limit_file_size=len(before))
    assert full.returncode == 2
    assert full.stderr == f"Error: {sheet}: cannot write: File too large; the record is unchanged\n"
    assert sheet.read_bytes() == before and others(sheet.parent, "night.yaml") == []


# ------------------------------------------------------------------ 4. a killed writer's temporary file

KILLED_WRITER = """\
import os, signal, sys
from pinochle_cli.records import safewrite
from pinochle_cli.records.entry import DealInput, deal_entries
from pinochle_cli.records.writer import append_deal
real = os.fsync
def die(fd):
    real(fd); os.kill(os.getpid(), signal.SIGKILL)
safewrite.os.fsync = die
d = DealInput(bidder='Di', bid=300, meld=['EW=100'], counters=['NS=150'])
append_deal(sys.argv[1], lambda r: deal_entries(r, d))
"""


def test_the_next_writer_removes_a_killed_writers_temporary_file(sheet: Path) -> None:
    killed = subprocess.run([sys.executable, "-c", KILLED_WRITER, str(sheet)], cwd=ROOT, capture_output=True,
                            timeout=60, check=False)
    assert killed.returncode == -signal.SIGKILL
    assert len(others(sheet.parent, "night.yaml")) == 1  # its temporary file, left behind
    result = invoke("record", "add", str(sheet), *ADD)
    assert result.exit_code == 0, result.output
    assert others(sheet.parent, "night.yaml") == [] and deals(sheet) == 2


def test_a_live_writers_temporary_file_is_kept(sheet: Path) -> None:
    live = sheet.parent / f".night.yaml.{os.getppid()}-abc.tmp"  # the parent of this test: alive
    live.write_text("half a record")
    assert invoke("record", "add", str(sheet), *ADD).exit_code == 0
    assert live.exists()


# ------------------------------------------------------------------ the lock without fcntl

NO_FCNTL = """\
import sys, warnings
warnings.simplefilter("error")  # no warning may reach the user
sys.modules["fcntl"] = None  # as on a platform without it: `import fcntl` fails
from pinochle_cli.cli import main
sys.argv = ["pinochle", *sys.argv[1:]]
main()
"""


def test_record_add_works_on_a_platform_without_fcntl(sheet: Path) -> None:
    procs = [subprocess.Popen([sys.executable, "-c", NO_FCNTL, "record", "add", str(sheet), "--bidder", "Di",
                               "--bid", str(bid), "-t", "D", "--meld", "EW=200", "--meld", "NS=0",
                               "--counters", "NS=100"], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE) for bid in (260, 270)]
    for proc in procs:
        _out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err.decode()
    assert sorted(d.bid for d in parse_record(sheet.read_text(), str(sheet)).deals[1:]) == [260, 270]


# ------------------------------------------------------------------ special files

@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_record_add_refuses_a_named_pipe_without_waiting(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.yaml"
    os.mkfifo(fifo)
    result = invoke("record", "add", str(fifo), *ADD)
    assert result.exit_code == 2
    assert result.stderr == f"Error: {fifo}: cannot read: not a regular file (a device, a pipe or a socket)\n"


# ------------------------------------------------------------------ names

@pytest.mark.parametrize(("args", "message"), [
    (["--player", "Ann\nBob", "--player", "Cy"], "--player 'Ann\\nBob': a name is one line of printable characters"),
    (["--team", "U\ts=Ann,Cy", "--team", "Them=Bob,Di"], "--team 'U\\ts': a name is one line of printable"),
    (["--team", "Us=Ann,C\x07y", "--team", "Them=Bob,Di"], "a player of --team 'C\\x07y': a name is one line"),
])
def test_record_new_refuses_a_name_that_is_not_one_printable_line(tmp_path: Path, args: list[str],
                                                                  message: str) -> None:
    rules = ["-r", "two-handed"] if args[0] == "--player" else []
    result = invoke("record", "new", str(tmp_path / "n.yaml"), *rules, *args)
    assert result.exit_code == 2 and message in result.stderr, result.stderr
    assert not (tmp_path / "n.yaml").exists()
