"""``pinochle score RECORD``: a match record scored deal by deal, with the standing."""

from __future__ import annotations

from collections.abc import Sequence

import click

from ..errors import RecordError
from ..records import MatchRecord, read_record
from .common import CONTEXT_SETTINGS, emit_json, json_option, table


def _pair(values: Sequence[int] | None) -> str:
    return "" if values is None else " / ".join(str(v) for v in values)


def _goal(record: MatchRecord) -> str:
    m = record.rules.match
    if m.target is not None:
        return f"game to {m.target}"
    return f"{m.deals} deals"


def standing_line(record: MatchRecord) -> str:
    """One sentence: who leads, who won, or the draw."""
    st = record.standing
    scores = ", ".join(f"{s} {t}" for s, t in zip(record.sides, st.totals, strict=True))
    if st.status == "won":
        assert st.winner is not None
        rest = " to ".join(str(t) for i, t in enumerate(st.totals) if i != st.winner)
        return f"{record.sides[st.winner]} won, {st.totals[st.winner]} to {rest}."
    if st.status == "draw":
        return f"Draw: {scores}."
    n = len(record.deals)
    played = f"after {n} deal{'s' if n != 1 else ''}" if n else "no deals yet"
    return f"In progress ({played}, {_goal(record)}): {scores}."


def standings_text(record: MatchRecord) -> str:
    """The human report: the table, a table row per deal, and the standing."""
    rules = record.rules
    auction = rules.auction is not None
    head = f"{rules.name}"
    defaults = {o.name: o.default for o in rules.options}
    changed = {k: v for k, v in rules.chosen.items() if defaults.get(k) != v}
    if changed:
        head += " (" + ", ".join(f"{k}={v}" for k, v in changed.items()) + ")"
    lines = [f"{head}, {_goal(record)}: {record.table.describe()}"]
    if record.deals:
        headers = ["#", "dealer"] + (["bidder", "bid"] if auction else []) + ["trump"]
        sides = " / ".join(record.sides)
        results = auction or any(d.redeal for d in record.deals)
        headers += ["meld", "counters"] + (["result"] if results else []) + ["points"]
        headers += list(record.sides)
        rows = []
        for d in record.deals:
            row: list[object] = [d.number, d.dealer or ""]
            if auction:
                row += [d.bidder or "", "" if d.bid is None else d.bid]
            row.append("" if d.trump is None else d.trump.symbol)
            meld = "" if d.redeal else _pair(d.meld)
            row += [meld, _pair(d.counters)]
            if results:
                row.append(d.score.result or "")
            row.append(_pair(d.score.points))
            row += list(d.standing.totals)
            rows.append(row)
        lines.append(f"meld, counters and points: {sides}")
        lines.append("")
        lines.append(table(rows, headers))
    lines.append("")
    if record.skipped:
        numbers = [str(n) for n in record.skipped]
        listed = numbers[0] if len(numbers) == 1 else ", ".join(numbers[:-1]) + " and " + numbers[-1]
        lines.append(f"Not scored: deal{'s' if len(numbers) > 1 else ''} {listed} (see the problems).")
    lines.append(standing_line(record))
    return "\n".join(lines)


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


@click.command("score", context_settings=CONTEXT_SETTINGS)
@click.argument("record_path", metavar="RECORD", type=click.Path(dir_okay=False))
@click.option("--all-errors", "--lenient", "all_errors", is_flag=True,
              help="Report every problem in the record, not just the first; deals with a problem are left out "
                   "of the standings (exit 2 if there is any).")
@json_option
def score(record_path: str, all_errors: bool, as_json: bool) -> None:
    """Score a match record: every deal checked against the ruleset, running totals, the winner.

    RECORD is a YAML file (its format: `pinochle record format`); `pinochle record new` starts
    one. The first problem found stops the scoring; with --all-errors every deal is checked, the
    standings of the deals that could be scored are printed, and all the problems follow on stderr.
    """
    record = read_record(record_path, strict=not all_errors)
    show(record, as_json)
    if record.problems:
        raise problems_error(record, record_path)
