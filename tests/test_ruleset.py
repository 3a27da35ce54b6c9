"""The four bundled rulesets agree with their rules (docs/games/NAME.md); validation names file, line,
column and field.
"""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import jsonschema
import pytest
import yaml
from rulesethelp import EditRuleset

from pinochle_cli.cards import Hand, Rank, Suit
from pinochle_cli.errors import OptionError, RulesetError
from pinochle_cli.ruleset import (
    bundled_names,
    load_ruleset,
    load_ruleset_text,
    parse_options,
    ruleset_json_schema,
    ruleset_schema_json_text,
)

ROOT = Path(__file__).resolve().parent.parent
RULESETS = ROOT / "rulesets"
NAMES = ["two-handed", "single-deck", "single-deck-small", "double-deck", "three-handed"]


def text_of(name: str) -> str:
    return (RULESETS / f"{name}.yaml").read_text(encoding="utf-8")


def test_bundled_names() -> None:
    assert bundled_names() == NAMES


@pytest.mark.parametrize(("name", "players", "deck", "hand", "total", "minimum", "target"), [
    ("two-handed", 2, 48, 12, 250, None, 1000),
    ("single-deck", 4, 48, 12, 250, 250, 1500),
    ("single-deck-small", 4, 48, 12, 25, 25, 150),
    ("double-deck", 4, 80, 20, 50, 50, 500),
])
def test_bundled_numbers(name: str, players: int, deck: int, hand: int, total: int,
                         minimum: int | None, target: int) -> None:
    rules = load_ruleset(name)
    assert (rules.players, rules.deck.size, rules.hand_size) == (players, deck, hand)
    assert rules.counter_total == total
    assert (rules.auction.minimum if rules.auction else None) == minimum
    assert rules.match.target == target


def test_two_handed_specifics() -> None:
    rules = load_ruleset("two-handed")
    assert rules.stock_size == 24 and rules.turn_up_trump and rules.trump_source == "turn-up"
    assert rules.partnerships == ((0,), (1,))
    assert [d.name for d in rules.play.duties] == ["follow", "trump", "beat"]
    assert rules.play.stock_duties == ()
    assert {r.letter: v for r, v in rules.counters.items()} == {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2}
    assert (rules.match.both_reach, rules.match.tie) == ("higher", "another-deal")
    values = {c.name: c.points for c in rules.meld}
    assert values["run"] == (150, 1500) and values["marriage"] == (20, 40) and values["pinochle"] == (40, 300)


def test_single_deck_specifics() -> None:
    rules = load_ruleset("single-deck")
    assert rules.partnerships == ((0, 2), (1, 3))
    assert rules.exchange == 4 and rules.trump_eligible == "any"
    assert rules.auction is not None and rules.auction.ladder(300) == [250, 260, 270, 280, 290, 300]
    assert not rules.auction.is_valid_bid(255) and not rules.auction.is_valid_bid(240)
    values = {c.name: c.value(1) for c in rules.meld}
    assert values["run and extra king"] == 190 and values["run and extra king and queen"] == 230
    assert rules.may_redeal(Hand.parse("9S 9S 9H 9D 9C KS KS QS QH JD JD JC"))
    assert not rules.may_redeal(Hand.parse("9S 9S 9H 9D AC KS KS QS QH JD JD JC"))
    assert not rules.may_redeal(Hand.parse("9S 9S 9H 9D KC KS KS QS QH JD JD JC"))
    assert rules.scoring.not_on_board is not None and rules.scoring.keep_meld == "trick"


def test_double_deck_specifics() -> None:
    rules = load_ruleset("double-deck")
    assert Rank.N not in rules.rank_order and rules.deck.copies == 4
    assert rules.auction is not None
    assert rules.auction.ladder(75) == [50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 65, 70, 75]
    assert rules.auction.next_bid(60) == 65 and not rules.auction.is_valid_bid(62)
    run = next(c for c in rules.meld if c.name == "run")
    assert [run.value(k) for k in (1, 2, 3, 4)] == [15, 150, 225, 300]
    assert rules.trump_eligible == "marriage" and rules.exchange == 0
    assert rules.eligible_trumps(Hand.parse("KS QS KH AD QC")) == [Suit.S]


