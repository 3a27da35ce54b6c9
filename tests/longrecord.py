"""A long record that never ends, for the card-night test."""

from __future__ import annotations

SEATS = ("Ann", "Bob", "Cy", "Di")
# bidder, bid, meld (NS, EW), counters (NS, EW): made, set, made, set: every four deals add 0 to each side
CYCLE = (("Ann", 250, (100, 0), (150, 100)), ("Ann", 400, (150, 0), (200, 50)),
         ("Bob", 250, (0, 100), (100, 150)), ("Bob", 400, (0, 150), (50, 200)))


def long_record_text(deals: int) -> str:
    """A single-deck record of ``deals`` deals whose totals come back to 0 every four deals."""
    lines = ["ruleset: single-deck", "teams:", "  North-South: [Ann, Cy]", "  East-West: [Bob, Di]", "deals:"]
    for i in range(deals):
        bidder, bid, (m_ns, m_ew), (c_ns, c_ew) = CYCLE[i % 4]
        lines += [f"  - dealer: {SEATS[i % 4]}", f"    bidder: {bidder}", f"    bid: {bid}", "    trump: hearts",
                  f"    meld: {{North-South: {m_ns}, East-West: {m_ew}}}",
                  f"    counters: {{North-South: {c_ns}, East-West: {c_ew}}}"]
    return "\n".join(lines) + "\n"
