"""The simulator's card play, compiled: the heuristic player of ``players`` one deal at a time.

Same player, same answers: every card chosen here is the card ``players.play_batch`` chooses
for the same hands (tested in every bundled ruleset). ``FastTables.build(play, rules)`` turns a
``PlayTables`` into the arrays the compiled code reads; ``play_deals`` is the compiled
counterpart of ``play_batch`` with every seat heuristic, ``play_relabelled`` the same on real
hands relabelled as it deals them. Nothing is raised on purpose. The state it keeps and why:
docs/estimate.md, "Inside the estimator".
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import numpy.typing as npt

from ..arrays import IntArray
from ..cards import N_CARDS, N_RANKS, N_SUITS, SUIT_MASK
from ..trickcore import encode_duties, jit, kernel, legal_given, low_bit, suit_masks
from .bury import BuryTables
from .players import SURE_WINNER, ExchangeTables, PlayTables

__all__ = ["FastBury", "FastExchange", "FastTables", "bury_deals", "count_cards", "exchange_deals", "play_deals",
           "play_relabelled", "warm"]

# numba keys its cache on this file alone: the digest of trickcore.py, estimate/players.py, estimate/bury.py
# (compiled in) makes an edit there change this file too, so the machine code is built anew
# (tests/test_compiled_stamp.py).
COMPILED_WITH = "e178d15a69310d17"

F32Array = npt.NDArray[np.float32]
U32Array = npt.NDArray[np.uint32]

# rows of the table T (24 columns): per card, then per seat, then the game's numbers
ABOVE, COUNTER, ORDER, PLACE, CASH, PULL, LOW, FEED, HOLD, WIN, DUMP, HAS_CV, SIDE, META = range(14)
_SCORE_ROWS = {CASH: "cash", PULL: "pull", LOW: "low", FEED: "feed", HOLD: "hold", WIN: "win", DUMP: "dump",
               HAS_CV: "has_cv"}
# columns of T[META]
PLAYERS, NTRICKS, INFERRED, LAST_TRICK = range(4)
# columns of the per-seat ``info`` state: cards held per suit, voids shown, distinct cards held (a mask), the
# same by place (bit ``6 s + i``: the card ``T[ORDER, 6 s + i]``, the suit's strongest first), the voids shown
# (a mask of suits).
# ``packed[seat, s]`` holds the counts of suit ``s``, one byte per card, strongest first (byte ``i`` counts the
# card ``T[ORDER, 6 s + i]``): the cards of a suit stronger than a card are then one masked word.
# ``packed`` and ``info`` have a row more than there are seats, ``P``: every hand together (the cards not yet
# played), so that what ``seat`` cannot see is row ``P`` less row ``seat``.
SUIT_HELD, VOID, HAS, HAS_PLACE, VOIDS = 0, N_SUITS, 2 * N_SUITS, 2 * N_SUITS + 1, 2 * N_SUITS + 2
_SURE = np.float32(SURE_WINNER)


class FastTables(NamedTuple):
    """The compiled player's constants in canonical coordinates (trump = suit 0)."""

    nsides: int
    # T: rows ABOVE … META
    table: IntArray
    # chance that one other player holds none of k unseen cards
    none_of: F32Array
    suit_mask: U32Array
    # ``trickcore.encode_duties`` of the play
    duties: IntArray

    @classmethod
    def build(cls, play: PlayTables) -> FastTables:
        t = np.zeros((META + 1, N_CARDS), dtype=np.int64)
        # ``trickcore.CoreRules.above`` with trump = suit 0
        for w in range(N_CARDS):
            t[ABOVE, w] = sum(1 << c for c in range(N_CARDS) if play.beats[w, c])
        t[COUNTER] = play.counter
        t[ORDER] = play.by_strength
        t[PLACE] = play.from_strength % N_RANKS
        for row, name in _SCORE_ROWS.items():
            t[row] = play.cols[name][:, 0]
        t[SIDE, :play.players] = play.side
        t[META, [PLAYERS, NTRICKS, INFERRED, LAST_TRICK]] = (play.players, play.tricks, play.trump_inferred,
                                                             play.last_trick)
        return cls(play.nsides, t, play.none_of.astype(np.float32), suit_masks(), encode_duties(play.duties))


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
    (``players._hold_chance``, its factors in ``float32`` in the same order).

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
def _lead(t: IntArray, pn: F32Array, packed: IntArray, info: IntArray, seat: int, bidding_side: int) -> int:
    """The heuristic's lead (``players._heuristic_scores`` at position 0): the held card of best score.

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
def _follow(t: IntArray, pn: F32Array, packed: IntArray, info: IntArray, seat: int, position: int,
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
def _deal(t: IntArray, hands: IntArray, order: IntArray, packed: IntArray, info: IntArray) -> None:
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
               lead: int, bidding_side: int, extra: int, points: IntArray, tricks: IntArray) -> None:
    """Play out the deal set up by ``_deal``; add to ``points``/``tricks`` per side (``extra`` more for the
    last trick)."""
    p, ntricks = t[META, PLAYERS], t[META, NTRICKS]
    for n in range(ntricks):
        led, win, win_seat, gained = 0, -1, -1, 0
        for k in range(p):
            seat = lead + k if lead + k < p else lead + k - p
            legal = info[seat, HAS]
            if k > 0:
                partner_win = win_seat != seat and t[SIDE, win_seat] == t[SIDE, seat]
                legal = legal_given(suit_mask, 0, duties, legal, led, t[ABOVE, win], partner_win)
            # one card to choose from
            if legal & (legal - 1) == 0:
                card = low_bit(legal)
            elif k == 0:
                card = _lead(t, pn, packed, info, seat, bidding_side)
            else:
                card = _follow(t, pn, packed, info, seat, k, led, win, win_seat, legal)
            _remove(t, packed, info, seat, card)
            gained += t[COUNTER, card]
            if k == 0:
                led, win, win_seat = card // N_RANKS, card, seat
                continue
            if card // N_RANKS != led:
                info[seat, VOID + led] = 1
                info[seat, VOIDS] |= 1 << led
                if t[META, INFERRED] and card >= N_RANKS:
                    info[seat, VOID] = 1
                    info[seat, VOIDS] |= 1
            if (t[ABOVE, win] >> card) & 1:
                win, win_seat = card, seat
        if n == ntricks - 1:
            gained += t[META, LAST_TRICK] + extra
        points[t[SIDE, win_seat]] += gained
        tricks[t[SIDE, win_seat]] += 1
        lead = win_seat


@jit
def _play_all(t: IntArray, pn: F32Array, suit_mask: U32Array, duties: IntArray,
              hands: IntArray, orders: IntArray, trump: IntArray, leader: IntArray, bidding_side: int,
              extra: IntArray, points: IntArray, tricks: IntArray) -> None:
    p = hands.shape[1]
    packed = np.zeros((p + 1, N_SUITS), dtype=np.int64)
    info = np.zeros((p + 1, VOIDS + 1), dtype=np.int64)
    for g in range(hands.shape[0]):
        _deal(t, hands[g], orders[trump[g]], packed, info)
        _play_deal(t, pn, suit_mask, duties, packed, info, leader[g], bidding_side, extra[g], points[g], tricks[g])


def play_deals(ft: FastTables, hands: IntArray, leader: IntArray, bidding_side: int = 0) -> tuple[IntArray, IntArray]:
    """``players.play_batch`` with every seat heuristic, compiled: ``(points, tricks)``, each ``(B, nsides)``.

    ``hands``: ``(B, players, 24)`` counts in canonical coordinates; ``leader``: the first leader's seat.
    """
    same = np.arange(N_CARDS, dtype=np.int64)[None, :]
    return play_relabelled(ft, hands, same, np.zeros(hands.shape[0], dtype=np.int64), leader, bidding_side)


def play_relabelled(ft: FastTables, hands: IntArray, orders: IntArray, trump: IntArray, leader: IntArray,
                    bidding_side: int = 0, last_bonus: IntArray | None = None) -> tuple[IntArray, IntArray]:
    """``play_deals`` of hands in real coordinates, relabelled as it deals: row ``g`` is played as the canonical
    hands ``hands[g][:, orders[trump[g]]]`` (``orders``: ``players.canonical_order`` of each trump, stacked).
    ``last_bonus`` ``(B,)``: points more for the last trick (``players.play_batch``)."""
    b = hands.shape[0]
    points = np.zeros((b, ft.nsides), dtype=np.int64)
    tricks = np.zeros((b, ft.nsides), dtype=np.int64)
    extra = np.zeros(b, dtype=np.int64) if last_bonus is None else np.ascontiguousarray(last_bonus, dtype=np.int64)
    _play_all(ft.table, ft.none_of, ft.suit_mask, ft.duties, np.ascontiguousarray(hands, dtype=np.int64),
              np.ascontiguousarray(orders, dtype=np.int64), np.ascontiguousarray(trump, dtype=np.int64),
              np.ascontiguousarray(leader, dtype=np.int64), bidding_side, extra, points, tricks)
    return points, tricks


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


# --------------------------------------------------------------------------- the exchange

# rows of FastExchange.card
PASS_BASE, TOP, KEEP_BASE = range(3)


class FastExchange(NamedTuple):
    """``players.ExchangeTables`` as compiled code reads it (real card indices)."""

    # (3, 24): PASS_BASE, TOP (highest rank), KEEP_BASE — the scores' parts not depending on trump
    card: IntArray
    # (4, I, C): per trump, each combination instance as levels: [k] the cards it needs more than k of
    melds: IntArray

    @classmethod
    def build(cls, ex: ExchangeTables) -> FastExchange:
        card = np.zeros((KEEP_BASE + 1, N_CARDS), dtype=np.int64)
        card[PASS_BASE] = 300 * ex.fixed + 10 * ex.strength + ex.counter
        card[TOP] = ex.top
        card[KEEP_BASE] = 200 * ex.top + 20 * ex.counter.clip(0, 1) + ex.strength
        most = max(1, max(inst.shape[0] for inst in ex.instances))
        copies = max(1, max((int(inst.max()) for inst in ex.instances if inst.size), default=1))
        # a padding row needs nothing and marks nothing
        melds = np.zeros((N_SUITS, most, copies), dtype=np.int64)
        bits = 1 << np.arange(N_CARDS, dtype=np.int64)
        for t, inst in enumerate(ex.instances):
            for k in range(copies):
                melds[t, :inst.shape[0], k] = (inst > k).astype(np.int64) @ bits
        return cls(card, melds)


# below every key of _pick
_OUT = 1 << 60
# _pick's key: ``score * _SLOTS`` and the index in the reverse order, ``_SLOTS - 1 - i``
_SLOTS = 64


@kernel
def _pick(score: IntArray, n: int, k: int, sign: int, order: IntArray) -> int:
    """The ``k`` highest of ``sign * score[:n]`` (``n`` < 64), ties to the earlier — a stable sort's first ``k`` —
    in that order into ``order[:k]``; returns them as a mask. Each is the largest key ``score * 64 + 63 - i``
    not yet taken (a comparison without a branch)."""
    taken = 0
    for j in range(k):
        best = -_OUT
        for i in range(n):
            best = max(best, sign * score[i] * _SLOTS + _SLOTS - 1 - i - ((taken >> i) & 1) * _OUT)
        i = _SLOTS - 1 - (best & (_SLOTS - 1))
        order[j] = i
        taken |= 1 << i
    return taken


@kernel
def _suit_lengths(counts: IntArray, have: IntArray) -> None:
    """``have[s]``: the cards of suit ``s`` in ``counts``."""
    for s in range(N_SUITS):
        have[s] = 0
        for i in range(N_RANKS * s, N_RANKS * s + N_RANKS):
            have[s] += counts[i]


@kernel
def _in_meld(melds: IntArray, trump: int, counts: IntArray, have: IntArray) -> int:
    """The cards (a mask) of every combination instance (for ``trump``) held complete in ``counts``."""
    levels = melds.shape[2]
    have[:levels] = 0
    for c in range(N_CARDS):
        for k in range(min(counts[c], levels)):
            have[k] |= 1 << c
    marked = 0
    for i in range(melds.shape[1]):
        complete = True
        for k in range(levels):
            if melds[trump, i, k] & ~have[k]:
                complete = False
                break
        if complete:
            marked |= melds[trump, i, 0]
    return marked


@kernel
def _exchange_one(xc: IntArray, melds: IntArray, trump: int, bidder: IntArray, partner: IntArray, k: int,
                  work: IntArray) -> None:
    """One deal's exchange in place: ``players.choose_pass``, then ``players.choose_return``."""
    h = bidder.shape[0]
    score, full, counts, have, order = work[0], work[1], work[2], work[3], work[4]
    for i in range(h):
        c = partner[i]
        score[i] = xc[PASS_BASE, c] + (1000 if c // N_RANKS == trump else 500 * xc[TOP, c])
    _pick(score, h, k, 1, order)
    # the bidder's cards, then those sent, in the order of the pass
    for i in range(h):
        full[i] = bidder[i]
    for j in range(k):
        full[h + j] = partner[order[j]]
        # sent
        partner[order[j]] = -1
    n = h + k
    counts[:N_CARDS] = 0
    for i in range(n):
        counts[full[i]] += 1
    marked = _in_meld(melds, trump, counts, have)
    # the suit's length (``have`` is free again)
    _suit_lengths(counts, have)
    for i in range(n):
        c = full[i]
        score[i] = (xc[KEEP_BASE, c] + 1000 * (c // N_RANKS == trump) + 400 * ((marked >> c) & 1)
                    + 10 * have[c // N_RANKS])
    back_mask = _pick(score, n, k, -1, order)
    kept, back = 0, 0
    for i in range(n):
        if (back_mask >> i) & 1:
            while partner[back] >= 0:
                back += 1
            partner[back] = full[i]
        else:
            bidder[kept] = full[i]
            kept += 1


@jit
def _exchange_all(xc: IntArray, melds: IntArray, trump: IntArray, bidder: IntArray, partner: IntArray,
                  k: int) -> None:
    h = bidder.shape[1]
    work = np.zeros((5, max(h + k, N_CARDS, melds.shape[2])), dtype=np.int64)
    for g in range(bidder.shape[0]):
        _exchange_one(xc, melds, trump[g], bidder[g], partner[g], k, work)


def exchange_deals(xt: FastExchange, bidder: IntArray, partner: IntArray, trump: IntArray, k: int) -> None:
    """The partner's pass and the bidder's return for every row, in place: ``bidder`` and ``partner``
    ``(B, H)`` card indices end as the same cards as ``players.choose_pass`` and ``choose_return`` leave them
    (in another order)."""
    _exchange_all(xt.card, xt.melds, np.ascontiguousarray(trump, dtype=np.int64), bidder, partner, k)


# --------------------------------------------------------------------------- the bury


class FastBury(NamedTuple):
    """``bury.BuryTables`` as compiled code reads it (real card indices)."""

    # (24,) the keep score's part depending on neither trump nor the hand
    base: IntArray
    # [cards buried, trump weight, meld weight]
    weights: IntArray
    # ``FastExchange.melds`` of the same ruleset
    melds: IntArray

    @classmethod
    def build(cls, tab: BuryTables) -> FastBury:
        weights = np.array([tab.cards, tab.trump_weight, tab.meld_weight], dtype=np.int64)
        return cls(tab.base.astype(np.int64), weights, FastExchange.build(tab.ex).melds)


@kernel
def _bury_one(base: IntArray, weights: IntArray, melds: IntArray, trump: int, full: IntArray, buried: IntArray,
              kept: IntArray, work: IntArray) -> None:
    """One bidder's bury (``bury.choose_bury``): ``full`` sorted by keep score, the lowest into ``buried``."""
    n, k = full.shape[0], weights[0]
    score, counts, have, order = work[0], work[1], work[2], work[3]
    counts[:N_CARDS] = 0
    for i in range(n):
        counts[full[i]] += 1
    marked = _in_meld(melds, trump, counts, have) if weights[2] else 0
    _suit_lengths(counts, have)
    for i in range(n):
        c = full[i]
        score[i] = (base[c] + weights[1] * (c // N_RANKS == trump) + weights[2] * ((marked >> c) & 1)
                    + 10 * have[c // N_RANKS])
    _pick(score, n, n, -1, order)
    for j in range(k):
        buried[j] = full[order[j]]
    for j in range(k, n):
        kept[j - k] = full[order[j]]


@jit
def _bury_all(base: IntArray, weights: IntArray, melds: IntArray, trump: IntArray, full: IntArray,
              buried: IntArray, kept: IntArray) -> None:
    work = np.zeros((4, max(full.shape[1], N_CARDS, melds.shape[2])), dtype=np.int64)
    for g in range(full.shape[0]):
        _bury_one(base, weights, melds, trump[g], full[g], buried[g], kept[g], work)


def bury_deals(fb: FastBury, full: IntArray, trump: IntArray) -> tuple[IntArray, IntArray]:
    """``bury.choose_bury`` compiled (at most 63 cards a hand): (buried, kept), the same cards in the same order."""
    b, n = full.shape
    k = int(fb.weights[0])
    buried = np.zeros((b, k), dtype=np.int64)
    kept = np.zeros((b, n - k), dtype=np.int64)
    _bury_all(fb.base, fb.weights, fb.melds, np.ascontiguousarray(trump, dtype=np.int64),
              np.ascontiguousarray(full, dtype=np.int64), buried, kept)
    return buried, kept


def warm(ft: FastTables, xt: FastExchange, fb: FastBury | None = None) -> None:
    """Load the compiled player, exchange and bury (compiling them on the first run after an install): play no
    deal."""
    none = np.zeros((0, int(ft.table[META, PLAYERS]), N_CARDS), dtype=np.int64)
    play_deals(ft, none, np.zeros(0, dtype=np.int64))
    count_cards(np.zeros((0, 1, 1), dtype=np.int64))
    cards = np.zeros((0, 1), dtype=np.int64)
    exchange_deals(xt, cards, cards.copy(), np.zeros(0, dtype=np.int64), 0)
    if fb is not None:
        bury_deals(fb, np.zeros((0, int(fb.weights[0])), dtype=np.int64), np.zeros(0, dtype=np.int64))
