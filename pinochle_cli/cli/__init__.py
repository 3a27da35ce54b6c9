"""The command line: parse, call the library, format. Nothing here computes game results."""

from __future__ import annotations

import contextlib
import os
import sys

import click

from .. import __version__
from ..ruleset import bundled_names
from ..ruleset.loading import DEFAULT_RULESET
from .common import CONTEXT_SETTINGS, LazyCommand, PinochleGroup, plain_fallback, set_started

# Every command, imported only when it is run: name, where it lives, its line in `pinochle --help`.
COMMANDS = {
    "meld": LazyCommand("meld_cmd:meld", 'The meld in a hand: CARDS such as "AH 10H KH QH JH" (spaces or commas).'),
    "legal": LazyCommand("legal_cmd:legal", "The legal plays to a trick, the card now winning it, and with --play "
                         "whether CARD is allowed."),
    "score": LazyCommand("score_cmd:score", "Score match records: every deal checked against the ruleset, "
                         "running totals, the winner."),
    "stats": LazyCommand("stats_cmd:stats", "Statistics over match records (a game each: a night, a season), per "
                         "side and per player."),
    "estimate": LazyCommand("estimate_cmd:estimate", "How safe is each bid with this hand? Monte Carlo over "
                            "deals of the unseen cards."),
    "pass": LazyCommand("pass_cmd:pass_", "Which cards to pass: every distinct pass, ranked by what it does to the "
                        "contract on common deals."),
    "record": LazyCommand("record_cmd:record", "Keep a match record at the table: start one, then add each deal as "
                          "it is scored."),
    "serve": LazyCommand("serve_cmd:serve", "A live score page over the record FILE, for every phone at the table."),
    "rulesets": LazyCommand("rulesets_cmd:rulesets", "List the bundled rulesets; show, check or describe one."),
    "docs": LazyCommand("docs_cmd:docs", "Print a page of the documentation (without PAGE: the list of pages)."),
    "solve": LazyCommand("solve_cmd:solve", "The counters seat 0's side takes from here on when every player plays "
                         "perfectly, all cards seen."),
    "hint": LazyCommand("hint_cmd:hint", "What should I play? Each legal card judged over the deals of the unseen "
                        "cards consistent with everything you saw, by the deal's score for your side, within --time "
                        "seconds."),
    "analyze": LazyCommand("analyze_cmd:analyze", "Could the bid have been made, and which cards cost points? Each "
                           "card of a recorded deal is compared with the best card, every player playing perfectly "
                           "afterwards with all hands seen."),
    "play": LazyCommand("play_cmd:play", "Play a deal: practise against the computer, or follow a real one, with "
                        "advice at every decision and a review at the end."),
    "prepare": LazyCommand("prepare_cmd:prepare", "Build the fast engine now (the computer player and the solver)."),
}


# every bundled ruleset, found (not written by hand): a new one is listed as soon as it is bundled
RULESETS = ", ".join(f"{name} (default)" if name == DEFAULT_RULESET else name for name in bundled_names())
HELP = f"""Pinochle at the table: exact meld, legal plays, score sheets and bid estimates.

    Rulesets: {RULESETS}, or your own YAML file (-r PATH). Exit codes: 0 ok, 1 the answer is no, 2 bad input,
    130 stopped by Ctrl-C.

    Shell completion (bash): eval "$(_PINOCHLE_COMPLETE=bash_source pinochle)"
    """


@click.group("pinochle", cls=PinochleGroup, lazy=COMMANDS, context_settings=CONTEXT_SETTINGS, help=HELP)
@click.version_option(__version__, "--version", prog_name="pinochle")
def cli() -> None:
    """The ``pinochle`` command: its help is ``HELP``."""


def main(started: float | None = None) -> None:
    """The command line (``pinochle_cli.__main__`` runs it, stopped by Ctrl-C at once): output that cannot be
    written (a full device, a broken disk) ends with one ``Error:`` line and exit code 2. ``started``: the
    ``time.monotonic()`` the process began at, for a command whose time budget counts its start-up."""
    set_started(started)
    # a terminal without ♠ ♥ ♦ ♣ gets S H D C
    for stream in (sys.stdout, sys.stderr):
        plain_fallback(stream)
    try:
        cli(prog_name="pinochle")
    except SystemExit:
        # what is still buffered is written now: a failure to write it is said, not a traceback at exit
        try:
            sys.stdout.flush()
        except OSError as exc:
            _output_lost(exc)
        raise
    except OSError as exc:
        if not _writing_output(exc):
            raise
        _output_lost(exc)


def _writing_output(exc: OSError) -> bool:
    """The error came from writing the output (``click.echo``, the help, the version), not from anything else."""
    tb = exc.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    return tb is not None and tb.tb_frame.f_code.co_name == "echo" and \
        tb.tb_frame.f_globals.get("__name__") == "click.utils"


def _output_lost(exc: OSError) -> None:
    """Output that cannot be written: one ``Error:`` line on stderr, exit 2 (nothing more is tried on stdout: the
    interpreter would flush it once more at exit)."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    with contextlib.suppress(OSError, ValueError):
        sys.stderr.write(f"Error: cannot write the output: {exc.strerror or exc}\n")
        sys.stderr.flush()
    sys.exit(2)
