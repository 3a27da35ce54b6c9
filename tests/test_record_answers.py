"""Issue 22, "Answers that hold": record entry that the game or the table could not have given is refused,
and entry that could is taken (the suggestions, the seating, the meld asked for, prompted entry's exit codes)."""

from __future__ import annotations

from pathlib import Path

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
