"""``pinochle score`` (being written)."""

from __future__ import annotations

import click

from .common import CONTEXT_SETTINGS


@click.command("score", context_settings=CONTEXT_SETTINGS)
def score() -> None:
    """Not yet available."""
    raise click.UsageError("not yet available")
