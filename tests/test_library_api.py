"""The library's own API: its errors name parameters (the command line words them as options), and the
answers the commands print (best trump, the default seed, the options changed) come from it."""

from __future__ import annotations

import ast
import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from clihelp import run_cli, run_cli_json
from rulesethelp import EditRuleset

from pinochle_cli.cards import Hand, Suit, parse_cards
from pinochle_cli.cli.common import OPTION_OF, error_words, option_words, words
from pinochle_cli.errors import Argument, Message, PinochleError, RecordError, RulesetError, SimulationError
from pinochle_cli.estimate.checks import SAMPLES_LIMIT, default_seed
from pinochle_cli.estimate.double_dummy import check_exact_from
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.estimate.why import estimate_reasons
from pinochle_cli.meld import best_trump, meld_by_trump, nameable_trumps
from pinochle_cli.records import read_record
from pinochle_cli.records.edit import edit_deal, merged_entries
from pinochle_cli.records.entry import DealInput
from pinochle_cli.records.writer import new_record_text, write_new_record
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.ruleset.copy import copy_text
from pinochle_cli.workers import available_cores, workers_for

PACKAGE = Path(__file__).resolve().parent.parent / "pinochle_cli"
EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
HAND = "AH TH KH KH QH JH AS AD AC KS QD 9C"
FLAG = re.compile(r"--[a-zA-Z]")


# --------------------------------------------------------------------------- errors name parameters

def _estimate(**kw: object) -> Callable[[], object]:
    return lambda: estimate(load_ruleset("single-deck"), parse_cards(HAND), workers=1, **kw)  # type: ignore[arg-type]


def _clear_missing(tmp_path: Path) -> Callable[[], object]:
    path = tmp_path / "night.yaml"
    shutil.copy(EXAMPLES / "single-deck-night.yaml", path)
    return lambda: edit_deal(str(path), 2, lambda record, old: merged_entries(record, 2, old, DealInput(),
                                                                               ("auction",)))


def _existing(tmp_path: Path) -> Callable[[], object]:
    path = tmp_path / "night.yaml"
    path.write_text("", encoding="utf-8")
    text = new_record_text("single-deck", {}, teams=[("NS", ["Ann", "Cy"]), ("EW", ["Bob", "Di"])])
    return lambda: write_new_record(str(path), text)


CASES: list[tuple[str, Callable[[Path], Callable[[], object]], type[PinochleError], str, str]] = [
    ("samples", lambda _: _estimate(samples=0), SimulationError, "samples 0: give between 1 and", "--samples 0: "),
    ("samples", lambda _: _estimate(samples=SAMPLES_LIMIT + 1), SimulationError, f"samples {SAMPLES_LIMIT + 1}:",
     f"--samples {SAMPLES_LIMIT + 1}:"),
    ("precision", lambda _: _estimate(precision=0.9), SimulationError, "precision 0.9: a half-width",
     "--precision 0.9: "),
    ("confidence", lambda _: _estimate(confidence=2.0), SimulationError, "confidence 2.0: a probability",
     "--confidence 2.0: "),
    ("seed", lambda _: _estimate(seed=-1), SimulationError, "seed -1: seeds are non-negative integers",
     "--seed -1: seeds are non-negative integers"),
    ("exact_from", lambda _: lambda: check_exact_from(load_ruleset("double-deck"), 1), SimulationError,
     "exact_from 1: perfect play over all 20 tricks", "--exact-from 1: perfect play over all 20 tricks"),
    ("name", lambda _: lambda: copy_text(load_ruleset("single-deck"), "  ", "house.yaml"), RulesetError,
     'name is empty: give the copy a name of its own, e.g. name="Friday rules"',
     'Error: --name is empty: give the copy a name of its own, e.g. --name "Friday rules"'),
    ("name", lambda _: lambda: copy_text(load_ruleset("single-deck"), "Small", "house.yaml"), RulesetError,
     "'Small' names a bundled ruleset: give the copy a name of its own (e.g. name=\"Small at our table\")",
     "(e.g. --name \"Small at our table\")"),
    ("clear", _clear_missing, RecordError, "deal 2, auction: clear auction: deal 2 has no auction",
     "deal 2, auction: --clear auction: deal 2 has no auction"),
    ("force", _existing, RecordError, "night.yaml: already exists (use force=True to replace it)",
     "night.yaml: already exists (use --force to replace it)"),
]


@pytest.mark.parametrize(("parameter", "make", "kind", "library", "command_line"), CASES)
def test_library_errors_name_the_parameter_not_the_option(
        tmp_path: Path, parameter: str, make: Callable[[Path], Callable[[], object]], kind: type[PinochleError],
        library: str, command_line: str) -> None:
    """Each error carries ``parameter`` and says it in the library's words; the command line's wording
    (``error_words``) is the option's, as the commands print it."""
    with pytest.raises(kind) as caught:
        make(tmp_path)()
    assert caught.value.parameter == parameter
    message = str(caught.value)
    assert library in message
    assert not FLAG.search(message), message
    assert command_line.removeprefix("Error: ") in error_words(caught.value)


def test_the_workers_notice_names_the_parameter() -> None:
    cores = available_cores()
    count, notice = workers_for(cores + 5)
    assert (count, notice) == (cores, f"workers {cores + 5}: using {cores}, the cores available")
    assert notice is not None and words(notice) == f"--workers {cores + 5}: using {cores}, the cores available"


def test_option_words_word_the_arguments_alone() -> None:
    assert option_words(Argument("name")) == "--name"
    assert option_words(Argument("samples", 0)) == "--samples 0"
    assert option_words(Argument("force", True, assigned=True)) == "--force"
    assert option_words(Argument("name", '"X"', assigned=True)) == '--name "X"'
    assert option_words(Argument("nosuch", "X")) == "nosuch X"  # no option of that name
    message = Message(Argument("name"), " is empty: samples 0 and name= stay as they are")
    assert words(message) == "--name is empty: samples 0 and name= stay as they are"
    assert words("samples 0: plain text is not read") == "samples 0: plain text is not read"


