"""``pinochle legal`` (being written)."""

from __future__ import annotations

import click

from .common import CONTEXT_SETTINGS


@click.command("legal", context_settings=CONTEXT_SETTINGS)
def legal() -> None:
    """Not yet available."""
    raise click.UsageError("not yet available")
