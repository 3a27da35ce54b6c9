"""What a bury lays away and keeps, in words taken from the meld engine and the ruleset's data.

``bury_words(rules, hand, buried, trump)`` says the counter points buried and whose they are
(``bury.counters``), the trumps buried and kept, the meld the bidder scores (the whole hand's
declaration when the bury follows the meld, the kept cards' when it comes first), the combinations
of the whole hand's declaration that the kept cards no longer hold, and the suits the bury leaves
void. Raises nothing for cards of the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Hand, Suit, format_cards
from ..meld import meld
from ..ruleset import Ruleset
from .explain import counted, losses, meld_name

__all__ = ["BuryWords", "bidders", "bury_words"]


def bidders(rules: Ruleset) -> str:
    """Who scores the contract: ``the bidder`` alone, or ``the bidding side`` (partners who keep their teams)."""
    alone = rules.sides_by_auction or len(rules.partnerships) == rules.players
    return "the bidder" if alone else "the bidding side"


@dataclass(frozen=True)
class BuryWords:
    buried: tuple[Card, ...]
    counters: int
    # the ruleset's word for whose the buried counters are (``bury.counters``), and in words
    counters_to: str
    whose: str
    trumps: tuple[Card, ...]
    trumps_kept: int
    # True: the meld is shown before the bury (from the whole hand)
    after_meld: bool
    meld: int
    # the combinations of the declaration the bidder scores, and those of the whole hand's the kept cards lack
    melds: tuple[str, ...]
    broken: tuple[str, ...]
    voids: tuple[Suit, ...]

    def text(self, verb: str) -> str:
        """``buries 10 in counters (the bidder's) and no trump; keeps 7 trumps; meld 240 (…) shown before the bury;
        void in ♦``."""
        trumps = (counted(len(self.trumps), "trump") + f" ({format_cards(self.trumps)})" if self.trumps
                  else "no trump")
        counters = f"{self.counters} in counters ({self.whose})" if self.counters else "no counter"
        parts = [f"{verb} {counters} and {trumps}",
                 f"keeps {counted(self.trumps_kept, 'trump')}"]
        melds = ", ".join(self.melds) if self.melds else "none"
        parts.append(f"meld {self.meld} ({melds})" + (" shown before the bury" if self.after_meld else ""))
        return "; ".join(parts + losses(self.broken, self.voids))

    def to_json(self) -> dict[str, Any]:
        return {"counters_buried": self.counters, "counters_to": self.counters_to,
                "trumps_buried": [c.ascii() for c in self.trumps], "trumps_kept": self.trumps_kept,
                "meld": self.meld, "melds": list(self.melds), "broken": list(self.broken),
                "voids": [s.letter for s in self.voids]}


def bury_words(rules: Ruleset, hand: Hand, buried: Sequence[Card], trump: Suit) -> BuryWords:
    """The words for burying ``buried`` out of ``hand`` (the hand with the widow) with ``trump`` named."""
    bury = rules.bury
    assert bury is not None
    kept_hand = hand.remove(*buried)
    whole = meld(rules, hand, trump)
    kept = meld(rules, kept_hand, trump)
    after = bury.when == "after-meld"
    scored = whole if after else kept
    broken = Counter(meld_name(m) for m in whole.melds) - Counter(meld_name(m) for m in kept.melds)
    ordered = tuple(sorted(buried))
    whose = f"{bidders(rules)}'s" if bury.counters == "bidder" else "the last trick's"
    return BuryWords(ordered, sum(rules.counter_value(c) for c in buried), bury.counters, whose,
                     tuple(c for c in ordered if c.suit == trump), sum(c.suit == trump for c in kept_hand), after,
                     scored.total, tuple(meld_name(m) for m in scored.melds), tuple(sorted(broken.elements())),
                     tuple(s for s in rules.suits if hand.has_suit(s) and not kept_hand.has_suit(s)))
