"""The project's documentation as text that ships with the package (``pinochle docs``).

The pages live in ``docs/`` of the source tree and are installed as the ``pinochle_cli.docs.pages``
package data, so an installed program prints them without a clone.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import PinochleError

__all__ = ["TOPICS", "topic_text"]

TOPICS = {
    "records": ("records.md", "the record of a match: its keys, each deal's fields, what is checked"),
    "json": ("json.md", "the JSON output of every command"),
    "estimate": ("estimate.md", "how estimate models a deal, and its known biases"),
    "solver": ("solver.md", "the double-dummy solver: what it computes, how it searches"),
    "serve": ("serve.md", "the score page on every phone: what it shows, how it is kept safe"),
    "hint": ("hint.md", "the hint: the worlds, the inferences, why the sampling is uniform"),
    "api": ("api.md", "the library from Python: rulesets, cards, meld, tricks, a deal in progress (DealState)"),
    "play": ("play.md", "pinochle play: the session's commands, the advice, the review, the journal, its JSON"),
}


def _docs_dir() -> Path:
    here = Path(__file__).resolve().parent
    for candidate in (here / "pages", here.parent.parent / "docs"):
        if (candidate / "records.md").is_file():
            return candidate
    return here / "pages"


def topic_text(topic: str) -> str:
    """The text of one page (a key of ``TOPICS``).

    Raises PinochleError for an unknown page or one that cannot be read.
    """
    if topic not in TOPICS:
        raise PinochleError(f"no page {topic!r} (pages: {', '.join(TOPICS)})")
    path = _docs_dir() / TOPICS[topic][0]
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise PinochleError(f"{path}: cannot read the page: {exc.strerror or exc}") from None
