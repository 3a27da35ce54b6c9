"""The view of one seat at the table: what it holds, what it saw, and the checks that it adds up.

``make_facts`` takes what the player says (hand now, shown meld, the exchange it took part in,
the widow it saw, the tricks of the deal so far and the current one) and returns ``Facts``: the same, checked,
with what follows from it — who led and won each trick, the cards each seat played, the size
of every hand now, the unseen cards and the cards each other seat is known to hold. Input that
cannot be true raises ``HintError`` naming the fact at fault (the option through ``parameter``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..cards import ALL_CARDS, Card, Hand, Suit, format_cards
from ..errors import Argument, CardError, HintError, Message
from ..game.state import DealState
from ..game.tricks import check_play, trick_winner
from ..meld import shown_cards
from ..ruleset import Ruleset

__all__ = ["Facts", "facts_of", "make_facts"]

# no cards
_NONE = Hand()


@dataclass(frozen=True)
class Facts:
    """One seat's checked view (see the module docstring); ``tricks[k]`` was led by ``leaders[k]``."""

    rules: Ruleset
    trump: Suit
    seat: int
    hand: Hand
    bidder: int | None
    bid: int | None
    shown: Mapping[int, Hand]
    passed: Hand
    received: Hand
    tricks: tuple[tuple[Card, ...], ...]
    leaders: tuple[int, ...]
    winners: tuple[int, ...]
    trick: tuple[Card, ...]
    # who led the current trick
    leader: int
    # the tricks played while the stock lasted (no inferences, no meld check: the hands changed)
    stock_tricks: int
    # every seat's cards played, in play order
    played: tuple[tuple[Card, ...], ...]
    sizes: tuple[int, ...]
    unseen: Hand
    # cards a seat other than this one is known to hold now (shown meld not played, cards passed to it)
    known: Mapping[int, Hand] = field(default_factory=dict)
    # cards of the unseen out of every hand now (buried by the bidder)
    out_of_play: int = 0
    # the cards the bidder buried, when it is the bidder who asks (then out of the unseen)
    buried: Hand = field(default_factory=Hand)
    # the widow as this seat saw it (turned up for all, or the bidder's own): held by the bidder at the meld
    widow: Hand = field(default_factory=Hand)

    @property
    def players(self) -> int:
        return self.rules.players

    @property
    def widow_left(self) -> tuple[int, ...]:
        """Per card index, the widow's copies still to be found in the bidder's hand now or the buried cards (none
        without a widow seen; ``make_facts`` checked that they fit)."""
        return _widow_left(self, self.widow) if len(self.widow) else ()

    @property
    def phase(self) -> str | None:
        return "play-off" if self.rules.has_stock else None

    @property
    def trick_number(self) -> int:
        """The number (from 1) of the trick being played."""
        return len(self.tricks) + 1

    def sides(self) -> tuple[tuple[int, ...], ...]:
        return self.rules.deal_sides(self.bidder)

    def side_of(self, seat: int) -> int:
        return self.rules.deal_side_of(seat, self.bidder)


def _seat(rules: Ruleset, value: int | None, parameter: str) -> None:
    if value is not None and not 0 <= value < rules.players:
        raise HintError(Message(Argument(parameter, value), f" is not a seat 0..{rules.players - 1}"))


def _walk(rules: Ruleset, trump: Suit, tricks: Sequence[Sequence[Card]], leader: int,
          current: Sequence[Card]) -> tuple[list[int], list[int], int]:
    """Each trick's leader and winner, and who leads the current trick."""
    leaders, winners = [], []
    for k, trick in enumerate(tricks):
        if len(trick) != rules.players:
            raise HintError(Message(f"trick {k + 1} ({format_cards(trick) or 'empty'}) has {len(trick)} cards; a "
                                    f"trick of {rules.name} has {rules.players}"), parameter="tricks")
        leaders.append(leader)
        leader = (leader + trick_winner(rules, trick, trump)) % rules.players
        winners.append(leader)
    if len(current) >= rules.players:
        raise HintError(Message(f"the current trick {format_cards(current)} has {len(current)} cards: with "
                                f"{rules.players} players it is complete (give it with the earlier tricks)"),
                        parameter="trick")
    return leaders, winners, leader


def _played(rules: Ruleset, tricks: Sequence[Sequence[Card]], leaders: Sequence[int], current: Sequence[Card],
            leader: int) -> list[list[Card]]:
    played: list[list[Card]] = [[] for _ in range(rules.players)]
    for trick, first in (*zip(tricks, leaders, strict=True), (current, leader)):
        for j, card in enumerate(trick):
            played[(first + j) % rules.players].append(card)
    return played


