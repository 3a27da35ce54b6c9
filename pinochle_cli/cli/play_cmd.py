"""``pinochle play``: a deal at the keyboard — practice against the computer, or follow a real table — one command a
line, from a terminal (with completion of the legal cards where ``readline`` is there) or a pipe."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import click

from ..errors import SessionError
from ..session.commands import parse_command
from ..session.events import Decision, Event, Kept, Refused
from ..session.journal import journal_path
from ..session.session import Session, new_seed
from ..session.settings import Settings
from .common import CONTEXT_SETTINGS, json_option, ruleset_options
from .play_json import event_json
from .play_view import decision_lines, lines
from .progress import ready_engine

# a day, as hint's --time
_MAX_SECONDS = 86_400
# what --resume keeps from the session as it was started
_KEPT = ("ruleset", "options", "seat", "seed", "follow", "hand", "dealer", "fresh")


class _Out:
    """Prints events: in words, or one JSON object a line."""

    def __init__(self, session: Session, as_json: bool) -> None:
        self.session, self.as_json = session, as_json

    def __call__(self, events: list[Event]) -> None:
        s = self.session
        for event in events:
            if self.as_json:
                click.echo(json.dumps(event_json(event), ensure_ascii=False))
                continue
            for line in lines(event, s.rules, s.settings.seat, s.settings.follow, s.names):
                click.echo(line)


def _completer(session: Session) -> Callable[[str, int], str | None]:
    """Tab completes the legal cards of the decision at hand and the session's words."""
    words = ["hint", "undo", "show", "score", "help", "quit", "next", "pass", "bid ", "trump ", "give ", "meld",
             "bury ", "concede"]

    def complete(text: str, state: int) -> str | None:
        decision = session.decision()
        cards = [c.ascii() for c in decision.cards] if decision is not None else []
        found = [w for w in cards + words if w.lower().startswith(text.lower())]
        return found[state] if state < len(found) else None

    return complete


def _terminal_reader(session: Session) -> Callable[[], str | None]:
    """Lines typed at a terminal, with completion where ``readline`` is there (not on Windows: none)."""
    try:
        import readline
    except ImportError:
        readline = None  # type: ignore[assignment]
    if readline is not None:
        readline.set_completer(_completer(session))
        binding = "bind ^I rl_complete" if "libedit" in (readline.__doc__ or "") else "tab: complete"
        readline.parse_and_bind(binding)

    def read() -> str | None:
        try:
            return input("> ")
        except EOFError:
            click.echo("")
            return None

    return read


def _pipe_reader() -> str | None:
    line = sys.stdin.readline()
    return None if line == "" else line.rstrip("\r\n")


def _settings(given: dict[str, Any]) -> Settings:
    hand = given["hand"]
    return Settings(given["ruleset"], tuple(_options(given["options"])), given["seat"],
                    given["seed"] if given["seed"] is not None else new_seed(), given["follow"], hand,
                    given["dealer"], given["record"], given["seconds"], given["review"])


def _options(options: tuple[str, ...]) -> list[tuple[str, str]]:
    from ..ruleset import parse_options

    return list(parse_options(options).items())


def _session(resume: bool, given: dict[str, Any]) -> Session:
    """The session resumed from its journal, or begun (refused when one is kept and --fresh is not given)."""
    ctx = click.get_current_context()
    path = journal_path(given["record"])
    if resume:
        named = [p.opts[0] for p in ctx.command.params if p.name in _KEPT
                 and ctx.get_parameter_source(p.name or "") == click.core.ParameterSource.COMMANDLINE]
        if named:
            raise click.UsageError(f"--resume continues the kept session as it was started: leave out "
                                   f"{', '.join(named)}")
        session = Session.resume(path)
        if ctx.get_parameter_source("seconds") == click.core.ParameterSource.COMMANDLINE:
            session.settings = replace(session.settings, seconds=given["seconds"])
        return session
    if path.exists() and not given["fresh"]:
        raise SessionError(f"a session is kept in {path}: continue it with --resume, or start anew with --fresh "
                           "(the kept one is dropped)")
    return Session.begin(_settings(given))


