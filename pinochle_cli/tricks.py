"""Tricks: which card wins, which cards a player may play, and why a card is refused.

Everything comes from the ruleset: the order of strength is ``rules.rank_order`` (high to
low), the duties are ``rules.play.duties`` (``rules.play.stock_duties`` while a stock lasts),
seats and partners are ``rules.players`` and ``rules.deal_sides(bidder)``: the partnerships, or, in a
game whose auction forms the sides, the others of the bidder's seat (``bidder``, required then).

Winning. A trick is won by its highest trump or, with no trump in it, by the highest card of
the suit led. Of identical cards (same rank and suit) the one played first wins: a later copy
never beats it (``card_beats`` is strict).

Duties. The leader (empty trick) may play any card. A follower's legal cards are the distinct
cards of the hand narrowed by each duty in order, whenever the narrowing leaves something:

- ``follow``: holding the led suit, only cards of the led suit;
- ``trump``: void in the led suit, only trumps (``only_if_winning``: only when some trump held
  would win the trick as it stands);
- ``beat``: among the cards still allowed, only those that would win the trick as it stands,
  if there are any. Once a plain lead has been trumped nobody following suit can beat, so any
  card of the led suit stays legal.

A duty with ``when: trump-led`` / ``plain-led`` applies only on such a lead; ``partner: false``
makes it lapse while the player's partner is winning the trick. The first duty that excluded a
card is the reason it is refused (``check_play`` → ``Ruling``).

Cards are handled as indices ``suit * 6 + rank`` in the inner functions (used millions of
times by the deal engine); the public functions take and return ``Card`` values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from .cards import ALL_CARDS, Card, Hand, Rank, Suit, format_cards
from .errors import PlayError
from .ruleset import Duty, Ruleset
from .ruleset.vocabulary import DutyName, Phase, words

__all__ = [
    "PHASES", "Ruling", "TrickState", "card_beats", "check_play", "duties_for", "legal_plays", "narrow",
    "partner_winning", "strength_table", "beats_index", "winner_index",
    "trick_winner", "winning_card",
]

PHASES = words(Phase)
# strength of a rank that is not in the deck
_WEAK = 99


# --------------------------------------------------------------------------- strength

def strength_table(rules: Ruleset) -> tuple[int, ...]:
    """For each card index 0‥23, its rank's position in ``rules.rank_order`` (0 = highest)."""
    return _rank_positions(rules.rank_order)


@lru_cache(maxsize=32)
def _rank_positions(order: tuple[Rank, ...]) -> tuple[int, ...]:
    pos = {rank: i for i, rank in enumerate(order)}
    return tuple(pos.get(c.rank, _WEAK) for c in ALL_CARDS)


def beats_index(strength: Sequence[int], trump: int, challenger: int, current: int) -> bool:
    """Index form of ``card_beats``; ``trump`` is -1 when there is none."""
    cs, ws = challenger // 6, current // 6
    if cs == ws:
        return strength[challenger] < strength[current]
    return cs == trump


def winner_index(strength: Sequence[int], trump: int, trick: Sequence[int]) -> int:
    best = 0
    for i in range(1, len(trick)):
        if beats_index(strength, trump, trick[i], trick[best]):
            best = i
    return best


def card_beats(rules: Ruleset, trump: Suit | None, challenger: Card, current: Card) -> bool:
    """Would ``challenger``, played after ``current`` (the card now winning), take the trick over?

    A trump beats a card that is not trump; a card of the same suit beats a strictly lower one;
    an identical card never beats (the earlier copy wins); anything else does not beat. The
    suit led needs no saying: the card now winning is always of the led suit or a trump.
    """
    strength = strength_table(rules)
    return beats_index(strength, -1 if trump is None else int(trump), challenger.index, current.index)


def trick_winner(rules: Ruleset, trump: Suit | None, trick: Sequence[Card]) -> int:
    """Position (0 = the leader) of the card winning ``trick`` so far; ``PlayError`` if empty."""
    if not trick:
        raise PlayError("an empty trick has no winner")
    return winner_index(strength_table(rules), -1 if trump is None else int(trump), [c.index for c in trick])


def winning_card(rules: Ruleset, trump: Suit | None, trick: Sequence[Card]) -> Card | None:
    """The card now winning ``trick``, or None before the lead."""
    return trick[trick_winner(rules, trump, trick)] if trick else None


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


