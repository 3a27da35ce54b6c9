"""``pinochle rulesets``: list, show, check and the JSON Schema of the format."""

from __future__ import annotations

import dataclasses
from typing import Any

import click

from ..ruleset import Ruleset, bundled_names, load_ruleset, ruleset_schema_json_text
from ..ruleset.copy import write_copy
from ..ruleset.rulebook import rules_json, rules_text
from .common import (
    CONTEXT_SETTINGS,
    complete_ruleset,
    emit_json,
    game_label,
    get_ruleset,
    json_option,
    option_options,
    table,
)


def _points(points: tuple[int, ...]) -> str:
    names = ["", "double ", "triple ", "quadruple "]
    if len(points) == 1:
        return f"{points[0]} each"
    return ", ".join(f"{names[i] if i < len(names) else f'{i + 1}x '}{p}".strip() for i, p in enumerate(points))


def _describe(rules: Ruleset) -> dict[str, Any]:
    """The whole game as data (``--json`` of ``rulesets show``)."""
    return {
        **rules.summary(),
        "path": rules.path,
        "aliases": list(rules.aliases),
        "deck": {"suits": [s.letter for s in rules.suits], "ranks": [r.letter for r in rules.rank_order],
                 "copies": rules.deck.copies},
        "partnerships": [list(t) for t in rules.partnerships],
        "stock": rules.stock_size,
        "counters": {r.letter: v for r, v in rules.counters.items()},
        "last_trick": rules.last_trick,
        "counter_total": rules.counter_total,
        "play": {"leader": rules.play.leader, "duties": [d.describe() for d in rules.play.duties],
                 "stock_duties": [d.describe() for d in rules.play.stock_duties]},
        "auction": None if rules.auction is None else {
            "minimum": rules.auction.minimum,
            "steps": [{"from": a, "by": b, "to": c} for a, b, c in rules.auction.steps],
            "dealer_stuck": rules.auction.dealer_stuck},
        "trump": {"source": rules.trump_source, "eligible": rules.trump_eligible,
                  "needs": [r.letter for r in rules.trump_needs]},
        "exchange": rules.exchange,
        "meld": [{"name": c.name, "class": c.klass, "cards": [str(p) for p in c.pattern],
                  "points": list(c.points)} for c in rules.meld],
        "scoring": dataclasses.asdict(rules.scoring),
        "match": dataclasses.asdict(rules.match),
        "options": [{"name": o.name, "description": o.description, "default": o.default,
                     "choices": list(o.choices), "chosen": rules.chosen[o.name]} for o in rules.options],
    }


def _show_text(rules: Ruleset) -> str:
    parts = [f"{game_label(rules)}: {rules.description}", f"file: {rules.path}", ""]
    parts.append(table([
        ["players", rules.players],
        ["sides", "  ".join("+".join(str(s) for s in t) for t in rules.partnerships)],
        ["deck", f"{rules.deck.size} cards: {' '.join(r.label for r in rules.rank_order)} "
                 f"× {rules.deck.copies} in {' '.join(s.symbol for s in rules.suits)}"],
        ["hand size", rules.hand_size],
        ["stock", rules.stock_size or "none"],
        ["counters", ", ".join(f"{r.label} {v}" for r, v in rules.counters.items())
         + f"; last trick {rules.last_trick}; {rules.counter_total} in a deal"],
        ["first lead", rules.play.leader],
        ["play", "; ".join(d.describe() for d in rules.play.duties) or "any card"],
        *([["while stock lasts", "; ".join(d.describe() for d in rules.play.stock_duties) or "any card"]]
          if rules.has_stock else []),
        ["auction", "none" if rules.auction is None else
         f"minimum {rules.auction.minimum}; {rules.auction.describe_steps()}"
         + ("; dealer stuck" if rules.auction.dealer_stuck else "")],
        ["trump", rules.trump_source + (f"; naming a suit takes the {rules.trump_requirement()}"
                                        if rules.trump_needs else "")],
        ["exchange", rules.exchange],
        ["keep meld", rules.scoring.keep_meld],
        ["match", f"target {rules.match.target}" if rules.match.target else f"{rules.match.deals} deals"],
    ], tablefmt="plain"))
    parts += ["", "Meld (+ trump, * a plain suit):",
              table([[c.name, c.klass, " ".join(str(p) for p in c.pattern), _points(c.points)]
                     for c in rules.meld], ["combination", "class", "cards", "points"])]
    if rules.options:
        parts += ["", "Options (-o KEY=VALUE):",
                  table([[o.name, " | ".join(o.choices), o.default, rules.chosen[o.name], o.description]
                         for o in rules.options], ["option", "choices", "default", "now", "what"])]
    return "\n".join(parts)


