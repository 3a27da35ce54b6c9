"""The computer's card play, compiled: the heuristic player, for batches of deals and for one seat.

``play_relabelled`` plays whole deals (real card indices relabelled as they are dealt, trump per row)
with the heuristic at every seat; ``play_opening`` plays a batch's first tricks and gives what is left;
``choose_card`` gives one seat's card from what that seat has seen. Every card is chosen among those the
duties allow (``game.kernels.legal_given``, the one definition of the duties, compiled). Nothing is
raised on purpose. The heuristic and the state it keeps: docs/estimate.md, "The players".
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..arrays import F32Array, IntArray, U32Array
from ..cards import N_CARDS, N_RANKS, N_SUITS, SUIT_MASK
from ..game.kernels import jit, kernel, legal_given, low_bit
from .tables import (
    ABOVE,
    CASH,
    COUNTER,
    DUMP,
    FEED,
    HAS_CV,
    HOLD,
    INFERRED,
    LAST_TRICK,
    LOW,
    META,
    NTRICKS,
    ORDER,
    PLACE,
    PLAYERS,
    PULL,
    SIDE,
    SURE_WINNER,
    WIN,
    PlayerTables,
)

__all__ = ["HAS", "VOID", "VOIDS", "Opening", "choose_follow", "choose_lead", "count_cards", "deal_state",
           "hands_left", "play_opening", "play_relabelled", "play_tricks", "warm_play"]

# columns of the per-seat ``info`` state: cards held per suit, voids shown, distinct cards held (a mask), the
# same by place (bit ``6 s + i``: the card ``T[ORDER, 6 s + i]``, the suit's strongest first), the voids shown
# (a mask of suits).
# ``packed[seat, s]`` holds the counts of suit ``s``, one byte per card, strongest first (byte ``i`` counts the
# card ``T[ORDER, 6 s + i]``): the cards of a suit stronger than a card are then one masked word.
# ``packed`` and ``info`` have a row more than there are seats, ``P``: every hand together (the cards not yet
# played), so that what ``seat`` cannot see is row ``P`` less row ``seat``.
SUIT_HELD, VOID, HAS, HAS_PLACE, VOIDS = 0, N_SUITS, 2 * N_SUITS, 2 * N_SUITS + 1, 2 * N_SUITS + 2
_SURE = np.float32(SURE_WINNER)


# --------------------------------------------------------------------------- what a player knows

@kernel
def _stronger(t: IntArray, packed: IntArray, seat: int, c: int) -> int:
    """How many cards unseen by ``seat`` (held by the others) of card ``c``'s suit are stronger than it."""
    s = c // N_RANKS
    # bytewise: every hand holds at least the seat's
    unseen = packed[t[META, PLAYERS], s] - packed[seat, s]
    return _byte_sum(unseen & ((1 << (8 * t[PLACE, c])) - 1))


@kernel
def _byte_sum(x: int) -> int:
    """The sum of the six bytes of ``x`` (each sum below 256: no carry crosses a byte)."""
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0xFF


@kernel
def _chance(t: IntArray, pn: F32Array, info: IntArray, seat: int, position: int, led: int, s: int,
            stronger: int) -> np.float32:
    """The chance that a card of suit ``s`` with ``stronger`` unseen cards above it, played by ``seat`` at
    ``position`` to a trick led in suit ``led``, takes the trick if it were winning now
    (its factors in ``float32``).

    One factor per opponent still to play: a shown void is certain; else they are void in a suit of
    ``n`` unseen cards with chance ``pn[n]``. Only the comparison with ``SURE_WINNER`` is used: it returns
    as soon as the product falls below (each factor is at most 1, so it cannot rise again). For the
    same reason the chance never rises with ``stronger``: a card that is not sure has no sure card below
    it in its suit.
    """
    one, zero = np.float32(1.0), np.float32(0.0)
    p = t[META, PLAYERS]
    none_stronger = pn[stronger]
    x = one
    for j in range(position + 1, p):
        r = seat + j - position
        if r >= p:
            r -= p
        if t[SIDE, r] == t[SIDE, seat]:
            continue
        shown = info[r, VOID + s] != 0
        safe = one if shown else none_stronger
        if s > 0:
            void = one if shown else pn[info[p, SUIT_HELD + s] - info[seat, SUIT_HELD + s]]
            has_trump = zero if info[r, VOID] else one - pn[info[p, SUIT_HELD] - info[seat, SUIT_HELD]]
            x *= safe * (one - void * has_trump)
        elif position == 0:
            x *= safe
        else:
            led_void = one
            if led != 0:
                led_void = one if info[r, VOID + led] else pn[info[p, SUIT_HELD + led] - info[seat, SUIT_HELD + led]]
            x *= one - (one - safe) * led_void
        if x < _SURE:
            break
    return x


