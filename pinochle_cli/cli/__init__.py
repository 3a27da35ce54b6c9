"""The command line: parse, call the library, format. Nothing here computes game results."""

from __future__ import annotations

import sys

import click

from .. import __version__
from .analyze_cmd import analyze
from .common import CONTEXT_SETTINGS, PinochleGroup, plain_fallback
from .docs_cmd import docs, record_format
from .estimate_cmd import estimate
from .legal_cmd import legal
from .meld_cmd import meld
from .record_cmd import record
from .record_schema_cmd import record_schema
from .rulesets_cmd import rulesets
from .score_cmd import score
from .solve_cmd import solve


@click.group("pinochle", cls=PinochleGroup, context_settings=CONTEXT_SETTINGS)
@click.version_option(__version__, "--version", prog_name="pinochle")
def cli() -> None:
    """Pinochle at the table: exact meld, legal plays, score sheets and bid estimates.

    Rulesets: two-handed, single-deck (default), single-deck-small, double-deck, or your own
    YAML file (-r PATH). Exit codes: 0 ok, 1 the answer is no, 2 bad input.

    Shell completion (bash): eval "$(_PINOCHLE_COMPLETE=bash_source pinochle)"
    """


for command in (meld, legal, score, estimate, record, rulesets, docs, solve, analyze):
    cli.add_command(command)
record.add_command(record_format)
record.add_command(record_schema)


def main() -> None:
    for stream in (sys.stdout, sys.stderr):  # a terminal without ♠ ♥ ♦ ♣ gets S H D C
        plain_fallback(stream)
    cli(prog_name="pinochle")
