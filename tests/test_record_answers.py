"""Issue 22, "Answers that hold": record entry that the game or the table could not have given is refused,
and entry that could is taken (the suggestions, the seating, the meld asked for, prompted entry's exit codes)."""

from __future__ import annotations

import difflib
from pathlib import Path

import pytest
from clihelp import run_cli as run


def test_new_suggests_only_the_fields_the_game_takes(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("record", "new", "two.yaml", "-r", "two-handed", "--player", "Pat", "--player", "Sam")
    assert result.code == 0, result.err
    suggestion = result.out.splitlines()[-1]
    assert suggestion == "Add deals with: pinochle record add two.yaml --dealer ... --meld ... --counters ..."
    # what it suggests is what the game takes
    added = run("record", "add", "two.yaml", "--dealer", "Pat", "--meld", "Pat=0", "--meld", "Sam=0",
                "--counters", "Pat=100")
    assert added.code == 0, added.err


def test_a_player_seated_twice_is_named(tmp_path):
    path = tmp_path / "n.yaml"
    result = run("record", "new", str(path), "--team", "NS=Ann,Bob", "--team", "EW=Cy,Di",
                 "--seating", "Ann,Ann,Cy,Di")
    assert result.code == 2
    assert result.err == f"Error: {path}: seating: every player sits once: Ann is seated twice; Bob is missing\n"
    assert not Path(path).exists()


def _small(tmp_path: Path) -> Path:
    path = tmp_path / "small.yaml"
    result = run("record", "new", str(path), "-r", "single-deck-small", "-o", "marriage-required=yes",
                 "--team", "NS=Ann,Cy", "--team", "EW=Bob,Di")
    assert result.code == 0, result.err
    return path


def test_a_deal_without_trump_asks_no_meld(tmp_path):
    path = _small(tmp_path)
    result = run("record", "add", str(path), "--dealer", "Ann", "--bidder", "Bob", "--bid", "28", "--no-trump")
    assert result.code == 0, result.err
    # prompted: the dealer (the default), the bidder and the bid, then the deal as scored; no meld is asked
    result = run("record", "add", str(path), "--prompt", "--no-trump", input="\nBob\n28\ny\n")
    assert result.code == 0, result.err
    assert "meld (a number" not in result.out


def test_meld_left_out_is_worded_by_parameter_in_the_library(tmp_path):
    from pinochle_cli.errors import RecordError
    from pinochle_cli.records import read_record
    from pinochle_cli.records.entry import DealInput, check_nothing_left_out, deal_entries

    path = _small(tmp_path)
    record = read_record(str(path))
    entries = deal_entries(record, DealInput(dealer="Ann", bidder="Bob", bid=28, trump="S", counters=("NS=10",)))
    try:
        check_nothing_left_out(record, entries, 1)
    except RecordError as exc:
        assert "--" not in str(exc) and exc.parameter == "meld"
        assert exc.detail == "no meld given for NS and EW (a side with no meld: meld=NS=0 meld=EW=0)"
    else:
        raise AssertionError("meld left out was taken")
    # the command line names the option
    result = run("record", "add", str(path), "--dealer", "Ann", "--bidder", "Bob", "--bid", "28", "-t", "S",
                 "--counters", "NS=10")
    assert result.code == 2
    assert result.err.endswith("no meld given for NS and EW (a side with no meld: --meld NS=0 --meld EW=0)\n")


def test_end_of_input_while_prompted_is_an_error_saying_what_was_asked(tmp_path):
    path = _small(tmp_path)
    before = path.read_bytes()
    result = run("record", "add", str(path), "--prompt", input="Bob\n")
    assert result.code == 2
    assert result.err == f"Error: {path}: end of input while asking 'Bidder (who won the auction)'; nothing was added\n"
    result = run("record", "add", str(path), "--prompt", "--no-trump", input="Ann\nBob\n28\n")
    assert result.code == 2
    assert result.err == f"Error: {path}: end of input while asking 'Add it?'; nothing was added\n"
    assert path.read_bytes() == before
    # "no" is still the only exit 1
    result = run("record", "add", str(path), "--prompt", "--no-trump", input="Ann\nBob\n28\nn\n")
    assert result.code == 1 and "Not added" in result.out


def test_ctrl_c_while_prompted_exits_130(tmp_path):
    import os
    import select
    import signal
    import subprocess
    import sys
    import time

    path = _small(tmp_path)
    before = path.read_bytes()
    proc = subprocess.Popen([sys.executable, "-m", "pinochle_cli", "record", "add", str(path), "--prompt"],
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None
    # wait for the first question, then Ctrl-C
    seen = b""
    deadline = time.monotonic() + 60
    while b"Dealer" not in seen and time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], 1)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 1024)
            if not chunk:
                break
            seen += chunk
    proc.send_signal(signal.SIGINT)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert b"Aborted" not in err and b"Traceback" not in err
    assert path.read_bytes() == before


EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _deals_with_hands() -> list[tuple[str, int]]:
    from pinochle_cli.records import read_record

    return [(p.name, deal.number) for p in sorted(EXAMPLES.glob("*.yaml"))
            for deal in read_record(str(p)).deals if deal.hands]