def _check_counts(rules: Ruleset, hand: Hand, played: Sequence[Sequence[Card]], known: Mapping[int, Hand],
                  buried: Hand = _NONE) -> None:
    """Too many copies of a card among my hand, the cards played, the cards others are known to hold and the cards
    I buried."""
    copies = rules.deck.copies
    seen = Counter(hand.cards()) + Counter(buried.cards())
    for cards in played:
        seen.update(cards)
    for held in known.values():
        seen.update(held.cards())
    for card, n in seen.items():
        if n <= copies:
            continue
        mine = hand.count(card)
        where = [f"{mine} in the hand"] if mine else []
        out = sum(c == card for cards in played for c in cards)
        where += [f"{out} played"] if out else []
        extra = sum(h.count(card) for h in known.values())
        where += [f"{extra} shown or passed and not yet played"] if extra else []
        under = buried.count(card)
        where += [f"{under} buried"] if under else []
        raise HintError(Message(f"too many {card}: {', '.join(where)}; the {rules.name} pack holds {copies}"),
                        parameter="buried" if under else ("hand" if mine else "tricks"))


def _in_deck(rules: Ruleset, cards: Sequence[Card] | Hand, where: Argument | str, parameter: str | None = None) -> Hand:
    """``cards`` as a hand of the pack; ``where``: the argument that gave them (its value the cards), or words for
    them (followed by the cards) and the ``parameter`` at fault."""
    try:
        return rules.deck.check(cards)
    except CardError as exc:
        said = Message(where, f": {exc}") if isinstance(where, Argument) else Message(
            f"{where} {format_cards(cards)}: {exc}")
        raise HintError(said, parameter=parameter) from None


def _check_mine(facts: Facts) -> None:
    """This seat's own plays, each legal for the hand it then held (its hand now and the cards it played since)."""
    rules, seat = facts.rules, facts.seat
    later = list(facts.played[seat])
    hand = facts.hand + Hand(later)
    for k, (trick, first) in enumerate((*zip(facts.tricks, facts.leaders, strict=True), (facts.trick, facts.leader))):
        for j, card in enumerate(trick):
            if (first + j) % rules.players != seat:
                continue
            if k >= facts.stock_tricks:
                ruling = check_play(rules, hand, card, trick[:j], facts.trump, phase=facts.phase, leader_seat=first,
                                    bidder=facts.bidder)
                if not ruling.allowed:
                    raise HintError(Message(f"trick {k + 1}: seat {seat} (you) played {card} holding "
                                            f"{format_cards(hand)} — {ruling.summary}"),
                                    parameter="tricks" if k < len(facts.tricks) else "trick")
            hand = hand.remove(card)


def _shown(rules: Ruleset, trump: Suit, shown: Mapping[int, Hand], stock: bool, bidder: int | None) -> dict[int, Hand]:
    """Each seat's shown meld checked: cards of the pack that are a meld, all of them used by it."""
    out: dict[int, Hand] = {}
    for seat, cards in shown.items():
        _seat(rules, seat, "meld")
        where = Argument("meld", f"{seat}={format_cards(cards)}")
        hand = _in_deck(rules, cards, where)
        if rules.melders == "bidder" and not stock and seat != bidder:
            raise HintError(Message(where, f": in {rules.name} only the bidder melds"))
        uses = shown_cards(rules, hand, trump)
        if uses != hand:
            spare = hand - uses
            raise HintError(Message(where, f": {format_cards(spare)} {'is' if len(spare) == 1 else 'are'} no part of "
                                    f"a meld with trump {trump} (a hand showing these cards shows "
                                    f"{format_cards(uses) or 'no meld'})"))
        out[seat] = hand
    return out


def _exchange(facts: Facts, passed: Hand, received: Hand) -> tuple[int, Hand] | None:
    """The seat the exchange was with and the cards it holds for sure from it (None: no exchange given)."""
    rules = facts.rules
    if not passed and not received:
        return None
    if not rules.exchange:
        raise HintError(Message(Argument("passed", format_cards(passed or received)),
                                f": {rules.name} has no exchange"))
    for cards, name in ((passed, "passed"), (received, "received")):
        if cards and len(cards) != rules.exchange:
            raise HintError(Message(Argument(name, format_cards(cards)), f": {len(cards)} cards; the exchange in "
                                    f"{rules.name} is {rules.exchange}"))
    if facts.bidder is None:
        raise HintError(Message("an exchange is between the bidder and the partner: ", Argument("bidder"),
                                " not given"))
    partners = rules.partner_seats(facts.bidder)
    if facts.seat != facts.bidder and facts.seat not in partners:
        raise HintError(Message(f"seat {facts.seat} took no part in the exchange: it is between the bidder (seat "
                                f"{facts.bidder}) and the partner"), parameter="passed")
    # the partner passes first, the bidder returns: what went to the other seat and stayed there
    if facts.seat == facts.bidder:
        return partners[0], passed
    return facts.bidder, passed - received