def test_small_options() -> None:
    base = load_ruleset("single-deck-small")
    assert base.chosen == {"marriage-required": "no", "exchange": "4", "run-extra": "0",
                           "double-pinochle": "30", "overtake": "always", "target": "150"}
    assert {c.name for c in base.meld} >= {"run", "dix"} and "run and extra king" not in {c.name for c in base.meld}
    r = load_ruleset("single-deck-small", {"run-extra": "4", "double-pinochle": "32", "overtake": "trump-lead",
                                           "target": "8-deals", "exchange": "3", "marriage-required": "yes"})
    values = {c.name: c.value(1) for c in r.meld}
    assert values["run and extra king"] == 19 and values["run and extra king and queen"] == 23
    assert next(c for c in r.meld if c.name == "pinochle").value(2) == 32
    assert r.play.duties[-1].when == "trump-led"
    assert (r.match.target, r.match.deals) == (None, 8)
    assert r.exchange == 3 and r.trump_eligible == "marriage"


def test_aliases_and_case() -> None:
    assert load_ruleset("Single-Deck").name == "single-deck"
    assert load_ruleset("DOUBLE-DECK").name == "double-deck"
    assert load_ruleset("small").name == "single-deck-small"


def test_environment_default(monkeypatch: pytest.MonkeyPatch) -> None:
    assert load_ruleset().name == "single-deck"
    monkeypatch.setenv("PINOCHLE_RULESET", "double-deck")
    assert load_ruleset().name == "double-deck"


def test_unknown_ruleset() -> None:
    with pytest.raises(RulesetError, match="no bundled ruleset named 'four-deck' and no such file"):
        load_ruleset("four-deck")


def test_options_errors() -> None:
    with pytest.raises(OptionError, match=r"has no option 'colour' \(its options: marriage-required, exchange"):
        load_ruleset("single-deck-small", {"colour": "red"})
    with pytest.raises(OptionError, match=r"option target='99' is not a choice \(choices: 150, 75, 4-deals, 8-deals\)"):
        load_ruleset("single-deck-small", {"target": "99"})
    with pytest.raises(OptionError, match="has no option 'target' \\(its options: none\\)"):
        load_ruleset("two-handed", {"target": "75"})
    with pytest.raises(OptionError, match=r"option target='75' is not a choice \(choices: 1500, 1000, 2000\)"):
        load_ruleset("single-deck", {"target": "75"})
    with pytest.raises(OptionError, match="'target' is not KEY=VALUE"):
        parse_options(["target"])
    assert parse_options(["a=1", " b = x "]) == {"a": "1", "b": "x"}


def test_house_rule_file_changes_the_game(edited_ruleset: EditRuleset) -> None:
    path = edited_ruleset("single-deck", ("last_trick: 10", "last_trick: 20"), ("minimum: 250", "minimum: 300"),
                          ("steps: [{from: 250, by: 10}]", "steps: [{from: 300, by: 10}]")).path
    rules = load_ruleset(str(path))
    assert rules.counter_total == 260
    assert rules.auction is not None and rules.auction.minimum == 300


def test_relative_path_with_base(edited_ruleset: EditRuleset) -> None:
    path = edited_ruleset("double-deck", file="mine.yaml").path
    assert load_ruleset("mine.yaml", base=str(path.parent)).name == "double-deck"


def error_of(text: str) -> str:
    with pytest.raises(RulesetError) as err:
        load_ruleset_text(text, "house.yaml")
    return str(err.value)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


BASE = text_of("single-deck")


