"""``pinochle record schema``: the JSON Schema of a record file."""

from __future__ import annotations

import click

from ..records import record_schema_json_text
from .common import CONTEXT_SETTINGS


@click.command("schema", context_settings=CONTEXT_SETTINGS)
def record_schema() -> None:
    """Print the JSON Schema of the record format (for editors)."""
    click.echo(record_schema_json_text(), nl=False)