@click.group("rulesets", invoke_without_command=True, context_settings=CONTEXT_SETTINGS)
@json_option
@click.pass_context
def rulesets(ctx: click.Context, as_json: bool) -> None:
    """List the bundled rulesets; show, check or describe one."""
    if ctx.invoked_subcommand is not None:
        return
    games = [load_ruleset(n) for n in bundled_names()]
    rows = [g.summary() for g in games]
    if as_json:
        emit_json(rows)
        return
    click.echo(table([[r["name"], r["players"], r["deck_size"], r["hand_size"], g.widow_size or "-",
                       r["minimum_bid"] if r["minimum_bid"] is not None else "-",
                       r["target"] if r["target"] is not None else f"{r['deals']} deals"]
                      for r, g in zip(rows, games, strict=True)],
                     ["name", "players", "deck", "cards each", "widow", "minimum bid", "target"]))


@rulesets.command("show", context_settings=CONTEXT_SETTINGS)
@click.argument("ruleset", metavar="NAME|PATH", shell_complete=complete_ruleset)
@option_options
@click.option("--rules", "as_rules", is_flag=True,
              help="The rules of the game in words (Markdown; with --json: its sections).")
@json_option
def show(ruleset: str, options: tuple[str, ...], as_rules: bool, as_json: bool) -> None:
    """Show a ruleset in full: meld table, counters, play, auction, scoring, options.

    --rules prints the game's rules in words, as the program plays them (the text of the
    project's docs/games/NAME.md); with --json, its title and sections as JSON.
    """
    rules = get_ruleset(ruleset, options, where="NAME|PATH")
    if as_rules and as_json:
        emit_json(rules_json(rules, game_label(rules)))
    elif as_rules:
        click.echo(rules_text(rules, game_label(rules)), nl=False)
    elif as_json:
        emit_json(_describe(rules))
    else:
        click.echo(_show_text(rules))


@rulesets.command("check", context_settings=CONTEXT_SETTINGS)
@click.argument("path", metavar="PATH")
@option_options
@json_option
def check(path: str, options: tuple[str, ...], as_json: bool) -> None:
    """Validate a ruleset file (every field, every option choice); exit 2 with the line at fault."""
    rules = get_ruleset(path, options, where="PATH")
    if as_json:
        emit_json({"valid": True, **rules.summary(), "path": rules.path,
                   "options": {o.name: list(o.choices) for o in rules.options}})
    else:
        click.echo(f"{rules.path}: valid ruleset {rules.name!r} ({rules.players} players, "
                   f"{rules.deck.size} cards, {len(rules.meld)} meld combinations, "
                   f"{len(rules.options)} options)")


@rulesets.command("copy", context_settings=CONTEXT_SETTINGS)
@click.argument("ruleset", metavar="NAME|PATH", shell_complete=complete_ruleset)
@click.argument("path", metavar="FILE", type=click.Path(dir_okay=False))
@click.option("--name", "name", metavar="TEXT", default=None,
              help="The copy's name, shown in every answer [default: FILE's name without .yaml].")
@click.option("--force", is_flag=True, help="Replace FILE if it exists.")
def copy(ruleset: str, path: str, name: str | None, force: bool) -> None:
    """Copy a ruleset to FILE under a new name, with its comments, to change into house rules.

    \b
    Example:
      pinochle rulesets copy single-deck house.yaml --name "Friday rules"
    """
    rules = get_ruleset(ruleset, (), where="NAME|PATH")
    copied = write_copy(rules, path, name, force=force)
    click.echo(f"Wrote {path}: {copied.name!r}, a copy of {rules.name}. Change what your table plays, then: "
               f"pinochle rulesets check {path}")


@rulesets.command("schema", context_settings=CONTEXT_SETTINGS)
def schema() -> None:
    """Print the JSON Schema of the ruleset format (for editors)."""
    click.echo(ruleset_schema_json_text(), nl=False)
