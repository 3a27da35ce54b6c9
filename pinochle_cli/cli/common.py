"""What every command shares: ruleset/option/trump/JSON options and output helpers."""

from __future__ import annotations

import codecs
import difflib
import importlib
import os
import re
import shutil
import sys
import textwrap
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Any, TypeVar

import click
import tabulate as tabulate_module
from click.shell_completion import CompletionItem
from tabulate import tabulate

from ..cards import Card, Suit, parse_cards, parse_suit
from ..errors import Argument, CardError, OptionError, PinochleError, RulesetError, as_message
from ..reasons import Reason
from ..ruleset import Ruleset, bundled_names, bundled_path, load_ruleset, parse_options

if TYPE_CHECKING:
    from ..records import MatchRecord

F = TypeVar("F", bound=Callable[..., Any])

CONTEXT_SETTINGS = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


# --------------------------------------------------------------------------- output on any terminal

# what a stream that cannot encode a character prints instead: suits as letters (A♥ → AH)
_PLAIN = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "≥": ">=", "≤": "<=", "←": "<-", "→": "->", "±": "+/-",
          "–": "-", "—": "-", "…": "...", "×": "x", "†": "+", "•": "*"}
PLAIN_ERRORS = "pinochle-plain"


def _plain(error: UnicodeError) -> tuple[str, int]:
    if not isinstance(error, UnicodeEncodeError):
        raise error
    return "".join(_PLAIN.get(ch, "?") for ch in error.object[error.start:error.end]), error.end


codecs.register_error(PLAIN_ERRORS, _plain)


def plain_fallback(stream: IO[str] | None) -> None:
    """Let ``stream`` print letters for the suit symbols (and ASCII for other signs) it cannot encode."""
    reconfigure = getattr(stream, "reconfigure", None)
    if reconfigure is not None:
        reconfigure(errors=PLAIN_ERRORS)


# --------------------------------------------------------------------------- shell completion

def _starting(words: Iterable[str], incomplete: str) -> list[CompletionItem]:
    return [CompletionItem(w) for w in words if w.lower().startswith(incomplete.lower())]


