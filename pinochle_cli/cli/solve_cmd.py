"""``pinochle solve``: the double-dummy value of a position and of each legal card."""

from __future__ import annotations

import math
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import IO, Any, TypeVar

import click

from ..cards import Card, Hand, format_cards
from ..errors import PlayError
from ..ruleset import Ruleset

# positions and their limits load no numba (the solver does: imported where a command solves)
from ..solver.position import MAX_TIME_LIMIT, Position
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
    trump_option,
    words,
)
from .progress import ready_engine

F = TypeVar("F", bound=Callable[..., Any])
# seconds between two updates of the progress line
_REDRAW = 0.2


class _Seconds(click.FloatRange):
    """CPU seconds above 0 and at most ``MAX_TIME_LIMIT``: ``nan`` is no number of seconds either."""

    name = "float"

    def __init__(self) -> None:
        # a whole number of seconds, as the range is shown
        super().__init__(0, int(MAX_TIME_LIMIT), min_open=True)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        seconds = super().convert(value, param, ctx)
        if math.isnan(seconds):
            self.fail(f"{seconds} is not in the range {self._describe_range()}.", param, ctx)
        return seconds


def time_limit_option(default: float, help: str) -> Callable[[F], F]:
    """``--time-limit SECONDS`` (CPU seconds, above 0 and at most a day) for ``solve`` and ``analyze``."""
    return click.option("--time-limit", type=_Seconds(), default=default, show_default=True, metavar="SECONDS",
                        help=help)


class _Line:
    """The solver's progress on one line of a terminal (stderr), drawn over; wiped at the end."""

    def __init__(self, limit: float) -> None:
        self.limit = limit
        self.cards = ""
        self.width = 0
        self.drawn = 0.0

    def search(self, seconds: float, nodes: int) -> None:
        if time.monotonic() - self.drawn < _REDRAW:
            return
        self.drawn = time.monotonic()
        text = f"solving{self.cards}: {seconds:.1f} of {self.limit:g} s of CPU, {nodes / 1e6:.1f} million nodes"
        self._draw(text)

    def card(self, done: int, total: int) -> None:
        self.cards = f" (card {done + 1 if done < total else total} of {total})"

    def _draw(self, text: str) -> None:
        sys.stderr.write("\r" + text.ljust(self.width))
        sys.stderr.flush()
        self.width = len(text)

    def wipe(self) -> None:
        if self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


@contextmanager
def _progress(limit: float) -> Iterator[_Line | None]:
    """A progress line on a terminal (stderr only when it is one); nothing otherwise."""
    if not sys.stderr.isatty():
        yield None
        return
    line = _Line(limit)
    try:
        yield line
    finally:
        line.wipe()


def _position(rules: Ruleset, hand_texts: tuple[str, ...], leader: int, trick_text: str) -> Position:
    if len(hand_texts) != rules.players:
        raise PlayError(f"{len(hand_texts)} --hand given; {rules.name} has {rules.players} players: give one "
                        "--hand per seat, seat 0 first")
    if not 0 <= leader < rules.players:
        raise PlayError(f"--leader {leader} is not a seat 0..{rules.players - 1}")
    # the solver loads numba: only for this command
    hands = tuple(Hand(read_cards(text, f"--hand {seat} (seat {seat})")) for seat, text in enumerate(hand_texts))
    return Position(hands, leader, tuple(read_cards(trick_text, "--trick")))


def _bidder(rules: Ruleset, bidder: int | None) -> int | None:
    """``--bidder``: required where the auction forms the sides (the bidder alone against the others), refused
    where the partnerships are fixed."""
    if not rules.sides_by_auction:
        if bidder is not None:
            raise PlayError(f"--bidder does not apply: in {rules.name} the partnerships are fixed")
        return None
    if bidder is None:
        raise PlayError(f"--bidder SEAT is needed: in {rules.name} the bidder plays alone against the others, so "
                        "who is whose partner depends on the bidder's seat")
    if not 0 <= bidder < rules.players:
        raise PlayError(f"--bidder {bidder} is not a seat 0..{rules.players - 1}")
    return bidder


def _ours(rules: Ruleset, seat: int, bidder: int | None) -> bool:
    return rules.deal_side_of(seat, bidder) == rules.deal_side_of(0, bidder)


def _us(rules: Ruleset, bidder: int | None) -> str:
    seats = [s for s in range(rules.players) if _ours(rules, s, bidder)]
    return "seat 0" if len(seats) == 1 else "seats " + ", ".join(str(s) for s in seats)


def _drawing(rules: Ruleset, pos: Position, best: set[Card], bidder: int | None) -> str:
    rows = []
    for seat, hand in enumerate(pos.hands):
        cards = " ".join(f"{c}*" if seat == pos.to_play and c in best else str(c) for c in hand)
        mark = ">" if seat == pos.to_play else ""
        side = "us" if _ours(rules, seat, bidder) else "them"
        rows.append([mark, f"seat {seat}", side + (" (bidder)" if seat == bidder else ""), cards])
    return table(rows, tablefmt="plain")


