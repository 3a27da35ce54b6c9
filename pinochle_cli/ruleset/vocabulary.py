"""The words of the rules, typed: each ``Literal`` alias is the one list of its words.

The ruleset schema builds its choices from these (``words``), the model's fields are typed
with them, and mypy refuses a comparison with a word that is not in the list.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

__all__ = [
    "BothReach", "DealResult", "EarlyEnd", "DutyName", "DutyWhen", "KeepMeld", "Leader", "MadeNeeds", "MatchStatus",
    "OutcomeKind", "PatternMode", "Phase", "Tie", "TrumpEligible", "TrumpSource", "words",
]

DutyName = Literal["follow", "trump", "beat"]  # what a player must do in a trick
DutyWhen = Literal["always", "trump-led", "plain-led"]  # when a duty applies
Phase = Literal["stock", "play-off"]  # games with a stock: while it lasts, then after
Leader = Literal["bidder", "dealer-left"]  # who leads the first trick
TrumpSource = Literal["bid", "turn-up"]  # named by the bidder, or turned up from the stock
TrumpEligible = Literal["any", "marriage"]  # which suits the bidder may name
PatternMode = Literal["fixed", "trump", "plain", "any"]  # a meld card's suit: fixed, trump, not trump, any
KeepMeld = Literal["trick", "counter", "always"]  # what a side needs to keep its meld
MadeNeeds = Literal["nothing", "trick", "counter"]  # what the bidders need besides reaching the bid
OutcomeKind = Literal["minus-bid", "minus-double-bid", "meld", "meld-and-counters", "nothing"]  # what a side scores
BothReach = Literal["bidders", "higher"]  # both sides reach the target on one deal
Tie = Literal["another-deal", "draw"]  # equal totals when a winner is due
EarlyEnd = Literal["redeal", "no-trump", "not-on-board", "conceded"]  # a deal over before any card is played
DealResult = Literal["made", "set", EarlyEnd]
MatchStatus = Literal["in-progress", "won", "draw"]


def words(vocabulary: Any) -> tuple[str, ...]:
    """The words of a ``Literal`` alias, in order (for a schema's choices)."""
    return tuple(get_args(vocabulary))
