"""A session: a match played one deal at a time, one command at a time, from the deal to the score.

``Session.begin(settings)`` starts one (``Session.resume(path)`` continues one kept in a journal); ``start()``
deals (or shows where a resumed deal stands) and ``handle(command)`` does what a line says; both return the
events to show. In practice the computer (``player.turn.Computer``) plays every seat but the user's, replying at
once to each entry; following a table, the user enters what every seat does. Every entry is checked by the deal
(``DealState``): a refused one is a ``Refused`` event and changes nothing. An *entry* is the user's action with
the computer's replies to it: ``undo`` takes the last one back. When a deal is over it is written to the record
(``recording``), the user's decisions are judged (``postmortem``, unless the settings say not), and in practice the
next deal is offered until the match is decided. After every command the session is written to its journal
(``journal``), so an interruption loses nothing.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from ..cards import Hand, parse_card, parse_cards
from ..errors import IllegalPlayError, PinochleError, SessionError
from ..game.actions import Action
from ..game.state import DealState
from ..player.turn import Computer
from ..records import MatchRecord, parse_record, read_record
from ..records.brief import next_dealer
from ..ruleset import Ruleset, bundled_path, load_ruleset
from . import journal, recording
from .commands import COMMANDS, Command
from .events import (
    DealEnded,
    DealStarted,
    Decision,
    Event,
    Helped,
    Kept,
    MatchEnded,
    MatchStanding,
    Refused,
    Scored,
    Shown,
    Undone,
)
from .moves import Before, decision, happened
from .settings import Settings, deal_hands, deal_seed, default_names

__all__ = ["Session", "new_seed", "warm_engine"]


def warm_engine() -> None:
    """Load the compiled computer player and solver now (about a second), so that no answer pays for it."""
    from .. import prepare

    for part in prepare.PARTS:
        prepare.build_part(part)


def new_seed() -> int:
    """A seed for a session started without one (reported, so that it can be played again)."""
    return secrets.randbelow(10**9)


class Session:
    """A match in progress (see the module docstring)."""

    def __init__(self, settings: Settings, rules: Ruleset, names: tuple[str, ...], path: Path) -> None:
        settings.check(rules)
        self.settings, self.rules, self.names, self.path = settings, rules, names, path
        self.number = 0
        self.phase = "new"
        self.state: DealState | None = None
        # the history's length where each of the user's entries began
        self.entries: list[int] = []
        # the advice given at a decision (by the history's length then), as the review reads it
        self.advice: dict[int, dict[str, Any]] = {}
        # the record kept in memory when there is no record file
        self.memory: str | None = None
        self.record: MatchRecord | None = None
        self.computer: Computer | None = None
        # (what, seconds) of each answer of the computer and the advice: the benchmark reads it
        self.timings: list[tuple[str, float]] = []

    # ------------------------------------------------------------------ starting

    @classmethod
    def begin(cls, settings: Settings) -> Session:
        """A new session. Its record (when given) is read — its game is the session's when ``settings.ruleset`` is
        None, else they must agree — or started for the table when it does not exist."""
        record = None
        if settings.record is not None and os.path.exists(settings.record):
            record = read_record(settings.record)
        if settings.ruleset is None and record is not None:
            rules = record.rules
        else:
            rules = load_ruleset(settings.ruleset, dict(settings.options))
            if record is not None:
                _same_game(record, rules, settings.record or "")
        settings = replace(settings, ruleset=_spec(rules), options=tuple(sorted(rules.chosen.items())))
        names = record.table.seating if record is not None else default_names(rules)
        session = cls(settings, rules, names, journal.journal_path(settings.record))
        text = recording.record_text(rules, settings.ruleset, names, settings.record or os.getcwd())
        if settings.record is None:
            session.memory = text
            record = parse_record(text, recording.IN_MEMORY, os.getcwd())
        elif record is None:
            from ..records.writer import write_new_record

            record = write_new_record(settings.record, text)
        session.record = record
        return session

    @classmethod
    def resume(cls, path: Path) -> Session:
        """The session kept in the journal ``path``, every action of its deal checked again."""
        data = journal.load(path)
        try:
            return cls._from_json(data, path)
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, PinochleError):
                raise SessionError(f"{path}: the kept session cannot be continued: {exc}") from None
            raise SessionError(f"{path}: the kept session cannot be read: {exc!r}") from None

    @classmethod
    def _from_json(cls, data: dict[str, Any], path: Path) -> Session:
        settings = Settings.from_json(data["settings"])
        rules = load_ruleset(settings.ruleset, dict(settings.options))
        session = cls(settings, rules, tuple(data["names"]), path)
        session.number, session.phase = int(data["number"]), str(data["phase"])
        session.entries = [int(n) for n in data["entries"]]
        session.advice = {int(k): v for k, v in dict(data["advice"]).items()}
        session.memory = data.get("memory")
        if settings.record is not None:
            session.record = read_record(settings.record)
        else:
            assert session.memory is not None
            session.record = parse_record(session.memory, recording.IN_MEMORY, os.getcwd())
        if data.get("state") is not None:
            session.state = DealState.from_json(data["state"], rules)
            session.computer = Computer(rules, deal_seed(settings.seed, session.number))
        return session

    def to_json(self) -> dict[str, Any]:
        return {"settings": self.settings.to_json(), "names": list(self.names), "number": self.number,
                "phase": self.phase, "entries": self.entries, "advice": {str(k): v for k, v in self.advice.items()},
                "memory": self.memory, "state": None if self.state is None else self.state.to_json()}

    def save(self) -> None:
        """Keep the session in its journal (dropped once there is nothing left to continue)."""
        if self.phase == "over":
            journal.drop(self.path)
        else:
            journal.save(self.path, self.to_json())

    @property
    def over(self) -> bool:
        return self.phase == "over"

    def start(self) -> list[Event]:
        """The first events: a new deal dealt, or where the resumed one stands."""
        if self.phase in ("new", "between"):
            events = self._deal()
        else:
            assert self.state is not None
            events = [self._started(), self._shown(), *self._advance()]
        self.save()
        return events

    # ------------------------------------------------------------------ a deal

    def _deal(self) -> list[Event]:
        rules, s = self.rules, self.settings
        self.number += 1
        dealer = self._dealer()
        seed = deal_seed(s.seed, self.number)
        if s.follow:
            assert s.hand is not None
            hands: list[Hand | None] = [None] * rules.players
            hands[s.seat] = Hand(parse_cards(s.hand))
            self.state = DealState(rules, dealer=dealer, hands=hands, names=self.names)
        else:
            dealt, rest = deal_hands(rules, seed)
            extra: dict[str, Any] = {"stock": rest} if rules.has_stock else {"widow": Hand(rest)} if rest else {}
            self.state = DealState(rules, dealer=dealer, hands=list(dealt), names=self.names, **extra)
            self.computer = Computer(rules, seed)
        self.phase, self.entries, self.advice = "deal", [], {}
        return [self._started(), *self._advance()]

    def _dealer(self) -> int:
        """The seat dealing now: the first deal's as set (else the record's next dealer, else the seat on the user's
        right, so that the user calls first); later deals clockwise."""
        if self.state is not None:
            return (self.state.dealer + 1) % self.rules.players
        if self.settings.dealer is not None:
            return self.settings.dealer
        after = next_dealer(self.record) if self.record is not None else None
        if after is not None:
            return self.names.index(after)
        return (self.settings.seat - 1) % self.rules.players

    def _started(self) -> DealStarted:
        state = self._state()
        s = self.settings
        stock = state.to_json().get("stock")
        turned = parse_card(stock[-1]) if stock and self.rules.turn_up_trump else None
        return DealStarted(self.number, state.dealer, s.seat, state.hand(s.seat), self.names, s.follow, s.seed,
                           self.rules.name, state.trump, turned)

    def _state(self) -> DealState:
        if self.state is None:
            raise SessionError("no deal is under way")
        return self.state

    def decision(self) -> Decision | None:
        """What the session waits for now (None: nothing, the session is over)."""
        if self.phase == "over":
            return None
        if self.phase == "between":
            return Decision(None, "", "done", ("next",), True, next_deal=self.number + 1)
        return decision(self._state(), self.settings.seat, self.names)

    def _advance(self) -> list[Event]:
        """The computer's actions up to the user's next decision (practice), then that decision or the deal's end."""
        state = self._state()
        events: list[Event] = []
        while state.stage != "done" and self._computers_turn():
            assert self.computer is not None
            began = time.perf_counter()
            act = self.computer.act(state)
            self.timings.append((f"computer {state.turn.stage}", time.perf_counter() - began))
            before = Before.of(state, self.settings.seat)
            act = state.apply(act)
            events += happened(before, state, act, "computer", self.settings.seat, self.names, self._widow())
        if state.stage == "done":
            events += self._finish()
        else:
            events.append(decision(state, self.settings.seat, self.names))
        return events

    def _computers_turn(self) -> bool:
        seat = self._state().turn.seat
        return not self.settings.follow and seat is not None and seat != self.settings.seat

    def _widow(self) -> Hand | None:
        """The widow's cards when known: dealt (practice), or entered as the bidder took it (following)."""
        state = self._state()
        if not self.rules.widow_size or state.stage in ("auction", "widow"):
            return None
        setup = state.to_json().get("widow")
        if setup is not None:
            return Hand(parse_cards(" ".join(setup)))
        taken = [a.cards for a in state.history if a.kind == "widow"]
        return taken[0] if taken else None

    # ------------------------------------------------------------------ commands

    def handle(self, command: Command) -> list[Event]:
        """What ``command`` does, as events; the session is kept in its journal after it."""
        events = self._handle(command)
        self.save()
        return events

    def _handle(self, command: Command) -> list[Event]:
        word = command.word
        if word == "help":
            return [Helped(COMMANDS)]
        if word == "quit":
            return [Kept(str(self.path), self.number if self.phase == "deal" else None)]
        if word == "score":
            return [self._scored()]
        if self.phase == "between":
            if word in ("next", "empty"):
                return self._deal()
            return [Refused(command.text, f"deal {self.number} is over: next deals the next one, quit stops")]
        if word == "empty":
            return []
        if word == "next":
            return [Refused(command.text, f"deal {self.number} is under way: it ends after its last trick")]
        if word == "show":
            return [self._shown()]
        if word == "undo":
            return self._undo(command)
        if word == "hint":
            return self._hint(command)
        assert command.action is not None
        return self._act(command)

    def _act(self, command: Command) -> list[Event]:
        state = self._state()
        try:
            act = self._action(command)
            before = Before.of(state, self.settings.seat)
            start = len(state.history)
            act = state.apply(act)
        except IllegalPlayError as exc:
            return [Refused(command.text, str(exc), exc.ruling.duty)]
        except PinochleError as exc:
            return [Refused(command.text, str(exc))]
        self.entries.append(start)
        mine = act.seat == self.settings.seat
        events = happened(before, state, act, "you" if mine else "table", self.settings.seat, self.names,
                          self._widow())
        return events + self._advance()

    def _action(self, command: Command) -> Action:
        """The action a line stands for, its seat and the whole meld filled in; ``SessionError`` for what the session
        does not take (another seat's action in practice, part of a known hand's meld)."""
        state, seat = self._state(), self.settings.seat
        act = command.action
        assert act is not None
        turn = state.turn
        if not self.settings.follow:
            if act.seat is not None and act.seat != seat:
                raise SessionError(f"in practice you enter your own actions (seat {seat}), not seat {act.seat}'s")
            act = act.by(seat)
        elif act.seat is None and turn.seat is not None:
            act = act.by(turn.seat)
        if act.kind == "meld" and state.stage == "meld":
            act = self._meld(act, command.whole_meld)
        return act

    def _meld(self, act: Action, whole: bool) -> Action:
        """The meld shown: all of it for a known hand (``meld`` alone fills it in); a hand not known shows what was
        entered (nothing for ``meld SEAT`` alone)."""
        state = self._state()
        who = act.seat if act.seat is not None else state.turn.seat
        assert who is not None
        if state.hand(who) is None:
            return act.by(who)
        shows = state.meld_shows(who)
        if whole:
            return Action("meld", who, cards=shows)
        if act.cards != shows:
            raise SessionError(f"{act}: a hand shows all its meld — {self.names[who]}'s is {shows or 'nothing'} "
                               f"(type meld to show it)")
        return act.by(who)

    def _undo(self, command: Command) -> list[Event]:
        state = self._state()
        if not self.entries:
            return [Refused(command.text, f"nothing to undo in deal {self.number}: no entry of yours yet")]
        start = self.entries.pop()
        taken = []
        while len(state.history) > start:
            taken.append(state.undo())
        self.advice = {k: v for k, v in self.advice.items() if k <= start}
        names = tuple(self.names[a.seat] if a.seat is not None else "" for a in taken)
        return [Undone(tuple(taken), names), decision(state, self.settings.seat, self.names)]

    def _hint(self, command: Command) -> list[Event]:
        from .advising import advise
        from .events import Advised

        state = self._state()
        seat = state.turn.seat
        if seat != self.settings.seat:
            who = self.names[seat] if seat is not None else "the table"
            return [Refused(command.text, f"advice is for your own decisions (seat {self.settings.seat}); it is "
                                          f"{who}'s turn")]
        began = time.perf_counter()
        try:
            given = advise(state, seat, seconds=self.settings.seconds, seed=self.settings.seed)
        except PinochleError as exc:
            return [Refused(command.text, str(exc))]
        self.timings.append((f"advice {state.turn.stage}", time.perf_counter() - began))
        self.advice[len(state.history)] = given.summary()
        return [Advised(given)]

    # ------------------------------------------------------------------ what is shown

    def _shown(self) -> Shown:
        """The deal as the user sees it: in practice the computer's pass between other seats and its bury unseen."""
        state, seat = self._state(), self.settings.seat
        tricks = tuple((t.leader, t.cards, t.winner) for t in state.tricks)
        sees = self.settings.follow or seat == state.bidder
        partners = self.rules.partner_seats(seat)
        given = {s: h for s, h in state.given.items()
                 if self.settings.follow or s == seat or (s == state.bidder and seat in partners)
                 or (seat == state.bidder and s in partners)}
        return Shown(self.number, seat, state.hand(seat), self.names, state.dealer, state.calls, state.bidder,
                     state.bid, state.trump, state.shown, tricks, tuple(state.counters()), given,
                     state.buried if sees else None)

    def standing(self) -> MatchStanding:
        record = self.record
        assert record is not None
        return MatchStanding(record.sides, record.standing.totals, record.standing.status, record.winner,
                             len(record.deals))

    def _scored(self) -> Scored:
        record = self.record
        assert record is not None
        table = record.table
        counters, meld = [0] * len(record.sides), [0] * len(record.sides)
        if self.state is not None and self.phase == "deal":
            facts = self.state.facts()
            for i in range(len(facts.meld)):
                side = table.side_of_partnership(i)
                meld[side] = facts.meld[i]
                counters[side] = facts.counters[i] if facts.counters is not None else 0
        return Scored(record.sides, tuple(counters), tuple(meld), self.standing(),
                      self.state is not None and self.phase == "deal")

    # ------------------------------------------------------------------ the end of a deal

    def _finish(self) -> list[Event]:
        state = self._state()
        score = state.score()
        assert score is not None and self.record is not None
        path = self.settings.record
        if path is not None:
            self.record = recording.append(path, state)
        else:
            assert self.memory is not None
            self.memory, self.record = recording.added(self.memory, self.record, state)
        events: list[Event] = [DealEnded(self.number, score.result, state.result or "", score, self.record.sides,
                                         path, self.standing())]
        if self.settings.review:
            events += self._review()
        if self.record.standing.status != "in-progress":
            self.phase = "over"
            events.append(MatchEnded(self.standing()))
        elif self.settings.follow:
            self.phase = "over"
        else:
            self.phase = "between"
            events.append(Decision(None, "", "done", ("next",), True, next_deal=self.number + 1))
        return events

    def _review(self) -> list[Event]:
        from .events import Reviewed
        from .postmortem import review

        assert self.record is not None
        began = time.perf_counter()
        found = review(self.record, self._state(), self.settings.seat, self.advice, seconds=self.settings.seconds,
                       seed=self.settings.seed)
        self.timings.append(("review", time.perf_counter() - began))
        return [Reviewed(found)]

    def keep(self) -> Kept:
        """The session kept for ``resume`` (after an interruption)."""
        self.save()
        return Kept(str(self.path), self.number if self.phase == "deal" else None)


def _spec(rules: Ruleset) -> str:
    """How the journal names the ruleset: a bundled one by its name, another by its file's full path."""
    bundled = bundled_path(rules.name)
    if bundled is not None and os.path.abspath(bundled) == os.path.abspath(rules.path):
        return rules.name
    return os.path.abspath(rules.path)


def _same_game(record: MatchRecord, rules: Ruleset, path: str) -> None:
    """``SessionError`` when the record is a match of another game than the session's."""
    if record.rules != rules:
        raise SessionError(f"{path} is a record of {record.rules.name} "
                           f"{dict(record.rules.chosen) if record.rules.changed_options else ''}".rstrip()
                           + f"; this session plays {rules.name}: give the record's ruleset and options")
