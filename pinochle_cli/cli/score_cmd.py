"""``pinochle score RECORD...``: match records scored deal by deal, with the standing."""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

import click

from ..errors import RecordError
from ..records import DealRecord, MatchRecord, read_record
from ..records.brief import brief, ending, game_results, games_won
from ..yamlsource import check_distinct
from .common import CONTEXT_SETTINGS, emit_json, json_option, table, terminal_width, tight_table


def _pair(values: Sequence[int] | None, sep: str = " / ") -> str:
    return "" if values is None else sep.join(str(v) for v in values)


def _goal(record: MatchRecord) -> str:
    m = record.rules.match
    if m.target is not None:
        return f"game to {m.target}"
    return f"{m.deals} deals"


def _deals(n: int) -> str:
    return f"{n} deal{'s' if n != 1 else ''}"


def standing_line(record: MatchRecord) -> str:
    """One sentence: who leads, or who won and why (``ending``: in the words of the ruleset's match rules), or
    the draw."""
    st = record.standing
    scores = ", ".join(f"{s} {t}" for s, t in zip(record.sides, st.totals, strict=True))
    why = ending(record)
    if st.status == "won":
        assert st.winner is not None
        others = [(s, t) for i, (s, t) in enumerate(zip(record.sides, st.totals, strict=True)) if i != st.winner]
        rest = f"{others[0][1]:,}" if len(others) == 1 else " and ".join(f"{s} {t:,}" for s, t in others)
        return f"{record.sides[st.winner]} won: {st.totals[st.winner]:,} to {rest}, {why}."
    if st.status == "draw":
        return f"Draw: {scores}; {why}."
    n = len(record.deals)
    played = f"after {_deals(n)}" if n else "no deals yet"
    return f"In progress ({played}, {_goal(record)}): {scores}."


def brief_line(record: MatchRecord) -> str:
    """The standing in one line: totals, what each side needs, the deals played, the next dealer."""
    b = brief(record)
    if b.status != "in-progress":
        return _over_line(record, b.deals_played)
    needs = b.needs or (None,) * len(b.sides)
    scores = ", ".join(f"{s} {t}" + ("" if n is None else f" ({n} to go)")
                       for s, t, n in zip(b.sides, b.totals, needs, strict=True))
    left = "" if b.deals_left is None else f", {_deals(b.deals_left)} to play"
    dealer = "" if b.next_dealer is None else f" Next dealer: {b.next_dealer}."
    return f"After {_deals(b.deals_played)}{left}: {scores}.{dealer}"


def _over_line(record: MatchRecord, deals: int) -> str:
    """The standing of a match that is over, and after how many deals (said already where they end it)."""
    line = standing_line(record)
    return line if record.rules.match.target is None else f"{line[:-1]}, after {_deals(deals)}."


def brief_text(record: MatchRecord) -> str:
    """``score --brief``: the table of players, each side's total and what it needs, the next dealer."""
    b = brief(record)
    headers = ["", "total"] + (["to go"] if b.needs is not None else [])
    rows = [[s, t] + ([n] if b.needs is not None else []) for s, t, n in
            zip(b.sides, b.totals, b.needs or b.totals, strict=True)]
    lines = [*_title(record), _head(record), "", table(rows, headers), ""]
    if b.status != "in-progress":
        lines.append(textwrap.fill(_over_line(record, b.deals_played), terminal_width(), break_on_hyphens=False))
    else:
        left = "" if b.deals_left is None else f", {_deals(b.deals_left)} to play"
        lines.append(f"{_deals(b.deals_played).capitalize()} played{left}."
                     + ("" if b.next_dealer is None else f" Next dealer: {b.next_dealer}."))
    return "\n".join(lines)


def _title(record: MatchRecord, width: int | None = None) -> list[str]:
    """The record's title on the first lines (none without a title)."""
    if record.title is None:
        return []
    return textwrap.wrap(record.title, width or terminal_width(), break_on_hyphens=False)


