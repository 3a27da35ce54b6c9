"""The advised pass policy (``estimate --pass advised``): how close to ``pinochle pass``, what it moves, its cost.

1. Agreement: on ``--hands`` random deals (seeded), the partner's 12 cards (trump: the bidder's longest
   suit, bid ``--bid``) and the bidder's 16 (its 12 and the partner's heuristic pass) are asked of
   ``passing.race.advise`` (default samples, seed 1); the policy's pass is compared with the advice's
   best: the same cards, among its top 5, and on 2,000 fresh common deals (seed 2, not the deals the
   advice chose on) P(make) and the contract's points of the advice, the policy and the heuristic.
2. The six hands of docs/estimate.md's pass table: P(make) of the heuristic pass, the policy's and the
   advice's on the advice's own deals (seed 1, 4,000), with the paired change policy - heuristic.
3. ``estimate`` of two bidder hands with ``--pass heuristic`` and ``advised`` (4,000 deals, seed 1).
4. The cost: one exchange per deal, heuristic (the compiled player) and advised (numpy), and the two estimates'
   wall time.

    .venv/bin/python benchmarks/bench_pass_policy.py [--hands 20] [--workers 2] [--bid 300]
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.cards import N_CARDS, Card, Hand, Suit, format_cards, parse_cards
from pinochle_cli.estimate.games import Simulator
from pinochle_cli.estimate.interval import Z95
from pinochle_cli.estimate.simulate import estimate
from pinochle_cli.passing.judge import Judge, PassQuestion
from pinochle_cli.passing.policy import AdvisedPolicy
from pinochle_cli.passing.race import advise
from pinochle_cli.player.exchange import choose_pass
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.workers import available_cores

RULES = load_ruleset("single-deck")
POLICY = AdvisedPolicy(RULES)
# docs/estimate.md's pass table: role, hand, trump, bid, received, the advice's pass
SIX = [
    ("partner", "AS QS 9S AH 10H KH 9H AD JD 9D AC 9C", Suit.H, 300, None, "QS 10H KH JD"),
    ("partner", "AS 10S KS QS 9S AH JH 9H KD JD 10C 9C", Suit.S, 300, None, "AS 10S KS QS"),
    ("partner", "QS KH QH 9H AD 10D KD 9D 9D AC 10C 9C", Suit.D, 280, None, "QS AD 10D KD"),
    ("partner", "QS QS 9S AH 10H KH JD JD 9D 10C JC 9C", Suit.H, 350, None, "AH 10H KH 10C"),
    ("bidder", "AS 10S KS QS AH 10H KH QH JH 9H AD 10D KD QD AC 10C", Suit.H, 350, "10D KD AC 10C",
     "10S KS QS 10C"),
    ("bidder", "AS KS QS 9S AH AH 10H KH QH JH 9H 10D JD AC JC 9C", Suit.H, 400, "AH 9H AS AC", "KS QS 10D JD"),
]
BIDDERS = [("AH 10H KH QH JH AS AD AC KS QS JD 9H", Suit.H), ("AS 10S KS QS JS 9S AH KH QD JD AC KC", Suit.S)]


def _row(hand: Hand) -> np.ndarray:
    return np.repeat(np.arange(N_CARDS), np.array(hand.counts))[None, :]


def _policy(q: PassQuestion) -> tuple[int, ...]:
    choose = POLICY.pass_ if q.role == "partner" else POLICY.return_
    sent, _ = choose(_row(q.hand), np.array([int(q.trump)]), q.size)
    return tuple(sorted(int(c) for c in sent[0]))


def _judge(judge: Judge, cands: list[tuple[int, ...]], deals: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """(made, points) ``(len(cands), deals)`` on common deals, chunks of 100 as the advice deals them."""
    made, points = [], []
    for index in range(math.ceil(deals / 100)):
        o = judge.play(cands, judge.deal(index, 100, seed))
        made.append(o.made)
        points.append(o.points)
    return np.concatenate(made, axis=1), np.concatenate(points, axis=1)


def _cards(p: tuple[int, ...]) -> str:
    return format_cards(sorted(Card.from_index(c) for c in p))


def _questions(n: int, bid: int) -> list[PassQuestion]:
    rng = np.random.default_rng(2026)
    deck = np.repeat(np.arange(N_CARDS), RULES.deck.copies)
    out = []
    for _ in range(n):
        cards = rng.permutation(deck)
        bidder, partner = cards[:12], cards[12:24]
        trump = Suit(int(np.bincount(bidder // 6, minlength=4).argmax()))
        ph = Hand.from_counts(np.bincount(partner, minlength=N_CARDS).tolist())
        out.append(PassQuestion(RULES, "partner", ph, trump, bid))
        sent, _ = choose_pass(Simulator(RULES, ph, [trump]).exchange, partner[None, :], np.array([int(trump)]), 4)
        full = np.concatenate([bidder, sent[0]])
        bh = Hand.from_counts(np.bincount(full, minlength=N_CARDS).tolist())
        got = Hand.from_counts(np.bincount(sent[0], minlength=N_CARDS).tolist())
        out.append(PassQuestion(RULES, "bidder", bh, trump, bid, got))
    return out


def agreement(n: int, bid: int, workers: int) -> None:
    print(f"\n1. agreement with pinochle pass on {n} hands per role (bid {bid}; P(make), points on 2,000 fresh deals)")
    stats: dict[str, list[tuple[bool, bool, float, float, float, float, float, float]]] = {"partner": [],
                                                                                           "bidder": []}
    for q in _questions(n, bid):
        advice = advise(q, seed=1, workers=workers)
        best = tuple(sorted(c.index for c in advice.ranked[0].cards))
        top = [tuple(sorted(c.index for c in j.cards)) for j in advice.ranked]
        mine = _policy(q)
        judge = Judge(q)
        made, points = _judge(judge, [best, mine, judge.heuristic()], 2000, 2)
        pm, pts = made.mean(axis=1), points.mean(axis=1)
        stats[q.role].append((mine == best, mine in top, *pm.tolist(), *pts.tolist()))
        print(f"  {q.role:7} {format_cards(q.hand):56} {q.trump.letter}: advice {_cards(best):14} policy "
              f"{_cards(mine):14} P(make) {100 * pm[0]:5.1f} / {100 * pm[1]:5.1f} / heuristic {100 * pm[2]:5.1f} %")
    for role, rows in stats.items():
        a = np.array(rows, dtype=np.float64)
        print(f"  {role}: the same pass {int(a[:, 0].sum())}/{len(a)}, in the advice's top 5 {int(a[:, 1].sum())}/"
              f"{len(a)}; mean P(make) advice {100 * a[:, 2].mean():.1f} %, policy {100 * a[:, 3].mean():.1f} %, "
              f"heuristic {100 * a[:, 4].mean():.1f} %; mean points {a[:, 5].mean():.1f} / {a[:, 6].mean():.1f} / "
              f"{a[:, 7].mean():.1f}")


def six() -> None:
    print("\n2. docs/estimate.md's six hands (seed 1, 4,000 deals): P(make) heuristic / policy / advice, policy - "
          "heuristic")
    for role, text, trump, bid, received, advised in SIX:
        q = PassQuestion(RULES, role, RULES.deck.check(parse_cards(text)), trump, bid,
                         RULES.deck.check(parse_cards(received)) if received else None)
        judge = Judge(q)
        adv = tuple(sorted(c.index for c in parse_cards(advised)))
        cands = [judge.heuristic(), _policy(q), adv]
        made, points = _judge(judge, cands, 4000, 1)
        d = made[1].astype(float) - made[0]
        half = Z95 * d.std(ddof=1) / math.sqrt(len(d))
        pm = made.mean(axis=1)
        print(f"  {role:7} {text:50} {trump.letter} {bid}: {_cards(cands[0])} {100 * pm[0]:.1f} % / "
              f"{_cards(cands[1])} {100 * pm[1]:.1f} % / {_cards(adv)} {100 * pm[2]:.1f} %; change "
              f"{100 * d.mean():+.1f} ({100 * (d.mean() - half):.1f} – {100 * (d.mean() + half):.1f}); points "
              f"{points[0].mean():.1f} / {points[1].mean():.1f} / {points[2].mean():.1f}")


def estimates(workers: int) -> None:
    print("\n3. estimate, 4,000 deals, seed 1: recommended bid, P(make) there, side's meld (heuristic | advised)")
    for text, trump in BIDDERS:
        out = []
        for policy in ("heuristic", "advised"):
            start = time.perf_counter()
            e = estimate(RULES, parse_cards(text), trump=trump, samples=4000, seed=1, workers=workers,
                         pass_policy=policy)
            s = e.suits[0]
            rec = next((c for c in s.bids if c.bid == s.recommended_bid), None)
            p = f"{100 * rec.p_make:.1f} %" if rec else "-"
            out.append(f"{s.recommended_bid} {p} meld {s.meld_mean:.1f} ({time.perf_counter() - start:.2f} s)")
        print(f"  {text} {trump.letter}: " + " | ".join(out))


def cost() -> None:
    print("\n4. the exchange of 2,000 deals (one process), per deal: heuristic compiled, advised numpy")
    hand = RULES.deck.check(parse_cards(BIDDERS[0][0]))
    for policy in ("heuristic", "advised"):
        sim = Simulator(RULES, hand, [Suit.H], policy)
        rng = np.random.default_rng(1)
        times = []
        # the first of 5 loads the compiled player (untimed)
        for k in range(5):
            others = sim.deal(rng, 500)
            slots = np.empty((500, 4, 12), dtype=np.int64)
            slots[:, 0] = sim.hand_cards
            slots[:, 1:] = others
            trump = np.full(500, int(Suit.H))
            start = time.perf_counter()
            assert sim.partner is not None
            sim.exchange_cards(slots, trump, sim.partner, 4)
            if k:
                times.append(time.perf_counter() - start)
        print(f"  {policy:9}: {1e6 * sum(times) / 2000:8.1f} µs a deal")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--bid", type=int, default=300)
    parser.add_argument("--skip-agreement", action="store_true")
    args = parser.parse_args()
    print(f"cores available: {available_cores()} (os.cpu_count {os.cpu_count()}); workers {args.workers}; load "
          f"{os.getloadavg()[0]:.1f}")
    cost()
    six()
    estimates(args.workers)
    if not args.skip_agreement:
        agreement(args.hands, args.bid, args.workers)


if __name__ == "__main__":
    main()
