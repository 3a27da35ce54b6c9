"""pinochle_cli: exact meld, legal plays, score keeping and bid estimates for pinochle.

The library is usable without the command line::

    from pinochle_cli import load_ruleset, Hand
    rules = load_ruleset("single-deck")
"""

from __future__ import annotations

from .cards import Card, Deck, Hand, Rank, Suit, format_cards, parse_card, parse_cards, parse_suit
from .errors import (
    CardError,
    MeldError,
    OptionError,
    PinochleError,
    PlayError,
    RecordError,
    RulesetError,
    SimulationError,
)
from .ruleset import Ruleset, load_ruleset

__version__ = "0.1.0"

__all__ = [
    "Card", "CardError", "Deck", "Hand", "MeldError", "OptionError", "PinochleError", "PlayError",
    "Rank", "RecordError", "Ruleset", "RulesetError", "SimulationError", "Suit", "__version__",
    "format_cards", "load_ruleset", "parse_card", "parse_cards", "parse_suit",
]
