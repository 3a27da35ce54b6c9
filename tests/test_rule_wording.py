"""Rule wording comes from the ruleset: what naming trump takes is read from ``trump.needs``."""

from __future__ import annotations

from pathlib import Path

import pytest
from clihelp import run_cli
from rulesethelp import EditRuleset

from pinochle_cli.errors import RecordError
from pinochle_cli.records import parse_record

ACE_KING_QUEEN = "trump: {source: bid, needs: [A, K, Q]}"
KIM = "AS AS KS QS JS AH TH KH JH AD TD KD QD JD AC TC KC QC JC JC"  # A+K+Q in spades, diamonds, clubs
DOUBLE = "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS"  # no K or Q of spades


@pytest.fixture
def needs_ace_king_queen(edited_ruleset: EditRuleset) -> Path:
    """Double-deck where naming a suit takes its A, K and Q."""
    return edited_ruleset("double-deck", ("trump: {source: bid, eligible: marriage}", ACE_KING_QUEEN)).path


def refusal(deal: str, folder: Path) -> str:
    text = f"ruleset: house.yaml\nteams: {{A: [Kim, Lou], B: [Max, Ned]}}\ndeals:\n{deal}"
    with pytest.raises(RecordError) as info:
        parse_record(text, "r.yaml", str(folder))
    return str(info.value)


def test_record_trump_refusal_names_the_ranks_needed(needs_ace_king_queen: Path) -> None:
    deal = f"- {{bidder: Kim, bid: 50, trump: H, hands: {{Kim: {KIM}}}, counters: {{A: 30, B: 20}}}}\n"
    assert refusal(deal, needs_ace_king_queen.parent) == (
        "r.yaml:4: deal 1, trump: Kim cannot name hearts: holding A♥ 10♥ K♥ J♥, "
        "trump must be a suit of which the bidder holds A, K and Q")


def test_record_no_trump_refusal_names_the_ranks_needed(needs_ace_king_queen: Path) -> None:
    deal = f"- {{bidder: Kim, bid: 50, no-trump: true, hands: {{Kim: {KIM}}}}}\n"
    assert refusal(deal, needs_ace_king_queen.parent) == (
        "r.yaml:4: deal 1, no-trump: Kim holds A, K and Q of spades, diamonds and clubs and could name trump")


def test_estimate_trump_refusal_names_the_ranks_needed(needs_ace_king_queen: Path) -> None:
    code, out, err = run_cli("estimate", DOUBLE, "-r", str(needs_ace_king_queen), "-t", "S")
    assert (code, out, err) == (2, "", "Error: trump S: the bidder may name only a suit in which they hold the "
                                       "ace, king and queen, and this hand has no A♠ K♠ Q♠\n")
