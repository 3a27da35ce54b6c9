"""``pinochle hint``: what to play from one seat's view, over the worlds consistent with what it saw."""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Any

import click

from ..cards import Card, Hand, format_cards
from ..errors import HintError
from ..ruleset import Ruleset
from ..workers import workers_for
from .common import (
    CONTEXT_SETTINGS,
    emit_json,
    get_ruleset,
    get_trump,
    heading,
    json_option,
    read_cards,
    ruleset_options,
    table,
    time_left,
    trump_option,
    why_lines,
    words,
)
from .progress import duration

if TYPE_CHECKING:
    from ..hint.advice import Hint
    from ..hint.facts import Facts

# a day, as solve's --time-limit
_MAX_SECONDS = 86_400


def _shown(texts: tuple[str, ...]) -> dict[int, Hand]:
    shown: dict[int, Hand] = {}
    for text in texts:
        seat, sep, cards = text.partition("=")
        if not sep or not seat.strip().lstrip("-").isdigit():
            raise HintError(f'--meld "{text}": give SEAT=CARDS, e.g. --meld "1=KH QH"')
        number = int(seat)
        if number in shown:
            raise HintError(f'--meld "{text}": seat {number} is given twice')
        shown[number] = Hand(read_cards(cards, f"--meld {number}"))
    return shown


def _tricks(text: str) -> list[list[Card]]:
    parts = text.split(";")
    if not text.strip():
        return []
    tricks = []
    for k, part in enumerate(parts):
        if not part.strip():
            raise HintError(f'--tricks "{text}": trick {k + 1} is empty (tricks are separated by ";")')
        tricks.append(read_cards(part, f"--tricks, trick {k + 1}"))
    return tricks


def _facts(rules: Ruleset, trump: str, options: dict[str, Any]) -> Facts:
    from ..hint.facts import make_facts

    suit = get_trump(trump, rules)
    assert suit is not None
    return make_facts(rules, suit, Hand(read_cards(options["hand"], "--hand")), seat=options["seat"],
                      bidder=options["bidder"], bid=options["bid"], shown=_shown(options["meld"]),
                      passed=Hand(read_cards(options["passed"], "--passed")),
                      received=Hand(read_cards(options["received"], "--received")),
                      tricks=_tricks(options["tricks"]), leader=options["leader"],
                      trick=read_cards(options["trick"], "--trick"),
                      buried=Hand(read_cards(options["buried"], "--buried")),
                      widow=Hand(read_cards(options["widow"], "--widow")))


def _percent(p: float | None) -> str:
    return "–" if p is None else f"{100 * p:.0f}%"


def _how_many(h: Hint, seed: int) -> str:
    n = len(h.worlds)
    if h.exact:
        return "Exact: the one consistent world judged." if n == 1 else f"Exact: all {n} consistent worlds judged."
    what = (f"every one of the {h.drawn} consistent worlds" if h.drawn <= h.layouts and h.layouts <= h.drawn else
            f"a uniform sample of {h.drawn} (seed {seed}) of the {h.layouts} layouts that fit the hand sizes and "
            "inferences")
    return f"{n} world{'s' if n != 1 else ''} judged of {what}."


def _why(h: Hint) -> list[str]:
    """How the judging ended, and a warning when the ranking rests on too few worlds."""
    n = len(h.worlds)
    lines = []
    if h.why == "time":
        lines.append(f"Cut short: the time ran out after {n} of {h.drawn} worlds.")
    elif h.why == "stopped":
        lines.append(f"Cut short: stopped after {n} of {h.drawn} worlds.")
    elif h.why == "enough":
        lines.append(f"Stopped after {n} worlds: the best card was clear.")
    if h.skipped:
        lines.append(f"{h.skipped} world{'s' if h.skipped != 1 else ''} given up as too costly to solve.")
    if not h.reliable:
        lines.append(f"Too few worlds ({n}) to rank the cards: the order below is unreliable.")
    return lines


def _margin(h: Hint) -> str:
    m = h.margin
    if m is None:
        return f"{h.best} is the only card you may play."
    verdict = "better beyond the noise" if m.clear else "not better beyond the noise"
    line = (f"{h.best} leads {m.second} by {m.mean:.1f} points over the same {len(h.worlds)} worlds "
            f"(95 % interval {m.low:.1f} to {m.high:.1f}): {verdict}.")
    also = also_within_noise(h)
    return line + ("\n" + also if also else "")


