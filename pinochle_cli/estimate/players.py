"""Batched play for the simulator: the exchange, legal plays, trick winners and card players.

Everything works on many deals at once with numpy (a batch of ``B`` games is a ``(B, players,
24)`` array of counts, trump relabelled as suit 0), from the ruleset only: strength, counters,
duties (the semantics of ``tricks.narrow``) and sides. ``play_batch`` plays a batch with the
``heuristic``, ``greedy`` or ``random`` player; ``choose_pass`` and ``choose_return`` make the
exchange. This is the reference engine the compiled one (``compiled``) matches card for card.
Nothing is raised on purpose. The representation and the players: docs/estimate.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..arrays import BoolArray, IntArray
from ..cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, Rank, Suit
from ..ruleset import Duty, Ruleset

__all__ = [
    "POLICIES", "SURE_WINNER", "ExchangeTables", "PlayTables", "PlayedTricks", "canonical_order", "choose_batch",
    "choose_pass", "choose_return",
    "legal_mask_batch", "meld_cards", "play_batch", "play_opening", "winner_batch",
]

POLICIES = ("heuristic", "greedy", "random")
_NEG = -(10 ** 6)


def canonical_order(trump: int) -> IntArray:
    """For each canonical card index, the real card index: trump becomes suit 0, the others follow in order."""
    order = [trump] + [s for s in range(N_SUITS) if s != trump]
    return np.array([order[c // N_RANKS] * N_RANKS + c % N_RANKS for c in range(N_CARDS)], dtype=np.int64)


def _power(rules: Ruleset) -> IntArray:
    """Higher is stronger; 0 for a rank not in the deck."""
    n = len(rules.rank_order)
    pos = {rank: i for i, rank in enumerate(rules.rank_order)}
    return np.array([n - pos[c.rank] if c.rank in pos else 0 for c in ALL_CARDS], dtype=np.int64)


@dataclass(frozen=True)
class PlayTables:
    """Constants of the play for one ruleset, in canonical coordinates (trump is suit 0).

    Per-card arrays have shape ``(24,)``; the ``*_c`` ones are the same as ``(24, 1)`` columns,
    because the engine keeps a batch as ``(24, B)`` arrays (cards down, games across): then a
    reduction over the cards is an element-wise operation across games, which numpy does fast.
    """

    players: int
    # (P,) side of each seat
    side: IntArray
    nsides: int
    # (24,)
    suit: IntArray
    # (24,) higher is stronger, 0 = not in the deck
    strength: IntArray
    # (24,) counter points
    counter: IntArray
    # (24,) copies of each card in the deck (real coordinates: what is dealt)
    full: IntArray
    # (24,)
    is_trump: BoolArray
    # (24, 24): beats[w, c] — c played after w (now winning) takes the trick
    beats: BoolArray
    duties: tuple[Duty, ...]
    last_trick: int
    tricks: int
    # a player void in the led suit who plays no trump is void in trump too
    trump_inferred: bool
    # (24,) the cards suit by suit, strongest first
    by_strength: IntArray
    # (24,) its inverse permutation
    from_strength: IntArray
    # none_of[k]: chance that one other player holds none of k unseen cards
    none_of: npt.NDArray[np.float32]
    # (24, 1) columns and score constants for the engine
    cols: dict[str, npt.NDArray[Any]]

    @classmethod
    def build(cls, rules: Ruleset) -> PlayTables:
        suit = np.arange(N_CARDS) // N_RANKS
        strength = _power(rules)
        # by rank: in canonical coordinates a suit of the pack may sit at any place (a pack of fewer suits)
        in_deck = np.array([c.rank in rules.deck.ranks for c in ALL_CARDS])
        strength = np.where(in_deck, strength, 0)
        counter = np.array([rules.counter_value(c) if c.rank in rules.deck.ranks else 0 for c in ALL_CARDS],
                           dtype=np.int64)
        full = np.array([rules.deck.copies if c in rules.deck else 0 for c in ALL_CARDS], dtype=np.int64)
        is_trump = suit == 0
        same = suit[:, None] == suit[None, :]
        beats = (same & (strength[None, :] > strength[:, None])) | (is_trump[None, :] & ~is_trump[:, None])
        beats &= in_deck[None, :] & in_deck[:, None]
        # the sides of a deal the bidder (seat 0) leads: the partnerships, or the bidder alone against the others
        side = np.array([rules.deal_side_of(s, 0) for s in range(rules.players)], dtype=np.int64)
        inferred = any(d.name == "trump" and d.when == "always" and d.partner and not d.only_if_winning
                       for d in rules.play.duties)
        # scores: counters valued against rank, trump kept back
        # 0‥10 whatever the units
        cv = np.minimum(counter, 10) * 10 // max(1, int(counter.max()))
        st, tr = strength, is_trump.astype(np.int64)
        has_cv = cv > 0

        def col(a: npt.NDArray[Any], dtype: Any = np.int32) -> npt.NDArray[Any]:
            return np.ascontiguousarray(np.asarray(a).astype(dtype)[:, None])

        cols = {
            "suit": col(suit, np.int8), "strength": col(strength, np.int8), "trump": col(is_trump, np.bool_),
            "full": col(full, np.int8), "has_cv": col(has_cv, np.bool_), "card": col(np.arange(N_CARDS), np.int8),
            "tiebreak": col(31 - np.arange(N_CARDS)),
            # leading
            "cash": col(300 + 10 * cv + st), "pull": col(250 + st), "low": col(100 - 10 * cv - st),
            # following
            "feed": col(10 * cv - st - 50 * tr), "hold": col(200 + 10 * cv * (1 - tr) - 2 * st - 20 * tr),
            "win": col(100 - st - 20 * tr - 5 * cv),
            "dump": col(-10 * cv - st - 30 * tr),
            # the greedy player
            "high": col(10 * st + 60 * tr + cv),
        }
        # suit by suit, strongest first
        by_strength = np.argsort(suit * 100 - strength, kind="stable")
        from_strength = np.argsort(by_strength)
        share = 1 / max(1, rules.players - 1)
        none_of = ((1 - share) ** np.arange(int(full.sum()) + 1)).astype(np.float32)
        return cls(rules.players, side, len(rules.deal_sides(0)), suit, strength, counter, full, is_trump, beats,
                   rules.play.duties, rules.last_trick, rules.tricks_per_deal, inferred, by_strength,
                   from_strength, none_of, cols)


# --------------------------------------------------------------------------- legality and winners

def _legal_t(tab: PlayTables, has: BoolArray, led: IntArray, win: IntArray,
             partner_win: BoolArray) -> tuple[BoolArray, BoolArray]:
    """Legal cards ``(24, B)`` and the cards that would win the trick now ``(24, B)``."""
    c = tab.cols
    led_cards = c["suit"] == led[None, :]
    holds_led = (has & led_cards).any(axis=0)
    win_suit = tab.suit[win][None, :]
    beats_now = ((c["suit"] == win_suit) & (c["strength"] > tab.strength[win][None, :])) | (
        c["trump"] & ~tab.is_trump[win][None, :])
    allowed = has
    trump_led = led == 0
    for duty in tab.duties:
        app: BoolArray | None = None
        if duty.when == "trump-led":
            app = trump_led
        elif duty.when == "plain-led":
            app = ~trump_led
        if not duty.partner:
            app = ~partner_win if app is None else app & ~partner_win
        if duty.name == "follow":
            narrowed = allowed & led_cards
        elif duty.name == "trump":
            app = ~holds_led if app is None else app & ~holds_led
            narrowed = allowed & c["trump"]
            if duty.only_if_winning:
                app &= (narrowed & beats_now).any(axis=0)
        else:
            narrowed = allowed & beats_now
        ok = narrowed.any(axis=0)
        if app is not None:
            ok &= app
        allowed = allowed & (narrowed | ~ok[None, :])
    return allowed, beats_now


def legal_mask_batch(tab: PlayTables, has: BoolArray, led: IntArray, win: IntArray,
                     partner_win: BoolArray) -> BoolArray:
    """The cards each follower may play, as a ``(B, 24)`` mask (canonical coordinates).

    ``has``: ``(B, 24)`` cards held; ``led``: suit led; ``win``: card now winning;
    ``partner_win``: the player's partner is winning. Each duty narrows the allowed cards when
    it applies and the narrowing leaves something, exactly as ``tricks.narrow``.
    """
    allowed, _ = _legal_t(tab, np.ascontiguousarray(has.T), np.asarray(led), np.asarray(win), np.asarray(partner_win))
    return np.ascontiguousarray(allowed.T)


def winner_batch(tab: PlayTables, trick: IntArray) -> IntArray:
    """Position (0 = leader) of the winning card of each row of ``trick`` ``(B, k)`` (canonical indices)."""
    best = np.zeros(trick.shape[0], dtype=np.int64)
    win = trick[:, 0].copy()
    for i in range(1, trick.shape[1]):
        b = tab.beats[win, trick[:, i]]
        best = np.where(b, i, best)
        win = np.where(b, trick[:, i], win)
    return best


# --------------------------------------------------------------------------- the card players

@dataclass
class _View:
    """What the player to move sees, for a batch of games (cards down, games across)."""

    # (24,B) counts held
    hand: npt.NDArray[np.int8]
    # (24,B)
    legal: BoolArray
    # (24,B) cards that would win the trick now (followers)
    wins: BoolArray | None
    # (24,B) cards gone
    played: npt.NDArray[np.int8]
    # (P,4,B) voids shown
    void: BoolArray
    # (B,)
    seat: IntArray
    # 0 = leader
    position: int
    led: IntArray | None
    win: IntArray | None
    win_seat: IntArray | None
    bidding_side: int
    # (24,B) the cards dealt to the players (None: the whole pack; a widow's buried cards are out of play)
    in_play: npt.NDArray[np.int8] | None = None


def _sel(flag: BoolArray) -> npt.NDArray[np.int32]:
    return flag.astype(np.int32)


# a card that holds the trick at least this often (``_hold_chance``) counts as a sure winner
SURE_WINNER = 0.8


def _stronger(tab: PlayTables, unseen: npt.NDArray[np.int8]) -> npt.NDArray[np.int8]:
    """``(24, B)``: how many unseen cards of each card's suit are stronger than it."""
    b = unseen.shape[1]
    # each suit strongest first
    ranked = unseen[tab.by_strength].reshape(N_SUITS, N_RANKS, b)
    above = np.empty_like(ranked)
    above[:, 0] = 0
    for i in range(1, N_RANKS):
        np.add(above[:, i - 1], ranked[:, i - 1], out=above[:, i])
    out: npt.NDArray[np.int8] = above.reshape(N_CARDS, b)[tab.from_strength]
    return out


