"""The exception hierarchy: one base, a subclass per kind of bad input, and ``relocated``.

Every message names the input at fault: the token, the file and line, the deal and trick.
Each kind of bad input is also a ``ValueError``; a search stopped by its limit
(``SearchLimitError``) is not. The command line prints ``Error: <message>`` and exits with
code 2 for all of them. This module imports nothing from the package (every module imports it).

A message that names a library argument (``samples 0: give between 1 and …``) says so in its
parts: a ``Message`` is the text with each such ``Argument`` (the parameter and the value given
to it) kept apart, so that a caller with other names for the arguments (the command line's
options) words them its own way (``Message.worded``) without reading the text. As a ``str`` a
``Message`` is the library's words.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol, TypeVar

_T = TypeVar("_T")


@dataclass(frozen=True)
class Argument:
    """A library argument a message names: ``parameter`` with the ``value`` given to it (``samples 0``), alone
    (``value`` None: ``name is empty``), or set to ``value`` (``assigned``: ``name="X"``, ``force=True``). As a
    ``str``: the library's words, as a Python caller writes the argument."""

    parameter: str
    value: object = None
    assigned: bool = False

    def __str__(self) -> str:
        if self.assigned:
            return f"{self.parameter}={self.value}"
        return self.parameter if self.value is None else f"{self.parameter} {self.value}"


class Message(str):
    """Words in parts: text and the ``Argument``s it names (see the module docstring). As a ``str``: the
    library's words."""

    parts: tuple[str | Argument, ...]

    def __new__(cls, *parts: str | Argument) -> Message:
        message = super().__new__(cls, "".join(map(str, parts)))
        message.parts = tuple(part for part in parts if part != "")
        return message

    @property
    def arguments(self) -> tuple[Argument, ...]:
        """The arguments named, in order."""
        return tuple(part for part in self.parts if isinstance(part, Argument))

    def worded(self, argument: Callable[[Argument], str]) -> str:
        """The message with each argument in the words ``argument`` gives it (the text between as it is)."""
        return "".join(argument(part) if isinstance(part, Argument) else part for part in self.parts)


def as_message(text: str) -> Message:
    """``text`` as a ``Message``: itself when it is one; plain words otherwise (naming no argument: a message that
    names one is raised as a ``Message`` of its parts)."""
    return text if isinstance(text, Message) else Message(text)


class PinochleError(Exception):
    """Base of every error this package raises on purpose.

    ``message``: the words, a ``Message`` (given as one, or plain text naming no argument).
    ``parameter``: the library argument at fault, when one is (e.g. ``samples``), by default the first the
    message names; the command line words it as its option (``--samples``).
    """

    def __init__(self, *args: object, parameter: str | None = None) -> None:
        super().__init__(*args)
        given = args[0] if len(args) == 1 and isinstance(args[0], Message) else None
        self.message: Message = given if given is not None else as_message(str(self))
        named = self.message.arguments
        self.parameter = parameter if parameter is not None else named[0].parameter if named else None


def _placed(place: str, message: str) -> Message:
    """``message`` after the words saying where (``place``), its arguments kept."""
    return Message(place, *as_message(message).parts)


class CardError(PinochleError, ValueError):
    """A card or list of cards that cannot be read, or does not fit the deck."""


class YamlError(PinochleError, ValueError):
    """Text that is not YAML, or YAML with a duplicate key or an unsupported construct."""


class RulesetError(PinochleError, ValueError):
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
        super().__init__(_placed(f"{where}{field}", message), parameter=parameter)


class SchemaError(RulesetError):
    """A value that does not fit its declared shape (``schema.py``): ``path`` says where.

    A ruleset's loader lets it through as the ``RulesetError`` it is; the record reader
    re-words it with the deal and field (a ``RecordError``).
    """


class OptionError(PinochleError, ValueError):
    """An unknown ruleset option or an invalid choice for one."""


class MeldError(PinochleError, ValueError):
    """A declaration that cannot be read (not a refusal, which is an answer)."""


class PlayError(PinochleError, ValueError):
    """Impossible trick input: too many cards, a missing phase, cards beyond the pack."""


class HintError(PlayError):
    """What a player says they saw (their hand, the meld shown, the exchange, the tricks) contradicts
    itself or the rules: the message names the fact at fault and where it is."""


class ActionError(PlayError):
    """What a seat does in a deal that cannot be read, or that the deal does not take now: out of turn, at the
    wrong moment, or not this seat's to do. The message quotes the action and says whose turn it is."""


class PlayedCard(Protocol):
    """What ``IllegalPlayError.card`` offers: a ``cards.Card``, named here without importing it."""

    @property
    def index(self) -> int: ...

    def ascii(self) -> str: ...


class PlayRuling(Protocol):
    """What ``IllegalPlayError.ruling`` offers: a ``tricks.Ruling``, named here without importing it."""

    @property
    def allowed(self) -> bool: ...

    @property
    def duty(self) -> str | None: ...

    @property
    def reason(self) -> str: ...

    @property
    def summary(self) -> str: ...


