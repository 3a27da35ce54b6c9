"""``pinochle play`` in practice: a whole deal typed on stdin, in every bundled game, ends with the score that
``pinochle score`` computes from the record it wrote; what the user sees is their own hand only."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run_cli
from playhelp import events, of, practice_lines

from pinochle_cli.ruleset import bundled_names


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


@pytest.mark.parametrize("name", bundled_names())
def test_a_whole_practice_deal_scores_as_its_record(name: str, tmp_path: Path) -> None:
    lines = practice_lines(name, 5)
    code, out, err = run_cli("play", "-r", name, "--seed", "5", "--time", "0.2", "--no-review", "--record",
                             "match.yaml", "--json", input="\n".join(lines) + "\nquit\n")
    assert (code, err) == (0, ""), err
    found = events(out)
    assert found[0]["event"] == "deal_started" and found[0]["seat"] == 0
    ended = of(found, "deal_ended")
    assert len(ended) == 1 and not of(found, "refused")
    scored = run_cli("score", "match.yaml", "--json")
    assert scored.code == 0, scored.err
    deal = json.loads(scored.out)["deals"][0]
    assert deal["points"] == ended[0]["points"] and deal["result"] == ended[0]["result"]
    # the next deal is offered; quit keeps the match for --resume
    assert of(found, "decision")[-1].get("next_deal") == 2 and found[-1]["event"] == "kept"


def test_every_decision_lists_what_is_allowed() -> None:
    lines = practice_lines("single-deck", 5)
    found = events(run_cli("play", "--seed", "5", "--time", "0.2", "--no-review", "--json",
                           input="\n".join(lines) + "\n").out)
    asked = [e for e in of(found, "decision") if e["yours"] and e["stage"] != "done"]
    assert asked and all(e["seat"] == 0 for e in asked)
    calls = [e for e in asked if e["stage"] == "auction"]
    assert calls and all(e["bids"]["smallest"] >= 250 for e in calls)
    cards = [e for e in asked if e["stage"] == "play"]
    assert len(cards) == 12 and all(e["cards"] for e in cards)
    tricks = of(found, "trick")
    assert len(tricks) == 12 and all(len(t["cards"]) == 4 and 0 <= t["winner"] < 4 for t in tricks)
    assert sum(t["counters"] for t in tricks) == 250
    # each card the user played was listed as legal when asked
    mine = [e["action"]["card"] for e in of(found, "acted") if e["seat"] == 0 and e["action"]["kind"] == "play"]
    assert all(card in e["cards"] for card, e in zip(mine, cards, strict=True))


def test_the_other_hands_stay_unseen_in_words() -> None:
    lines = practice_lines("three-handed", 5)
    code, out, _ = run_cli("play", "-r", "three-handed", "--seed", "5", "--time", "0.2", "--no-review",
                           input="\n".join(lines[:3]) + "\nshow\n")
    assert code == 0
    assert "Your hand:" in out and "buries 3 cards" in out and "Buried:" not in out
    assert out.rstrip().endswith("pinochle play --resume continues it.")


def test_the_match_goes_on_to_the_next_deal() -> None:
    first = practice_lines("single-deck-small", 3)
    code, out, err = run_cli("play", "-r", "single-deck-small", "--seed", "3", "--time", "0.2", "--no-review",
                             "--json", input="\n".join(first) + "\nscore\nnext\n")
    assert code == 0, err
    # between deals the score is the match's only
    scored = of(events(out), "scored")[0]
    assert scored["under_way"] is False and scored["standing"]["deals"] == 1
    started = of(events(out), "deal_started")
    assert [e["deal"] for e in started] == [1, 2]
    # the deal rotates clockwise
    assert started[1]["dealer"] == (started[0]["dealer"] + 1) % 4


def test_a_house_rule_is_played_as_its_data_says(tmp_path: Path) -> None:
    # the last trick worth 20: the deal's counters add up to 260, and the record keeps the option
    options = (("last-trick", "20"),)
    lines = practice_lines("single-deck", 7, options=options)
    code, out, err = run_cli("play", "-o", "last-trick=20", "--seed", "7", "--time", "0.2", "--no-review", "--record",
                             "house.yaml", "--json", input="\n".join(lines) + "\nquit\n")
    assert (code, err) == (0, ""), err
    found = events(out)
    assert not of(found, "refused") and sum(t["counters"] for t in of(found, "trick")) == 260
    assert "last-trick" in (tmp_path / "house.yaml").read_text(encoding="utf-8")
    scored = run_cli("score", "house.yaml", "--json")
    assert scored.code == 0 and json.loads(scored.out)["deals"][0]["points"] == of(found, "deal_ended")[0]["points"]