def _hold_chance(tab: PlayTables, v: _View, unseen: npt.NDArray[np.int8],
                 stronger: npt.NDArray[np.int8]) -> npt.NDArray[np.float32]:
    """For each card ``(24, B)``: the chance that it takes the trick if it were winning now.

    Only the opponents still to play this trick can take it. Voids shown are certain; beyond
    them, each unseen card is with a given other player with chance ``1 / (players - 1)``, so a
    player holds none of ``k`` unseen cards with chance ``none_of[k]``. An opponent takes a
    plain card by holding a stronger one of its suit, or by being void in it and holding trump;
    a trump by holding a stronger trump (and, on a plain lead, being void in the suit led).
    ``stronger``: ``_stronger(tab, unseen)``.
    """
    b = unseen.shape[1]
    ar = np.arange(b)
    pn = tab.none_of
    suits = (N_SUITS, N_RANKS, b)
    # (4,1,B) a player holds none of the suit
    none_in_suit = pn[unseen.reshape(suits).sum(axis=1)][:, None, :]
    # a player holds no stronger card of the suit
    no_stronger = pn[stronger].reshape(suits)
    my_side = tab.side[v.seat]
    chance = np.ones(suits, dtype=np.float32)
    for j in range(v.position + 1, tab.players):
        r = (v.seat + j - v.position) % tab.players
        # (B,)
        opp = tab.side[r] != my_side
        if not opp.any():
            continue
        # (4,1,B) voids shown by that player
        void_r = v.void[r, :, ar].T[:, None, :]
        # (4,1,B)
        pvoid = np.where(void_r, np.float32(1), none_in_suit)
        # (4,6,B) no stronger card of the suit
        safe = np.where(void_r, np.float32(1), no_stronger)
        # (B,)
        has_trump = (1 - none_in_suit[0, 0]) * ~void_r[0, 0]
        # not overtaken, and not ruffed
        plain = safe[1:] * (1 - pvoid[1:] * has_trump)
        # leading: a trump is taken only by a stronger trump
        if v.led is None or v.position == 0:
            trump = safe[0]
        # on a plain lead, only by a player void in the suit led
        else:
            on_plain = v.led != 0
            led_void = np.where(on_plain, pvoid[v.led, 0, ar], np.float32(1))
            trump = 1 - (1 - safe[0]) * led_void
        if opp.all():
            chance[0] *= trump
            chance[1:] *= plain
        else:
            chance[0] *= np.where(opp, trump, np.float32(1))
            chance[1:] *= np.where(opp, plain, np.float32(1))
    return chance.reshape(N_CARDS, b)


