"""One rule, one place: the duties of a trick are defined once and the computer player is written once.

A grep of the package shows one definition of each; a duty changed in a copied ruleset is followed by
every part that plays or checks a card — ``legal``, ``score``'s check of a recorded play, the estimator's
player and the solver.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest
from clihelp import run_cli
from rulesethelp import EditRuleset

from pinochle_cli.cards import ALL_CARDS, Card, Hand, Suit, parse_cards
from pinochle_cli.errors import IllegalPlayError
from pinochle_cli.game.deal import deal_cards, play_deal, random_strategy, replay_deal
from pinochle_cli.game.tricks import legal_plays
from pinochle_cli.player.seat import SeatView, choose_card
from pinochle_cli.player.tables import PlayerTables
from pinochle_cli.ruleset import Ruleset, load_ruleset
from pinochle_cli.solver.solve import Position, Solver

PACKAGE = Path(__file__).resolve().parent.parent / "pinochle_cli"
# where the duties are defined (the encoding and what each duty comes to), and where they are worded
DEFINITION = "game/trick_rules.py"
WORDING = {"game/tricks.py", "ruleset/rules.py", "ruleset/rulebook.py", "ruleset/vocabulary.py",
           "ruleset/description.py"}
# a duty's meaning read in code: a field of a duty, or the constants of the duties' encoding
DUTY_READ = re.compile(r"\bduty\.(name|when|partner|only_if_winning)\b|\b(FOLLOW|BEAT|TRUMP_LED|PLAIN_LED|"
                       r"ONLY_IF_WINNING|DUTY_KINDS|DUTY_WHENS)\b")


def _sources() -> dict[str, str]:
    return {p.relative_to(PACKAGE).as_posix(): p.read_text(encoding="utf-8") for p in sorted(PACKAGE.rglob("*.py"))}


def duty_readers(sources: dict[str, str]) -> list[str]:
    """``file:line`` of each place outside the definition and the wording that reads what a duty means."""
    return [f"{name}:{i}" for name, text in sources.items() if name != DEFINITION and name not in WORDING
            for i, line in enumerate(text.splitlines(), 1) if DUTY_READ.search(line)]


def defined(sources: dict[str, str], names: set[str]) -> dict[str, list[str]]:
    """For each function name of ``names``, the modules that define a function of that name."""
    out: dict[str, list[str]] = {n: [] for n in names}
    for name, text in sources.items():
        for node in ast.walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef) and node.name in names:
                out[node.name].append(name)
    return out


def test_the_duties_are_read_in_one_place() -> None:
    assert duty_readers(_sources()) == []


def test_a_second_reading_of_the_duties_is_seen() -> None:
    twin = {"estimate/twin.py": 'def f(duty):\n    if duty.name == "follow":\n        return 1\n',
            "player/other.py": "x = TRUMP_LED\n", DEFINITION: 'if duty.name == "beat": pass\n'}
    assert duty_readers(twin) == ["estimate/twin.py:2", "player/other.py:1"]


def test_one_definition_of_each_rule_and_of_the_player() -> None:
    names = {"legal_given", "duty_outcome", "legal_in_trick", "beats", "above_masks", "strengths",  # the trick's rules
             "choose_lead", "choose_follow", "_chance", "play_relabelled", "choose_card",  # the card player
             "choose_pass", "choose_return", "choose_bury"}  # its exchange and bury
    where = defined(_sources(), names)
    assert all(len(files) == 1 for files in where.values()), where
    assert {where[n][0] for n in ("legal_given", "duty_outcome", "legal_in_trick", "beats")} == {DEFINITION}
    assert {where[n][0] for n in ("choose_lead", "choose_follow")} == {"player/play.py"}
    assert where["choose_card"] == ["player/seat.py"]


def test_no_hand_stamped_cache_key() -> None:
    assert not [name for name, text in _sources().items() if "COMPILED_WITH" in text]


# --------------------------------------------------------------------------- a duty changed in a copied ruleset

# the house rule: on a plain lead, follow suit and nothing more (the duties to trump and to beat on a trump lead only)
FOLLOW_ONLY = ("duties: [follow, trump, beat]",
               "duties: [follow, {trump: {when: trump-led}}, {beat: {when: trump-led}}]")


@pytest.fixture
def house(edited_ruleset: EditRuleset) -> Ruleset:
    edited = edited_ruleset("single-deck", FOLLOW_ONLY)
    return load_ruleset(str(edited.path))


def test_legal_follows_the_changed_duty(house: Ruleset, edited_ruleset: EditRuleset) -> None:
    hand, trick = Hand.parse("9H JD"), parse_cards("AS")
    assert legal_plays(load_ruleset("single-deck"), hand, trick, "H") == parse_cards("9H")
    assert legal_plays(house, hand, trick, "H") == parse_cards("9H JD")
    path = edited_ruleset("single-deck", FOLLOW_ONLY).path
    ran = run_cli("legal", "--hand", "9H JD", "--trick", "AS", "-t", "H", "-r", str(path), "--play", "JD")
    assert ran.code == 0 and "allowed" in ran.out


def test_the_players_card_follows_the_changed_duty(house: Ruleset) -> None:
    """Last to a trick its partner wins, void in the suit led: the player must trump by the bundled rules, and
    feeds its partner the jack by the house's."""
    full = np.array(house.deck.full().counts, dtype=np.int64)
    hand = np.zeros(24, dtype=np.int64)
    for c in parse_cards("9H JD"):
        hand[c.index] += 1
    trick = parse_cards("AS 9S")
    unseen = full - hand
    for c in trick:
        unseen[c.index] -= 1
    view = SeatView(int(Suit.H), 3, hand, unseen, np.zeros((4, 4), dtype=bool), tuple(c.index for c in trick), 1)
    assert ALL_CARDS[choose_card(PlayerTables.build(load_ruleset("single-deck")), view)] == Card.parse("9H")
    assert ALL_CARDS[choose_card(PlayerTables.build(house), view)] == Card.parse("JD")


