"""The layout of a record file, declared once: the reader checks each field's shape with it,
and ``record schema`` publishes it as a JSON Schema.

What the layout cannot say (a name at the table, a card in the pack, counters adding up) the
reader checks against the ruleset and the table. A shape refusal is a ``SchemaError`` with the
field's path; ``shaped`` re-words it as a ``RecordError`` with the deal.
"""

from __future__ import annotations

from typing import Any

from ..errors import RecordError, SchemaError, relocated
from ..schema import Bool, Field, Int, MapOf, Nullable, Obj, Schema, Seq, Whatever, fail, json_text
from ..yamlsource import Node

__all__ = [
    "CALLS", "CARDS", "DEAL", "DEAL_KEYS", "MELD_VALUE", "NAME", "PLAYERS", "RECORD", "TOP_KEYS", "TRICK", "by_side",
    "field_of", "located", "record_json_schema", "record_schema_json_text", "shaped",
]


class Text(Schema):
    """Text that is not blank; ``loose``: any plain value, read as written (a name ``10``)."""

    def __init__(self, description: str, *, loose: bool = False) -> None:
        self.description = description
        self.loose = loose

    def check(self, node: Node, path: str) -> str:
        fits = node.kind == "scalar" and node.value is not None and (self.loose or isinstance(node.value, str))
        if not fits or not node.raw.strip():
            raise self.expect(node, path)
        return node.raw.strip()

    def to_json(self) -> dict[str, Any]:
        if self.loose:
            return {"type": ["string", "number", "boolean"]}
        return {"type": "string", "pattern": r"\S"}


class Names(Schema):
    """A list of names (players, clockwise seats)."""

    kinds = ("seq",)

    def __init__(self, description: str) -> None:
        self.description = description

    def check(self, node: Node, path: str) -> list[str]:
        if node.kind != "seq" or not all(n.kind == "scalar" for n in node.items):
            raise self.expect(node, path)
        return [NAME.check(n, path) for n in node.items]

    def to_json(self) -> dict[str, Any]:
        return {"type": "array", "items": NAME.to_json()}


