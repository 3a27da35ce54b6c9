"""``pinochle estimate``: Monte Carlo bid safety for a bidder's hand (the model: docs/estimate.md)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

import click

from ..cards import Hand, Suit, parse_cards
from ..estimate.checks import (
    DEFAULT_CONFIDENCE,
    DEFAULT_SAMPLES,
    MAX_SAMPLES,
    MIN_PRECISION,
    PASS_POLICIES,
    estimable_trumps,
)
from ..estimate.results import Estimate
from ..estimate.simulate import estimate as run_estimate
from ..estimate.why import estimate_reasons
from ..meld import check_cards
from ..ruleset import Ruleset
from ..workers import workers_for
from . import double_dummy_view as perfect_view
from . import estimate_auction_view as auction_view
from .common import (
    CONTEXT_SETTINGS,
    condition_options,
    emit_json,
    get_ruleset,
    get_trump,
    json_option,
    ruleset_options,
    trump_option,
    words,
)
from .estimate_view import no_trump_note, show_estimate
from .progress import Progress, ready_engine

# the solver (and numba) are imported only for --play double-dummy
if TYPE_CHECKING:
    from ..estimate.double_dummy import Cost, PerfectPlay


@click.command("estimate", context_settings=CONTEXT_SETTINGS)
@click.argument("cards", nargs=-1, required=True)
@trump_option()
@ruleset_options
@click.option("--samples", type=click.IntRange(min=1), default=DEFAULT_SAMPLES, show_default=True,
              help="Deals to sample (more with --precision).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed for the sampler [default: one derived from the hand, game and options, so the same "
                   "question gets the same answer; reported in the output].")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes to use [default: every core]. The answer does not depend on it.")
@click.option("--precision", type=click.FloatRange(MIN_PRECISION, 0.5, max_open=True), default=None,
              metavar="H", help=f"Keep sampling until every interval's half-width is at most H "
                                f"(stops at {MAX_SAMPLES} deals).")
@click.option("--confidence", "--risk", "confidence", type=click.FloatRange(0, 1), default=DEFAULT_CONFIDENCE,
              show_default=True, help="The bidding rule's threshold: the recommended bid is the highest whose P(make) "
                                      "clears it (--by points: the best expected points instead).")
@click.option("--ladder", is_flag=True, help="Also print each suit's P(make) at every bid.")
@click.option("--play", "play", type=click.Choice(["heuristic", "double-dummy"]), default="heuristic",
              show_default=True, help="double-dummy: also play the same deals perfectly (every hand seen) and show "
                                      "P(make) under both play models, bid by bid. Slow: the cost is printed first.")
@click.option("--exact-from", type=int, default=None, metavar="TRICK",
              help="With --play double-dummy: the heuristic plays the tricks before TRICK, perfect play the rest "
                   "[default: 1, every trick].")
@click.option("--chart", is_flag=True, help="Also draw P(make) against the bid for each suit, each suit's "
              "recommended bid marked (letters where the terminal cannot print the symbols).")
@condition_options(
    given="What is known of an unseen hand (repeatable): WHO partner, left or right; CONDITION 'meld OP N', "
          "'holds CARDS', 'lacks CARDS', 'aces OP N' (any rank), 'hearts OP N' (any suit) or 'counters OP N', "
          "joined with 'and'; OP one of >= > <= < ==. Deals are drawn meeting them exactly.",
    auction="The calls so far, from the dealer's left: pass or a bid each (e.g. '250 pass 300'); the "
            "conventions turn each into conditions on the caller's hand. Needs --dealer.",
    dealer="Who dealt (with --auction).")
@click.option("--as", "view", type=click.Choice(["bidder", "partner"]), default=None,
              help="bidder: CARDS is the bidder's hand [default]; partner: CARDS is the bidder's partner's, the "
                   "bidder's hand is drawn and names trump by the heuristic.")
@click.option("--by", "by", type=click.Choice(["confidence", "points"]), default=None,
              help="What the recommendation follows: the highest bid made at least --confidence of the time "
                   "[default], or the expected points of each call.")
@click.option("--pass", "pass_policy", type=click.Choice(PASS_POLICIES), default=None,
              help="How the partner passes and the bidder returns: heuristic (a fixed rule) or advised (each deal's "
                   "best by meld kept and trumps and aces passed, as pinochle pass advises; numpy, before the play) "
                   "[default: heuristic].")
@click.option("--brief", is_flag=True, hidden=True, help="The summary only (the default).")
@json_option
def estimate(cards: tuple[str, ...], trump: str | None, ruleset: str | None, options: tuple[str, ...],
             samples: int, seed: int | None, workers: int | None, precision: float | None, confidence: float,
             ladder: bool, play: str, exact_from: int | None, chart: bool, given: tuple[str, ...], calls: str | None,
             dealer: str | None, conventions_file: str | None, view: str | None, by: str | None,
             pass_policy: str | None, brief: bool,
             as_json: bool) -> None:
    """How safe is each bid with this hand? Monte Carlo over deals of the unseen cards.

    CARDS is the bidder's full hand. Every suit the bidder may name is played out on the same
    sampled deals (partner's pass and the return, meld, all tricks by a heuristic player);
    P(make) of each bid comes with its 95 % Wilson interval; the summary gives each suit's
    recommended bid, --ladder the chance of every bid. The same seed gives the same answer
    whatever --workers is. A hand with no suit it may name prints no suits (best: null).
    --play double-dummy adds perfect play on the same deals, beside the heuristic.

    In a game with a widow (three-handed), CARDS is the bidder's hand before it: each deal samples the widow
    too; the bidder takes it, melds and buries (never a card the ruleset forbids) and plays. A suit's row
    names that suit whatever the widow brings; one more line gives the bid of the bidder who names the suit
    after seeing the widow.

    In an auction: --given states what is known of the unseen hands, --auction and --dealer the calls so
    far (each read as conditions by the conventions); --as partner estimates for the bidder's partner.
    With any of these, each bid also gets its expected points (our side minus theirs), pass the same when
    the high bidder plays at the current bid, and --by picks whether the recommendation follows
    confidence or points.

    The computer player is compiled (numba): the first command that needs it after an install builds
    it, about half a minute on two cores (`pinochle prepare` does it ahead).
    """
    ready_engine()
    rules = get_ruleset(ruleset, options)
    suit = get_trump(trump, rules)
    hand = check_cards(rules, parse_cards(" ".join(cards)))
    question = _question(given, calls, dealer, conventions_file, view, by, chart, as_json, pass_policy)
    if question is not None:
        auction_view.run(rules, hand, suit, question, samples=samples, seed=seed, workers=workers,
                         precision=precision, confidence=confidence, ladder=ladder and not brief, play=play,
                         as_json=as_json, progress=Progress())
        return
    exact = _exact_from(rules, hand, suit, play, exact_from, precision)
    count, notice = workers_for(workers)
    if notice:
        click.echo(f"Note: {words(notice)}.", err=True)
    progress = Progress()
    try:
        result = run_estimate(rules, hand, trump=suit, samples=samples, seed=seed, workers=count, precision=precision,
                              confidence=confidence, progress=progress, pass_policy=pass_policy or "heuristic")
    finally:
        progress.close()
    perfect = None if exact is None else _perfect(rules, result, exact, count, confidence)
    if as_json:
        _emit(result, rules, perfect)
    else:
        show_estimate(result, rules, confidence, ladder and not brief)
        if chart:
            _chart(result)
        if perfect is not None:
            perfect_view.show(perfect)


def _question(given: tuple[str, ...], calls: str | None, dealer: str | None, conventions_file: str | None,
              view: str | None, by: str | None, chart: bool, as_json: bool,
              pass_policy: str | None) -> auction_view.AuctionOptions | None:
    """The auction's question when any of its options is given (None: the plain estimate); the options that do
    not go together refused."""
    if chart and as_json:
        raise click.UsageError("--chart draws the estimate; it does not go with --json")
    if not (given or calls is not None or dealer is not None or conventions_file or view or by):
        return None
    for flag, given_too in (("--chart", chart), ("--pass", pass_policy is not None)):
        if given_too:
            raise click.UsageError(f"{flag} goes with the estimate without an auction; leave it out with --given, "
                                   "--auction, --dealer, --conventions, --as and --by")
    return auction_view.AuctionOptions(given, calls, dealer, conventions_file, view or "bidder", by or "confidence")


def _chart(result: Estimate) -> None:
    from ..charts.bids import bids_chart
    from .chart_view import chart_glyphs, chart_width

    click.echo("")
    click.echo("\n".join(bids_chart(result, chart_width(), chart_glyphs())))


def _emit(result: Estimate, rules: Ruleset, perfect: PerfectPlay | None) -> None:
    """The ``--json`` document of an estimate (with the double-dummy figures when played)."""
    doc: dict[str, Any] = result.to_json()
    doc["reasons"] = [r.to_json() for r in estimate_reasons(result)]
    if not result.suits:
        doc["note"] = no_trump_note(rules)
    if perfect is not None:
        doc["double_dummy"] = perfect.to_json()
    emit_json(doc)


def _exact_from(rules: Ruleset, hand: Hand, suit: Suit | None, play: str, exact_from: int | None,
                precision: float | None) -> int | None:
    """The first trick played perfectly (None: heuristic play only), the options checked together."""
    if play == "heuristic":
        if exact_from is not None:
            raise click.UsageError(f"--exact-from {exact_from} needs --play double-dummy")
        return None
    if precision is not None:
        raise click.UsageError("--precision does not combine with --play double-dummy: every perfect-play deal "
                               "costs a solve, so give the number of deals with --samples")
    from ..estimate.double_dummy import check_exact_from

    # the game's own refusals (no auction, a stock) first
    estimable_trumps(rules, hand, suit)
    if exact_from is None:
        check_exact_from(rules, 1, "--play double-dummy")
        return 1
    check_exact_from(rules, exact_from)
    return exact_from


def _perfect(rules: Ruleset, result: Estimate, exact_from: int, workers: int, confidence: float) -> PerfectPlay:
    from ..estimate.double_dummy import perfect_play

    progress = Progress("solves")
    # not before the cost is told
    progress.enabled = False
    # a first solve can take a while
    if sys.stderr.isatty():
        click.echo("Perfect play: timing the first solves to tell the cost (Ctrl-C stops)…", err=True)

    def tell(cost: Cost) -> None:
        click.echo(perfect_view.cost_notice(cost), err=True)
        progress.resume(cost.probed)

    try:
        return perfect_play(rules, result.hand, [s.trump for s in result.suits], samples=result.samples,
                            seed=result.seed, exact_from=exact_from, workers=workers, confidence=confidence,
                            progress=progress, on_cost=tell)
    finally:
        progress.close()

