"""pinochle_cli: exact meld, legal plays, score keeping, bid estimates and play advice for pinochle.

The library's front door (docs/api.md, also ``pinochle docs api``)::

    from pinochle_cli import load_ruleset, Hand, meld, legal_plays, DealState
    rules = load_ruleset("single-deck", target=1000)
    meld(rules, Hand.parse("AH 10H KH QH JH"), "H").total        # 150
    state = DealState(rules, dealer=0, hands=[...])               # a deal in progress

Every function takes the ruleset first, then what is asked about, then its context; a suit may be
given as a ``Suit``, its letter, symbol or name. Importing this package loads neither numpy nor numba:
the estimator (``pinochle_cli.estimate.simulate``), the solver (``pinochle_cli.solver``) and the hint
(``pinochle_cli.hint.advice``) are imported from their own modules.

Importing the package itself loads nothing else: each name of the front door is imported from its module when it
is first used (``__getattr__``), so that the command line starts, and answers Ctrl-C, before anything heavy is
loaded. ``meld`` is the function, as it always was, also once the ``meld`` package has been imported.
"""

from __future__ import annotations

import importlib
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .cards import Card, Deck, Hand, Rank, Suit, format_cards, parse_card, parse_cards, parse_suit
    from .errors import (
        ActionError,
        AuctionError,
        CardError,
        IllegalPlayError,
        MeldError,
        OptionError,
        PinochleError,
        PlayError,
        RecordError,
        RulesetError,
        SimulationError,
    )
    from .game.actions import Action
    from .game.state import DealState, Trick, Turn
    from .game.tricks import Ruling, check_play, legal_plays, trick_winner, winning_card
    from .meld import MeldResult, meld
    from .ruleset import Ruleset, load_ruleset

__version__ = "0.1.0"

# each name of the front door and the module it comes from
_FROM = {
    **dict.fromkeys(("Card", "Deck", "Hand", "Rank", "Suit", "format_cards", "parse_card", "parse_cards", "parse_suit"),
                    ".cards"),
    **dict.fromkeys(("ActionError", "AuctionError", "CardError", "IllegalPlayError", "MeldError", "OptionError",
                     "PinochleError", "PlayError", "RecordError", "RulesetError", "SimulationError"), ".errors"),
    "Action": ".game.actions",
    **dict.fromkeys(("DealState", "Trick", "Turn"), ".game.state"),
    **dict.fromkeys(("Ruling", "check_play", "legal_plays", "trick_winner", "winning_card"), ".game.tricks"),
    **dict.fromkeys(("MeldResult", "meld"), ".meld"),
    **dict.fromkeys(("Ruleset", "load_ruleset"), ".ruleset"),
}

__all__ = [
    "Action", "ActionError", "AuctionError", "Card", "CardError", "DealState", "Deck", "Hand", "IllegalPlayError",
    "MeldError", "MeldResult", "OptionError", "PinochleError", "PlayError", "Rank", "RecordError", "Ruleset",
    "RulesetError", "Ruling", "SimulationError", "Suit", "Trick", "Turn", "__version__", "check_play",
    "format_cards", "legal_plays", "load_ruleset", "meld", "parse_card", "parse_cards", "parse_suit",
    "trick_winner", "winning_card",
]


def __getattr__(name: str) -> Any:
    """A name of the front door, imported from its module on first use; else a submodule of that name."""
    where = _FROM.get(name)
    if where is None:
        try:
            return importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError:
            raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    value = getattr(importlib.import_module(where, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


class _Package(ModuleType):
    """This package: a submodule named as a function of the front door (``meld``) does not hide the function."""

    def __setattr__(self, name: str, value: Any) -> None:
        if isinstance(value, ModuleType) and _FROM.get(name) == f".{name}":
            return
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