def narrow(duties: Sequence[Duty], strength: Sequence[int], trump: int, trick: Sequence[int],
           cards: list[int], partner_winning: bool,
           steps: list[tuple[Duty, list[int]]] | None = None) -> list[int]:
    """The allowed subset of ``cards`` (distinct indices held) for the next player of ``trick``.

    ``steps``, when given, receives ``(duty, cards it kept)`` for each duty that narrowed.
    """
    if not trick or not cards:
        return cards
    led = trick[0] // 6
    win = trick[winner_index(strength, trump, trick)]
    trump_led = led == trump
    allowed = cards
    for duty in duties:
        if duty.when != "always" and (duty.when == "trump-led") != trump_led:
            continue
        if not duty.partner and partner_winning:
            continue
        name = duty.name
        if name == "follow":
            narrowed = [c for c in allowed if c // 6 == led]
        elif name == "trump":
            if trump < 0 or any(c // 6 == led for c in cards):
                continue
            narrowed = [c for c in allowed if c // 6 == trump]
            if duty.only_if_winning and not any(beats_index(strength, trump, c, win) for c in narrowed):
                continue
        # beat
        else:
            narrowed = [c for c in allowed if beats_index(strength, trump, c, win)]
        if narrowed and len(narrowed) < len(allowed):
            if steps is not None:
                steps.append((duty, narrowed))
            allowed = narrowed
    return allowed


def _distinct(hand: Hand) -> list[int]:
    return [i for i, n in enumerate(hand.counts) if n]


def _trump_index(trump: Suit | None) -> int:
    return -1 if trump is None else int(trump)


def partner_winning(rules: Ruleset, trump: Suit | None, trick: Sequence[Card], leader_seat: int = 0,
                    bidder: int | None = None) -> bool:
    """Is the next player's partner winning ``trick``? ``PlayError`` if the trick is already complete, or if
    the auction forms the sides and ``bidder`` (the bidder's seat) is not given."""
    if len(trick) >= rules.players:
        raise PlayError(f"the trick {format_cards(trick)} has {len(trick)} cards: with {rules.players} "
                        f"players it is complete and nobody is left to play to it")
    if not trick:
        return False
    seat = (leader_seat + len(trick)) % rules.players
    win_seat = (leader_seat + trick_winner(rules, trump, trick)) % rules.players
    sides = rules.deal_sides(bidder)
    return win_seat != seat and any(win_seat in team and seat in team for team in sides)


def legal_plays(rules: Ruleset, trump: Suit | None, trick: Sequence[Card], hand: Hand, *,
                phase: str | None = None, leader_seat: int = 0, bidder: int | None = None) -> list[Card]:
    """The distinct cards of ``hand`` the next player of ``trick`` may play, in hand order.

    ``trick``: the cards played so far, leader first. ``phase`` (``stock``/``play-off``) is
    required iff the game has a stock. The player sits at ``(leader_seat + len(trick)) %
    players``; whether their partner is winning comes from ``rules.deal_sides(bidder)``.
    """
    duties = duties_for(rules, phase)
    partner = partner_winning(rules, trump, trick, leader_seat, bidder)
    allowed = narrow(duties, strength_table(rules), _trump_index(trump), [c.index for c in trick],
                     _distinct(hand), partner)
    return [ALL_CARDS[i] for i in allowed]


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


def check_play(rules: Ruleset, trump: Suit | None, trick: Sequence[Card], hand: Hand, card: Card, *,
               phase: str | None = None, leader_seat: int = 0, bidder: int | None = None) -> Ruling:
    """May the next player of ``trick``, holding ``hand``, play ``card``? With the refusing duty and why."""
    duties = duties_for(rules, phase)
    partner = partner_winning(rules, trump, trick, leader_seat, bidder)
    strength = strength_table(rules)
    t = _trump_index(trump)
    idx = [c.index for c in trick]
    steps: list[tuple[Duty, list[int]]] = []
    allowed = narrow(duties, strength, t, idx, _distinct(hand), partner, steps)
    legal = tuple(ALL_CARDS[i] for i in allowed)
    win_pos = winner_index(strength, t, idx) if trick else None
    winning = trick[win_pos] if win_pos is not None else None
    if card not in hand:
        return Ruling(False, card, "not-held", f"{card} is not in your hand", legal, winning,
                      summary=f"{card} is not in the hand")
    for duty, kept_idx in steps:
        if card.index in kept_idx:
            continue
        led = trick[0].suit
        kept = [ALL_CARDS[i] for i in kept_idx]
        if duty.name == "follow":
            reason, summary = f"you hold {led} and must follow suit", f"must follow suit in {led}"
        elif duty.name == "trump":
            reason, summary = f"you are void in {led} and must trump", f"void in {led}, must trump"
        else:
            assert winning is not None and win_pos is not None
            verb = "beats" if len(kept) == 1 else "beat"
            reason = f"{_or(kept)} {verb} the {winning} and you must beat it"
            summary = f"must beat the {winning}" + (" led" if win_pos == 0 else "")
        return Ruling(False, card, duty.name, reason, legal, winning, tuple(kept), summary)
    if not trick:
        return Ruling(True, card, None, "the leader may play any card", legal, winning, summary="allowed")
    if not duties:
        return Ruling(True, card, None, "no duty limits this play: any card may be played", legal, winning,
                      summary="allowed")
    assert winning is not None
    because = _weigh(duties, strength, t, trick, hand, winning, partner)
    said = [text for _, text in because] or ["no duty applies to this hand"]
    reason = f"{_and(said)}, so {_may_go(hand, legal, trump)}"
    return Ruling(True, card, None, reason, legal, winning, summary="allowed", because=tuple(because))


_NEED = {"follow": "follow", "trump": "trump", "beat": "beat"}


def _and(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def _weigh(duties: Sequence[Duty], strength: Sequence[int], trump: int, trick: Sequence[Card], hand: Hand,
           winning: Card, partner: bool) -> list[tuple[str, str]]:
    """Each duty in force and what it came to for this hand, in the words of a refusal."""
    led = trick[0].suit
    trump_led = int(led) == trump
    held = [ALL_CARDS[i] for i in _distinct(hand)]
    allowed = held
    out: list[tuple[str, str]] = []

    def beats(c: Card) -> bool:
        return beats_index(strength, trump, c.index, winning.index)

    for duty in duties:
        if duty.when != "always" and (duty.when == "trump-led") != trump_led:
            out.append((duty.name, f"you need not {_NEED[duty.name]} on a {'trump' if trump_led else 'plain'} lead"))
        elif not duty.partner and partner:
            out.append((duty.name, f"you need not {_NEED[duty.name]} your partner's {winning}"))
        elif duty.name == "follow":
            following = [c for c in allowed if c.suit == led]
            out.append(("follow", f"you hold {led}" if following else f"you hold no {led}"))
            allowed = following or allowed
        elif duty.name == "trump" and trump >= 0 and not any(c.suit == led for c in held):
            trumps = [c for c in allowed if int(c.suit) == trump]
            if not trumps:
                out.append(("trump", "you hold no trump"))
            elif duty.only_if_winning and not any(beats(c) for c in trumps):
                out.append(("trump", f"your trumps cannot beat the {winning}"))
            else:
                out.append(("trump", "you must trump"))
                allowed = trumps
        elif duty.name == "beat":
            beating = [c for c in allowed if beats(c)]
            if not beating and ("trump", f"your trumps cannot beat the {winning}") not in out:
                out.append(("beat", f"you cannot beat the {winning}"))
            elif beating and len(beating) < len(allowed):
                out.append(("beat", f"you must beat the {winning}"))
                allowed = beating
    return out


def _may_go(hand: Hand, legal: Sequence[Card], trump: Suit | None) -> str:
    """The cards allowed, as briefly as they can be named: "any card", "any ♠", "A♠ or 10♠"."""
    held = [ALL_CARDS[i] for i in _distinct(hand)]
    if len(legal) == len(held):
        return "any card may go"
    suits = {c.suit for c in legal}
    if len(suits) == 1:
        suit = next(iter(suits))
        if len(legal) == sum(1 for c in held if c.suit == suit) and len(legal) > 1:
            return f"any {'trump' if suit == trump else suit} may go"
    return f"{_or(legal)} may go"


# --------------------------------------------------------------------------- a trick in progress

@dataclass(frozen=True)
class TrickState:
    """A trick being played: the cards so far (leader first), who led, trump and the phase.

    ``play`` applies a card (checking only that the trick is not complete: call ``check``
    with the player's hand first to enforce the duties).
    """

    rules: Ruleset
    trump: Suit | None
    leader_seat: int = 0
    phase: str | None = None
    cards: tuple[Card, ...] = ()
    # the bidder's seat: who is whose partner when the auction forms the sides
    bidder: int | None = None

    @property
    def seat(self) -> int:
        """The seat to play next."""
        return (self.leader_seat + len(self.cards)) % self.rules.players

    @property
    def complete(self) -> bool:
        return len(self.cards) >= self.rules.players

    @property
    def winning_index(self) -> int | None:
        return trick_winner(self.rules, self.trump, self.cards) if self.cards else None

    @property
    def winning_card(self) -> Card | None:
        return winning_card(self.rules, self.trump, self.cards)

    @property
    def winning_seat(self) -> int | None:
        i = self.winning_index
        return None if i is None else (self.leader_seat + i) % self.rules.players

    def legal(self, hand: Hand) -> list[Card]:
        return legal_plays(self.rules, self.trump, self.cards, hand, phase=self.phase, leader_seat=self.leader_seat,
                           bidder=self.bidder)

    def check(self, hand: Hand, card: Card) -> Ruling:
        return check_play(self.rules, self.trump, self.cards, hand, card, phase=self.phase,
                          leader_seat=self.leader_seat, bidder=self.bidder)

    def play(self, card: Card) -> TrickState:
        """The trick with ``card`` added; raises ``PlayError`` when it is complete."""
        if self.complete:
            raise PlayError(f"the trick {format_cards(self.cards)} is complete; {card} cannot be added")
        return TrickState(self.rules, self.trump, self.leader_seat, self.phase, (*self.cards, card), self.bidder)