def _missing(ctx: click.Context, name: str) -> click.MissingParameter:
    """click's own refusal of a missing option (required unless --batch is given)."""
    param = next(p for p in ctx.command.params if p.name == name)
    return click.MissingParameter(ctx=ctx, param=param)


@click.command("solve", context_settings=CONTEXT_SETTINGS)
@click.option("--hand", "hand_texts", multiple=True, metavar="CARDS",
              help="A seat's cards, in seat order 0, 1, 2, … (repeat once per player; required unless --batch).")
@trump_option()
@click.option("--leader", type=int, default=0, show_default=True, metavar="SEAT", help="The seat that led this trick.")
@click.option("--bidder", type=int, default=None, metavar="SEAT",
              help="The bidder's seat, in a game whose auction forms the sides (the bidder alone against the "
                   "others; required there).")
@click.option("--trick", "trick_text", default="", metavar="CARDS",
              help="Cards already played to this trick, leader first (those players hold one card fewer).")
@time_limit_option(60, "CPU seconds for the whole answer (at most a day): past them it stops (exit 2) and says how "
                         "many tricks are left and how many usually solve in under a second.")
@click.option("--batch", type=click.File("rb"), default=None, metavar="FILE",
              help='Positions as JSON lines (- for stdin), each with the keys "trump", "hands", "leader", "trick", '
                   '"ruleset", "bidder": one JSON line out per position, in order (docs: pinochle docs json). '
                   "--time-limit is then per position.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="With --batch: processes to use [default: every core]. The values do not depend on it.")
@ruleset_options
@json_option
@click.pass_context
def solve(ctx: click.Context, hand_texts: tuple[str, ...], trump: str | None, leader: int, bidder: int | None,
          trick_text: str, time_limit: float, batch: IO[bytes] | None, workers: int | None, ruleset: str | None,
          options: tuple[str, ...], as_json: bool) -> None:
    """The counters seat 0's side takes from here on when every player plays perfectly, all cards seen.

    Seat 0 and its partners are "us"; the value counts every counter still to be won (the cards
    on the trick and the last-trick bonus included). Every legal card of the player to move is
    shown with the value after it; the best are marked *. In a game with a stock the play after
    the stock is solved. On a terminal a line on stderr shows the progress.

    \b
    Example:
      pinochle solve -t S --hand "AS 10H" --hand "KS 9H" --hand "QS AH" --hand "JS KH"
    """
    ready_engine()
    if batch is not None:
        _batch(batch, hand_texts, trump, leader, bidder, trick_text, time_limit, workers, ruleset, options)
        return
    if not hand_texts:
        raise _missing(ctx, "hand_texts")
    if trump is None:
        raise _missing(ctx, "trump")
    if workers is not None:
        raise click.UsageError("--workers goes with --batch")
    from ..solver.solve import Solver, check_position

    rules = get_ruleset(ruleset, options)
    suit = get_trump(trump, rules)
    assert suit is not None
    pos = _position(rules, hand_texts, leader, trick_text)
    seat = _bidder(rules, bidder)
    check_position(rules, suit, pos, seat)
    with _progress(time_limit) as line:
        solver = Solver(rules, suit, bidder=seat, time_limit=time_limit, progress=line.search if line else None)
        plays = solver.plays(pos, progress=line.card if line else None)
    value = solver.best(plays, pos.to_play)
    if as_json:
        data: dict[str, Any] = {"value": value, "to_play": pos.to_play,
                                "plays": [{"card": c.ascii(), "value": v} for c, v in plays]}
        emit_json(data)
        return
    best = {c for c, v in plays if v == value}
    trick = f"; on the trick: {format_cards(pos.trick)} (led by seat {pos.leader})" if pos.trick else ""
    click.echo(f"{heading(rules, suit)}; seat {pos.to_play} to play{trick}")
    click.echo(_drawing(rules, pos, best, seat))
    left = pos.counters_left(rules)
    click.echo(f"Perfect play: us ({_us(rules, seat)}) take {value} of the {left} counters left.")
    click.echo(table([[f"{c}{' *' if c in best else ''}", v] for c, v in plays], headers=["card", "us after it"]))


def _batch(source: IO[bytes], hand_texts: tuple[str, ...], trump: str | None, leader: int, bidder: int | None,
           trick_text: str, time_limit: float, workers: int | None, ruleset: str | None,
           options: tuple[str, ...]) -> None:
    """``--batch``: the positions come from the lines, so --hand, -t, --leader, --bidder and --trick are left out."""
    given = [name for name, there in (("--hand", hand_texts), ("-t/--trump", trump is not None),
                                      ("--leader", leader != 0), ("--bidder", bidder is not None),
                                      ("--trick", trick_text)) if there]
    if given:
        raise click.UsageError(f"--batch takes each position from its line: leave out {', '.join(given)}")
    from ..workers import workers_for
    from .solve_batch import run_batch

    count, notice = workers_for(workers)
    if notice:
        click.echo(f"Note: {words(notice)}.", err=True)
    run_batch(source, ruleset, options, time_limit, count)
