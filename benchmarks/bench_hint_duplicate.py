"""The hint against an earlier revision's hint over duplicate boards: the same deals played both ways.

    python benchmarks/bench_hint_duplicate.py [--boards 400] [--from-trick 1] [--time 0.5] [--baseline REV]
                                              [--ruleset single-deck] [--seed 1] [--jobs 2] [--out FILE]

Each board is a deal from a fixed seed: the bidder (seat ``board % players``) names its best meld suit
(one it may name) at the minimum bid, every seat shows its meld, and play starts (no exchange). The
board is played four times: each side in turn has its seats play by a hint from trick ``--from-trick``
on — this checkout's (``.``) or the baseline revision's (``--baseline``, default: the commit before the
hint was made to keep its time; run in a worker of that revision, ``revisions.py``) — while every other
card is the computer player's (this checkout's, the same in all four plays). Both hints get ``--time``
seconds a card and one core. The figures: per hint, the mean counters per board its side took (over both
sides' turns), with a 95 % interval; the mean paired difference (this hint's minus the baseline's on the
same board and side) with its interval; and the seconds and worlds per card. Boards run on ``--jobs``
processes (each hint on one core, so the two never share one). Prints the machine's cores first.
With ``--out FILE`` each board's result is appended to FILE (JSON Lines) as it ends, and the boards
already there are not played again: a long run stopped part way goes on where it stopped (the same
options), and the figures are over every board in the file.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import os
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from common import machine  # noqa: E402
from revisions import Revision  # noqa: E402

from pinochle_cli.game.deal import deal_cards  # noqa: E402
from pinochle_cli.game.state import DealState  # noqa: E402
from pinochle_cli.hint.advice import hint_facts  # noqa: E402
from pinochle_cli.hint.facts import Facts, facts_of  # noqa: E402
from pinochle_cli.meld import meld, shown_cards  # noqa: E402
from pinochle_cli.player.seat import computer_card  # noqa: E402
from pinochle_cli.ruleset import Ruleset, load_ruleset  # noqa: E402

# the commit before the hint was made to keep its time (its hint solves every world exactly)
BASELINE = "024efb1f53a968bd85a253b1c60d90dbc589a25e~1"


def board(rules: Ruleset, number: int, seed: int) -> DealState:
    """Board ``number``: the deal, the contract and the meld shown, at its first card."""
    hands, _ = deal_cards(rules, np.random.default_rng([seed, number]))
    bidder = number % rules.players
    suits = rules.eligible_trumps(hands[bidder]) or list(rules.suits)
    trump = max(suits, key=lambda s: meld(rules, hands[bidder], s).total)
    melders = [bidder] if rules.melders == "bidder" else range(rules.players)
    shown = {s: shown_cards(rules, hands[s], trump) for s in melders}
    bid = rules.auction.minimum if rules.auction is not None else None
    return DealState.at_play(rules, trump, bidder=bidder, bid=bid, hands=hands, shown=shown)


def _view(facts: Facts) -> dict[str, Any]:
    """The seat's view as card text, for a revision's worker."""
    def text(cards: Any) -> str:
        return " ".join(c.ascii() for c in cards)
    return {"trump": facts.trump.letter, "hand": text(facts.hand), "seat": facts.seat, "bidder": facts.bidder,
            "bid": facts.bid, "shown": {str(s): text(h) for s, h in facts.shown.items()},
            "tricks": [text(t) for t in facts.tricks], "leader": facts.leaders[0] if facts.leaders else facts.leader,
            "trick": text(facts.trick)}


def play(state: DealState, side: int, engine: Revision | None, a: argparse.Namespace) -> tuple[int, list[float],
                                                                                                list[int]]:
    """The board played with ``side``'s seats hinted by ``engine`` (None: this checkout) from ``a.from_trick``:
    that side's counters, and the hints' seconds and worlds."""
    rules = state.rules
    assert state.bidder is not None
    seats = rules.deal_sides(state.bidder)[side]
    seconds, worlds = [], []
    while state.stage == "play":
        seat = state.turn.seat
        assert seat is not None
        if seat in seats and state.trick_number >= a.from_trick and len(state.legal_plays()) > 1:
            facts = facts_of(state, seat)
            if engine is None:
                start = time.monotonic()
                answer = hint_facts(facts, seconds=a.time, seed=a.seed, workers=1)
                card, spent, n = answer.best.ascii(), time.monotonic() - start, len(answer.worlds)
            else:
                card, spent, n = engine.hint(rules, _view(facts), seconds=a.time, seed=a.seed)
            seconds.append(spent)
            worlds.append(n)
            state.play(card)
        else:
            state.play(computer_card(state))
    counters = state.counters()
    return sum(counters[s] for s in seats), seconds, worlds


def _boards(job: tuple[list[int], argparse.Namespace]) -> list[dict[str, Any]]:
    numbers, a = job
    if not numbers:
        return []
    rules = load_ruleset(a.ruleset)
    out = []
    with Revision(a.baseline) as old:
        for number in numbers:
            row: dict[str, Any] = {"board": number}
            for side in range(2):
                for name, engine in (("new", None), ("old", old)):
                    took, seconds, worlds = play(board(rules, number, a.seed), side, engine, a)
                    row[f"{name}{side}"] = took
                    row.setdefault(f"{name}_seconds", []).extend(seconds)
                    row.setdefault(f"{name}_worlds", []).extend(worlds)
            out.append(row)
            if a.out:
                with open(a.out, "a", encoding="utf-8") as f:
                    f.write(json.dumps(row) + "\n")
            print(f"  board {number}: new {row['new0']}/{row['new1']}  old {row['old0']}/{row['old1']}", flush=True)
    return out


def _done(path: str | None) -> dict[int, dict[str, Any]]:
    """The boards already played into ``path`` (none when it is None or absent)."""
    if path is None or not Path(path).exists():
        return {}
    rows = [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]
    return {int(r["board"]): r for r in rows}


def _interval(values: list[float]) -> tuple[float, float]:
    mean = float(np.mean(values))
    half = 1.96 * float(np.std(values, ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--boards", type=int, default=400)
    ap.add_argument("--from-trick", type=int, default=1)
    ap.add_argument("--time", type=float, default=0.5)
    ap.add_argument("--baseline", default=BASELINE)
    ap.add_argument("--ruleset", default="single-deck")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--out", default=None, help="JSON Lines of the boards played (resumed when it exists)")
    a = ap.parse_args()
    print(machine(f"{a.jobs} boards at once, one core each"))
    print(f"{a.ruleset}: {a.boards} boards, the hint from trick {a.from_trick}, {a.time} s a card, baseline "
          f"{a.baseline}", flush=True)
    done = _done(a.out)
    numbers = [n for n in range(a.boards) if n not in done]
    jobs = [(numbers[i::a.jobs], a) for i in range(a.jobs)]
    with multiprocessing.get_context("spawn").Pool(a.jobs) as pool:
        rows = [row for part in pool.map(_boards, jobs) for row in part]
    rows = sorted([*done.values(), *rows], key=lambda r: int(r["board"]))
    new = [float(r["new0"] + r["new1"]) / 2 for r in rows]
    old = [float(r["old0"] + r["old1"]) / 2 for r in rows]
    diff = [n - o for n, o in zip(new, old, strict=True)]
    for name, values in (("this hint", new), ("baseline", old), ("difference", diff)):
        mean, half = _interval(values)
        print(f"{name:11s} {mean:8.2f} counters a board and side "
              f"(95 % interval {mean - half:.2f} to {mean + half:.2f})")
    for name in ("new", "old"):
        seconds = [s for r in rows for s in r[f"{name}_seconds"]]
        worlds = [w for r in rows for w in r[f"{name}_worlds"]]
        print(f"{name}: {len(seconds)} hints, seconds a card: mean {np.mean(seconds):.3f}, p95 "
              f"{np.percentile(seconds, 95):.3f}, max {max(seconds):.3f}; "
              f"worlds a card: median {np.median(worlds):.0f}")


if __name__ == "__main__":
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    main()
