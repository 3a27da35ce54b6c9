"""The exact meld of a hand, driven only by the ruleset's meld table; two-handed declarations.

``meld(rules, hand, trump)`` is the largest meld ``hand`` shows with ``trump`` and its combinations;
``meld_table(rules)`` the engine over batches of hands (``engine``, on the ``components`` of each trump; the numpy
``batches`` load only for batches); ``most_meld`` the most one hand of the ruleset can show (``most``);
``check_declaration`` judges a two-handed declaration (``declare``). Too many cards for the ruleset's hand raise
``CardError``; a two-handed declaration that could not have scored raises ``MeldError``.
"""

from ..ruleset import TABLE_LIMIT
from .declare import Declaration, check_declaration
from .engine import (
    MeldItem,
    MeldResult,
    MeldTable,
    best_trump,
    check_cards,
    meld,
    meld_by_trump,
    meld_table,
    multiple_name,
    nameable_trumps,
    shown_cards,
)
from .most import MostMeld, most_meld

__all__ = [
    "Declaration", "MeldItem", "MeldResult", "MeldTable", "MostMeld", "TABLE_LIMIT", "best_trump", "check_cards",
    "check_declaration", "meld", "meld_by_trump", "meld_table", "most_meld", "multiple_name", "nameable_trumps",
    "shown_cards",
]
