"""Bidding conventions: what each call of an auction shows of the caller's hand, as data.

A ruleset may carry a ``conventions:`` section (``CONVENTIONS`` validates it, each error at its
line; ``--conventions FILE`` gives one apart, read by ``load_conventions``). ``Conventions``
holds, per kind of call, the conditions it shows (texts in the grammar of ``estimate --given``:
``meld < 20``), and the meld a jump shows per point jumped; ``describe`` puts them in words.
A file that cannot be read or validated raises ``RulesetError``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..schema import Field, Int, Obj, Pattern, Seq, Str
from ..yamlsource import load_node

__all__ = ["CALL_KINDS", "CONDITION", "CONVENTIONS", "Conventions", "load_conventions"]

# the kinds of call, in the words the section uses
CALL_KINDS = ("pass", "opening", "raise")
_COUNTED = "meld|counters|aces|tens|kings|queens|jacks|nines|spades|hearts|diamonds|clubs"
CONDITION = Pattern(rf"\s*({_COUNTED})\s*(>=|<=|==|>|<)\s*\d+\s*",
                    "a condition on the caller's hand: meld, counters, a rank (aces …) or a suit (hearts …), "
                    "then >= > <= < or ==, then a number (meld < 20)",
                    convert=lambda text: " ".join(text.split()))
_MAX_PER_POINT = 100


@dataclass(frozen=True)
class Conventions:
    """Per kind of call the conditions it shows; ``jump_meld``: the meld shown per point a bid jumps."""

    name: str = "conventions"
    passes: tuple[str, ...] = ()
    opening: tuple[str, ...] = ()
    raises: tuple[str, ...] = ()
    jump_meld: int = 0

    def shows(self, kind: str) -> tuple[str, ...]:
        """The conditions a call of ``kind`` (one of ``CALL_KINDS``) shows, a jump aside."""
        return {"pass": self.passes, "opening": self.opening, "raise": self.raises}[kind]

    def describe(self) -> str:
        """The conventions in words (one paragraph)."""

        def shown(conditions: tuple[str, ...]) -> str:
            return "shows " + " and ".join(conditions) if conditions else "shows nothing"

        jump = ("A jump — a bid above the smallest the caller could have made (the minimum, or one step over the "
                f"last bid) — shows at least {self.jump_meld} point{'s' if self.jump_meld != 1 else ''} of meld per "
                "point jumped, on top of the meld the caller's earlier jumps showed."
                if self.jump_meld else "A jump shows nothing more than the same call one step lower.")
        return (f"Bidding conventions ({self.name}; what `estimate --auction` reads from each call): a pass "
                f"{shown(self.passes)}; an opening at the minimum {shown(self.opening)}; a raise by the smallest "
                f"step {shown(self.raises)}. {jump}")


CONVENTIONS = Obj({
    "name": Field(Str(), doc="what the convention is called"),
    "pass": Field(Seq(CONDITION, frozen=True), doc="what a pass shows of the caller's hand"),
    "opening": Field(Seq(CONDITION, frozen=True), doc="what an opening at the minimum bid shows"),
    "raise": Field(Seq(CONDITION, frozen=True), doc="what a raise by the smallest step shows"),
    "jump_meld": Field(Int(0, _MAX_PER_POINT),
                       doc="meld a jump shows per point jumped (a jump: a bid above the smallest the caller could "
                           "have made), added to what the caller's earlier jumps showed; 0: none"),
}, "the bidding conventions", build=lambda **c: Conventions(
    name=c.get("name", "conventions"), passes=c.get("pass", ()), opening=c.get("opening", ()),
    raises=c.get("raise", ()), jump_meld=c.get("jump_meld", 0)))

# a --conventions file: the section under its own key
_FILE = Obj({"conventions": Field(CONVENTIONS, required=True)}, "a conventions file")


def load_conventions(path: str) -> Conventions:
    """The conventions of a YAML file holding a ``conventions:`` mapping (``RulesetError`` at the line at fault)."""
    conventions: Conventions = _FILE.check(load_node(path), "")["conventions"]
    return conventions
