"""``pinochle record new|add`` through click: files written, standings printed, refusals exit 2."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run_cli as run

from pinochle_cli.records import read_record


@pytest.fixture
def night(tmp_path) -> Path:
    path = tmp_path / "night.yaml"
    result = run("record", "new", str(path), "-r", "single-deck", "--team", "North-South=Ann,Cy",
                 "--team", "East-West=Bob,Di")
    assert result.code == 0, result.err
    return path


def test_new_writes_an_empty_record(night):
    assert night.read_text() == (
        "# Pinochle match record. `pinochle score FILE` shows the standings;\n"
        "# `pinochle record add FILE ...` adds a deal. Comments and layout are kept.\n"
        "ruleset: single-deck\n"
        "teams:\n"
        "  North-South: [Ann, Cy]\n"
        "  East-West: [Bob, Di]\n"
        "deals: []\n")
    assert read_record(str(night)).table.seating == ("Ann", "Bob", "Cy", "Di")


def test_new_output(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = run("record", "new", "n.yaml", "--team", "NS=Ann,Cy", "--team", "EW=Bob,Di")
    assert result.code == 0
    assert result.out == (
        "Started n.yaml: single-deck, NS (Ann, Cy) v EW (Bob, Di).\n"
        "Seating, clockwise: Ann, Bob, Cy, Di.\n"
        "Add deals with: pinochle record add n.yaml --dealer ... --bidder ... --bid ... --meld ... "
        "--counters ...\n")


def test_new_refuses_to_overwrite(night):
    before = night.read_bytes()
    result = run("record", "new", str(night), "--team", "A=Ann,Cy", "--team", "B=Bob,Di")
    assert result.code == 2
    assert result.err == f"Error: {night}: already exists (use --force to replace it)\n"
    assert night.read_bytes() == before
    result = run("record", "new", str(night), "--team", "A=Ann,Cy", "--team", "B=Bob,Di", "--force")
    assert result.code == 0 and "A: [Ann, Cy]" in night.read_text()


def test_new_with_options_players_seating_and_a_ruleset_path(tmp_path):
    small = tmp_path / "small.yaml"
    result = run("record", "new", str(small), "-r", "small", "-o", "target=75", "--team", "Us=Eve,Gus",
                 "--team", "Them=Fay,Hal", "--seating", "Fay,Eve,Hal,Gus")
    assert result.code == 0, result.err
    text = small.read_text()
    assert "ruleset: single-deck-small\noptions: {target: 75}\n" in text and "seating: [Fay, Eve, Hal, Gus]\n" in text
    assert read_record(str(small)).rules.match.target == 75
    two = tmp_path / "two.yaml"
    assert run("record", "new", str(two), "-r", "two-handed", "--player", "Pat", "--player", "Sam").code == 0
    assert "players: [Pat, Sam]\n" in two.read_text()
    (tmp_path / "rules").mkdir()
    house = tmp_path / "rules" / "house.yaml"
    house.write_text(Path(read_record(str(small)).rules.path).read_text())
    mine = tmp_path / "sub" / "mine.yaml"
    mine.parent.mkdir()
    assert run("record", "new", str(mine), "-r", str(house), "--team", "X=a,b", "--team", "Y=c,d").code == 0
    assert "ruleset: ../rules/house.yaml\n" in mine.read_text()
    assert read_record(str(mine)).rules.name == "single-deck-small"


@pytest.mark.parametrize(("args", "message"), [
    (["-r", "single-deck"], "Error: the single-deck game needs its table: --team NAME=P1,P2 for each of its 2 teams\n"),
    (["-r", "two-handed"], "Error: the two-handed game needs its table: --player NAME for each of its 2 players\n"),
    (["--team", "NS"], "Error: --team 'NS' is not NAME=PLAYER,PLAYER\n"),
    (["--team", "X=a,b", "--team", "Y=c,d", "--player", "x"],
     "Error: give --team (partnership games) or --player (games without partnerships), not both\n"),
    (["--team", "X=a,b", "--team", "Y=c,d", "--seating", "a,b,c,d"],
     "Error: {f}: seating: a and b (X) sit at seats [0, 1]; partners sit at seats [0, 2] or [1, 3]\n"),
    (["-r", "single-deck", "--player", "a", "--player", "b"],
     "Error: {f}: players: the single-deck game plays in partnerships: give teams (a name and its players for "
     "each team)\n"),
])
def test_new_refusals(tmp_path, args, message):
    path = tmp_path / "n.yaml"
    result = run("record", "new", str(path), *args)
    assert result.code == 2
    assert result.err == message.replace("{f}", str(path))
    assert not path.exists()


def test_add_prints_standings_and_appends(night):
    result = run("record", "add", str(night), "--dealer", "Ann", "--bidder", "Bob", "--bid", "300", "--trump", "H",
                 "--meld", "NS=60", "--meld", "EW=180", "--counters", "NS=80")
    assert result.code == 0, result.out
    assert result.out == (
        f"Added deal 1 to {night}.\n"
        "After 1 deal: North-South 140 (1360 to go), East-West 350 (1150 to go). Next dealer: Bob.\n")
    assert night.read_text().endswith(
        "deals:\n"
        "  - dealer: Ann\n"
        "    bidder: Bob\n"
        "    bid: 300\n"
        "    trump: hearts\n"
        "    meld: {North-South: 60, East-West: 180}\n"
        "    counters: {North-South: 80, East-West: 170}\n")


def test_add_json_and_abbreviations(night):
    run("record", "add", str(night), "--dealer", "an", "--bidder", "b", "--bid", "300", "-t", "♥",
        "--meld", "north=60", "--meld", "ew=180", "--counters", "NS=80")
    result = run("record", "add", str(night), "--auction", "pass pass 250 pass", "-t", "spades",
                 "--meld", "Ann=AS 10S KS QS JS", "--meld", "Di=40", "--counters", "EW=100", "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    deal = data["deals"][1]
    assert (deal["dealer"], deal["bidder"], deal["bid"], deal["trump"]) == ("Bob", "Ann", 250, "S")  # dealer rotated
    assert deal["points"] == {"North-South": 300, "East-West": 140}
    assert data["totals"] == {"North-South": 440, "East-West": 490}
    text = night.read_text()
    assert "    auction: [pass, pass, 250, pass]\n" in text
    assert "    meld: {Ann: AS TS KS QS JS, Di: 40, North-South: 0}\n" not in text  # NS given by Ann: no filler
    assert "    meld: {Ann: AS TS KS QS JS, Di: 40}\n" in text
    assert "    counters: {East-West: 100, North-South: 150}\n" in text


def test_add_conceded_and_redeal(night):
    assert run("record", "add", str(night), "--dealer", "Cy", "--redeal").code == 0
    result = run("record", "add", str(night), "--dealer", "Cy", "--bidder", "Di", "--bid", "250", "-t", "C",
                 "--meld", "NS=80", "--meld", "EW=20", "--conceded", "--json")
    data = json.loads(result.out)
    assert [d["result"] for d in data["deals"]] == ["redeal", "conceded"]
    assert data["totals"] == {"North-South": 80, "East-West": -250}
    assert "  - dealer: Cy\n    redeal: true\n" in night.read_text()


@pytest.mark.parametrize(("args", "message"), [
    (["-t", "H", "--bidder", "Bob", "--bid", "305", "--meld", "EW=100", "--meld", "NS=0", "--counters", "NS=80"],
     "deal 1, bid: 305 is off the steps (from 250: steps of 10; next valid bid 310)"),
    (["-t", "H", "--bidder", "Bob", "--bid", "240", "--meld", "EW=100", "--meld", "NS=0", "--counters", "NS=80"],
     "deal 1, bid: 240 is below the minimum bid 250"),
    (["-t", "H", "--bidder", "Bob", "--bid", "250", "--counters", "NS=80", "--counters", "EW=80"],
     "deal 1, counters: NS=80 and EW=80 add up to 160; the counters of a deal add up to 250 (give one side and the "
     "other is inferred)"),
    (["-t", "H", "--bidder", "Bob", "--bid", "250", "--meld", "NS=20", "--counters", "NS=80"],
     "deal 1, meld: no meld given for East-West (a side with no meld: --meld East-West=0)"),
    (["--bidder", "Zed", "--bid", "250"], "deal 1, bidder: 'Zed' is not at the table (North-South, East-West, Ann, "
     "Bob, Cy, Di)"),
    (["--bidder", "Bob", "--bid", "250", "--meld", "X=10"], "deal 1, meld: 'X' is not at the table (North-South, "
     "East-West, Ann, Bob, Cy, Di)"),
    (["-t", "H", "--bidder", "Bob", "--bid", "250", "--counters", "NS"], "deal 1, counters: 'NS' is not NAME=VALUE (e.g. NS=60)"),
    (["-t", "H", "--bidder", "Bob", "--bid", "250", "--counters", "NS=lots"], "deal 1, counters: NS=lots: expected a whole number"),
    (["--bidder", "Bob", "--bid", "250", "-t", "X", "--counters", "NS=80"],
     'deal 1, trump: "X" is not a suit (use S, H, D, C, a suit name or ♠ ♥ ♦ ♣)'),
    (["-t", "H", "--bidder", "Bob", "--bid", "260", "--meld", "NS=0", "--meld", "EW=0", "--counters", "NS=80"],
     "deal 1, counters: the deal ended after the meld (not on board: meld 0 + 250 is below the bid 260): "
     "no cards were played"),
    (["-t", "H", "--dealer", "Ann", "--auction", "250 260 pass", "--counters", "NS=80", "--meld", "EW=50", "--meld", "NS=0"],
     "deal 1, auction: the auction is not over: Ann, Bob and Cy are still bidding"),
    (["-t", "H", "--bidder", "Bob", "--bid", "250", "--meld", "NS=60", "--meld", "EW=100", "--counters", "NS=0"],
     "deal 1, tricks: North-South took no counters; add tricks: to say whether they took a trick "
     "(the score depends on it)"),
])
def test_add_refusals_leave_the_file(night, args, message):
    before = night.read_bytes()
    result = run("record", "add", str(night), *args)
    assert result.code == 2
    assert result.out == ""
    assert result.err == f"Error: {night}: {message}\n"
    assert night.read_bytes() == before


def test_add_tricks_settle_the_question(night):
    result = run("record", "add", str(night), "--bidder", "Bob", "--bid", "250", "-t", "H", "--meld", "NS=60",
                 "--meld", "EW=100", "--counters", "NS=0", "--tricks", "NS=1", "--json")
    assert result.code == 0, result.out
    assert json.loads(result.out)["totals"] == {"North-South": 60, "East-West": 350}


def test_add_ambiguous_abbreviation(tmp_path):
    path = tmp_path / "r.yaml"
    run("record", "new", str(path), "--team", "Nord=Ann,Cy", "--team", "Nacht=Bob,Di")
    result = run("record", "add", str(path), "--bidder", "Bob", "--bid", "250", "--counters", "N=80")
    assert result.code == 2
    assert result.err == f"Error: {path}: deal 1, counters: 'N' is ambiguous: Nord, Nacht\n"


def test_add_after_the_match_is_decided(night):
    run("record", "add", str(night), "--bidder", "Ann", "--bid", "1500", "-t", "S", "--meld", "NS=1500",
        "--meld", "EW=0", "--counters", "NS=250")
    before = night.read_bytes()
    result = run("record", "add", str(night), "--bidder", "Bob", "--bid", "250", "-t", "S", "--meld", "EW=50",
                 "--meld", "NS=0", "--counters", "NS=100")
    assert result.code == 2
    assert result.err == (f"Error: {night}: deal 2: the match was already decided after deal 1: "
                             "North-South won 1750 to 0\n")
    assert night.read_bytes() == before


def test_add_to_a_missing_file(tmp_path):
    result = run("record", "add", str(tmp_path / "none.yaml"), "--bidder", "Bob", "--bid", "250")
    assert result.code == 2
    assert result.err == f"Error: {tmp_path / 'none.yaml'}: cannot open: No such file or directory\n"


def test_two_handed_add(tmp_path):
    path = tmp_path / "two.yaml"
    run("record", "new", str(path), "-r", "two-handed", "--player", "Pat", "--player", "Sam")
    result = run("record", "add", str(path), "--dealer", "Pat", "-t", "H", "--meld", "Pat=150", "--meld", "Sam=60",
                 "--counters", "Pat=130", "--json")
    assert result.code == 0, result.out
    assert json.loads(result.out)["totals"] == {"Pat": 280, "Sam": 180}
    result = run("record", "add", str(path), "--bidder", "Pat", "--bid", "250", "--meld", "Pat=0", "--meld", "Sam=0",
                 "--counters", "Pat=130")
    assert result.code == 2
    assert result.err == f"Error: {path}: deal 2, bidder: the two-handed game has no auction: no bidder\n"
