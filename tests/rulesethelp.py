"""House-rules files made from a bundled ruleset (the ``edited_ruleset`` fixture's parts)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pinochle_cli.ruleset import Ruleset, load_ruleset_text

RULESETS = Path(__file__).resolve().parent.parent / "rulesets"


@dataclass(frozen=True)
class EditedRuleset:
    """A bundled ruleset's text with some lines changed, written to ``path``."""

    path: Path
    text: str

    def rules(self, options: dict[str, str] | None = None) -> Ruleset:
        """Loaded as text: messages name the file by its bare name (``house.yaml:3:1``)."""
        return load_ruleset_text(self.text, self.path.name, options)


EditRuleset = Callable[..., EditedRuleset]


def edit_ruleset_text(name: str, *changes: tuple[str, str]) -> str:
    """The bundled ruleset ``name`` with each (old, new) replaced once; each old text must be there."""
    text = (RULESETS / f"{name}.yaml").read_text(encoding="utf-8")
    for old, new in changes:
        assert old in text, f"{old!r} is not in {name}.yaml"
        text = text.replace(old, new, 1)
    return text
