"""Every entry of a session is checked: an illegal card, a call out of turn or below the minimum, a card not held are
refused with their reasons and change nothing; ``undo`` takes back the user's last entry with the computer's
replies; the line commands are read into values."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from clihelp import run_cli
from playhelp import events, of, parse, practice_lines

from pinochle_cli.cards import Card, Hand
from pinochle_cli.errors import SessionError
from pinochle_cli.game.actions import Action
from pinochle_cli.session.events import Decision, Refused, Undone
from pinochle_cli.session.session import Session
from pinochle_cli.session.settings import Settings


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


@pytest.fixture
def session() -> Iterator[Session]:
    """A single-deck practice deal at the user's first card of trick 1 (seed 5: West bids 300 in hearts)."""
    s = Session.begin(Settings("single-deck", seed=5, seconds=0.2, review=False))
    s.start()
    for line in practice_lines("single-deck", 5)[:3]:
        s.handle(parse(line))
    assert s.state is not None and s.state.stage == "play" and s.state.turn.seat == 0
    yield s


def _unchanged(session: Session, line: str) -> Refused:
    assert session.state is not None
    before = session.state.to_json()
    found = session.handle(parse(line))
    assert len(found) == 1 and isinstance(found[0], Refused), found
    assert session.state.to_json() == before
    return found[0]


def test_an_illegal_card_is_refused_with_the_duty(session: Session) -> None:
    assert session.state is not None
    legal = set(session.state.legal_plays())
    hand = session.state.hand(0)
    assert hand is not None
    wrong = next(c for c in hand.distinct() if c not in legal)
    refused = _unchanged(session, wrong.ascii())
    assert refused.duty in ("follow", "beat", "trump")
    assert f"may not play {wrong}" in refused.message and "must" in refused.message


def test_a_card_not_held_is_refused(session: Session) -> None:
    assert session.state is not None
    hand = session.state.hand(0)
    assert hand is not None
    missing = next(c for c in session.rules.deck.full().distinct() if c not in hand)
    refused = _unchanged(session, str(missing))
    assert "does not hold" in refused.message and refused.duty == "not-held"


def test_a_call_out_of_turn_is_refused(session: Session) -> None:
    refused = _unchanged(session, "bid 320")
    assert "not now" in refused.message and "the play" in refused.message


def test_a_bid_below_the_minimum_and_off_the_steps_is_refused() -> None:
    s = Session.begin(Settings("single-deck", seed=5, seconds=0.2, review=False))
    s.start()
    assert _unchanged(s, "bid 240").message == "240 is below the minimum bid 250"
    assert "off the steps" in _unchanged(s, "bid 255").message
    assert "no part of a meld" not in _unchanged(s, "AH").message


def test_a_played_card_cannot_be_played_again(session: Session) -> None:
    state = session.state
    assert state is not None
    while True:
        hand = state.hand(0)
        assert hand is not None
        single = [c for c in state.legal_plays() if hand.count(c) == 1]
        session.handle(parse((single or state.legal_plays())[0].ascii()))
        if single:
            break
    assert state.turn.seat == 0 and state.stage == "play"
    refused = _unchanged(session, single[0].ascii())
    assert "does not hold" in refused.message and str(single[0]) in refused.message


def test_undo_after_a_card_restores_the_decision(session: Session) -> None:
    assert session.state is not None
    decision = session.decision()
    history = session.state.history
    card = session.state.legal_plays()[0]
    played = session.handle(parse(card.ascii()))
    assert len(session.state.history) > len(history) + 1  # the computer replied
    assert not any(isinstance(e, Refused) for e in played)
    undone = session.handle(parse("undo"))
    assert isinstance(undone[0], Undone) and undone[0].actions[-1] == Action.play(card, 0)
    assert isinstance(undone[1], Decision) and undone[1] == decision
    assert session.state.history == history


def test_undo_with_nothing_to_undo_is_refused() -> None:
    s = Session.begin(Settings("single-deck", seed=5, seconds=0.2, review=False))
    s.start()
    assert "nothing to undo" in _unchanged(s, "undo").message


def test_the_whole_meld_is_shown(session: Session) -> None:
    s = Session.begin(Settings("single-deck", seed=5, seconds=0.2, review=False))
    s.start()
    lines = practice_lines("single-deck", 5)
    for line in lines[:2]:
        s.handle(parse(line))
    assert s.state is not None and s.state.stage == "meld"
    shows = s.state.meld_shows(0)
    assert len(shows) > 2
    partial = " ".join(c.ascii() for c in list(shows)[:2])
    assert "a hand shows all its meld" in _unchanged(s, f"meld {partial}").message
    assert "in practice you enter your own" in _unchanged(s, f"meld 1 {partial}").message


def test_refusals_on_the_command_line_say_why_and_the_deal_goes_on() -> None:
    lines = list(practice_lines("single-deck", 5))
    code, out, err = run_cli("play", "--seed", "5", "--time", "0.2", "--no-review", "--json",
                             input="\n".join(["bid 240", "frobnicate", *lines[:3], "bid 300"]) + "\n")
    assert (code, err) == (0, "")
    refused = of(events(out), "refused")
    assert [r["input"] for r in refused] == ["bid 240", "frobnicate", "bid 300"]
    assert refused[0]["error"] == "240 is below the minimum bid 250"
    assert "is not an action" in refused[1]["error"] and "help lists the commands" in refused[1]["error"]


@pytest.mark.parametrize(("line", "word", "action"), [
    ("AH", "action", Action.play(Card.parse("AH"))), ("10h", "action", Action.play(Card.parse("TH"))),
    ("A♥", "action", Action.play(Card.parse("AH"))), ("bid 260", "action", Action("bid", bid=260)),
    ("pass", "action", Action("pass")), ("?", "hint", None), ("hint", "hint", None), ("Undo", "undo", None),
    ("", "empty", None), ("meld 2 KS QS", "action", Action("meld", 2, cards=Hand.parse("KS QS"))),
    ("meld 9H", "action", Action("meld", cards=Hand.parse("9H"))), ("quit", "quit", None),
    ("give AS KS QS JD", "action", Action("give", cards=Hand.parse("AS KS QS JD"))),
])
def test_lines_are_read_into_commands(line: str, word: str, action: Action | None) -> None:
    command = parse(line)
    assert (command.word, command.action) == (word, action)


def test_meld_alone_is_the_whole_meld() -> None:
    assert parse("meld").whole_meld and parse("meld 3").whole_meld and parse("meld 3").action == Action("meld", 3)


@pytest.mark.parametrize(("line", "says"), [("meld 7 KS", "seat 7 is not a seat 0..3"), ("bid x", "whole number"),
                                            ("ZZ", "is not an action")])
def test_a_line_that_is_no_command_is_an_error(line: str, says: str) -> None:
    with pytest.raises(SessionError, match=says):
        parse(line)