def _head(record: MatchRecord) -> str:
    rules = record.rules
    changed = rules.changed_options
    head = rules.name + (" (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")" if changed else "")
    return f"{head}, {_goal(record)}: {record.table.describe()}"


# --------------------------------------------------------------------------- the table of deals, three widths

Column = tuple[str, Callable[[DealRecord], object]]


def _bid(d: DealRecord) -> str:
    parts = [d.bidder or "", "" if d.bid is None else str(d.bid), "" if d.trump is None else d.trump.symbol]
    return " ".join(p for p in parts if p)


def _columns(record: MatchRecord, layout: str) -> list[Column]:
    """The columns of a layout: ``wide`` (every fact apart), ``compact`` (bid in one column), ``narrow``."""
    auction = record.rules.auction is not None
    results = auction or any(d.redeal for d in record.deals)
    sep = " / " if layout == "wide" else "/"
    cols: list[Column] = [("#", lambda d: d.number)]
    if layout != "narrow":
        cols.append(("dealer", lambda d: d.dealer or ""))
    if layout == "wide" and auction:
        cols += [("bidder", lambda d: d.bidder or ""), ("bid", lambda d: "" if d.bid is None else d.bid),
                 ("trump", lambda d: "" if d.trump is None else d.trump.symbol)]
    elif auction:
        cols.append(("bid", _bid))
    else:
        cols.append(("trump", lambda d: "" if d.trump is None else d.trump.symbol))
    if layout != "narrow":
        cols += [("meld", lambda d: "" if d.redeal else _pair(d.meld, sep)),
                 ("counters", lambda d: _pair(d.counters, sep))]
    if results:
        cols.append(("result", lambda d: d.score.result or ""))
    cols.append(("points", lambda d: _pair(d.score.points, sep)))
    short = layout != "wide" and record.table.teams
    cols += [(_initials(side) if short else side, _total(i)) for i, side in enumerate(record.sides)]
    return cols


def _total(side: int) -> Callable[[DealRecord], object]:
    return lambda d: d.standing.totals[side]


def _initials(name: str) -> str:
    """A long side name's initials for a narrow column header (North-South: NS)."""
    letters = "".join(w[0] for w in name.replace("-", " ").split() if w)
    return letters.upper() if len(name) > 6 and len(letters) > 1 else name


def _deal_table(record: MatchRecord, layout: str) -> list[str]:
    cols = _columns(record, layout)
    rows = [[get(d) for _, get in cols] for d in record.deals]
    sides = " / ".join(record.sides)
    if layout == "wide" or not record.table.teams:
        legend = f"meld, counters and points: {sides}" if layout != "narrow" else f"points: {sides}"
    else:
        short = " / ".join(_initials(s) for s in record.sides)
        names = ", ".join(f"{_initials(s)} {s}" for s in record.sides if _initials(s) != s)
        legend = ("meld, counters and points: " if layout != "narrow" else "points: ") + short
        legend += f" ({names})" if names else ""
    headers = [h for h, _ in cols]
    return [legend, "", table(rows, headers) if layout == "wide" else tight_table(rows, headers)]


def standings_text(record: MatchRecord, width: int | None = None) -> str:
    """The human report: the table, a row per deal in the widest layout that fits, and the standing."""
    width = terminal_width() if width is None else width
    lines = [*_title(record, width), textwrap.fill(_head(record), width, break_on_hyphens=False)]
    if record.deals:
        for layout in ("wide", "compact", "narrow"):
            block = _deal_table(record, layout)
            if max(len(line) for line in block[-1].splitlines()) <= width:
                break
        lines += block
    lines.append("")
    if record.skipped:
        numbers = [str(n) for n in record.skipped]
        listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
        lines.append(f"Not scored: deal{'s' if len(numbers) > 1 else ''} {listed} (see the problems).")
    lines.append(textwrap.fill(standing_line(record), width, break_on_hyphens=False))
    return "\n".join(lines)


