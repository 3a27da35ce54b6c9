"""Match records (the format: docs/records.md): read, check that every deal could be true, and score.

``read_record(path)`` reads a record file; ``parse_record(text, source, base)`` reads text.
Both check every field of every deal against the ruleset and the deals before it. By default
(``strict=True``) the first problem is raised as a ``RecordError`` naming the file, line, deal
and field (``FILE:LINE: deal 4, counters: add up to 240, expected 250``). With
``strict=False`` the reader is forgiving: it collects every problem it can find in
``MatchRecord.problems`` (each a ``RecordError``), skips a deal it cannot score (its number is
in ``MatchRecord.skipped``) and goes on with the rest, so a hand-written sheet shows all its
mistakes at once. Only what leaves nothing to check is raised in both modes: text that is not
YAML, and a ruleset, options or table (teams, players, seating) that cannot be read. The
result, a ``MatchRecord``, carries each scored deal's facts, score and the standing after it.

Names in a record are matched exactly (any case); ``Table.resolve`` also accepts unambiguous
abbreviations and initials (``NS`` for North-South) for the command line.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .cards import Card, Hand, Suit, format_cards, parse_cards, parse_suit
from .deal import IllegalPlayError, replay_deal
from .errors import CardError, PinochleError, RecordError, RulesetError
from .meld import MeldResult, meld
from .ruleset import Ruleset, load_ruleset
from .scoring import DealFacts, DealScore, Standing, meld_only_from_number, not_on_board, score_deal
from .scoring import match_standing as _match_standing
from .yamlsource import Node, YamlError, load_node, load_text

__all__ = [
    "DEAL_KEYS", "TOP_KEYS", "DealRecord", "MatchRecord", "Table", "check_record", "parse_record", "problem_json",
    "read_record", "run_auction",
]

TOP_KEYS = ("ruleset", "options", "teams", "players", "seating", "deals", "title", "date", "notes")
DEAL_KEYS = ("dealer", "bidder", "bid", "auction", "trump", "meld", "counters", "tricks", "hands", "stock",
             "play", "conceded", "no-trump", "redeal", "notes")
PASS = "pass"


# --------------------------------------------------------------------------- the table

def _initials(name: str) -> str:
    return "".join(w[0] for w in re.split(r"[^0-9A-Za-z]+", name) if w).lower()


@dataclass(frozen=True)
class Table:
    """Who plays: the sides (teams, or players in games without partnerships) and the seats."""

    rules: Ruleset
    sides: tuple[str, ...]
    members: tuple[tuple[str, ...], ...]  # players of each side
    seating: tuple[str, ...]  # clockwise from seat 0
    teams: bool  # sides are teams (else each side is one player)

    @property
    def players(self) -> tuple[str, ...]:
        return self.seating

    def seat_of(self, player: str) -> int:
        return self.seating.index(player)

    def side_of(self, player: str) -> int:
        for i, members in enumerate(self.members):
            if player in members:
                return i
        raise KeyError(player)

    def side_of_seat(self, seat: int) -> int:
        return self.side_of(self.seating[seat])

    def side_of_partnership(self, index: int) -> int:
        """The side sitting at the ruleset's partnership ``index``."""
        return self.side_of_seat(self.rules.partnerships[index][0])

    def player(self, text: str) -> str | None:
        """The player named ``text`` (any case), or None."""
        return {p.lower(): p for p in self.seating}.get(text.strip().lower())

    def side(self, text: str) -> int | None:
        """The side named ``text`` (any case), or None."""
        return {s.lower(): i for i, s in enumerate(self.sides)}.get(text.strip().lower())

    def resolve(self, text: str, *, abbreviations: bool = False) -> tuple[str, int, str | None]:
        """A side or player name → (``side``|``player``, side index, player or None).

        With ``abbreviations``: also a unique prefix or initials (``NS`` for North-South).
        Raises ``KeyError`` with a message when nothing or more than one name fits.
        """
        candidates: list[tuple[str, int, str | None]]
        if self.teams:
            candidates = [("side", i, None) for i in range(len(self.sides))]
            candidates += [("player", self.side_of(p), p) for p in self.seating]
        else:
            candidates = [("player", i, name) for i, name in enumerate(self.sides)]

        def label(c: tuple[str, int, str | None]) -> str:
            return c[2] if c[2] is not None else self.sides[c[1]]

        key = text.strip().lower()
        exact = [c for c in candidates if label(c).lower() == key]
        if exact:
            return exact[0]
        if abbreviations and key:
            squeezed = re.sub(r"[^0-9a-z]", "", key)
            found = [c for c in candidates if _initials(label(c)) == squeezed]
            if not found:
                found = [c for c in candidates if label(c).lower().startswith(key)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise KeyError(f"{text!r} is ambiguous: {', '.join(label(c) for c in found)}")
        names = ", ".join(label(c) for c in candidates)
        raise KeyError(f"{text!r} is not at the table ({names})")

    def describe(self) -> str:
        if self.teams:
            return " v ".join(f"{s} ({', '.join(m)})" for s, m in zip(self.sides, self.members, strict=True))
        return " v ".join(self.sides)


# --------------------------------------------------------------------------- the model

@dataclass(frozen=True)
class DealRecord:
    number: int
    line: int
    dealer: str | None
    bidder: str | None
    bid: int | None
    trump: Suit | None
    auction: tuple[str, ...] | None
    meld: tuple[int, ...]
    counters: tuple[int, ...] | None  # None: the deal ended before play
    tricks: tuple[int | None, ...] | None
    conceded: bool
    no_trump: bool
    redeal: bool
    hands: dict[str, Hand] | None
    played: bool  # a play was recorded and replayed
    facts: DealFacts
    score: DealScore
    standing: Standing

    @property
    def bidder_side(self) -> int | None:
        return self.facts.bidder_side


@dataclass(frozen=True)
class MatchRecord:
    source: str
    rules: Ruleset
    table: Table
    deals: tuple[DealRecord, ...]
    standing: Standing
    ruleset_spec: str = ""
    options: dict[str, str] = field(default_factory=dict)
    problems: tuple[RecordError, ...] = ()  # the forgiving reader's findings, in file order
    skipped: tuple[int, ...] = ()  # deals not scored because of a problem

    @property
    def ok(self) -> bool:
        return not self.problems

    @property
    def sides(self) -> tuple[str, ...]:
        return self.table.sides

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
            "target": self.rules.match.target,
            "deals_to_play": self.rules.match.deals,
            "problems": [problem_json(p) for p in self.problems],
        }


