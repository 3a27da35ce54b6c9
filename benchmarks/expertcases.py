"""The expert set (tests/experts/*.yaml): loaded, validated, and asked of the project (the benchmark's helper, which
the test suite imports too).

``load(kind)`` reads a kind's file and refuses an unknown or missing key, a bad card, a hand of the
wrong size or a source without an address (``ValueError`` naming the case). ``ask_pass``, ``ask_bid``
and ``ask_card`` put one case's question to the library and give the project's answer with whether it
agrees with the expert's (the rules of agreement: tests/experts/README.md). The settings are
parameters: the test runs them small, ``benchmarks/bench_experts.py`` at the commands' defaults.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from pinochle_cli.cards import Card, Hand, parse_cards
from pinochle_cli.hint.facts import Facts
from pinochle_cli.ruleset import Ruleset, load_ruleset

# the cases are the test suite's data
FOLDER = Path(__file__).resolve().parent.parent / "tests" / "experts"
KINDS = ("pass", "bid", "card")
# the agreement each kind must reach (issue 45)
THRESHOLDS = {"pass": 0.85, "bid": 0.90, "card": 0.90}
FILES = {"pass": "passes.yaml", "bid": "bids.yaml", "card": "cards.yaml"}
COMMON = {"id", "ruleset", "trump", "expert", "source", "filled", "disagreement"}
KEYS = {"pass": {"role", "hand", "received", "bid"}, "bid": {"hand", "auction", "dealer"},
        "card": {"hand", "seat", "bidder", "bid", "meld", "tricks", "leader", "trick", "widow"}}
REQUIRED = {"pass": {"id", "trump", "role", "hand", "bid", "expert", "source"},
            "bid": {"id", "hand", "auction", "dealer", "expert", "source"},
            "card": {"id", "trump", "hand", "seat", "bidder", "bid", "expert", "source"}}
EXPERT = {"pass": {"sends", "keeps", "reason"}, "bid": {"call", "at_least", "reason"},
          "card": {"plays", "avoids", "reason"}}
SOURCE = {"url", "repository", "path", "commit", "book", "page", "quote"}
DISAGREEMENT = {"project", "figure", "why"}
# a quote is a few words, never the source's prose
QUOTE_WORDS = 15


@dataclass(frozen=True)
class Case:
    kind: str
    id: str
    rules: Ruleset
    data: dict[str, Any]

    @property
    def expert(self) -> dict[str, Any]:
        return dict(self.data["expert"])

    def cards(self, key: str) -> list[Card]:
        value = self.data.get(key)
        if value is None:
            return []
        return list(parse_cards(value if isinstance(value, str) else " ".join(value)))


def _fail(case: str, text: str) -> None:
    raise ValueError(f"expert case {case}: {text}")


def _check_keys(name: str, got: set[str], allowed: set[str], required: set[str], where: str) -> None:
    if got - allowed:
        _fail(name, f"unknown {where} key(s) {sorted(got - allowed)}")
    if required - got:
        _fail(name, f"missing {where} key(s) {sorted(required - got)}")


def _check_case(kind: str, raw: dict[str, Any]) -> Case:  # long: one check per key of the schema, in order
    name = str(raw.get("id", "?"))
    _check_keys(name, set(raw), COMMON | KEYS[kind], REQUIRED[kind], "case")
    rules = load_ruleset(raw.get("ruleset", "single-deck"))
    case = Case(kind, name, rules, raw)
    expert = raw["expert"]
    _check_keys(name, set(expert), EXPERT[kind], {"reason"}, "expert")
    if kind == "pass" and not (expert.get("sends") or expert.get("keeps")):
        _fail(name, "a pass case names cards the expert sends or keeps")
    if kind == "bid" and expert.get("call") not in ("bid", "pass"):
        _fail(name, "expert.call is bid or pass")
    if kind == "card" and not expert.get("plays"):
        _fail(name, "a card case names the cards the expert plays")
    source = raw["source"]
    _check_keys(name, set(source), SOURCE, set(), "source")
    if not ({"url"} <= set(source) or {"repository", "path", "commit"} <= set(source) or
            {"book", "page"} <= set(source)):
        _fail(name, "the source needs a url, a repository with path and commit, or a book with page")
    if len(str(source.get("quote", "")).split()) > QUOTE_WORDS:
        _fail(name, f"the quote is more than {QUOTE_WORDS} words")
    if "disagreement" in raw:
        _check_keys(name, set(raw["disagreement"]), DISAGREEMENT, DISAGREEMENT, "disagreement")
    hand = Hand(rules.deck.check(case.cards("hand")))
    size = rules.hand_size if kind != "card" else None
    if size is not None and len(hand) != size:
        _fail(name, f"the hand has {len(hand)} cards, not {size}")
    for key in ("sends", "keeps", "plays", "avoids"):
        if expert.get(key) is not None:
            rules.deck.check(parse_cards(" ".join(expert[key])))
    return case


def load(kind: str) -> list[Case]:
    """Every case of ``kind``, validated; ids unique."""
    doc = yaml.safe_load((FOLDER / FILES[kind]).read_text(encoding="utf-8"))
    if doc.get("kind") != kind:
        raise ValueError(f"{FILES[kind]}: kind {doc.get('kind')!r}, expected {kind!r}")
    cases = [_check_case(kind, raw) for raw in doc["cases"]]
    ids = Counter(c.id for c in cases)
    if any(n > 1 for n in ids.values()):
        raise ValueError(f"{FILES[kind]}: ids used twice: {sorted(i for i, n in ids.items() if n > 1)}")
    return cases


@dataclass(frozen=True)
class Verdict:
    case: Case
    answer: str
    agrees: bool
    # a card case: one of the expert's cards is the hint's best or behind it within the noise (None: other kinds)
    close: bool | None = None


def _holds(cards: list[Card], want: list[Card]) -> bool:
    have = Counter(cards)
    return all(have[c] >= n for c, n in Counter(want).items())


def ask_pass(case: Case, *, samples: int, seed: int = 1, workers: int = 1, final: int | None = None) -> Verdict:
    """The project's best pass for the case (``final``: deals of the final ranking, None: the default)."""
    from pinochle_cli.passing.judge import PassQuestion
    from pinochle_cli.passing.race import advise

    d, rules = case.data, case.rules
    hand = case.cards("hand")
    received = case.cards("received") or None
    if received is not None:
        hand = hand + received
    q = PassQuestion(rules, d["role"], Hand(hand), _suit(d["trump"]), int(d["bid"]),
                 Hand(received) if received is not None else None)
    kwargs: dict[str, Any] = {} if final is None else {"final_deals": final}
    advice = advise(q, samples=samples, top=1, seed=seed, workers=workers, **kwargs)
    sent = list(advice.ranked[0].cards)
    kept = _less(hand, sent)
    e = case.expert
    agrees = _holds(sent, case_cards(e.get("sends"))) and _holds(kept, case_cards(e.get("keeps")))
    return Verdict(case, " ".join(c.ascii() for c in sent), agrees)


