"""The words of the rules, typed: each ``Literal`` alias is the one list of its words.

The ruleset schema builds its choices from these (``words``), the model's fields are typed
with them, and mypy refuses a comparison with a word that is not in the list.
"""

from __future__ import annotations

from typing import Any, Literal, get_args

__all__ = [
    "BothReach", "BuriedCounters", "BuryBan", "BuryWhen", "DealResult", "EarlyEnd", "DutyName", "DutyWhen", "KeepMeld",
    "Leader", "MadeNeeds", "MatchStatus", "Melders", "OutcomeKind", "PatternMode", "Phase", "Sides", "Tie",
    "TrumpEligible", "TrumpSource", "words",
]

# what a player must do in a trick
DutyName = Literal["follow", "trump", "beat"]
# when a duty applies
DutyWhen = Literal["always", "trump-led", "plain-led"]
# games with a stock: while it lasts, then after
Phase = Literal["stock", "play-off"]
# who leads the first trick
Leader = Literal["bidder", "dealer-left"]
# named by the bidder, or turned up from the stock
TrumpSource = Literal["bid", "turn-up"]
# which suits the bidder may name
TrumpEligible = Literal["any", "marriage"]
# a meld card's suit: fixed, trump, not trump, any
PatternMode = Literal["fixed", "trump", "plain", "any"]
# what a side needs to keep its meld
KeepMeld = Literal["trick", "counter", "always"]
# what the bidders need besides reaching the bid
MadeNeeds = Literal["nothing", "trick", "counter"]
# what a side scores
OutcomeKind = Literal["minus-bid", "minus-double-bid", "meld", "meld-and-counters", "nothing"]
# who plays together: the fixed partnerships, or the bidder alone against the others (for the deal;
# each player scores alone)
Sides = Literal["partnerships", "bidder-alone"]
# who melds: every player, or only the bidder
Melders = Literal["all", "bidder"]
# when the bidder buries as many cards as the widow held: after the meld is shown, or before it
BuryWhen = Literal["after-meld", "before-meld"]
# what the bidder may not bury: a card shown in meld, a trump, a card that counts
BuryBan = Literal["melded", "trump", "counter"]
# whose the counters of the buried cards are: the bidder's, or the winner's of the last trick
BuriedCounters = Literal["bidder", "last-trick"]
# two or more sides reach the target on one deal
BothReach = Literal["bidders", "higher"]
# equal totals when a winner is due
Tie = Literal["another-deal", "draw"]
# a deal over before any card is played
EarlyEnd = Literal["redeal", "no-trump", "not-on-board", "conceded"]
DealResult = Literal["made", "set", EarlyEnd]
MatchStatus = Literal["in-progress", "won", "draw"]


def words(vocabulary: Any) -> tuple[str, ...]:
    """The words of a ``Literal`` alias, in order (for a schema's choices)."""
    return tuple(get_args(vocabulary))
