"""``pinochle meld`` (being written)."""

from __future__ import annotations

import click

from .common import CONTEXT_SETTINGS


@click.command("meld", context_settings=CONTEXT_SETTINGS)
def meld() -> None:
    """Not yet available."""
    raise click.UsageError("not yet available")
