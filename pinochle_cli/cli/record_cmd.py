"""``pinochle record new|add|undo|redo|edit|show``: keep a match record at the table, one deal at a time."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

import click

from ..errors import RecordError, StaleRecordError, relocated
from ..records import MatchRecord, parse_record
from ..records.edit import Change, deal_lines, deal_text, edit_deal, entered_deals, merged_entries, redo_deal, undo_deal
from ..records.entry import (
    DealInput,
    Question,
    answered,
    asked_field,
    check_nothing_left_out,
    cleared,
    counters_questions,
    deal_entries,
    deal_summary,
    preview,
    questions,
)
from ..records.safewrite import decode_text
from ..records.version import Expected, version_of
from ..records.writer import Entries, append_deal, check_name, new_record_text, ruleset_spec_for, write_new_record
from ..ruleset import parse_options
from ..yamlsource import open_nonblocking, read_capped
from .common import (
    CONTEXT_SETTINGS,
    F,
    complete_player,
    complete_suit,
    emit_json,
    get_ruleset,
    json_option,
    ruleset_options,
    suit_hint,
)
from .docs_cmd import record_format
from .record_schema_cmd import record_schema
from .score_cmd import brief_line


@click.group("record", context_settings=CONTEXT_SETTINGS)
def record() -> None:
    """Keep a match record at the table: start one, then add each deal as it is scored."""


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r"[,]+", text) if n.strip()]


@record.command("new", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@ruleset_options
@click.option("--team", "teams", multiple=True, metavar="NAME=P1,P2",
              help="A team and its players (partnership games; once per team).")
@click.option("--player", "players", multiple=True, metavar="NAME",
              help="A player (games without partnerships; once per player, in seating order).")
@click.option("--seating", metavar="P1,P2,...", default=None,
              help="Players clockwise from seat 0 [default: the teams alternate].")
@click.option("--title", metavar="TEXT", default=None,
              help="The match's name (e.g. \"Friday at Cy's\"), shown by `score` and the score page.")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def new(path: str, ruleset: str | None, options: tuple[str, ...], teams: tuple[str, ...],
        players: tuple[str, ...], seating: str | None, title: str | None, force: bool) -> None:
    """Start a match record FILE for a ruleset and its table."""
    if title is not None:
        check_name(title, "--title")
    rules = get_ruleset(ruleset, options)
    team_list: list[tuple[str, list[str]]] = []
    for item in teams:
        name, sep, members = item.partition("=")
        if not sep or not name.strip() or not _names(members):
            raise RecordError(f"--team {item!r} is not NAME=PLAYER,PLAYER")
        team_list.append((name.strip(), _names(members)))
    for option, names in (("--team", [t for t, _ in team_list]), ("--player", list(players)),
                          ("a player of --team", [p for _, ms in team_list for p in ms])):
        seen: set[str] = set()
        for name in names:
            check_name(name, option)
            if name.lower() in seen:
                raise RecordError(f"{option} {name!r} is given twice")
            seen.add(name.lower())
    if teams and players:
        raise RecordError("give --team (partnership games) or --player (games without partnerships), not both")
    if not teams and not players:
        partnered = any(len(p) > 1 for p in rules.partnerships)
        raise RecordError(f"the {rules.name} game needs its table: "
                          + (f"--team NAME=P1,P2 for each of its {len(rules.partnerships)} teams" if partnered
                             else f"--player NAME for each of its {rules.players} players"))
    seats = [n for n in re.split(r"[\s,]+", seating or "") if n]
    text = new_record_text(ruleset_spec_for(ruleset, rules, path), parse_options(options), teams=team_list,
                           players=list(players), seating=seats, title=" ".join((title or "").split()) or None)
    made = write_new_record(path, text, force=force)
    click.echo(f"Started {path}: {made.rules.name}, {made.table.describe()}.")
    click.echo(f"Seating, clockwise: {', '.join(made.table.seating)}.")
    # the fields a deal of this game takes: a bidder and a bid only where there is an auction
    auction = " --bidder ... --bid ..." if made.rules.auction is not None else ""
    click.echo(f"Add deals with: pinochle record add {path} --dealer ...{auction} --meld ... --counters ...")


def deal_options(func: F) -> F:
    """The fields of a deal, as ``record add`` and ``record edit`` take them."""
    options = [
        click.option("--note", "note", metavar="TEXT", help="A note kept with the deal."),
        click.option("--redeal", is_flag=True, help="The deal was thrown in before the auction."),
        click.option("--no-trump", "no_trump", is_flag=True, help="The bidder held no suit they could name."),
        click.option("--conceded", is_flag=True, help="The bidding side threw the deal in after the meld."),
        click.option("--tricks", "tricks", multiple=True, metavar="SIDE=N", help="Tricks taken (repeatable)."),
        click.option("--counters", "counters", multiple=True, metavar="SIDE=N",
                     help="Counters taken by team or player (repeatable); one side left out is inferred."),
        click.option("--buried", metavar="CARDS", help="The cards the bidder buried (games with a widow)."),
        click.option("--widow", metavar="CARDS", help="The widow's cards, turned up for the bidder (games with one)."),
        click.option("--meld", "meld", multiple=True, metavar="SIDE=N",
                     help="Meld by team or player (repeatable; every side, 0 for none); a player's may be the "
                          "cards shown."),
        click.option("--auction", metavar="CALLS",
                     help='The calls from the dealer\'s left, e.g. "250 pass 260 pass pass".'),
        click.option("-t", "--trump", metavar="SUIT", shell_complete=complete_suit,
                     help="The trump suit: S H D C, a name or ♠ ♥ ♦ ♣."),
        click.option("--bid", type=int, metavar="N", help="The contract."),
        click.option("--bidder", metavar="PLAYER", shell_complete=complete_player, help="Who won the auction."),
        click.option("--dealer", metavar="PLAYER", shell_complete=complete_player,
                     help="Who dealt [default: the next player after the last dealer]."),
    ]
    for option in options:
        func = option(func)
    return func


def _given(fields: Mapping[str, Any]) -> DealInput:
    return DealInput(fields["dealer"], fields["bidder"], fields["bid"], fields["trump"], fields["auction"],
                     fields["meld"], fields["counters"], fields["tricks"], fields["conceded"], fields["no_trump"],
                     fields["redeal"], fields["note"], fields["widow"], fields["buried"])


def _after(path: str, record: MatchRecord, as_json: bool, what: str) -> None:
    """What every change prints: a line saying what was done, then the standing in one line."""
    if as_json:
        emit_json(record.to_json())
    else:
        click.echo(what)
        click.echo(brief_line(record))


@record.command("add", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@deal_options
@click.option("--deal", "number", type=click.IntRange(min=1), default=None, metavar="N",
              help="The number this deal takes: refused, FILE unchanged, if the record holds another number of deals "
                   "(it changed since you looked).")
@click.option("--prompt/--no-prompt", "prompt", default=None,
              help="Ask for the missing fields [default: when input is a terminal].")
@json_option
def add(path: str, number: int | None, prompt: bool | None, as_json: bool, **fields: Any) -> None:
    """Add a deal to FILE, checked against the ruleset and the record first; print the standing.

    Sides may be named in full or abbreviated (NS for North-South, a unique start of a name).
    Every side's meld is given (0 for none). On a terminal the missing fields are asked for,
    each answer checked at once, and the deal is shown as it will be scored before it is written;
    if FILE changed meanwhile (the score page, another terminal) nothing is added and the record is
    shown as it is now.
    """
    given = _given(fields)
    expect = None if number is None else Expected(number=number)
    if sys.stdin.isatty() if prompt is None else prompt:
        # with --json the questions and the deal as scored go to stderr: stdout holds the document only
        asked = _ask_deal(path, given, number, err=as_json)
        if asked is None:
            click.echo(f"Not added; {path} is unchanged.", err=as_json)
            raise SystemExit(1)
        given, expect = asked

    def build(current: MatchRecord) -> list[tuple[str, object]]:
        entries = deal_entries(current, given)
        check_nothing_left_out(current, entries, len(current.deals) + 1)
        return entries

    try:
        updated = _hinted(given, lambda: append_deal(path, build, expect=expect))
    except StaleRecordError as exc:
        now = _read(path)[1]
        raise RecordError(f"the sheet changed: nothing was added (the deal was meant as deal "
                          f"{(expect.number if expect else None) or '?'}; the record holds {exc.deals} deal"
                          f"{'s' if exc.deals != 1 else ''} now); here it is now: {brief_line(now)}",
                          source=path) from None
    _after(path, updated, as_json, f"Added deal {len(updated.deals)} to {path}.")


T = TypeVar("T")


def _hinted(given: DealInput, change: Callable[[], T]) -> T:
    """``change()``; a mistyped suit's name refused gets the closest suit suggested."""
    try:
        return change()
    except RecordError as exc:
        hint = suit_hint(given.trump) if exc.field == "trump" and given.trump else ""
        if not hint or isinstance(exc, StaleRecordError):
            raise
        raise relocated(exc, detail=f"{exc.detail}{hint}") from None


