"""Tricks in cards: which card wins, which cards a player may play, and why a card is refused.

The rules themselves are ``game.trick_rules``' (the one definition, also compiled for the engines);
this module asks them about ``Card`` values and words their answers. Everything comes from the
ruleset: the order of strength is ``rules.rank_order`` (high to low), the duties are
``rules.play.duties`` (``rules.play.stock_duties`` while a stock lasts), seats and partners are
``rules.players`` and ``rules.deal_sides(bidder)``: the partnerships, or, in a game whose auction
forms the sides, the others of the bidder's seat (``bidder``, required then).

A trick is won by its highest trump or, with no trump in it, by the highest card of the suit led;
of identical cards the one played first wins. The leader may play any card; a follower's cards
are narrowed by each duty in order whenever the narrowing leaves something (``follow``, ``trump``,
``beat``, each perhaps only on a ``trump-led``/``plain-led`` lead, or not while the partner wins).
The first duty that excluded a card is the reason it is refused (``check_play`` → ``Ruling``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from ..cards import ALL_CARDS, N_RANKS, Card, Hand, Rank, Suit, SuitLike, as_suit, format_cards
from ..errors import PlayError
from ..ruleset import Duty, Ruleset
from ..ruleset.vocabulary import DutyName, Phase, words
from . import trick_rules as tr

__all__ = [
    "PHASES", "Ruling", "TrickRules", "card_beats", "check_play", "duties_for", "legal_plays", "partner_winning",
    "rank_places", "trick_rules", "trick_winner", "winning_card",
]

PHASES = words(Phase)
# the place of a rank that is not in the deck
_ABSENT = 99


# --------------------------------------------------------------------------- the rules as integers

@dataclass(frozen=True)
class TrickRules:
    """A ruleset's trick rules with one trump and the duties of one phase, as ``game.trick_rules`` reads them."""

    trump: int
    strength: tuple[int, ...]
    above: tuple[int, ...]
    suit_mask: tuple[int, ...]
    duties: tuple[int, ...]
    # the duties themselves, in the same order as their rows
    named: tuple[Duty, ...]

    def winner(self, trick: Sequence[int]) -> int:
        """Position (0 = the leader) of the card now winning ``trick`` (card indices, not empty)."""
        return tr.winner(self.above, trick, len(trick))

    def legal(self, held: int, trick: Sequence[int], partner_win: bool) -> int:
        """The cards of ``held`` (a mask) the next player of ``trick`` may play, as a mask."""
        return tr.legal_in_trick(self.above, self.suit_mask, self.trump, self.duties, held, trick, len(trick),
                                 partner_win)


@lru_cache(maxsize=64)
def trick_rules(rules: Ruleset, trump: Suit | None, phase: str | None = None) -> TrickRules:
    """``rules`` with ``trump`` (None: no trump) and the duties of ``phase`` (``duties_for``)."""
    t = -1 if trump is None else int(trump)
    strength = tr.strengths(rules.rank_order, (c.index for c in rules.deck.full()))
    duties = duties_for(rules, phase)
    return TrickRules(t, strength, tr.above_masks(strength, t), tr.suit_masks(), tr.encode(duties), duties)


def rank_places(rules: Ruleset) -> tuple[int, ...]:
    """For each card index 0‥23, its rank's place in ``rules.rank_order`` (0 = highest; 99: not in the deck)."""
    return _places(rules.rank_order)


@lru_cache(maxsize=32)
def _places(order: tuple[Rank, ...]) -> tuple[int, ...]:
    place = {rank: i for i, rank in enumerate(order)}
    return tuple(place.get(c.rank, _ABSENT) for c in ALL_CARDS)


def _mask(cards: Sequence[Card] | Hand) -> int:
    out = 0
    for c in cards:
        out |= 1 << c.index
    return out


def _cards(mask: int) -> list[Card]:
    return [c for c in ALL_CARDS if (mask >> c.index) & 1]


# --------------------------------------------------------------------------- winning

def card_beats(rules: Ruleset, challenger: Card, current: Card, trump: SuitLike) -> bool:
    """Would ``challenger``, played after ``current`` (the card now winning), take the trick over?

    A trump beats a card that is not trump; a card of the same suit beats a strictly lower one;
    an identical card never beats (the earlier copy wins); anything else does not beat. The
    suit led needs no saying: the card now winning is always of the led suit or a trump.
    """
    t = trick_rules(rules, as_suit(trump), _any_phase(rules))
    return tr.beats(t.strength, t.trump, challenger.index, current.index)


def _any_phase(rules: Ruleset) -> str | None:
    # winning does not depend on the phase: any phase the ruleset has
    return "play-off" if rules.has_stock else None


