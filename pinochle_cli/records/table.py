"""The table of a match: its sides (teams, or players in games without partnerships), who
sits where, and how names are matched; ``read_table`` reads it from a record.

Names in a record are matched exactly (any case); ``Table.resolve`` also accepts unambiguous
abbreviations and initials (``NS`` for North-South) for the command line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ..errors import TableNameError
from ..game.bidding import spoken_list
from ..ruleset import Ruleset
from ..yamlsource import Node
from .layout import NAME, PLAYERS, RECORD, field_of, located, shaped

__all__ = ["Named", "Table", "read_table"]

# what a name stands for: ("side" | "player", side index, the player or None)
Named = tuple[Literal["side", "player"], int, str | None]


def _initials(name: str) -> str:
    return "".join(w[0] for w in re.split(r"[^0-9A-Za-z]+", name) if w).lower()


@dataclass(frozen=True)
class Table:
    """Who plays: the sides (teams, or players in games without partnerships) and the seats."""

    rules: Ruleset
    sides: tuple[str, ...]
    # players of each side
    members: tuple[tuple[str, ...], ...]
    # clockwise from seat 0
    seating: tuple[str, ...]
    # sides are teams (else each side is one player)
    teams: bool

    def seat_of(self, player: str) -> int:
        return self.seating.index(player)

    def side_of(self, player: str) -> int:
        """The side of ``player`` (a name as seated); raises ``TableNameError`` for a name not at the table."""
        for i, members in enumerate(self.members):
            if player in members:
                return i
        raise TableNameError(f"{player!r} is not at the table ({', '.join(self.seating)})")

    def side_of_seat(self, seat: int) -> int:
        return self.side_of(self.seating[seat])

    def side_of_partnership(self, index: int) -> int:
        """The side sitting at the ruleset's partnership ``index``."""
        return self.side_of_seat(self.rules.partnerships[index][0])

    def player(self, text: str) -> str | None:
        """The player named ``text`` (any case), or None."""
        return {p.lower(): p for p in self.seating}.get(text.strip().lower())

    def side(self, text: str) -> int | None:
        """The side named ``text`` (any case), or None."""
        return {s.lower(): i for i, s in enumerate(self.sides)}.get(text.strip().lower())

    def _names(self) -> list[Named]:
        if self.teams:
            sides: list[Named] = [("side", i, None) for i in range(len(self.sides))]
            return sides + [("player", self.side_of(p), p) for p in self.seating]
        return [("player", i, name) for i, name in enumerate(self.sides)]

    def _label(self, named: Named) -> str:
        return named[2] if named[2] is not None else self.sides[named[1]]

    def resolve(self, text: str, *, abbreviations: bool = False) -> Named:
        """A side or player name → (``side``|``player``, side index, player or None).

        With ``abbreviations``: also a unique prefix or initials (``NS`` for North-South).
        Raises ``TableNameError`` when nothing or more than one name fits.
        """
        candidates = self._names()
        key = text.strip().lower()
        exact = [c for c in candidates if self._label(c).lower() == key]
        if exact:
            return exact[0]
        if abbreviations and key:
            squeezed = re.sub(r"[^0-9a-z]", "", key)
            found = [c for c in candidates if _initials(self._label(c)) == squeezed]
            if not found:
                found = [c for c in candidates if self._label(c).lower().startswith(key)]
            if len(found) == 1:
                return found[0]
            if len(found) > 1:
                raise TableNameError(f"{text!r} is ambiguous: {', '.join(self._label(c) for c in found)}")
        names = ", ".join(self._label(c) for c in candidates)
        raise TableNameError(f"{text!r} is not at the table ({names})")

    def describe(self) -> str:
        if self.teams:
            return " v ".join(f"{s} ({', '.join(m)})" for s, m in zip(self.sides, self.members, strict=True))
        return " v ".join(self.sides)


# --------------------------------------------------------------------------- reading

def _teams(root: Node, rules: Ruleset) -> tuple[Node, list[str], list[tuple[str, ...]]]:
    """A partnership game's teams: (their node, the team names, each team's players)."""
    teams_node, players_node = root.get("teams"), root.get("players")
    if players_node is not None and teams_node is None:
        raise located(players_node, f"the {rules.name} game plays in partnerships: give teams (a name and "
                      "its players for each team)", field="players")
    if teams_node is not None and players_node is not None:
        raise located(players_node, "give teams or players, not both", field="players")
    if teams_node is None:
        raise located(root, f"missing teams (the {rules.name} game has {len(rules.partnerships)} teams of "
                      f"{len(rules.partnerships[0])})", field="teams")
    shaped(field_of(RECORD, "teams"), teams_node, "teams", kind_only=True)
    if len(teams_node.entries) != len(rules.partnerships):
        raise located(teams_node, f"{len(teams_node.entries)} teams given, the {rules.name} game has "
                      f"{len(rules.partnerships)}", field="teams")
    sides: list[str] = []
    members: list[tuple[str, ...]] = []
    for key, (key_node, value) in teams_node.entries.items():
        sides.append(shaped(NAME, key_node, "teams"))
        members.append(tuple(shaped(PLAYERS, value, f"teams.{key}")))
    return teams_node, sides, members


