"""The record format's JSON Schema: generated from the layout the reader checks with."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml
from clihelp import run_cli

from pinochle_cli.errors import RecordError
from pinochle_cli.records import parse_record, record_json_schema, record_schema_json_text

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
HEAD = "ruleset: single-deck\nteams:\n  North-South: [Ann, Cy]\n  East-West: [Bob, Di]\ndeals:\n"
GOOD = "  - {dealer: Ann, bidder: Bob, bid: 250, trump: H, meld: {North-South: 60}, " \
       "counters: {North-South: 80, East-West: 170}}\n"


def test_command_prints_the_generated_schema() -> None:
    assert run_cli("record", "schema") == (0, record_schema_json_text(), "")


def test_schema_is_valid_json_schema() -> None:
    schema = json.loads(record_schema_json_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["title"] == "pinochle_cli match record" and schema["required"] == ["ruleset"]


def test_examples_exist() -> None:
    assert len(EXAMPLES) >= 4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_schema_accepts_the_examples(path: Path) -> None:
    jsonschema.validate(yaml.safe_load(path.read_text(encoding="utf-8")), record_json_schema())


def test_schema_accepts_the_documented_record() -> None:
    text = (ROOT / "docs" / "records.md").read_text(encoding="utf-8")
    block = text.split("```yaml\n", 1)[1].split("```", 1)[0]
    jsonschema.validate(yaml.safe_load(block), record_json_schema())


# (what is changed, to what): both the reader and the schema refuse it
BROKEN = [
    ("ruleset:", "score: 3\nruleset:"),  # an unknown key
    ("bid: 250", "bid: [250]"),
    ("dealer: Ann", "dealer: [Ann]"),
    ("trump: H", "trump: {H: 1}"),
    ("meld: {North-South: 60}", "meld: [60]"),
    ("meld: {North-South: 60}", "meld: {North-South: -60}"),
    ("counters: {North-South: 80, East-West: 170}", "counters: [80, 170]"),
    ("bid: 250", "bid: 250, redeal: maybe"),
    ("ruleset: single-deck", "ruleset: [single-deck]"),
    ("[Ann, Cy]", "{Ann: Cy}"),
]


def test_the_good_record_passes_both() -> None:
    text = HEAD + GOOD
    jsonschema.validate(yaml.safe_load(text), record_json_schema())
    assert parse_record(text, "r.yaml").deals[0].score.result == "set"  # 170 counters, no meld: short of 250


@pytest.mark.parametrize(("old", "new"), BROKEN)
def test_schema_and_reader_agree_on_refusals(old: str, new: str) -> None:
    text = (HEAD + GOOD).replace(old, new, 1)
    assert text != HEAD + GOOD
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(yaml.safe_load(text), record_json_schema())
    with pytest.raises(RecordError):
        parse_record(text, "r.yaml")