def _without_history(text: str) -> str:
    from pinochle_cli.records.edit import HISTORY_HEAD

    return text.split(HISTORY_HEAD, 1)[0]


def test_examples_have_deals_with_hands():
    assert len(_deals_with_hands()) >= 2


@pytest.mark.parametrize(("name", "number"), _deals_with_hands())
def test_editing_a_note_changes_only_the_note_line(tmp_path, name, number):
    original = (EXAMPLES / name).read_text(encoding="utf-8")
    path = tmp_path / name
    path.write_text(original, encoding="utf-8")
    result = run("record", "edit", str(path), str(number), "--note", "hello")
    assert result.code == 0, result.err
    after = _without_history(path.read_text(encoding="utf-8")).splitlines()
    before = original.splitlines()
    diff = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
            if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    # the note line added (or the old note replaced), nothing else
    assert [line.lstrip("+").strip() for line in diff if line.startswith("+")] == ["notes: hello"], diff
    assert all(line.lstrip("-").strip().startswith("notes:") for line in diff if line.startswith("-")), diff


def test_an_edit_keeps_the_comments_of_the_fields_it_does_not_change(tmp_path):
    path = tmp_path / "played.yaml"
    original = (EXAMPLES / "single-deck-close-call.yaml").read_text(encoding="utf-8")
    path.write_text(original.replace("    bid: 340\n", "    bid: 340   # Cy's own bid\n"), encoding="utf-8")
    result = run("record", "edit", str(path), "1", "--bid", "330", "--dealer", "Bob")
    assert result.code == 0, result.err
    text = _without_history(path.read_text(encoding="utf-8"))
    assert text == original.replace("    bid: 340\n", "    bid: 330   # Cy's own bid\n")
    # a field taken out loses its line; the first field's place after the dash goes to the next one
    path.write_text(original.replace("    trump: spades\n", "    trump: spades\n    notes: x   # a note\n"),
                    encoding="utf-8")
    result = run("record", "edit", str(path), "1", "--clear", "notes")
    assert result.code == 0, result.err
    assert _without_history(path.read_text(encoding="utf-8")) == original
    result = run("record", "edit", str(path), "1", "--clear", "dealer")
    assert result.code == 0, result.err
    assert _without_history(path.read_text(encoding="utf-8")) == original.replace("  - dealer: Bob\n    bidder",
                                                                                  "  - bidder")


@pytest.mark.parametrize(("counters", "tricks", "message"), [
    ("NS=250", ("NS=1", "EW=11"), "NS took 1 trick, which holds between 0 and 50 counters; got 250"),
    ("NS=60", ("NS=1",), "NS took 1 trick, which holds between 0 and 50 counters; got 60"),
    ("NS=10", ("NS=11",), "NS took 11 tricks, which hold between 200 and 250 counters; got 10"),
])
def test_counters_the_tricks_cannot_hold_are_refused(tmp_path, counters, tricks, message):
    path = tmp_path / "night.yaml"
    assert run("record", "new", str(path), "--team", "NS=Ann,Cy", "--team", "EW=Bob,Di").code == 0
    before = path.read_bytes()
    result = run("record", "add", str(path), "--dealer", "Ann", "--bidder", "Bob", "--bid", "250", "-t", "H",
                 "--meld", "NS=0", "--meld", "EW=0", "--counters", counters,
                 *[arg for t in tricks for arg in ("--tricks", t)])
    assert result.code == 2
    assert result.err == f"Error: {path}: deal 1, counters: {message}\n"
    assert path.read_bytes() == before


@pytest.mark.parametrize(("meld", "message"), [
    (("NS=1000000000000000000000000000000", "EW=0"),
     "meld.NS: 1000000000000000000000000000000 is more meld than NS's 2 hands can show (a single-deck hand of 12 "
     "cards shows at most 1800)"),
    (("Ann=1810", "Cy=0", "EW=0"),
     "meld.Ann: 1810 is more meld than Ann's hand can show (a single-deck hand of 12 cards shows at most 1800)"),
    (("Ann=AS AS KS KS QS QS JS JS TS TS AH AH AD AD AC AC", "Cy=0", "EW=0"),
     "meld.Ann: Ann showed 16 cards; a single-deck hand holds 12"),
])
def test_meld_no_hand_could_show_is_refused(tmp_path, meld, message):
    path = tmp_path / "night.yaml"
    assert run("record", "new", str(path), "--team", "NS=Ann,Cy", "--team", "EW=Bob,Di").code == 0
    result = run("record", "add", str(path), "--dealer", "Ann", "--bidder", "Bob", "--bid", "250", "-t", "S",
                 "--counters", "NS=100", *[arg for m in meld for arg in ("--meld", m)])
    assert result.code == 2
    assert result.err == f"Error: {path}: deal 1, {message}\n"
    # the most one hand shows is taken
    result = run("record", "add", str(path), "--dealer", "Ann", "--bidder", "Bob", "--bid", "250", "-t", "S",
                 "--counters", "NS=100", "--meld", "NS=3600", "--meld", "EW=0")
    assert result.code == 0, result.err
