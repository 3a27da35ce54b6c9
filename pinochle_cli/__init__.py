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
"""

from __future__ import annotations

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

__all__ = [
    "Action", "ActionError", "AuctionError", "Card", "CardError", "DealState", "Deck", "Hand", "IllegalPlayError",
    "MeldError", "MeldResult", "OptionError", "PinochleError", "PlayError", "Rank", "RecordError", "Ruleset",
    "RulesetError", "Ruling", "SimulationError", "Suit", "Trick", "Turn", "__version__", "check_play",
    "format_cards", "legal_plays", "load_ruleset", "meld", "parse_card", "parse_cards", "parse_suit",
    "trick_winner", "winning_card",
]
