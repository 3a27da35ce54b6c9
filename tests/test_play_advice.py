"""Advice at every decision: the card is the answer of ``pinochle hint`` for the same position and seed, the call
the answer of ``estimate --auction``, the pass the answer of ``pass``; trump, meld, the bury and the stock's play
are advised too; the advice prints as one short block within 80 columns."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from clihelp import run_cli
from playhelp import events, of, parse, practice_lines

from pinochle_cli.game.state import DealState
from pinochle_cli.session.advising import DecisionAdvice, _staged, advise, relative_seat
from pinochle_cli.session.events import Advised
from pinochle_cli.session.session import Session
from pinochle_cli.session.settings import Settings

SEED = 5


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def _session(ruleset: str, typed: int, seed: int = SEED, seconds: float = 0.3) -> Session:
    """A practice session after the user's first ``typed`` lines."""
    s = Session.begin(Settings(ruleset, seed=seed, seconds=seconds, review=False))
    s.start()
    for line in practice_lines(ruleset, seed)[:typed]:
        s.handle(parse(line))
    return s


def _advice(s: Session) -> DecisionAdvice:
    found = s.handle(parse("hint"))
    assert len(found) == 1 and isinstance(found[0], Advised), found
    return found[0].advice


def _hint_args(state: DealState, seat: int) -> list[str]:
    """``pinochle hint``'s options for the position ``state`` from ``seat``'s view."""
    assert state.trump is not None and state.bidder is not None
    done = [t for t in state.tricks if t.winner is not None]
    hand = state.hand(seat)
    assert hand is not None
    args = ["hint", "-t", state.trump.letter, "--hand", " ".join(hand.ascii()), "--seat", str(seat), "--bidder",
            str(state.bidder), "--bid", str(state.bid), "--leader", str(done[0].leader if done else state.leader),
            "--tricks", "; ".join(" ".join(c.ascii() for c in t.cards) for t in done),
            "--trick", " ".join(c.ascii() for c in state.trick)]
    for s, cards in sorted(state.shown.items()):
        args += ["--meld", f"{s}=" + " ".join(cards.ascii())]
    partner = next(iter(state.rules.partner_seats(state.bidder)), None)
    other = partner if seat == state.bidder else state.bidder if seat == partner else None
    if other is not None:
        args += ["--passed", " ".join(state.given[seat].ascii()), "--received", " ".join(state.given[other].ascii())]
    return args


def test_the_card_advised_is_the_hint_for_the_same_position_and_seed() -> None:
    # trick 10: few enough cards for the hint to judge every world, whatever the time
    s = _session("single-deck", 3 + 9)
    assert s.state is not None and s.state.trick_number == 10 and s.state.turn.seat == 0
    advice = _advice(s)
    assert advice.hint is not None and advice.hint.exact
    code, out, err = run_cli(*_hint_args(s.state, 0), "--seed", str(SEED), "--time", "5", "--json")
    assert code == 0, err
    alone = json.loads(out)
    assert alone["best"] == advice.hint.best.ascii() == advice.best.card.ascii()  # type: ignore[union-attr]
    assert [(c["card"], c["points"]) for c in alone["cards"]] == \
        [(j.card.ascii(), round(j.points, 3)) for j in advice.hint.cards]


def test_the_call_advised_is_estimate_with_the_auction() -> None:
    s = _session("single-deck", 1)
    assert s.state is not None and s.state.stage == "auction" and s.state.turn.seat == 0
    advice = _advice(s)
    assert advice.kind == "call" and advice.answer is not None and advice.samples
    calls = " ".join("pass" if b is None else str(b) for _, b in s.state.calls)
    hand = s.state.hand(0)
    assert hand is not None
    code, out, err = run_cli("estimate", " ".join(hand.ascii()), "--auction", calls, "--dealer",
                             relative_seat(s.rules, 0, s.state.dealer), "--samples", str(advice.samples), "--seed",
                             str(SEED), "--workers", "1", "--json")
    assert code == 0, err
    assert json.loads(out)["recommended_call"] == advice.answer.recommended.to_json()  # type: ignore[union-attr]


