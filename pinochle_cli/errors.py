"""The exception hierarchy: one base, a subclass per kind of bad input.

Every message names the input at fault: the token, the file and line, the deal and trick.
The command line prints ``Error: <message>`` and exits with code 2 for all of them.
"""

from __future__ import annotations


class PinochleError(Exception):
    """Base of every error this package raises on purpose."""


class CardError(PinochleError, ValueError):
    """A card or list of cards that cannot be read, or does not fit the deck."""


class RulesetError(PinochleError):
    """A ruleset that cannot be found, read or validated."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 column: int | None = None, path: str | None = None) -> None:
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
        super().__init__(f"{where}{field}{message}")


class OptionError(PinochleError):
    """An unknown ruleset option or an invalid choice for one."""


class MeldError(PinochleError):
    """A declaration that cannot be read (not a refusal, which is an answer)."""


class PlayError(PinochleError):
    """Impossible trick input: too many cards, a missing phase, cards beyond the pack."""


class RecordError(PinochleError):
    """A match record that cannot be read, or that could not be true under its ruleset."""

    def __init__(self, message: str, *, source: str | None = None, line: int | None = None,
                 deal: int | None = None, trick: int | None = None, field: str | None = None) -> None:
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
        super().__init__(f"{prefix}: {message}" if prefix else message)


class SimulationError(PinochleError):
    """An estimate that cannot be made (a ruleset without an auction, bad sample counts)."""