def _meld_time(facts: Facts, seat: int, hand: Hand) -> Hand:
    """The cards ``seat`` held at the meld: its hand now and every card it played."""
    return hand + Hand(facts.played[seat])


def _check_my_meld(facts: Facts) -> None:
    rules, seat = facts.rules, facts.seat
    if seat not in facts.shown or facts.stock_tricks:
        return
    held = _meld_time(facts, seat, facts.hand)
    if facts.rules.bury is not None and facts.rules.bury.when == "after-meld":
        held = held + facts.buried
    shown = facts.shown[seat]
    if not shown.issubset(held) or shown_cards(rules, held, facts.trump) != shown:
        raise HintError(Message(Argument("meld", f"{seat}={format_cards(shown)}"), f": your hand at the meld "
                                f"({format_cards(held)}) shows "
                                f"{format_cards(shown_cards(rules, held, facts.trump)) or 'no meld'}"))


def _known(facts: Facts, passed: Hand, received: Hand) -> dict[int, Hand]:
    """The cards each other seat holds for sure now: its shown meld not yet played, and what this seat passed it."""
    known: dict[int, Hand] = {}
    for seat, shown in facts.shown.items():
        if seat != facts.seat:
            known[seat] = shown - Hand(facts.played[seat])
    exchange = _exchange(facts, passed, received)
    if exchange is not None:
        partner, cards = exchange
        # the same copy may be both shown and passed: the larger of the two counts
        have = known.get(partner, Hand())
        at_meld = Hand.from_counts([max(a, b) for a, b in zip(have.counts, cards.counts, strict=True)])
        known[partner] = at_meld - Hand(facts.played[partner]) if partner != facts.seat else have
    for seat, cards in known.items():
        if len(cards) > facts.sizes[seat]:
            raise HintError(Message(f"seat {seat} holds {facts.sizes[seat]} cards now but {len(cards)} it showed or "
                                    f"was passed are not yet played ({format_cards(cards)})"), parameter="meld")
    return {s: h for s, h in known.items() if len(h)}