def _heuristic_scores(tab: PlayTables, v: _View) -> npt.NDArray[np.int32]:
    c = tab.cols
    b = v.hand.shape[1]
    my_side = tab.side[v.seat]
    last = v.position == tab.players - 1
    if not last:
        unseen = (c["full"] if v.in_play is None else v.in_play) - v.played - v.hand
        stronger = _stronger(tab, unseen)
        chance = _hold_chance(tab, v, unseen, stronger)
    if v.position == 0:
        # void in a suit and not known void in trump
        ruff = v.void & ~v.void[:, :1, :]
        opp_ruff = np.zeros((N_SUITS, b), dtype=bool)
        partner_ruff = np.zeros((N_SUITS, b), dtype=bool)
        for p in range(tab.players):
            opp_ruff |= ruff[p] & (tab.side[p] != my_side)[None, :]
            partner_ruff |= ruff[p] & ((tab.side[p] == my_side) & (v.seat != p))[None, :]
        ruffed = opp_ruff[tab.suit]
        cash = (chance >= SURE_WINNER) & ~c["trump"]
        trump_out = unseen[:N_RANKS].sum(axis=0)
        mine = v.hand[:N_RANKS].sum(axis=0)
        top = stronger[:N_RANKS] == 0
        pull = top & c["trump"][:N_RANKS] & (
            (my_side == v.bidding_side) & (trump_out > 0) & (mine >= 2 * trump_out))[None, :]
        # keep the top card's guards: a suit (trump too) in which the leader holds a card nothing unseen beats
        guarded = ((stronger == 0) & (v.hand > 0)).reshape(N_SUITS, N_RANKS, b).any(axis=1)[tab.suit]
        low = (c["low"] - 40 * _sel(ruffed & c["has_cv"]) + 60 * _sel(partner_ruff[tab.suit] & ~c["has_cv"])
               - 40 * _sel(guarded))
        score: npt.NDArray[np.int32] = low + (c["cash"] - low) * _sel(cash)
        score[:N_RANKS] += (c["pull"][:N_RANKS] - score[:N_RANKS]) * _sel(pull)
        return score
    assert v.led is not None and v.win is not None and v.win_seat is not None and v.wins is not None
    wins = v.wins
    partner_wins = tab.side[v.win_seat] == my_side
    if last:
        holds = wins
        partner_safe = partner_wins
    else:
        holds = wins & (chance >= SURE_WINNER)
        partner_safe = partner_wins & (chance[v.win, np.arange(b)] >= SURE_WINNER)
    take = c["dump"] + (c["win"] - c["dump"]) * _sel(wins) + (c["hold"] - c["win"]) * _sel(holds)
    out: npt.NDArray[np.int32] = take + (c["feed"] - take) * _sel(partner_safe)[None, :]
    return out


