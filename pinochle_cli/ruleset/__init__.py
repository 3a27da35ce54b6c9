"""Rulesets: YAML files validated into a frozen ``Ruleset`` that the engine reads.

Everything the game does comes from here: the deck, seats, counters, trick duties, the meld
table, the auction, trump eligibility, the exchange, deal scoring, the match and options. No
code anywhere asks which ruleset it holds.

The parts: ``rules`` (the ``Ruleset`` and its pieces), ``description`` (the format, declared
once: the validator and the JSON Schema), ``loading`` (names, files, options, the cache),
``vocabulary`` (the words of the rules), ``conventions`` (what the calls of an auction
show), ``rulebook`` (the rules in words) and ``copy`` (house rules: a ruleset file copied
under a new name).
"""

from __future__ import annotations

from .conventions import Conventions, load_conventions
from .description import (
    MAX_CARD_POINTS,
    MAX_CHOICES,
    MAX_COMBINATION_CARDS,
    MAX_COMBINATIONS,
    MAX_COPIES,
    MAX_OPTIONS,
    MAX_PLAYERS,
    MAX_POINTS,
    RULESET_SCHEMA,
    TABLE_LIMIT,
    ruleset_json_schema,
    ruleset_schema_json_text,
)
from .loading import (
    DEFAULT_RULESET,
    ENV_RULESET,
    bundled_names,
    bundled_path,
    load_from_node,
    load_ruleset,
    load_ruleset_text,
    parse_options,
    split_key_value,
)
from .rules import (
    SCHEMA_VERSION,
    Auction,
    CardPattern,
    Combination,
    Duty,
    Match,
    OptionSpec,
    Outcome,
    PlayRules,
    Ruleset,
    Scoring,
    Stock,
)

__all__ = [
    "DEFAULT_RULESET", "ENV_RULESET", "MAX_CARD_POINTS", "MAX_CHOICES", "MAX_COMBINATIONS", "MAX_COMBINATION_CARDS",
    "MAX_COPIES", "MAX_OPTIONS", "MAX_PLAYERS", "MAX_POINTS", "RULESET_SCHEMA", "SCHEMA_VERSION", "TABLE_LIMIT",
    "Auction", "CardPattern", "Combination", "Conventions", "Duty", "Match", "OptionSpec", "Outcome", "PlayRules",
    "Ruleset", "Scoring", "Stock", "bundled_names", "bundled_path", "json_schema", "load_conventions",
    "load_from_node", "load_ruleset", "load_ruleset_text", "parse_options", "ruleset_json_schema",
    "ruleset_schema_json_text", "split_key_value",
]

# the name this package exported before the schemas of rulesets and records were told apart
json_schema = ruleset_json_schema