def also_within_noise(h: Hint) -> str | None:
    """The cards beside the next that are as good as the best within the noise (any of them may be played), in
    words; None when there are none."""
    also = [x for x in h.leads[1:] if not x.clear]
    if not also:
        return None
    return f"Also within the noise of {h.best}: " + ", ".join(
        f"{x.second} ({x.mean:.1f} behind, 95 % {x.low:.1f} to {x.high:.1f})" for x in also) + "."


def _show(facts: Facts, h: Hint, seed: int, show_worlds: bool) -> None:
    trick = f"; on the trick: {format_cards(facts.trick)} (led by seat {facts.leader})" if facts.trick else ""
    bid = f"; seat {facts.bidder} bid {facts.bid}" if facts.bid is not None else ""
    click.echo(f"{heading(facts.rules, facts.trump)}{bid}; seat {h.to_play} to play to trick {facts.trick_number}"
               f"{trick}")
    if len(facts.widow):
        click.echo(f"The widow, seat {facts.bidder}'s at the meld: {format_cards(facts.widow)}.")
    click.echo(_how_many(h, seed))
    click.echo(f"Each card {h.plan}.")
    for line in _why(h):
        click.echo(line)
    n = len(h.worlds)
    how = "exact" if h.method == "exact" else "estimate"
    rows = [[f"{j.card}{' *' if j.card == h.best else ''}", f"{j.points:.1f}", _percent(j.p_make),
             f"{j.counters:.1f}", f"{j.best_in} of {n}", how] for j in h.cards]
    click.echo(table(rows, headers=["card", "points", "P(make)", "counters", "best in", "how"],
                     colalign=("left", "right", "right", "right", "right", "left")))
    click.echo("points: our side's score minus theirs for the deal; counters: what our side takes from here on.")
    click.echo(_margin(h))
    why_lines(h.reasons)
    if h.inferences:
        click.echo("What the play showed:")
        for said in dict.fromkeys(i.says for i in h.inferences):
            click.echo(f"  {said}")
    if show_worlds:
        others = [s for s in range(facts.players) if s != facts.seat]
        rows = [[str(i + 1), *(str(w.hands[s]) for s in others)] for i, w in enumerate(h.worlds)]
        click.echo(table(rows, headers=["world", *(f"seat {s}" for s in others)]))


def _json(h: Hint, show_worlds: bool, widow: Hand | None = None) -> dict[str, Any]:
    m = h.margin
    data: dict[str, Any] = {
        "to_play": h.to_play, "worlds": len(h.worlds), "drawn": h.drawn, "exact": h.exact, "best": h.best.ascii(),
        "method": h.method, "plan": h.plan, "stopped": h.why, "cut_short": h.cut_short, "reliable": h.reliable,
        "skipped": h.skipped,
        "margin": None if m is None else {"second": m.second.ascii(), "points": round(m.mean, 3),
                                          "low": round(m.low, 3), "high": round(m.high, 3), "clear": m.clear},
        "cards": [{"card": j.card.ascii(), "points": round(j.points, 3),
                   "p_make": None if j.p_make is None else round(j.p_make, 4), "counters": round(j.counters, 3),
                   "best_in": j.best_in, "method": h.method, "behind": _behind(h, j.card)} for j in h.cards],
        "inferences": [{"seat": i.seat, "says": i.says} for i in h.inferences],
        "reasons": [r.to_json() for r in h.reasons],
    }
    if widow is not None and len(widow):
        data["widow"] = widow.ascii()
    if show_worlds:
        data["world_hands"] = [[h_.ascii() for h_ in w.hands] for w in h.worlds]
    return data


def _behind(h: Hint, card: Card) -> dict[str, Any] | None:
    """How far ``card`` is behind the best over the same worlds, with its 95 % interval (None: the best)."""
    lead = next((m for m in h.leads if m.second == card), None)
    if lead is None:
        return None
    return {"points": round(lead.mean, 3), "low": round(lead.low, 3), "high": round(lead.high, 3),
            "within_noise": not lead.clear}


def _slow_engine() -> bool:
    """On the first run after an install: the compiled engine built in the background, this hint judged by the
    engine as plain Python meanwhile (said on a terminal). Is it the slow engine?"""
    from .. import prepare

    if prepare.ready():
        return False
    prepare.start_background()
    # before numba is imported: every compiled function runs as Python
    os.environ["NUMBA_DISABLE_JIT"] = "1"
    if sys.stderr.isatty():
        click.echo(f"Preparing the fast engine in the background (once after an install, {duration(25)}); this "
                   "hint is judged by the slow engine meanwhile: fewer worlds, each card estimated by the "
                   "computer's play.", err=True)
    return True