@pytest.mark.exhaustive
def test_the_pass_advised_is_the_pass_command_s() -> None:
    # time enough for the final round (about 2 s on two cores), as the pass command plays it
    s = _session("single-deck", 1, seed=7, seconds=30)
    state = s.state
    assert state is not None and state.stage == "exchange" and state.turn.seat == 0 and state.bidder == 2
    advice = _advice(s)
    assert advice.kind == "pass" and advice.passing is not None and advice.note == ""
    assert advice.passing.final is not None  # type: ignore[union-attr]
    hand = state.hand(0)
    assert hand is not None and state.trump is not None
    calls = " ".join("pass" if b is None else str(b) for _, b in state.calls)
    code, out, err = run_cli("pass", " ".join(hand.ascii()), "-t", state.trump.letter, "--bid", str(state.bid),
                             "--auction", calls, "--dealer", relative_seat(s.rules, 0, state.dealer), "--samples",
                             str(advice.samples), "--top", "3", "--seed", "7", "--workers", "1", "--json")
    assert code == 0, err
    ranked = [r["pass"] for r in json.loads(out)["ranked"]]
    assert ranked == [[c.ascii() for c in j.cards] for j in advice.passing.ranked]
    assert advice.best is not None and sorted(advice.best.cards.ascii()) == sorted(ranked[0])