# --------------------------------------------------------------------------- the heuristic's choice

@kernel
def _ruffs(t: IntArray, info: IntArray, seat: int) -> tuple[int, int]:
    """Suits (bitmasks) in which an opponent, or the partner, has shown a void and no void in trump."""
    opp_ruff = partner_ruff = 0
    # without a branch: each seat's voids, none when void in trump too
    for p in range(t[META, PLAYERS]):
        voids = info[p, VOIDS] * (1 - (info[p, VOIDS] & 1))
        opponent = int(t[SIDE, p] != t[SIDE, seat])
        opp_ruff |= voids * opponent
        partner_ruff |= voids * (1 - opponent) * int(p != seat)
    return opp_ruff, partner_ruff


@kernel
def _low(t: IntArray, c: int, opp_ruff: int, partner_ruff: int, guarded: bool) -> int:
    """The score of leading ``c`` low: not into a shown ruff with a counter, into the partner's, keep guards."""
    s = c // N_RANKS
    cv = t[HAS_CV, c] > 0
    return int(t[LOW, c] - 40 * ((opp_ruff >> s) & 1 and cv) + 60 * ((partner_ruff >> s) & 1 and not cv)
               - 40 * guarded)


@kernel
def choose_lead(t: IntArray, pn: F32Array, packed: IntArray, info: IntArray, seat: int, bidding_side: int) -> int:
    """The heuristic's lead: the held card of best score.

    Suit by suit, the cards held strongest first (by place), the unseen cards above each one a masked
    word: the first card nothing unseen beats tells that the suit is guarded; a hold chance is computed
    only when cashing the card could beat the best score so far, and not below a card of the suit that
    is not sure.
    """
    every = t[META, PLAYERS]
    opp_ruff, partner_ruff = _ruffs(t, info, seat)
    trump_out = info[every, SUIT_HELD] - info[seat, SUIT_HELD]
    pulls = t[SIDE, seat] == bidding_side and trump_out > 0 and info[seat, SUIT_HELD] >= 2 * trump_out
    best = _NONE
    places = info[seat, HAS_PLACE]
    for s in range(N_SUITS):
        guarded, may_cash = False, s > 0
        unseen = packed[every, s] - packed[seat, s]
        # the places of the suit's cards held, not yet scored
        rest = (places >> (N_RANKS * s)) & SUIT_MASK
        while rest:
            i = low_bit(rest)
            rest &= rest - 1
            c = t[ORDER, s * N_RANKS + i]
            ahead = _byte_sum(unseen & ((1 << (8 * i)) - 1))
            if ahead == 0:
                guarded = True
            score = _low(t, c, opp_ruff, partner_ruff, guarded)
            if s == 0 and pulls and ahead == 0:
                score = t[PULL, c]
            elif may_cash and _key(max(score, t[CASH, c]), c) > best:
                may_cash = bool(_chance(t, pn, info, seat, 0, 0, s, ahead) >= _SURE)
                if may_cash:
                    score = t[CASH, c]
            best = max(best, _key(score, c))
    return 31 - (best & 31)


# below the key of every card
_NONE = -(1 << 40)


@kernel
def _key(score: int, c: int) -> int:
    """Card ``c`` of ``score`` as one number: the higher score first, on a tie the lower card (``c`` < 24);
    the best card is the largest key (``31 - key & 31``), found without a branch."""
    return score * 32 + 31 - c


