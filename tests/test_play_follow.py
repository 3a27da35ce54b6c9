"""Following a real table: the README's played example entered card by card writes a record whose ``score`` is the
example's, and which ``analyze`` and the score page read; the widow and an unseen bury of the three-handed game;
what is entered for a hand nobody sees is checked as far as what is known allows."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from clihelp import run_cli
from playhelp import EXAMPLES, events, follow_lines, of

from pinochle_cli.records import read_record
from pinochle_cli.solver.analyze import playable_deals


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def _follow(example: str, seat: int, players: list[str], record: str = "followed.yaml",
            extra: tuple[str, ...] = ()) -> tuple[list[str], list[dict[str, object]]]:
    lines, hand, dealer = follow_lines(EXAMPLES / example, seat)
    rules = json.loads(run_cli("score", str(EXAMPLES / example), "--json").out)["ruleset"]
    table = [a for p in players for a in ("--player", p)] if rules == "three-handed" else \
        ["--team", "North-South=Ann,Cy", "--team", "East-West=Bob,Di"]
    assert run_cli("record", "new", record, "-r", rules, *table).code == 0
    code, out, err = run_cli("play", "--follow", "--hand", hand, "--seat", str(seat), "--dealer", str(dealer),
                             "--record", record, "--time", "0.2", "--no-review", "--json", *extra,
                             input="\n".join(lines) + "\n")
    assert (code, err) == (0, ""), err
    return lines, events(out)


def test_the_readme_example_followed_card_by_card_scores_as_the_example(tmp_path: Path) -> None:
    _lines, found = _follow("single-deck-played.yaml", 1, [])
    assert not of(found, "refused") and of(found, "deal_ended")
    mine = json.loads(run_cli("score", "followed.yaml", "--json").out)
    theirs = json.loads(run_cli("score", str(EXAMPLES / "single-deck-played.yaml"), "--json").out)
    assert mine["deals"][0]["points"] == theirs["deals"][0]["points"] == {"North-South": 270, "East-West": 160}
    assert mine["totals"] == theirs["totals"]
    # every hand is known once every card is played: the record holds the example's hands and play, which analyze
    # replays (test_play_review runs it on such a record)
    ours, example = read_record("followed.yaml").deals[0], read_record(str(EXAMPLES / "single-deck-played.yaml")).deals[0]
    assert (ours.hands, ours.play, ours.leader) == (example.hands, example.play, example.leader)
    assert playable_deals(read_record("followed.yaml")) != []
    # the decisions entered for the other seats are the table's, the user's own are asked as theirs
    asked = of(found, "decision")
    assert {d["yours"] for d in asked if d["seat"] == 1} == {True}
    assert not any(d["yours"] for d in asked if d["seat"] not in (1, None))


def test_the_score_page_reads_the_followed_record(tmp_path: Path) -> None:
    pytest.importorskip("flask")
    _follow("single-deck-played.yaml", 1, [])
    from servehelp import Phone

    page = Phone(tmp_path / "followed.yaml").open()
    assert page.status_code == 200 and "270" in page.get_data(as_text=True)


def test_a_three_handed_deal_followed_with_its_widow_and_an_unseen_bury(tmp_path: Path) -> None:
    _lines, found = _follow("three-handed-played.yaml", 0, ["Ann", "Bob", "Cy"])
    assert not of(found, "refused")
    assert of(found, "widow")[0]["cards"] == ["AC", "KC", "9C"]
    mine = json.loads(run_cli("score", "followed.yaml", "--json").out)["deals"][0]
    theirs = json.loads(run_cli("score", str(EXAMPLES / "three-handed-played.yaml"), "--json").out)["deals"][0]
    assert mine["points"] == theirs["points"] and mine["buried"] == theirs["buried"]


def test_a_card_nobody_can_hold_is_refused_for_an_unseen_hand(tmp_path: Path) -> None:
    lines, hand, dealer = follow_lines(EXAMPLES / "single-deck-played.yaml", 1)
    shutil.copy(EXAMPLES / "single-deck-played.yaml", "example.yaml")
    at_play = lines.index("QD")
    # Bob (the user) holds both A♠: Cy cannot lead one
    code, out, _ = run_cli("play", "--follow", "--hand", hand, "--seat", "1", "--dealer", str(dealer), "--time",
                           "0.2", "--no-review", "--json", input="\n".join([*lines[:at_play], "AS", "quit"]) + "\n")
    assert code == 0
    refused = of(events(out), "refused")
    assert len(refused) == 1 and "no A♠ is left to hold" in refused[0]["error"]


def test_the_cards_passed_and_received_are_entered_from_the_partner_s_seat(tmp_path: Path) -> None:
    # Ann (seat 0), the bidder's partner: she passed K♣ Q♣ J♦ 10♥ and got A♥ 9♥ 10♦ J♣ back, her hand at play
    # start the example's
    from pinochle_cli.cards import Hand

    lines, _, dealer = follow_lines(EXAMPLES / "single-deck-played.yaml", 1)
    dealt = (Hand.parse("KS JS 9S AH AH KH QH 9H TD KD QD JC") - Hand.parse("AH 9H TD JC")) + Hand.parse("KC QC JD TH")
    at = lines.index("give")
    lines = [*lines[:at], "give KC QC JD TH", "give AH 9H TD JC", *lines[at + 2:]]
    lines = ["meld 1" if line == "meld" else "meld" if line.startswith("meld 0 ") else line for line in lines]
    code, out, err = run_cli("play", "--follow", "--hand", " ".join(dealt.ascii()), "--seat", "0", "--dealer",
                             str(dealer), "--record", "partner.yaml", "--no-review", "--json",
                             input="\n".join(lines) + "\n")
    assert (code, err) == (0, ""), err
    found = events(out)
    assert not of(found, "refused")
    given = [e["action"] for e in of(found, "acted") if e["action"]["kind"] == "give"]
    assert [g["cards"] for g in given] == [["TH", "JD", "KC", "QC"], ["AH", "9H", "TD", "JC"]]
    assert of(found, "deal_ended")[0]["points"] == {"North-South": 270, "East-West": 160}
    assert json.loads(run_cli("score", "partner.yaml", "--json").out)["deals"][0]["points"] == \
        {"North-South": 270, "East-West": 160}
