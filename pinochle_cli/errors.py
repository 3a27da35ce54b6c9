"""The exception hierarchy: one base, a subclass per kind of bad input.

Every message names the input at fault: the token, the file and line, the deal and trick.
The command line prints ``Error: <message>`` and exits with code 2 for all of them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # for the annotations only: the modules below import this one
    from .cards import Card
    from .tricks import Ruling


class PinochleError(Exception):
    """Base of every error this package raises on purpose.

    ``parameter``: the library argument at fault, when one is (e.g. ``samples``); the message
    names it in words, and the command line words it as its option (``--samples``).
    """

    def __init__(self, *args: object, parameter: str | None = None) -> None:
        super().__init__(*args)
        self.parameter = parameter


class CardError(PinochleError, ValueError):
    """A card or list of cards that cannot be read, or does not fit the deck."""


class YamlError(PinochleError):
    """Text that is not YAML, or YAML with a duplicate key or an unsupported construct."""


class RulesetError(PinochleError):
    """A ruleset that cannot be found, read or validated."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 column: int | None = None, path: str | None = None, parameter: str | None = None) -> None:
        self.source = source
        self.line = line
        self.column = column
        self.path = path
        self.detail = message
        where = ""
        if source is not None:
            where = source
            if line is not None:
                where += f":{line}"
                if column is not None:
                    where += f":{column}"
            where += ": "
        field = f"{path}: " if path else ""
        super().__init__(f"{where}{field}{message}", parameter=parameter)


class SchemaError(RulesetError):
    """A value that does not fit its declared shape (``schema.py``): ``path`` says where.

    A ruleset's loader lets it through as the ``RulesetError`` it is; the record reader
    re-words it with the deal and field (a ``RecordError``).
    """


class OptionError(PinochleError):
    """An unknown ruleset option or an invalid choice for one."""


class MeldError(PinochleError):
    """A declaration that cannot be read (not a refusal, which is an answer)."""


class PlayError(PinochleError):
    """Impossible trick input: too many cards, a missing phase, cards beyond the pack."""


class IllegalPlayError(PlayError):
    """A play that breaks the rules: ``trick`` (1-based), ``seat``, ``card`` and the ``ruling``.

    ``detail`` is the message without its ``trick n:`` prefix, for callers that say where
    themselves ("deal 2, trick 7: Di played 9♥ holding K♥ — must beat the A♥ led").
    """

    def __init__(self, trick: int, seat: int, card: Card, ruling: Ruling, player: str, detail: str) -> None:
        self.trick = trick
        self.seat = seat
        self.card = card
        self.ruling = ruling
        self.player = player
        self.detail = detail
        super().__init__(f"trick {trick}: {detail}")


class AuctionError(PinochleError):
    """A bid or an auction's call that the ruleset's auction does not allow; names the call at fault."""


class TableNameError(PinochleError):
    """A name that is not at the table, or that fits more than one name there."""


class ScoringError(PinochleError):
    """A deal that cannot be scored from its facts; ``field`` names the record field that would settle it."""

    def __init__(self, message: str, *, field: str | None = None, deal: int | None = None) -> None:
        self.field = field
        self.deal = deal  # 1-based, when scoring a match
        super().__init__(message)


class MissingFactError(ScoringError):
    """The score depends on a fact that was not given: whether side ``side`` took a trick
    (``fact`` ``tricks``) or whether its meld was all of the kinds kept on their own (``meld``).
    The record reader words it with the side's name."""

    def __init__(self, fact: str, side: int) -> None:
        self.fact = fact
        self.side = side
        super().__init__(f"the score depends on side {side + 1}'s {fact}, which is not given", field=fact)


class RecordError(PinochleError):
    """A match record that cannot be read, or that could not be true under its ruleset."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 deal: int | None = None, trick: int | None = None, field: str | None = None,
                 parameter: str | None = None) -> None:
        self.source = source
        self.line = line
        self.deal = deal
        self.trick = trick
        self.field = field
        self.detail = message
        parts: list[str] = []
        if source is not None:
            parts.append(source if line is None else f"{source}:{line}")
        where = ""
        if deal is not None:
            where = f"deal {deal}"
            if trick is not None:
                where += f", trick {trick}"
        if field:
            where = f"{where}, {field}" if where else field
        prefix = ": ".join(p for p in (" ".join(parts), where) if p)
        super().__init__(f"{prefix}: {message}" if prefix else message, parameter=parameter)


class SimulationError(PinochleError):
    """An estimate that cannot be made (a ruleset without an auction, bad sample counts)."""