def _raised_texts(tree: ast.AST) -> list[tuple[int, str]]:
    """Every string (and f-string part) in the arguments of every ``raise``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Raise) and node.exc is not None:
            found += [(part.lineno, part.value) for part in ast.walk(node.exc)
                      if isinstance(part, ast.Constant) and isinstance(part.value, str)]
    return found


def test_no_library_error_names_a_command_line_option() -> None:
    """Outside ``cli/`` (and the documentation pages) no message raised says ``--option``."""
    flagged = [f"{path.relative_to(PACKAGE)}:{line}: {text}" for path in sorted(PACKAGE.rglob("*.py"))
               if path.parent.name not in ("cli", "docs")
               for line, text in _raised_texts(ast.parse(path.read_text(encoding="utf-8")))
               if FLAG.search(text)]
    assert flagged == []


def test_every_parameter_an_error_names_has_its_option() -> None:
    assert {parameter for parameter, *_ in CASES} | {"workers"} <= set(OPTION_OF)


# --------------------------------------------------------------------------- the default seed

def test_estimate_without_a_seed_is_reproducible_and_the_command_agrees() -> None:
    """``seed=None``: derived from the question (hand, game, options, trump), as ``pinochle estimate``
    without --seed, so the library and the command give the same answer."""
    rules = load_ruleset("single-deck")
    hand = parse_cards(HAND)
    one = estimate(rules, hand, trump=Suit.H, samples=30, workers=1)
    two = estimate(rules, list(reversed(hand)), trump=Suit.H, samples=30, workers=1)
    assert one.to_json() == two.to_json()
    assert one.seed == default_seed(rules, Hand(hand), Suit.H)
    assert default_seed(rules, Hand(hand), None) != one.seed
    assert default_seed(load_ruleset("single-deck", {"exchange": "3"}), Hand(hand), Suit.H) != one.seed
    command = run_cli_json("estimate", HAND, "-r", "single-deck", "-t", "H", "--samples", "30", "--workers", "1")
    # the command adds the reasons (``estimate.why``) to the library's document
    assert command.pop("reasons") == [r.to_json() for r in estimate_reasons(one)]
    assert command == one.to_json()


# --------------------------------------------------------------------------- best trump, nameable suits

@pytest.mark.parametrize(("name", "hand"), [
    ("single-deck", HAND),
    ("single-deck", "AS TS KS QS JS 9S KH QH KD QD KC QC"),
    ("double-deck", "AH AH TH KH KH QH QH JH JH AS AS AD KD QD AC TC KC QC JS JS"),
    ("two-handed", "AD TD KD QD JD 9S 9H QS JD KC QC 9C"),
])
def test_best_trump_is_the_largest_meld_the_first_suit_of_a_tie(name: str, hand: str) -> None:
    rules = load_ruleset(name)
    results = meld_by_trump(rules, parse_cards(hand))
    best = best_trump(rules, parse_cards(hand))
    assert results[best].total == max(r.total for r in results.values())
    assert all(results[s].total < results[best].total for s in rules.suits[:rules.suits.index(best)])


def test_best_trump_of_a_hand_without_meld_is_the_first_suit() -> None:
    rules = load_ruleset("single-deck")
    assert best_trump(rules, parse_cards("9S 9S JS 9H JH 9D JD")) == rules.suits[0]


def test_nameable_trumps_follow_the_ruleset() -> None:
    double = load_ruleset("double-deck")
    assert nameable_trumps(double, parse_cards("KH QH KD QD JS")) == [Suit.H, Suit.D]
    assert nameable_trumps(load_ruleset("single-deck"), parse_cards("9S")) == list(load_ruleset("single-deck").suits)
    two = load_ruleset("two-handed")  # trump turned up: any suit may be trump
    assert nameable_trumps(two, parse_cards("9S")) == list(two.suits)


def test_a_redeal_needs_a_whole_dealt_hand() -> None:
    rules = load_ruleset("single-deck")  # five nines and no ace
    assert rules.may_redeal(Hand(parse_cards("9S 9S 9H 9D 9C KS KS QS QH JD JD JC")))
    assert not rules.may_redeal(Hand(parse_cards("9S 9S 9H 9D 9C")))
    assert not load_ruleset("two-handed").may_redeal(Hand(parse_cards("9S 9S 9H 9D 9C KS KS QS QH JD JD JC")))


# --------------------------------------------------------------------------- the options changed

def test_score_names_the_options_changed_as_the_ruleset_does(tmp_path: Path, edited_ruleset: EditRuleset) -> None:
    """A house ruleset whose default is spelled unlike its choice (``Always``/``always``): the option
    at its default is not shown as changed, by ``Ruleset.changed_options`` nor by ``pinochle score``."""
    house = edited_ruleset("single-deck", ("    default: always\n", "    default: Always\n"))
    assert house.rules().changed_options == {}
    assert house.rules({"target": "1000"}).changed_options == {"target": "1000"}
    record = tmp_path / "night.yaml"
    record.write_text(f"ruleset: {house.path.name}\noptions: {{target: 1000}}\n"
                      "teams: {NS: [Ann, Cy], EW: [Bob, Di]}\ndeals: []\n", encoding="utf-8")
    assert read_record(str(record)).rules.changed_options == {"target": "1000"}
    code, out, err = run_cli("score", str(record))
    assert (code, err) == (0, "")
    assert out.splitlines()[0].startswith(f"{house.rules().name} (target=1000), game to 1000: ")