@kernel
def choose_follow(t: IntArray, pn: F32Array, packed: IntArray, info: IntArray, seat: int, position: int,
            led: int, win: int, win_seat: int, legal: int) -> int:
    """The heuristic's play to a trick led: feed a partner's sure card, take it surely or cheaply, else dump."""
    last = position == t[META, PLAYERS] - 1
    partner_safe = t[SIDE, win_seat] == t[SIDE, seat]
    if partner_safe and not last:
        partner_safe = _chance(t, pn, info, seat, position, led, win // N_RANKS,
                               _stronger(t, packed, seat, win)) >= _SURE
    wins = t[ABOVE, win]
    best = _NONE
    rest = legal
    while rest:
        c = low_bit(rest)
        rest &= rest - 1
        if partner_safe:
            score = t[FEED, c]
        elif (wins >> c) & 1:
            score = t[HOLD, c]
            if last or score == t[WIN, c]:
                pass
            elif _key(max(score, t[WIN, c]), c) < best:
                # whether it holds or not, it cannot take the place of the best card
                continue
            else:
                if _chance(t, pn, info, seat, position, led, c // N_RANKS, _stronger(t, packed, seat, c)) < _SURE:
                    score = t[WIN, c]
        else:
            score = t[DUMP, c]
        best = max(best, _key(score, c))
    return 31 - (best & 31)


# --------------------------------------------------------------------------- a deal

@kernel
def deal_state(t: IntArray, hands: IntArray, order: IntArray, packed: IntArray, info: IntArray) -> None:
    """Start a deal from ``hands`` ``(P, 24)`` counts, canonical card ``c`` being ``hands[:, order[c]]``: every
    seat's state, and row ``P`` for all hands."""
    p = hands.shape[0]
    info[:] = 0
    packed[p] = 0
    for q in range(p):
        has = by_place = 0
        for s in range(N_SUITS):
            word = 0
            # by place
            for i in range(N_RANKS * s, N_RANKS * s + N_RANKS):
                c = t[ORDER, i]
                n = hands[q, order[c]]
                word += n << (8 * (i - N_RANKS * s))
                has |= (n > 0) << c
                by_place |= (n > 0) << i
            packed[q, s] = word
            # bytewise: no count reaches 256
            packed[p, s] += word
            info[q, SUIT_HELD + s] = _byte_sum(word)
        info[q, HAS], info[q, HAS_PLACE] = has, by_place
    for s in range(N_SUITS):
        info[p, SUIT_HELD + s] = _byte_sum(packed[p, s])


@kernel
def _remove(t: IntArray, packed: IntArray, info: IntArray, seat: int, card: int) -> None:
    """``seat`` plays ``card``: out of its hand and of all hands."""
    p, s, shift = packed.shape[0] - 1, card // N_RANKS, 8 * t[PLACE, card]
    packed[seat, s] -= 1 << shift
    packed[p, s] -= 1 << shift
    info[seat, SUIT_HELD + s] -= 1
    info[p, SUIT_HELD + s] -= 1
    # its last copy: out of the masks too (no branch)
    gone = int((packed[seat, s] >> shift) & 0xFF == 0)
    info[seat, HAS] &= ~(gone << card)
    info[seat, HAS_PLACE] &= ~(gone << (N_RANKS * s + t[PLACE, card]))


@kernel
def _play_deal(t: IntArray, pn: F32Array, suit_mask: U32Array, duties: IntArray, packed: IntArray, info: IntArray,
               lead: int, bidding_side: int, extra: int, count: int, points: IntArray, tricks: IntArray) -> int:
    """Play the first ``count`` tricks of the deal set up by ``deal_state``; add to ``points``/``tricks`` per side
    (``extra`` more for the deal's last trick). Returns the seat to lead next."""
    return play_tricks(t, pn, suit_mask, duties, packed, info, lead, _NO_TRICK, 0, 0, count, bidding_side, extra,
                       points, tricks)


# no card on the trick yet
_NO_TRICK = np.zeros(0, dtype=np.int64)


# long: the play loop keeps the trick's state (led suit, winning card and seat, counters) as locals; each trick
# updates what every seat has shown
@kernel
def play_tricks(t: IntArray, pn: F32Array, suit_mask: U32Array, duties: IntArray, packed: IntArray, info: IntArray,
                lead: int, trick: IntArray, n_on: int, first: int, count: int, bidding_side: int, extra: int,
                points: IntArray, tricks: IntArray) -> int:
    """Play ``count`` tricks from trick ``first`` (from 0) of the deal set up by ``deal_state``, the first of them under
    way with its first ``n_on`` cards on the table (``trick``, canonical, led by ``lead``); add to
    ``points``/``tricks`` per side (``extra`` more for the deal's last trick). Returns the seat to lead next."""
    p, ntricks = t[META, PLAYERS], t[META, NTRICKS]
    for n in range(first, first + count):
        led, win, win_seat, gained = 0, -1, -1, 0
        start = n_on if n == first else 0
        for k in range(p):
            seat = lead + k if lead + k < p else lead + k - p
            if k < start:
                card = trick[k]
            else:
                legal = info[seat, HAS]
                if k > 0:
                    partner_win = win_seat != seat and t[SIDE, win_seat] == t[SIDE, seat]
                    legal = legal_given(suit_mask, 0, duties, legal, led, t[ABOVE, win], partner_win)
                # one card to choose from
                if legal & (legal - 1) == 0:
                    card = low_bit(legal)
                elif k == 0:
                    card = choose_lead(t, pn, packed, info, seat, bidding_side)
                else:
                    card = choose_follow(t, pn, packed, info, seat, k, led, win, win_seat, legal)
                _remove(t, packed, info, seat, card)
            gained += t[COUNTER, card]
            if k == 0:
                led, win, win_seat = card // N_RANKS, card, seat
                continue
            if card // N_RANKS != led:
                _shows_void(t, info, seat, led, card)
            if (t[ABOVE, win] >> card) & 1:
                win, win_seat = card, seat
        if n == ntricks - 1:
            gained += t[META, LAST_TRICK] + extra
        points[t[SIDE, win_seat]] += gained
        tricks[t[SIDE, win_seat]] += 1
        lead = win_seat
    return lead


@kernel
def _shows_void(t: IntArray, info: IntArray, seat: int, led: int, card: int) -> None:
    """``seat`` played ``card`` to a trick led in another suit: void in ``led`` — and in trump too, where the
    duties say so, when ``card`` is no trump."""
    info[seat, VOID + led] = 1
    info[seat, VOIDS] |= 1 << led
    if t[META, INFERRED] and card >= N_RANKS:
        info[seat, VOID] = 1
        info[seat, VOIDS] |= 1


@kernel
def hands_left(t: IntArray, packed: IntArray, order: IntArray, out: IntArray) -> None:
    """Every seat's cards still held, as counts in the coordinates ``deal_state`` read them from (``order``)."""
    for q in range(out.shape[0]):
        for s in range(N_SUITS):
            word = packed[q, s]
            for i in range(N_RANKS):
                out[q, order[t[ORDER, N_RANKS * s + i]]] = (word >> (8 * i)) & 0xFF


@jit
def _play_all(t: IntArray, pn: F32Array, suit_mask: U32Array, duties: IntArray, hands: IntArray, orders: IntArray,
              trump: IntArray, leader: IntArray, bidding_side: int, extra: IntArray, count: int, points: IntArray,
              tricks: IntArray, left: IntArray) -> None:
    """``count`` tricks of every deal; the hands left into ``left`` (when it has a row per deal) and the next
    leader into ``leader``."""
    p = hands.shape[1]
    packed = np.zeros((p + 1, N_SUITS), dtype=np.int64)
    info = np.zeros((p + 1, VOIDS + 1), dtype=np.int64)
    for g in range(hands.shape[0]):
        deal_state(t, hands[g], orders[trump[g]], packed, info)
        leader[g] = _play_deal(t, pn, suit_mask, duties, packed, info, leader[g], bidding_side, extra[g], count,
                               points[g], tricks[g])
        if left.shape[0]:
            hands_left(t, packed, orders[trump[g]], left[g])


def _batch(pt: PlayerTables, hands: IntArray, orders: IntArray, trump: IntArray, leader: IntArray,
           bidding_side: int, last_bonus: IntArray | None, count: int,
           keep: bool) -> tuple[IntArray, IntArray, IntArray, IntArray]:
    b = hands.shape[0]
    points = np.zeros((b, pt.nsides), dtype=np.int64)
    tricks = np.zeros((b, pt.nsides), dtype=np.int64)
    extra = np.zeros(b, dtype=np.int64) if last_bonus is None else np.ascontiguousarray(last_bonus, dtype=np.int64)
    lead = np.array(leader, dtype=np.int64)
    left = np.zeros(hands.shape if keep else (0, 1, 1), dtype=np.int64)
    _play_all(pt.table, pt.none_of, pt.suit_mask, pt.duties, np.ascontiguousarray(hands, dtype=np.int64),
              np.ascontiguousarray(orders, dtype=np.int64), np.ascontiguousarray(trump, dtype=np.int64), lead,
              bidding_side, extra, count, points, tricks, left)
    return points, tricks, lead, left


def play_relabelled(pt: PlayerTables, hands: IntArray, orders: IntArray, trump: IntArray, leader: IntArray,
                    bidding_side: int = 0, last_bonus: IntArray | None = None) -> tuple[IntArray, IntArray]:
    """Every trick of ``B`` deals, the heuristic at every seat: ``(points, tricks)`` per side, each ``(B, nsides)``.

    ``hands``: ``(B, players, 24)`` counts in real coordinates, row ``g`` played as the canonical hands
    ``hands[g][:, orders[trump[g]]]`` (``orders``: ``tables.canonical_order`` of each trump, stacked);
    ``leader``: the first leader's seat; ``bidding_side``: the side of seat 0 (the bidder). Points are counters
    won plus the last-trick bonus (and ``last_bonus`` ``(B,)`` more for the last trick's winner).
    """
    points, tricks, _, _ = _batch(pt, hands, orders, trump, leader, bidding_side, last_bonus,
                                  int(pt.table[META, NTRICKS]), False)
    return points, tricks


@dataclass
class Opening:
    """A batch after its first tricks (``play_opening``): what is left and what each side took so far."""

    # (B, players, 24) counts still held, in the coordinates given
    hands: IntArray
    # (B,) the seat leading the next trick
    leader: IntArray
    # (B, nsides) counters won so far (the last-trick bonus once every trick is played)
    points: IntArray
    # (B, nsides) tricks won so far
    tricks: IntArray


def play_opening(pt: PlayerTables, hands: IntArray, orders: IntArray, trump: IntArray, leader: IntArray,
                 count: int, *, bidding_side: int = 0) -> Opening:
    """The first ``count`` tricks of ``B`` deals by the heuristic at every seat, exactly as ``play_relabelled``
    plays them (same arguments). ``ValueError`` if a deal has fewer than ``count`` tricks."""
    if not 0 <= count <= int(pt.table[META, NTRICKS]):
        raise ValueError(f"{count} tricks: a deal has {int(pt.table[META, NTRICKS])}")
    points, tricks, lead, left = _batch(pt, hands, orders, trump, leader, bidding_side, None, count, True)
    return Opening(left, lead, points, tricks)


@jit
def count_cards(cards: IntArray) -> IntArray:
    """``(B, P, H)`` card indices as ``(B, P, 24)`` counts."""
    b, p, h = cards.shape
    counts = np.zeros((b, p, N_CARDS), dtype=np.int64)
    for g in range(b):
        for q in range(p):
            for i in range(h):
                counts[g, q, cards[g, q, i]] += 1
    return counts


def warm_play(pt: PlayerTables) -> None:
    """Load the compiled card play (compiling it on the first run after an install): play no deal."""
    p = int(pt.table[META, PLAYERS])
    none = np.zeros((0, p, N_CARDS), dtype=np.int64)
    same = np.arange(N_CARDS, dtype=np.int64)[None, :]
    _batch(pt, none, same, np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64), 0, None, 0, True)
    count_cards(np.zeros((0, 1, 1), dtype=np.int64))
