"""Two-handed declarations: whether declaring a set of cards now is allowed, and what it scores.

``check_declaration`` judges a declaration against the hand and the combinations scored earlier (a card scores at
most once in a class; a double needs both copies declared before any single was scored). A refusal is an answer
(``Declaration.valid`` False, with the reason); an earlier declaration that could not have scored is bad input
(``MeldError``), and cards the pack lacks raise ``CardError``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from ..cards import Card, Hand, Suit, format_cards
from ..errors import MeldError
from ..ruleset import Combination, Ruleset
from .engine import as_trump, check_cards, multiple_name

__all__ = ["Declaration", "check_declaration"]


@dataclass(frozen=True)
class Declaration:
    valid: bool
    name: str | None
    points: int
    reason: str
    cards: tuple[Card, ...]
    copies: int = 0


@dataclass(frozen=True)
class _Scored:
    # 1-based, oldest first
    number: int
    combo: Combination
    instance: tuple[Card, ...]
    copies: int
    cards: tuple[Card, ...]


def _matches(rules: Ruleset, trump: Suit, cards: Sequence[Card]) -> tuple[list[tuple[Combination, tuple[Card, ...],
                                                                                     int]], list[str]]:
    """Ways ``cards`` is k copies of one instance: (combination, instance, k); and unpriced multiples."""
    want = Counter(cards)
    found, unpriced = [], []
    for combo in rules.meld:
        for inst in combo.instances(trump, rules.suits):
            need = Counter(inst)
            k, rem = divmod(len(cards), len(inst))
            if rem or k == 0 or Counter({c: n * k for c, n in need.items()}) != want:
                continue
            if k <= len(combo.points):
                found.append((combo, inst, k))
            else:
                unpriced.append(f"{k} × {combo.name} is {k} declarations, not one (the table prices at most "
                                f"{len(combo.points)} declared together)")
    return found, unpriced


def _card_word(card: Card) -> str:
    return str(card)


def _judge(rules: Ruleset, combo: Combination, inst: tuple[Card, ...], k: int, history: list[_Scored],
           available: Counter[Card] | None) -> str | None:
    """Why declaring k copies of ``inst`` now is refused, or None. ``available``: the hand (None: unknown)."""
    cards = inst * k
    need = Counter(cards)
    if available is not None:
        for card in sorted(need):
            if available[card] == 0:
                return f"{_card_word(card)} is not in your hand"
            if available[card] < need[card]:
                return (f"only {available[card]} {_card_word(card)} in your hand; this declaration needs "
                        f"{need[card]}")
    if k >= 2:
        for old in history:
            if old.combo.name == combo.name and old.instance == inst and old.copies == 1:
                what = multiple_name(combo.name, k)
                every = "both copies" if k == 2 else f"all {k} copies"
                return (f"a {what} needs {every} declared before any single {combo.name} was scored "
                        f"(declaration {old.number} scored one); now each copy scores only as another single "
                        f"{combo.name} ({combo.value(1)})")
    same_class = [old for old in history if old.combo.klass == combo.klass]
    used: Counter[Card] = Counter()
    for old in same_class:
        used.update(old.cards)
    for card in sorted(need):
        if available is not None:
            fresh = available[card] - min(used[card], available[card])
        else:
            fresh = rules.deck.copies - used[card]
        if fresh < need[card]:
            where = "; ".join(f"{multiple_name(old.combo.name, old.copies)}, declaration {old.number}"
                              for old in same_class if card in old.cards)
            return f"{_card_word(card)} already scored in the {combo.klass} class ({where})"
    return None


def check_declaration(rules: Ruleset, hand: Hand, trump: Suit | str, declare: Sequence[Card],
                      declared: Sequence[Sequence[Card]] = ()) -> Declaration:
    """Whether declaring ``declare`` now is allowed, and what it scores (two-handed meld).

    ``declared``: the combinations scored earlier, oldest first, each one declaration. The hand
    is every card the player holds (melded cards on the table included); a card of an earlier
    declaration that is still held is taken to be the copy that scored. An earlier declaration
    that could not have scored is bad input (``MeldError``).
    """
    trump = as_trump(trump)
    held = Counter(check_cards(rules, hand))
    rules.deck.check(declare)
    history: list[_Scored] = []
    for number, cards in enumerate(declared, start=1):
        rules.deck.check(cards)
        text = format_cards(sorted(cards))
        found, unpriced = _matches(rules, trump, cards)
        if not found:
            why = unpriced[0] if unpriced else f"not a combination of the {rules.name} meld table"
            raise MeldError(f"earlier declaration {number} ({text or 'no cards'}): {why}")
        reasons = []
        for combo, inst, k in sorted(found, key=lambda f: -f[0].value(f[2])):
            reason = _judge(rules, combo, inst, k, history, None)
            if reason is None:
                history.append(_Scored(number, combo, inst, k, tuple(sorted(cards))))
                break
            reasons.append(reason)
        else:
            raise MeldError(f"earlier declaration {number} ({text}) could not have scored: {reasons[0]}")
    cards = tuple(sorted(declare))
    found, unpriced = _matches(rules, trump, cards)
    if not found:
        why = unpriced[0] if unpriced else f"not a combination of the {rules.name} meld table"
        return Declaration(False, None, 0, f"{format_cards(cards) or 'no cards'}: {why}", cards)
    refusals = []
    for combo, inst, k in sorted(found, key=lambda f: -f[0].value(f[2])):
        reason = _judge(rules, combo, inst, k, history, held)
        if reason is None:
            pts = combo.value(k)
            return Declaration(True, combo.name, pts, f"allowed: {multiple_name(combo.name, k)} scores {pts}",
                               cards, k)
        refusals.append((combo, k, reason))
    combo, k, reason = refusals[0]
    return Declaration(False, combo.name, 0, reason, cards, k)