def _greedy_scores(tab: PlayTables, v: _View) -> npt.NDArray[np.int32]:
    high = tab.cols["high"]
    if v.position == 0:
        return np.broadcast_to(high, v.legal.shape).astype(np.int32)
    assert v.wins is not None
    out: npt.NDArray[np.int32] = -high + (1000 + 2 * high) * _sel(v.wins)
    return out


def _scores(tab: PlayTables, policy: str, v: _View, rng: np.random.Generator | None) -> npt.NDArray[np.int32]:
    if policy == "heuristic":
        return _heuristic_scores(tab, v)
    if policy == "greedy":
        return _greedy_scores(tab, v)
    assert rng is not None, "the random player needs a generator"
    return rng.integers(0, 1000, v.legal.shape, dtype=np.int32)


def choose_batch(tab: PlayTables, policy: str, hand: IntArray, played: IntArray, void: BoolArray, seat: IntArray,
                 trick: IntArray, leader: IntArray, *, bidding_side: int = 0,
                 rng: np.random.Generator | None = None) -> IntArray:
    """One play of ``policy`` for each of ``B`` games: the canonical card it picks, ``(B,)``.

    ``hand``: ``(B, 24)`` counts held by the player to move (``seat``); ``played``: ``(B, 24)``
    cards gone in earlier tricks *and* in ``trick``; ``void``: ``(B, players, 4)`` voids shown;
    ``trick``: ``(B, k)`` cards played so far this trick (``k`` may be 0); ``leader``: its
    leader's seat. The choice is always among the legal cards (``legal_mask_batch``).
    """
    b, k = trick.shape
    has = np.ascontiguousarray(hand.T > 0)
    seat = np.asarray(seat, dtype=np.int64)
    led = win = win_seat = None
    wins = None
    legal = has
    if k:
        pos = winner_batch(tab, trick)
        win = trick[np.arange(b), pos]
        win_seat = (np.asarray(leader) + pos) % tab.players
        led = tab.suit[trick[:, 0]]
        partner_win = (tab.side[win_seat] == tab.side[seat]) & (win_seat != seat)
        legal, wins = _legal_t(tab, has, led, win, partner_win)
    view = _View(np.ascontiguousarray(hand.T).astype(np.int8), legal, wins,
                 np.ascontiguousarray(played.T).astype(np.int8), np.ascontiguousarray(void.transpose(1, 2, 0)),
                 seat, k, led, win, win_seat, bidding_side)
    return _pick(tab, _scores(tab, policy, view, rng), legal)


