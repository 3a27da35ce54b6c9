"""How a deal goes, stage by stage: what each action needs and what it changes (``DealState``'s engine).

``Flow`` holds what a deal's history has come to and moves through the stages the ruleset has:
the auction (``ruleset.auction``), the widow taken (``widow``), trump named or turned up
(``trump_source``), the exchange (``exchange`` cards each way between bidder and partner), the bury
(``bury``, before or after the meld), the meld shown (``melders``; in a game with a stock, declared
during the play instead), then the tricks (``game.play_stage``) and the end (``ended``). A stage
with nothing to do is passed at once; one whose cards are known is done for the players (the widow
turned up, the stock drawn). ``check`` refuses an action the deal does not take now and says why;
``do`` applies a checked one. Every rule comes from the ruleset.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..cards import Card, Hand, format_cards
from ..errors import ActionError, AuctionError, PlayError
from ..meld import meld, shown_cards
from ..ruleset import Ruleset
from .actions import Action
from .bidding import Bidding, check_bid
from .play_stage import PlayStage, Trick
from .seats import Seats, Turn
from .start import Start

__all__ = ["STAGES", "Flow", "Start", "Trick", "Turn"]

# the stages in order; the bidder buries before or after the meld, as the ruleset says (both are "bury")
STAGES = ("auction", "widow", "trump", "exchange", "bury-before", "meld", "bury-after", "play", "done")


def _with(hand: Hand | None, cards: Hand) -> Hand | None:
    return None if hand is None else hand + cards


class Flow(Seats):
    """What a deal's history has come to (see the module docstring). Built by ``begin``; changed by ``do``."""

    def __init__(self, rules: Ruleset, dealer: int, hands: Sequence[Hand | None], names: Sequence[str]) -> None:
        super().__init__(rules, dealer, hands, names)
        self.stage = "auction"
        self.bidding = Bidding(rules, rules.auction, dealer, self.names) if rules.auction is not None else None
        self.calls: list[tuple[int, int | None]] = []
        self.widow: Hand | None = None
        self.given: dict[int, Hand] = {}
        self.buried_done = False
        self.ended: str | None = None
        self.play = PlayStage(self)

    # the play's state, as the state shows it
    @property
    def current(self) -> list[Card]:
        return self.play.current

    @property
    def lead(self) -> int:
        return self.play.lead

    @property
    def taken(self) -> list[int]:
        return self.play.taken

    def all_tricks(self) -> tuple[Trick, ...]:
        return self.play.all_tricks()

    def legal_plays(self) -> list[Card]:
        if self.stage != "play":
            raise ActionError(f"no card is played now: {self.turn()}")
        return self.play.legal()

    # ------------------------------------------------------------------ setting up

    @classmethod
    def begin(cls, rules: Ruleset, dealer: int, hands: Sequence[Hand | None], widow: Hand | None,
              stock: Sequence[Card] | None, start: Start | None, names: Sequence[str]) -> Flow:
        flow = cls(rules, dealer, hands, names)
        flow._check_setup(widow, stock, start)
        if start is not None and widow:
            flow._check_widow_taken(widow, start)
        flow.widow = widow
        flow.play.stock = list(stock) if stock is not None else None
        if start is not None:
            flow._start_at_play(start)
        flow.advance()
        return flow

    def _check_setup(self, widow: Hand | None, stock: Sequence[Card] | None, start: Start | None) -> None:
        rules = self.rules
        size = rules.hand_size
        for seat, hand in enumerate(self.held):
            if hand is not None and start is None and len(hand) != size:
                raise PlayError(f"{self.names[seat]}'s hand has {len(hand)} cards; a hand in {rules.name} has {size}")
        if widow is not None and len(widow) != rules.widow_size:
            raise PlayError(f"the widow has {len(widow)} cards; in {rules.name} it has {rules.widow_size}")
        if stock is not None and len(stock) != rules.stock_size:
            raise PlayError(f"the stock has {len(stock)} cards; in {rules.name} it has {rules.stock_size}")
        if stock is not None and not rules.has_stock and stock:
            raise PlayError(f"{rules.name} has no stock, but {len(stock)} stock cards were given")
        # a deal that starts at play: the widow is in the bidder's hand or buried already (``_check_widow_taken``)
        seen = [c for h in self.held if h is not None for c in h] + list(stock or ())
        seen += list(widow or ()) if start is None else []
        if start is not None:
            seen += [c for h in start.given.values() for c in h] + list(start.buried or ())
        self.check_pack(seen, "the cards given")

    def _check_widow_taken(self, widow: Hand, start: Start) -> None:
        """A deal at play with its widow known (of the ruleset's size: ``_check_setup``): a bidder took it; the
        widow's cards are in the bidder's hand or buried, as far as those are known, and the pack holds them with
        every card given."""
        rules = self.rules
        if start.bidder is None:
            raise PlayError(f"the widow {format_cards(widow)} was given without the bidder who took it")
        hand = self.held[start.bidder] if 0 <= start.bidder < rules.players else None
        away = widow - (hand or Hand()) - (start.buried or Hand())
        if hand is not None and start.buried is not None and len(away):
            raise PlayError(f"the widow's {format_cards(away)}: the bidder (seat {start.bidder}) took the widow, but "
                            "its hand as play starts and its buried cards do not hold them")
        seen = [c for h in self.held if h is not None for c in h] + list(away)
        seen += [c for h in start.given.values() for c in h] + list(start.buried or ())
        self.check_pack(seen, "the cards given")

    def _start_at_play(self, start: Start) -> None:
        rules = self.rules
        for seat in (start.bidder, start.leader):
            if seat is not None and not 0 <= seat < rules.players:
                raise PlayError(f"seat {seat} is not a seat 0..{rules.players - 1}")
        if start.trump not in rules.suits:
            raise PlayError(f"trump {start.trump} is not a suit of {rules.deck.name}")
        rules.deal_sides(start.bidder)
        self.bidder, self.bid, self.trump = start.bidder, start.bid, start.trump
        self.given = {s: h for s, h in start.given.items() if len(h)}
        self.buried, self.buried_done = start.buried, True
        self.shown = {s: h for s, h in start.shown.items()}
        for seat, cards in self.shown.items():
            if self.held[seat] is None:
                self.known[seat] = cards
        # a hand as play starts: a card for each trick, but those drawn from the stock later
        size = rules.tricks_per_deal - rules.stock_size // rules.players
        self.sizes = [size] * rules.players
        for seat, hand in enumerate(self.held):
            if hand is not None and len(hand) != size:
                raise PlayError(f"{self.names[seat]}'s hand as play starts has {len(hand)} cards; in {rules.name} "
                                f"it has {size}")
        self.stage = "play"
        self.play.open(start.leader)

    # ------------------------------------------------------------------ whose turn

    @property
    def stage_name(self) -> str:
        """The stage as the state names it (both times of the bury are ``bury``)."""
        return self.stage.split("-")[0]

    def turn(self) -> Turn:
        stage = self.stage_name
        if stage == "auction":
            assert self.bidding is not None
            return Turn(self.bidding.next_seat(), ("bid", "pass"), stage)
        if stage in ("widow", "bury"):
            return Turn(self.bidder, (stage,), stage)
        if stage == "trump":
            return Turn(self.bidder if self.rules.trump_source == "bid" else None, ("trump",), stage)
        if stage == "exchange":
            return Turn(self._giver(), ("give",), stage)
        if stage == "meld":
            return Turn(self._next_melder(), ("meld",), stage)
        if stage == "play":
            return self.play.turn()
        return Turn(None, (), stage)

    def _partner(self) -> int | None:
        if self.bidder is None:
            return None
        partners = self.rules.partner_seats(self.bidder) if not self.rules.sides_by_auction else ()
        return partners[0] if partners else None

    def _giver(self) -> int:
        partner = self._partner()
        assert partner is not None and self.bidder is not None
        return partner if partner not in self.given else self.bidder

    def _melders(self) -> list[int]:
        first = (self.dealer + 1) % self.rules.players
        seats = [(first + i) % self.rules.players for i in range(self.rules.players)]
        return [self.bidder] if self.rules.melders == "bidder" and self.bidder is not None else seats

    def _next_melder(self) -> int:
        return next(s for s in self._melders() if s not in self.shown)

    # ------------------------------------------------------------------ checking an action

    def check(self, act: Action) -> Action:
        """``act`` with its seat filled in, when the deal takes it now; raises as ``DealState.apply`` says."""
        turn = self.turn()
        if self.ended is not None:
            raise ActionError(f"{act}: the deal is over ({self.ended})")
        if act.kind not in turn.kinds:
            raise ActionError(f"{act}: not now — {turn} ({self._stage_words()})")
        seat = act.seat if act.seat is not None else turn.seat
        if seat is not None and not 0 <= seat < self.rules.players:
            raise ActionError(f"{act}: seat {seat} is not a seat 0..{self.rules.players - 1}")
        b = self.bidding
        if act.kind in ("bid", "pass") and b is not None and seat in b.passed and self.rules.auction is not None:
            raise AuctionError(f"{act} by {self.names[seat]}: {self.names[seat]} passed, and "
                               f"{self.rules.auction.pass_rule}")
        if turn.seat is not None and seat != turn.seat and not (act.kind == "meld" and self.stage == "meld"):
            raise ActionError(f"{act} by {self.names[seat] if seat is not None else 'nobody'}: it is "
                              f"{self.names[turn.seat]}'s turn ({turn.kinds[0]})")
        act = act.by(seat) if seat is not None else act
        getattr(self, f"_check_{act.kind}")(act)
        return act

    def _stage_words(self) -> str:
        return {"auction": "the auction", "widow": "the bidder takes the widow", "trump": "trump is named",
                "exchange": "the exchange", "bury": "the bidder buries", "meld": "the meld is shown",
                "play": "the play", "done": "the deal is over"}[self.stage_name]

    def _check_bid(self, act: Action) -> None:
        assert self.rules.auction is not None and act.bid is not None and self.bidding is not None
        check_bid(self.rules.auction, act.bid)
        b = self.bidding
        if b.high is not None and act.bid <= b.high:
            raise AuctionError(f"bid {act.bid} does not raise {self.names[b.high_seat]}'s {b.high} (at least "
                               f"{self.rules.auction.next_bid(b.high)})")
        if self._stuck(act.seat) and act.bid != self.rules.auction.minimum:
            raise AuctionError(f"after the others passed the dealer is stuck at {self.rules.auction.minimum}, "
                               f"got {act.bid}")

    def _stuck(self, seat: int | None) -> bool:
        b, auction = self.bidding, self.rules.auction
        assert b is not None and auction is not None
        return (auction.dealer_stuck and b.high is None and seat == self.dealer
                and len(b.passed) == self.rules.players - 1)

    def _check_pass(self, act: Action) -> None:
        pass

    def _check_widow(self, act: Action) -> None:
        if len(act.cards) != self.rules.widow_size:
            raise ActionError(f"{act}: the widow has {self.rules.widow_size} cards, not {len(act.cards)}")
        self.possible(act.cards, f"the widow {format_cards(act.cards)}", skip=None)

    def _check_trump(self, act: Action) -> None:
        assert act.suit is not None
        rules = self.rules
        if act.suit not in rules.suits:
            raise ActionError(f"{act}: {act.suit} is not a suit of {rules.deck.name}")
        hand = self.held[self.bidder] if self.bidder is not None else None
        if hand is not None and rules.trump_needs and act.suit not in rules.eligible_trumps(hand):
            raise ActionError(f"{act}: naming {act.suit} needs the {rules.trump_needs_words()} of {act.suit} in the "
                              f"bidder's hand")

    def _check_give(self, act: Action) -> None:
        assert act.seat is not None
        k, hand = self.rules.exchange, self.held[act.seat]
        receiver = self._partner() if act.seat == self.bidder else self.bidder
        assert receiver is not None
        if not act.cards and hand is None and self.held[receiver] is None:
            return  # unseen cards from one unknown hand to another
        if len(act.cards) != k:
            raise ActionError(f"{act}: the exchange is {k} cards each way, not {len(act.cards)}")
        self.holds(act.seat, act.cards, str(act))

    def _check_bury(self, act: Action) -> None:
        assert act.seat is not None and self.rules.bury is not None
        if not act.cards and self.held[act.seat] is None:
            return  # cards nobody here saw
        if len(act.cards) != self.rules.widow_size:
            raise ActionError(f"{act}: the bidder buries {self.rules.widow_size} cards, not {len(act.cards)}")
        self.holds(act.seat, act.cards, str(act))
        banned = self._banned(act.cards)
        if banned:
            raise ActionError(f"{act}: {banned}")

    def _banned(self, cards: Hand) -> str:
        """Why burying ``cards`` breaks the ruleset (a card it forbids while another may go), or ""."""
        assert self.rules.bury is not None and self.bidder is not None
        hand = self.held[self.bidder] or cards
        shown = self.shown.get(self.bidder, Hand())
        words = {"trump": "a trump", "counter": "a counter", "melded": "a card shown in meld"}
        for ban in self.rules.bury.forbidden:
            if ban == "melded":
                # a copy beyond those shown may go
                wrong = [c for c in cards.distinct() if (hand - cards).count(c) < shown.count(c)]
                free = len(hand - shown)
            else:
                wrong = [c for c in cards if (c.suit == self.trump if ban == "trump" else self.rules.counter_value(c))]
                free = sum(1 for c in hand if not (c.suit == self.trump if ban == "trump"
                                                   else self.rules.counter_value(c)))
            if wrong and free >= len(cards):
                return f"{wrong[0]} may not be buried: {words[ban]} may not be buried while another card may go"
        return ""

    def _check_meld(self, act: Action) -> None:
        if self.stage == "play":
            self.play.check_declaration(act)
            return
        assert act.seat is not None
        if act.seat not in self._melders():
            raise ActionError(f"{act}: in {self.rules.name} only the bidder melds")
        if act.seat in self.shown:
            raise ActionError(f"{act}: {self.names[act.seat]} already showed {format_cards(self.shown[act.seat])}")
        self.holds(act.seat, act.cards, str(act))
        assert self.trump is not None
        uses = shown_cards(self.rules, act.cards, self.trump)
        if uses != act.cards:
            spare = act.cards - uses
            raise ActionError(f"{act}: {format_cards(spare)} {'is' if len(spare) == 1 else 'are'} no part of a meld "
                              f"with trump {self.trump}")

    def _check_concede(self, act: Action) -> None:
        if self.rules.scoring.concede is None:
            raise ActionError(f"{act}: {self.rules.name} has no concession")
        if act.seat != self.bidder:
            raise ActionError(f"{act}: only the bidder concedes")

    def _check_play(self, act: Action) -> None:
        self.play.check_card(act)

    def _check_draw(self, act: Action) -> None:
        self.play.check_draw(act)

    # ------------------------------------------------------------------ doing it

    def do(self, act: Action) -> None:
        getattr(self, f"_do_{act.kind}")(act)
        self.advance()

    def _do_bid(self, act: Action) -> None:
        self._call(act.seat, act.bid)

    def _do_pass(self, act: Action) -> None:
        self._call(act.seat, None)

    def _call(self, seat: int | None, bid: int | None) -> None:
        b, auction = self.bidding, self.rules.auction
        assert b is not None and auction is not None and seat is not None
        self.calls.append((seat, bid))
        if bid is None and b.high is None and len(b.passed) == self.rules.players - 1:
            # everyone passed, and nobody is stuck with the minimum
            self.ended = "redeal"
            return
        b.call(len(self.calls), "pass" if bid is None else str(bid))

    def _do_widow(self, act: Action) -> None:
        # taken by the bidder as the stage ends (``_done_widow``)
        self.widow = act.cards

    def _take_widow(self) -> None:
        assert self.bidder is not None and self.widow is not None
        self.held[self.bidder] = _with(self.held[self.bidder], self.widow)
        if self.held[self.bidder] is None:
            self.known[self.bidder] = self.known[self.bidder] + self.widow
        self.sizes[self.bidder] += self.rules.widow_size

    def _do_trump(self, act: Action) -> None:
        self.trump = act.suit

    def _do_give(self, act: Action) -> None:
        assert act.seat is not None
        receiver = self._partner() if act.seat == self.bidder else self.bidder
        assert receiver is not None
        k = self.rules.exchange
        self.given[act.seat] = act.cards
        self.move(act.seat, act.cards, k)
        self.held[receiver] = _with(self.held[receiver], act.cards)
        if self.held[receiver] is None:
            self.known[receiver] = self.known[receiver] + act.cards
        self.sizes[receiver] += k

    def _do_bury(self, act: Action) -> None:
        assert self.bidder is not None and self.rules.bury is not None
        self.buried = act.cards if len(act.cards) else None
        self.buried_done = True
        if not len(act.cards) and self.held[self.bidder] is None:
            # cards nobody here saw went: of those the bidder was known to hold (the widow's), only the ones shown
            # in meld, which the ruleset keeps from the bury, are surely still there
            kept = self.shown.get(self.bidder, Hand()) if "melded" in self.rules.bury.forbidden else Hand()
            self.known[self.bidder] = self.known[self.bidder] & kept
        self.move(self.bidder, act.cards, self.rules.widow_size)

    def _do_meld(self, act: Action) -> None:
        assert act.seat is not None
        if self.stage == "play":
            self.play.declare(act)
            return
        self.shown[act.seat] = act.cards
        if self.held[act.seat] is None:
            self.known[act.seat] = self.known[act.seat] | act.cards

    def _do_concede(self, act: Action) -> None:
        self.ended = "conceded"

    def _do_play(self, act: Action) -> None:
        self.play.do_card(act)

    def _do_draw(self, act: Action) -> None:
        self.play.do_draw(act)

    # ------------------------------------------------------------------ moving on

    def advance(self) -> None:
        """Pass the stages with nothing left to do, doing what the known cards do by themselves."""
        while self.ended is None and self._stage_done():
            self.stage = STAGES[STAGES.index(self.stage) + 1]
            if self.stage == "play":
                self._enter_play()
        if self.ended is not None:
            self.stage = "done"

    def _stage_done(self) -> bool:
        return bool(getattr(self, f"_done_{self.stage.replace('-', '_')}")())

    def _done_auction(self) -> bool:
        b, auction = self.bidding, self.rules.auction
        if b is None or auction is None:
            return True
        # the others passed: the dealer need not call
        if b.done is None and self._stuck(self.dealer) and b.next_seat() == self.dealer:
            b.done = (self.dealer, auction.minimum)
        if b.done is None:
            return False
        self.bidder, self.bid = b.done
        return True

    def _done_widow(self) -> bool:
        rules = self.rules
        if rules.widow is None or self.bidder is None:
            return True
        if self.widow is not None:
            self._take_widow()
            return True
        # cards nobody here may see: the bidder's hand grows unseen
        if not rules.widow.shown and self.held[self.bidder] is None:
            self.sizes[self.bidder] += rules.widow_size
            return True
        return False

    def _done_trump(self) -> bool:
        rules = self.rules
        if self.trump is None and rules.trump_source == "turn-up" and self.play.stock:
            self.trump = self.play.stock[-1].suit
        hand = self.held[self.bidder] if self.bidder is not None else None
        if self.trump is None and hand is not None and rules.trump_needs and not rules.eligible_trumps(hand):
            self.ended = "no-trump"
        return self.trump is not None

    def _done_exchange(self) -> bool:
        partner = self._partner()
        return not self.rules.exchange or partner is None or (partner in self.given and self.bidder in self.given)

    def _bury_done(self, when: str) -> bool:
        bury = self.rules.bury
        return bury is None or bury.when != when or self.bidder is None or self.buried_done

    def _done_bury_before(self) -> bool:
        return self._bury_done("before-meld")

    def _done_bury_after(self) -> bool:
        return self._bury_done("after-meld")

    def _done_meld(self) -> bool:
        return self.rules.has_stock or all(s in self.shown for s in self._melders())

    def _done_play(self) -> bool:
        if self.play.over():
            self.ended = "played"
        return False

    def _enter_play(self) -> None:
        rules = self.rules
        if rules.scoring.not_on_board is not None and self.bid is not None and self.bidder is not None:
            side = rules.deal_sides(self.bidder)[rules.deal_side_of(self.bidder, self.bidder)]
            meld = sum(self.meld_points(s) for s in side)
            if meld + rules.counter_total < self.bid:
                self.ended = "not-on-board"
                return
        self.play.open(None)

    def meld_points(self, seat: int) -> int:
        """The meld ``seat`` showed (declared, in a game with a stock), in points."""
        if self.rules.has_stock:
            return self.play.declared_points[seat]
        if seat not in self.shown or self.trump is None:
            return 0
        return meld(self.rules, self.shown[seat], self.trump).total