class IllegalPlayError(PlayError):
    """A play that breaks the rules: ``trick`` (1-based), ``seat``, ``card`` and the ``ruling``.

    ``detail`` is the message without its ``trick n:`` prefix, for callers that say where
    themselves ("deal 2, trick 7: Di played 9♥ holding K♥ — must beat the A♥ led").
    """

    def __init__(self, trick: int, seat: int, card: PlayedCard, ruling: PlayRuling, player: str,
                 detail: str) -> None:
        self.trick = trick
        self.seat = seat
        self.card = card
        self.ruling = ruling
        self.player = player
        self.detail = detail
        super().__init__(f"trick {trick}: {detail}")


class AuctionError(PinochleError, ValueError):
    """A bid or an auction's call that the ruleset's auction does not allow; names the call at fault."""


class TableNameError(PinochleError, ValueError):
    """A name that is not at the table, or that fits more than one name there."""


class ScoringError(PinochleError, ValueError):
    """A deal that cannot be scored from its facts; ``field`` names the record field that would settle it."""

    def __init__(self, message: str, *, field: str | None = None, deal: int | None = None) -> None:
        self.field = field
        # 1-based, when scoring a match
        self.deal = deal
        super().__init__(message)


class MissingFactError(ScoringError):
    """The score depends on a fact that was not given: whether side ``side`` took a trick
    (``fact`` ``tricks``) or whether its meld was all of the kinds kept on their own (``meld``).
    The record reader words it with the side's name."""

    def __init__(self, fact: str, side: int) -> None:
        self.fact = fact
        self.side = side
        super().__init__(f"the score depends on side {side + 1}'s {fact}, which is not given", field=fact)


class RecordError(PinochleError, ValueError):
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
        super().__init__(_placed(f"{prefix}: " if prefix else "", message), parameter=parameter)


class SimulationError(PinochleError, ValueError):
    """An estimate that cannot be made (a ruleset without an auction, bad sample counts)."""


class ConditionError(PinochleError, ValueError):
    """A condition on an unseen hand that cannot be read, names no seat of the game, or no deal can meet."""


class RareConditionError(SimulationError):
    """Conditions so rare that the deals meeting them cannot be drawn in reasonable time (the share is told)."""


class PassError(SimulationError):
    """A pass question that cannot be asked: a game without a pass, a hand or received cards of the wrong size."""


class SearchLimitError(PinochleError):
    """A search stopped by its node or time limit before it had an answer.

    Not bad input (so neither a ``PlayError`` nor a ``ValueError``): the same question may be
    answered with a higher limit. ``solver.solve.SolveAborted`` is this class.
    """


class _Keep(enum.Enum):
    """The default of ``relocated``'s keywords: keep what the error said."""

    KEEP = enum.auto()


_KEEP = _Keep.KEEP


def _given(value: _T | _Keep, kept: _T) -> _T:
    return kept if isinstance(value, _Keep) else value


def relocated(error: PinochleError, *, detail: str | _Keep = _KEEP, source: str | _Keep | None = _KEEP,
              line: int | _Keep | None = _KEEP, deal: int | _Keep | None = _KEEP,
              trick: int | _Keep | None = _KEEP, field: str | _Keep | None = _KEEP) -> RecordError:
    """``error`` moved to another place: a ``RecordError`` that changes only what is named.

    From a ``RecordError`` it keeps the detail, source, line, deal, trick and field; from a
    ``RulesetError`` (a ``SchemaError``) the detail, source, line and path as the field (a
    record's errors name no column); from any other error (a ``YamlError``) its whole message
    as the detail and no place. A keyword given replaces that part, ``None`` drops it: a line
    read from other text than the file at ``source`` must go (``line=None``). The parameter at
    fault is kept. Raises nothing.
    """
    if isinstance(error, RecordError):
        kept = (error.detail, error.source, error.line, error.deal, error.trick, error.field)
    elif isinstance(error, RulesetError):
        kept = (error.detail, error.source, error.line, None, None, error.path or None)
    else:
        kept = (error.message, None, None, None, None, None)
    return RecordError(_given(detail, kept[0]), source=_given(source, kept[1]), line=_given(line, kept[2]),
                       deal=_given(deal, kept[3]), trick=_given(trick, kept[4]), field=_given(field, kept[5]),
                       parameter=error.parameter)


class FormError(PinochleError, ValueError):
    """A form the checker refused: the message beside each field it concerns, by the form's field name."""

    def __init__(self, errors: Mapping[str, str]) -> None:
        self.errors = dict(errors)
        super().__init__("; ".join(f"{name}: {message}" for name, message in self.errors.items()))


class ServeError(PinochleError):
    """The score page cannot be served: its extra not installed, no free port, an address that cannot be used
    (not bad input alone: a port in use is the machine's state)."""


class StaleRecordError(RecordError):
    """A change made from a version of a record that is no longer the record's (another phone, or a terminal, changed
    it meanwhile): refused, the file unchanged. ``deals``: how many deals the record holds now."""

    def __init__(self, message: str, *, source: str | None = None, deals: int = 0) -> None:
        self.deals = deals
        super().__init__(message, source=source)


class SessionError(PinochleError, ValueError):
    """A play session that cannot start, go on or resume: settings the game does not take, a line that is no
    command of the session, a saved session that cannot be read or does not match what was asked."""


class JournalError(SessionError):
    """The journal of a session kept for ``resume``: missing, unreadable, or not a session of this program."""
