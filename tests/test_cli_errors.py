"""Every command × bad input: exit 2, nothing on stdout, exactly one ``Error: …`` line, no traceback.

A table of (arguments, a fragment the message must contain to name the input at fault). Files
that are missing, directories, binary, empty, a YAML list, broken YAML, recursive aliases … are
made once per module. ``run_cli`` fails the test on what CliRunner would otherwise hide: any
exception other than ``SystemExit`` would have been a traceback for the user.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from clihelp import Ran, run_cli

from pinochle_cli.errors import OptionError, RulesetError
from pinochle_cli.ruleset import load_ruleset, load_ruleset_text, parse_options

HAND = "AS TS KS QS JS 9S AH TH KH QH JH 9H"
RECORD = "ruleset: single-deck\nteams: {North-South: [Ann, Cy], East-West: [Bob, Di]}\ndeals: []\n"
FILES = {
    "binary.yaml": b"\xff\xfe\x00\x81 not text",
    "empty.yaml": b"",
    "list.yaml": b"- a\n- b\n",
    "broken.yaml": b"schema_version: 1\nname: [x\n",
    "alias.yaml": b"ruleset: &a [*a]\n",
    "deep.yaml": b"[" * 5000 + b"]" * 5000,
    "control.yaml": b"ruleset: single-deck\nname: a\x07b\n",
    "badtag.yaml": b"schema_version: !!int one\n",
    "merge.yaml": b"base: &b {x: 1}\nother:\n  <<: *b\n",
    "record.yaml": RECORD.encode(),
}


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("bad")
    for name, data in FILES.items():
        (folder / name).write_bytes(data)
    (folder / "adir").mkdir()
    return folder


def assert_one_error(result: Ran, fragment: str) -> None:
    assert (result.code, result.out) == (2, ""), result
    err = result.err
    assert err.startswith("Error: ") and err.endswith("\n") and err.count("\n") == 1, repr(err)
    assert "Traceback" not in err
    assert fragment in err, f"{fragment!r} not in {err!r}"


D = "{dir}/"  # replaced by the module's folder of bad files

CASES: list[tuple[list[str], str]] = [
    # ------------------------------------------------------------------ meld
    (["meld", "ZZ"], '"ZZ" is not a card'),
    (["meld", ""], "no cards given in ''"),
    (["meld", " , "], "no cards given"),
    (["meld", "AS AS AS"], "3 copies of A♠ (AS)"),
    (["meld", HAND + " AD"], "13 cards given"),
    (["meld", "9S", "-r", "double-deck"], "9♠ (9S) is not in the double-deck pack"),
    (["meld", "AS", "-t", "X"], '"X" is not a suit'),
    (["meld", "AS", "-t", ""], '"" is not a suit'),
    (["meld", "AS", "-r", "nope"], "no bundled ruleset named 'nope'"),
    (["meld", "AS", "-r", ""], "-r/--ruleset is empty"),
    (["meld", "AS", "-r", " "], "-r/--ruleset is empty"),
    (["meld", "AS", "-r", "x" * 5000], "cannot read: File name too long"),
    (["meld", "AS", "-r", D + "missing.yaml"], "missing.yaml: no such ruleset file"),
    (["meld", "AS", "-r", D + "adir"], "adir: cannot read: Is a directory"),
    (["meld", "AS", "-r", D + "binary.yaml"], "binary.yaml: not UTF-8 text"),
    (["meld", "AS", "-r", D + "empty.yaml"], "empty.yaml:1:1: schema_version: missing"),
    (["meld", "AS", "-r", D + "list.yaml"], "list.yaml:1:1: a ruleset is a mapping, got a list"),
    (["meld", "AS", "-r", D + "broken.yaml"], "broken.yaml:3:1: not valid YAML"),
    (["meld", "AS", "-r", D + "alias.yaml"], "alias.yaml:1:10: an alias (*name) refers to a value that contains it"),
    (["meld", "AS", "-r", D + "deep.yaml"], "deep.yaml:1:65: nested too deeply (more than 64 levels)"),
    (["meld", "AS", "-r", D + "badtag.yaml"], "badtag.yaml:1:17: 'one' cannot be read as !!int"),
    (["meld", "AS", "-r", D + "merge.yaml"], "merge.yaml:3:3: merge keys (<<) are not supported"),
    (["meld", "AS", "-r", D + "control.yaml"], "control.yaml:2:8: not valid YAML: the control character U+0007"),
    (["meld", "AS", "-o", "x"], "option 'x' is not KEY=VALUE"),
    (["meld", "AS", "-o", "=1"], "option '=1' is not KEY=VALUE"),
    (["meld", "AS", "-o", "x=1"], "single-deck has no option 'x'"),
    (["meld", "AS", "-r", "single-deck-small", "-o", "target=75", "-o", "TARGET=150"],
     "option 'TARGET' is given twice ('target=75' and 'TARGET=150')"),
    (["meld", "AS", "-r", "single-deck-small", "-o", "target=1000"], "option target='1000' is not a choice"),
    (["meld", "AS", "--bogus"], "No such option '--bogus'"),
    (["meld"], "Missing argument 'CARDS...'"),
    (["meld", "KS QS", "-t", "S", "-r", "two-handed", "--declare", ""], "--declare '' has no cards"),
    (["meld", "KS QS", "-t", "S", "-r", "two-handed", "--declare", "ZZ"], "--declare: \"ZZ\" is not a card"),
    (["meld", "KS QS", "-t", "S", "-r", "two-handed", "--declare", "KS QS", "--declared", ""],
     "--declared 1 ('') has no cards"),
    (["meld", "KS QS", "-t", "S", "-r", "two-handed", "--declare", "KS QS", "--declared", "AS AS AS"],
     "--declared 1: 3 copies of A♠"),
    (["meld", "AS", "--declare", "AS"], "--declare needs -t/--trump"),
    (["meld", "AS", "--declared", "AS"], "--declared needs --declare"),
    # ------------------------------------------------------------------ legal
    (["legal", "--hand", "ZZ", "-t", "H"], '--hand: "ZZ" is not a card'),
    (["legal", "--hand", "", "-t", "H"], "--hand is empty"),
    (["legal", "--hand", "AS", "-t", "H", "--trick", "ZZ"], '--trick: "ZZ" is not a card'),
    (["legal", "--hand", "AS", "-t", "H", "--play", ""], '--play: "" is not a card'),
    (["legal", "--hand", "AS", "-t", "H", "--play", "AS KS"], '--play: "AS KS" is not a card'),
    (["legal", "--hand", "AS AS AS", "-t", "H"], "--hand: 3 copies of A♠"),
    (["legal", "--hand", "AS", "-t", "H", "--trick", "AS AS"], "--hand and --trick together: 3 copies"),
    (["legal", "--hand", "AS", "-t", "Z"], '"Z" is not a suit'),
    (["legal", "--hand", "AS", "-t", "H", "-r", D + "adir"], "adir: cannot read"),
    (["legal", "--hand", "AS", "-t", "H", "-r", ""], "-r/--ruleset is empty"),
    (["legal", "--hand", "AS", "-t", "H", "--phase", "stock"], "single-deck has no stock"),
    (["legal", "--hand", "AS", "-t", "H", "--phase", "late"], "Invalid value for '--phase'"),
    (["legal", "-t", "H"], "Missing option '--hand'"),
    (["legal", "--hand", "AS"], "Missing option '-t' / '--trump'"),
    # ------------------------------------------------------------------ score
    (["score", D + "missing.yaml"], "missing.yaml: cannot read"),
    (["score", D + "adir"], "is a directory"),
    (["score", D + "binary.yaml"], "binary.yaml: not UTF-8 text"),
    (["score", D + "empty.yaml"], "empty.yaml:1: ruleset: missing ruleset"),
    (["score", D + "list.yaml"], "list.yaml:1: a record is a mapping"),
    (["score", D + "broken.yaml"], "broken.yaml:3:1: not valid YAML"),
    (["score", D + "alias.yaml"], "alias.yaml:1:10: an alias (*name) refers to a value that contains it"),
    (["score", D + "deep.yaml"], "deep.yaml:1:65: nested too deeply (more than 64 levels)"),
    (["score", D + "control.yaml"], "control.yaml:2:8"),
    (["score", ""], "cannot read"),
    (["score"], "Missing argument 'RECORD...'"),
    # ------------------------------------------------------------------ record new / add
    (["record", "new", D + "adir", "--player", "a"], "is a directory"),
    (["record", "new", D + "nodir/x.yaml", "-r", "two-handed", "--player", "a", "--player", "b"],
     "x.yaml: cannot write"),
    (["record", "new", D + "record.yaml", "-r", "two-handed", "--player", "a", "--player", "b"], "already exists"),
    (["record", "new", D + "n1.yaml", "-r", "two-handed", "--player", "a"], "1 players given"),
    (["record", "new", D + "n2.yaml", "-r", "nope", "--player", "a"], "no bundled ruleset named 'nope'"),
    (["record", "new", D + "n3.yaml", "-r", "", "--player", "a"], "-r/--ruleset is empty"),
    (["record", "new", D + "n4.yaml", "--team", "junk"], "--team 'junk' is not NAME=PLAYER,PLAYER"),
    (["record", "add", D + "missing.yaml", "--bid", "250"], "missing.yaml: cannot open"),
    (["record", "add", D + "adir"], "is a directory"),
    (["record", "add", D + "binary.yaml"], "binary.yaml: not UTF-8 text"),
    (["record", "add", D + "empty.yaml"], "ruleset: missing ruleset"),
    (["record", "add", D + "list.yaml"], "a record is a mapping"),
    (["record", "add", D + "record.yaml", "--bid", "x"], "Invalid value for '--bid'"),
    (["record", "add", D + "record.yaml", "--bid", "250", "--bidder", "Zed", "-t", "H"], "Zed"),
    (["record", "add", D + "record.yaml", "--bid", "250", "--bidder", "Ann", "-t", "X", "--meld", "NS=100",
      "--counters", "NS=100"], '"X" is not a suit'),
    (["record", "add", D + "record.yaml", "--bid", "-5", "--bidder", "Ann", "-t", "H", "--meld", "NS=100",
      "--meld", "EW=0", "--counters", "NS=100"], "-5"),
    (["record", "add", D + "record.yaml", "--bid", str(10**30), "--bidder", "Ann", "-t", "H", "--meld", "NS=100",
      "--meld", "EW=0", "--counters", "NS=100"], str(10**30)),
    (["record", "add", D + "record.yaml", "--bid", "250", "--bidder", "Ann", "-t", "H", "--meld", "junk"], "junk"),
    (["record", "add", D + "record.yaml", "--bid", "250", "--bidder", "Ann", "-t", "H", "--meld", "NS=x"], "NS=x"),
    # ------------------------------------------------------------------ estimate
    (["estimate", "ZZ"], '"ZZ" is not a card'),
    (["estimate", ""], "the hand has 0 cards"),
    (["estimate", "AS"], "the hand has 1 cards"),
    (["estimate", HAND + " AS AS"], "3 copies of A♠"),
    (["estimate", HAND, "--samples", "-1"], "Invalid value for '--samples'"),
    (["estimate", HAND, "--samples", "0"], "Invalid value for '--samples'"),
    (["estimate", HAND, "--samples", "x"], "Invalid value for '--samples'"),
    (["estimate", HAND, "--workers", "-1"], "Invalid value for '--workers'"),
    (["estimate", HAND, "--workers", "0"], "Invalid value for '--workers'"),
    (["estimate", HAND, "--seed", "-1"], "Invalid value for '--seed'"),
    (["estimate", HAND, "--confidence", "2"], "Invalid value for '--confidence'"),
    (["estimate", HAND, "--confidence", "-0.5"], "Invalid value for '--confidence'"),
    (["estimate", HAND, "--precision", "0"], "Invalid value for '--precision'"),
    (["estimate", HAND, "--precision", "-1"], "Invalid value for '--precision'"),
    (["estimate", HAND, "--precision", "0.5"], "Invalid value for '--precision'"),
    (["estimate", HAND, "-t", "X"], '"X" is not a suit'),
    (["estimate", HAND, "-r", "two-handed"], "the two-handed game has no auction"),
    (["estimate", HAND, "-r", D + "adir"], "adir: cannot read"),
    (["estimate", HAND, "-r", ""], "-r/--ruleset is empty"),
    # ------------------------------------------------------------------ rulesets
    (["rulesets", "show", "nope"], "no bundled ruleset named 'nope'"),
    (["rulesets", "show", ""], "NAME|PATH is empty"),
    (["rulesets", "show", D + "adir"], "adir: cannot read"),
    (["rulesets", "show", D + "binary.yaml"], "not UTF-8 text"),
    (["rulesets", "show", D + "empty.yaml"], "schema_version: missing"),
    (["rulesets", "show", D + "list.yaml"], "a ruleset is a mapping"),
    (["rulesets", "show", "single-deck", "-o", "x=1"], "single-deck has no option 'x'"),
    (["rulesets", "show", "single-deck-small", "-o", "target"], "option 'target' is not KEY=VALUE"),
    (["rulesets", "show"], "Missing argument 'NAME|PATH'"),
    (["rulesets", "check", ""], "PATH is empty"),
    (["rulesets", "check", D + "missing.yaml"], "missing.yaml: no such ruleset file"),
    (["rulesets", "check", D + "adir"], "adir: cannot read"),
    (["rulesets", "check", D + "binary.yaml"], "not UTF-8 text"),
    (["rulesets", "check", D + "empty.yaml"], "schema_version: missing"),
    (["rulesets", "check", D + "broken.yaml"], "broken.yaml:3:1"),
    (["rulesets", "check", D + "record.yaml"], "schema_version: missing"),
    (["rulesets", "check", D + "alias.yaml"], "refers to a value that contains it"),
    (["rulesets", "bogus"], "No such command 'bogus'"),
    (["rulesets", "--bogus"], "No such option '--bogus'"),
    (["bogus"], "No such command 'bogus'"),
    (["--bogus"], "No such option '--bogus'"),
]


@pytest.mark.parametrize(("args", "fragment"), CASES, ids=[" ".join(a)[:60] for a, _ in CASES])
def test_bad_input_is_one_error_line(files: Path, args: list[str], fragment: str) -> None:
    real = [a.replace(D, f"{files}/") for a in args]
    assert_one_error(run_cli(*real), fragment)
    if "--json" not in real and real[0] in ("meld", "legal", "score", "estimate"):
        assert_one_error(run_cli(*real, "--json"), fragment)


def test_a_bad_default_ruleset_names_the_environment_variable() -> None:
    result = run_cli("meld", "AS", env={"PINOCHLE_RULESET": "nope"})
    assert_one_error(result, "$PINOCHLE_RULESET: no bundled ruleset named 'nope'")


def test_a_huge_ruleset_name_is_shortened_in_the_message() -> None:
    result = run_cli("meld", "AS", "-r", "y" * 5000)
    assert_one_error(result, "characters)")
    assert len(result.err) < 400


# ------------------------------------------------------------------ the library behind the fixes

def test_repeated_options_are_refused() -> None:
    with pytest.raises(OptionError, match=r"option 'target' is given twice \('target=75' and 'target=150'\)"):
        parse_options(["target=75", "target=150"])
    assert parse_options(["a=1", "b=2"]) == {"a": "1", "b": "2"}


def test_a_ruleset_with_a_bad_tag_is_a_ruleset_error() -> None:
    with pytest.raises(RulesetError, match=r"^r\.yaml:1:17: 'one' cannot be read as !!int$"):
        load_ruleset_text("schema_version: !!int one\n", "r.yaml")


def test_a_ruleset_path_too_long_for_the_system_is_a_ruleset_error() -> None:
    with pytest.raises(RulesetError, match="cannot read: File name too long"):
        load_ruleset("z" * 5000 + ".yaml")


# ------------------------------------------------------------------ found here, in the other helper's files

def test_estimate_refuses_an_absurd_sample_count() -> None:
    def limit() -> None:  # keep a failure cheap: MemoryError instead of eating the machine
        resource.setrlimit(resource.RLIMIT_AS, (900_000_000, 900_000_000))

    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "PINOCHLE_RULESET": ""}
    run = subprocess.run([sys.executable, "-m", "pinochle_cli", "estimate", HAND, "--samples", str(10**12),
                          "--workers", "1", "--seed", "1"], preexec_fn=limit, capture_output=True, text=True,
                         timeout=60, env=env, check=False)
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("Error: ") and run.stderr.count("\n") == 1 and "--samples" in run.stderr


def test_record_new_with_a_repeated_team_names_the_option(files: Path) -> None:
    result = run_cli("record", "new", f"{files}/teams.yaml", "--team", "Us=a,b", "--team", "Us=c,d")
    assert_one_error(result, "--team")
    assert result.err.count("teams.yaml") <= 1 and ":6:3" not in result.err