def _read(path: str) -> tuple[str, MatchRecord, str]:
    """The record's text (read as every reader reads a record), the record and its version."""
    try:
        with open_nonblocking(path) as fh:
            data = read_capped(fh, path)
    except OSError as exc:
        raise RecordError(f"cannot read: {exc.strerror or exc}", source=path) from None
    text = decode_text(data, path)
    return text, parse_record(text, path, os.path.dirname(os.path.abspath(path))), version_of(data)


def _ask(path: str, question: Question, err: bool) -> str:
    kind = click.INT if question.number else click.STRING
    return str(_typed(path, question.text, lambda: click.prompt(question.text, default=question.default, type=kind,
                                                                  show_default=bool(question.default),
                                                                  err=err), err))


def _typed(path: str, asked: str, read: Callable[[], Any], err: bool = False) -> Any:
    """An answer read from the terminal. Click turns both end of input and Ctrl-C into ``Abort`` (exit 1,
    which means "no"): end of input is an error saying what was still asked (exit 2), Ctrl-C stops as
    everywhere else (exit 130)."""
    try:
        return read()
    except click.Abort as exc:
        if isinstance(exc.__context__, KeyboardInterrupt):
            raise KeyboardInterrupt from None
        # the prompt's line ends; the error is a line of its own
        click.echo("", err=err)
        raise RecordError(f"end of input while asking {asked!r}; nothing was added", source=path) from None


