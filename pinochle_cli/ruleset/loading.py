"""Loading a ruleset: a bundled name, a file or text, with options applied, validated and cached.

Options are named choices whose values are patches (dotted path → value) on the document; the
patched document is validated again.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from functools import cache, lru_cache
from pathlib import Path

from ..errors import OptionError, RulesetError, YamlError
from ..schema import fail
from ..yamlsource import Node, load_node, load_text, read_source
from .description import RULESET_SCHEMA, TABLE_LIMIT
from .rules import SCHEMA_VERSION, OptionSpec, Ruleset

__all__ = [
    "DEFAULT_RULESET", "ENV_RULESET", "bundled_names", "bundled_path", "load_from_node", "load_ruleset",
    "load_ruleset_text", "parse_options", "split_key_value",
]

DEFAULT_RULESET = "single-deck"
ENV_RULESET = "PINOCHLE_RULESET"

# --------------------------------------------------------------------------- loading

def _rulesets_dir() -> Path:
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "rulesets", package.parent / "rulesets"):
        if candidate.is_dir():
            return candidate
    return package / "rulesets"


def bundled_names() -> list[str]:
    order = ["two-handed", "single-deck", "single-deck-small", "double-deck"]
    found = sorted(p.stem for p in _rulesets_dir().glob("*.yaml"))
    return [n for n in order if n in found] + [n for n in found if n not in order]


# compiled when first used: a name of a file needs no aliases
_ALIASES_LINE = r"^aliases:.*$"


def _file_aliases(path: Path) -> list[str]:
    """A ruleset file's ``aliases``, from its top-level ``aliases: [...]`` line when it has exactly one
    (so that a name is found without parsing every file), else from the whole file parsed."""
    try:
        lines = re.findall(_ALIASES_LINE, read_source(str(path)), re.MULTILINE)
    except YamlError:
        return []
    aliases = _line_aliases(lines[0], str(path)) if len(lines) == 1 else None
    if aliases is None:
        try:
            aliases = load_node(str(path)).get("aliases")
        except YamlError:
            return []
    return [a.raw for a in aliases.items] if aliases is not None and aliases.kind == "seq" else []


def _line_aliases(line: str, source: str) -> Node | None:
    """The list on one ``aliases:`` line; None when the line alone is not one (a block list, …)."""
    try:
        aliases = load_text(line, source).get("aliases")
    except YamlError:
        return None
    return aliases if aliases is not None and aliases.kind == "seq" else None


@cache
def _alias_map() -> dict[str, str]:
    """Every bundled alias (lower case) → its ruleset's name; the first file (``bundled_names``) wins."""
    out: dict[str, str] = {}
    for name in bundled_names():
        for alias in _file_aliases(_rulesets_dir() / f"{name}.yaml"):
            out.setdefault(alias.lower(), name)
    return out


def bundled_path(name: str) -> Path | None:
    """The bundled file of a name (its file name without ``.yaml``) or alias, in any case; names first."""
    key = name.strip().lower()
    real = {n.lower(): n for n in bundled_names()}.get(key) or _alias_map().get(key)
    return _rulesets_dir() / f"{real}.yaml" if real else None


def _shown(text: str, limit: int = 120) -> str:
    """A user's path or name for a message: shortened when absurdly long."""
    return text if len(text) <= limit else f"{text[:limit]}… ({len(text)} characters)"


def _resolve(spec: str | os.PathLike[str] | None, base: str | None = None) -> str:
    origin = ""
    if spec is None or str(spec) == "":
        spec = os.environ.get(ENV_RULESET) or DEFAULT_RULESET
        origin = f"${ENV_RULESET}: " if os.environ.get(ENV_RULESET) else ""
    text = str(spec)
    looks_like_path = os.path.sep in text or text.endswith((".yaml", ".yml"))
    bundled = None if looks_like_path else bundled_path(text)
    if bundled is not None:
        return str(bundled)
    candidate = Path(text) if base is None or os.path.isabs(text) else Path(base) / text
    try:
        exists = candidate.exists()
    # a name too long for the file system, …
    except OSError as exc:
        raise RulesetError(f"{origin}{_shown(str(candidate))}: cannot read: {exc.strerror or exc}") from None
    if exists:
        return str(candidate)
    if looks_like_path:
        raise RulesetError(f"{origin}{_shown(str(candidate))}: no such ruleset file")
    names = ", ".join(bundled_names())
    raise RulesetError(f"{origin}no bundled ruleset named {_shown(text)!r} and no such file (bundled: {names})")


