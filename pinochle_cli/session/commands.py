"""One line typed in a session, read into a value: an action of the deal, or a word to the session itself.

A line is an action as ``game.actions.Action`` writes it — a card (``AH``, ``10H``, ``A♥``), ``bid N``,
``pass``, ``trump SUIT``, ``give CARDS``, ``bury CARDS``, ``widow CARDS``, ``draw CARD``, ``concede`` — or
``meld [SEAT] CARDS`` (``meld`` alone: all the meld the hand shows; a seat number first: that seat's meld,
when following a table), or a word to the session: ``hint`` (or ``?``), ``undo``, ``show``, ``score``,
``help``, ``quit``, ``next`` (the next deal). An empty line is ``empty``. A line that is neither raises
``SessionError`` quoting it. ``COMMANDS`` lists the words with what each does (``help``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..cards import Hand, parse_cards
from ..errors import ActionError, CardError, SessionError
from ..game.actions import Action

__all__ = ["COMMANDS", "Command", "Word", "parse_command"]

Word = Literal["action", "hint", "undo", "show", "score", "help", "quit", "next", "empty"]

# the session's words, and what each does
COMMANDS: tuple[tuple[str, str], ...] = (
    ("CARD", "play a card: AH, 10H, A♥ (a ten is 10 or T)"),
    ("bid N, pass", "a call in the auction"),
    ("trump SUIT", "name trump: S H D C, spades, ♠ …"),
    ("give CARDS", "the cards passed in the exchange (following: the cards you received)"),
    ("bury CARDS", "the cards the bidder lays away (a game with a widow)"),
    ("meld [SEAT] CARDS", "show meld (meld alone: all your meld; following: SEAT shows CARDS)"),
    ("widow CARDS, draw CARD", "following: the widow turned up, the card you drew"),
    ("concede", "the bidder throws the deal in before the first card"),
    ("hint, ?", "advice for the decision at hand"),
    ("undo", "take back your last entry (and the computer's replies)"),
    ("show", "the deal so far"),
    ("score", "the deal's and the match's score so far"),
    ("next", "deal the next deal (when one is over)"),
    ("help", "this list"),
    ("quit", "stop; a deal under way is kept (continue it with resume)"),
)

_WORDS: dict[str, Word] = {"hint": "hint", "?": "hint", "undo": "undo", "show": "show", "score": "score",
                           "help": "help", "quit": "quit", "exit": "quit", "next": "next"}


@dataclass(frozen=True)
class Command:
    """A line read: ``word`` and, for an action, the ``action`` (its seat set only when the line names one);
    ``whole_meld``: ``meld`` with no cards — all the meld the seat's hand shows."""

    word: Word
    text: str
    action: Action | None = None
    whole_meld: bool = False


def parse_command(text: str, players: int) -> Command:
    """The command of one line (see the module docstring); ``players``: the seats a ``meld SEAT`` may name."""
    line = text.strip()
    if not line:
        return Command("empty", line)
    word = _WORDS.get(line.lower())
    if word is not None:
        return Command(word, line)
    head, _, rest = line.partition(" ")
    try:
        if head.lower() == "meld":
            return _meld(line, rest.strip(), players)
        return Command("action", line, Action.parse(line))
    except (ActionError, CardError) as exc:
        raise SessionError(f"{exc} (help lists the commands)") from None


def _meld(line: str, rest: str, players: int) -> Command:
    """``meld``, ``meld CARDS`` or ``meld SEAT CARDS``."""
    seat = None
    found = re.fullmatch(r"(\d+)(?:\s+(.*)|$)", rest)
    if found is not None:
        seat = int(found.group(1))
        if not 0 <= seat < players:
            raise SessionError(f"{line!r}: seat {seat} is not a seat 0..{players - 1}")
        rest = found.group(2) or ""
    if not rest:
        return Command("action", line, Action("meld", seat), whole_meld=True)
    try:
        cards = Hand(parse_cards(rest))
    except CardError as exc:
        raise SessionError(f"{line!r}: {exc}") from None
    return Command("action", line, Action("meld", seat, cards=cards))