def problem_json(problem: RecordError) -> dict[str, Any]:
    """One problem for ``score --json``: where (deal, trick, line, field) and what."""
    return {"deal": problem.deal, "trick": problem.trick, "line": problem.line, "field": problem.field,
            "message": problem.detail}


# --------------------------------------------------------------------------- helpers

def _err(node: Node | None, message: str, *, deal: int | None = None, field: str | None = None,
         trick: int | None = None, source: str | None = None) -> RecordError:
    if node is None:
        return RecordError(message, source=source, deal=deal, field=field, trick=trick)
    return RecordError(message, source=node.source, line=node.line, deal=deal, field=field, trick=trick)


def _is_int(node: Node) -> bool:
    return node.kind == "scalar" and isinstance(node.value, int) and not isinstance(node.value, bool)


def _name(node: Node, field: str, deal: int | None = None) -> str:
    if node.kind != "scalar" or node.value is None or not node.raw.strip():
        raise _err(node, f"expected a name, got {node.describe()}", deal=deal, field=field)
    return node.raw.strip()


def _cards(node: Node, field: str, deal: int | None, rules: Ruleset) -> Hand:
    try:
        if node.kind == "seq":
            tokens = [n.raw for n in node.items if n.kind == "scalar"]
            if len(tokens) != len(node.items):
                raise _err(node, "expected cards, got a list with a mapping or list in it", deal=deal, field=field)
            return rules.deck.check(parse_cards(tokens))
        if node.kind == "scalar" and isinstance(node.value, str):
            return rules.deck.check(parse_cards(node.raw))
    except CardError as exc:
        raise _err(node, str(exc), deal=deal, field=field) from None
    raise _err(node, f"expected cards (e.g. \"AH 10H KH\"), got {node.describe()}", deal=deal, field=field)


def _plays(node: Node, field: str, deal: int, trick: int, rules: Ruleset) -> list[Card]:
    """One trick's cards in the order played (no pack check per trick beyond the cards being in it)."""
    try:
        if node.kind == "seq" and all(n.kind == "scalar" for n in node.items):
            cards = parse_cards([n.raw for n in node.items])
        elif node.kind == "scalar" and isinstance(node.value, str):
            cards = parse_cards(node.raw)
        else:
            raise _err(node, f"expected the trick's cards, got {node.describe()}", deal=deal, trick=trick)
    except CardError as exc:
        raise _err(node, str(exc), deal=deal, trick=trick) from None
    for card in cards:
        if card not in rules.deck:
            raise _err(node, f"{card} ({card.ascii()}) is not in {rules.deck.name}", deal=deal, trick=trick)
    return cards


def _counter_step(rules: Ruleset) -> int:
    values = [v for v in rules.counters.values() if v] + ([rules.last_trick] if rules.last_trick else [])
    return math.gcd(*values) if values else 1


_COUNTER_TOTALS: dict[tuple[tuple[int, ...], int], frozenset[int]] = {}


def _counter_totals(rules: Ruleset) -> frozenset[int]:
    """Every counter total one side can take: a sum of captured cards' values, with or without the last trick."""
    values = tuple(sorted(rules.counter_value(c) for c in rules.deck.cards() if rules.counter_value(c)))
    key = (values, rules.last_trick)
    if key not in _COUNTER_TOTALS:
        sums = {0}
        for v in values:
            sums |= {s + v for s in sums}
        _COUNTER_TOTALS[key] = frozenset(sums | {s + rules.last_trick for s in sums})
    return _COUNTER_TOTALS[key]


def _meld_step(rules: Ruleset) -> int:
    """The step of every possible meld total: the gcd of the meld table's values (10 in single-deck)."""
    values = [c.value(k) for c in rules.meld for k in range(1, rules.deck.copies + 1)]
    return math.gcd(*values) if values else 1


