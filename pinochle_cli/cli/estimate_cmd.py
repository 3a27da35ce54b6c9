"""``pinochle estimate`` (being written)."""

from __future__ import annotations

import click

from .common import CONTEXT_SETTINGS


@click.command("estimate", context_settings=CONTEXT_SETTINGS)
def estimate() -> None:
    """Not yet available."""
    raise click.UsageError("not yet available")
