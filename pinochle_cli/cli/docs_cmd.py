"""``pinochle docs [PAGE]`` and ``pinochle record format``: the shipped documentation."""

from __future__ import annotations

import click

from ..docs import TOPICS, topic_text
from .common import CONTEXT_SETTINGS, table


@click.command("docs", context_settings=CONTEXT_SETTINGS)
@click.argument("page", required=False, type=click.Choice(list(TOPICS)))
def docs(page: str | None) -> None:
    """Print a page of the documentation (without PAGE: the list of pages).

    The rules of each game are printed by: pinochle rulesets show NAME --rules
    """
    if page is None:
        click.echo(table([[name, what] for name, (_, what) in TOPICS.items()], ["page", "what"]))
        click.echo("\nThe rules of a game: pinochle rulesets show NAME --rules")
        return
    click.echo(topic_text(page), nl=False)


@click.command("format", context_settings=CONTEXT_SETTINGS)
def record_format() -> None:
    """Print the record format: the keys of a match, the fields of a deal, what is checked."""
    click.echo(topic_text("records"), nl=False)