def _loop(session: Session, out: _Out, read: Callable[[], str | None], terminal: bool) -> None:
    """One line at a time until the session is over, the user quits or the input ends."""
    while True:
        decision = session.decision()
        if decision is None:
            return
        line = read()
        if line is None:
            out([session.keep()])
            return
        try:
            command = parse_command(line, session.rules.players)
        except SessionError as exc:
            out([Refused(line.strip(), str(exc))])
            _again(session, out, decision, terminal)
            continue
        events = session.handle(command)
        out(events)
        if any(isinstance(e, Kept) for e in events):
            return
        if events and all(isinstance(e, Refused) for e in events):
            _again(session, out, decision, terminal)


def _again(session: Session, out: _Out, decision: Decision, terminal: bool) -> None:
    """After a refusal, on a terminal: what is still asked."""
    if terminal and not out.as_json:
        s = session
        for line in decision_lines(decision, s.rules, s.settings.seat, s.settings.follow, s.names):
            click.echo(line)


@click.command("play", context_settings=CONTEXT_SETTINGS)
@ruleset_options
@click.option("--seat", type=int, default=0, show_default=True, metavar="N", help="Your seat (0, 1, … clockwise).")
@click.option("--seed", type=click.IntRange(min=0), default=None, metavar="N",
              help="Seed of the deals and the advice [default: a new one, shown]: the same seed, the same deals.")
@click.option("--follow", is_flag=True, help="Follow a deal at a real table: enter what every seat does.")
@click.option("--hand", default=None, metavar="CARDS", help="With --follow: your cards as dealt.")
@click.option("--dealer", type=int, default=None, metavar="SEAT",
              help="Who deals the first deal [default: the record's next dealer, else the seat on your right].")
@click.option("--record", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Append each finished deal to this match record (started when it does not exist; its game "
                   "and table are the session's).")
@click.option("--resume", is_flag=True, help="Continue the session kept after an interruption (beside --record "
                                             "FILE, else in your data folder).")
@click.option("--fresh", is_flag=True, help="Drop a kept session and start anew.")
@click.option("--time", "seconds", type=click.FloatRange(0, _MAX_SECONDS, min_open=True), default=5.0,
              show_default=True, metavar="SECONDS", help="Seconds for one answer of the advice or the computer.")
@click.option("--review/--no-review", default=True, show_default=True,
              help="Judge your decisions when a deal is over (double-dummy and the advice).")
@json_option
def play(resume: bool, as_json: bool, **given: Any) -> None:
    """Play a deal: practise against the computer, or follow a real one, with advice at every decision and a
    review at the end.

    One command a line (help lists them): a card (AH, 10H, A♥), bid N, pass, trump SUIT, give CARDS,
    bury CARDS, meld [SEAT] CARDS, hint (or ?), undo, show, score, help, quit. In practice the program
    deals from --seed and plays every other seat; following a table (--follow --hand CARDS) you enter
    what each seat does as it happens. Every entry is checked against the rules; a refused one
    changes nothing. With --record each finished deal is appended to the record. Ctrl-C or the end
    of the input keeps the deal: --resume continues it. --json prints one JSON object per event.

    \b
    Example:
      pinochle play --seed 7
      pinochle play --follow --hand "AS 10S KS QS JS AH KH QH JD 9D 9C 9C" --seat 0 --dealer 1
    """
    ready_engine()
    session = _session(resume, given)
    out = _Out(session, as_json)
    terminal = sys.stdin.isatty()
    read = _terminal_reader(session) if terminal else _pipe_reader
    try:
        from ..session.session import warm_engine

        warm_engine()
        out(session.start())
        _loop(session, out, read, terminal)
    except KeyboardInterrupt:
        out([session.keep()])
        raise