def chart_text(record: MatchRecord) -> str:
    """``score --chart``: the heading, the running totals drawn, and the standing."""
    from ..charts.totals import totals_chart
    from .chart_view import chart_glyphs, chart_width

    width = chart_width()
    lines = [*_title(record, width), textwrap.fill(_head(record), width, break_on_hyphens=False), ""]
    lines += totals_chart(record, width, chart_glyphs())
    return "\n".join([*lines, "", textwrap.fill(standing_line(record), width, break_on_hyphens=False)])


def problems_error(record: MatchRecord, path: str) -> RecordError:
    """``RECORD: N problems:`` and one indented line per problem (the CLI prefixes ``Error: ``)."""
    n = len(record.problems)
    lines = [f"{n} problem{'s' if n != 1 else ''}:"] + [f"  {p}" for p in record.problems]
    return RecordError("\n".join(lines), source=path)


def show(record: MatchRecord, as_json: bool) -> None:
    if as_json:
        emit_json(record.to_json())
    else:
        click.echo(standings_text(record))


def night_text(records: Sequence[MatchRecord]) -> str:
    """Several games: each game's result, and the games each side won."""
    rows = []
    for g in game_results(records):
        result = (f"{g.winner} won" if g.winner is not None else "draw" if g.status == "draw" else "in progress")
        rows.append([g.title or g.source, result, ", ".join(f"{s} {t}" for s, t in zip(g.sides, g.totals, strict=True)),
                     g.deals])
    won = ", ".join(f"{s} {n}" for s, n in games_won(records).items())
    return "\n".join([f"{len(records)} games", "", table(rows, ["game", "result", "totals", "deals"]), "",
                      f"Games won: {won}."])


@click.command("score", context_settings=CONTEXT_SETTINGS)
@click.argument("record_paths", metavar="RECORD...", nargs=-1, required=True, type=click.Path(dir_okay=False))
@click.option("--all-errors", "--lenient", "all_errors", is_flag=True,
              help="Report every problem in the record, not just the first; deals with a problem are left out "
                   "of the standings (exit 2 if there is any).")
@click.option("--brief", is_flag=True, help="Only the standing: each side's total, what it still needs, the deals "
              "played and the next dealer.")
@click.option("--chart", is_flag=True, help="A chart of the running totals, deal by deal, toward the target, in "
              "place of the table (letters where the terminal cannot print the symbols).")
@json_option
def score(record_paths: tuple[str, ...], all_errors: bool, brief: bool, chart: bool, as_json: bool) -> None:
    """Score match records: every deal checked against the ruleset, running totals, the winner.

    RECORD is a YAML file (its format: `pinochle record format`); `pinochle record new` starts
    one. The first problem found stops the scoring; with --all-errors every deal is checked, the
    standings of the deals that could be scored are printed, and all the problems follow on stderr.
    Several RECORDs (a game each) also print each game's result and the games each side won. The
    table of deals fits the terminal's width ($COLUMNS; 80 when output is not a terminal).
    """
    if chart and (as_json or brief):
        raise click.UsageError(f"--chart draws the totals; it does not go with {'--json' if as_json else '--brief'}")
    check_distinct(record_paths)
    records = [read_record(path, strict=not all_errors) for path in record_paths]
    if as_json:
        docs = [r.to_json() for r in records]
        emit_json(docs[0] if len(docs) == 1 else {"games": docs, "games_won": games_won(records)})
    else:
        texts = [brief_text(r) if brief else chart_text(r) if chart else standings_text(r) for r in records]
        if len(records) > 1:
            texts = [f"== {p}\n{t}" for p, t in zip(record_paths, texts, strict=True)] + [night_text(records)]
        click.echo("\n\n".join(texts))
    for record, path in zip(records, record_paths, strict=True):
        if record.problems:
            raise problems_error(record, path)