@pytest.mark.parametrize(("old", "new", "needle", "message"), [
    ("  copies: 2\n", "  copeis: 2\n", "copeis", "deck.copeis: unknown key 'copeis' (expected one of: suits, ranks, copies)"),
    ("last_trick: 10", "last_trick: ten", "last_trick", "last_trick: expected an integer, got 'ten'"),
    ("points: [150, 1500]}", "points: fifteen}", "  run: ", "meld.run.points: expected an integer, got 'fifteen'"),
    ("points: [150, 1500]}", "points: [150, fifteen]}", "  run: ", "meld.run.points[1]: expected an integer, got 'fifteen'"),
    ("cards: [QS, JD]", "cards: [QS, JX]", "pinochle:", "meld.pinochle.cards[1]: expected a card pattern"),
    ("players: 4", "players: four", "players:", "players: expected an integer of at least 2, got 'four'"),
    ("  leader: bidder", "  leader: dealer", "leader:", "play.leader: expected one of 'bidder', 'dealer-left', got 'dealer'"),
    ("duties: [follow, trump, beat]", "duties: [follow, trump, overtake]", "duties:", "play.duties[2]: expected one of 'follow', 'trump', 'beat', got 'overtake'"),
    ("hand_size: 12", "hand_size: 13", "hand_size", "hand_size: 4 hands of 13 need 52 cards; the deck has 48"),
    ("hand_size: 12", "hand_size: 10", "hand_size", "hand_size: 4 hands of 10 leave 8 cards undealt and there is no stock"),
    ("partnerships: [[0, 2], [1, 3]]", "partnerships: [[0, 2], [1, 2]]", "partnerships",
     "partnerships: each seat 0..3 must be in exactly one partnership"),
    ("counters: {A: 10, \"10\": 10, K: 10}", "counters: {A: 10, \"10\": 10, K: 10, X: 3}", "counters",
     "counters.X: expected a rank"),
    ("steps: [{from: 250, by: 10}]", "steps: [{from: 200, by: 10}]", "steps:",
     "auction.steps: the first step must start at the minimum bid 250"),
    ("target: 1500", "target: null", "match:", "match: give exactly one of target (points) and deals"),
    ("  keep_meld: trick", "  keep_meld: sometimes", "keep_meld", "scoring.keep_meld: expected one of 'trick'"),
    ("trump: {source: bid, eligible: any}", "trump: {source: bid, eligible: all}", "trump:",
     "trump.eligible: expected one of 'any', 'marriage', got 'all'"),
    ("exchange: 4", "exchange: 14", "exchange:", "exchange: cannot pass 14 cards from a hand of 12"),
    ("  pinochle:       {class: pinochles, cards: [QS, JD], points: [40, 300]}",
     "  pinochle:       {class: pinochles, cards: [QS, JD], points: [40, 300]}\n  big: {class: x, cards: [AS, AS, AS]," +
     " points: 1}", "  big:", "meld.big.cards: needs 3 copies of one card; the deck has 2"),
])
def test_validation_errors_name_file_line_and_field(old: str, new: str, needle: str, message: str) -> None:
    assert old in BASE
    text = BASE.replace(old, new, 1)
    msg = error_of(text)
    assert message in msg
    m = re.match(r"house\.yaml:(\d+):(\d+): ", msg)
    assert m, msg
    assert int(m.group(1)) == line_of(text, needle)


def test_missing_required_field() -> None:
    text = BASE.replace("hand_size: 12\n", "")
    assert "hand_size: missing (required)" in error_of(text)


def test_card_pattern_not_in_deck() -> None:
    text = text_of("double-deck").replace("  pinochle: ", "  dix: {class: family, cards: [\"9+\"], points: 1}\n  pinochle: ")
    msg = error_of(text)
    assert "meld.dix.cards[0]: 9+ is not in the deck" in msg
    assert msg.startswith(f"house.yaml:{line_of(text, '  dix:')}:")


def test_schema_version_checked_first() -> None:
    assert error_of("name: x\n").startswith("house.yaml:1:1: schema_version: missing (required, and checked first")
    msg = error_of("schema_version: 2\nfoo: bar\n")
    assert msg == "house.yaml:1:17: schema_version: unsupported version 2 (this program reads 1)"
    assert "schema_version: unsupported version 'one'" in error_of("schema_version: one\n")


def test_not_yaml_and_not_mapping() -> None:
    assert error_of("a: [1, 2\n").startswith("house.yaml:2:1: not valid YAML")
    assert error_of("- 1\n- 2\n") == "house.yaml:1:1: a ruleset is a mapping, got a list"
    assert "duplicate key 'players' (first at line" in error_of(BASE + "players: 4\n")


def test_unreadable_file(tmp_path: Path) -> None:
    with pytest.raises(RulesetError, match=r"missing-dir/x\.yaml: no such ruleset file"):
        load_ruleset(str(tmp_path / "missing-dir" / "x.yaml"))
    with pytest.raises(RulesetError, match="cannot read"):
        load_ruleset(str(tmp_path))