def make_facts(rules: Ruleset, trump: Suit, hand: Hand, *, seat: int = 0, bidder: int | None = None,
               bid: int | None = None, shown: Mapping[int, Hand] | None = None, passed: Hand = _NONE,
               received: Hand = _NONE, tricks: Sequence[Sequence[Card]] = (), leader: int | None = None,
               trick: Sequence[Card] = (), buried: Hand = _NONE, widow: Hand = _NONE) -> Facts:
    """The checked view of ``seat`` (see the module docstring); ``leader``: who led the first of ``tricks``
    (default the bidder, else seat 0); ``buried``: the cards this seat buried, when it is the bidder; ``widow``:
    the widow the bidder took, when this seat saw it."""
    for value, name in ((seat, "seat"), (bidder, "bidder"), (leader, "leader")):
        _seat(rules, value, name)
    if bid is not None and bidder is None:
        raise HintError(Message(Argument("bid", bid), " given without the bidder's seat: whose bid is it?"))
    if trump not in rules.suits:
        raise HintError(Message(Argument("trump", trump), f" is not a suit of {rules.deck.name}"))
    rules.deal_sides(bidder)
    mine = _in_deck(rules, hand, Argument("hand", format_cards(hand)))
    for k, t in enumerate(tricks):
        _in_deck(rules, t, Argument("tricks", f"(trick {k + 1}) {format_cards(t)}"))
    tricks_in = tuple(tuple(t) for t in tricks)
    current = tuple(trick)
    _in_deck(rules, current, "the current trick", "trick")
    first = leader if leader is not None else (bidder if bidder is not None else 0)
    leaders, winners, now = _walk(rules, trump, tricks_in, first, current)
    to_play = (now + len(current)) % rules.players
    if to_play != seat:
        raise HintError(Message(f"it is seat {to_play}'s turn to play to trick {len(tricks_in) + 1}, not seat "
                                f"{seat}'s: the hint is for the player to move"), parameter="seat")
    stock_tricks = rules.stock_size // rules.players
    if len(tricks_in) < stock_tricks:
        raise HintError(Message(f"the hint is for the play after the stock: give the {stock_tricks} tricks played "
                                f"while it lasted first ({len(tricks_in)} given)"), parameter="tricks")
    played = _played(rules, tricks_in, leaders, current, now)
    on_trick = {(now + j) % rules.players for j in range(len(current))}
    left = rules.tricks_per_deal - len(tricks_in)
    if left <= 0:
        raise HintError(Message(f"{len(tricks_in)} tricks given: a deal of {rules.name} has "
                                f"{rules.tricks_per_deal}, so nothing is left to play"), parameter="tricks")
    sizes = tuple(left - (1 if s in on_trick else 0) for s in range(rules.players))
    if len(mine) != sizes[seat]:
        done = f"{len(tricks_in)} trick{'s' if len(tricks_in) != 1 else ''}"
        raise HintError(Message(Argument("hand"), f" holds {len(mine)} cards; after {done} seat {seat} holds "
                                f"{sizes[seat]}"))
    checked_shown = _shown(rules, trump, shown or {}, bool(stock_tricks), bidder)
    under = _my_buried(rules, buried, seat, bidder)
    seen_widow = _seen_widow(rules, widow, seat, bidder)
    base = Facts(rules, trump, seat, mine, bidder, bid, checked_shown, passed, received, tricks_in, tuple(leaders),
                 tuple(winners), current, now, stock_tricks, tuple(tuple(p) for p in played), sizes, Hand(),
                 buried=under)
    known = _known(base, _in_deck(rules, passed, Argument("passed", format_cards(passed))),
                   _in_deck(rules, received, Argument("received", format_cards(received))))
    _check_counts(rules, mine, played, known, under)
    _check_mine(base)
    _check_my_meld(base)
    unseen = rules.deck.full() - mine - Hand([c for p in played for c in p]) - under
    spare = _spare(rules, unseen, sizes, seat, under)
    out = Facts(rules, trump, seat, mine, bidder, bid, checked_shown, passed, received, tricks_in, tuple(leaders),
                tuple(winners), current, now, stock_tricks, base.played, sizes, unseen, known, spare, under)
    return _with_widow(out, seen_widow)


def _with_widow(facts: Facts, widow: Hand) -> Facts:
    """``facts`` with the widow seen, once the unseen cards are found to hold what it says the bidder holds."""
    if not len(widow):
        return facts
    _widow_left(facts, widow)
    return replace(facts, widow=widow)


def _my_buried(rules: Ruleset, buried: Hand, seat: int, bidder: int | None) -> Hand:
    """The cards this seat says it buried: only the bidder of a game that buries, as many as the widow."""
    if not len(buried):
        return buried
    given = Argument("buried", format_cards(buried))
    cards = _in_deck(rules, buried, given)
    if rules.bury is None:
        raise HintError(Message(given, f": in {rules.name} nobody buries cards"))
    if bidder != seat:
        who = "no bidder is given" if bidder is None else f"the bidder is seat {bidder}"
        raise HintError(Message(given, f": only the bidder buries, and {who}, not seat {seat}"))
    if len(cards) != rules.widow_size:
        raise HintError(Message(given, f": {len(cards)} cards, but the bidder buries {rules.widow_size} in "
                                f"{rules.name}"))
    return cards


def _spare(rules: Ruleset, unseen: Hand, sizes: Sequence[int], seat: int, under: Hand) -> int:
    """The unseen cards in no hand now: none, or the buried cards when this seat did not bury them."""
    spare = len(unseen) - sum(n for s, n in enumerate(sizes) if s != seat)
    allowed = rules.widow_size if rules.bury is not None and not len(under) else 0
    if spare not in (0, allowed):
        raise HintError(Message(f"{spare} cards of the pack are in no hand, no trick and not buried: give every "
                                "trick of the deal so far"), parameter="tricks")
    return spare


