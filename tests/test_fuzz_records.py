"""Mutated match records are scored or refused with a ``PinochleError``, never a traceback.

The example records are mutated line by line (delete, duplicate, re-indent, rename a key, a value
replaced by garbage of another type, truncation) and read with ``parse_record`` both strictly
and forgivingly (``strict=False`` collects problems instead of raising the first).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pinochle_cli.errors import PinochleError, RecordError
from pinochle_cli.records import parse_record, read_record

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "examples").glob("*.yaml"))
TEXTS = {p.name: p.read_text(encoding="utf-8") for p in EXAMPLES}
BASE = str(ROOT / "examples")
SOURCE = "mutant-record.yaml"

GARBAGE = (
    "0", "1", "-1", "-250", "5", "250", "251", "999999999999999999999999", "'9'", "'10'", "9", "10", "null", "~",
    "true", "false", "yes", "[]", "{}", "[1, 2]", "[pass, pass]", "{a: 1}", "{Ann: 1}", "foo", "''", "Ann", "Bob",
    "Pat", "North-South", "NS", "AS", "AS AS AS", "10H", "ZZ", "S", "spades", "X", "1.5", ".nan", "-.inf",
    "2001-01-01", "!!binary aGk=", "&anchor x", "*anchor", "pass", "two-handed", "double-deck", "no-such-game",
    "../rulesets/two-handed.yaml", "/", "[AS, KS, QS]", "[[AS]]", "{Ann: AS KS}", "'{'", "♥", "-0",
)
_TOKEN = re.compile(r"[^\s\[\]{},:#\"']+")
_KEY = re.compile(r"^(\s*-?\s*)([^\s:#][^:#]*?):(\s|$)")


@st.composite
def mutants(draw: st.DrawFn) -> str:
    text = TEXTS[draw(st.sampled_from(sorted(TEXTS)))]
    for _ in range(draw(st.integers(1, 3))):
        lines = text.split("\n")
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(("delete", "duplicate", "swap", "replace", "replace", "replace", "replace",
                                     "rename", "indent", "dedent", "truncate")))
        if kind == "delete":
            del lines[i]
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        elif kind == "swap":
            j = draw(st.integers(0, len(lines) - 1))
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "rename":
            m = _KEY.match(lines[i])
            if m:
                new = draw(st.sampled_from(("x", "9", "null", "true", "Ann", "'", "a b")))
                lines[i] = m.group(1) + m.group(2) + new + lines[i][m.end(2):]
        elif kind == "indent":
            lines[i] = "  " + lines[i]
        elif kind == "dedent":
            lines[i] = lines[i][2:] if lines[i].startswith("  ") else lines[i].lstrip()
        elif kind == "truncate":
            lines = text[:draw(st.integers(0, len(text)))].split("\n")
        else:
            tokens = list(_TOKEN.finditer(lines[i]))
            if tokens:
                m = tokens[draw(st.integers(0, len(tokens) - 1))]
                lines[i] = lines[i][:m.start()] + draw(st.sampled_from(GARBAGE)) + lines[i][m.end():]
        text = "\n".join(lines)
    return text


def _one_line(exc: PinochleError) -> None:
    message = str(exc)
    assert message.strip(), "an empty message"
    assert "Traceback" not in message


@pytest.mark.parametrize("name", sorted(TEXTS))
def test_examples_score(name: str) -> None:
    record = parse_record(TEXTS[name], SOURCE, BASE)
    assert not record.problems
    assert read_record(str(ROOT / "examples" / name)).to_json() == record.to_json()


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutants(), st.booleans())
def test_mutated_record_is_scored_or_refused(text: str, strict: bool) -> None:
    try:
        record = parse_record(text, SOURCE, BASE, strict=strict)
    except PinochleError as exc:
        _one_line(exc)
        return
    record.to_json()
    for problem in record.problems:
        assert isinstance(problem, RecordError)
        _one_line(problem)
