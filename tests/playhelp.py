"""What the tests of ``pinochle play`` share: the lines a user types for a whole deal, and the JSON events read back.

``practice_lines`` plays a practice deal through the library (``Session``) with the computer deciding for the
user's seat too, and returns what the user would type: the same session on the command line then plays the same
deal (everything follows from the seed). ``follow_lines`` turns a recorded deal with hands and play into the lines
that follow it at the table. ``events`` reads ``--json`` output (one object a line).
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from pinochle_cli.meld import shown_cards
from pinochle_cli.player.turn import Computer
from pinochle_cli.records import read_record
from pinochle_cli.session.commands import parse_command
from pinochle_cli.session.events import Refused
from pinochle_cli.session.session import Session
from pinochle_cli.session.settings import Settings

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def typed(session: Session, computer: Computer) -> str:
    """What the user types for the decision at hand: the computer's choice for the user's seat."""
    state = session.state
    assert state is not None
    act = computer.act(state)
    return "meld" if act.kind == "meld" and state.stage == "meld" else str(act)


@lru_cache(maxsize=32)
def practice_lines(ruleset: str, seed: int, seat: int = 0, options: tuple[tuple[str, str], ...] = (),
                   stop: int | None = None) -> tuple[str, ...]:
    """The lines of a whole practice deal (``stop``: only the first ``stop``); the session is kept nowhere."""
    import os
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        old = os.environ.get("PINOCHLE_DATA_DIR")
        os.environ["PINOCHLE_DATA_DIR"] = folder
        try:
            session = Session.begin(Settings(ruleset, options, seat, seed, seconds=0.2, review=False))
            session.start()
            me = Computer(session.rules, 10_000 + seed)
            lines: list[str] = []
            while session.phase == "deal" and (stop is None or len(lines) < stop):
                line = typed(session, me)
                lines.append(line)
                events = session.handle(parse_command(line, session.rules.players))
                assert not any(isinstance(e, Refused) for e in events), events
        finally:
            if old is None:
                del os.environ["PINOCHLE_DATA_DIR"]
            else:
                os.environ["PINOCHLE_DATA_DIR"] = old
    return tuple(lines)


def follow_lines(record_path: Path, seat: int) -> tuple[list[str], str, int]:
    """The lines that follow the first deal of a record with hands and play from ``seat`` (every seat's call,
    trump, an unseen exchange, each seat's meld, every card), the user's hand and the dealer's seat. The user's
    hand is the one recorded at play start: ``seat`` must take no part in an exchange."""
    record = read_record(str(record_path))
    deal, names, rules = record.deals[0], record.table.seating, record.rules
    assert deal.hands is not None and deal.play is not None and deal.trump is not None
    assert deal.dealer is not None and deal.bidder is not None and deal.bid is not None
    p = len(names)
    dealer, bidder = names.index(deal.dealer), names.index(deal.bidder)
    lines = []
    s = (dealer + 1) % p
    while s != bidder:
        lines.append("pass")
        s = (s + 1) % p
    lines += [f"bid {deal.bid}", *["pass"] * (p - 1)]
    if rules.widow_size:
        assert deal.widow is not None
        lines.append("widow " + " ".join(c.ascii() for c in deal.widow))
    lines.append(f"trump {deal.trump.letter}")
    if rules.exchange and rules.partner_seats(bidder):
        lines += ["give", "give"]
    for k in range(p):
        m = (dealer + 1 + k) % p
        held = deal.hands[names[m]]
        if m == bidder and deal.buried is not None:
            held = held + type(held)(deal.buried)
        shown = shown_cards(rules, held, deal.trump)
        lines.append("meld" if m == seat else f"meld {m} " + " ".join(c.ascii() for c in shown))
    if rules.bury is not None:
        lines.append("bury")
    lines += [c.ascii() for trick in deal.play for c in trick]
    return lines, " ".join(c.ascii() for c in deal.hands[names[seat]]), dealer


def events(out: str) -> list[dict[str, Any]]:
    """The JSON objects of ``--json`` output, one a line."""
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def of(found: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [e for e in found if e["event"] == kind]


def parse(line: str, players: int = 4) -> Any:
    return parse_command(line, players)
