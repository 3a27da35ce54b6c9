"""Appending deals safely: the user's text kept, refusals leave the file alone, locks, atomic writes."""

from __future__ import annotations

import difflib
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from filelock import FileLock

from pinochle_cli.errors import RecordError
from pinochle_cli.records import parse_record, safewrite
from pinochle_cli.records.entry import DealInput, deal_entries
from pinochle_cli.records.writer import append_deal, insert_deal, yaml_value

ROOT = Path(__file__).resolve().parent.parent
HEAD = """\
# our Friday game
ruleset: single-deck   # the usual
teams:
  North-South: [Ann, Cy]
  East-West: [Bob, Di]
"""
DEAL = [("dealer", "Ann"), ("bidder", "Bob"), ("bid", 300), ("trump", "hearts"),
        ("meld", {"North-South": 60, "East-West": 180}), ("counters", {"North-South": 80, "East-West": 170})]
FIRST = """\
  - dealer: Ann     # Ann shuffled
    bidder: Bob
    bid: 250
    meld: {North-South: 100}
    counters: {North-South: 150, East-West: 100}
"""


def only_added(before: str, after: str) -> bool:
    """Every character of ``before`` is still there, in order; text was only inserted."""
    ops = difflib.SequenceMatcher(None, before, after, autojunk=False).get_opcodes()
    return all(op in ("equal", "insert") for op, *_ in ops)


LAYOUTS = [
    ("block list, comments after", HEAD + "deals:\n" + FIRST + "\n# end of the sheet\n"),
    ("block list, no final newline", HEAD + "deals:\n" + FIRST.rstrip("\n")),
    ("block list at column 0", HEAD + "deals:\n" + "".join(line[2:] + "\n" for line in FIRST.splitlines())),
    ("deals not the last key", HEAD + "deals:\n" + FIRST + "notes: keep going\n"),
    ("last deal ends in a literal block", HEAD + "deals:\n" + FIRST + "    notes: |\n      a close one\n\n"),
    ("block list tagged !!seq", HEAD + "deals: !!seq\n" + FIRST),
    ("block list, item on the next line", HEAD + "deals:\n  -\n    dealer: Ann\n    bidder: Bob\n    bid: 250\n"
     "    counters: {North-South: 150, East-West: 100}\n"),
    ("flow list", HEAD + "deals: [{bidder: Bob, bid: 250, counters: {North-South: 150, East-West: 100}}]\n"),
    ("flow list over lines", HEAD + "deals: [\n  {bidder: Bob, bid: 250, counters: {North-South: 150, East-West: 100}},\n]\n"),
]


@pytest.mark.parametrize(("label", "text"), LAYOUTS, ids=[x[0] for x in LAYOUTS])
def test_insert_keeps_everything_and_adds_one_deal(label, text):
    before = parse_record(text, "r.yaml")
    out = insert_deal(text, DEAL)
    after = parse_record(out, "r.yaml")
    assert len(after.deals) == len(before.deals) + 1
    assert after.deals[-1].score.points == (140, 350)
    assert only_added(text, out)


@pytest.mark.parametrize("deals", ["deals: []\n", "deals: []   # none yet\n", "deals:\n", "deals: ~\n", ""])
def test_insert_into_an_empty_record(deals):
    text = HEAD + deals
    out = insert_deal(text, DEAL)
    record = parse_record(out, "r.yaml")
    assert len(record.deals) == 1
    assert out.startswith(HEAD)
    if "none yet" in deals:
        assert "deals:    # none yet\n  - dealer: Ann\n" in out


def test_insert_exact_text():
    assert insert_deal(HEAD + "deals: []\n", DEAL) == HEAD + (
        "deals:\n"
        "  - dealer: Ann\n"
        "    bidder: Bob\n"
        "    bid: 300\n"
        "    trump: hearts\n"
        "    meld: {North-South: 60, East-West: 180}\n"
        "    counters: {North-South: 80, East-West: 170}\n")


