"""The rules of a game in words, generated from its ruleset: what ``docs/games/NAME.md`` holds.

``rules_text(rules)`` describes the game as the engine plays it — the deal, counters, auction,
trump and pass, meld table, duties in play, scoring and match, and the options with what each
choice changes — in Markdown that reads as plain text in a terminal. Every sentence is built
from the ruleset's data, so a copied and edited file documents itself the same way.
``rules_sections`` gives the same text section by section, ``rules_json`` as data.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import yaml

from .rules import Combination, Duty, OptionSpec, Outcome, Ruleset

__all__ = ["outcome_text", "redeal_text", "rules_json", "rules_sections", "rules_text"]

_COPIES = ["one", "two", "three", "four", "five", "six"]
_OUTCOMES = {
    "minus-bid": "lose the bid", "minus-double-bid": "lose twice the bid", "meld": "score their meld",
    "meld-and-counters": "score their meld and counters", "nothing": "score nothing",
}
_ALONE = {
    "minus-bid": "loses the bid", "minus-double-bid": "loses twice the bid", "meld": "scores their meld",
    "meld-and-counters": "scores their meld and counters", "nothing": "scores nothing",
}
_LEADERS = {"bidder": "the bidder", "dealer-left": "the player at the dealer's left"}
_FORBIDDEN = {"melded": "a card shown in meld", "trump": "a trump", "counter": "a card that counts"}


def _and(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def _points(points: int) -> str:
    return f"{points} point" + ("" if points == 1 else "s")


def outcome_text(outcome: Outcome, *, alone: bool = False) -> str:
    """What each side scores, in words; ``alone``: the bidder against players who each score alone."""
    if alone:
        return f"the bidder {_ALONE[outcome.bidders]}, each opponent {_ALONE[outcome.defenders]}"
    return f"the bidders {_OUTCOMES[outcome.bidders]}, the defenders {_OUTCOMES[outcome.defenders]}"


def redeal_text(rules: Ruleset) -> str:
    """The hand that may call a redeal ("at least 5 × 9, no A"), or "" when none may."""
    parts = [f"at least {n} × {r.label}" for r, n in rules.redeal_at_least.items()]
    parts += [f"no {r.label}" if n == 0 else f"at most {n} × {r.label}" for r, n in rules.redeal_at_most.items()]
    return ", ".join(parts)


def _seats(rules: Ruleset) -> str:
    if rules.sides_by_auction:
        return (f"{rules.players} players and no fixed partnerships: in each deal the bidder plays alone against "
                f"the other {rules.players - 1}, who play as partners for that deal; every player scores alone")
    if all(len(team) == 1 for team in rules.partnerships):
        return f"{rules.players} players, each playing alone"
    sides = [" and ".join(str(s) for s in team) for team in rules.partnerships]
    return (f"{rules.players} players in {len(sides)} partnerships: seats {' against seats '.join(sides)} "
            "(clockwise from 0)")


def _deal(rules: Ruleset) -> list[str]:
    deck = rules.deck
    lines = [
        f"- {_seats(rules)}.",
        f"- {deck.size} cards: {' '.join(r.label for r in rules.rank_order)} (high to low) in "
        f"{' '.join(s.symbol for s in rules.suits)}, {_COPIES[deck.copies - 1] if deck.copies <= 6 else deck.copies}"
        f" of each; {rules.hand_size} cards each.",
        f"- Stock: {rules.stock_size} cards, drawn one each after every trick, the winner first"
        + ("; its bottom card is turned up for trump and drawn last." if rules.turn_up_trump else ".")
        if rules.has_stock else _widow_dealt(rules),
    ]
    if redeal_text(rules):
        lines.append(f"- A hand with {redeal_text(rules)} may call a redeal.")
    return lines


def _widow_dealt(rules: Ruleset) -> str:
    if rules.widow is None:
        return "- No stock: every card is dealt."
    return (f"- Widow: {rules.widow_size} cards dealt aside, face down, for the bidder; no stock: every other "
            "card is dealt.")


def _counters(rules: Ruleset) -> list[str]:
    cards = ", ".join(f"{r.label} {v}" for r, v in rules.counters.items() if v)
    buried = " in all, the buried cards included" if rules.bury is not None else " in all"
    return [f"Cards captured in tricks count {cards}; the last trick adds {rules.last_trick}. "
            f"A deal holds {_points(rules.counter_total)}{buried}."]


def _widow(rules: Ruleset) -> list[str]:
    """The widow and the bury, for a game that has them."""
    if rules.widow is None or rules.bury is None:
        return []
    n, bury = rules.widow_size, rules.bury
    shown = ("turns the widow face up for everyone to see and takes it" if rules.widow.shown
             else "takes the widow without showing it")
    when = "once the meld is shown" if bury.when == "after-meld" else "before anyone melds"
    forbidden = f" The bidder may not bury {_or([_FORBIDDEN[f] for f in bury.forbidden])}." if bury.forbidden else ""
    bidder = "the bidder" if rules.sides_by_auction or len(rules.partnerships) == rules.players else "the bidding side"
    whose = (f"count for {bidder} at the end of the deal" if bury.counters == "bidder"
             else "go to the winner of the last trick")
    return [f"After the auction the bidder {shown} ({rules.largest_hand} cards), then names trump. {when.capitalize()}"
            f", the bidder buries {n} cards face down, back to {rules.hand_size}.{forbidden} The counters in the "
            f"buried cards {whose}; the buried cards are not a trick."]


def _or(words: Sequence[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def _auction(rules: Ruleset) -> list[str]:
    auction = rules.auction
    if auction is None:
        return ["No auction: nobody bids."]
    stuck = (f"If all the others pass, the dealer must take the minimum {auction.minimum}."
             if auction.dealer_stuck else "If everyone passes, the hand is thrown in.")
    said = [f"From the dealer's left, clockwise. The minimum bid is {auction.minimum}; the bids allowed run "
            f"{auction.describe_steps()}. {auction.pass_rule[0].upper()}{auction.pass_rule[1:]}. {stuck}"]
    return said + (["", rules.conventions.describe()] if rules.conventions is not None else [])


def _trump(rules: Ruleset) -> list[str]:
    if rules.trump_source == "turn-up":
        lines = ["Trump is the suit of the stock's turned-up card."]
    elif rules.trump_needs:
        lines = [f"The bidder names trump: a suit in which they hold the {rules.trump_requirement()}."]
        if rules.scoring.no_trump is not None:
            lines.append(f"Holding no such suit, the deal ends at once: {outcome_text(rules.scoring.no_trump)}.")
    else:
        lines = ["The bidder names any suit as trump."]
    if rules.exchange:
        lines.append(f"Then the partner passes {rules.exchange} cards to the bidder, and the bidder passes "
                     f"{rules.exchange} back (they may include cards just received).")
    elif rules.auction is not None:
        lines.append("No cards are passed.")
    return [" ".join(lines)]


def _combination_points(combo: Combination) -> str:
    if len(combo.points) == 1:
        return f"{combo.points[0]} for each copy"
    return ", ".join(f"{_COPIES[i] if i < len(_COPIES) else i + 1}: {p}" for i, p in enumerate(combo.points))


def _meld(rules: Ruleset) -> list[str]:
    rows = ["| combination | class | cards | points (copies declared together) |", "|---|---|---|---|"]
    rows += [f"| {c.label or c.name} | {c.klass} | {' '.join(str(p) for p in c.pattern)} | {_combination_points(c)} |"
             for c in rules.meld]
    return [
        f"{_melders(rules)} In the cards, `+` is the "
        "trump suit, `*` one suit that is not trump, `?` any one suit. A card counts at most once within "
        f"a class ({', '.join(rules.meld_classes)}), and may count again in another class.",
        "", *rows,
    ]


def _melders(rules: Ruleset) -> str:
    """Who melds, from which cards, and who adds it up."""
    widow = f" (the bidder from the {rules.largest_hand} cards with the widow)" if rules.widow_size else ""
    if rules.melders == "bidder":
        whose = "; the others do not meld" + ("." if rules.sides_by_auction else ", and the bidding side scores it.")
        return f"Only the bidder melds, from their own hand{widow}{whose}"
    if rules.sides_by_auction:
        return f"Each player melds from their own hand{widow}, and each keeps their own meld."
    return f"Each player melds from their own hand{widow}; a side adds its players' meld."


def _play(rules: Ruleset) -> list[str]:
    def duties(items: Iterable[Duty]) -> str:
        listed = [d.describe() for d in items]
        return "; then ".join(listed) if listed else "any card may be played"

    lines = [f"{_LEADERS[rules.play.leader].capitalize()} leads the first trick; the winner of a trick leads "
             "the next. A trick is won by its highest trump, or without a trump by the highest card of the suit "
             "led; of identical cards the one played first wins.",
             "",
             "A player who does not lead must, in this order, each narrowing the cards allowed: "
             f"{duties(rules.play.duties)}. A duty the player cannot meet lapses; once a plain lead has been "
             "trumped, a card of the suit led cannot beat, so any card of that suit may go."]
    if rules.has_stock:
        lines += ["", f"While the stock lasts: {duties(rules.play.stock_duties)}."]
    if rules.sides_by_auction:
        lines += ["", "For the deal the bidder's opponents play as partners: each is the other's partner "
                      "wherever a duty speaks of a partner."]
    return lines


def _scoring(rules: Ruleset) -> list[str]:
    sc = rules.scoring
    alone = rules.sides_by_auction
    need = {"trick": "takes at least one trick",
            "counter": f"takes at least {_points(sc.counter_minimum)} in counters", "always": ""}
    if alone:
        need = {k: v.replace("takes", "themselves take") for k, v in need.items()}
    who = "A player keeps their" if alone else "A side keeps its"
    keep = (f"{who} meld only if {'they' if alone else 'it'} {need[sc.keep_meld]}" if sc.keep_meld != "always"
            else f"{who.replace('keeps', 'always keeps')} meld")
    if rules.bury is not None and sc.keep_meld != "always":
        keep += " (the buried cards are not a trick)"
    if sc.kept_if_only:
        keep += f", except a meld made only of {_and(list(sc.kept_if_only))}, which is always kept"
    lines = [f"- {keep}."]
    if rules.auction is None:
        return [*lines, "- Each player scores their meld and the counters they took."]
    lines.append(_made_text(rules, need))
    lines.append(f"- Set (short of the bid): {outcome_text(sc.set, alone=alone)}.")
    bidders = "bidder's" if alone else "bidders'"
    for outcome, when in ((sc.not_on_board, f"Not on board (the {bidders} meld plus all {rules.counter_total} "
                                            "counters is below the bid; the deal ends after the meld)"),
                          (sc.concede, f"Thrown in (the {'bidder concedes' if alone else 'bidders concede'} "
                                       "after the meld)")):
        if outcome is not None:
            lines.append(f"- {when}: {outcome_text(outcome, alone=alone)}.")
    return lines


def _made_text(rules: Ruleset, need: Mapping[str, str]) -> str:
    """When the bid is made, and what everyone scores then."""
    sc = rules.scoring
    buried = " (the buried cards included)" if rules.bury is not None and rules.bury.counters == "bidder" else ""
    if rules.sides_by_auction:
        made = "reach the bid" + ("" if sc.made_needs == "nothing" else f" and they {need[sc.made_needs]}")
        return (f"- The bidder makes the bid when their meld and counters{buried} together {made}: then the bidder "
                f"{_ALONE[sc.made]}, and each opponent {_ALONE['meld-and-counters']}.")
    made = "reach the bid" + ("" if sc.made_needs == "nothing" else f" and it {need[sc.made_needs]}")
    return (f"- The bidding side makes its bid when its meld and counters{buried} together {made}: then the bidders "
            f"{_OUTCOMES[sc.made]}, and the defenders {_OUTCOMES['meld-and-counters']}.")


def _match(rules: Ruleset) -> list[str]:
    m = rules.match
    many = len(rules.partnerships) > 2
    both = {"bidders": "the bidding side wins", "higher": "the higher score wins"}[m.both_reach]
    tie = {"another-deal": "another deal is played", "draw": "the match is drawn"}[m.tie]
    if many:
        both = {"bidders": "the bidder wins if among them, otherwise the higher total",
                "higher": "the highest total wins"}[m.both_reach]
    if m.target is not None:
        side, several = ("player", "two or more") if many else ("side", "both")
        return [f"The first {side} to reach {m.target} wins, checked after each deal; if {several} reach it on the "
                f"same deal, {both}; on an exact tie {tie}. Scores may go below zero."]
    return [f"The higher total after {m.deals} deals wins; on an exact tie {tie}."]


def _patch_text(patch: Mapping[str, Any]) -> str:
    if not patch:
        return "the rules above"
    # as the ruleset file writes it
    def flow(value: Any) -> str:
        text: str = yaml.safe_dump(value, default_flow_style=True, allow_unicode=True, sort_keys=False, width=1 << 30)
        return text.removesuffix("\n").removesuffix("\n...")

    return "; ".join(f"`{path}: {flow(value)}`" for path, value in patch.items())


def _options(options: Sequence[OptionSpec], chosen: Mapping[str, str]) -> list[str]:
    if not options:
        return ["None: copy the file to change a rule (`pinochle rulesets copy`)."]
    lines = ["Chosen with `-o NAME=CHOICE` (repeatable), or in a record's `options:`. "
             "Each choice patches the rules (a dotted path into the ruleset file; in a list, the item of that name)."]
    for o in options:
        lines += ["", f"`{o.name}` — {o.description} (default `{o.default}`"
                  + ("" if chosen.get(o.name, o.default) == o.default else f", now `{chosen[o.name]}`") + "):", ""]
        lines += [f"- `{c}`: {_patch_text(o.patches.get(c, {}))}" for c in o.choices]
    return lines


def _intro(rules: Ruleset) -> list[str]:
    """The lines under the title: the description, the other names, where the text comes from."""
    head = [rules.description or "A pinochle game."]
    if rules.aliases:
        head += ["", f"Also called: {', '.join(rules.aliases)}."]
    return [*head, "", f"Generated from the ruleset by `pinochle rulesets show {rules.name} --rules`: these are "
                       "the rules the program plays, scores and checks."]


def rules_sections(rules: Ruleset) -> list[tuple[str, str]]:
    """Each section of the rules: its title and its text (Markdown), in order, with the options chosen."""
    sections = [("The deal", _deal), ("Counters", _counters), ("Auction", _auction), ("The widow", _widow),
                ("Trump and the pass", _trump), ("Meld", _meld), ("Play", _play), ("Scoring a deal", _scoring),
                ("The match", _match)]
    # a section with nothing to say (no widow) is left out
    out = [(title, "\n".join(text)) for title, build in sections if (text := build(rules))]
    return [*out, ("Options", "\n".join(_options(rules.options, rules.chosen)))]


def _title(rules: Ruleset, title: str | None) -> str:
    """``title``, or by default the game's name and the options away from their defaults
    (``single-deck (beat-partner=no, last-trick=20)``)."""
    changed = ", ".join(f"{k}={v}" for k, v in rules.changed_options.items())
    return title or rules.name + (f" ({changed})" if changed else "")


def rules_text(rules: Ruleset, title: str | None = None) -> str:
    """The whole game in words (Markdown), as the engine plays it with the options chosen, headed by
    ``title`` (by default the name and the options changed, see ``_title``). Raises nothing."""
    out = [f"# {_title(rules, title)}", "", *_intro(rules)]
    for title, text in rules_sections(rules):
        out += ["", f"## {title}", "", text]
    return "\n".join(out) + "\n"


def rules_json(rules: Ruleset, title: str | None = None) -> dict[str, Any]:
    """The same rules as data: ``{"name", "title", "intro", "sections": [{"title", "text"}]}`` (texts in Markdown)."""
    return {"name": rules.name, "title": _title(rules, title), "intro": "\n".join(_intro(rules)),
            "sections": [{"title": title, "text": text} for title, text in rules_sections(rules)]}
