"""The house rules that are options of `single-deck` and `double-deck`: each changes an answer.

Every row asks the program the same question without the option and with it; the answers differ
exactly as the option says. The options are patches in the ruleset files, so this also checks
that the data says what the option's name promises.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run_cli
from rulesethelp import EditRuleset

from pinochle_cli.errors import RulesetError
from pinochle_cli.ruleset import load_ruleset

GAMES = ("single-deck", "double-deck")


def legal(game: str, hand: str, trick: str, *options: str) -> list[str]:
    code, out, err = run_cli("legal", "-r", game, "--hand", hand, "--trick", trick, "-t", "H", *options, "--json")
    assert (code, err) == (0, ""), err
    return list(json.loads(out)["legal"])


def minimum(game: str) -> int:
    auction = load_ruleset(game).auction
    assert auction is not None
    return auction.minimum


def score(tmp_path: Path, game: str, options: str, deal: str) -> tuple[int, str]:
    """``score --json`` of a one-deal record: the exit code and the match status (or the error)."""
    record = tmp_path / "night.yaml"
    record.write_text(f"ruleset: {game}\noptions: {options}\nteams:\n  NS: [Ann, Cy]\n  EW: [Bob, Di]\n"
                      f"deals:\n  - {{dealer: Ann, bidder: Bob, trump: H, {deal}}}\n", encoding="utf-8")
    code, out, err = run_cli("score", str(record), "--json")
    return code, json.loads(out)["status"] if code == 0 else err.strip()


@pytest.mark.parametrize("game", GAMES)
def test_must_trump_only_if_it_wins(game: str) -> None:
    # void in ♠, the A♠ already trumped by the A♥: the J♥ cannot win, so any card may go
    assert legal(game, "JH KD", "AS AH") == ["JH"]
    assert legal(game, "JH KD", "AS AH", "-o", "must-trump=if-it-wins") == ["JH", "KD"]
    # a trump that would win is still a duty
    assert legal(game, "JH KD", "AS", "-o", "must-trump=if-it-wins") == ["JH"]


@pytest.mark.parametrize("game", GAMES)
def test_need_not_beat_partner(game: str) -> None:
    # third to play: the partner led the K♠ and is winning it
    assert legal(game, "AS QS", "KS JS") == ["AS"]
    assert legal(game, "AS QS", "KS JS", "-o", "beat-partner=no") == ["AS", "QS"]
    # an opponent's winning card must still be beaten
    assert legal(game, "AS QS", "JS KS", "-o", "beat-partner=no") == ["AS"]


@pytest.mark.parametrize(("game", "choice", "meld", "counters", "default", "chosen"), [
    ("single-deck", "1000", 900, 250, "in-progress", "won"),
    ("single-deck", "2000", 1700, 250, "won", "in-progress"),
    ("double-deck", "250", 230, 50, "in-progress", "won"),
    ("double-deck", "1000", 600, 50, "won", "in-progress"),
])
def test_target(tmp_path: Path, game: str, choice: str, meld: int, counters: int, default: str, chosen: str) -> None:
    deal = f"bid: {minimum(game)}, meld: {{EW: {meld}, NS: 0}}, counters: {{EW: {counters}, NS: 0}}"
    assert score(tmp_path, game, "{}", deal) == (0, default)
    assert score(tmp_path, game, f"{{target: {choice}}}", deal) == (0, chosen)


@pytest.mark.parametrize(("game", "choice", "total"), [
    ("single-deck", "20", 260), ("single-deck", "0", 240), ("double-deck", "1", 49), ("double-deck", "0", 48)])
def test_last_trick(tmp_path: Path, game: str, choice: str, total: int) -> None:
    deal = f"bid: {minimum(game)}, meld: {{EW: 20, NS: 0}}, counters: {{EW: {total - 20}, NS: 20}}"
    code, message = score(tmp_path, game, "{}", deal)
    assert code == 2 and f"counters: add up to {total}, expected {load_ruleset(game).counter_total}" in message
    assert score(tmp_path, game, f"{{last-trick: {choice}}}", deal) == (0, "in-progress")


@pytest.mark.parametrize(("game", "choice"), [("single-deck", "3"), ("single-deck", "0"), ("double-deck", "4")])
def test_exchange(game: str, choice: str) -> None:
    code, out, _ = run_cli("rulesets", "show", game, "-o", f"exchange={choice}", "--json")
    assert code == 0 and json.loads(out)["exchange"] == int(choice) != load_ruleset(game).exchange


@pytest.mark.parametrize("game", GAMES)
def test_options_together(game: str) -> None:
    """Options patch different items of the duties, so they combine."""
    rules = load_ruleset(game, {"must-trump": "if-it-wins", "beat-partner": "no"})
    trump, beat = rules.play.duties[1:]
    assert (trump.only_if_winning, beat.partner) == (True, False)


@pytest.mark.parametrize("game", GAMES)
def test_defaults_are_the_rules_of_the_game(game: str) -> None:
    rules = load_ruleset(game)
    assert [d.describe() for d in rules.play.duties] == [
        "follow suit", "trump when void in the suit led", "beat the winning card if able"]
    assert {o.name for o in rules.options} >= {"target", "exchange", "must-trump", "beat-partner", "last-trick"}


def test_a_patch_into_a_list_names_a_real_item(edited_ruleset: EditRuleset) -> None:
    broken = edited_ruleset("single-deck", ("duties: [follow, trump, beat]", "duties: [follow, beat]"))
    with pytest.raises(RulesetError, match=r"options\.must-trump: patch path 'play\.duties\.trump': play\.duties has "
                                           r"no item 'trump' \(items are named or counted from 0\)"):
        broken.rules()
    by_position = edited_ruleset("single-deck", ("play.duties.beat: {beat", "play.duties.2: {beat"))
    assert by_position.rules({"beat-partner": "no"}).play.duties[2].partner is False


@pytest.mark.parametrize("game", GAMES)
def test_rulesets_show_lists_the_options_and_names_those_in_force(game: str) -> None:
    code, out, _ = run_cli("rulesets", "show", game, "-o", "last-trick=0")
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith(f"{game} (-o last-trick=0): ")
    rows = lines[lines.index("Options (-o KEY=VALUE):") + 3:]
    assert [row.split()[0] for row in rows] == ["target", "exchange", "must-trump", "beat-partner", "last-trick"]
    assert rows[-1].split()[:6] == ["last-trick", load_ruleset(game).options[-1].default, "|",
                                    load_ruleset(game).options[-1].choices[1], "|", "0"]