def test_insert_keeps_crlf_line_ends():
    text = (HEAD + "deals:\n" + FIRST).replace("\n", "\r\n")
    out = insert_deal(text, DEAL)
    assert out.startswith(text) and "\n" not in out.replace("\r\n", "")


@pytest.mark.parametrize(("value", "text"), [
    ("Ann", "Ann"), ("North-South", "North-South"), ("yes", '"yes"'), ("250", '"250"'), ("a: b", '"a: b"'),
    ("Zoë", '"Zoë"'), ("#1", '"#1"'), ("../r/h.yaml", "../r/h.yaml"), ("-x", '"-x"'), ("~", '"~"'), (True, "true"), (250, "250"), (["pass", 250], "[pass, 250]"),
    ({"Kim & Lou": 3}, '{"Kim & Lou": 3}'),
])
def test_yaml_values_read_back_exactly(value, text):
    import yaml

    assert yaml_value(value) == text
    assert yaml.safe_load(f"x: {text}") == {"x": value}


# --------------------------------------------------------------------------- the file

@pytest.fixture
def sheet(tmp_path):
    path = tmp_path / "night.yaml"
    path.write_bytes((HEAD + "deals:\n" + FIRST + "# more to come\n").encode())
    return path


def add(path: Path, **kw) -> object:
    given = DealInput(**kw)
    return append_deal(str(path), lambda rec: deal_entries(rec, given))


def test_append_writes_and_keeps_comments(sheet):
    before = sheet.read_text()
    record = add(sheet, bidder="Di", bid=300, trump="S", meld=["EW=190", "NS=40"], counters=["NS=150"])
    after = sheet.read_text()
    assert only_added(before, after)
    assert "# our Friday game" in after and "# Ann shuffled" in after and "# more to come" in after
    assert "  - dealer: Bob\n    bidder: Di\n    bid: 300\n    trump: spades\n" in after  # dealer rotated
    assert "    meld: {East-West: 190, North-South: 40}\n    counters: {North-South: 150, East-West: 100}\n" in after
    assert record.deals[-1].score.points == (190, -300)
    assert not [p for p in sheet.parent.iterdir() if p.name not in ("night.yaml", ".night.yaml.lock")]  # no temp file left


@pytest.mark.parametrize(("kw", "message"), [
    ({"bidder": "Di", "bid": 305, "counters": ["NS=150"]}, "night.yaml: deal 2, bid: 305 is off the steps"),
    ({"bidder": "Di", "bid": 300, "meld": ["EW=100"], "counters": ["NS=150", "EW=90"]},
     "night.yaml: deal 2, counters: NS=150 and EW=90 add up to 240; the counters of a deal add up to 250 "
     "(give one side and the other is inferred)"),
    ({"bidder": "Zed", "bid": 300}, "night.yaml: deal 2, bidder: 'Zed' is not at the table"),
    ({"bidder": "NS", "bid": 300}, "night.yaml: deal 2, bidder: 'NS' is the team North-South; name a player"),
    ({"bidder": "Di", "bid": 300, "counters": ["NS=260"]},
     "night.yaml: deal 2, counters: NS=260: more than the 250 counters in a deal"),
])
def test_refused_deal_leaves_the_file_byte_for_byte(sheet, kw, message):
    before = sheet.read_bytes()
    stat = sheet.stat()
    with pytest.raises(RecordError) as info:
        add(sheet, **kw)
    assert str(info.value).startswith(message.replace("night.yaml", str(sheet), 1))
    assert sheet.read_bytes() == before
    assert sheet.stat().st_ino == stat.st_ino
    assert not [p for p in sheet.parent.iterdir() if p.name not in ("night.yaml", ".night.yaml.lock")]


def test_broken_record_is_not_appended_to(sheet):
    sheet.write_text(HEAD + "deals:\n  - {bidder: Bob, bid: 255}\n")
    before = sheet.read_bytes()
    with pytest.raises(RecordError, match="deal 1, bid: 255 is off the steps"):
        add(sheet, bidder="Di", bid=300, meld=["EW=100"], counters=["NS=150"])
    assert sheet.read_bytes() == before


