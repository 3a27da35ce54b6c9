"""``pinochle pass``: which cards to pass, ranked by what they do to the contract (the method: docs/estimate.md)."""

from __future__ import annotations

import click

from ..cards import Hand, format_cards
from ..estimate.conditions import Given
from ..passing.judge import ROLES, PassQuestion, auction_givens
from ..passing.race import DEFAULT_SAMPLES, DEFAULT_TOP, MAX_SAMPLES, Advice, advise
from ..ruleset import Ruleset, load_conventions
from .common import (
    CONTEXT_SETTINGS,
    condition_options,
    fitted,
    get_ruleset,
    get_trump,
    heading,
    json_option,
    narrow,
    read_cards,
    ruleset_options,
    trump_option,
    why_lines,
)
from .pass_view import conditions_line, final_line, margin_line, ranking_table, rounds_line, run_advice
from .progress import ready_engine


def _human(advice: Advice) -> None:
    q = advice.question
    who = "the partner's pass to the bidder" if q.role == "partner" else "the bidder's return to the partner"
    say = [f"{heading(q.rules, q.trump)}, bid {q.bid}: {who}", f"hand: {format_cards(q.hand)}"]
    conditions = conditions_line(advice, q.given)
    if conditions is not None:
        say.append(conditions)
    say.append(f"{advice.candidates} passes of {q.size} on common sampled deals (seed {advice.seed}): "
               f"{rounds_line(advice)}")
    for line in say:
        click.echo(fitted(line))
    click.echo("")
    click.echo(ranking_table(advice, "pass"))
    means = "" if narrow() else "; meld, counters: the side's means"
    for line in ("points: what the contract scores the bidding side, a deal on average (made: meld + counters; set: "
                 "minus the bid)",
                 "change: P(make) against the heuristic's own pass (h) on the same deals, in percentage "
                 f"points{means}"):
        click.echo(fitted(line))
    click.echo("")
    verb = "sends" if q.role == "partner" else "returns"
    for i, j in enumerate(advice.ranked, 1):
        click.echo(fitted(f"{i}. {format_cards(j.cards)}: {j.words.text(verb)}"))
    if advice.final is not None:
        click.echo(fitted(final_line(advice)))
    click.echo(fitted(margin_line(advice)))
    why_lines(advice.reasons)


def _givens(rules: Ruleset, role: str, bid: int, given: tuple[str, ...], calls: str | None, dealer: str | None,
            conventions_file: str | None) -> tuple[Given, ...]:
    """The conditions of --auction (first) and --given."""
    if calls is None and (dealer is not None or conventions_file is not None):
        raise click.UsageError(f"{'--dealer' if dealer is not None else '--conventions'} needs --auction")
    shown: tuple[Given, ...] = ()
    if calls is not None:
        if dealer is None:
            raise click.UsageError("--auction needs --dealer (who dealt: me, left, partner or right)")
        conventions = load_conventions(conventions_file) if conventions_file is not None else rules.conventions
        shown = auction_givens(rules, role, bid, calls, dealer, conventions)
    return (*shown, *(Given.parse(text) for text in given))


def _bury_alone(received: str | None) -> None:
    """``UsageError`` for the options of a pass that --bury does not take (--as given, --received)."""
    ctx = click.get_current_context()
    if ctx.get_parameter_source("role") not in (None, click.core.ParameterSource.DEFAULT):
        raise click.UsageError("--bury does not go with --as: the bidder buries (CARDS is the bidder's hand)")
    if received is not None:
        raise click.UsageError("--bury does not go with --received: the bury is the bidder's, from the hand and the "
                               "widow")


@click.command("pass", context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True)
@trump_option(required=True)
@click.option("--bid", type=int, required=True, help="The bid the bidder made.")
@click.option("--as", "role", type=click.Choice(ROLES), default="partner", show_default=True,
              help="partner: CARDS is the partner's hand, which cards to send; bidder: CARDS is the bidder's hand "
                   "after receiving the pass (or before it, with --received), which cards to return.")
