"""A card night: undo, redo, edit and show a record; prompted entry; the brief standing; several games; stats."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from clihelp import Ran, run_cli
from longrecord import long_record_text

from pinochle_cli.records import parse_record, read_record
from pinochle_cli.records.edit import HISTORY_HEAD, redo_text, undo_text

ROOT = Path(__file__).resolve().parent.parent

EXAMPLES = ROOT / "examples"


def run(*args: str, input: str | None = None, columns: int = 80) -> Ran:
    return run_cli(*args, input=input, env={"COLUMNS": str(columns)})


def assert_refused(path: Path, args: list[str], message: str) -> None:
    """``pinochle ARGS`` exits 2 with ``Error: PATH: MESSAGE`` and leaves the file byte for byte as it was."""
    before = path.read_bytes()
    result = run(*args)
    assert (result.code, result.out, result.err) == (2, "", f"Error: {path}{message}\n")
    assert path.read_bytes() == before


ADD = ["--bidder", "Ann", "--bid", "250", "-t", "H", "--meld", "NS=100", "--meld", "EW=0", "--counters", "NS=150"]


@pytest.fixture
def night(tmp_path) -> Path:
    path = tmp_path / "night.yaml"
    assert run("record", "new", str(path), "--team", "North-South=Ann,Cy", "--team", "East-West=Bob,Di").code == 0
    return path


@pytest.fixture
def five(night) -> Path:
    """Five deals: North-South make 250 each time (+250), East-West keep their 100 counters."""
    for dealer in ("Ann", "Bob", "Cy", "Di", "Ann"):
        assert run("record", "add", str(night), "--dealer", dealer, *ADD).code == 0
    return night


def copy_of(name: str, tmp_path: Path) -> Path:
    path = tmp_path / name
    path.write_bytes((EXAMPLES / name).read_bytes())
    return path


# --------------------------------------------------------------------------- undo and redo

def test_undo_prints_the_deal_and_the_standing(five):
    result = run("record", "undo", str(five))
    assert result.code == 0, result.out
    assert result.out == (
        "Took out deal 5: dealer: Ann, bidder: Ann, bid: 250, trump: hearts, meld: {North-South: 100, East-West: 0}, "
        "counters: {North-South: 150, East-West: 100}\n"
        f"`pinochle record redo {five}` puts it back.\n"
        "After 4 deals: North-South 1000 (500 to go), East-West 400 (1100 to go). Next dealer: Ann.\n")
    assert len(read_record(str(five)).deals) == 4
    text = five.read_text()
    assert text.endswith(HISTORY_HEAD + "\n#@ undone deal 5\n#|   - dealer: Ann\n#|     bidder: Ann\n#|     bid: 250\n"
                         "#|     trump: hearts\n#|     meld: {North-South: 100, East-West: 0}\n"
                         "#|     counters: {North-South: 150, East-West: 100}\n")


@pytest.mark.parametrize("name", ["single-deck-night.yaml", "double-deck-night.yaml", "two-handed-night.yaml",
                                  "single-deck-played.yaml", "single-deck-small-4-deals.yaml"])
def test_undo_everything_then_redo_everything_gives_back_the_bytes(tmp_path, name):
    path = copy_of(name, tmp_path)
    before = path.read_bytes()
    n = len(read_record(str(path)).deals)
    totals = []
    for _ in range(n):
        totals.append(read_record(str(path)).standing.totals)
        assert run("record", "undo", str(path)).code == 0
    assert read_record(str(path)).deals == ()
    for expected in reversed(totals):
        result = run("record", "redo", str(path))
        assert result.code == 0, result.out
        assert read_record(str(path)).standing.totals == expected
    assert path.read_bytes() == before


def test_undo_redo_in_any_order_keeps_the_deals(tmp_path):
    text = (EXAMPLES / "single-deck-night.yaml").read_text()
    everything = [d.facts for d in parse_record(text).deals]
    rng = random.Random(4)
    current, undone = text, 0
    for _ in range(60):
        if undone < len(everything) and (undone == 0 or rng.random() < 0.5):
            current = undo_text(current).text
            undone += 1
        else:
            current = redo_text(current).text
            undone -= 1
        assert [d.facts for d in parse_record(current).deals] == everything[:len(everything) - undone]
    for _ in range(undone):
        current = redo_text(current).text
    assert current == text


def test_add_after_undo_goes_before_the_history(five):
    run("record", "undo", str(five))
    assert run("record", "add", str(five), *ADD).code == 0
    record = read_record(str(five))
    assert [d.dealer for d in record.deals] == ["Ann", "Bob", "Cy", "Di", "Ann"]
    text = five.read_text()
    assert text.index(HISTORY_HEAD) > text.rindex("\n  - dealer: Ann\n")


@pytest.mark.parametrize(("command", "message"), [
    ("undo", "no deal to undo"),
    ("redo", "no undone deal to redo (the record's history has none)"),
])
def test_nothing_to_undo_or_redo(night, command, message):
    assert_refused(night, ["record", command, str(night)], f": {message}")


def test_redo_that_no_longer_fits_is_refused(five):
    run("record", "undo", str(five))
    # the target lowered by hand: North-South's 1000 after deal 4 now win the match
    text = five.read_text(encoding="utf-8")
    five.write_text(text.replace("ruleset: single-deck\n", "ruleset: single-deck\noptions: {target: 1000}\n"),
                    encoding="utf-8")
    assert_refused(five, ["record", "redo", str(five)], ": deal 5: the match was already decided after deal 4: "
                   "North-South won 1000 to 400 (the undone deal no longer fits the record; it stays in the history)")


UNCHANGED = "; the record is unchanged"


@pytest.mark.parametrize(("added", "message"), [
    ("#| options: {target: 1000}", "the undone deal in the history holds 'options', which is not part of a deal: "
                                   "redo puts back one deal, nothing else" + UNCHANGED),
    ("#| title: not a deal", "the undone deal in the history holds 'title', which is not part of a deal: "
                             "redo puts back one deal, nothing else" + UNCHANGED),
    ("#|   - {bidder: Bob, bid: 250, meld: {NS: 0, EW: 0}, counters: {NS: 100}}",
     "the undone deal in the history holds 2 deals, not one" + UNCHANGED),
])
def test_redo_puts_back_one_deal_and_nothing_else(five, added, message):
    """A line added by hand to the history is refused, naming that line (it never reaches the record)."""
    run("record", "undo", str(five))
    with five.open("a", encoding="utf-8") as fh:
        fh.write(added + "\n")
    lines = five.read_text(encoding="utf-8").splitlines()
    at = len(lines) if "holds '" in message else lines.index("#@ undone deal 5") + 1
    assert_refused(five, ["record", "redo", str(five)], f":{at}: {message}")


def test_a_yaml_error_in_the_history_names_the_history_line(five):
    run("record", "undo", str(five))
    text = five.read_text(encoding="utf-8")
    five.write_text(text.replace("#|     meld: {North-South: 100, East-West: 0}", "#|     meld: {North-South: 100, East-West: 0"), encoding="utf-8")
    lines = five.read_text(encoding="utf-8").splitlines()
    # the parser notices the missing brace on the history's next line
    at = lines.index("#|     meld: {North-South: 100, East-West: 0") + 2
    assert lines[at - 1].startswith("#|     counters")
    assert_refused(five, ["record", "redo", str(five)], f":{at}: the undone deal in the history is not valid YAML "
                   "(expected ',' or '}', but got ':')" + UNCHANGED)


def test_undo_of_a_flow_list_is_refused(tmp_path):
    path = tmp_path / "flow.yaml"
    path.write_text("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\n"
                    "deals: [{bidder: Bob, bid: 250, meld: {NS: 0, EW: 0}, counters: {NS: 150, EW: 100}}]\n")
    assert_refused(path, ["record", "undo", str(path)], ":3: deals: the deals are not written as a block list (one "
                   "`- ` line starting each deal): undo, redo and edit change only such a list")


def test_undo_keeps_crlf_line_ends(tmp_path):
    path = tmp_path / "crlf.yaml"
    path.write_bytes((EXAMPLES / "single-deck-night.yaml").read_bytes().replace(b"\n", b"\r\n"))
    before = path.read_bytes()
    assert run("record", "undo", str(path)).code == 0
    assert b"\n" not in path.read_bytes().replace(b"\r\n", b"")
    assert run("record", "redo", str(path)).code == 0
    assert path.read_bytes() == before


# --------------------------------------------------------------------------- edit

def test_edit_replaces_the_fields_given_and_keeps_the_old_deal(five):
    result = run("record", "edit", str(five), "2", "--counters", "NS=200", "--meld", "EW=20")
    assert result.code == 0, result.out
    assert result.out == (
        "Changed deal 2: dealer: Bob, bidder: Ann, bid: 250, trump: hearts, meld: {North-South: 100, East-West: 20}, "
        "counters: {North-South: 200, East-West: 50}\n"
        "After 5 deals: North-South 1300 (200 to go), East-West 470 (1030 to go). Next dealer: Bob.\n")
    text = five.read_text()
    assert "#@ deal 2 before record edit\n#|   - dealer: Bob\n" in text
    assert read_record(str(five)).deals[1].counters == (200, 50)


def test_edit_that_breaks_a_later_deal_names_it(five):
    assert_refused(five, ["record", "edit", str(five), "2", "--bid", "750", "--meld", "NS=600"],
                   ":32: deal 5: the match was already decided after deal 4: North-South won 1500 to 400 (deal 5 no "
                   "longer holds with deal 2 edited; the record is unchanged)")
    assert five.read_text().splitlines()[31] == "  - dealer: Ann"  # line 32 is deal 5


@pytest.mark.parametrize(("args", "message"), [
    (["2", "--bid", "255"], "deal 2, bid: 255 is off the steps (from 250: steps of 10; next valid bid 260)"),
    (["7", "--bid", "260"], "no deal 7 (the record has 5)"),
    (["2", "--clear", "auction"], "deal 2, auction: --clear auction: deal 2 has no auction (dealer, bidder, bid, "
     "trump, meld, counters)"),
    (["2", "--clear", "meld"], "deal 2, meld: no meld given for North-South and East-West (a side with no meld: "
     "--meld North-South=0 --meld East-West=0)"),
    (["2"], "deal 2: nothing to change: give the fields to change (the options of record add) or --clear FIELD"),
    (["2", "--conceded"], "deal 2, counters: the deal ended after the meld (conceded): no cards were played"),
    (["2", "--bidder", "Zed"], "deal 2, bidder: 'Zed' is not at the table (North-South, East-West, Ann, Bob, Cy, "
     "Di)"),
])
def test_edit_refusals_leave_the_bytes(five, args, message):
    assert_refused(five, ["record", "edit", str(five), *args], f": {message}")


def test_edit_clear_and_flags(five):
    result = run("record", "edit", str(five), "3", "--conceded", "--clear", "counters")
    assert result.code == 0, result.out
    assert read_record(str(five)).deals[2].score.result == "conceded"
    result = run("record", "edit", str(five), "3", "--counters", "EW=100", "--clear", "conceded")
    assert result.code == 0, result.out
    assert read_record(str(five)).deals[2].score.result == "made"


# --------------------------------------------------------------------------- show

def test_show_lists_the_deals_as_entered(tmp_path):
    path = copy_of("single-deck-night.yaml", tmp_path)
    result = run("record", "show", str(path))
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0] == ("  1  dealer: Ann, auction: [250, 260, pass, 270, pass, pass], bidder: Ann, bid: 270, "
                        "trump: hearts, meld: {North-South: 150, East-West: 60}, counters: {North-South: 140, "
                        "East-West: 110}")
    assert lines[2] == "  3  dealer: Cy, redeal: true"
    assert lines[-1] == "North-South won: 1,820 to 90, reached 1,500 first, after 10 deals."
    result = run("record", "show", str(path), "4")
    assert result.out == (
        "  - dealer: Cy\n    bidder: Bob\n    bid: 250\n    trump: clubs\n    meld: {North-South: 80, East-West: 20}\n"
        "    conceded: true            # thrown in after the meld\n"
        "Deal 4: Cy dealt; Bob bid 250 in clubs; meld North-South 80, East-West 20; conceded: North-South +80, "
        "East-West -250.\n")
    result = run("record", "show", str(path), "11")
    assert (result.code, result.err) == (2, f"Error: {path}: no deal 11 (the record has 10)\n")


# --------------------------------------------------------------------------- prompted entry

def test_prompts_ask_again_with_the_checkers_message(five):
    answers = "\n".join(["", "Zed", "Cy", "lots", "255", "260", "X", "S", "55", "60", "0", "300", "100", "y"]) + "\n"
    result = run("record", "add", str(five), "--prompt", input=answers)
    assert result.code == 0, result.out
    assert result.out == (
        "Dealer (Ann, Bob, Cy, Di) [Bob]: \n"
        "Bidder (who won the auction): Zed\n"
        "Bidder (who won the auction): Cy\n"
        "Bid (at least 250): lots\n"
        "Error: 'lots' is not a valid integer.\n"  # click's own check, on stdout
        "Bid (at least 250): 255\n"
        "Bid (at least 250): 260\n"
        "Trump (S H D C): X\n"
        "Trump (S H D C): S\n"
        "North-South's meld (a number; 0 for none): 55\n"
        "North-South's meld (a number; 0 for none): 60\n"
        "East-West's meld (a number; 0 for none): 0\n"
        "North-South's counters: 300\n"
        "North-South's counters: 100\n"
        "East-West's counters: 150 (the rest of 250)\n"
        "Deal 6: Bob dealt; Cy bid 260 in spades; meld North-South 60, East-West 0; counters North-South 100, "
        "East-West 150; set: North-South -260, East-West +150.\n"
        "Add it? [Y/n]: y\n"
        f"Added deal 6 to {five}.\n"
        "After 6 deals: North-South 990 (510 to go), East-West 650 (850 to go). Next dealer: Cy.\n")
    assert result.err == (
        "  'Zed' is not at the table (North-South, East-West, Ann, Bob, Cy, Di)\n"
        "  255 is off the steps (from 250: steps of 10; next valid bid 260)\n"
        '  "X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)\n'
        "  55 is not a meld total (not a multiple of 10)\n"
        "  North-South=300: more than the 250 counters in a deal\n")


def test_prompts_only_for_what_is_missing_and_a_declined_deal_is_not_written(five):
    before = five.read_bytes()
    result = run("record", "add", str(five), "--prompt", "--bidder", "Bob", "--bid", "250", "-t", "C",
                 "--meld", "EW=50", input="Di\n20\n120\nn\n")
    assert result.code == 1
    assert result.out == (
        "Dealer (Ann, Bob, Cy, Di) [Bob]: Di\n"
        "North-South's meld (a number; 0 for none): 20\n"
        "North-South's counters: 120\n"
        "East-West's counters: 130 (the rest of 250)\n"
        "Deal 6: Di dealt; Bob bid 250 in clubs; meld North-South 20, East-West 50; counters North-South 120, "
        "East-West 130; set: North-South +140, East-West -250.\n"
        "Add it? [Y/n]: n\n"
        f"Not added; {five} is unchanged.\n")
    assert five.read_bytes() == before


def test_no_counters_asked_when_the_deal_ends_after_the_meld(five):
    result = run("record", "add", str(five), "--prompt", "--dealer", "Bob", "--bidder", "Bob", "--bid", "500",
                 "-t", "C", input="0\n100\n\n")
    assert result.code == 0, result.out
    assert "'s counters" not in result.out
    assert read_record(str(five)).deals[-1].score.result == "not-on-board"


def test_without_a_terminal_a_missing_field_is_an_error(five):
    assert_refused(five, ["record", "add", str(five), "--bidder", "Bob", "--bid", "250", "-t", "C", "--meld", "EW=50"],
                   ": deal 6, meld: no meld given for North-South (a side with no meld: --meld North-South=0)")


@pytest.mark.parametrize(("args", "message"), [
    (["--bidder", "Bob", "--bid", "250", "--meld", "NS=0", "--meld", "EW=50", "--counters", "NS=100"],
     "deal 6, trump: not given; the bidder named one of S H D C"),
    (["--bidder", "Bob", "--bid", "250", "-t", "C", "--counters", "NS=100"],
     "deal 6, meld: no meld given for North-South and East-West (a side with no meld: --meld North-South=0 "
     "--meld East-West=0)"),
])
def test_nothing_forgotten_silently(five, args, message):
    assert_refused(five, ["record", "add", str(five), *args], f": {message}")


@pytest.mark.parametrize(("args", "code", "error"), [
    (["--bidder", "Bob", "--bid", "250", "--meld", "NS=0", "--meld", "EW=50", "--conceded"], 0, ""),
    (["--redeal"], 0, ""),
    (["--bidder", "Bob", "--bid", "250", "--no-trump", "--meld", "NS=0", "--meld", "EW=50"], 2,
     "deal 6, no-trump: the single-deck game has no deal without trump (the bidder may name any suit)"),
])
def test_a_deal_not_played_needs_no_trump(five, args, code, error):
    result = run("record", "add", str(five), *args)
    assert (result.code, result.err) == (code, f"Error: {five}: {error}\n" if error else "")


def test_a_game_without_a_trump_choice_needs_no_trump(tmp_path):
    path = tmp_path / "two.yaml"
    run("record", "new", str(path), "-r", "two-handed", "--player", "Pat", "--player", "Sam")
    result = run("record", "add", str(path), "--meld", "Pat=40", "--meld", "Sam=0", "--counters", "Pat=130")
    assert result.code == 0, result.out


# --------------------------------------------------------------------------- the standing at a glance

def test_score_brief(five):
    result = run("score", str(five), "--brief")
    assert result.code == 0
    assert result.out == (
        "single-deck, game to 1500: North-South (Ann, Cy) v East-West (Bob, Di)\n"
        "\n"
        "               total    to go\n"
        "-----------  -------  -------\n"
        "North-South     1250      250\n"
        "East-West        500     1000\n"
        "\n"
        "5 deals played. Next dealer: Bob.\n")


def test_new_prints_the_seating(tmp_path):
    result = run("record", "new", str(tmp_path / "r.yaml"), "--team", "Us=Ann,Cy", "--team", "Them=Bob,Di",
                 "--seating", "Bob,Ann,Di,Cy")
    assert result.out.splitlines()[1] == "Seating, clockwise: Bob, Ann, Di, Cy."


@pytest.mark.parametrize("columns", [200, 100, 80, 72, 60, 50])
@pytest.mark.parametrize("name", ["single-deck-night.yaml", "double-deck-night.yaml", "two-handed-night.yaml",
                                  "single-deck-small-4-deals.yaml"])
def test_the_table_fits_the_terminal(name, columns):
    out = run("score", str(EXAMPLES / name), columns=columns).out
    widest = max(len(line) for line in out.splitlines())
    if columns >= 60:
        assert widest <= columns, out
    assert out.splitlines()[-1].endswith(".")


def test_narrow_layout_exact():
    result = run("score", str(EXAMPLES / "single-deck-small-4-deals.yaml"), columns=60)
    assert result.out == (
        "single-deck-small (target=4-deals), 4 deals: Team A (Eve,\n"
        "Gus) v Team B (Fay, Hal)\n"
        "points: Team A / Team B\n"
        "\n"
        "#  bid       result        points  Team A  Team B\n"
        "-  --------  ------------  ------  ------  ------\n"
        "1  Eve 27 ♥  made          29/17       29      17\n"
        "2  Gus 40 ♠  not-on-board  -40/5      -11      22\n"
        "3  Hal 30 ♣  made          1/49       -10      71\n"
        "4  Fay 26 ♦  set           33/-26      23      45\n"
        "\n"
        "Team B won: 45 to 23, the higher total after 4 deals.\n")


def test_compact_layout_at_80_columns():
    lines = run("score", str(EXAMPLES / "single-deck-night.yaml")).out.splitlines()
    assert lines[1] == "meld, counters and points: NS / EW (NS North-South, EW East-West)"
    assert lines[3].split() == ["#", "dealer", "bid", "meld", "counters", "result", "points", "NS", "EW"]
    assert lines[5].split() == ["1", "Ann", "Ann", "270", "♥", "150/60", "140/110", "made", "290/170", "290", "170"]


# --------------------------------------------------------------------------- several games, stats

def test_score_several_files():
    paths = [str(EXAMPLES / n) for n in ("single-deck-night.yaml", "single-deck-small-4-deals.yaml")]
    result = run("score", *paths, "--brief")
    assert result.code == 0
    rows = [line.split("  ") for line in result.out.splitlines()[-4:-2]]
    assert [[c.strip() for c in row if c.strip()] for row in rows] == [
        [paths[0], "North-South won", "North-South 1820, East-West 90", "10"],
        [paths[1], "Team B won", "Team A 23, Team B 45", "4"]]
    assert result.out.startswith(f"== {paths[0]}\n")
    assert "Games won: North-South 1, Team B 1, East-West 0, Team A 0.\n" in result.out
    data = json.loads(run("score", *paths, "--json").out)
    assert [g["winner"] for g in data["games"]] == ["North-South", "Team B"]
    assert data["games_won"] == {"North-South": 1, "Team B": 1, "East-West": 0, "Team A": 0}


def test_stats_json_counts_by_hand():
    data = json.loads(run("stats", str(EXAMPLES / "single-deck-night.yaml"), "--json").out)
    ns, ew = data["sides"]
    # by hand from the example: NS bid deals 1, 5, 6, 8, 10 (made, not-on-board, made, made, made)
    assert (ns["name"], ns["bid"], ns["made"], ns["set"], ns["conceded"]) == ("North-South", 5, 4, 1, 0)
    assert (ew["bid"], ew["made"], ew["set"], ew["conceded"]) == (4, 1, 2, 1)
    assert ns["average_bid"] == (270 + 350 + 260 + 500 + 300) / 5
    assert ns["deals"] == 9 and ns["biggest_meld"] == 430
    assert ns["points_per_deal"] == round(1820 / 9, 3) and (ns["games"], ns["games_won"]) == (1, 1)
    players = {p["name"]: p for p in data["players"]}
    assert (players["Ann"]["bid"], players["Ann"]["made"], players["Cy"]["bid"]) == (3, 2, 2)
    assert players["Di"]["made_rate"] == round(1 / 3, 3)


def test_stats_table_over_two_games():
    result = run("stats", str(EXAMPLES / "single-deck-night.yaml"), str(EXAMPLES / "single-deck-small-4-deals.yaml"))
    assert result.code == 0
    lines = result.out.splitlines()
    assert lines[0] == "2 games, 14 deals"
    assert lines[2] == "Bidding"
    assert lines[6].split() == ["North-South", "5", "4", "1", "0", "80", "336"]
    assert max(len(line) for line in lines) <= 80


@pytest.mark.parametrize(("args", "message"), [
    (["stats"], "Missing argument 'RECORD...'"),
    (["stats", "/nonexistent.yaml"], "/nonexistent.yaml: cannot read"),
    (["record", "show"], "Missing argument 'FILE'"),
    (["record", "undo", "/nonexistent.yaml"], "/nonexistent.yaml: cannot open"),
    (["record", "edit", "/nonexistent.yaml", "x"], "'x' is not a valid integer"),
])
def test_errors_are_one_line(args, message):
    result = run(*args)
    assert result.code == 2
    assert result.err.startswith("Error: ") and message in result.err and result.err.count("\n") == 1


# --------------------------------------------------------------------------- kill -9 leaves the old file or the new

def _big(tmp_path: Path, deals: int) -> Path:
    path = tmp_path / "big.yaml"
    path.write_text(long_record_text(deals))
    return path


@pytest.mark.parametrize("args", [["undo"], ["edit", "@", "--counters", "NS=100"]])
def test_kill_9_during_undo_or_edit_leaves_the_old_file_or_the_new(tmp_path, args):
    path = _big(tmp_path, 400)
    old = path.read_bytes()
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PINOCHLE_RULESET": ""}
    cmd = [sys.executable, "-m", "pinochle_cli", "record", args[0], str(path),
           *[a.replace("@", "1") for a in args[1:]]]
    began = time.monotonic()
    done = subprocess.run(cmd, env=env, capture_output=True, timeout=120)
    took = time.monotonic() - began  # kill within the time a whole run takes, so every kill lands mid-run
    assert done.returncode == 0, done.stderr
    new = path.read_bytes()
    rng = random.Random(9)
    for _ in range(6):
        path.write_bytes(old)
        proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.05, took))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert path.read_bytes() in (old, new)


@pytest.mark.parametrize(("args", "deals"), [(["undo"], 4), (["edit", "1", "--bid", "260"], 5)])
def test_changes_print_the_record_as_json(five, args, deals):
    result = run("record", args[0], str(five), *args[1:], "--json")
    assert result.code == 0, result.out
    data = json.loads(result.out)
    assert len(data["deals"]) == deals and data["status"] == "in-progress"
    if args[0] == "undo":
        assert json.loads(run("record", "redo", str(five), "--json").out)["totals"] == {
            "North-South": 1250, "East-West": 500}


def test_show_and_prompts_find_a_house_ruleset_beside_the_record(tmp_path, monkeypatch):
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "house.yaml").write_bytes((ROOT / "rulesets" / "single-deck.yaml").read_bytes())
    path = tmp_path / "games" / "night.yaml"
    assert run("record", "new", str(path), "-r", str(tmp_path / "games" / "house.yaml"), "--team", "NS=Ann,Cy",
               "--team", "EW=Bob,Di").code == 0
    monkeypatch.chdir(tmp_path)
    assert run("record", "add", str(path), "--prompt", "--dealer", "Ann", "--bidder", "Ann", "--bid", "250", "-t", "H",
               "--meld", "NS=100", "--meld", "EW=0", input="150\ny\n").code == 0
    result = run("record", "show", str(path))
    assert result.code == 0, result.out
    assert result.out.splitlines()[0].startswith("  1  dealer: Ann, bidder: Ann, bid: 250")


HEAD = """\
# our Friday game
ruleset: single-deck   # the usual
teams:
  North-South: [Ann, Cy]
  East-West: [Bob, Di]
