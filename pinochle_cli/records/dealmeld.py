"""Reading a deal's meld: each side's or player's meld, as a number or as the cards a player showed, checked against
the ruleset, the hands and the bury.

``MeldSection.read_meld`` reads the ``meld`` field: a number must be a meld total no hand of the side could
exceed; cards shown must be held and fit in the pack together; where every hand is recorded the meld given must be
what the hands show (games without a stock), and where only the bidder melds the others' meld is 0. It gives the
meld per side and, per side, whether it is all of the kinds kept on their own. Raises the ``RecordError`` it finds
(``FieldReader.err``). The meld engine is imported only for a deal with cards: a sheet of numbers needs none.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import replace
from functools import cache
from typing import TYPE_CHECKING

from ..cards import Hand, Suit, format_cards
from ..game.bidding import spoken_list
from ..ruleset import Ruleset
from ..scoring import meld_only_from_number
from ..yamlsource import Node
from . import widowcheck
from .dealfields import FieldReader
from .layout import MELD_VALUE, shaped

if TYPE_CHECKING:
    from ..meld import MeldResult

__all__ = ["MeldParts", "MeldSection"]


@cache
def _meld_step(rules: Ruleset) -> int:
    """The step of every possible meld total: the gcd of the meld table's values (10 in single-deck)."""
    values = [c.value(k) for c in rules.meld for k in range(1, rules.deck.copies + 1)]
    return math.gcd(*values) if values else 1