def _seen_widow(rules: Ruleset, widow: Hand, seat: int, bidder: int | None) -> Hand:
    """The widow as this seat says it saw it: a game with a widow, a bidder who took it, as many cards as the
    ruleset's widow, turned up for all unless this seat is the bidder."""
    if not len(widow):
        return widow
    given = Argument("widow", format_cards(widow))
    cards = _in_deck(rules, widow, given)
    if rules.widow is None:
        raise HintError(Message(given, f": {rules.name} has no widow"))
    if bidder is None:
        raise HintError(Message(given, ": the bidder takes the widow, and ", Argument("bidder"), " is not given"))
    if len(cards) != rules.widow_size:
        raise HintError(Message(given, f": {len(cards)} cards, but the widow of {rules.name} has {rules.widow_size}"))
    if seat != bidder and not rules.widow.shown:
        raise HintError(Message(given, f": in {rules.name} the widow is not turned up, so only the bidder (seat "
                                f"{bidder}) sees it, not seat {seat}"))
    return cards


def _widow_left(facts: Facts, widow: Hand) -> tuple[int, ...]:
    """Per card index, the widow's copies not accounted for by what the bidder is known to have held at the meld
    (its hand now when it asks, the cards it played, its shown meld not yet played): they are among the unseen
    cards, in the bidder's hand or buried. ``HintError`` when the unseen cards cannot hold them."""
    bidder = facts.bidder
    assert bidder is not None
    held = Hand(facts.played[bidder]) + (facts.hand + facts.buried if bidder == facts.seat
                                        else facts.known.get(bidder, _NONE))
    others = _NONE
    for s, cards in facts.known.items():
        others = others + (cards if s != bidder else _NONE)
    left = [max(0, w - h) for w, h in zip(widow.counts, held.counts, strict=True)]
    room = facts.out_of_play
    if bidder != facts.seat:
        room += facts.sizes[bidder] - len(facts.known.get(bidder, _NONE))
    for i, n in enumerate(left):
        free = facts.unseen.counts[i] - others.counts[i]
        if n > free:
            card = ALL_CARDS[i]
            raise HintError(Message(Argument("widow", format_cards(widow)), f": the bidder (seat {bidder}) took "
                                    f"{widow.count(card)} {card} with it, but only {free} {card} can still be in its "
                                    "hand or buried: check the widow, the hand and the tricks"), parameter="widow")
    if sum(left) > room and bidder == facts.seat:
        missing = Hand.from_counts(left)
        where = "your hand, your plays or the cards you buried" if len(facts.buried) else "your hand or your plays"
        raise HintError(Message(Argument("widow", format_cards(widow)), f": you (seat {bidder}) took the widow, but "
                                f"{format_cards(missing)} {'is' if len(missing) == 1 else 'are'} not in {where}"),
                        parameter="widow")
    if sum(left) > room:
        raise HintError(Message(Argument("widow", format_cards(widow)), f": {sum(left)} of its cards are not yet "
                                f"played or shown by the bidder (seat {bidder}), but its hand and the buried cards "
                                f"hold {room} cards of the unseen"), parameter="widow")
    return tuple(left)


def facts_of(state: DealState, seat: int | None = None) -> Facts:
    """What ``seat`` (default: the player to move) has seen of the deal ``state``, checked (``make_facts``): its
    hand now, the meld shown, the exchange it took part in, the cards it buried, the tricks. ``HintError`` when it
    is not that seat's card to play, or its hand is not known."""
    if state.stage != "play" or state.trump is None:
        raise HintError(Message(f"the hint is for a card to play; the deal is at its {state.stage}"), parameter="seat")
    seat = state.turn.seat if seat is None else seat
    assert seat is not None
    hand = state.hand(seat)
    if hand is None:
        raise HintError(Message(Argument("seat", seat), "'s hand is not known: the hint is for a seat whose cards are "
                                "known"))
    done = [t for t in state.tricks if t.winner is not None]
    first = done[0].leader if done else state.leader
    bidder = state.bidder
    partner = next(iter(state.rules.partner_seats(bidder)), None) if bidder is not None and not \
        state.rules.sides_by_auction else None
    other = partner if seat == bidder else bidder if seat == partner else None
    given = state.given
    received = given.get(other, Hand()) if other is not None else Hand()
    return make_facts(state.rules, state.trump, hand, seat=seat, bidder=bidder, bid=state.bid, shown=state.shown,
                      passed=given.get(seat, Hand()), received=received,
                      tricks=[list(t.cards) for t in done], leader=first, trick=list(state.trick),
                      buried=state.buried or Hand() if seat == bidder else Hand(),
                      widow=_widow_seen(state, seat))


def _widow_seen(state: DealState, seat: int) -> Hand:
    """The widow as ``seat`` saw it: turned up for all, or taken into its own hand as the bidder."""
    widow, rules = state.widow, state.rules
    if widow is None or rules.widow is None or not (rules.widow.shown or seat == state.bidder):
        return Hand()
    return widow