def _pick(tab: PlayTables, score: npt.NDArray[np.int32], legal: BoolArray) -> IntArray:
    """The legal card of highest score in each game (ties: the lowest card index)."""
    key = (score + 4096) * legal.view(np.int8) * 32 + tab.cols["tiebreak"]
    out: IntArray = 31 - (key.max(axis=0) & 31).astype(np.int64)
    return out


def play_batch(tab: PlayTables, hands: IntArray, leader: IntArray, *, policies: Sequence[str] | None = None,
               rng: np.random.Generator | None = None, bidding_side: int = 0,
               last_bonus: IntArray | None = None) -> tuple[IntArray, IntArray]:
    """Play out every trick of ``B`` games and return ``(points, tricks)``, each ``(B, nsides)``.

    ``hands``: ``(B, players, 24)`` counts in canonical coordinates (trump is suit 0).
    ``leader``: the seat leading the first trick. ``policies``: one name from ``POLICIES`` per
    seat (default: every seat ``heuristic``); ``rng`` is needed only by ``random``. Points are
    counters won plus the last-trick bonus: each row sums to the deal's counter total. ``last_bonus``
    ``(B,)``: points more for the winner of the last trick (the buried counters, where they go to it).
    """
    done = _play(tab, hands, leader, tab.tricks, policies, rng, bidding_side, last_bonus)
    return done.points, done.tricks


@dataclass
class PlayedTricks:
    """A batch after its first tricks (``play_opening``): what is left and what each side took so far."""

    # (B, players, 24) canonical counts still held
    hands: IntArray
    # (B,) the seat leading the next trick
    leader: IntArray
    # (B, nsides) counters won so far (the last-trick bonus once every trick is played)
    points: IntArray
    # (B, nsides) tricks won so far
    tricks: IntArray


def play_opening(tab: PlayTables, hands: IntArray, leader: IntArray, tricks: int, *,
                 bidding_side: int = 0) -> PlayedTricks:
    """The first ``tricks`` tricks of ``B`` games by the heuristic player at every seat, exactly as
    ``play_batch`` plays them (same arguments, canonical coordinates). ``ValueError`` if a deal has
    fewer than ``tricks`` tricks."""
    if not 0 <= tricks <= tab.tricks:
        raise ValueError(f"{tricks} tricks: a deal has {tab.tricks}")
    return _play(tab, hands, leader, tricks, None, None, bidding_side, None)