@cache
def _surely_shown(rules: Ruleset) -> int:
    """A meld total some hand surely shows: one combination's copies that fit in a hand (a cheap lower
    bound on ``most_meld``, so that a sheet of ordinary numbers needs no meld engine)."""
    best = 0
    for combo in rules.meld:
        repeats = Counter((p.mode, p.rank, p.suit) for p in combo.pattern).values()
        most = min(rules.deck.copies // n for n in repeats) if repeats else 0
        fits = [k for k in range(1, most + 1) if k * len(combo.pattern) <= rules.hand_size]
        best = max([best] + [combo.value(k) for k in fits])
    return best


def _most_meld(rules: Ruleset) -> int:
    """The most meld one hand can show in ``rules`` (exact, worked out once per ruleset)."""
    from ..meld import most_meld

    return most_meld(rules).total


@cache
def _with_widow(rules: Ruleset) -> Ruleset:
    """``rules`` with the hand the bidder melds from in a game with a widow: a dealt hand and the widow."""
    return replace(rules, hand_size=rules.largest_hand) if rules.widow_size else rules


# a side's meld, piece by piece: (points, all of the kinds kept on their own; None: not known)
MeldParts = list[list[tuple[int, bool | None]]]


def _meld(rules: Ruleset, cards: Hand, trump: Suit) -> MeldResult:
    """The meld of cards shown or held (the meld engine is imported when a deal has cards: a sheet of
    numbers needs none, and starts faster)."""
    from ..meld import meld

    return meld(rules, cards, trump)


class MeldSection(FieldReader):
    """The meld of a deal (``read_meld``)."""

    def read_meld(self) -> tuple[bool | None, ...]:
        """The meld per side, given or computed from the hands → whether each is all of kept-alone kinds."""
        parts: MeldParts = [[] for _ in range(self.sides)]
        node = self.get("meld")
        if node is not None:
            self.shape("meld", node, kind_only=True)
            for key, (key_node, value) in node.entries.items():
                self.read_meld_entry(key, key_node, value, parts)
            self.check_shown_together(node)
            self.check_buried_meld()
            for side, (_pts, value) in self.given_side.items():
                doubled = [p for p in self.table.members[side] if p in self.given_player]
                if doubled and self.table.teams:
                    raise self.err(value, f"meld given for {self.table.sides[side]} and for {spoken_list(doubled)}: "
                                   "give one or the other", "meld")
        self.check_melders()
        if self.d.hands is not None and self.d.trump is not None and not self.rules.has_stock:
            self.meld_from_hands(self.d.hands, self.d.trump, parts)
        self.d.meld = tuple(sum(p for p, _ in side_parts) for side_parts in parts)
        return tuple(self.meld_only(side, side_parts) for side, side_parts in enumerate(parts))

    def check_shown_together(self, node: Node) -> None:
        """The cards all players showed for meld fit in the pack together (each player's own are
        checked against the pack, and against their hand where it is given, as they are read)."""
        copies = self.rules.deck.copies
        total = Hand(card for hand in self.shown.values() for card in hand)
        for card in total.distinct():
            if total.count(card) > copies:
                who = ", ".join(f"{p} {hand.count(card)}" for p, hand in self.shown.items() if card in hand)
                raise self.err(node, f"{card} ({card.ascii()}) is shown {total.count(card)} times ({who}); "
                                     f"{self.rules.deck.name} has {copies}", "meld")

    def meld_only(self, side: int, parts: list[tuple[int, bool | None]]) -> bool | None:
        flags = [o for p, o in parts if p > 0]
        if not flags or any(o is False for o in flags):
            return False
        if all(o is True for o in flags):
            return True
        return meld_only_from_number(self.rules, self.d.meld[side])

    def read_meld_entry(self, key: str, key_node: Node, value: Node, parts: MeldParts) -> None:
        """One side's or player's meld: a number, or the cards a player showed."""
        rules = self.rules
        _kind, side, who = self.named(key, key_node, "meld")
        given = shaped(MELD_VALUE, value, f"meld.{key}", deal=self.number)
        only: bool | None
        if isinstance(given, int):
            pts, only = given, meld_only_from_number(rules, given)
            step = _meld_step(rules)
            if pts % step:
                raise self.err(value, f"{pts} is not a meld total (not a multiple of {step})", f"meld.{key}")
            self.check_meld_number(pts, side, who, value, key)
        else:
            if who is None:
                raise self.err(value, "a team's meld is a number; cards are shown by a player", f"meld.{key}")
            if self.d.trump is None:
                raise self.err(value, "meld given as cards needs the trump suit: add trump:", f"meld.{who}")
            shown = self.shown[who] = self.cards(value, f"meld.{who}")
            most = rules.largest_hand if who == self.d.bidder else rules.hand_size
            if len(shown) > most:
                raise self.err(value, f"{who} showed {len(shown)} cards; a {rules.name} hand holds "
                               f"{rules.hand_sizes_words if who == self.d.bidder else most}", f"meld.{who}")
            result = _meld(rules, shown, self.d.trump)
            pts, only = result.total, result.only(rules.scoring.kept_if_only) and result.total > 0
            hands, buried = self.d.hands, self.d.buried
            if hands is not None and who in hands:
                held = hands[who] + buried if who == self.d.bidder and buried is not None else hands[who]
                if not shown.issubset(held):
                    raise self.err(value, f"{who} showed {format_cards(shown - held)} not in their hand",
                                   f"meld.{who}")
        if who is not None:
            self.given_player[who] = (pts, value)
        else:
            self.given_side[side] = (pts, value)
        parts[side].append((pts, only))

    def check_meld_number(self, pts: int, side: int, who: str | None, value: Node, key: str) -> None:
        """A meld given as a number is no more than the hands it is given for can show: a player's one hand,
        a team's hands each the most one hand can show (``most_meld``)."""
        rules, bidder = self.rules, self.d.bidder
        hands = 1 if who is not None else len(self.table.members[side])
        # the bidder of a game with a widow melds from more cards
        big = _with_widow(rules) if bidder is not None and bidder in (
            (who,) if who is not None else self.table.members[side]) else rules
        if pts <= (hands - 1) * _surely_shown(rules) + _surely_shown(big) \
                or pts <= (hands - 1) * _most_meld(rules) + _most_meld(big):
            return
        whose = f"{who}'s hand" if who is not None else f"{self.table.sides[side]}'s {hands} hands"
        widow = f"; {_most_meld(big)} with the widow" if big is not rules else ""
        raise self.err(value, f"{pts} is more meld than {whose} can show (a {rules.name} hand of {rules.hand_size} "
                       f"cards shows at most {_most_meld(rules)}{widow})", f"meld.{key}")

    def meld_from_hands(self, hands: dict[str, Hand], trump: Suit, parts: MeldParts) -> None:
        """Games without a stock: the hand at play start is the hand melded; the meld given must agree."""
        rules, table = self.rules, self.table
        computed: dict[str, tuple[int, bool]] = {}
        for who, hand in hands.items():
            if not self.melds(who):
                continue
            if who == self.d.bidder:
                hand = widowcheck.meld_hand(rules, hand, self.d.buried)
            result = _meld(rules, hand, trump)
            computed[who] = (result.total, result.only(rules.scoring.kept_if_only) and result.total > 0)
        for who, (pts, value) in self.given_player.items():
            if who in computed and computed[who][0] != pts:
                raise self.err(value, f"{who}'s meld is {pts}, but the hand recorded scores {computed[who][0]}",
                               f"meld.{who}")
        for side, (pts, value) in self.given_side.items():
            team = table.members[side]
            if all(p in computed for p in team):
                total = sum(computed[p][0] for p in team)
                if total != pts:
                    raise self.err(value, f"{table.sides[side]}'s meld is {pts}, but the hands recorded score "
                                   f"{total}", f"meld.{table.sides[side]}")
        for side in range(self.sides):
            if side in self.given_side:
                continue
            for p in table.members[side]:
                if p in computed and p not in self.given_player:
                    parts[side].append(computed[p])

    def melds(self, who: str) -> bool:
        """Whether ``who`` melds in this deal: everyone, or (``melders: bidder``) only the bidder."""
        return self.rules.melders == "all" or who == self.d.bidder

    def check_melders(self) -> None:
        """Where only the bidder melds, every other player's meld is 0."""
        if self.rules.melders == "all" or self.d.bidder is None:
            return
        for who, (pts, value) in self.given_player.items():
            if pts and not self.melds(who):
                raise self.err(value, f"{who} melds {pts}, but in this game only the bidder ({self.d.bidder}) "
                               "melds", f"meld.{who}")

    def check_buried_meld(self) -> None:
        """The bidder's meld shown as cards and the buried cards: no card both where the ruleset forbids it."""
        d = self.d
        if d.buried is None or d.bidder is None or d.bidder not in self.shown:
            return
        hand = (d.hands or {}).get(d.bidder)
        self.raise_problem(widowcheck.shown_problem(self.rules, d.bidder, hand, self.shown[d.bidder], d.buried))
