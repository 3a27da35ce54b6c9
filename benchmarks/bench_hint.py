"""How often is the simulator's heuristic card the hint's best, and what does it give away?

Single-deck, trump ♠, no exchange, seat 0 leads. For each of ``--positions`` random deals, the
heuristic player (estimate/players.py) plays every seat for a random number of tricks (3 to 9)
and a random number of cards of the next one; then the player to move asks for a hint (every
seat's meld shown, the tricks so far; ``--worlds`` worlds, no bid: the objective is the side's
points for the deal, its meld kept and its counters). The figures: the share of positions where
the heuristic's card is among the hint's best (a tie counts), the mean points (by the hint's view)
the heuristic's card gives away, and the same with only the positions with a real choice.

    .venv/bin/python benchmarks/bench_hint.py [--positions 200] [--worlds 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pinochle_cli.estimate.players import PlayTables, choose_batch

from pinochle_cli.cards import ALL_CARDS, Hand, Suit
from pinochle_cli.game.tricks import trick_winner
from pinochle_cli.hint.advice import hint
from pinochle_cli.hint.facts import make_facts, shown_cards
from pinochle_cli.ruleset import load_ruleset
from pinochle_cli.workers import available_cores

TRUMP = Suit.S


def heuristic_card(tab: PlayTables, hands: list[list[int]], played: list[int], void: np.ndarray, seat: int,
                   trick: list[int], leader: int) -> int:
    """The heuristic's card for ``seat`` (trump ♠ is suit 0: canonical and real indices agree)."""
    return int(choose_batch(tab, "heuristic", np.array([hands[seat]]), np.array([played]), void[None], np.array([seat]),
                            np.array([trick], dtype=np.int64).reshape(1, len(trick)), np.array([leader]))[0])


def position(rules, tab: PlayTables, rng: random.Random):
    """A random deal played by the heuristic to a random point: the hands, tricks, current trick, leaders."""
    cards = rules.deck.cards()
    rng.shuffle(cards)
    size = rules.hand_size
    dealt = [Hand(cards[s * size:(s + 1) * size]) for s in range(rules.players)]
    hands = [list(h.counts) for h in dealt]
    played = [0] * 24
    void = np.zeros((rules.players, 4), dtype=bool)
    tricks: list[list] = []
    leader = 0
    stop_trick, stop_place = rng.randrange(3, 10), rng.randrange(rules.players)
    for t in range(stop_trick + 1):
        trick: list[int] = []
        for k in range(rules.players):
            seat = (leader + k) % rules.players
            if t == stop_trick and k == stop_place:
                return dealt, hands, played, void, tricks, trick, leader, seat
            card = heuristic_card(tab, hands, played, void, seat, trick, leader)
            if trick and ALL_CARDS[card].suit != ALL_CARDS[trick[0]].suit:
                void[seat, int(ALL_CARDS[trick[0]].suit)] = True
                if ALL_CARDS[card].suit != TRUMP:
                    void[seat, 0] = True
            hands[seat][card] -= 1
            played[card] += 1
            trick.append(card)
        tricks.append([ALL_CARDS[c] for c in trick])
        leader = (leader + trick_winner(rules, tricks[-1], TRUMP)) % rules.players
    raise AssertionError("unreachable")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rules = load_ruleset("single-deck")
    tab = PlayTables.build(rules)
    rng = random.Random(args.seed)
    print(f"cores available: {available_cores()} (one used); single-deck, trump ♠, {args.positions} positions, "
          f"{args.worlds} worlds each")
    agree = choices = agree_choices = 0
    lost: list[float] = []
    lost_choices: list[float] = []
    start = time.perf_counter()
    for _ in range(args.positions):
        dealt, hands, played, void, tricks, trick, leader, seat = position(rules, tab, rng)
        shown = {s: shown_cards(rules, dealt[s], TRUMP) for s in range(rules.players)}
        facts = make_facts(rules, TRUMP, Hand.from_counts(hands[seat]), seat=seat, shown=shown, tricks=tricks,
                           leader=0, trick=[ALL_CARDS[c] for c in trick])
        mine = ALL_CARDS[heuristic_card(tab, hands, played, void, seat, trick, leader)]
        answer = hint(facts, worlds=args.worlds, seconds=600, workers=1)
        points = {j.card: j.points for j in answer.cards}
        gap = max(points.values()) - points[mine]
        agree += gap <= 1e-9
        lost.append(gap)
        if len(points) > 1:
            choices += 1
            agree_choices += gap <= 1e-9
            lost_choices.append(gap)
    seconds = time.perf_counter() - start
    n = args.positions
    print(f"heuristic card among the hint's best: {agree}/{n} = {100 * agree / n:.1f}%; "
          f"with a choice of cards: {agree_choices}/{choices} = {100 * agree_choices / max(choices, 1):.1f}%")
    print(f"points given away (the hint's view), mean: {np.mean(lost):.2f} over all positions, "
          f"{np.mean(lost_choices):.2f} with a choice; median with a choice {np.median(lost_choices):.1f}")
    print(f"{seconds:.0f} s ({seconds / n:.2f} s a position)")


if __name__ == "__main__":
    main()