def test_the_solver_follows_the_changed_duty(house: Ruleset) -> None:
    void = Position((Hand.parse("AS KC"), Hand.parse("9H JD"), Hand.parse("KS QC"), Hand.parse("QS JC")), 0)
    after = void.play(Card.parse("AS"))
    assert Solver(load_ruleset("single-deck"), "H").legal(after) == parse_cards("9H")
    assert Solver(house, "H").legal(after) == parse_cards("9H JD")


def _played_deal(house: Ruleset) -> tuple[list[Hand], list[list[Card]]]:
    """A whole deal played at random by the house rules, in which some card breaks the bundled rules."""
    bundled = load_ruleset("single-deck")
    for seed in range(50):
        rng = np.random.default_rng(seed)
        hands, _ = deal_cards(house, rng)
        play = play_deal(house, hands, Suit.H, 0, random_strategy(rng), bidder=0)
        try:
            replay_deal(bundled, hands, Suit.H, 0, play.tricks, bidder=0)
        except IllegalPlayError:
            return hands, play.tricks
    raise AssertionError("no random deal broke the bundled duties")


def test_scores_check_follows_the_changed_duty(house: Ruleset, edited_ruleset: EditRuleset, tmp_path: Path) -> None:
    hands, tricks = _played_deal(house)
    path = edited_ruleset("single-deck", FOLLOW_ONLY, file="house.yaml").path
    names = ["Ann", "Bob", "Cy", "Di"]

    def record(ruleset: str) -> Path:
        lines = [f"ruleset: {ruleset}", "teams:", "  North-South: [Ann, Cy]", "  East-West: [Bob, Di]", "deals:",
                 "  - dealer: Di", "    bidder: Ann", "    bid: 250", "    trump: hearts", "    hands:"]
        lines += [f"      {n}: {' '.join(c.ascii() for c in h)}" for n, h in zip(names, hands, strict=True)]
        lines += ["    play:"] + [f"      - [{', '.join(c.ascii() for c in t)}]" for t in tricks]
        out = tmp_path / f"{Path(ruleset).stem}-night.yaml"
        out.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return out

    assert run_cli("score", str(record(path.name))).code == 0
    refused = run_cli("score", str(record("single-deck")))
    assert refused.code == 2 and "deal 1, trick" in refused.err and "must" in refused.err, refused