def trick_winner(rules: Ruleset, trick: Sequence[Card], trump: SuitLike) -> int:
    """Position (0 = the leader) of the card winning ``trick`` so far; ``PlayError`` if empty."""
    if not trick:
        raise PlayError("an empty trick has no winner")
    return trick_rules(rules, as_suit(trump), _any_phase(rules)).winner([c.index for c in trick])


def winning_card(rules: Ruleset, trick: Sequence[Card], trump: SuitLike) -> Card | None:
    """The card now winning ``trick``, or None before the lead."""
    return trick[trick_winner(rules, trick, trump)] if trick else None


# --------------------------------------------------------------------------- duties

def duties_for(rules: Ruleset, phase: str | None) -> tuple[Duty, ...]:
    """The duties in force: ``phase`` is required (``stock`` or ``play-off``) iff the game has a stock;
    ``PlayError`` otherwise."""
    if rules.has_stock:
        if phase is None:
            raise PlayError(f"{rules.name} has a stock: the phase (stock or play-off) is required")
        if phase not in PHASES:
            raise PlayError(f"phase {phase!r} is not stock or play-off")
        return rules.play.stock_duties if phase == "stock" else rules.play.duties
    if phase is not None:
        raise PlayError(f"{rules.name} has no stock: there is no phase (got {phase!r})")
    return rules.play.duties


def partner_winning(rules: Ruleset, trick: Sequence[Card], trump: SuitLike, leader_seat: int = 0,
                    bidder: int | None = None) -> bool:
    """Is the next player's partner winning ``trick``? ``PlayError`` if the trick is already complete, or if
    the auction forms the sides and ``bidder`` (the bidder's seat) is not given."""
    if len(trick) >= rules.players:
        raise PlayError(f"the trick {format_cards(trick)} has {len(trick)} cards: with {rules.players} "
                        f"players it is complete and nobody is left to play to it")
    if not trick:
        return False
    seat = (leader_seat + len(trick)) % rules.players
    win_seat = (leader_seat + trick_winner(rules, trick, trump)) % rules.players
    return win_seat != seat and rules.deal_side_of(win_seat, bidder) == rules.deal_side_of(seat, bidder)


def legal_plays(rules: Ruleset, hand: Hand, trick: Sequence[Card] = (), trump: SuitLike = None, *,
                phase: str | None = None, leader_seat: int = 0, bidder: int | None = None) -> list[Card]:
    """The distinct cards of ``hand`` the next player of ``trick`` may play, in hand order.

    ``trick``: the cards played so far, leader first; ``trump``: a ``Suit``, its letter, symbol or name, or
    None. ``phase`` (``stock``/``play-off``) is required iff the game has a stock. The player sits at
    ``(leader_seat + len(trick)) % players``; whether their partner is winning comes from
    ``rules.deal_sides(bidder)``.
    """
    trump = as_suit(trump)
    t = trick_rules(rules, trump, phase)
    partner = partner_winning(rules, trick, trump, leader_seat, bidder)
    return _cards(t.legal(_mask(hand), [c.index for c in trick], partner))


# --------------------------------------------------------------------------- rulings

@dataclass(frozen=True)
class Ruling:
    """The answer to "may I play this card?".

    ``duty``: what refuses it — ``follow``, ``trump``, ``beat`` or ``not-held`` — None when
    allowed. ``reason``: in words, addressed to the player ("you hold ♠ and must follow
    suit"). ``summary``: the same in the third person, for records ("must beat the A♥ led").
    ``legal``: every card allowed; ``winning``: the card now winning (None when leading);
    ``holding``: the cards held that the refusing duty demanded instead. ``because``: for an
    allowed card after the lead, each duty weighed and what it came to, the words of ``reason``.
    """

    allowed: bool
    card: Card
    duty: DutyName | Literal["not-held"] | None
    reason: str
    legal: tuple[Card, ...] = ()
    winning: Card | None = None
    holding: tuple[Card, ...] = ()
    summary: str = ""
    # allowed: (duty, what it came to) for each duty weighed
    because: tuple[tuple[str, str], ...] = ()


