"""``pinochle analyze``: a recorded deal judged card by card with perfect play as the yardstick."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

import click

from ..errors import PlayError
from ..records import DealRecord, MatchRecord, read_record
from .common import CONTEXT_SETTINGS, emit_json, json_option, table, words
from .progress import ready_engine
from .solve_cmd import time_limit_option

if TYPE_CHECKING:
    from ..solver.analyze import DealAnalysis, PlayersView, ProgressCallback


def _deals(record: MatchRecord, number: int | None, path: str) -> list[DealRecord]:
    # the solver loads numba: only for this command
    from ..solver.analyze import playable_deals

    if number is None:
        deals = playable_deals(record)
        if not deals:
            raise PlayError(f"{path}: no deal has a recorded play (hands: and play:) to analyse")
        return deals
    found = [d for d in record.deals if d.number == number]
    if not found:
        count = len(record.deals)
        raise PlayError(f"{path}: there is no deal {number} (the record has {count} deal{'s' if count != 1 else ''})")
    if found[0] not in playable_deals(record):
        raise PlayError(f"{path}: deal {number} has no recorded play (hands: and play:) to analyse")
    return found


@contextmanager
def _progress(label: str) -> Iterator[ProgressCallback | None]:
    """A progress bar on a terminal (stderr); nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    with click.progressbar(length=1, label=label, file=sys.stderr) as bar:
        def update(done: int, total: int) -> None:
            bar.length = total
            bar.update(done - bar.pos)
        yield update


def _not_analysed(a: DealAnalysis, limit: float | None) -> str:
    if a.first_trick == 1:
        return ""
    span = "trick 1" if a.first_trick == 2 else f"tricks 1–{a.first_trick - 1}"
    why = f"the time limit of {limit:g} s" if a.stopped == "time limit" else "played with the stock"
    return f"{span} not analysed ({why})"


def _headline(a: DealAnalysis) -> str:
    who = f"{a.bidder} bid {a.bid}" if a.bidder is not None and a.bid is not None else "no bid"
    return f"Deal {a.number}: {who}, trump {a.trump.symbol} {a.trump.word}; {a.side} melded {a.meld}."


def _verdict(record: MatchRecord, a: DealAnalysis, limit: float | None) -> list[str]:
    table = record.table
    take = "take" if len(table.members[table.sides.index(a.side)]) > 1 else "takes"
    lines = []
    if a.perfect is None:
        lines.append(f"Perfect play: {_not_analysed(a, limit)}.")
    elif a.first_trick > 1:
        lines.append(f"Perfect play from trick {a.first_trick} on: {a.side} {take} {a.perfect} counters; "
                     f"{_not_analysed(a, limit)}.")
    else:
        total = a.perfect + a.meld
        sentence = f"Perfect play: {a.side} {take} {a.perfect} counters + {a.meld} meld = {total}"
        if a.makeable is not None:
            sentence += f": the bid of {a.bid} was {'makeable' if a.makeable else 'not makeable'}"
        lines.append(sentence + ".")
    lines.append(f"In play {a.side} took {a.taken} counters.")
    return lines


def _show(record: MatchRecord, a: DealAnalysis, limit: float | None) -> None:
    click.echo(_headline(a))
    for line in _verdict(record, a, limit):
        click.echo(line)
    costly = [v for v in a.verdicts if v.cost > 0]
    click.echo("")
    if costly:
        rows = [[v.trick, v.player, str(v.card), v.cost, str(v.better), v.best] for v in costly]
        click.echo(table(rows, headers=["trick", "player", "played", "gave up", "better", "kept"]))
    else:
        click.echo("No card analysed cost its side a point.")
    click.echo("")
    rows = [[p.player, p.cards, p.costly, p.given_up] for p in a.players(record.table.seating)]
    click.echo(table(rows, headers=["player", "cards", "costly", "gave up"]))


def _json(record: MatchRecord, a: DealAnalysis, limit: float | None) -> dict[str, Any]:
    return {
        "number": a.number, "bidder": a.bidder, "side": a.side, "bid": a.bid, "meld": a.meld,
        "trump": a.trump.letter, "taken": a.taken, "perfect": a.perfect, "makeable": a.makeable,
        "analysed_from_trick": a.first_trick, "not_analysed": _not_analysed(a, limit) or None,
        "cards": [{"trick": v.trick, "player": v.player, "card": v.card.ascii(), "gave_up": v.cost,
                   "better": v.better.ascii() if v.better else None, "kept": v.best} for v in a.verdicts],
        "players": [{"player": p.player, "cards": p.cards, "costly": p.costly, "gave_up": p.given_up}
                    for p in a.players(record.table.seating)],
    }


@click.command("analyze", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--deal", "number", type=click.IntRange(min=1), default=None, metavar="N",
              help="Analyse deal N only [default: every deal with a recorded play].")
@time_limit_option(30, "CPU seconds per deal (at most a day): the first tricks left when they run out are "
                         "marked not analysed.")
@click.option("--view", type=click.Choice(["double-dummy", "players"]), default="double-dummy", show_default=True,
              help="players: also judge each card by the hint from its player's view at that moment (a mistake by "
                   "what the player could see, or unlucky: only the double-dummy view shows it); the time limit "
                   "is shared by both.")
