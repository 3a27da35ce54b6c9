"""``pinochle solve --batch``: positions as JSON lines in, one JSON line out per position, in order.

Each line is read on its own: one that is not UTF-8 text, not JSON, JSON nested too deeply, an object with a key
given twice, or a position that cannot be read gets its own answer, ``{"line": N, "error": "..."}``; the other
lines' answers are kept.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from typing import IO, TYPE_CHECKING, Any

import click

from ..cards import Hand
from ..errors import Message, PinochleError, PlayError
from ..ruleset import Ruleset
from .common import error_words, get_ruleset, get_trump, read_cards, words

if TYPE_CHECKING:
    # the solver loads numba: only for this command
    from ..solver.batch import BatchFailure, BatchItem, BatchResult

# the keys of a position's line, and the type each needs
KEYS: dict[str, type] = {"trump": str, "hands": list, "leader": int, "trick": str, "ruleset": str, "bidder": int}


def _field(data: dict[str, Any], key: str, default: Any) -> Any:
    """``data[key]`` checked against its type in ``KEYS`` (``default`` when absent; ``...``: required)."""
    if key not in data:
        if default is ...:
            raise PlayError(f'the key "{key}" is missing')
        return default
    value = data[key]
    want = KEYS[key]
    if not isinstance(value, want) or (want is int and isinstance(value, bool)):
        raise PlayError(f'"{key}": {json.dumps(value)} is not {"an integer" if want is int else "a " + want.__name__}')
    return value


def read_item(text: str, rulesets: Callable[[str | None], Ruleset], time_limit: float) -> BatchItem:
    """The position of one line (``PlayError`` or the card and ruleset errors naming the bad value)."""
    from ..solver.batch import BatchItem
    from ..solver.solve import Position

    try:
        data = json.loads(text, object_pairs_hook=_once)
    except RecursionError:
        raise PlayError("not a position: JSON nested too deeply") from None
    except PlayError:
        raise
    except ValueError as exc:
        raise PlayError(f"not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise PlayError(f"a position is a JSON object with the keys {', '.join(KEYS)}, not {json.dumps(data)}")
    unknown = sorted(set(data) - set(KEYS))
    if unknown:
        raise PlayError(f'unknown key "{unknown[0]}": the keys are {", ".join(KEYS)}')
    rules = rulesets(_field(data, "ruleset", None))
    suit = get_trump(_field(data, "trump", ...), rules)
    assert suit is not None
    hands = _field(data, "hands", ...)
    if len(hands) != rules.players or not all(isinstance(h, str) for h in hands):
        raise PlayError(f'"hands": give {rules.players} strings of cards ({rules.name} has {rules.players} players), '
                        "seat 0 first")
    leader = _field(data, "leader", 0)
    if not 0 <= leader < rules.players:
        raise PlayError(f'"leader": {leader} is not a seat 0..{rules.players - 1}')
    bidder = _bidder(rules, _field(data, "bidder", None))
    cards = tuple(Hand(read_cards(h, f'"hands" {seat} (seat {seat})')) for seat, h in enumerate(hands))
    trick = tuple(read_cards(_field(data, "trick", ""), '"trick"'))
    return BatchItem(rules, suit, Position(cards, leader, trick), bidder=bidder, time_limit=time_limit)


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose every key is given once (``PlayError`` naming one given twice)."""
    keys = [key for key, _ in pairs]
    twice = next((key for key in keys if keys.count(key) > 1), None)
    if twice is not None:
        raise PlayError(f"the key {json.dumps(twice[:40])} is given more than once")
    return dict(pairs)


def _bidder(rules: Ruleset, bidder: int | None) -> int | None:
    """``"bidder"``: needed where the auction forms the sides, refused where the partnerships are fixed (as
    ``solve --bidder``); seat 0's side is "us" either way."""
    if not rules.sides_by_auction:
        if bidder is not None:
            raise PlayError(f'"bidder" does not apply: in {rules.name} the partnerships are fixed')
        return None
    if bidder is None:
        raise PlayError(f'"bidder" is needed: in {rules.name} the bidder plays alone against the others')
    if not 0 <= bidder < rules.players:
        raise PlayError(f'"bidder": {bidder} is not a seat 0..{rules.players - 1}')
    return bidder


def _lines(source: IO[bytes]) -> Iterator[tuple[int, str | PlayError]]:
    """The lines that are not blank, numbered from 1, as text (or why a line is not UTF-8 text)."""
    for number, data in enumerate(source, start=1):
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            yield number, PlayError(f"not UTF-8 text (byte {exc.start + 1} of the line is {data[exc.start]:#04x})")
            continue
        if text.strip():
            yield number, text


def result_json(result: BatchResult | BatchFailure, number: int) -> dict[str, Any]:
    """A result's line: ``solve --json``'s document plus ``nodes`` and ``seconds``, or the line's error."""
    from ..solver.batch import BatchFailure

    if isinstance(result, BatchFailure):
        return {"line": number, "error": words(result.error)}
    return {"value": result.value, "to_play": result.to_play,
            "plays": [{"card": c.ascii(), "value": v} for c, v in result.plays],
            "nodes": result.nodes, "seconds": round(result.seconds, 4)}


def run_batch(source: IO[bytes], ruleset: str | None, options: tuple[str, ...], time_limit: float,
              workers: int) -> None:
    """Solve every line of ``source``; at the end, ``PlayError`` if any line was bad."""
    from ..solver.batch import BatchFailure, BatchItem, solve_batch

    loaded: dict[str | None, Ruleset] = {}

    def rulesets(name: str | None) -> Ruleset:
        # the command's -r/-o for a line without "ruleset"; a line's own ruleset as it is bundled or written
        if name not in loaded:
            loaded[name] = get_ruleset(ruleset, options) if name is None else get_ruleset(name, (), where='"ruleset"')
        return loaded[name]

    read: list[tuple[int, BatchItem | BatchFailure]] = []
    for number, text in _lines(source):
        try:
            if isinstance(text, PlayError):
                raise text
            read.append((number, read_item(text, rulesets, time_limit)))
        except PinochleError as exc:
            read.append((number, BatchFailure(Message(error_words(exc)), type(exc).__name__)))
    items = [entry for _, entry in read if isinstance(entry, BatchItem)]
    results = solve_batch(items, workers=workers)
    bad = 0
    for number, entry in read:
        result = next(results) if isinstance(entry, BatchItem) else entry
        bad += isinstance(result, BatchFailure)
        click.echo(json.dumps(result_json(result, number), ensure_ascii=False))
    if bad:
        raise PlayError(f"{bad} of {len(read)} position{'s' if len(read) != 1 else ''} could not be solved: see "
                        'the lines with "error"')
