"""The widow and the buried cards of a recorded deal, checked against the hands and the meld.

The bidder takes the widow and lays away as many cards (``rules.bury``): every widow card is
then in the bidder's hand at play start or buried, no buried card is in anyone's hand at play
start, and a buried card is none the ruleset forbids (one shown in meld, a trump, a counter).
Each check answers a ``(field, message)`` problem or None; the reader raises it at the field.
Where the record does not give what a check needs, the check passes: only a certain fault is
refused.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..cards import Card, Hand, Suit
from ..game.bidding import spoken_list
from ..ruleset import Ruleset

__all__ = ["Problem", "buried_counters", "buried_problem", "inferred_buried", "meld_hand", "shown_problem",
           "widow_problem"]

# (field, message)
Problem = tuple[str, str]


def _holders(hands: Mapping[str, Hand], card: Card) -> list[str]:
    return [who for who, hand in hands.items() if card in hand]


def buried_problem(rules: Ruleset, bidder: str | None, hands: Mapping[str, Hand], buried: Hand,
                   trump: Suit | None) -> Problem | None:
    """A buried card nobody could have buried (every copy held at play start), or one the ruleset forbids."""
    if bidder is None:
        return "buried", "buried cards need the bidder: add bidder:"
    copies = rules.deck.copies
    for card in buried.distinct():
        held = sum(hand.count(card) for hand in hands.values())
        if held + buried.count(card) > copies:
            who = spoken_list(_holders(hands, card))
            return "buried", (f"{bidder} did not hold {card} ({card.ascii()}) to bury: {who} "
                              f"{'holds' if ' and ' not in who else 'hold'} it at play start and the pack has "
                              f"{copies} (the bidder buries from their hand and the widow)")
    assert rules.bury is not None
    for ban in rules.bury.forbidden:
        if ban == "trump" and trump is not None:
            bad = [c for c in buried if c.suit == trump]
            why = "a trump may not be buried"
        elif ban == "counter":
            bad = [c for c in buried if rules.counter_value(c)]
            why = "a counter may not be buried"
        else:
            continue
        if bad:
            return "buried", f"{bidder} buried {bad[0]} ({bad[0].ascii()}): {why}"
    return None


def widow_problem(rules: Ruleset, bidder: str | None, hands: Mapping[str, Hand], widow: Hand,
                  buried: Hand | None) -> Problem | None:
    """A widow card in another player's hand, or (hand and buried cards known) neither in the bidder's hand
    nor buried: the widow goes to the bidder."""
    copies = rules.deck.copies
    others = {who: hand for who, hand in hands.items() if who != bidder}
    for card in widow.distinct():
        elsewhere = sum(hand.count(card) for hand in others.values())
        if elsewhere + widow.count(card) > copies:
            who = spoken_list(_holders(others, card))
            return "widow", (f"{card} ({card.ascii()}) of the widow is in {who}'s hand; the pack has {copies} and "
                             "the widow goes to the bidder")
    if bidder is None or bidder not in hands or buried is None:
        return None
    kept = hands[bidder] + buried
    for card in widow.distinct():
        if widow.count(card) > kept.count(card):
            return "widow", (f"{card} ({card.ascii()}) of the widow is neither in {bidder}'s hand nor buried: the "
                             "bidder takes the widow")
    return None


def shown_problem(rules: Ruleset, bidder: str, hand: Hand | None, shown: Hand, buried: Hand) -> Problem | None:
    """A card the bidder showed in meld and then buried, where the ruleset forbids it: certain when the
    bidder's hand at play start is known (the shown card is not in it but buried), or when more copies
    are shown and buried than the pack holds."""
    assert rules.bury is not None
    if "melded" not in rules.bury.forbidden or rules.bury.when != "after-meld":
        return None
    for card in shown.distinct():
        if not buried.count(card):
            continue
        kept = hand.count(card) if hand is not None else rules.deck.copies - buried.count(card)
        if shown.count(card) > kept:
            return "buried", f"{bidder} buried {card} ({card.ascii()}), shown in meld: a card shown in meld may not " \
                             "be buried"
    return None


def meld_hand(rules: Ruleset, hand: Hand, buried: Hand | None) -> Hand:
    """The cards the bidder melds from, known from the hand at play start: the hand itself where the cards
    shown may not be buried (or the bury comes first), else the hand and the buried cards."""
    bury = rules.bury
    if bury is None or buried is None or bury.when != "after-meld" or "melded" in bury.forbidden:
        return hand
    return hand + buried


def inferred_buried(rules: Ruleset, hands: Mapping[str, Hand]) -> Hand | None:
    """The buried cards when every player's hand at play start is known: the rest of the pack."""
    if rules.bury is None or len(hands) != rules.players:
        return None
    held = Hand(card for hand in hands.values() for card in hand)
    pack = Hand(rules.deck.cards())
    if not held.issubset(pack):
        return None
    return pack - held


def buried_counters(rules: Ruleset, buried: Hand) -> int:
    return sum(rules.counter_value(c) for c in buried)