# long: the reference batched play loop keeps a dozen (seat, card, deal) arrays as locals through
# the tricks; split, each part would take and return most of them. estimate/compiled.py is its compiled twin.
def _play(tab: PlayTables, hands: IntArray, leader: IntArray, count: int, policies: Sequence[str] | None,
          rng: np.random.Generator | None, bidding_side: int, last_bonus: IntArray | None) -> PlayedTricks:
    """The first ``count`` tricks (see ``play_batch``)."""
    p = tab.players
    c = tab.cols
    pol = tuple(policies) if policies is not None else ("heuristic",) * p
    for name in pol:
        if name not in POLICIES:
            raise ValueError(f"no player {name!r} (players: {', '.join(POLICIES)})")
    used = sorted(set(pol))
    b = hands.shape[0]
    ar = np.arange(b)
    # (P, 24, B)
    held = np.ascontiguousarray(hands.transpose(1, 2, 0)).astype(np.int8)
    # what every player may hold: the cards dealt in this row's coordinates, not those buried (as the compiled
    # player counts them)
    in_play = held.sum(axis=0, dtype=np.int8)
    played = np.zeros((N_CARDS, b), dtype=np.int8)
    void = np.zeros((p, N_SUITS, b), dtype=bool)
    points = np.zeros((b, tab.nsides), dtype=np.int64)
    tricks = np.zeros((b, tab.nsides), dtype=np.int64)
    seat_policy = np.array([used.index(x) for x in pol], dtype=np.int64)
    lead = leader.astype(np.int64).copy()
    for t in range(count):
        led = win = win_seat = None
        trick_points = np.zeros(b, dtype=np.int64)
        for k in range(p):
            seat = (lead + k) % p
            sel = [(seat == q).view(np.int8) for q in range(p)]
            hand = held[0] * sel[0]
            for q in range(1, p):
                hand += held[q] * sel[q]
            has = hand > 0
            wins = None
            if k == 0:
                legal = has
            else:
                assert led is not None and win is not None and win_seat is not None
                partner_win = (tab.side[win_seat] == tab.side[seat]) & (win_seat != seat)
                legal, wins = _legal_t(tab, has, led, win, partner_win)
            view = _View(hand, legal, wins, played, void, seat, k, led, win, win_seat, bidding_side, in_play)
            if len(used) == 1:
                score = _scores(tab, used[0], view, rng)
            else:
                score = np.zeros((N_CARDS, b), dtype=np.int32)
                for i, name in enumerate(used):
                    score += _scores(tab, name, view, rng) * _sel(seat_policy[seat] == i)[None, :]
            card = _pick(tab, score, legal)
            onehot = (c["card"] == card.astype(np.int8)[None, :]).view(np.int8)
            for q in range(p):
                held[q] -= onehot * sel[q][None, :]
            played += onehot
            trick_points += tab.counter[card]
            if k == 0:
                led, win, win_seat = tab.suit[card], card, seat
            else:
                assert led is not None and win is not None and win_seat is not None
                off = tab.suit[card] != led
                if off.any():
                    void[seat[off], led[off], ar[off]] = True
                    if tab.trump_inferred:
                        no_trump = off & ~tab.is_trump[card]
                        void[seat[no_trump], 0, ar[no_trump]] = True
                beat = tab.beats[win, card]
                win = np.where(beat, card, win)
                win_seat = np.where(beat, seat, win_seat)
        assert win_seat is not None
        if t == tab.tricks - 1:
            trick_points += tab.last_trick if last_bonus is None else tab.last_trick + last_bonus
        side = tab.side[win_seat]
        points[ar, side] += trick_points
        tricks[ar, side] += 1
        lead = win_seat
    return PlayedTricks(np.ascontiguousarray(held.transpose(2, 0, 1)).astype(np.int64), lead, points, tricks)


# --------------------------------------------------------------------------- the exchange

