"""``pinochle record`` (being written)."""

from __future__ import annotations

import click

from .common import CONTEXT_SETTINGS


@click.group("record", context_settings=CONTEXT_SETTINGS)
def record() -> None:
    """Keep a match record at the table."""