def case_cards(value: list[str] | None) -> list[Card]:
    return [] if not value else list(parse_cards(" ".join(value)))


def _less(hand: list[Card], gone: list[Card]) -> list[Card]:
    out = list(hand)
    for c in gone:
        out.remove(c)
    return out


def _suit(text: str) -> Any:
    from pinochle_cli.cards import parse_suit

    return parse_suit(text)


def ask_bid(case: Case, *, samples: int, seed: int = 1, workers: int = 1) -> Verdict:
    """The project's recommended call in the case's auction (``estimate --auction``, the default rule)."""
    from pinochle_cli.estimate.question import answer

    d = case.data
    a = answer(case.rules, Hand(case.cards("hand")), calls=d["auction"], dealer=d["dealer"], samples=samples,
               seed=seed, workers=workers)
    call = a.recommended
    e = case.expert
    if call is None or call.bid is None:
        return Verdict(case, "pass", e["call"] == "pass")
    said = f"bid {call.bid}" + ("" if call.trump is None else f" in {call.trump.letter}")
    return Verdict(case, said, e["call"] == "bid" and call.bid >= int(e.get("at_least") or 0))


def _tricks(text: str | None) -> list[list[Card]]:
    if not text:
        return []
    return [list(parse_cards(part)) for part in text.split(";") if part.strip()]


def case_facts(case: Case) -> Facts:
    """The position of a card case as the hint's facts (the widow, where given, as turned up for all)."""
    from pinochle_cli.hint.facts import make_facts

    d = case.data
    shown = {int(k): Hand(parse_cards(v)) for k, v in (d.get("meld") or {}).items()}
    return make_facts(case.rules, _suit(d["trump"]), Hand(case.cards("hand")), seat=int(d["seat"]),
                      bidder=int(d["bidder"]), bid=int(d["bid"]), shown=shown, tricks=_tricks(d.get("tricks")),
                      leader=d.get("leader"), trick=case.cards("trick"), widow=Hand(case.cards("widow")))


def ask_card(case: Case, *, seconds: float, worlds: int | None = None, seed: int = 1,
             workers: int | None = 1) -> Verdict:
    """The hint's best card for the case's position (``workers`` None: every core, as ``hint`` runs by default;
    the worlds judged in the time depend on it, the answer for the same worlds does not)."""
    from pinochle_cli.hint.advice import hint_facts
    from pinochle_cli.workers import workers_for

    h = hint_facts(case_facts(case), worlds=worlds, seconds=seconds, seed=seed, workers=workers_for(workers)[0])
    e = case.expert
    plays, avoids = case_cards(e["plays"]), case_cards(e.get("avoids"))
    close = any(h.within_noise(c) for c in plays if c not in avoids)
    return Verdict(case, h.best.ascii(), h.best in plays and h.best not in avoids, close)


def agreement(verdicts: list[Verdict]) -> float:
    return sum(v.agrees for v in verdicts) / len(verdicts) if verdicts else 0.0


def report(kind: str, verdicts: list[Verdict]) -> str:
    """``pass: 13 of 14 agree (92.9 %)`` and a line per disagreement (with whether the case explains it)."""
    n = sum(v.agrees for v in verdicts)
    lines = [f"{kind}: {n} of {len(verdicts)} agree ({100 * agreement(verdicts):.1f} %)"]
    others = [v for v in verdicts if not v.agrees and v.close is not None]
    if others:
        near = sum(bool(v.close) for v in others)
        lines[0] += f"; of the {len(others)} others, the expert's card is within the noise of the project's in {near}"
    for v in verdicts:
        if not v.agrees:
            explained = "explained in its case" if "disagreement" in v.case.data else "NOT explained"
            near = "" if v.close is None else ("; the expert's card within the noise" if v.close else
                                               "; the expert's card behind beyond the noise")
            lines.append(f"  {v.case.id}: the project says {v.answer}{near}; the expert {v.case.expert} ({explained})")
    return "\n".join(lines)