class _Clock:
    """A clock that moves only when told."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def test_a_stage_that_cannot_end_in_time_is_given_up_and_the_one_before_answers() -> None:
    clock = _Clock()
    took = {10: 0.1, 40: 0.4, 160: 4.0}
    ran: list[int] = []

    def run(n: int, progress: Callable[[int, int], None]) -> int:
        ran.append(n)
        for done in range(1, 5):
            clock.now += took[n] / 4
            progress(done * 25, 100)
        return n

    # 160 deals at the pace of 40 would end at 2.1 s, before the end (3 s): started; its first quarter says it ends
    # at 4.5 s, and it is given up then (1.5 s), the 40 deals' answer kept
    assert _staged(3.0, (10, 40, 160), run, clock) == (40, 40)
    assert ran == [10, 40, 160] and clock.now == pytest.approx(1.5)
    # a stage whose pace (the last one's) says it ends after the end is not started
    clock.now, ran[:] = 0.0, []
    assert _staged(0.45, (10, 40, 160), run, clock) == (10, 10) and ran == [10]
    # nothing in the time: no answer
    clock.now, ran[:] = 0.0, []
    assert _staged(0.01, (10, 40), run, clock) == (None, 0)


def test_each_part_of_a_run_is_paced_on_its_own() -> None:
    # a pass's race (100 games, fast) then its final round (its games counted after the race's, slow)
    clock = _Clock()

    def run(n: int, progress: Callable[[int, int], None]) -> int:
        for done in (50, 100):
            clock.now += 0.05
            progress(done, 100)
        for done in (200, 300, 400):
            clock.now += 1.0
            progress(done, 400)
        return n

    # by the games alone the run would end at 1.5 s (0.1 s for the first 100); its final part's pace says 3.1 s
    assert _staged(2.5, (10,), run, clock) == (None, 0) and clock.now == pytest.approx(1.1)
    clock.now = 0.0
    assert _staged(3.2, (10,), run, clock) == (10, 10)


def test_the_pass_answers_with_the_race_when_its_final_round_does_not_fit(monkeypatch: pytest.MonkeyPatch) -> None:
    from pinochle_cli.session import advising as module

    s = _session("single-deck", 1, seed=7, seconds=2)
    assert s.state is not None and s.state.stage == "exchange"
    # the last final round of this game took longer than any time left: it is not started
    monkeypatch.setitem(module._FINAL_TOOK, "single-deck", 1000.0)
    advice = _advice(s)
    assert advice.best is not None and advice.passing is not None and advice.passing.final is None
    assert advice.note == "the race's ranking: its final round (300 deals played out) did not fit in the time"


@pytest.mark.parametrize(("ruleset", "typed", "kind"), [
    ("single-deck", 2, "meld"), ("three-handed", 2, "card"), ("two-handed", 0, "card")])
def test_each_decision_is_advised(ruleset: str, typed: int, kind: str) -> None:
    s = _session(ruleset, typed)
    advice = _advice(s)
    assert advice.kind == kind and advice.best is not None
    assert s.state is not None
    assert s.state.apply(advice.best) is not None  # the advice is an action the deal takes
    if ruleset == "two-handed":  # while the stock lasts the hint does not judge: the computer's card
        assert advice.hint is None and "the computer's card" in advice.note
    if kind == "meld":
        assert advice.meld is not None and advice.meld.total > 0


def test_trump_and_the_bury_are_advised() -> None:
    hands = ["AS AS TS KS QS JS 9S AD AD TD KD QD JD AC TC", "AH AH TH TH KH KH QH QH JH JH 9H 9H KC KC QC",
             "9S KS QS JS TS 9D 9D TD KD QD JD AC TC JC 9C"]
    state = DealState.from_json({"ruleset": "three-handed", "dealer": 2, "hands": [h.split() for h in hands],
                                 "widow": ["QC", "JC", "9C"],
        "actions": [{"seat": 0, "kind": "bid", "bid": 300}, {"seat": 1, "kind": "pass"},
                    {"seat": 2, "kind": "pass"}]})
    assert state.stage == "trump"
    trump = advise(state, 0, seconds=0.3, seed=SEED)
    assert trump.kind == "trump" and trump.best is not None and trump.trumps
    assert trump.best.suit in (o.suit for o in trump.trumps)
    state.apply(trump.best)
    for seat in (0, 1, 2):
        state.apply(f"meld {' '.join(state.meld_shows(seat).ascii())}")
    assert state.stage == "bury"
    bury = advise(state, 0, seconds=0.3, seed=SEED)
    assert bury.kind == "bury" and bury.best is not None and len(bury.best.cards) == 3
    state.apply(bury.best)


def test_the_advice_is_one_block_within_80_columns() -> None:
    lines = list(practice_lines("single-deck", SEED))
    code, out, _ = run_cli("play", "--seed", str(SEED), "--time", "0.3", "--no-review",
                           input="\n".join(["hint", *lines[:4], "?"]) + "\nquit\n")
    assert code == 0
    blocks = [line for line in out.splitlines() if line.startswith("Advice")]
    assert len(blocks) == 2
    assert max(len(line) for line in out.splitlines()) <= 80


def test_advice_is_for_the_user_s_own_decision(tmp_path: Path) -> None:
    from playhelp import EXAMPLES, follow_lines

    _lines, hand, dealer = follow_lines(EXAMPLES / "single-deck-played.yaml", 1)
    code, out, _ = run_cli("play", "--follow", "--hand", hand, "--seat", "1", "--dealer", str(dealer), "--time",
                           "0.3", "--no-review", "--json", input="hint\nquit\n")
    assert code == 0
    refused = of(events(out), "refused")
    assert refused and "advice is for your own decisions (seat 1); it is North's turn" in refused[0]["error"]


def test_a_card_with_no_world_drawn_in_half_the_time_is_the_computer_s(monkeypatch: pytest.MonkeyPatch) -> None:
    # a world that fits what the seat saw can be rare (a double deck's meld): drawing stops at half the time
    from pinochle_cli.hint import worlds

    s = _session("single-deck", 3)
    assert s.state is not None and s.state.stage == "play" and s.state.trick_number == 1
    monkeypatch.setattr(worlds, "consistent", lambda facts, world: False)
    advice = _advice(s)
    assert advice.kind == "card" and advice.best is not None and advice.hint is None
    assert advice.note == "the computer's card: no world that fits what the seat has seen was drawn in the time"


def test_the_card_advice_names_every_card_within_the_noise_of_the_best() -> None:
    from pinochle_cli.cli.hint_cmd import also_within_noise
    from pinochle_cli.cli.play_advice_view import advice_lines

    s = _session("single-deck", 3 + 9)
    advice = _advice(s)
    assert advice.hint is not None and s.state is not None
    also = [x.second for x in advice.hint.leads[1:] if not x.clear]
    assert also, "this position has cards as good as the best within the noise"
    text = " ".join(line.strip() for line in advice_lines(advice, s.state.rules))
    said = also_within_noise(advice.hint)
    assert said is not None and " ".join(said.split()) in text
    assert all(str(card) in said for card in also)