def _ask_deal(path: str, given: DealInput, number: int | None, *,
              err: bool = False) -> tuple[DealInput, Expected] | None:
    """Ask for every missing field, each answer checked; confirm the deal as scored (None: declined). With the deal,
    the version of the record it was entered from and its number (``number``: as given, else the next).

    ``err``: the questions and the deal as scored go to stderr (stdout is kept for a JSON document).
    """
    text, record, version = _read(path)
    expect = Expected(version, number or len(record.deals) + 1)
    while True:
        pending = questions(record, given)
        if pending:
            given = _answer(path, text, record, given, pending[0], err)
            continue
        try:
            scored = preview(text, path, record, given)
        except RecordError as exc:
            field = asked_field(exc)
            if field == "counters" and not given.counters:
                given = _ask_counters(path, text, record, given, err)
                _show_inferred(record, given, err)
                continue
            if field is None:
                raise
            click.echo(f"  {exc.detail}", err=True)
            given = cleared(given, field)
            continue
        click.echo(deal_summary(scored, scored.deals[-1]), err=err)
        confirmed = _typed(path, "Add it?", lambda: click.confirm("Add it?", default=True, err=err), err)
        return (given, expect) if confirmed else None


def _ask_counters(path: str, text: str, record: MatchRecord, given: DealInput, err: bool) -> DealInput:
    """Every side's counters but the last (inferred), checked together: refused, all of them are asked again (the
    message may be about any of them, as their sum)."""
    asked = counters_questions(record)
    while True:
        candidate = given
        for question in asked:
            candidate = answered(candidate, question, _ask_side(path, question, record.rules.counter_total, err))
        try:
            preview(text, path, record, candidate, partial=True)
        except RecordError as exc:
            if asked_field(exc) == "counters":
                click.echo(f"  {exc.detail}", err=True)
                continue
        return candidate