deals:
"""
TWO = """\
  - dealer: Ann     # Ann shuffled
    bidder: Bob
    bid: 250
    trump: spades
    meld: {North-South: 100, East-West: 0}
    counters: {North-South: 150, East-West: 100}

  # the second deal
  - dealer: Bob
    bidder: Bob
    bid: 250
    trump: clubs
    meld: {North-South: 0, East-West: 100}
    counters: {North-South: 100, East-West: 150}   # close
"""
BLOCK_LAYOUTS = {
    "comments after": HEAD + TWO + "\n# end of the sheet\n",
    "no final newline": HEAD + TWO.rstrip("\n"),
    "list at column 0": HEAD + "".join(line[2:] + "\n" for line in TWO.splitlines()),
    "deals not the last key": HEAD + TWO + "notes: keep going\n",
    "a literal block last": HEAD + TWO + "    notes: |\n      a close one\n\n",
    "Windows line ends": (HEAD + TWO).replace("\n", "\r\n"),
}


@pytest.mark.parametrize("text", BLOCK_LAYOUTS.values(), ids=BLOCK_LAYOUTS.keys())
def test_undo_and_redo_in_every_layout(text):
    before = parse_record(text)
    once = undo_text(text)
    assert [d.facts for d in parse_record(once.text).deals] == [before.deals[0].facts]
    twice = undo_text(once.text)
    assert parse_record(twice.text).deals == ()
    restored = redo_text(redo_text(twice.text).text).text
    # byte for byte, but a file without a final newline gets one (the history started on a line of its own)
    assert restored == (text if text.endswith("\n") else text + "\n")


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="needs symbolic links")
@pytest.mark.parametrize("args", [["undo"], ["edit", "1", "--bid", "260"]])
def test_undo_and_edit_write_through_a_link_and_refuse_a_read_only_record(five, args):
    link = five.parent / "link.yaml"
    link.symlink_to(five.name)
    result = run("record", args[0], str(link), *args[1:])
    assert result.code == 0, result.err
    assert link.is_symlink() and read_record(str(five)).deals != ()
    five.chmod(0o444)
    assert_refused(five, ["record", args[0], str(five), *args[1:]],
                   ": read-only: make it writable to add to it; the record is unchanged")