@click.option("--received", default=None, metavar="CARDS", help="With --as bidder: the cards the partner sent "
                                                                 "(CARDS is then the hand as dealt).")
@click.option("--bury", "bury", is_flag=True, default=False,
              help="A game with a widow: which cards the bidder buries. CARDS is the bidder's hand with the widow "
                   "taken, or the hand as dealt with --widow.")
@click.option("--widow", default=None, metavar="CARDS", help="With --bury: the widow's cards (CARDS is then the "
                                                              "hand as dealt).")
@condition_options(
    given="What is known of another hand (repeatable), as estimate --given has it; WHO partner, left or "
          "right of the player passing (as the partner, the bidder is 'partner'). Deals are drawn meeting "
          "them exactly (as the bidder, with --received).",
    auction="The auction's calls from the dealer's left up to the last pass, the last bid the bidder's --bid; "
            "the conventions turn each into conditions. Needs --dealer.",
    dealer="Who dealt (with --auction), seen from the player passing.")
@ruleset_options
@click.option("--samples", type=click.IntRange(1, MAX_SAMPLES), default=DEFAULT_SAMPLES, show_default=True,
              help="Deals the last candidates are played on (the first round plays every pass on 200, or 100 "
                   "when there are more than 1,000).")
@click.option("--top", type=click.IntRange(min=1), default=DEFAULT_TOP, show_default=True,
              help="Passes to show.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed for the sampler [default: one derived from the question; reported].")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes to use [default: every core]. The answer does not depend on it.")
@json_option
def pass_(cards: tuple[str, ...], trump: str, bid: int, role: str, received: str | None, bury: bool,
          widow: str | None, given: tuple[str, ...], calls: str | None, dealer: str | None,
          conventions_file: str | None, ruleset: str | None, options: tuple[str, ...], samples: int, top: int,
          seed: int | None, workers: int | None, as_json: bool) -> None:
    """Which cards to pass: every distinct pass, ranked by what it does to the contract on common deals.

    Every pass of the game's size (495 of 12 cards, fewer when cards are doubled) is played on
    the same sampled deals as estimate plays them (pass, return, meld, every trick by the
    heuristic players); the best in each round get more deals, the last ones --samples. The
    answer ranks them by the points the contract scores the bidding side (made: meld +
    counters; set: minus the bid), with P(make) and its 95 % interval, says how far the best
    is ahead of the next (or that they are within the noise), the change against the heuristic
    pass estimate uses, and in words what each pass keeps and gives.
    The same seed gives the same answer whatever --workers is. Games without a pass refuse.
    About 5 to 10 seconds on two cores with the compiled engine built (estimate --help says when),
    two or three times that with numpy.

    With --bury (a game with a widow) the candidates are the bidder's buries instead: every
    distinct set of the widow's size the ruleset lets the bidder bury, played the same way.
    """
    ready_engine()
    rules = get_ruleset(ruleset, options)
    suit = get_trump(trump, rules)
    assert suit is not None
    read = read_cards(" ".join(cards), "CARDS")
    if bury:
        _bury_alone(received)
        # the bury's own module: loaded only when asked
        from .pass_bury import bury_answer

        givens = _givens(rules, "bidder", bid, given, calls, dealer, conventions_file)
        bury_answer(rules, read, suit, bid, widow, givens, samples, top, seed, workers, as_json)
        return
    if widow is not None:
        raise click.UsageError("--widow needs --bury (the widow is the bidder's to bury from)")
    hand = rules.deck.check(read)
    got = None
    if received is not None:
        if role != "bidder":
            raise click.UsageError("--received needs --as bidder (the partner sends, the bidder receives)")
        got = rules.deck.check(read_cards(received, "--received"))
        hand = rules.deck.check([*hand, *got])
    givens = _givens(rules, role, bid, given, calls, dealer, conventions_file)
    q = PassQuestion(rules, role, Hand(hand), suit, bid, Hand(got) if got is not None else None, givens)
    run_advice(lambda count, progress: advise(q, samples=samples, top=top, seed=seed, workers=count,
                                              progress=progress), workers, as_json, _human)
