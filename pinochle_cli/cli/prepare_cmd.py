"""``pinochle prepare``: build the compiled engine now, ahead of the first command that needs it."""

from __future__ import annotations

import time

import click

from ..game.machine_code import engine_dir
from ..prepare import build, ready
from .common import CONTEXT_SETTINGS, emit_json, json_option
from .progress import duration


@click.command("prepare", context_settings=CONTEXT_SETTINGS)
@json_option
def prepare(as_json: bool) -> None:
    """Build the fast engine now (the computer player and the solver).

    estimate, pass, hint, solve and analyze need it; the first of them after an install builds it
    (about half a minute on two cores) and says so. Run this after installing to have it ready. It is kept
    beside the package (or in your cache folder) and built again only when the program changes.
    """
    start = time.monotonic()
    before = ready()
    ok = before or build()
    if not ok:
        raise click.ClickException("the fast engine could not be built here; each command compiles what it needs")
    if as_json:
        emit_json({"ready": True, "built_now": not before, "seconds": round(time.monotonic() - start, 1),
                   "folder": str(engine_dir())})
        return
    if before:
        click.echo(f"The fast engine is ready (built before, in {engine_dir()}).")
    else:
        click.echo(f"The fast engine is ready: built in {duration(time.monotonic() - start)}, kept in {engine_dir()}.")