def _players(root: Node, rules: Ruleset) -> tuple[Node, list[str]]:
    """A game without partnerships: the players' node and names."""
    teams_node, players_node = root.get("teams"), root.get("players")
    if teams_node is not None:
        raise located(teams_node, f"the {rules.name} game has no partnerships: give players", field="teams")
    if players_node is None:
        raise located(root, f"missing players (the {rules.name} game has {rules.players})", field="players")
    names: list[str] = shaped(PLAYERS, players_node, "players")
    if len(names) != rules.players:
        raise located(players_node, f"{len(names)} players given, the {rules.name} game has {rules.players}",
                      field="players")
    return players_node, names


def _default_seating(rules: Ruleset, members: list[tuple[str, ...]], teams_node: Node) -> tuple[str, ...]:
    """Partners at the ruleset's partnership seats, in the order given."""
    seats: list[str | None] = [None] * rules.players
    for team, seats_of in zip(members, rules.partnerships, strict=True):
        if len(team) != len(seats_of):
            raise located(teams_node, f"a team of {len(team)} where the {rules.name} game seats {len(seats_of)}",
                          field="teams")
        for player, seat in zip(team, seats_of, strict=True):
            seats[seat] = player
    return tuple(p for p in seats if p is not None)


def _seated_wrong(everyone: list[str], resolved: list[str]) -> str:
    """What is wrong with a seating that does not seat everyone once: who sits twice, who not at all."""
    twice = [p for p in everyone if resolved.count(p) > 1]
    missing = [p for p in everyone if p not in resolved]
    parts = [f"{p} is seated {'twice' if resolved.count(p) == 2 else f'{resolved.count(p)} times'}" for p in twice]
    if missing:
        parts.append(f"{spoken_list(missing)} {'is' if len(missing) == 1 else 'are'} missing")
    return "; ".join(parts)


def _seating(rules: Ruleset, node: Node, sides: list[str], members: list[tuple[str, ...]]) -> tuple[str, ...]:
    """The seating given: every player once, partners at partnership seats."""
    given: list[str] = shaped(field_of(RECORD, "seating"), node, "seating")
    everyone = [p for m in members for p in m]
    lookup = {p.lower(): p for p in everyone}
    resolved = []
    for item, name in zip(node.items, given, strict=True):
        if name.lower() not in lookup:
            raise located(item, f"{name!r} is not at the table ({', '.join(everyone)})", field="seating")
        resolved.append(lookup[name.lower()])
    if sorted(resolved) != sorted(everyone):
        raise located(node, f"every player sits once: {_seated_wrong(everyone, resolved)}", field="seating")
    wanted = {tuple(sorted(p)) for p in rules.partnerships}
    for team_name, team in zip(sides, members, strict=True):
        seats_of = tuple(sorted(resolved.index(p) for p in team))
        if seats_of not in wanted:
            raise located(node, f"{spoken_list(team)} ({team_name}) sit at seats {list(seats_of)}; partners sit "
                          f"at seats {' or '.join(str(list(w)) for w in sorted(wanted))}", field="seating")
    return tuple(resolved)


def read_table(root: Node, rules: Ruleset) -> Table:
    """The table a record names: teams (partnership games) or players, and the seating."""
    partnered = any(len(p) > 1 for p in rules.partnerships)
    if partnered:
        names_node, sides, members = _teams(root, rules)
    else:
        names_node, sides = _players(root, rules)
        members = [(p,) for p in sides]
    everyone = [p for m in members for p in m]
    seen: set[str] = set()
    for p in everyone + (sides if partnered else []):
        if p.lower() in seen:
            raise located(names_node, f"the name {p!r} is used twice", field="teams" if partnered else "players")
        seen.add(p.lower())
    if len(everyone) != rules.players:
        raise located(names_node, f"{len(everyone)} players in the teams, the {rules.name} game has "
                      f"{rules.players}", field="teams")
    seating_node = root.get("seating")
    if seating_node is None:
        seating = _default_seating(rules, members, names_node)
    else:
        seating = _seating(rules, seating_node, sides, members)
    return Table(rules, tuple(sides), tuple(members), seating, partnered)
