"""Reading a record: the ruleset and table it names, then every deal in order, scored.

``strict=True`` raises the first problem; ``strict=False`` collects every problem it can find
in ``MatchRecord.problems``, skips a deal it cannot score (``MatchRecord.skipped``) and goes
on with the rest. Only what leaves nothing to check is raised in both modes: text that is not
YAML, and a ruleset, options or table that cannot be read.
"""

from __future__ import annotations

import os

from ..errors import PinochleError, RecordError, RulesetError, YamlError, relocated
from ..ruleset import Ruleset, load_ruleset
from ..scoring import Standing, match_standing
from ..yamlsource import Node, load_node, load_text
from .dealcheck import DealReader, Problems
from .layout import RECORD, field_of, located, shaped
from .model import DealRecord, MatchRecord
from .table import Table, read_table

__all__ = ["check_record", "parse_record", "read_record"]


def _present(node: Node | None) -> Node | None:
    """The node, or None where it is absent or written as null."""
    return None if node is None or (node.kind == "scalar" and node.value is None) else node


def _options(root: Node) -> dict[str, str]:
    node = _present(root.get("options"))
    if node is None:
        return {}
    return dict(shaped(field_of(RECORD, "options"), node, "options"))


def _load_rules(root: Node, base: str | None) -> tuple[Ruleset, str, dict[str, str]]:
    """The ruleset the record names, with its options: (rules, the name or path as written, options)."""
    rs = root.get("ruleset")
    if rs is None:
        raise located(root, "missing ruleset (a bundled name such as single-deck, or a path)", field="ruleset")
    spec: str = shaped(field_of(RECORD, "ruleset"), rs, "ruleset")
    options = _options(root)
    try:
        rules = load_ruleset(spec, options, base=base)
    except RulesetError as exc:
        raise located(rs, str(exc), field="ruleset") from None
    # OptionError
    except PinochleError as exc:
        raise located(root.get("options") or rs, str(exc), field="options") from None
    return rules, spec, options


def parse_record(text: str, source: str = "<record>", base: str | None = None, *,
                 strict: bool = True) -> MatchRecord:
    """Read and check a record from text; ``base``: the folder a ruleset path is relative to.

    Raises the first problem as a ``RecordError``; ``strict=False``: collect the problems in ``.problems``
    instead (text that is not YAML, or a ruleset or table that cannot be read, is raised either way).
    """
    try:
        root = load_text(text, source)
    except YamlError as exc:
        raise relocated(exc) from None
    return check_record(root, base, strict=strict)


def read_record(path: str, *, strict: bool = True) -> MatchRecord:
    """Read and check a record file; ``RecordError`` as ``parse_record`` (``strict=False``: see there)."""
    try:
        root = load_node(path)
    except YamlError as exc:
        raise relocated(exc) from None
    return check_record(root, os.path.dirname(os.path.abspath(path)), strict=strict)


def _deal_nodes(root: Node) -> list[Node]:
    node = _present(root.get("deals"))
    if node is None:
        return []
    shaped(field_of(RECORD, "deals"), node, "deals", kind_only=True)
    return node.items


def check_record(root: Node, base: str | None = None, *, strict: bool = True) -> MatchRecord:
    """Check a parsed record and score it (``strict=False``: see ``parse_record``)."""
    problems = Problems(strict)
    shaped(RECORD, root, "", kind_only=True)
    unknown = [located(key_node, message) for _, key_node, message in RECORD.unknown(root)]
    if strict and unknown:
        raise unknown[0]
    rules, spec, options = _load_rules(root, base)
    table = read_table(root, rules)
    items = _deal_nodes(root)
    for problem in unknown:
        problems.report(problem)
    match = _Match(rules, table)
    for number, node in enumerate(items, start=1):
        match.add(DealReader(rules, table, node, number, problems), problems)
    return MatchRecord(root.source, rules, table, tuple(match.deals), match.standing, spec, options,
                       tuple(problems.found), tuple(match.skipped), _title(root))


def _title(root: Node) -> str | None:
    """The record's title as one line of text (any YAML scalar; None when absent, empty or not a scalar)."""
    node = _present(root.get("title"))
    if node is None or node.kind != "scalar":
        return None
    text = " ".join(node.raw.split())
    return text or None


class _Match:
    """The deals scored so far and the standing after them."""

    def __init__(self, rules: Ruleset, table: Table) -> None:
        self.rules, self.table = rules, table
        self.deals: list[DealRecord] = []
        self.skipped: list[int] = []
        self.totals = [0] * len(table.sides)
        self.standing = Standing(tuple(self.totals), 0, "in-progress", None)
        # the deal that decided the match
        self.decided_by: int | None = None

    def add(self, reader: DealReader, problems: Problems) -> None:
        """Score one deal, or report why it cannot be (and skip it when forgiving)."""
        number, node = reader.number, reader.node
        if self.standing.status != "in-progress":
            problems.report(located(node, f"the match was already decided after deal {self.decided_by}: "
                                    f"{self.verdict()}", deal=number))
            self.skipped.append(number)
            return
        try:
            deal, facts, score = reader.read()
        except PinochleError as exc:
            if problems.strict:
                raise
            # not expected: a check elsewhere refused the deal
            if not isinstance(exc, RecordError):
                exc = located(node, str(exc), deal=number)
            problems.report(exc)
            self.skipped.append(number)
            return
        self.totals = [t + p for t, p in zip(self.totals, score.points, strict=True)]
        counted = self.standing.deals + (0 if score.result == "redeal" else 1)
        self.standing = match_standing(self.rules, self.totals, counted, facts.bidder_side)
        if self.standing.status != "in-progress":
            self.decided_by = number
        self.deals.append(deal.record(facts, score, self.standing))

    def verdict(self) -> str:
        standing = self.standing
        scores = " to ".join(str(t) for t in sorted(standing.totals, reverse=True))
        if standing.winner is not None:
            return f"{self.table.sides[standing.winner]} won {scores}"
        if standing.status == "draw":
            return f"a draw at {standing.totals[0]}"
        return "in progress"