@dataclass(frozen=True)
class ExchangeTables:
    """Constants for the heuristic pass and return (real card indices, not canonical)."""

    # (24,)
    suit: IntArray
    # (24,)
    strength: IntArray
    # (24,)
    counter: IntArray
    # (24,) the highest rank (aces)
    top: BoolArray
    # (24,) cards named by suit in a meld combination (the pinochle's Q♠ and J♦)
    fixed: BoolArray
    # per trump suit: (I, 24) counts of each combination instance
    instances: tuple[IntArray, ...]

    @classmethod
    def build(cls, rules: Ruleset) -> ExchangeTables:
        strength = _power(rules)
        top_rank = rules.rank_order[0] if rules.rank_order else Rank.A
        top = np.array([c.rank == top_rank for c in ALL_CARDS])
        fixed = np.zeros(N_CARDS, dtype=bool)
        for combo in rules.meld:
            for pat in combo.pattern:
                if pat.mode == "fixed" and pat.suit is not None:
                    fixed[int(pat.suit) * N_RANKS + int(pat.rank)] = True
        counter = np.array([rules.counter_value(c) for c in ALL_CARDS], dtype=np.int64)
        inst = []
        for t in range(N_SUITS):
            rows = []
            for combo in rules.meld:
                for cards in combo.instances(Suit(t), rules.suits):
                    row = np.zeros(N_CARDS, dtype=np.int64)
                    for c in cards:
                        row[c.index] += 1
                    rows.append(row)
            inst.append(np.array(rows, dtype=np.int64).reshape(-1, N_CARDS))
        return cls(np.arange(N_CARDS) // N_RANKS, strength, counter, top, fixed, tuple(inst))


def choose_pass(ex: ExchangeTables, cards: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
    """The partner's pass: split ``cards`` ``(B, H)`` into (sent ``(B, k)``, kept ``(B, H-k)``).

    Sends trump first (highest first), then aces, then the cards named in meld by suit (the
    pinochle cards), then the highest cards.
    """
    is_tr = ex.suit[cards] == trump[:, None]
    score = (1000 * is_tr + 500 * (ex.top[cards] & ~is_tr) + 300 * ex.fixed[cards]
             + 10 * ex.strength[cards] + ex.counter[cards])
    order = np.argsort(-score, axis=1, kind="stable")
    ordered = np.take_along_axis(cards, order, axis=1)
    return ordered[:, :k], ordered[:, k:]


def _counts(cards: IntArray) -> IntArray:
    b = cards.shape[0]
    flat = (np.arange(b)[:, None] * N_CARDS + cards).ravel()
    return np.bincount(flat, minlength=b * N_CARDS).reshape(b, N_CARDS)


def choose_return(ex: ExchangeTables, cards: IntArray, trump: IntArray, k: int) -> tuple[IntArray, IntArray]:
    """The bidder's return: split ``cards`` ``(B, H+k)`` into (returned ``(B, k)``, kept ``(B, H)``).

    Returns what serves the contract least: never trump while anything else is left, and not
    a card of a meld combination held complete, an ace or a counter while a plain card will do;
    among plain cards, those of the shortest side suits first (to make voids for trumping).
    """
    counts = _counts(cards)
    in_meld = meld_cards(ex, cards, trump, counts)
    is_tr = ex.suit[cards] == trump[:, None]
    suit_len = np.take_along_axis(counts.reshape(-1, N_SUITS, N_RANKS).sum(axis=2), ex.suit[cards], axis=1)
    keep = (1000 * is_tr + 400 * in_meld + 200 * ex.top[cards] + 20 * ex.counter[cards].clip(0, 1)
            + 10 * suit_len + ex.strength[cards])
    order = np.argsort(keep, axis=1, kind="stable")
    ordered = np.take_along_axis(cards, order, axis=1)
    return ordered[:, :k], ordered[:, k:]


def meld_cards(ex: ExchangeTables, cards: IntArray, trump: IntArray, counts: IntArray | None = None) -> BoolArray:
    """``(B, H)``: whether each card of ``cards`` ``(B, H)`` belongs to a meld combination (for the row's
    ``trump``) held complete — every card a meld of those cards can show (``counts``: ``cards`` counted)."""
    if counts is None:
        counts = _counts(cards)
    in_meld = np.zeros_like(cards, dtype=bool)
    for t in range(N_SUITS):
        rows = trump == t
        inst = ex.instances[t]
        if not rows.any() or inst.shape[0] == 0:
            continue
        c = counts[rows]
        # (b, I)
        present = (c[:, None, :] >= inst[None, :, :]).all(axis=2)
        # (b, 24)
        marked = (present.astype(np.int64) @ (inst > 0).astype(np.int64)) > 0
        in_meld[rows] = np.take_along_axis(marked, cards[rows], axis=1)
    return in_meld