@click.option("--worlds", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --view players: the worlds each card is judged over [default: 20].")
@click.option("--seed", type=click.IntRange(min=0), default=1, show_default=True,
              help="With --view players: the seed the worlds are drawn from (the answer depends on it and on "
                   "--worlds only; the time limit only stops the work early).")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes to judge the cards [default: every core]; the time limit counts the CPU time of "
                   "all. The verdicts do not depend on it.")
@json_option
def analyze(path: str, number: int | None, time_limit: float, view: str, worlds: int | None, seed: int,
            workers: int | None, as_json: bool) -> None:
    """Could the bid have been made, and which cards cost points? Each card of a recorded deal is
    compared with the best card, every player playing perfectly afterwards with all hands seen.

    "gave up": the counters the card cost its side; "better": a card that would have kept them;
    "kept": what the side would then have ended the deal with.

    \b
    Example:
      pinochle analyze examples/single-deck-played.yaml
    """
    ready_engine()
    from ..solver.analyze import analyze_deal, analyze_deals
    from ..workers import workers_for

    record = read_record(path)
    deals = _deals(record, number, path)
    count, notice = workers_for(workers)
    if notice:
        click.echo(f"Note: {words(notice)}.", err=True)
    if view == "players":
        from ..solver.analyze import VIEW_WORLDS

        _players(record, deals, time_limit, worlds or VIEW_WORLDS, seed, count, as_json)
        return
    if len(deals) > 1 and count > 1:
        # the deals spread over the workers, one deal each at a time
        with _progress("deals") as progress:
            results = analyze_deals(record, deals, time_limit=time_limit, workers=count, progress=progress)
    else:
        results = []
        for deal in deals:
            with _progress(f"deal {deal.number}") as progress:
                results.append(analyze_deal(record, deal, time_limit=time_limit, progress=progress, workers=count))
    if as_json:
        emit_json({"ruleset": record.rules.name, "deals": [_json(record, a, time_limit) for a in results]})
        return
    for i, a in enumerate(results):
        if i:
            click.echo("")
        _show(record, a, time_limit)


def _players(record: MatchRecord, deals: list[DealRecord], limit: float, worlds: int, seed: int, workers: int,
             as_json: bool) -> None:
    """Each deal analysed double-dummy in half the time limit, then from the players' view in what is left."""
    import time

    from ..solver.analyze import analyze_deal, view_deal

    results = []
    for deal in deals:
        start = time.process_time()
        with _progress(f"deal {deal.number} (double-dummy)") as progress:
            a = analyze_deal(record, deal, time_limit=limit / 2, progress=progress, workers=workers)
        # the workers' CPU time is in the analysis's seconds, not in this process's
        left = max(limit - max(a.seconds, time.process_time() - start), 0.001)
        with _progress(f"deal {deal.number} (players' view)") as progress:
            results.append((a, view_deal(record, a, deal, time_limit=left, worlds=worlds, seed=seed,
                                             progress=progress)))
    if as_json:
        emit_json({"ruleset": record.rules.name,
                   "deals": [{**_json(record, a, limit / 2), "players_view": _view_json(v)} for a, v in results]})
        return
    for i, (a, v) in enumerate(results):
        if i:
            click.echo("")
        _show(record, a, limit / 2)
        click.echo("")
        _show_view(record, v)


def _view_json(v: PlayersView) -> dict[str, Any]:
    return {"judged_from_trick": v.first_trick, "seed": v.seed, "worlds": v.worlds, "not_judged": v.not_judged,
            "cards": [{"trick": c.trick, "player": c.player, "card": c.card.ascii(), "best": c.best.ascii(),
                       "lost": round(c.lost, 3), "worlds": c.worlds, "exact": c.exact, "gave_up": c.cost,
                       "verdict": c.verdict} for c in v.verdicts]}


def _show_view(record: MatchRecord, v: PlayersView) -> None:
    """The cards that were a mistake by what the player could see, or unlucky, and each player's count."""
    click.echo(f"By what each player could see (the hint at each card, {v.worlds} worlds from seed {v.seed}):")
    if v.first_trick > 1:
        span = "trick 1" if v.first_trick == 2 else f"tricks 1–{v.first_trick - 1}"
        cards = f"{v.not_judged} card{'s' if v.not_judged != 1 else ''}"
        click.echo(f"{span} not judged ({cards}: the time limit, or not judged double-dummy).")
    shown = [c for c in v.verdicts if c.verdict != "fine"]
    if shown:
        rows = [[c.trick, c.player, str(c.card), str(c.best), f"{c.lost:.1f}", c.cost, c.verdict] for c in shown]
        click.echo(table(rows, headers=["trick", "player", "played", "hint", "lost", "gave up", "verdict"]))
    else:
        click.echo("No card judged was a mistake by what its player could see, and none unlucky.")
    click.echo("")
    rows = [[name, sum(c.player == name for c in v.verdicts),
             sum(c.player == name and c.verdict == "mistake" for c in v.verdicts),
             sum(c.player == name and c.verdict == "unlucky" for c in v.verdicts)] for name in record.table.seating]
    click.echo(table(rows, headers=["player", "cards", "mistakes", "unlucky"]))
