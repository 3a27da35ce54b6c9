"""``pinochle pass --bury``: the bidder's bury advice, read from the command line and shown (``passing.bury``)."""

from __future__ import annotations

import click

from ..cards import Card, Hand, Suit, format_cards
from ..errors import CardError
from ..estimate.conditions import Given
from ..passing.bury import BuryAdvice, BuryQuestion, advise_bury
from ..passing.burywords import bidders
from ..ruleset import Ruleset
from .common import fitted, heading, narrow, read_cards, why_lines
from .pass_view import conditions_line, margin_line, ranking_table, rounds_line, run_advice

__all__ = ["bury_answer"]


def _hand(rules: Ruleset, cards: list[Card], widow: str | None) -> tuple[Hand, Hand | None]:
    """The bidder's hand with the widow (CARDS, or CARDS and --widow), and the widow when given."""
    hand = rules.deck.check(cards)
    if widow is None:
        return hand, None
    got = read_cards(widow, "--widow")
    try:
        return rules.deck.check([*hand, *got]), Hand(got)
    except CardError as exc:
        raise CardError(f"--widow {format_cards(got)}: {exc} (counting CARDS with the widow)") from None


def bury_answer(rules: Ruleset, cards: list[Card], trump: Suit, bid: int, widow: str | None, given: tuple[Given, ...],
                samples: int, top: int, seed: int | None, workers: int | None, as_json: bool) -> None:
    """Ask the bury question (``given``: the conditions of --auction and --given) and print the answer."""
    hand, got = _hand(rules, cards, widow)
    q = BuryQuestion(rules, hand, trump, bid, got, given)
    run_advice(lambda count, progress: advise_bury(q, samples=samples, top=top, seed=seed, workers=count,
                                                   progress=progress), workers, as_json, _human)


def _human(advice: BuryAdvice) -> None:
    q = advice.question
    say = [f"{heading(q.rules, q.trump)}, bid {q.bid}: the bidder's bury",
           f"hand: {format_cards(q.hand)}" + (f" (widow {format_cards(q.widow)})" if q.widow is not None else "")]
    conditions = conditions_line(advice, q.given)
    if conditions is not None:
        say.append(conditions)
    forced = ", each forced to bury cards the rules keep back otherwise" if advice.forced else ""
    say.append(f"{advice.candidates} buries of {q.size}{forced} on common sampled deals (seed {advice.seed}): "
               f"{rounds_line(advice)}")
    for line in say:
        click.echo(fitted(line))
    click.echo("")
    click.echo(ranking_table(advice, "bury"))
    who = bidders(q.rules)
    means = "" if narrow() else f"; meld, counters: {who}'s means"
    for line in (f"points: what the contract scores {who}, a deal on average (made: meld + counters; set: minus the "
                 "bid)",
                 "change: P(make) against the heuristic's own bury (h) on the same deals, in percentage "
                 f"points{means}"):
        click.echo(fitted(line))
    click.echo("")
    for i, j in enumerate(advice.ranked, 1):
        click.echo(fitted(f"{i}. {format_cards(j.cards)}: {j.words.text('buries')}"))
    click.echo(fitted(margin_line(advice, "bury")))
    why_lines(advice.reasons)
