"""Reading one deal of a record, section by section: flags, auction, trump, hands, stock,
meld, play and counters, score. Each section checks its fields against the layout, the
ruleset, the table and the sections before it, and raises the first problem it finds.

``DealReader(rules, table, node, number, problems).read()`` gives the deal, its facts and its score. The field
readers are ``dealfields``; the meld section is ``dealmeld``, the play and counters ``dealplay``; here are the
others and the order they run in.
"""

from __future__ import annotations

import re

from ..cards import Hand, format_cards, parse_suit
from ..errors import AuctionError, CardError, MissingFactError, ScoringError
from ..game.bidding import PASS, check_bid, run_auction, spoken_list
from ..scoring import DealFacts, DealScore, score_deal
from ..yamlsource import Node
from . import widowcheck
from .dealfields import Deal, Problems
from .dealmeld import MeldSection
from .dealplay import PlaySection, trick_counters
from .layout import DEAL, located, shaped

__all__ = ["Deal", "DealReader", "Problems", "trick_counters"]


class DealReader(MeldSection, PlaySection):
    """One deal of a record, read section by section (``read``)."""

    def read(self) -> tuple[Deal, DealFacts, DealScore]:
        """The deal checked and scored; raises its first problem. Unknown keys go to the problems
        (raised when strict); the rest of the deal is still read."""
        shaped(DEAL, self.node, "", deal=self.number, kind_only=True)
        for _, key_node, message in DEAL.unknown(self.node):
            self.problems.report(located(key_node, message, deal=self.number))
        self.read_flags()
        self.read_auction()
        self.read_trump()
        self.read_hands()
        self.read_stock()
        self.read_widow()
        self.check_ending()
        meld_only = self.read_meld()
        d = self.d
        if d.redeal:
            facts = DealFacts(meld=(0,) * self.sides, redeal=True)
            return d, facts, score_deal(self.rules, facts)
        bidder_side = self.table.side_of(d.bidder) if d.bidder is not None else None
        self.read_play(bidder_side)
        took = None if d.tricks is None else tuple(None if t is None else t > 0 for t in d.tricks)
        buried = self.buried_of(bidder_side) if bidder_side is not None else 0
        facts = DealFacts(meld=d.meld, counters=d.counters, bidder_side=bidder_side, bid=d.bid, took_trick=took,
                          meld_only=meld_only, conceded=d.conceded, no_trump=d.no_trump, buried=buried)
        return d, facts, self.score(facts)

    def read_flags(self) -> None:
        """redeal, conceded, no-trump (at most one) and the dealer."""
        d = self.d
        d.redeal, d.conceded, d.no_trump = self.flag("redeal"), self.flag("conceded"), self.flag("no-trump")
        flags = [k for k, v in (("redeal", d.redeal), ("conceded", d.conceded), ("no-trump", d.no_trump)) if v]
        if len(flags) > 1:
            raise self.err(self.get(flags[1]), "a deal is at most one of redeal, conceded and no-trump, got "
                           f"{' and '.join(flags)}", flags[1])
        d.dealer = self.player("dealer")
        if d.redeal:
            for key in ("bidder", "bid", "auction", "trump", "meld", "counters", "tricks", "play", "stock", "widow",
                        "buried"):
                if self.get(key) is not None:
                    raise self.err(self.get(key), "a redealt deal was thrown in before the auction: it has no "
                                   + key, key)

    def read_auction(self) -> None:
        """The bidder and bid, and the calls that decided them."""
        rules, d = self.rules, self.d
        if rules.auction is None:
            for key in ("auction", "bidder", "bid"):
                if self.get(key) is not None:
                    raise self.err(self.get(key), f"the {rules.name} game has no auction: no {key}", key)
            for key, what in (("conceded", "concede"), ("no-trump", "be left without trump")):
                if self.flag(key):
                    raise self.err(self.get(key), f"the {rules.name} game has no auction and no bidder to {what}",
                                   key)
            return
        if d.redeal:
            return
        d.bidder = self.player("bidder")
        bid_node = self.get("bid")
        if bid_node is not None:
            d.bid = self.shape("bid", bid_node)
            try:
                check_bid(rules.auction, d.bid)
            except AuctionError as exc:
                raise self.err(bid_node, str(exc), "bid") from None
        auction_node = self.get("auction")
        if auction_node is not None:
            self.read_calls(auction_node, bid_node)
        if d.bidder is None:
            raise self.err(None, "missing bidder (who won the auction)", "bidder")
        if d.bid is None:
            raise self.err(None, "missing bid (the contract)", "bid")

    def read_calls(self, node: Node, bid_node: Node | None) -> None:
        d, table = self.d, self.table
        if d.dealer is None:
            raise self.err(node, "an auction starts at the dealer's left: add dealer:", "auction")
        calls = self.shape("auction", node)
        if isinstance(calls, str):
            calls = [c for c in re.split(r"[\s,]+", calls) if c]
        try:
            seat, won = run_auction(self.rules, table.seat_of(d.dealer), calls, table.seating)
        except AuctionError as exc:
            raise self.err(node, str(exc), "auction") from None
        d.auction = tuple(c.lower() if c.lower() == PASS else c for c in calls)
        winner = table.seating[seat]
        if d.bidder is not None and d.bidder != winner:
            raise self.err(self.get("bidder"), f"{d.bidder!r}, but the auction ends with {winner} at {won}", "bidder")
        if d.bid is not None and d.bid != won:
            raise self.err(bid_node, f"{d.bid}, but the auction ends with {winner} at {won}", "bid")
        d.bidder, d.bid = winner, won

    def read_trump(self) -> None:
        node = self.get("trump")
        if node is None:
            return
        try:
            trump = parse_suit(self.shape("trump", node))
        except CardError as exc:
            raise self.err(node, str(exc), "trump") from None
        if trump not in self.rules.suits:
            raise self.err(node, f"{trump.word} is not a suit of {self.rules.deck.name}", "trump")
        if self.d.no_trump:
            raise self.err(node, "a deal with no-trump: true has no trump suit", "trump")
        self.d.trump = trump

    def read_hands(self) -> None:
        """Each player's hand at play start; none shares a card, and the bidder could name the trump."""
        node = self.get("hands")
        if node is None:
            return
        rules, table = self.rules, self.table
        self.shape("hands", node, kind_only=True)
        hands: dict[str, Hand] = {}
        for key, (key_node, value) in node.entries.items():
            who = table.player(key)
            if who is None:
                raise self.err(key_node, f"{key!r} is not a player at the table ({', '.join(table.seating)})",
                               "hands")
            hand = self.cards(value, f"hands.{who}")
            if len(hand) != rules.hand_size:
                raise self.err(value, f"{who} holds {len(hand)} cards, a hand has {rules.hand_size}", f"hands.{who}")
            hands[who] = hand
        try:
            rules.deck.check(card for hand in hands.values() for card in hand)
        except CardError as exc:
            raise self.err(node, f"the hands share cards: {exc}", "hands") from None
        self.d.hands = hands
        bidder = self.d.bidder
        # with a widow, the bidder named trump holding the widow too (checked with it: read_widow)
        if bidder is not None and bidder in hands and rules.exchange == 0 and rules.widow is None:
            self.check_trump_named(hands[bidder])

    def read_widow(self) -> None:
        """Games with a widow: the widow and the buried cards (each as many as the widow), held by the
        bidder (``widowcheck``); the buried cards are the rest of the pack when every hand is recorded."""
        rules, d = self.rules, self.d
        for key in ("widow", "buried"):
            node = self.get(key)
            if node is None:
                continue
            if rules.widow is None:
                raise self.err(node, f"the {rules.name} game has no widow" + (" to bury from" if key == "buried"
                                                                              else ""), key)
            cards = self.cards(node, key)
            if len(cards) != rules.widow_size:
                what = "the widow has" if key == "widow" else "the bidder buries"
                raise self.err(node, f"{len(cards)} card{'s' if len(cards) != 1 else ''}, {what} "
                               f"{rules.widow_size}", key)
            setattr(d, key, cards)
        hands = d.hands or {}
        if d.buried is not None:
            self.raise_problem(widowcheck.buried_problem(rules, d.bidder, hands, d.buried, d.trump))
        elif rules.widow is not None and not (d.conceded or d.redeal):
            d.buried = widowcheck.inferred_buried(rules, hands)
        if d.widow is not None:
            self.raise_problem(widowcheck.widow_problem(rules, d.bidder, hands, d.widow, d.buried))
        if rules.widow is not None and d.bidder in hands and d.buried is not None:
            self.check_trump_named(hands[d.bidder] + d.buried)

    def check_trump_named(self, hand: Hand) -> None:
        """Naming trump takes the ranks the ruleset says (``trump.needs``)."""
        d, rules = self.d, self.rules
        eligible = rules.eligible_trumps(hand)
        needs = rules.trump_needs_words()
        if d.trump is not None and d.trump not in eligible:
            holding = format_cards(hand.of_suit(d.trump)) or "no " + d.trump.word
            raise self.err(self.get("trump"), f"{d.bidder} cannot name {d.trump.word}: holding {holding}, "
                           f"trump must be a suit of which the bidder holds {needs}", "trump")
        if d.no_trump and eligible:
            raise self.err(self.get("no-trump"), f"{d.bidder} holds {needs} of "
                           f"{spoken_list([s.word for s in eligible])} and could name trump", "no-trump")

    def read_stock(self) -> None:
        """Games with a stock: its cards when play starts, top first (checked with or without play)."""
        node = self.get("stock")
        if node is None:
            return
        rules = self.rules
        if not rules.has_stock:
            raise self.err(node, f"the {rules.name} game has no stock", "stock")
        stock = self.card_list(node, "stock")
        if len(stock) != rules.stock_size:
            raise self.err(node, f"{len(stock)} card{'s' if len(stock) != 1 else ''}, the stock has "
                           f"{rules.stock_size}", "stock")
        held = [card for hand in (self.d.hands or {}).values() for card in hand]
        try:
            rules.deck.check(held + stock)
        except CardError as exc:
            raise self.err(node, f"the stock shares cards with the hands: {exc}", "stock") from None
        self.d.stock = stock

    def check_ending(self) -> None:
        """A deal without trump or conceded needs a rule for it."""
        rules, d = self.rules, self.d
        if d.no_trump and (rules.scoring.no_trump is None or not rules.trump_needs):
            why = "the bidder may name any suit" if not rules.trump_needs else "it has no rule for it"
            raise self.err(self.get("no-trump"), f"the {rules.name} game has no deal without trump ({why})",
                           "no-trump")
        if d.conceded and rules.scoring.concede is None:
            raise self.err(self.get("conceded"), f"the {rules.name} game has no rule for conceding", "conceded")

    def score(self, facts: DealFacts) -> DealScore:
        """The deal's score; a fact the score depends on but the record lacks is asked for by name."""
        try:
            return score_deal(self.rules, facts)
        except MissingFactError as exc:
            name = self.table.sides[exc.side]
            taken = facts.counters[exc.side] if facts.counters is not None else 0
            if exc.fact == "tricks" and taken:
                message = (f"{name}'s {taken} counters may all be in the buried cards; add tricks: to say whether "
                           "they took a trick (the score depends on it)")
            elif exc.fact == "tricks":
                message = (f"{name} took no counters; add tricks: to say whether they took a trick "
                           "(the score depends on it)")
            else:
                message = (f"{name} keep their meld of {facts.meld[exc.side]} only if it is all "
                           f"{', '.join(self.rules.scoring.kept_if_only)}; give that meld as the cards shown "
                           "(by player) to say which")
            at = {"tricks": self.get("counters"), "meld": self.get("meld")}[exc.fact]
            raise self.err(at, message, exc.field) from None
        except ScoringError as exc:
            raise self.err(None, str(exc), exc.field) from None