@click.command("hint", context_settings=CONTEXT_SETTINGS)
@trump_option(required=True)
@click.option("--hand", required=True, metavar="CARDS", help="Your cards now.")
@click.option("--seat", type=int, default=0, show_default=True, metavar="N", help="Your seat (0, 1, … clockwise).")
@click.option("--bidder", type=int, default=None, metavar="SEAT", help="The bidder's seat.")
@click.option("--bid", type=click.IntRange(min=0), default=None, metavar="N", help="The bid (with --bidder).")
@click.option("--meld", multiple=True, metavar="SEAT=CARDS",
              help="The cards a seat showed as meld (repeatable; a seat not given: its meld unknown).")
@click.option("--passed", default="", metavar="CARDS", help="The cards you passed in the exchange.")
@click.option("--received", default="", metavar="CARDS", help="The cards you received in the exchange.")
@click.option("--buried", default="", metavar="CARDS",
              help="The cards you buried (only the bidder, in a game with a widow).")
@click.option("--widow", default="", metavar="CARDS",
              help="The widow the bidder took, as turned up for all (or, as the bidder, as you took it).")
@click.option("--tricks", default="", metavar="CARDS; …", help="The earlier tricks in order, each from its leader.")
@click.option("--leader", type=int, default=None, metavar="SEAT",
              help="Who led the first of --tricks [default: the bidder, else seat 0].")
@click.option("--trick", default="", metavar="CARDS", help="The current trick so far, leader first.")
@click.option("--time", "seconds", type=click.FloatRange(0, _MAX_SECONDS, min_open=True), default=5.0,
              show_default=True, metavar="SECONDS",
              help="Seconds for the whole answer, from the command's start: drawing worlds, judging them and "
                   "printing.")
@click.option("--worlds", type=click.IntRange(min=1), default=None, metavar="N",
              help="The most worlds to judge [default: as many as fit, at most 200].")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True, metavar="N",
              help="Seed of the worlds drawn: the same seed, the same worlds at any --workers.")
@click.option("--workers", type=click.IntRange(min=1), default=None, metavar="N",
              help="Cores judging worlds [default: every core].")
@click.option("--show-worlds", is_flag=True, help="List every seat's cards in each world judged.")
@ruleset_options
@json_option
def hint(trump: str, seconds: float, worlds: int | None, seed: int, workers: int | None, show_worlds: bool,
         ruleset: str | None, options: tuple[str, ...], as_json: bool, **given: Any) -> None:
    """What should I play? Each legal card judged over the deals of the unseen cards consistent with
    everything you saw, by the deal's score for your side, within --time seconds.

    The worlds respect the hand sizes, the meld shown (a hand shows all its meld), the exchange
    and what each play revealed by the ruleset's duties (listed). Late in the deal each card is
    solved exactly in each world (double-dummy); earlier it is estimated: the card played, the
    computer plays on and the last tricks are solved exactly (the answer says which, and from
    which trick). The judging stops once the best card leads the next beyond the noise, or at the
    time. "points": your side's score minus theirs, "P(make)": the chance the bid is made, "best
    in": the worlds where no card does better. With few worlds all are used (exact); in the
    two-handed play-off the other hand is known.

    \b
    Example:
      pinochle hint -t S --hand "TS QH 9D" --seat 1 --bidder 2 --bid 260 --leader 2 --trick KD \\
        --tricks "QD AD QD AD; JC JC AC QC; TD KD 9D TD; QS TS JS JS; 9S KH KS AS; AS KS 9H 9S;
                  9C KC AC 9H; 9C AH QC QS; TH TC AH TH"
    """
    rules = get_ruleset(ruleset, options)
    facts = _facts(rules, trump, given)
    slow = _slow_engine()
    from ..hint.advice import hint_facts as run_hint
    from ..hint.values import Plan

    count, notice = workers_for(workers)
    if notice:
        click.echo(f"Note: {words(notice)}.", err=True)
    # the budget is the user's wait: the command's start-up is in it
    answer = run_hint(facts, worlds=worlds, seconds=time_left(seconds), seed=seed, workers=count,
                      plan=Plan(False, 0) if slow else None)
    if as_json:
        emit_json(_json(answer, show_worlds, facts.widow))
        return
    _show(facts, answer, seed, show_worlds)
