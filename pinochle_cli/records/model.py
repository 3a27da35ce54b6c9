"""A checked match record: each deal's facts, score and the standing after it, and its JSON."""

from __future__ import annotations

import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from ..cards import Card, Hand, Suit
from ..errors import RecordError
from ..ruleset import Ruleset
from ..scoring import DealFacts, DealScore, Standing
from .table import Table

__all__ = ["DealRecord", "MatchRecord", "match_ending", "problem_json"]


@dataclass(frozen=True)
class DealRecord:
    """One checked deal of a record: what was given, what was computed from it, its score and the standing after it."""

    number: int
    line: int
    dealer: str | None
    bidder: str | None
    bid: int | None
    trump: Suit | None
    auction: tuple[str, ...] | None
    meld: tuple[int, ...]
    # None: the deal ended before play
    counters: tuple[int, ...] | None
    tricks: tuple[int | None, ...] | None
    conceded: bool
    no_trump: bool
    redeal: bool
    hands: dict[str, Hand] | None
    # a play was recorded and replayed
    played: bool
    facts: DealFacts
    score: DealScore
    standing: Standing
    # the recorded tricks, each leader first
    play: tuple[tuple[Card, ...], ...] | None = None
    # seat that led the first trick (with play)
    leader: int | None = None
    # top first
    stock: tuple[Card, ...] | None = None
    # games with a widow: the cards dealt aside, and those the bidder laid away (None: not recorded)
    widow: tuple[Card, ...] | None = None
    buried: tuple[Card, ...] | None = None

    @property
    def bidder_side(self) -> int | None:
        return self.facts.bidder_side


@dataclass(frozen=True)
class MatchRecord:
    """A checked record: its ruleset, table and deals, the standing, and (read forgivingly) the problems found."""

    source: str
    rules: Ruleset
    table: Table
    deals: tuple[DealRecord, ...]
    standing: Standing
    ruleset_spec: str = ""
    options: dict[str, str] = field(default_factory=dict)
    # the forgiving reader's findings, in file order
    problems: tuple[RecordError, ...] = ()
    # deals not scored because of a problem
    skipped: tuple[int, ...] = ()
    # the record's own name for the match (its ``title``), None when it has none
    title: str | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def sides(self) -> tuple[str, ...]:
        return self.table.sides

    @property
    def name(self) -> str:
        """What the match is called: its title, else the record's file name."""
        return self.title or os.path.basename(self.source)

    @property
    def ending(self) -> str | None:
        """Why the match ended (``match_ending``), None while it goes on."""
        return match_ending(self)

    @property
    def winner(self) -> str | None:
        return None if self.standing.winner is None else self.sides[self.standing.winner]

    def to_json(self) -> dict[str, Any]:
        """The ``score --json`` document (docs/json.md), with a few extra keys per deal."""
        sides = self.sides

        def by_side(values: Sequence[int] | None) -> dict[str, int] | None:
            return None if values is None else dict(zip(sides, values, strict=True))

        deals = []
        for d in self.deals:
            deals.append({
                "number": d.number,
                "dealer": d.dealer,
                "bidder": d.bidder,
                "bid": d.bid,
                "trump": d.trump.letter if d.trump is not None else None,
                "meld": by_side(d.meld),
                "counters": by_side(d.counters),
                "kept_meld": dict(zip(sides, d.score.kept, strict=True)),
                "result": d.score.result,
                "points": by_side(d.score.points),
                "totals": by_side(d.standing.totals),
                "status": d.standing.status,
                # a game with a widow: its cards and the bury, as recorded or worked out (null: not known)
                **({"widow": _cards(d.widow), "buried": _cards(d.buried)} if self.rules.widow_size else {}),
            })
        return {
            "ruleset": self.rules.name,
            "options": dict(self.rules.chosen),
            "sides": list(sides),
            "players": {s: list(m) for s, m in zip(sides, self.table.members, strict=True)},
            "deals": deals,
            "totals": by_side(self.standing.totals),
            "winner": self.winner,
            "status": self.standing.status,
            "ending": self.ending,
            "title": self.title,
            "target": self.rules.match.target,
            "deals_to_play": self.rules.match.deals,
            "problems": [problem_json(p) for p in self.problems],
        }


def _deals(n: int) -> str:
    return f"{n} deal{'s' if n != 1 else ''}"


def match_ending(record: MatchRecord) -> str | None:
    """Why the match ended, in the words of its ruleset's match rules (``match``: a target, a number of deals, who
    wins when several reach the target on one deal, an exact tie), e.g. ``reached 1,500 first`` or ``the bidder
    went out``; None while it goes on."""
    st, m = record.standing, record.rules.match
    if st.status == "in-progress" or not record.deals:
        return None
    if m.target is None:
        return f"{'the higher total' if st.status == 'won' else 'a tie'} after {_deals(m.deals or st.deals)}"
    reached = [i for i, total in enumerate(st.totals) if total >= m.target]
    target = f"{m.target:,}"
    if st.status == "draw":
        return f"{' and '.join(record.sides[i] for i in reached)} reached {target} on the same deal with the same total"
    if len(reached) == 1:
        return f"reached {target} first"
    others = [record.sides[i] for i in reached if i != st.winner]
    also = f"{' and '.join(others)} also reached {target} on that deal"
    if m.both_reach == "bidders" and st.winner == record.deals[-1].bidder_side:
        who = "the bidding side" if record.table.teams else "the bidder"
        return f"{who} went out ({also})"
    return f"the {'higher' if len(reached) == 2 else 'highest'} total ({also})"


def _cards(cards: Sequence[Card] | None) -> list[str] | None:
    return None if cards is None else [c.ascii() for c in cards]


def problem_json(problem: RecordError) -> dict[str, Any]:
    """One problem for ``score --json``: where (deal, trick, line, field) and what."""
    return {"deal": problem.deal, "trick": problem.trick, "line": problem.line, "field": problem.field,
            "message": problem.detail}