def split_key_value(text: str) -> tuple[str, str] | None:
    """``KEY=VALUE`` → (key, value), each stripped and not empty; None when ``text`` is not that."""
    key, sep, value = text.partition("=")
    if not sep or not key.strip() or not value.strip():
        return None
    return key.strip(), value.strip()


def parse_options(pairs: Sequence[str]) -> dict[str, str]:
    """``KEY=VALUE`` strings from ``-o`` into a mapping; malformed or repeated keys are an ``OptionError``."""
    out: dict[str, str] = {}
    first: dict[str, str] = {}
    for pair in pairs:
        split = split_key_value(pair)
        if split is None:
            raise OptionError(f"option {pair!r} is not KEY=VALUE")
        key, value = split
        if key.lower() in first:
            raise OptionError(f"option {key!r} is given twice ({first[key.lower()]!r} and {pair!r}): give it once")
        first[key.lower()] = pair
        out[key] = value
    return out


def _item_index(seq: Node, key: str) -> int | None:
    """The list item a patch path names: by position from 0, or the item that is ``key`` or a mapping of it."""
    if key.isdigit():
        return int(key) if int(key) < len(seq.items) else None
    for i, item in enumerate(seq.items):
        if (item.kind == "scalar" and item.raw == key) or (item.kind == "map" and list(item.entries) == [key]):
            return i
    return None


def _patch(root: Node, dotted: str, value: Node, where: Node, option: str) -> None:
    """Set the value at a dotted path; in a list a key names an item (``play.duties.beat``) or counts from 0.
    The nodes on the path are copied first (``root`` already is one): the document itself is not changed."""
    keys = dotted.split(".")
    node = root
    for i, key in enumerate(keys):
        last = i == len(keys) - 1
        if node.kind == "seq":
            index = _item_index(node, key)
            if index is None:
                raise fail(where, f"options.{option}", f"patch path {dotted!r}: {'.'.join(keys[:i])} has no "
                                                      f"item {key!r} (items are named or counted from 0)")
            node.items[index] = value if last else _shallow(node.items[index])
            node = node.items[index]
            continue
        if node.kind != "map":
            raise fail(where, f"options.{option}", f"patch path {dotted!r}: {'.'.join(keys[:i])} is not a mapping")
        key_node = node.entries[key][0] if key in node.entries else where
        if last:
            node.entries[key] = (key_node, value)
        else:
            child = node.get(key)
            if child is None or (child.kind == "scalar" and child.value is None):
                child, key_node = Node("map", where.source, where.line, where.column), where
            node.entries[key] = (key_node, _shallow(child))
            node = node.entries[key][1]


def _shallow(node: Node) -> Node:
    return Node(node.kind, node.source, node.line, node.column, node.value, node.raw, list(node.items),
                dict(node.entries))


def _apply_choices(root: Node, chosen: Mapping[str, str]) -> Node:
    """The document with the chosen patches applied, without its options (so checking every choice
    costs the choices times the rest of the document, not times the options too)."""
    patched = Node(root.kind, root.source, root.line, root.column,
                   entries={k: entry for k, entry in root.entries.items() if k != "options"})
    options_node = root.get("options")
    for name, choice in chosen.items():
        option_node = options_node.get(name) if options_node else None
        choices_node = option_node.get("choices") if option_node else None
        patch = choices_node.get(choice) if choices_node else None
        for dotted, (_, value) in patch.entries.items() if patch is not None else ():
            _patch(patched, dotted, value, value, name)
    return patched


def _select(name: str, options: Sequence[OptionSpec], given: Mapping[str, str], source: str) -> dict[str, str]:
    by_name = {o.name: o for o in options}
    for key, value in given.items():
        match = {k.lower(): k for k in by_name}.get(key.lower())
        if match is None:
            valid = ", ".join(by_name) or "none"
            raise OptionError(f"{name} has no option {key!r} (its options: {valid})")
        choices = by_name[match].choices
        if str(value) not in choices:
            lowered = {c.lower(): c for c in choices}
            if str(value).lower() not in lowered:
                raise OptionError(f"option {match}={value!r} is not a choice (choices: {', '.join(choices)})")
    chosen: dict[str, str] = {}
    given_l = {k.lower(): str(v) for k, v in given.items()}
    for option in options:
        value = given_l.get(option.name.lower(), option.default)
        lowered = {c.lower(): c for c in option.choices}
        if value.lower() not in lowered:
            raise RulesetError(f"default {value!r} is not one of its choices", source=source,
                               path=f"options.{option.name}.default")
        chosen[option.name] = lowered[value.lower()]
    return chosen



