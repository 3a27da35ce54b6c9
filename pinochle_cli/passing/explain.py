"""What a pass keeps and gives, in words taken from the meld engine and the ruleset's data.

``explain(rules, hand, sent, trump)`` compares the best declaration of the whole hand with that of
the cards kept: the meld kept, passed whole and broken (the combinations' names as the ruleset gives them), the
trumps, top cards (aces) and counter points sent, and the suits the pass leaves void. Raises
nothing for cards of the hand.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..cards import Card, Hand, Suit, format_cards
from ..meld import MeldItem, meld
from ..ruleset import Ruleset

__all__ = ["Words", "counted", "explain", "losses", "meld_name"]


@dataclass(frozen=True)
class Words:
    sent: tuple[Card, ...]
    # the meld of the cards kept, and the combinations in it
    kept_meld: int
    kept: tuple[str, ...]
    # combinations of the whole hand's declaration that the kept cards no longer hold: passed whole, or broken
    whole: tuple[str, ...]
    broken: tuple[str, ...]
    trumps: tuple[Card, ...]
    # cards of the highest rank sent, trumps apart; and the rank's word
    tops: tuple[Card, ...]
    top_word: str
    counters: int
    voids: tuple[Suit, ...]

    def text(self, verb: str) -> str:
        """``sends 2 trumps (A♥ 10♥), 1 ace (A♠); keeps pinochle (meld 40); breaks marriage ♣; void in ♦``."""
        gives = []
        if self.trumps:
            gives.append(counted(len(self.trumps), "trump") + f" ({format_cards(self.trumps)})")
        if self.tops:
            gives.append(counted(len(self.tops), self.top_word) + f" ({format_cards(self.tops)})")
        if not gives:
            gives.append("no trump, no " + self.top_word)
        parts = [f"{verb} " + ", ".join(gives) + f", {self.counters} in counters"]
        kept = ", ".join(self.kept) if self.kept else "no meld"
        parts.append(f"keeps {kept}" + (f" (meld {self.kept_meld})" if self.kept else ""))
        if self.whole:
            parts.append(f"{verb} whole " + ", ".join(self.whole))
        return "; ".join(parts + losses(self.broken, self.voids))

    def to_json(self) -> dict[str, Any]:
        return {"kept_meld": self.kept_meld, "kept": list(self.kept), "passed_whole": list(self.whole),
                "broken": list(self.broken),
                "trumps_sent": [c.ascii() for c in self.trumps], "top_cards_sent": [c.ascii() for c in self.tops],
                "counters_sent": self.counters, "voids": [s.letter for s in self.voids]}


def losses(broken: Sequence[str], voids: Sequence[Suit]) -> list[str]:
    """The words for the combinations a hand no longer holds and the suits it is left void in."""
    parts = ["breaks " + ", ".join(broken)] if broken else []
    return parts + (["void in " + " ".join(s.symbol for s in voids)] if voids else [])


def counted(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def meld_name(item: MeldItem) -> str:
    """The combination's name, with its suit when all its cards are of one."""
    suits = {c.suit for c in item.cards}
    return item.title + (f" {next(iter(suits)).symbol}" if len(suits) == 1 else "")


def explain(rules: Ruleset, hand: Hand, sent: Sequence[Card], trump: Suit) -> Words:
    """The words for passing ``sent`` out of ``hand`` with ``trump`` named."""
    kept_hand = hand.remove(*sent)
    whole = meld(rules, hand, trump)
    kept = meld(rules, kept_hand, trump)
    kept_names = [meld_name(m) for m in kept.melds]
    lost = Counter(meld_name(m) for m in whole.melds) - Counter(kept_names)
    passed = lost & Counter(meld_name(m) for m in meld(rules, Hand(sent), trump).melds)
    broken = lost - passed
    top = rules.rank_order[0]
    ordered = sorted(sent)
    trumps = tuple(c for c in ordered if c.suit == trump)
    tops = tuple(c for c in ordered if c.rank == top and c.suit != trump)
    counters = sum(rules.counter_value(c) for c in sent)
    voids = tuple(s for s in rules.suits if hand.has_suit(s) and not kept_hand.has_suit(s))
    return Words(tuple(ordered), kept.total, tuple(kept_names),
                 tuple(sorted(passed.elements())), tuple(sorted(broken.elements())), trumps, tops,
                 top.word, counters, voids)