def _or(cards: Sequence[Card]) -> str:
    names = [str(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


@dataclass(frozen=True)
class _Weighed:
    """One duty weighed for a follower: what it came to (``trick_rules``' outcome), the cards allowed before it
    and after it (masks)."""

    duty: Duty
    outcome: int
    before: int
    after: int


def _weigh(t: TrickRules, hand: Hand, trick: Sequence[Card], partner: bool) -> list[_Weighed]:
    """Each duty in force, in order, for the next player of ``trick`` (not empty) holding ``hand``."""
    idx = [c.index for c in trick]
    led = idx[0] // N_RANKS
    led_mask, trump_mask = t.suit_mask[led], t.suit_mask[t.trump] if t.trump >= 0 else 0
    beat_mask = t.above[idx[t.winner(idx)]]
    held = allowed = _mask(hand)
    out = []
    for i, duty in enumerate(t.named):
        outcome, after = tr.duty_outcome(t.duties, i, held, allowed, led_mask, trump_mask, led == t.trump, beat_mask,
                                         partner)
        out.append(_Weighed(duty, outcome, allowed, after))
        allowed = after
    return out


def check_play(rules: Ruleset, hand: Hand, card: Card, trick: Sequence[Card] = (), trump: SuitLike = None, *,
               phase: str | None = None, leader_seat: int = 0, bidder: int | None = None) -> Ruling:
    """May the next player of ``trick``, holding ``hand``, play ``card``? With the refusing duty and why."""
    trump = as_suit(trump)
    t = trick_rules(rules, trump, phase)
    partner = partner_winning(rules, trick, trump, leader_seat, bidder)
    legal = tuple(legal_plays(rules, hand, trick, trump, phase=phase, leader_seat=leader_seat, bidder=bidder))
    win_pos = t.winner([c.index for c in trick]) if trick else None
    winning = trick[win_pos] if win_pos is not None else None
    if card not in hand:
        return Ruling(False, card, "not-held", f"{card} is not in your hand", legal, winning,
                      summary=f"{card} is not in the hand")
    if not trick:
        return Ruling(True, card, None, "the leader may play any card", legal, winning, summary="allowed")
    weighed = _weigh(t, hand, trick, partner)
    for w in weighed:
        if (w.before >> card.index) & 1 and not (w.after >> card.index) & 1:
            return _refusal(w, card, trick, legal, winning, win_pos == 0)
    if not t.named:
        return Ruling(True, card, None, "no duty limits this play: any card may be played", legal, winning,
                      summary="allowed")
    assert winning is not None
    because = [(w.duty.name, text) for w in weighed if (text := _came_to(w, trick[0].suit, winning, weighed))]
    said = [text for _, text in because] or ["no duty applies to this hand"]
    reason = f"{_and(said)}, so {_may_go(hand, legal, trump)}"
    return Ruling(True, card, None, reason, legal, winning, summary="allowed", because=tuple(because))


def _refusal(w: _Weighed, card: Card, trick: Sequence[Card], legal: tuple[Card, ...], winning: Card | None,
             led_wins: bool) -> Ruling:
    """``card`` refused by the duty of ``w``, in words."""
    led = trick[0].suit
    kept = _cards(w.after)
    if w.duty.name == "follow":
        reason, summary = f"you hold {led} and must follow suit", f"must follow suit in {led}"
    elif w.duty.name == "trump":
        reason, summary = f"you are void in {led} and must trump", f"void in {led}, must trump"
    else:
        verb = "beats" if len(kept) == 1 else "beat"
        reason = f"{_or(kept)} {verb} the {winning} and you must beat it"
        summary = f"must beat the {winning}" + (" led" if led_wins else "")
    return Ruling(False, card, w.duty.name, reason, legal, winning, tuple(kept), summary)


_NEED = {"follow": "follow", "trump": "trump", "beat": "beat"}


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _came_to(w: _Weighed, led: Suit, winning: Card, weighed: Sequence[_Weighed]) -> str:
    """What one duty came to for an allowed card, in the words of a refusal ("" when there is nothing to say)."""
    name = w.duty.name
    if w.outcome == tr.LAPSED_LEAD:
        return f"you need not {_NEED[name]} on a {'plain' if w.duty.when == 'trump-led' else 'trump'} lead"
    if w.outcome == tr.LAPSED_PARTNER:
        return f"you need not {_NEED[name]} your partner's {winning}"
    if name == "follow":
        return f"you hold {led}" if w.outcome == tr.NARROWS else f"you hold no {led}"
    if name == "trump":
        words = {tr.NONE_HELD: "you hold no trump", tr.CANNOT_WIN: f"your trumps cannot beat the {winning}",
                 tr.NARROWS: "you must trump"}
        return words.get(w.outcome, "")
    if w.outcome == tr.NONE_HELD:
        said_trump = any(x.outcome == tr.CANNOT_WIN for x in weighed)
        return "" if said_trump else f"you cannot beat the {winning}"
    return f"you must beat the {winning}" if w.after != w.before else ""


def _may_go(hand: Hand, legal: Sequence[Card], trump: Suit | None) -> str:
    """The cards allowed, as briefly as they can be named: "any card", "any ♠", "A♠ or 10♠"."""
    held = _cards(_mask(hand))
    if len(legal) == len(held):
        return "any card may go"
    suits = {c.suit for c in legal}
    if len(suits) == 1:
        suit = next(iter(suits))
        if len(legal) == sum(1 for c in held if c.suit == suit) and len(legal) > 1:
            return f"any {'trump' if suit == trump else suit} may go"
    return f"{_or(legal)} may go"