class Tokens(Schema):
    """Cards or calls: a list of plain values, or one text of them. Gives the list's texts, or the text."""

    kinds = ("seq", "scalar")

    def __init__(self, description: str, *, mixed: str | None = None) -> None:
        """``mixed``: the refusal of a list holding a list or mapping (else the usual one)."""
        self.description = description
        self.mixed = mixed

    def check(self, node: Node, path: str) -> list[str] | str:
        if node.kind == "seq":
            if all(n.kind == "scalar" for n in node.items):
                return [n.raw for n in node.items]
            if self.mixed is not None:
                raise fail(node, path, self.mixed)
        elif node.kind == "scalar" and isinstance(node.value, str):
            return node.raw
        raise self.expect(node, path)

    def to_json(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": ["string", "integer"]}}]}


class MeldValue(Schema):
    """A side's meld: a whole number, or (for a player) the cards shown, returned as their node."""

    kinds = ("scalar", "seq")
    description = "a whole number (or, for a player, the cards shown)"

    def check(self, node: Node, path: str) -> int | Node:
        if node.kind == "scalar" and isinstance(node.value, (bool, float)):
            raise fail(node, path, f"expected {self.description}, got {node.raw}")
        if node.kind == "scalar" and isinstance(node.value, int):
            if node.value < 0:
                raise fail(node, path, f"expected a whole number, got {node.raw}")
            return int(node.value)
        return node

    def to_json(self) -> dict[str, Any]:
        return {"anyOf": [{"type": "integer", "minimum": 0}, CARDS.to_json()]}


NAME = Text("a name", loose=True)
WHOLE = Int(0, description="a whole number")
CARDS = Tokens('cards (e.g. "AH 10H KH")', mixed="expected cards, got a list with a mapping or list in it")
CALLS = Tokens("the calls in order (numbers and pass)")
TRICK = Tokens("the trick's cards")
FLAG = Nullable(Bool())
PLAYERS = Names("a list of player names")
MELD_VALUE = MeldValue()


def by_side(teams: bool) -> MapOf:
    """Numbers by side: by team or player where there are teams."""
    return MapOf(WHOLE, description=f"numbers by {'team or player' if teams else 'player'}")


DEAL = Obj({
    "dealer": Field(Nullable(NAME), doc="who dealt"),
    "bidder": Field(Nullable(NAME), doc="who won the auction"),
    "bid": Field(Nullable(Int(description="a number")), doc="the contract"),
    "auction": Field(Nullable(CALLS), doc="every call from the dealer's left: numbers and pass"),
    "trump": Field(Nullable(Text("a suit", loose=True)), doc="the trump suit"),
    "meld": Field(Nullable(MapOf(MELD_VALUE, description="meld by team or player")),
                  doc="by team or player: points, or a player's cards shown"),
    "counters": Field(Nullable(by_side(True)), doc="the counter points each side took"),
    "tricks": Field(Nullable(by_side(True)), doc="the tricks each side took"),
    "hands": Field(Nullable(MapOf(CARDS, description="each player's cards")), doc="each player's cards"),
    "stock": Field(Nullable(CARDS), doc="the stock when play starts, top first"),
    "widow": Field(Nullable(CARDS), doc="the cards dealt aside that the bidder took (games with a widow)"),
    "buried": Field(Nullable(CARDS), doc="the cards the bidder laid away (games with a widow)"),
    "play": Field(Nullable(Seq(TRICK, description="the tricks in order")),
                  doc="every trick's cards in the order played"),
    "conceded": Field(FLAG, doc="the bidder conceded after the meld"),
    "no-trump": Field(FLAG, doc="the bidder could name no trump"),
    "redeal": Field(FLAG, doc="thrown in before the auction"),
    "notes": Field(Whatever()),
}, "a deal", wrong="a deal is a mapping of fields, got {got}",
    unknown="unknown key {key!r} (a deal has {known})")

RECORD = Obj({
    "ruleset": Field(Text("a ruleset name or path"), required=True, doc="a bundled game's name, or a path"),
    "options": Field(Nullable(MapOf(Text("a choice", loose=True), description="a mapping of option to choice")),
                     doc="the ruleset's options: name to choice"),
    "teams": Field(MapOf(PLAYERS, NAME, description="a mapping of team names to players"),
                   doc="partnership games: each team's name and players"),
    "players": Field(PLAYERS, doc="games without partnerships: the players"),
    "seating": Field(Names("the players clockwise"), doc="the players clockwise from seat 0"),
    "deals": Field(Nullable(Seq(DEAL, description="a list of deals")), doc="the deals in order"),
    "title": Field(Whatever()),
    "date": Field(Whatever()),
    "notes": Field(Whatever()),
}, "a record", wrong="a record is a mapping (ruleset, teams or players, deals), got {got}",
    unknown="unknown key {key!r} (a record has {known})")

TOP_KEYS = tuple(RECORD.fields)
DEAL_KEYS = tuple(DEAL.fields)


def field_of(layout: Obj, key: str) -> Schema:
    """The shape of a field once present (the reader takes a null as absent)."""
    schema = layout.fields[key].schema
    return schema.inner if isinstance(schema, Nullable) else schema


def located(node: Node | None, message: str, *, deal: int | None = None, field: str | None = None,
            trick: int | None = None) -> RecordError:
    """A record problem at ``node``'s line."""
    if node is None:
        return RecordError(message, deal=deal, field=field, trick=trick)
    return RecordError(message, source=node.source, line=node.line, deal=deal, field=field, trick=trick)


def shaped(schema: Schema, node: Node, field: str, *, deal: int | None = None, trick: int | None = None,
           kind_only: bool = False) -> Any:
    """``schema.check`` (``kind_only``: ``schema.check_kind``) with a refusal re-worded as a record problem
    (a ``RecordError`` at the value's line, with ``deal`` and ``trick``)."""
    try:
        if kind_only:
            schema.check_kind(node, field)
            return node
        return schema.check(node, field)
    except SchemaError as exc:
        raise relocated(exc, deal=deal, trick=trick, field=None if trick is not None else exc.path or None) from None


def record_json_schema() -> dict[str, Any]:
    """The JSON Schema of a record file, generated from the layout the reader checks with."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://pinochle-cli.invalid/record.schema.json",
        "title": "pinochle_cli match record",
        **RECORD.to_json(),
    }


def record_schema_json_text() -> str:
    return json_text(record_json_schema())
