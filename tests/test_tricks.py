"""The trick engine: who wins a trick, the legal plays under every duty, and the refusals."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pinochle_cli.cards import Card, Hand, Suit, parse_card, parse_cards, parse_suit
from pinochle_cli.errors import PlayError
from pinochle_cli.game.tricks import card_beats, check_play, legal_plays, trick_winner, winning_card
from pinochle_cli.ruleset import Ruleset, bundled_path, load_ruleset, load_ruleset_text

SD = load_ruleset("single-deck")
SDS = load_ruleset("single-deck-small")
SDS_TL = load_ruleset("single-deck-small", {"overtake": "trump-lead"})
DD = load_ruleset("double-deck")
TH = load_ruleset("two-handed")
RULES = {"single-deck": SD, "single-deck-small": SDS, "single-deck-small/trump-lead": SDS_TL,
         "double-deck": DD, "two-handed": TH}
PHASE = {"two-handed": "play-off"}  # the default phase for hand-built tricks in a stock game


def cards(text: str) -> list[Card]:
    return parse_cards(text)


def legal(rules_key: str, trump: str, trick: str, hand: str, phase: str | None = None, leader_seat: int = 0) -> str:
    rules = RULES[rules_key]
    phase = phase or PHASE.get(rules_key)
    out = legal_plays(rules, Hand.parse(hand), cards(trick), parse_suit(trump), phase=phase, leader_seat=leader_seat)
    return " ".join(c.ascii() for c in out)


# --------------------------------------------------------------------------- winning

WIN_CASES = [
    # (ruleset, trump, trick, index of the winner)
    ("single-deck", "H", "KS QS AS", 2),              # highest of the suit led
    ("single-deck", "H", "KS AD AC", 0),              # off-suit cards never win
    ("single-deck", "H", "KS 9H AS", 1),              # the lowest trump beats the led ace
    ("single-deck", "H", "KS 9H QH JH", 2),           # highest trump
    ("single-deck", "H", "TS KS", 0),                 # the ten outranks the king
    ("single-deck", "H", "AS AS", 0),                 # identical cards: the first wins
    ("single-deck", "H", "KS QH QH", 1),              # identical trumps: the first wins
    ("double-deck", "C", "AS AS AS AS", 0),           # four copies: still the first
    ("double-deck", "C", "JS JC JC TS", 1),
    ("two-handed", "D", "9D AD", 1),
    ("two-handed", "D", "AS 9D", 1),
]


@pytest.mark.parametrize(("rules_key", "trump", "trick", "expected"), WIN_CASES)
def test_trick_winner(rules_key: str, trump: str, trick: str, expected: int) -> None:
    assert trick_winner(RULES[rules_key], cards(trick), parse_suit(trump)) == expected


def test_card_beats_is_strict_for_identical_cards() -> None:
    ace = parse_card("AS")
    assert not card_beats(SD, ace, ace, Suit.H)
    assert card_beats(SD, parse_card("9H"), ace, Suit.H)
    assert not card_beats(SD, parse_card("AD"), parse_card("9S"), Suit.H)


def test_rank_order_comes_from_the_deck() -> None:
    text = bundled_path("single-deck").read_text(encoding="utf-8")  # type: ignore[union-attr]
    line = 'ranks: [A, "10", K, Q, J, "9"]'
    assert line in text
    kings_high = load_ruleset_text(text.replace(line, 'ranks: [A, K, "10", Q, J, "9"]'), "kings-high.yaml")
    assert trick_winner(SD, cards("KS TS"), Suit.H) == 1
    assert trick_winner(kings_high, cards("KS TS"), Suit.H) == 0


def test_empty_trick_has_no_winner() -> None:
    with pytest.raises(PlayError, match="empty trick"):
        trick_winner(SD, [], Suit.H)
    assert winning_card(SD, [], Suit.H) is None


# --------------------------------------------------------------------------- duties, one case each

DUTY_CASES = [
    # (ruleset, trump, trick, hand, legal plays)
    # the leader may play anything
    *[(k, "H", "", "AS 9H QD JC", "AS 9H QD JC") for k in ("single-deck", "single-deck-small", "two-handed")],
    ("double-deck", "H", "", "AS JH QD JC", "AS JH QD JC"),
    # follow: holding the led suit, only that suit (no spade beats the ace)
    *[(k, "H", "AS", "KS JS AH AC", "KS JS") for k in RULES],
    # beat: of the led suit, only the cards that beat the winner
    *[(k, "H", "KS", "AS TS JS AC", "AS TS") for k in ("single-deck", "single-deck-small", "double-deck",
                                                      "two-handed")],
    # trump: void in the led suit, only trumps (all of them beat a plain card)
    *[(k, "H", "AS", "JH AD AC", "JH") for k in RULES],
    # trumped lead: following suit cannot beat the trump, so any card of the led suit
    *[(k, "H", "AS QH", "KS JS AH", "KS JS") for k in ("single-deck", "single-deck-small", "double-deck")],
    # over-trump: void, a trump that beats the trump in the trick if able
    *[(k, "H", "AS KH", "AH JH QD", "AH") for k in ("single-deck", "single-deck-small", "double-deck")],
    # void, holding trumps that cannot beat: any trump
    *[(k, "H", "AS AH", "KH JH QD", "KH JH") for k in ("single-deck", "single-deck-small", "double-deck")],
    # void in the led suit and in trumps: anything
    *[(k, "H", "AS", "QD JC", "QD JC") for k in RULES],
    # trump led: follow with a higher trump
    *[(k, "H", "QH", "AH KH JH AS", "AH KH") for k in RULES],
    # identical cards: a second ace of the led suit does not beat the first
    *[(k, "H", "AS", "AS KS", "AS KS") for k in RULES],
    ("single-deck", "H", "TS", "AS TS KS", "AS"),
    ("double-deck", "H", "AS AS AS", "AS TS", "AS TS"),
    ("double-deck", "H", "AS KH", "KH JH", "KH JH"),      # the second K♥ does not over-trump
    # partner winning: the duty to beat applies against the partner's card too
    *[(k, "H", "KS 9S", "AS JS", "AS") for k in ("single-deck", "single-deck-small")],
    ("double-deck", "H", "KS JS", "AS JS", "AS"),
    # overtake = trump-lead: on a plain lead nobody has to beat …
    ("single-deck-small/trump-lead", "H", "KS", "AS TS JS", "AS TS JS"),
    ("single-deck-small/trump-lead", "H", "AS KH", "AH JH QD", "AH JH"),  # … nor over-trump
    ("single-deck-small/trump-lead", "H", "AS", "JH AD", "JH"),            # … but void, must trump
    ("single-deck-small/trump-lead", "H", "QH", "AH KH JH AS", "AH KH"),   # on a trump lead: beat
]


@pytest.mark.parametrize(("rules_key", "trump", "trick", "hand", "expected"), DUTY_CASES)
def test_duty(rules_key: str, trump: str, trick: str, hand: str, expected: str) -> None:
    assert legal(rules_key, trump, trick, hand) == expected


def test_two_handed_stock_phase_has_no_duties() -> None:
    assert legal("two-handed", "D", "KS", "AS 9S AC 9D", phase="stock") == "AS 9S 9D AC"
    assert legal("two-handed", "D", "KS", "AS 9S AC 9D", phase="play-off") == "AS"
    assert legal("two-handed", "D", "KS", "AC 9D", phase="play-off") == "9D"


def test_phase_required_iff_stock() -> None:
    with pytest.raises(PlayError, match="two-handed has a stock: the phase"):
        legal_plays(TH, Hand.parse("AS"), cards("KS"), Suit.D)
    with pytest.raises(PlayError, match="single-deck has no stock"):
        legal_plays(SD, Hand.parse("AS"), cards("KS"), Suit.D, phase="stock")
    with pytest.raises(PlayError, match="'late' is not stock or play-off"):
        legal_plays(TH, Hand.parse("AS"), cards("KS"), Suit.D, phase="late")


def test_complete_trick_is_refused() -> None:
    with pytest.raises(PlayError, match="has 4 cards: with 4 players it is complete"):
        legal_plays(SD, Hand.parse("AS"), cards("KS QS JS 9S"), Suit.D)


def test_partner_follows_leader_seat_and_partnerships() -> None:
    """Whose card is winning comes from the seats: partners side by side, K♠ led, the next seat plays."""
    rules = house_rule("duties: [follow, trump, {beat: {partner: false}}]",
                       ("partnerships: [[0, 2], [1, 3]]", "partnerships: [[0, 1], [2, 3]]"))
    # leader seat 0, player seat 1: the partner is winning, no duty to beat
    assert legal_plays(rules, Hand.parse("AS JS"), cards("KS"), Suit.H, leader_seat=0) == cards("AS JS")
    # leader seat 1, player seat 2: an opponent is winning
    assert legal_plays(rules, Hand.parse("AS JS"), cards("KS"), Suit.H, leader_seat=1) == cards("AS")
    assert legal_plays(rules, Hand.parse("AS JS"), cards("KS"), Suit.H, leader_seat=2) == cards("AS JS")


# --------------------------------------------------------------------------- house rules, one line of YAML

def house_rule(duties_line: str, *more: tuple[str, str]) -> Ruleset:
    """single-deck with its duties line replaced (and any other exact one-line edits), without its options
    (they patch the duties the bundled file has)."""
    path = bundled_path("single-deck")
    assert path is not None
    text = path.read_text(encoding="utf-8").split("\noptions:")[0]
    for old, new in (("duties: [follow, trump, beat]", duties_line), *more):
        assert text.count(old) == 1
        text = text.replace(old, new)
    return load_ruleset_text(text, "house.yaml")


def test_house_rule_need_not_beat_partner() -> None:
    rules = house_rule("duties: [follow, trump, {beat: {partner: false}}]")
    # seat 2 plays after its partner (seat 0) led the winning K♠: no duty to beat it
    assert legal_plays(rules, Hand.parse("AS JS"), cards("KS 9S"), Suit.H) == cards("AS JS")
    assert legal_plays(SD, Hand.parse("AS JS"), cards("KS 9S"), Suit.H) == cards("AS")
    # an opponent winning: the duty stands
    assert legal_plays(rules, Hand.parse("AS JS"), cards("9S KS"), Suit.H) == cards("AS")


def test_house_rule_no_forced_trump_when_it_cannot_win() -> None:
    rules = house_rule("duties: [follow, {trump: {only_if_winning: true}}, beat]")
    # A♥ (opponent) has trumped the spade lead; the player's 9♥ could not win
    assert legal_plays(rules, Hand.parse("9H QD"), cards("AS AH"), Suit.H) == cards("9H QD")
    assert legal_plays(SD, Hand.parse("9H QD"), cards("AS AH"), Suit.H) == cards("9H")
    # a trump that would win is still forced (and must beat)
    assert legal_plays(rules, Hand.parse("AH 9H QD"), cards("AS KH"), Suit.H) == cards("AH")


def test_duty_order_is_data() -> None:
    """[follow, beat, trump]: void, the player must beat if able with anything — only a trump can."""
    rules = house_rule("duties: [follow, beat]")
    assert legal_plays(rules, Hand.parse("9H QD"), cards("AS"), Suit.H) == cards("9H")
    assert legal_plays(rules, Hand.parse("9H QD"), cards("AS KH"), Suit.H) == cards("9H QD")



def test_trump_duty_only_when_void() -> None:
    """Without a duty to follow, a player holding the led suit need not trump; a void one must."""
    rules = house_rule("duties: [trump]")
    assert legal_plays(rules, Hand.parse("KS 9H QD"), cards("AS"), Suit.H) == cards("KS 9H QD")
    assert legal_plays(rules, Hand.parse("9H QD"), cards("AS"), Suit.H) == cards("9H")


# --------------------------------------------------------------------------- rulings

RULING_CASES = [
    # (ruleset, trump, trick, hand, card, duty, reason, summary)
    ("single-deck", "H", "KS", "TS JS AC", "AC", "follow", "you hold ♠ and must follow suit",
     "must follow suit in ♠"),
    ("single-deck", "H", "KS", "TS JS AC", "JS", "beat", "10♠ beats the K♠ and you must beat it",
     "must beat the K♠ led"),
    ("single-deck", "H", "KS", "AS TS JS", "JS", "beat", "A♠ or 10♠ beat the K♠ and you must beat it",
     "must beat the K♠ led"),
    ("single-deck", "H", "AS QH", "KH 9H", "9H", "beat", "K♥ beats the Q♥ and you must beat it",
     "must beat the Q♥"),
    ("single-deck", "H", "AS", "9H QD", "QD", "trump", "you are void in ♠ and must trump",
     "void in ♠, must trump"),
    ("single-deck", "H", "AS KH", "AH 9H QD", "QD", "trump", "you are void in ♠ and must trump",
     "void in ♠, must trump"),
    ("double-deck", "H", "KS", "TS JS", "AC", "not-held", "A♣ is not in your hand", "A♣ is not in the hand"),
]


@pytest.mark.parametrize(("rules_key", "trump", "trick", "hand", "card", "duty", "reason", "summary"), RULING_CASES)
def test_refusal(rules_key: str, trump: str, trick: str, hand: str, card: str, duty: str, reason: str,
                 summary: str) -> None:
    ruling = check_play(RULES[rules_key], Hand.parse(hand), parse_card(card), cards(trick), parse_suit(trump))
    assert (ruling.allowed, ruling.duty, ruling.reason, ruling.summary) == (False, duty, reason, summary)


def test_allowed_ruling() -> None:
    lead = check_play(SD, Hand.parse("AS 9C"), parse_card("9C"), [], Suit.H)
    assert (lead.allowed, lead.duty, lead.reason, lead.winning) == (True, None, "the leader may play any card", None)
    follow = check_play(SD, Hand.parse("KS JS AH"), parse_card("JS"), cards("AS QH"), Suit.H)
    assert follow.allowed and follow.legal == tuple(cards("KS JS")) and follow.winning == parse_card("QH")
    stock = check_play(TH, Hand.parse("9S 9C"), parse_card("9C"), cards("AS"), Suit.H, phase="stock")
    assert stock.allowed and stock.reason == "no duty limits this play: any card may be played"


# --------------------------------------------------------------------------- properties

def reference_winner(rules: Ruleset, trump: Suit, trick: list[Card]) -> int:
    """An independent statement of the rule: highest (trump, led suit, rank), earliest of equals."""
    led = trick[0].suit
    order = list(rules.rank_order)

    def key(i: int) -> tuple[int, int, int, int]:
        c = trick[i]
        return (c.suit == trump, c.suit == led, -order.index(c.rank), -i)

    return max(range(len(trick)), key=key)


@st.composite
def situations(draw: st.DrawFn) -> tuple[str, Ruleset, Suit, list[Card], Hand, str | None, int]:
    key = draw(st.sampled_from(sorted(RULES)))
    rules = RULES[key]
    pack = draw(st.permutations(rules.deck.cards()))
    n_trick = draw(st.integers(0, rules.players - 1))
    n_hand = draw(st.integers(1, rules.hand_size))
    trump = draw(st.sampled_from(rules.suits))
    phase = draw(st.sampled_from(["stock", "play-off"])) if rules.has_stock else None
    leader = draw(st.integers(0, rules.players - 1))
    return key, rules, trump, list(pack[:n_trick]), Hand(pack[n_trick:n_trick + n_hand]), phase, leader


# 150 situations (was 300) in each of the two properties: four rulesets × trumps × phases × tricks of
# 0‥3 cards are each drawn several times; the tables above pin every duty case by name
@settings(max_examples=150, deadline=None)
@given(situations())
def test_legal_plays_are_a_nonempty_subset_of_the_hand(sit: tuple[str, Ruleset, Suit, list[Card], Hand,
                                                                   str | None, int]) -> None:
    _, rules, trump, trick, hand, phase, leader = sit
    allowed = legal_plays(rules, hand, trick, trump, phase=phase, leader_seat=leader)
    assert allowed and allowed == sorted(set(allowed)) and set(allowed) <= set(hand)
    for card in hand.distinct():
        ruling = check_play(rules, hand, card, trick, trump, phase=phase, leader_seat=leader)
        assert ruling.allowed == (card in allowed)
        assert ruling.legal == tuple(allowed)
    if trick and phase != "stock" and hand.has_suit(trick[0].suit):
        assert all(c.suit == trick[0].suit for c in allowed)  # every bundled game makes you follow


@settings(max_examples=150, deadline=None)
@given(situations(), st.data())
def test_winner_is_a_card_of_the_trick_and_stable(sit: tuple[str, Ruleset, Suit, list[Card], Hand, str | None, int],
                                                  data: st.DataObject) -> None:
    _, rules, trump, trick, hand, _, _ = sit
    trick = trick or [next(iter(hand))]
    w = trick_winner(rules, trick, trump)
    assert 0 <= w < len(trick) and w == reference_winner(rules, trump, trick)
    extra = data.draw(st.sampled_from(hand.distinct()))
    grown = [*trick, extra]
    beats = card_beats(rules, extra, trick[w], trump)
    assert trick_winner(rules, grown, trump) == (len(trick) if beats else w)