def test_failed_replace_leaves_the_old_file(sheet, monkeypatch):
    before = sheet.read_bytes()

    def boom(src, dst):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(safewrite.os, "replace", boom)
    with pytest.raises(RecordError) as info:
        add(sheet, bidder="Di", bid=300, meld=["EW=100"], counters=["NS=150"])
    assert str(info.value) == f"{sheet}: cannot write: No space left on device; the record is unchanged"
    assert sheet.read_bytes() == before
    assert not [p for p in sheet.parent.iterdir() if p.name not in ("night.yaml", ".night.yaml.lock")]


def test_killed_during_write_leaves_the_old_file(sheet, monkeypatch):
    before = sheet.read_bytes()
    real_fsync = os.fsync

    def killed(fd):
        real_fsync(fd)
        raise KeyboardInterrupt  # the process dies after the temp file is written, before the replace

    monkeypatch.setattr(safewrite.os, "fsync", killed)
    with pytest.raises(KeyboardInterrupt):
        add(sheet, bidder="Di", bid=300, meld=["EW=100"], counters=["NS=150"])
    assert sheet.read_bytes() == before
    assert not [p for p in sheet.parent.iterdir() if p.name not in ("night.yaml", ".night.yaml.lock")]


def test_killed_process_leaves_the_old_file(sheet):
    """A real kill -9 in the middle of the write: the record is the old one or the new one, whole."""
    before = sheet.read_bytes()
    script = (
        "import os, sys, signal\n"
        "from pinochle_cli.records import safewrite\n"
        "from pinochle_cli.records.entry import DealInput, deal_entries\n"
        "from pinochle_cli.records.writer import append_deal\n"
        "real = os.fsync\n"
        "def die(fd):\n"
        "    real(fd); os.kill(os.getpid(), signal.SIGKILL)\n"
        "safewrite.os.fsync = die\n"
        "d = DealInput(bidder='Di', bid=300, meld=['EW=100'], counters=['NS=150'])\n"
        "append_deal(sys.argv[1], lambda r: deal_entries(r, d))\n")
    proc = subprocess.run([sys.executable, "-c", script, str(sheet)], cwd=ROOT, capture_output=True, timeout=60)
    assert proc.returncode == -9
    assert sheet.read_bytes() == before
    parse_record(sheet.read_text(), str(sheet))


def _cli(*args: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "pinochle_cli", *args], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "PYTHONPATH": str(ROOT)})


def test_concurrent_appends_all_land(sheet):
    bids = [260, 270, 280, 290]
    procs = [_cli("record", "add", str(sheet), "--bidder", "Di", "--bid", str(b), "-t", "D", "--meld", "EW=200",
                  "--meld", "NS=0", "--counters", "NS=100") for b in bids]
    for p in procs:
        _out, err = p.communicate(timeout=120)
        assert p.returncode == 0, err.decode()
    record = parse_record(sheet.read_text(), str(sheet))
    assert sorted(d.bid for d in record.deals[1:]) == bids
    assert len(record.deals) == 5
    assert "# more to come" in sheet.read_text()


def test_an_append_waits_for_the_lock(sheet):
    with FileLock(str(sheet.parent / f".{sheet.name}.lock")):
        proc = _cli("record", "add", str(sheet), "--bidder", "Di", "--bid", "260", "-t", "D", "--meld", "EW=100",
                     "--meld", "NS=0", "--counters", "NS=100")
        time.sleep(1.5)
        assert proc.poll() is None  # still waiting
        # meanwhile another writer replaces the file (as a finished `record add` would)
        text = sheet.read_text()
        safewrite.atomic_write(str(sheet), insert_deal(text, DEAL).encode())
    _out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    record = parse_record(sheet.read_text(), str(sheet))
    assert [d.bid for d in record.deals] == [250, 300, 260]  # the waiting writer re-read the new file