def _check_version(root: Node) -> None:
    if root.kind != "map":
        raise RulesetError(f"a ruleset is a mapping, got {root.describe()}", source=root.source,
                           line=root.line, column=root.column)
    version = root.get("schema_version")
    if version is None:
        raise RulesetError(f"missing (required, and checked first; this program reads {SCHEMA_VERSION})",
                           source=root.source, line=root.line, column=root.column, path="schema_version")
    if version.kind != "scalar" or version.value != SCHEMA_VERSION or isinstance(version.value, bool):
        raise fail(version, "schema_version",
                   f"unsupported version {version.describe()} (this program reads {SCHEMA_VERSION})")


def load_from_node(root: Node, options: Mapping[str, str] | None = None, *, path: str = "",
                   bundled: bool = False) -> Ruleset:
    """Validate a parsed document, apply the chosen options, and build the ``Ruleset``.

    Every choice of every option must give a valid game, and no meld table may be too large to
    price; ``bundled``: a file shipped with the program, whose every choice and meld table the tests
    check (tests/test_ruleset.py), so that only the game chosen is validated at start-up.
    """
    _check_version(root)
    doc = RULESET_SCHEMA.check(root, "")
    specs: tuple[OptionSpec, ...] = doc.get("options", ())
    chosen = _select(doc["name"], specs, options or {}, root.source)
    defaults = {o.name: {c.lower(): c for c in o.choices}.get(o.default.lower(), o.default) for o in specs}
    # each choice, the other options at their defaults
    for spec in specs if not bundled else ():
        for choice in spec.choices:
            if choice != chosen.get(spec.name):
                RULESET_SCHEMA.check(_apply_choices(root, {**defaults, spec.name: choice}), "")
    patched = _apply_choices(root, chosen)
    rules = Ruleset(**RULESET_SCHEMA.check(patched, ""), options=specs, chosen=chosen, path=path or root.source)
    if not bundled:
        _check_meld_groups(rules, patched)
    return rules


def _check_meld_groups(rules: Ruleset, root: Node) -> None:
    """Combinations of one class that share cards are priced together from one table per group: a
    group of too many cards would take too long, and is refused."""
    # the largest group over every trump, the first of ties
    cells, klass, trump, cards = 0, "", rules.suits[0], 0
    for suit in rules.suits:
        for group in rules.meld_groups(suit):
            distinct = len({card for _, group_cards in group for card in group_cards})
            size = (rules.deck.copies + 1) ** distinct * (len(group) + 1)
            if size > cells:
                cells, klass, trump, cards = size, rules.meld[group[0][0]].klass, suit, distinct
    if cells > TABLE_LIMIT:
        node = root.get("meld") or root
        raise fail(node, "meld", f"the combinations of class {klass!r} share cards so widely that with "
                                 f"{trump.word} as trump they form one group of {cards} different cards, too "
                                 f"many to price quickly ({cells:,} table cells, at most {TABLE_LIMIT:,}): "
                                 f"give them fewer cards in common, or split the class")


def load_ruleset(spec: str | os.PathLike[str] | None = None, options: Mapping[str, str] | None = None,
                 *, base: str | None = None, **choices: str | int) -> Ruleset:
    """Load a bundled ruleset by name (or alias, any case) or a YAML file by path.

    ``spec`` None: ``$PINOCHLE_RULESET`` or ``single-deck``. ``options``: choices by option name; or as keywords,
    an underscore for each dash (``load_ruleset("single-deck", target=1000, must_trump="if-it-wins")``).
    ``base``: folder that relative paths are read from (a record's folder).
    """
    path = _resolve(spec, base)
    chosen = {**(options or {}), **{name.replace("_", "-"): str(value) for name, value in choices.items()}}
    return _load_cached(path, tuple(sorted(chosen.items())), _mtime(path))


def _mtime(path: str) -> float:
    try:
        return os.stat(path).st_mtime
    except OSError:
        return 0.0


@lru_cache(maxsize=64)
def _load_cached(path: str, options: tuple[tuple[str, str], ...], _mtime: float) -> Ruleset:
    try:
        root = load_node(path)
    except YamlError as exc:
        raise RulesetError(str(exc)) from None
    return load_from_node(root, dict(options), path=path, bundled=Path(path).parent == _rulesets_dir())


def load_ruleset_text(text: str, source: str = "<ruleset>", options: Mapping[str, str] | None = None) -> Ruleset:
    """Load a ruleset from YAML text (tests, embedded house rules)."""
    try:
        root = load_text(text, source)
    except YamlError as exc:
        raise RulesetError(str(exc)) from None
    return load_from_node(root, options, path=source)