def test_bad_option_choice_is_reported_at_its_patch() -> None:
    text = text_of("single-deck-small").replace('"3": {exchange: 3}', '"3": {exchange: three}')
    msg = error_of(text)
    assert "exchange: expected an integer, got 'three'" in msg
    assert msg.startswith(f"house.yaml:{line_of(text, 'exchange: three')}:")


def test_bad_option_default() -> None:
    text = text_of("double-deck").replace('default: "500"', 'default: "600"')
    assert "options.target.default: default '600' is not one of its choices" in error_of(text)


def test_ranks_stay_text(edited_ruleset: EditRuleset) -> None:
    rules = edited_ruleset("single-deck", ('ranks: [A, "10", K, Q, J, "9"]', "ranks: [A, 10, K, Q, J, 9]")).rules()
    assert rules.rank_order == (Rank.A, Rank.T, Rank.K, Rank.Q, Rank.J, Rank.N)
    rules = edited_ruleset("single-deck", ('counters: {A: 10, "10": 10, K: 10}', "counters: {A: 10, 10: 10, K: 10}")
                           ).rules()
    assert rules.counters[Rank.T] == 10


def test_published_schema_is_current() -> None:
    assert (RULESETS / "ruleset.schema.json").read_text(encoding="utf-8") == ruleset_schema_json_text()


@pytest.mark.parametrize("name", NAMES)
def test_bundled_files_pass_the_checks_their_loading_skips(name: str) -> None:
    """A bundled ruleset loaded by name validates only the game chosen; read as any other file, every
    choice of every option is validated and the meld table's groups are sized: the same game."""
    trusted = load_ruleset(name)
    checked = load_ruleset_text(text_of(name), trusted.path)
    assert dataclasses.replace(checked, path=trusted.path) == trusted
    for option in trusted.options:
        for choice in option.choices:
            assert load_ruleset_text(text_of(name), "x.yaml", {option.name: choice}).chosen[option.name] == choice


@pytest.mark.parametrize("name", NAMES)
def test_schema_accepts_bundled_files(name: str) -> None:
    jsonschema.validate(yaml.safe_load(text_of(name)), ruleset_json_schema())


@pytest.mark.parametrize(("old", "new"), [
    ("  copies: 2\n", "  copeis: 2\n"),
    ("last_trick: 10", "last_trick: ten"),
    ("points: [150, 1500]}", "points: fifteen}"),
    ("  leader: bidder", "  leader: dealer"),
    ("duties: [follow, trump, beat]", "duties: [follow, trump, overtake]"),
    ("schema_version: 1", "schema_version: 0"),
    ("cards: [QS, JD]", "cards: [QS, JX]"),
    ("keep_meld: trick", "keep_meld: sometimes"),
])
def test_schema_and_loader_agree_on_rejections(old: str, new: str) -> None:
    text = BASE.replace(old, new, 1)
    with pytest.raises(RulesetError):
        load_ruleset_text(text, "x.yaml")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(text), ruleset_json_schema())


def test_schema_is_valid_json_schema() -> None:
    schema = json.loads(ruleset_schema_json_text())
    jsonschema.Draft202012Validator.check_schema(schema)


def test_equal_rulesets_hash_alike_and_share_one_meld_table() -> None:
    import pickle

    from pinochle_cli.meld import meld_table

    bundled = load_ruleset("single-deck")
    same = load_ruleset_text(text_of("single-deck"), bundled.path)
    assert same == bundled and hash(same) == hash(bundled) and same is not bundled
    assert meld_table(same) is meld_table(bundled)
    assert hash(load_ruleset("single-deck", {})) != hash(load_ruleset("double-deck"))
    copied = pickle.loads(pickle.dumps(bundled))
    assert copied == bundled and hash(copied) == hash(bundled)


def test_the_package_still_exports_what_the_old_module_did() -> None:
    import pinochle_cli.ruleset as package

    old = ["SCHEMA_VERSION", "Auction", "CardPattern", "Combination", "Duty", "Match", "OptionSpec", "Outcome",
           "PlayRules", "Ruleset", "Scoring", "bundled_names", "bundled_path", "json_schema", "load_ruleset",
           "parse_options", "split_key_value", "DEFAULT_RULESET"]
    assert set(old) <= set(package.__all__)
    assert all(hasattr(package, name) for name in package.__all__)
    assert package.json_schema() == package.ruleset_json_schema()