def _join(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


# --------------------------------------------------------------------------- the auction

def run_auction(rules: Ruleset, dealer_seat: int, calls: Sequence[str],
                names: Sequence[str] | None = None) -> tuple[int, int]:
    """Check an auction's calls (numbers as text and ``pass``) → (bidder seat, bid).

    Calls start at the dealer's left and go clockwise, skipping players who passed (a pass is
    final). Raises ``ValueError`` with a message naming the call at fault.
    """
    auction = rules.auction
    if auction is None:
        raise ValueError("this ruleset has no auction")
    n = rules.players
    who = list(names) if names is not None else [f"seat {s}" for s in range(n)]
    passed: set[int] = set()
    high: int | None = None
    high_seat: int | None = None
    seat = dealer_seat
    done: tuple[int, int] | None = None

    def next_seat(after: int) -> int:
        s = (after + 1) % n
        while s in passed:
            s = (s + 1) % n
        return s

    for i, call in enumerate(calls, start=1):
        if done is not None:
            raise ValueError(f"call {i} ({call}): the auction was over after call {i - 1} "
                             f"({who[done[0]]} at {done[1]})")
        seat = next_seat(seat)
        others_passed = len(passed) == n - 1 and seat not in passed
        stuck = auction.dealer_stuck and high is None and others_passed and seat == dealer_seat
        text = call.strip().lower()
        if text == PASS:
            if stuck:
                done = (seat, auction.minimum)
                continue
            passed.add(seat)
            if len(passed) == n:
                raise ValueError(f"call {i}: everyone passed, and this ruleset does not make the dealer take "
                                 "the minimum (record the deal as redeal: true)")
        else:
            if not re.fullmatch(r"\d+", text):
                raise ValueError(f"call {i} ({who[seat]}): {call!r} is neither a bid nor pass")
            bid = int(text)
            if bid < auction.minimum:
                raise ValueError(f"call {i} ({who[seat]}): {bid} is below the minimum bid {auction.minimum}")
            if not auction.is_valid_bid(bid):
                raise ValueError(f"call {i} ({who[seat]}): {bid} is off the steps ({auction.describe_steps()}; "
                                 f"next valid bid {auction.next_bid(bid)})")
            if stuck and bid != auction.minimum:
                raise ValueError(f"call {i} ({who[seat]}): after the others passed the dealer is stuck at "
                                 f"{auction.minimum}, got {bid}")
            if high is not None and bid <= high:
                raise ValueError(f"call {i} ({who[seat]}): {bid} does not raise {who[high_seat or 0]}'s {high} "
                                 f"(at least {auction.next_bid(high)})")
            high, high_seat = bid, seat
        remaining = [s for s in range(n) if s not in passed]
        if high is not None and high_seat is not None and remaining == [high_seat]:
            done = (high_seat, high)
    if done is None and high is None and auction.dealer_stuck and len(passed) == n - 1 and dealer_seat not in passed:
        done = (dealer_seat, auction.minimum)  # three passes: the dealer need not call
    if done is None:
        still = [who[s] for s in range(n) if s not in passed]
        raise ValueError(f"the auction is not over: {_join(still)} {'is' if len(still) == 1 else 'are'} "
                         "still bidding")
    return done


# --------------------------------------------------------------------------- reading

@dataclass
class _Ctx:
    rules: Ruleset
    table: Table
    source: str


def _table(root: Node, rules: Ruleset) -> Table:
    teams_node, players_node = root.get("teams"), root.get("players")
    partnered = any(len(p) > 1 for p in rules.partnerships)
    if partnered:
        if players_node is not None and teams_node is None:
            raise _err(players_node, f"the {rules.name} game plays in partnerships: give teams (a name and "
                       "its players for each team)", field="players")
        if teams_node is not None and players_node is not None:
            raise _err(players_node, "give teams or players, not both", field="players")
        if teams_node is None:
            raise _err(root, f"missing teams (the {rules.name} game has {len(rules.partnerships)} teams of "
                       f"{len(rules.partnerships[0])})", field="teams")
        if teams_node.kind != "map":
            raise _err(teams_node, f"expected a mapping of team names to players, got {teams_node.describe()}",
                       field="teams")
        if len(teams_node.entries) != len(rules.partnerships):
            raise _err(teams_node, f"{len(teams_node.entries)} teams given, the {rules.name} game has "
                       f"{len(rules.partnerships)}", field="teams")
        sides: list[str] = []
        members: list[tuple[str, ...]] = []
        for key, (key_node, value) in teams_node.entries.items():
            name = _name(key_node, "teams")
            if value.kind != "seq" or not all(n.kind == "scalar" for n in value.items):
                raise _err(value, f"expected a list of player names, got {value.describe()}", field=f"teams.{key}")
            members.append(tuple(_name(n, f"teams.{key}") for n in value.items))
            sides.append(name)
    else:
        if teams_node is not None:
            raise _err(teams_node, f"the {rules.name} game has no partnerships: give players", field="teams")
        if players_node is None:
            raise _err(root, f"missing players (the {rules.name} game has {rules.players})", field="players")
        if players_node.kind != "seq" or not all(n.kind == "scalar" for n in players_node.items):
            raise _err(players_node, f"expected a list of player names, got {players_node.describe()}",
                       field="players")
        names = [_name(n, "players") for n in players_node.items]
        if len(names) != rules.players:
            raise _err(players_node, f"{len(names)} players given, the {rules.name} game has {rules.players}",
                       field="players")
        sides = list(names)
        members = [(p,) for p in names]
    everyone = [p for m in members for p in m]
    seen: dict[str, str] = {}
    for p in everyone + (sides if partnered else []):
        if p.lower() in seen:
            where = teams_node if partnered else players_node
            raise _err(where, f"the name {p!r} is used twice", field="teams" if partnered else "players")
        seen[p.lower()] = p
    if len(everyone) != rules.players:
        raise _err(teams_node, f"{len(everyone)} players in the teams, the {rules.name} game has {rules.players}",
                   field="teams")
    seating_node = root.get("seating")
    if seating_node is None:
        seats: list[str | None] = [None] * rules.players
        for team, seats_of in zip(members, rules.partnerships, strict=True):
            if len(team) != len(seats_of):
                raise _err(teams_node, f"a team of {len(team)} where the {rules.name} game seats {len(seats_of)}",
                           field="teams")
            for player, seat in zip(team, seats_of, strict=True):
                seats[seat] = player
        seating = tuple(p for p in seats if p is not None)
    else:
        if seating_node.kind != "seq" or not all(n.kind == "scalar" for n in seating_node.items):
            raise _err(seating_node, f"expected the players clockwise, got {seating_node.describe()}",
                       field="seating")
        given = [_name(n, "seating") for n in seating_node.items]
        lookup = {p.lower(): p for p in everyone}
        resolved = []
        for n, g in zip(seating_node.items, given, strict=True):
            if g.lower() not in lookup:
                raise _err(n, f"{g!r} is not at the table ({', '.join(everyone)})", field="seating")
            resolved.append(lookup[g.lower()])
        if sorted(resolved) != sorted(everyone):
            missing = [p for p in everyone if p not in resolved]
            raise _err(seating_node, f"every player sits once: {', '.join(missing) or 'a name repeats'}"
                       f"{' missing' if missing else ''}", field="seating")
        seating = tuple(resolved)
        wanted = {tuple(sorted(p)) for p in rules.partnerships}
        for team_name, team in zip(sides, members, strict=True):
            seats_of = tuple(sorted(seating.index(p) for p in team))
            if seats_of not in wanted:
                raise _err(seating_node, f"{_join(team)} ({team_name}) sit at seats {list(seats_of)}; partners sit "
                           f"at seats {' or '.join(str(list(w)) for w in sorted(wanted))}", field="seating")
    return Table(rules, tuple(sides), tuple(members), seating, partnered)


def _load_rules(root: Node, base: str | None) -> tuple[Ruleset, str, dict[str, str]]:
    rs = root.get("ruleset")
    if rs is None:
        raise _err(root, "missing ruleset (a bundled name such as single-deck, or a path)", field="ruleset")
    if rs.kind != "scalar" or not isinstance(rs.value, str) or not rs.raw.strip():
        raise _err(rs, f"expected a ruleset name or path, got {rs.describe()}", field="ruleset")
    options: dict[str, str] = {}
    on = root.get("options")
    if on is not None and not (on.kind == "scalar" and on.value is None):
        if on.kind != "map":
            raise _err(on, f"expected a mapping of option to choice, got {on.describe()}", field="options")
        for key, (_, value) in on.entries.items():
            if value.kind != "scalar" or value.value is None:
                raise _err(value, f"expected a choice, got {value.describe()}", field=f"options.{key}")
            options[key] = value.raw
    try:
        rules = load_ruleset(rs.raw.strip(), options, base=base)
    except RulesetError as exc:
        raise _err(rs, str(exc), field="ruleset") from None
    except PinochleError as exc:  # OptionError
        raise _err(on or rs, str(exc), field="options") from None
    return rules, rs.raw.strip(), options


def parse_record(text: str, source: str = "<record>", base: str | None = None, *,
                 strict: bool = True) -> MatchRecord:
    """Read and check a record from text; ``base``: the folder a ruleset path is relative to.

    ``strict=False``: collect the problems in ``.problems`` instead of raising the first.
    """
    try:
        root = load_text(text, source)
    except YamlError as exc:
        raise RecordError(str(exc)) from None
    return check_record(root, base, strict=strict)


def read_record(path: str, *, strict: bool = True) -> MatchRecord:
    """Read and check a record file (``strict=False``: see ``parse_record``)."""
    try:
        root = load_node(path)
    except YamlError as exc:
        raise RecordError(str(exc)) from None
    return check_record(root, os.path.dirname(os.path.abspath(path)), strict=strict)


class _Problems:
    """Where problems go: raised at once (strict) or kept in file order (forgiving)."""

    def __init__(self, strict: bool) -> None:
        self.strict = strict
        self.found: list[RecordError] = []

    def report(self, problem: RecordError) -> None:
        if self.strict:
            raise problem
        self.found.append(problem)


def check_record(root: Node, base: str | None = None, *, strict: bool = True) -> MatchRecord:
    """Check a parsed record and score it (``strict=False``: see ``parse_record``)."""
    problems = _Problems(strict)
    if root.kind != "map":
        raise _err(root, f"a record is a mapping (ruleset, teams or players, deals), got {root.describe()}")
    unknown = [_err(key_node, f"unknown key {key!r} (a record has {', '.join(TOP_KEYS)})")
               for key, (key_node, _) in root.entries.items() if key not in TOP_KEYS]
    if strict and unknown:
        raise unknown[0]
    rules, spec, options = _load_rules(root, base)
    table = _table(root, rules)
    ctx = _Ctx(rules, table, root.source)
    deals_node = root.get("deals")
    items: list[Node] = []
    if deals_node is not None and not (deals_node.kind == "scalar" and deals_node.value is None):
        if deals_node.kind != "seq":
            raise _err(deals_node, f"expected a list of deals, got {deals_node.describe()}", field="deals")
        items = deals_node.items
    for problem in unknown:
        problems.report(problem)
    deals: list[DealRecord] = []
    skipped: list[int] = []
    totals = [0] * len(table.sides)
    standing = Standing(tuple(totals), 0, "in-progress", None)
    decided_by: int | None = None  # the deal that decided the match
    for number, node in enumerate(items, start=1):
        if standing.status != "in-progress":
            problems.report(_err(node, f"the match was already decided after deal {decided_by}: "
                                 f"{_verdict(table, standing)}", deal=number))
            skipped.append(number)
            continue
        try:
            deal, facts, score = _read_deal(ctx, node, number, problems)
        except PinochleError as exc:
            if strict:
                raise
            if not isinstance(exc, RecordError):  # not expected: a check elsewhere refused the deal
                exc = _err(node, str(exc), deal=number)
            problems.report(exc)
            skipped.append(number)
            continue
        totals = [t + p for t, p in zip(totals, score.points, strict=True)]
        counted = standing.deals + (0 if score.result == "redeal" else 1)
        standing = _match_standing(rules, totals, counted, facts.bidder_side)
        if standing.status != "in-progress":
            decided_by = number
        deals.append(_finish(deal, facts, score, standing))
    return MatchRecord(root.source, rules, table, tuple(deals), standing, spec, options,
                       tuple(problems.found), tuple(skipped))


def _verdict(table: Table, standing: Standing) -> str:
    scores = " to ".join(str(t) for t in sorted(standing.totals, reverse=True))
    if standing.winner is not None:
        return f"{table.sides[standing.winner]} won {scores}"
    if standing.status == "draw":
        return f"a draw at {standing.totals[0]}"
    return "in progress"


# A deal being read: its fields in one place until the standing is known.
@dataclass
class _Deal:
    number: int
    line: int
    dealer: str | None = None
    bidder: str | None = None
    bid: int | None = None
    trump: Suit | None = None
    auction: tuple[str, ...] | None = None
    meld: tuple[int, ...] = ()
    counters: tuple[int, ...] | None = None
    tricks: tuple[int | None, ...] | None = None
    conceded: bool = False
    no_trump: bool = False
    redeal: bool = False
    hands: dict[str, Hand] | None = None
    stock: list[Card] | None = None  # top first
    played: bool = False


def _finish(d: _Deal, facts: DealFacts, score: DealScore, standing: Standing) -> DealRecord:
    return DealRecord(d.number, d.line, d.dealer, d.bidder, d.bid, d.trump, d.auction, d.meld, d.counters,
                      d.tricks, d.conceded, d.no_trump, d.redeal, d.hands, d.played, facts, score, standing)


def _read_deal(ctx: _Ctx, node: Node, number: int,
               problems: _Problems | None = None) -> tuple[_Deal, DealFacts, DealScore]:
    """One deal checked and scored; raises its first problem. Unknown keys go to ``problems``
    (raised when strict), the rest of the deal is still read."""
    rules, table = ctx.rules, ctx.table
    if node.kind != "map":
        raise _err(node, f"a deal is a mapping of fields, got {node.describe()}", deal=number)
    for key, (key_node, _) in node.entries.items():
        if key not in DEAL_KEYS:
            problem = _err(key_node, f"unknown key {key!r} (a deal has {', '.join(DEAL_KEYS)})", deal=number)
            if problems is None:
                raise problem
            problems.report(problem)
    d = _Deal(number, node.line)
    n_sides = len(table.sides)

    def err(at: Node | None, message: str, fld: str | None = None, trick: int | None = None) -> RecordError:
        return _err(at or node, message, deal=number, field=fld, trick=trick)

    def get(key: str) -> Node | None:
        value = node.get(key)
        return None if value is None or (value.kind == "scalar" and value.value is None) else value

    def flag(key: str) -> bool:
        value = get(key)
        if value is None:
            return False
        if value.kind != "scalar" or not isinstance(value.value, bool):
            raise err(value, f"expected true or false, got {value.describe()}", key)
        return bool(value.value)

    def player(key: str) -> str | None:
        value = get(key)
        if value is None:
            return None
        name = _name(value, key, number)
        found = table.player(name)
        if found is None:
            raise err(value, f"{name!r} is not at the table ({', '.join(table.seating)})", key)
        return found

    d.redeal, d.conceded, d.no_trump = flag("redeal"), flag("conceded"), flag("no-trump")
    flags = [k for k, v in (("redeal", d.redeal), ("conceded", d.conceded), ("no-trump", d.no_trump)) if v]
    if len(flags) > 1:
        raise err(get(flags[1]), f"a deal is at most one of redeal, conceded and no-trump, got {' and '.join(flags)}",
                  flags[1])
    d.dealer = player("dealer")
    if d.redeal:
        for key in ("bidder", "bid", "auction", "trump", "meld", "counters", "tricks", "play", "stock"):
            if get(key) is not None:
                raise err(get(key), "a redealt deal was thrown in before the auction: it has no " + key, key)

    # --- the auction, bidder and bid
    auction_node = get("auction")
    bidder_node, bid_node = get("bidder"), get("bid")
    if rules.auction is None:
        for key, value in (("auction", auction_node), ("bidder", bidder_node), ("bid", bid_node)):
            if value is not None:
                raise err(value, f"the {rules.name} game has no auction: no {key}", key)
        for key, what in (("conceded", "concede"), ("no-trump", "be left without trump")):
            if flag(key):
                raise err(get(key), f"the {rules.name} game has no auction and no bidder to {what}", key)
    elif not d.redeal:
        d.bidder = player("bidder")
        if bid_node is not None:
            if not _is_int(bid_node):
                raise err(bid_node, f"expected a number, got {bid_node.describe()}", "bid")
            d.bid = int(bid_node.value)
            auc = rules.auction
            if d.bid < auc.minimum:
                raise err(bid_node, f"{d.bid} is below the minimum bid {auc.minimum}", "bid")
            if not auc.is_valid_bid(d.bid):
                raise err(bid_node, f"{d.bid} is off the steps ({auc.describe_steps()}; next valid bid "
                          f"{auc.next_bid(d.bid)})", "bid")
        if auction_node is not None:
            if d.dealer is None:
                raise err(auction_node, "an auction starts at the dealer's left: add dealer:", "auction")
            if auction_node.kind == "seq" and all(n.kind == "scalar" for n in auction_node.items):
                calls = [n.raw for n in auction_node.items]
            elif auction_node.kind == "scalar" and isinstance(auction_node.value, str):
                calls = [c for c in re.split(r"[\s,]+", auction_node.raw) if c]
            else:
                raise err(auction_node, f"expected the calls in order (numbers and pass), got "
                          f"{auction_node.describe()}", "auction")
            try:
                seat, won = run_auction(rules, table.seat_of(d.dealer), calls, table.seating)
            except ValueError as exc:
                raise err(auction_node, str(exc), "auction") from None
            d.auction = tuple(c.lower() if c.lower() == PASS else c for c in calls)
            winner = table.seating[seat]
            if d.bidder is not None and d.bidder != winner:
                raise err(bidder_node, f"{d.bidder!r}, but the auction ends with {winner} at {won}", "bidder")
            if d.bid is not None and d.bid != won:
                raise err(bid_node, f"{d.bid}, but the auction ends with {winner} at {won}", "bid")
            d.bidder, d.bid = winner, won
        if d.bidder is None:
            raise err(None, "missing bidder (who won the auction)", "bidder")
        if d.bid is None:
            raise err(None, "missing bid (the contract)", "bid")

    # --- trump
    trump_node = get("trump")
    if trump_node is not None:
        if trump_node.kind != "scalar":
            raise err(trump_node, f"expected a suit, got {trump_node.describe()}", "trump")
        try:
            d.trump = parse_suit(trump_node.raw)
        except CardError as exc:
            raise err(trump_node, str(exc), "trump") from None
        if d.trump not in rules.suits:
            raise err(trump_node, f"{d.trump.word} is not a suit of {rules.deck.name}", "trump")
        if d.no_trump:
            raise err(trump_node, "a deal with no-trump: true has no trump suit", "trump")

    # --- hands
    hands_node = get("hands")
    if hands_node is not None:
        if hands_node.kind != "map":
            raise err(hands_node, f"expected each player's cards, got {hands_node.describe()}", "hands")
        hands: dict[str, Hand] = {}
        for key, (key_node, value) in hands_node.entries.items():
            who = table.player(key)
            if who is None:
                raise err(key_node, f"{key!r} is not a player at the table ({', '.join(table.seating)})", "hands")
            hand = _cards(value, f"hands.{who}", number, rules)
            if len(hand) != rules.hand_size:
                raise err(value, f"{who} holds {len(hand)} cards, a hand has {rules.hand_size}", f"hands.{who}")
            hands[who] = hand
        union = Hand()
        for hand in hands.values():
            union = union + hand
        try:
            rules.deck.check(union)
        except CardError as exc:
            raise err(hands_node, f"the hands share cards: {exc}", "hands") from None
        d.hands = hands
        if d.bidder is not None and d.bidder in hands and rules.exchange == 0:
            eligible = rules.eligible_trumps(hands[d.bidder])
            if d.trump is not None and d.trump not in eligible:
                raise err(trump_node, f"{d.bidder} cannot name {d.trump.word}: holding "
                          f"{format_cards(hands[d.bidder].of_suit(d.trump)) or 'no ' + d.trump.word}, "
                          f"trump must be a suit of which the bidder holds K and Q", "trump")
            if d.no_trump and eligible:
                raise err(get("no-trump"), f"{d.bidder} holds K and Q of {_join([s.word for s in eligible])} and "
                          "could name trump", "no-trump")

    # --- stock (games with one: its cards when play starts, top first; checked with or without play)
    stock_node = get("stock")
    if stock_node is not None:
        if not rules.has_stock:
            raise err(stock_node, f"the {rules.name} game has no stock", "stock")
        stock_hand = _cards(stock_node, "stock", number, rules)
        if len(stock_hand) != rules.stock_size:
            raise err(stock_node, f"{len(stock_hand)} card{'s' if len(stock_hand) != 1 else ''}, the stock has "
                      f"{rules.stock_size}", "stock")
        held = Hand()
        for hand in (d.hands or {}).values():
            held = held + hand
        try:
            rules.deck.check(held + stock_hand)
        except CardError as exc:
            raise err(stock_node, f"the stock shares cards with the hands: {exc}", "stock") from None
        d.stock = parse_cards([n.raw for n in stock_node.items] if stock_node.kind == "seq" else stock_node.raw)

    if d.no_trump and (rules.scoring.no_trump is None or not rules.trump_needs):
        why = "the bidder may name any suit" if not rules.trump_needs else "it has no rule for it"
        raise err(get("no-trump"), f"the {rules.name} game has no deal without trump ({why})", "no-trump")
    if d.conceded and rules.scoring.concede is None:
        raise err(get("conceded"), f"the {rules.name} game has no rule for conceding", "conceded")

    # --- meld
    meld_parts: list[list[tuple[int, bool | None]]] = [[] for _ in range(n_sides)]
    given_player_meld: dict[str, tuple[int, Node]] = {}
    given_side_meld: dict[int, tuple[int, Node]] = {}
    meld_node = get("meld")
    if meld_node is not None:
        if meld_node.kind != "map":
            raise err(meld_node, f"expected meld by team or player, got {meld_node.describe()}", "meld")
        for key, (key_node, value) in meld_node.entries.items():
            _kind, side, who = _key(table, key, key_node, number, "meld")
            if value.kind == "scalar" and isinstance(value.value, (bool, float)):
                raise err(value, f"expected a whole number (or, for a player, the cards shown), got {value.raw}",
                          f"meld.{key}")
            if _is_int(value):
                if value.value < 0:
                    raise err(value, f"expected a whole number, got {value.raw}", f"meld.{key}")
                pts, only = int(value.value), meld_only_from_number(rules, int(value.value))
                step = _meld_step(rules)
                if pts % step:
                    raise err(value, f"{pts} is not a meld total (not a multiple of {step})", f"meld.{key}")
            else:
                if who is None:
                    raise err(value, "a team's meld is a number; cards are shown by a player", f"meld.{key}")
                if d.trump is None:
                    raise err(value, "meld given as cards needs the trump suit: add trump:", f"meld.{who}")
                shown = _cards(value, f"meld.{who}", number, rules)
                result = _meld(rules, shown, d.trump)
                pts, only = result.total, result.only(rules.scoring.kept_if_only) and result.total > 0
                if d.hands is not None and who in d.hands and not shown.issubset(d.hands[who]):
                    missing = shown - d.hands[who]
                    raise err(value, f"{who} showed {format_cards(missing)} not in their hand", f"meld.{who}")
            if who is not None:
                given_player_meld[who] = (pts, value)
            else:
                given_side_meld[side] = (pts, value)
            meld_parts[side].append((pts, only))
        for side, (_pts, value) in given_side_meld.items():
            doubled = [p for p in table.members[side] if p in given_player_meld]
            if doubled and table.teams:
                raise err(value, f"meld given for {table.sides[side]} and for {_join(doubled)}: give one or the "
                          "other", "meld")
    # meld from the hands (games without a stock: the hand at play start is the hand melded)
    if d.hands is not None and d.trump is not None and not rules.has_stock:
        computed: dict[str, tuple[int, bool]] = {}
        for who, hand in d.hands.items():
            result = _meld(rules, hand, d.trump)
            computed[who] = (result.total, result.only(rules.scoring.kept_if_only) and result.total > 0)
        for who, (pts, value) in given_player_meld.items():
            if who in computed and computed[who][0] != pts:
                raise err(value, f"{who}'s meld is {pts}, but the hand recorded scores {computed[who][0]}",
                          f"meld.{who}")
        for side, (pts, value) in given_side_meld.items():
            team = table.members[side]
            if all(p in computed for p in team):
                total = sum(computed[p][0] for p in team)
                if total != pts:
                    raise err(value, f"{table.sides[side]}'s meld is {pts}, but the hands recorded score {total}",
                              f"meld.{table.sides[side]}")
        for side in range(n_sides):
            if side in given_side_meld:
                continue
            for p in table.members[side]:
                if p in computed and p not in given_player_meld:
                    meld_parts[side].append(computed[p])
    d.meld = tuple(sum(p for p, _ in parts) for parts in meld_parts)
    meld_only: list[bool | None] = []
    for side, parts in enumerate(meld_parts):
        flags_ = [o for p, o in parts if p > 0]
        if not flags_ or any(o is False for o in flags_):
            meld_only.append(False)
        elif all(o is True for o in flags_):
            meld_only.append(True)
        else:
            meld_only.append(meld_only_from_number(rules, d.meld[side]))
    if d.redeal:
        facts = DealFacts(meld=(0,) * n_sides, redeal=True)
        return d, facts, score_deal(rules, facts, table.sides)

    bidder_side = table.side_of(d.bidder) if d.bidder is not None else None
    early = d.conceded or d.no_trump or (bidder_side is not None and not_on_board(
        rules, DealFacts(meld=d.meld, bidder_side=bidder_side, bid=d.bid)))
    why = ("conceded" if d.conceded else "no-trump" if d.no_trump else
           f"not on board: meld {d.meld[bidder_side or 0]} + {rules.counter_total} is below the bid {d.bid}")

    # --- counters and tricks
    counters_node, tricks_node = get("counters"), get("tricks")
    counters = _by_side(ctx, counters_node, "counters", number)
    tricks = _by_side(ctx, tricks_node, "tricks", number)
    play_node = get("play")
    if early:
        for key, given, at in (("counters", counters, counters_node), ("tricks", tricks, tricks_node)):
            if given is not None and any(v for v in given if v):
                raise err(at, f"the deal ended after the meld ({why}): no cards were played", key)
        if play_node is not None:
            raise err(play_node, f"the deal ended after the meld ({why}): no cards were played", "play")
    else:
        step = _counter_step(rules)
        if play_node is not None:
            computed_c, computed_t = _replay(ctx, d, play_node, number, bidder_side)
            if counters is not None:
                for side in range(n_sides):
                    if counters[side] is not None and counters[side] != computed_c[side]:
                        raise err(counters_node, f"{table.sides[side]} took {counters[side]}, but the play gives "
                                  f"{computed_c[side]}", "counters")
            if tricks is not None:
                for side in range(n_sides):
                    if tricks[side] is not None and tricks[side] != computed_t[side]:
                        raise err(tricks_node, f"{table.sides[side]} took {tricks[side]} tricks, but the play gives "
                                  f"{computed_t[side]}", "tricks")
            counters, tricks = list[int | None](computed_c), list[int | None](computed_t)
            d.played = True
        if counters is None:
            raise err(None, f"missing counters (the counter points each {'team' if table.teams else 'player'} "
                      f"took, {rules.counter_total} in all)", "counters")
        absent = [table.sides[s] for s in range(n_sides) if counters[s] is None]
        if absent:
            raise err(counters_node, f"no counters for {_join(absent)} (they add up to {rules.counter_total})",
                      "counters")
        values = [int(v or 0) for v in counters]
        for side, v in enumerate(values):
            if v % step:
                raise err(counters_node, f"{table.sides[side]}: {v} is not a multiple of {step}", "counters")
            if v not in _counter_totals(rules):
                counts = ", ".join(f"{r.label} {p}" for r, p in rules.counters.items() if p)
                raise err(counters_node, f"{table.sides[side]}: {v} cannot be taken (cards count {counts}; "
                          f"the last trick {rules.last_trick})", "counters")
        if sum(values) != rules.counter_total:
            raise err(counters_node, f"add up to {sum(values)}, expected {rules.counter_total}", "counters")
        d.counters = tuple(values)
        if tricks is not None:
            n_tricks = rules.tricks_per_deal
            known = [t for t in tricks if t is not None]
            if sum(known) > n_tricks:
                raise err(tricks_node, f"add up to {sum(known)}, a deal has {n_tricks}", "tricks")
            if len(known) == n_sides and sum(known) != n_tricks:
                raise err(tricks_node, f"add up to {sum(known)}, expected {n_tricks}", "tricks")
            if len(known) == n_sides - 1:
                tricks = [t if t is not None else n_tricks - sum(known) for t in tricks]
            for side, t in enumerate(tricks):
                if t is None:
                    continue
                if t == 0 and values[side] > 0:
                    raise err(tricks_node, f"{table.sides[side]} took no trick but {values[side]} counters",
                              "tricks")
                if t == n_tricks and values[side] != rules.counter_total:
                    raise err(tricks_node, f"{table.sides[side]} took every trick but only {values[side]} counters",
                              "tricks")
            d.tricks = tuple(tricks)

    took = None
    if d.tricks is not None:
        took = tuple(None if t is None else t > 0 for t in d.tricks)
    facts = DealFacts(meld=d.meld, counters=d.counters, bidder_side=bidder_side, bid=d.bid, took_trick=took,
                      meld_only=tuple(meld_only), conceded=d.conceded, no_trump=d.no_trump)
    try:
        score = score_deal(rules, facts, table.sides)
    except RecordError as exc:
        at = {"tricks": counters_node, "meld": meld_node}.get(exc.field or "")
        raise err(at, exc.detail, exc.field) from None
    return d, facts, score


def _key(table: Table, key: str, key_node: Node, number: int, fld: str) -> tuple[str, int, str | None]:
    try:
        return table.resolve(key)
    except KeyError as exc:
        raise _err(key_node, str(exc.args[0]), deal=number, field=fld) from None


def _by_side(ctx: _Ctx, node: Node | None, fld: str, number: int) -> list[int | None] | None:
    """Numbers by team or player → per side (None for a side not given)."""
    if node is None:
        return None
    table = ctx.table
    if node.kind != "map":
        raise _err(node, f"expected numbers by {'team or player' if table.teams else 'player'}, got "
                   f"{node.describe()}", deal=number, field=fld)
    out: list[int | None] = [None] * len(table.sides)
    by_side_given: set[int] = set()
    by_player: dict[int, list[str]] = {}
    for key, (key_node, value) in node.entries.items():
        kind, side, who = _key(table, key, key_node, number, fld)
        if not _is_int(value) or value.value < 0:
            raise _err(value, f"expected a whole number, got {value.describe()}", deal=number, field=f"{fld}.{key}")
        if kind == "side":
            by_side_given.add(side)
        else:
            by_player.setdefault(side, []).append(who or "")
        if side in by_side_given and side in by_player:
            raise _err(value, f"given for {table.sides[side]} and for {_join(by_player[side])}: give one or the "
                       "other", deal=number, field=fld)
        out[side] = (out[side] or 0) + int(value.value)
    return out


def _meld(rules: Ruleset, hand: Hand, trump: Suit) -> MeldResult:
    return meld(rules, hand, trump)


def _replay(ctx: _Ctx, d: _Deal, play_node: Node, number: int,
            bidder_side: int | None) -> tuple[list[int], list[int]]:
    """Replay the recorded tricks → counters and tricks per side."""
    rules, table = ctx.rules, ctx.table
    if d.hands is None or len(d.hands) != rules.players:
        missing = [p for p in table.seating if d.hands is None or p not in d.hands]
        raise _err(play_node, f"replaying the play needs every player's hand: add hands for {_join(missing)}",
                   deal=number, field="play")
    if d.trump is None:
        raise _err(play_node, "replaying the play needs the trump suit: add trump:", deal=number, field="play")
    stock = d.stock
    if rules.has_stock and stock is None:
        raise _err(play_node, "this game draws from a stock: add stock: (its cards, top first)",
                   deal=number, field="play")
    if play_node.kind != "seq":
        raise _err(play_node, f"expected the tricks in order, got {play_node.describe()}", deal=number, field="play")
    tricks = [_plays(n, "play", number, i, rules) for i, n in enumerate(play_node.items, start=1)]
    if len(tricks) != rules.tricks_per_deal:
        raise _err(play_node, f"{len(tricks)} tricks recorded, a deal has {rules.tricks_per_deal}", deal=number,
                   field="play")
    if rules.play.leader == "bidder":
        if d.bidder is None:
            raise _err(play_node, "the bidder leads: add bidder:", deal=number, field="play")
        leader = table.seat_of(d.bidder)
    else:
        if d.dealer is None:
            raise _err(play_node, "the dealer's left leads: add dealer:", deal=number, field="play")
        leader = (table.seat_of(d.dealer) + 1) % rules.players
    hands = [d.hands[p] for p in table.seating]
    try:
        result = replay_deal(rules, hands, d.trump, leader, tricks, stock=stock, names=list(table.seating))
    except IllegalPlayError as exc:
        trick_node = play_node.items[exc.trick - 1] if 0 < exc.trick <= len(play_node.items) else play_node
        raise _err(trick_node, exc.detail, deal=number, trick=exc.trick) from None
    except PinochleError as exc:
        raise _err(play_node, str(exc), deal=number, field="play") from None
    counters = [0] * len(table.sides)
    won = [0] * len(table.sides)
    for index, (c, t) in enumerate(zip(result.side_counters(rules), result.side_tricks(rules), strict=True)):
        side = table.side_of_partnership(index)
        counters[side] += c
        won[side] += t
    return counters, won
