"""The rules of a trick, defined once: which card wins it, and which cards a follower may play.

Every part of the package that plays or checks a card asks these functions: ``legal`` and the
score's checks through ``game.tricks``, the computer player and the double-dummy solver through
their compiled copies (``game.kernels`` compiles these very functions with numba; nothing is
written twice). They take plain integers and sequences, so the same source runs in Python and
compiled:

- a card is its index ``suit * N_RANKS + rank`` (``cards.Card.index``); a set of distinct cards is
  a mask (bit ``c``: card ``c``);
- ``strength[c]``: higher is stronger, 0 for a card not in the pack (``strengths``);
- ``above[w]``: the mask of the cards that take a trick now won by card ``w`` (``above_masks``);
- ``suit_mask[s]``: suit ``s``'s cards as a mask; ``trump``: a suit, or -1 for none;
- the duties: ``ROW`` integers per duty, ``(kind, when, partner, only_if_winning)`` (``encode``).

Winning: a trump beats a card that is not trump; a card of the same suit beats a strictly weaker
one, so of identical cards the one played first wins; anything else does not beat.

Duties: the leader may play any card. A follower's cards are narrowed by each duty in order,
whenever the narrowing leaves something. ``duty_outcome`` says what one duty comes to for a hand
(the explanations of ``game.tricks`` word these outcomes); ``legal_given`` applies them all. Nothing
is raised on purpose.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, SUIT_MASK, Rank

if TYPE_CHECKING:
    from ..ruleset import Duty

__all__ = [
    "ALWAYS", "BEAT", "CANNOT_WIN", "DUTY_KINDS", "DUTY_WHENS", "FOLLOW", "INAPPLICABLE", "LAPSED_LEAD",
    "LAPSED_PARTNER", "NARROWS", "NONE_HELD", "ONLY_IF_WINNING", "PARTNER", "PLAIN_LED", "ROW", "TRUMP", "TRUMP_LED",
    "WHEN", "above_masks", "beats", "duty_outcome", "encode", "legal_given", "legal_in_trick", "strengths",
    "suit_masks", "void_shows_no_trump", "winner",
]

# a duty's kind and when it applies, as encoded (the words are the ruleset's: ``ruleset.vocabulary``)
FOLLOW, TRUMP, BEAT = 0, 1, 2
ALWAYS, TRUMP_LED, PLAIN_LED = 0, 1, 2
DUTY_KINDS = {"follow": FOLLOW, "trump": TRUMP, "beat": BEAT}
DUTY_WHENS = {"always": ALWAYS, "trump-led": TRUMP_LED, "plain-led": PLAIN_LED}
# a duty's row: kind, when, applies while the partner wins (1/0), the trump duty only when a trump would win (1/0)
ROW = 4
WHEN, PARTNER, ONLY_IF_WINNING = 1, 2, 3

# what one duty comes to for a follower (``duty_outcome``):
# it narrows the allowed cards to those it demands (perhaps all of them)
NARROWS = 0
# it does not apply on this lead (``when``)
LAPSED_LEAD = 1
# it does not apply while the partner is winning (``partner: false``)
LAPSED_PARTNER = 2
# the trump duty: the player holds the suit led, or there is no trump
INAPPLICABLE = 3
# the player holds none of the cards it demands (among those still allowed)
NONE_HELD = 4
# the trump duty ``only_if_winning``: the trumps held cannot win the trick
CANNOT_WIN = 5


# --------------------------------------------------------------------------- winning

def strengths(rank_order: Sequence[Rank], in_pack: Iterable[int]) -> tuple[int, ...]:
    """For each card index: higher is stronger (the weakest rank of ``rank_order`` is 1), 0 for a card not in
    the pack (``in_pack``: the indices of the cards the pack has)."""
    n = len(rank_order)
    place = {rank: n - i for i, rank in enumerate(rank_order)}
    pack = set(in_pack)
    return tuple(place.get(c.rank, 0) if c.index in pack else 0 for c in ALL_CARDS)


def beats(strength: Sequence[int], trump: int, challenger: int, current: int) -> bool:
    """Does card ``challenger``, played after ``current`` (the card now winning), take the trick over?"""
    if challenger // N_RANKS == current // N_RANKS:
        return strength[challenger] > strength[current]
    return challenger // N_RANKS == trump


def above_masks(strength: Sequence[int], trump: int) -> tuple[int, ...]:
    """For each card ``w``: the mask of the cards of the pack that take a trick now won by ``w``."""
    return tuple(sum(1 << c for c in range(N_CARDS) if strength[c] and beats(strength, trump, c, w))
                 for w in range(N_CARDS))


def suit_masks() -> tuple[int, ...]:
    """``suit_mask[s]``: the cards of suit ``s`` as a mask."""
    return tuple(SUIT_MASK << (N_RANKS * s) for s in range(N_SUITS))


def winner(above: Any, trick: Any, n: int) -> int:
    """Position (0 = the leader) of the card winning the first ``n`` cards of ``trick`` (``n`` ≥ 1)."""
    best = 0
    for i in range(1, n):
        if (above[trick[best]] >> trick[i]) & 1:
            best = i
    return best


# --------------------------------------------------------------------------- duties

def encode(duties: Iterable[Duty]) -> tuple[int, ...]:
    """The duties of a ruleset, ``ROW`` integers each (see the module docstring)."""
    out: list[int] = []
    for d in duties:
        out += [DUTY_KINDS[d.name], DUTY_WHENS[d.when], int(d.partner), int(d.only_if_winning)]
    return tuple(out)


def duty_outcome(duties: Any, i: int, held: int, allowed: int, led_mask: int, trump_mask: int, trump_led: bool,
                 beat_mask: int, partner_win: bool) -> tuple[int, int]:
    """What duty ``i`` comes to for a follower holding ``held`` (a mask of distinct cards), of whom the earlier
    duties allowed ``allowed``: ``(outcome, the cards still allowed after it)``.

    ``led_mask``/``trump_mask``: the cards of the suit led and of trump (0: no trump); ``beat_mask``: the cards
    that would take the trick now; ``partner_win``: the player's partner is winning it.
    """
    at = ROW * i
    when = duties[at + WHEN]
    if (when == TRUMP_LED and not trump_led) or (when == PLAIN_LED and trump_led):
        return LAPSED_LEAD, allowed
    if duties[at + PARTNER] == 0 and partner_win:
        return LAPSED_PARTNER, allowed
    kind = duties[at]
    if kind == FOLLOW:
        narrowed = allowed & led_mask
    elif kind == TRUMP:
        if trump_mask == 0 or held & led_mask:
            return INAPPLICABLE, allowed
        narrowed = allowed & trump_mask
        if narrowed and duties[at + ONLY_IF_WINNING] and not narrowed & beat_mask:
            return CANNOT_WIN, allowed
    else:
        narrowed = allowed & beat_mask
    if narrowed == 0:
        return NONE_HELD, allowed
    return NARROWS, narrowed


def legal_given(suit_mask: Any, trump: int, duties: Any, held: int, led: int, beat_mask: int,
                partner_win: bool) -> int:
    """The cards of ``held`` (not empty) a follower may play to a trick led in suit ``led``, given the cards that
    would take it now (``beat_mask``: ``above`` of the winning card): every duty applied in order."""
    led_mask = int(suit_mask[led])
    trump_mask = int(suit_mask[trump]) if trump >= 0 else 0
    trump_led = led == trump
    allowed = held
    for i in range(len(duties) // ROW):
        _, allowed = duty_outcome(duties, i, held, allowed, led_mask, trump_mask, trump_led, beat_mask, partner_win)
    return allowed


def legal_in_trick(above: Any, suit_mask: Any, trump: int, duties: Any, held: int, trick: Any, n: int,
                   partner_win: bool) -> int:
    """The cards of ``held`` the next player of a trick of ``n`` cards so far may play (any of them when leading)."""
    if n == 0 or held == 0:
        return held
    return legal_given(suit_mask, trump, duties, held, trick[0] // N_RANKS, int(above[trick[winner(above, trick, n)]]),
                       partner_win)


def void_shows_no_trump(duties: Sequence[int]) -> bool:
    """Does a player who, void in a plain suit led, plays no trump show that they hold none? Asked of the duties
    themselves: a hand of one trump and one card of a third suit, the trump taking the trick or not, the
    partner winning or not — in every case the duties must demand the trump."""
    masks = suit_masks()
    trump_card, other = 0, 2 * N_RANKS
    held = (1 << trump_card) | (1 << other)
    return all(legal_given(masks, 0, duties, held, 1, beat, partner) == 1 << trump_card
               for beat in (0, 1 << trump_card) for partner in (False, True))