def complete_ruleset(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Bundled ruleset names, then YAML files."""
    names = _starting(bundled_names(), incomplete)
    return names or [CompletionItem(incomplete, type="file")]


def _completion_record(ctx: click.Context) -> MatchRecord | None:
    """The record a command line being completed names (while an option waits for its value, click
    leaves the record's path among the unparsed arguments)."""
    # only when completing: records are not needed to start
    from ..records import read_record

    path = next((p for p in (ctx.params.get("path"), *ctx.args) if isinstance(p, str) and os.path.isfile(p)), None)
    try:
        return read_record(path, strict=False) if path is not None else None
    except PinochleError:
        return None


def _completion_ruleset(ctx: click.Context) -> Ruleset | None:
    """The ruleset a command line being completed names (its -r, a record's, or the default)."""
    spec = ctx.params.get("ruleset")
    record = _completion_record(ctx) if spec is None else None
    if record is not None:
        return record.rules
    try:
        return load_ruleset(spec if isinstance(spec, str) and spec else None)
    except PinochleError:
        return None


def complete_option(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``NAME=CHOICE`` for every choice of every option of the ruleset on the command line."""
    rules = _completion_ruleset(ctx)
    pairs = [f"{o.name}={c}" for o in rules.options for c in o.choices] if rules is not None else []
    return _starting(pairs, incomplete)


def complete_suit(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    rules = _completion_ruleset(ctx)
    suits = rules.suits if rules is not None else tuple(Suit)
    return _starting([s.letter for s in suits] + [s.word for s in suits], incomplete)


def complete_player(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The players of the record named on the command line."""
    record = _completion_record(ctx)
    players = [p for team in record.table.members for p in team] if record is not None else []
    return _starting(players, incomplete)


# --------------------------------------------------------------------------- options every command shares

def option_options(func: F) -> F:
    """Repeatable ``-o/--option KEY=VALUE``: the ruleset's option choices."""
    return click.option("-o", "--option", "options", multiple=True, metavar="KEY=VALUE",
                        shell_complete=complete_option,
                        help="A ruleset option, e.g. -o target=1000 (repeatable).")(func)


def ruleset_options(func: F) -> F:
    """``-r/--ruleset`` and repeatable ``-o/--option``; read with ``get_ruleset``."""
    func = option_options(func)
    func = click.option("-r", "--ruleset", "ruleset", metavar="NAME|PATH", default=None,
                        shell_complete=complete_ruleset,
                        help="Bundled ruleset name or YAML path [default: $PINOCHLE_RULESET or single-deck].")(func)
    return func


def json_option(func: F) -> F:
    return click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of tables.")(func)


def trump_option(required: bool = False) -> Callable[[F], F]:
    def deco(func: F) -> F:
        # no explicit default when required: click 8.3+ treats default=None as a value given
        extra: dict[str, Any] = {} if required else {"default": None}
        return click.option("-t", "--trump", "trump", metavar="SUIT", required=required, shell_complete=complete_suit,
                            help="Trump suit: S H D C, a suit name or ♠ ♥ ♦ ♣.", **extra)(func)
    return deco


def condition_options(given: str, auction: str, dealer: str) -> Callable[[F], F]:
    """``--given`` (repeatable), ``--auction``, ``--dealer`` and ``--conventions``: what is known of the other hands,
    with each command's own help for the first three."""
    def deco(func: F) -> F:
        func = click.option("--conventions", "conventions_file", type=click.Path(dir_okay=False), default=None,
                            metavar="FILE", help="A YAML file with a conventions: section, read instead of the "
                            "ruleset's (with --auction).")(func)
        func = click.option("--dealer", type=click.Choice(["me", "left", "partner", "right"]), default=None,
                            help=dealer)(func)
        func = click.option("--auction", "calls", default=None, metavar="CALLS", help=auction)(func)
        return click.option("--given", "given", multiple=True, metavar="'WHO: CONDITION'", help=given)(func)
    return deco


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """``; did you mean 'X'?`` for the choice closest to a mistyped ``word`` (any case), or ``""``."""
    named = {c.lower(): c for c in choices}
    close = difflib.get_close_matches(word.strip().lower(), list(named), n=1, cutoff=0.6)
    return f"; did you mean {named[close[0]]!r}?" if close else ""


def get_ruleset(ruleset: str | None, options: Sequence[str], *, where: str = "-r/--ruleset") -> Ruleset:
    """The ruleset named by ``-r`` (None: the default), with the ``-o`` choices applied; a mistyped bundled name,
    option or choice gets the closest one suggested."""
    if ruleset is not None and not ruleset.strip():
        raise RulesetError(f"{where} is empty: give a bundled ruleset ({', '.join(bundled_names())}) or a YAML path")
    try:
        return load_ruleset(ruleset, parse_options(options))
    except RulesetError as exc:
        # a name that is neither a bundled game nor a file: the closest bundled game
        mistyped = ruleset is not None and bundled_path(ruleset) is None and not os.path.exists(ruleset)
        hint = did_you_mean(ruleset, bundled_names()) if ruleset is not None and mistyped else ""
        if not hint:
            raise
        raise RulesetError(f"{exc}{hint}") from None
    except OptionError as exc:
        hint = _option_hint(ruleset, options)
        if not hint:
            raise
        raise OptionError(f"{error_words(exc)}{hint}") from None


def _option_hint(ruleset: str | None, options: Sequence[str]) -> str:
    """The closest option or choice to the first mistyped ``-o KEY=VALUE``, or ``""``."""
    try:
        plain = load_ruleset(ruleset)
    except PinochleError:
        return ""
    known = {o.name.lower(): o for o in plain.options}
    for key, _, value in (pair.partition("=") for pair in options):
        found = known.get(key.strip().lower())
        if found is None:
            return did_you_mean(key, [o.name for o in plain.options])
        if value.strip() not in found.choices:
            return did_you_mean(value, found.choices)
    return ""


def get_trump(text: str | None, rules: Ruleset | None = None) -> Suit | None:
    if text is None:
        return None
    try:
        suit = parse_suit(text)
    except CardError as exc:
        raise CardError(f"{exc}{suit_hint(text)}") from None
    if rules is not None and suit not in rules.suits:
        raise CardError(f'"{text}" is not a suit of the {rules.name} pack')
    return suit


def suit_hint(text: str) -> str:
    """``; did you mean 'hearts'?`` for a mistyped suit's name (``""`` for a suit, or nothing close)."""
    try:
        parse_suit(text)
    except CardError:
        return did_you_mean(text, [s.word for s in Suit])
    return ""


def game_label(rules: Ruleset) -> str:
    """The game and the options away from their defaults, as given here: ``single-deck (-o target=1000)``."""
    changed = rules.changed_options
    return rules.name + (" (" + " ".join(f"-o {k}={v}" for k, v in changed.items()) + ")" if changed else "")


def heading(rules: Ruleset, trump: Suit | None = None) -> str:
    """The first line of a human answer: the game, the options away from their defaults, the trump."""
    return game_label(rules) + ("" if trump is None else f", trump {trump.symbol} {trump.word}")


def read_cards(text: str, where: str) -> list[Card]:
    """The cards of ``text``; an unreadable card is reported with ``where`` (the option) in front."""
    try:
        return parse_cards(text)
    except CardError as exc:
        raise CardError(f"{where}: {exc}") from None


# --------------------------------------------------------------------------- library parameters as options

# the option that gives each library parameter a command passes on: a message about the one names the other
OPTION_OF = {"samples": "--samples", "precision": "--precision", "confidence": "--confidence", "seed": "--seed",
             "workers": "--workers", "exact_from": "--exact-from", "name": "--name", "clear": "--clear",
             "force": "--force", "meld": "--meld", "worlds": "--worlds", "time": "--time", "seat": "--seat",
             "bidder": "--bidder", "leader": "--leader", "hand": "--hand", "bid": "--bid", "passed": "--passed",
             "received": "--received", "tricks": "--tricks", "given": "--given", "auction": "--auction",
             "dealer": "--dealer", "conventions": "--conventions", "top": "--top", "pass_policy": "--pass",
             "buried": "--buried", "widow": "--widow", "as": "--as", "role": "--as", "by": "--by",
             "trump": "--trump", "time_limit": "--time-limit", "trick": "--trick"}


def option_words(argument: Argument) -> str:
    """A library argument as the command line gives it: its option with the value (``--samples 0``, ``--name
    "X"``), alone (``--name``) or switched on (``--force``); an argument no option gives, as the library words it."""
    flag = OPTION_OF.get(argument.parameter)
    if flag is None:
        return str(argument)
    if argument.value is None or (argument.assigned and argument.value is True):
        return flag
    return f"{flag} {argument.value}"


def words(message: str) -> str:
    """A library message (an error's, a notice) as the command line shows it: each argument it names as its
    option (``option_words``)."""
    return as_message(message).worded(option_words)


def error_words(exc: PinochleError) -> str:
    """The message of a library error as the command line shows it."""
    return exc.message.worded(option_words)


def emit_json(data: Any) -> None:
    # here: a command without --json starts without it
    import json

    click.echo(json.dumps(data, ensure_ascii=False, indent=2))


def terminal_width() -> int:
    """The terminal's width ($COLUMNS first; 80 when it cannot be told)."""
    return shutil.get_terminal_size((80, 24)).columns


# below this many columns the estimate's and the pass's tables take their narrow layout
NARROW_COLUMNS = 80


def narrow() -> bool:
    """Whether the terminal is narrower than ``NARROW_COLUMNS`` ($COLUMNS first)."""
    return terminal_width() < NARROW_COLUMNS


def fitted(line: str) -> str:
    """A line of prose wrapped to a narrow terminal (as it is on a wider one); wrapped lines are indented."""
    if not narrow() or len(line) <= terminal_width():
        return line
    return textwrap.fill(line, terminal_width(), subsequent_indent="  ", break_on_hyphens=False,
                         break_long_words=False)


def table(rows: Iterable[Sequence[Any]], headers: Sequence[str] = (), **kw: Any) -> str:
    return tabulate(list(rows), headers=list(headers), **kw)


def tight_table(rows: Iterable[Sequence[Any]], headers: Sequence[str], colalign: Sequence[str] | None = None, *,
                numparse: bool = True) -> str:
    """A table whose columns are no wider than their widest cell or header (for narrow terminals);
    ``colalign``: each column's alignment (default: numbers right, text left); ``numparse`` False: cells as given."""
    saved = tabulate_module.MIN_PADDING
    # tabulate pads every header by 2 otherwise
    tabulate_module.MIN_PADDING = 0
    try:
        return tabulate(list(rows), headers=list(headers), colalign=None if colalign is None else list(colalign),
                        disable_numparse=not numparse)
    finally:
        tabulate_module.MIN_PADDING = saved


class OneLineError(click.ClickException):
    """A usage error shown as the contract wants every error: one ``Error: …`` line, exit code 2."""

    exit_code = 2

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))

    def show(self, file: Any = None) -> None:
        click.echo(f"Error: {self.format_message()}", err=True)


# click's words for a value that is none of an option's choices
_NOT_ONE_OF = re.compile(r"'(?P<value>[^']*)' is not one of ")


def _one_line(exc: click.ClickException) -> click.ClickException:
    """Click's own errors (unknown option, missing argument, bad value) without the usage lines; a mistyped choice
    gets the closest one suggested."""
    if isinstance(exc, (OneLineError, click.exceptions.NoArgsIsHelpError)):
        return exc
    message = exc.format_message()
    kind = getattr(getattr(exc, "param", None), "type", None)
    found = _NOT_ONE_OF.search(message)
    if isinstance(kind, click.Choice) and found:
        hint = did_you_mean(found["value"], [str(choice) for choice in kind.choices])
        message = message.removesuffix(".") + hint if hint else message
    return OneLineError(message)


@dataclass(frozen=True)
class LazyCommand:
    """A subcommand imported only when it is run (so that a command loads only what it uses).

    ``where``: ``module:attribute`` in this package; ``summary``: its line in the command list,
    the first sentence of its help (a test checks that the two agree).
    """

    where: str
    summary: str

    def load(self) -> click.Command:
        module, _, attribute = self.where.partition(":")
        command = getattr(importlib.import_module(f"{__package__}.{module}"), attribute)
        if not isinstance(command, click.Command):
            raise TypeError(f"{self.where} is not a click command")
        return command


class PinochleGroup(click.Group):
    """A click group that turns the package's errors into ``Error: …`` and exit code 2.

    ``lazy``: subcommands by name, imported on first use; ``--help`` lists them from their
    summaries without importing them.
    """

    def __init__(self, *args: Any, lazy: Mapping[str, LazyCommand] | None = None, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lazy: dict[str, LazyCommand] = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*self.commands, *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in self.lazy:
            self.add_command(self.lazy[cmd_name].load(), cmd_name)
        return super().get_command(ctx, cmd_name)

    def listed_help(self, name: str, limit: int = 45) -> str:
        """A command's line in the command list, without importing a lazy command not yet loaded."""
        command = self.commands.get(name)
        if command is not None:
            return command.get_short_help_str(limit)
        # shortened as click does
        return click.Command(name, help=self.lazy[name].summary).get_short_help_str(limit)

    def _listed(self, ctx: click.Context, prefix: str = "") -> list[str]:
        return [name for name in self.list_commands(ctx) if name.startswith(prefix)
                and not (name in self.commands and self.commands[name].hidden)]

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        names = self._listed(ctx)
        # as click lists them: 3 times the default spacing
        if names:
            limit = formatter.width - 6 - max(len(name) for name in names)
            with formatter.section("Commands"):
                formatter.write_dl([(name, self.listed_help(name, limit)) for name in names])

    def shell_complete(self, ctx: click.Context, incomplete: str) -> list[CompletionItem]:
        names = [CompletionItem(name, help=self.listed_help(name)) for name in self._listed(ctx, incomplete)]
        return names + click.Command.shell_complete(self, ctx, incomplete)

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None,
                                                                             list[str]]:
        """A command, or an error suggesting the closest of every command (the lazy ones too)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            raise click.exceptions.NoSuchCommand(click.utils.make_str(args[0]), possibilities=self.list_commands(ctx),
                                                 ctx=ctx) from None

    def make_context(self, info_name: str | None, args: list[str], parent: click.Context | None = None,
                     **extra: Any) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:
            raise _one_line(exc) from None
        # Ctrl-C while the command line is read (click would print "Aborted!" and exit 1)
        except KeyboardInterrupt:
            click.echo("", err=True)
            sys.exit(130)

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except PinochleError as exc:
            click.echo(f"Error: {error_words(exc)}", err=True)
            ctx.exit(2)
        except click.ClickException as exc:
            raise _one_line(exc) from None
        except BrokenPipeError:
            ctx.exit(0)
        # Ctrl-C: stop quietly, with the shell's code for it
        except KeyboardInterrupt:
            click.echo("", err=True)
            ctx.exit(130)


def why_lines(reasons: Sequence[Reason]) -> None:
    """``Why:`` and each reason on its own line (wrapped under its text on a narrow terminal)."""
    if reasons:
        click.echo("Why:")
        for r in reasons:
            line = f"  - {r.text}"
            # a narrow terminal: each reason wrapped, its further lines under its first word
            if narrow() and len(line) > terminal_width():
                line = textwrap.fill(line, terminal_width(), subsequent_indent="    ", break_on_hyphens=False,
                                     break_long_words=False)
            click.echo(line)


# when the process began (``main``'s ``started``); None when the command line runs inside another program
_STARTED: list[float | None] = [None]
# the least share of a time budget a command keeps, however long its start-up took
_FLOOR_SHARE = 0.2


def set_started(started: float | None) -> None:
    """Remember when the process began, for ``time_left``."""
    _STARTED[0] = started


def time_left(seconds: float) -> float:
    """``seconds`` less what the process has taken since it began (its start-up: imports, the engine loaded),
    when that is known, but never less than ``_FLOOR_SHARE`` of it."""
    started = _STARTED[0]
    if started is None:
        return seconds
    return max(seconds - (time.monotonic() - started), _FLOOR_SHARE * seconds)
