"""Cards shown for meld by all the players of a deal are counted against the pack together."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from pinochle_cli.cli import cli

HEAD = "ruleset: single-deck\nteams:\n  North-South: [Ann, Cy]\n  East-West: [Bob, Di]\ndeals:\n"
DEAL = "  - {{dealer: Ann, bidder: Ann, bid: 250, trump: hearts, meld: {meld}, counters: {{North-South: 150, " \
       "East-West: 100}}}}\n"


@pytest.mark.parametrize(("meld", "message"), [
    ('{Ann: "QS QS JD", Cy: "QS JD", East-West: 100}',
     "deal 1, meld: Q♠ (QS) is shown 3 times (Ann 2, Cy 1); the single-deck pack has 2"),
    ('{Ann: "AH 10H KH QH JH", Cy: "AH 10H KH QH JH", Bob: "AH KH QH"}',
     "deal 1, meld: A♥ (AH) is shown 3 times (Ann 1, Cy 1, Bob 1); the single-deck pack has 2"),
])
def test_cards_shown_by_several_players_beyond_the_pack_are_refused(tmp_path: Path, meld: str, message: str) -> None:
    path = tmp_path / "night.yaml"
    path.write_text(HEAD + DEAL.format(meld=meld), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", str(path)], env={"PINOCHLE_RULESET": ""})
    assert result.exit_code == 2
    assert result.stderr == f"Error: {path}:6: {message}\n"


def test_each_partner_may_show_one_copy(tmp_path: Path) -> None:
    path = tmp_path / "night.yaml"
    path.write_text(HEAD + DEAL.format(meld='{Ann: "QS JD", Cy: "QS JD", East-West: 100}'), encoding="utf-8")
    result = CliRunner().invoke(cli, ["score", str(path)], env={"PINOCHLE_RULESET": ""})
    assert result.exit_code == 0, result.stderr