def _ask_side(path: str, question: Question, total: int, err: bool) -> str:
    """One side's counters, asked again alone while they are more than a deal holds (a mistyped field is asked
    again, not every side's)."""
    while True:
        answer = _ask(path, question, err)
        if int(answer) <= total:
            return answer
        click.echo(f"  {question.side}={answer}: more than the {total} counters in a deal", err=True)


def _show_inferred(record: MatchRecord, given: DealInput, err: bool) -> None:
    """The counters of the side not asked, as inferred from the deal's total."""
    counters = dict(deal_entries(record, given)).get("counters")
    last = record.sides[-1]
    if isinstance(counters, dict) and last in counters:
        click.echo(f"{last}'s counters: {counters[last]} (the rest of {record.rules.counter_total})", err=err)


def _answer(path: str, text: str, record: MatchRecord, given: DealInput, question: Question,
            err: bool) -> DealInput:
    """Ask ``question`` until the checker takes the answer (other fields may still be missing)."""
    while True:
        candidate = answered(given, question, _ask(path, question, err))
        try:
            preview(text, path, record, candidate, partial=True)
        except RecordError as exc:
            if asked_field(exc) == question.field:
                click.echo(f"  {exc.detail}", err=True)
                continue
        return candidate


@record.command("undo", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@json_option
def undo(path: str, as_json: bool) -> None:
    """Take the last deal out of FILE and print it; `record redo` puts it back.

    The deal is kept in the file's history (comments at its end; the newest 100 changes are kept).
    """
    change = undo_deal(path)
    _after(path, change.record, as_json, f"Took out deal {change.number}: {_one_line(change)}\n"
           f"`pinochle record redo {path}` puts it back.")


@record.command("redo", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@json_option
def redo(path: str, as_json: bool) -> None:
    """Put the last deal taken out by `record undo` back into FILE, checked like a deal added.

    Once a deal is added or edited after the undo there is nothing to redo (as in every editor):
    the deal taken out stays in the file's history, never put back.
    """
    change = redo_deal(path)
    _after(path, change.record, as_json, f"Put back deal {change.number}: {_one_line(change)}")


def _one_line(change: Change) -> str:
    return deal_text(_fields_of(change.lines))


def _fields_of(lines: str) -> dict[str, Any]:
    found = entered_deals("deals:\n" + lines, "<deal>")
    return found[0] if found else {}


@record.command("edit", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.argument("number", metavar="N", type=int)
@deal_options
@click.option("--clear", "clear", multiple=True, metavar="FIELD",
              help="Take a field out of the deal, e.g. --clear conceded (repeatable).")
@json_option
def edit(path: str, number: int, clear: tuple[str, ...], as_json: bool, **fields: Any) -> None:
    """Change deal N of FILE: the fields given replace the deal's (a side's meld replaces that side's).

    The deal and every deal after it are checked again; if one no longer holds the edit is
    refused, naming it, and FILE is left as it was. The deal as it was is kept in the file's
    history.
    """
    given = _given(fields)
    if given == DealInput() and not clear:
        raise RecordError("nothing to change: give the fields to change (the options of record add) or --clear "
                          "FIELD", source=path, deal=number)
    change = _hinted(given, lambda: edit_deal(path, number, _merge(given, clear, number)))
    _after(path, change.record, as_json, f"Changed deal {number}: {deal_text(_fields_of(change.lines))}")


def _merge(given: DealInput, clear: tuple[str, ...],
           number: int) -> Callable[[MatchRecord, Mapping[str, Any]], Entries]:
    def build(record: MatchRecord, old: Mapping[str, Any]) -> Entries:
        return merged_entries(record, number, old, given, clear)
    return build


@record.command("show", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.argument("number", metavar="[N]", type=int, required=False)
def show_deals(path: str, number: int | None) -> None:
    """The deals of FILE as entered, one line each; with N, deal N whole (as written) and its score."""
    text, record, _version = _read(path)
    if number is None:
        for n, fields in enumerate(entered_deals(text, path), start=1):
            click.echo(f"{n:>3}  {deal_text(fields)}")
        click.echo(brief_line(record))
        return
    lines = deal_lines(text, number, path)
    click.echo(lines.rstrip("\n"))
    if number <= len(record.deals):
        click.echo(deal_summary(record, record.deals[number - 1]))


record.add_command(record_format)
record.add_command(record_schema)
