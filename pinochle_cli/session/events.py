"""What a session answers, as values: each thing that happened or is asked, in order.

A command returns a list of events; the command line prints each (in words, or as one JSON object a line).
``Decision`` is what the table waits for (whose turn, what they may do: the legal cards, the least bid); the
others say what happened (``Acted``, ``TrickDone``, ``Drew``, ``Contract``, ``WidowTaken``), what was refused and
why (``Refused``), taken back (``Undone``), advised (``Advised``), shown (``Shown``, ``Scored``), and how a deal and
the match ended (``DealEnded``, ``Reviewed``, ``MatchEnded``, ``Kept``). Nothing here formats.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..cards import Card, Hand, Suit
from ..game.actions import Action

if TYPE_CHECKING:
    from ..scoring import DealScore
    from .advising import DecisionAdvice
    from .postmortem import Review

__all__ = ["Acted", "Advised", "Contract", "DealEnded", "DealStarted", "Decision", "Drew", "Event", "Helped", "Kept",
           "MatchEnded", "Refused", "Reviewed", "Scored", "Shown", "MatchStanding", "TrickDone", "Undone", "WidowTaken"]


@dataclass(frozen=True)
class DealStarted:
    """A deal begins: its number, dealer, the user's seat and hand (None: not known), the seats' names, and trump
    when the deal turns it up (the bottom card of a stock, ``turned``)."""

    number: int
    dealer: int
    seat: int
    hand: Hand | None
    names: tuple[str, ...]
    follow: bool
    seed: int
    ruleset: str
    trump: Suit | None = None
    turned: Card | None = None


@dataclass(frozen=True)
class Decision:
    """What the table waits for: ``seat`` (None: whoever enters what the table saw) to do one of ``kinds``.
    ``yours``: the user's own decision (in practice, the only ones asked); ``cards``: the legal cards (a card to
    play); ``smallest``: the least bid allowed, ``stuck``: the dealer must take it; ``suits``: the suits that may
    be named; ``count``: the cards to give, bury or take; ``meld``: the cards the hand shows (the meld, or a
    declaration allowed now); ``trick``: the trick's number, its cards so far and who led it."""

    seat: int | None
    name: str
    stage: str
    kinds: tuple[str, ...]
    yours: bool
    cards: tuple[Card, ...] = ()
    smallest: int | None = None
    stuck: bool = False
    suits: tuple[Suit, ...] = ()
    count: int = 0
    meld: Hand | None = None
    trick: int = 0
    on_trick: tuple[Card, ...] = ()
    leader: int | None = None
    # the next deal, when one is over
    next_deal: int | None = None


@dataclass(frozen=True)
class Acted:
    """``seat`` did ``action``; ``by``: ``you``, ``computer`` or ``table`` (entered for another seat); ``hidden``: its
    cards are not seen by the user (the computer's pass between other seats, its bury)."""

    seat: int
    name: str
    action: Action
    by: str
    hidden: bool = False


@dataclass(frozen=True)
class TrickDone:
    """Trick ``number`` is complete: led by ``leader``, won by ``winner`` with ``counters`` in it (the last-trick
    bonus included)."""

    number: int
    leader: int
    cards: tuple[Card, ...]
    winner: int
    name: str
    counters: int


@dataclass(frozen=True)
class Drew:
    """After a trick while the stock lasts, ``seat`` drew ``card`` (None: a card the user does not see)."""

    seat: int
    name: str
    card: Card | None


@dataclass(frozen=True)
class Contract:
    """The auction is over: ``bidder`` at ``bid`` (None: everyone passed, the deal is thrown in)."""

    bidder: int | None
    name: str
    bid: int | None


@dataclass(frozen=True)
class WidowTaken:
    """The bidder took the widow, turned up for everyone: ``cards`` (None: not seen)."""

    bidder: int
    name: str
    cards: Hand | None


@dataclass(frozen=True)
class Refused:
    """A line not taken, the deal unchanged: ``message`` says why; ``duty``: the duty a refused card breaks."""

    text: str
    message: str
    duty: str | None = None


@dataclass(frozen=True)
class Undone:
    """``actions`` taken back, latest first."""

    actions: tuple[Action, ...]
    names: tuple[str, ...]


@dataclass(frozen=True)
class Advised:
    advice: DecisionAdvice


@dataclass(frozen=True)
class Shown:
    """The deal so far, as the user sees it."""

    number: int
    seat: int
    hand: Hand | None
    names: tuple[str, ...]
    dealer: int
    calls: tuple[tuple[int, int | None], ...]
    bidder: int | None
    bid: int | None
    trump: Suit | None
    shown: dict[int, Hand]
    tricks: tuple[tuple[int, tuple[Card, ...], int | None], ...]
    counters: tuple[int, ...]
    given: dict[int, Hand] = field(default_factory=dict)
    buried: Hand | None = None


@dataclass(frozen=True)
class MatchStanding:
    """The match so far: each side's name and total, its status and winner (None: none yet), the deals scored."""

    sides: tuple[str, ...]
    totals: tuple[int, ...]
    status: str
    winner: str | None
    deals: int


@dataclass(frozen=True)
class Scored:
    """The score asked for: the deal's counters and meld so far by side (when one is ``under_way``), and the match's
    standing before this deal."""

    sides: tuple[str, ...]
    counters: tuple[int, ...]
    meld: tuple[int, ...]
    standing: MatchStanding
    # a deal under way (False: between deals, the counters and meld are 0)
    under_way: bool = True


@dataclass(frozen=True)
class DealEnded:
    """A deal is over: how (``result``), its ``score`` by side, written to ``record`` (None: kept in memory), and the
    standing after it."""

    number: int
    result: str | None
    how: str
    score: DealScore
    sides: tuple[str, ...]
    record: str | None
    standing: MatchStanding


@dataclass(frozen=True)
class Reviewed:
    review: Review


@dataclass(frozen=True)
class MatchEnded:
    standing: MatchStanding


@dataclass(frozen=True)
class Kept:
    """The session is kept for ``resume`` in ``journal`` (``deal``: the deal under way, None: between deals)."""

    journal: str
    deal: int | None


@dataclass(frozen=True)
class Helped:
    commands: tuple[tuple[str, str], ...]


Event = (DealStarted | Decision | Acted | TrickDone | Drew | Contract | WidowTaken | Refused | Undone | Advised | Shown
         | Scored | DealEnded | Reviewed | MatchEnded | Kept | Helped)

