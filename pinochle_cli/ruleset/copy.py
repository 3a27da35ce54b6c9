"""House rules in one step: a ruleset file copied under a new name, its comments kept.

``copy_text`` returns the text of the copy: a header saying where it came from and how to use
it, then the original file line for line, with ``name:`` replaced, ``aliases:`` dropped (they
belong to the original) and ``source:`` saying what it was copied from. The copy is loaded
before it is returned, so what is written is always a valid ruleset with the new name.
"""

from __future__ import annotations

import errno
import json
import os
import re
from pathlib import Path

from ..errors import Argument, Message, RulesetError, YamlError
from ..yamlsource import Node, load_text, read_source
from .loading import bundled_path, load_ruleset, load_ruleset_text
from .rules import Ruleset

__all__ = ["copy_text", "write_copy"]

_PLAIN = re.compile(r"[A-Za-z][\w .'&-]*[\w.]|[A-Za-z]")


def _scalar(text: str) -> str:
    """A YAML scalar for ``text``: as written when it reads back the same, else a quoted string."""
    return text if _PLAIN.fullmatch(text) and text.lower() not in ("yes", "no", "true", "false", "null", "on", "off") \
        else json.dumps(text, ensure_ascii=False)


def _top_key_lines(root: Node) -> dict[str, int]:
    """The 0-based line of each top-level key."""
    return {key: key_node.line - 1 for key, (key_node, _) in root.entries.items()}


def _header(rules: Ruleset, name: str, file_name: str) -> list[str]:
    return _header_lines(rules.name, name, file_name)


def _header_lines(copied_from: str, name: str, file_name: str) -> list[str]:
    return [
        f"# {name}: house rules, copied from the {copied_from} ruleset by `pinochle rulesets copy`.\n",
        "# Change any value below, then check the file and play it:\n",
        f"#   pinochle rulesets check {file_name}\n",
        f'#   pinochle meld "..." -r {file_name}      (or: export PINOCHLE_RULESET=/full/path/{file_name})\n',
        f"# A record started with `pinochle record new night.yaml -r {file_name}` names this file by its path\n",
        "# from the record's folder: keep the two together. The options at the end patch the rules above\n",
        "# (-o NAME=CHOICE); a patch that names a list item, such as play.duties.beat, needs that item.\n",
        "\n",
    ]


# each line of the header, whatever the names in it
_HEADER_LINE = [re.compile(".*".join(re.escape(part) for part in line.split("\0")))
                for line in _header_lines("\0", "\0", "\0")]


def _own_header(lines: list[str]) -> int:
    """How many of the first ``lines`` are the header a copy starts with (0: none)."""
    shown = lines[:len(_HEADER_LINE)]
    fits = len(shown) == len(_HEADER_LINE) and all(p.fullmatch(line) for p, line in zip(_HEADER_LINE, shown,
                                                                                           strict=True))
    return len(_HEADER_LINE) if fits else 0


def copy_text(rules: Ruleset, name: str, file_name: str) -> str:
    """The text of a copy of ``rules``'s file named ``name`` (``file_name``: how the header calls it).
    Raises ``RulesetError`` for an empty name, a bundled name, or a file without a ``name:`` line."""
    name = " ".join(name.split())
    # before anything is built from it: a control character would only show as a YAML error in the copy
    if not name.isprintable():
        raise RulesetError(Message(Argument("name", repr(name)), ": a name is one line of printable characters"))
    if not name:
        raise RulesetError(Message(Argument("name"), " is empty: give the copy a name of its own, e.g. ",
                                   Argument("name", '"Friday rules"', assigned=True)))
    if bundled_path(name) is not None:
        raise RulesetError(Message(f"{name!r} names a bundled ruleset: give the copy a name of its own (e.g. ",
                                   Argument("name", f'"{name} at our table"', assigned=True), ")"))
    try:
        text = read_source(rules.path)
        keys = _top_key_lines(load_text(text, rules.path))
    except YamlError as exc:
        raise RulesetError(str(exc)) from None
    lines = text.splitlines(keepends=True)
    # a copy of a copy: its header is replaced, not stacked
    skip = _own_header(lines)
    starts = sorted(keys.values())
    replace = {"name": f"name: {_scalar(name)}\n",
               "source": f"source: {_scalar(f'copied from the {rules.name} ruleset')}\n"}
    out: list[str] = []
    for i, line in enumerate(lines):
        if i < skip:
            continue
        key = next((k for k, at in keys.items() if at == i), None)
        if key == "aliases" or _inside(i, keys.get("aliases"), starts):
            continue
        out.append(replace.get(key, line) if key is not None else line)
    copied = "".join(_header(rules, name, file_name) + out)
    if "name" not in keys:
        raise RulesetError(f"{rules.path}: the ruleset has no name: line to replace")
    load_ruleset_text(copied, file_name)
    return copied


def _inside(line: int, start: int | None, starts: list[int]) -> bool:
    """Is ``line`` part of the top-level entry that starts at ``start`` (a block value on later lines)?"""
    if start is None or line <= start:
        return False
    following = [s for s in starts if s > start]
    return line < following[0] if following else True


def write_copy(rules: Ruleset, path: str, name: str | None = None, *, force: bool = False) -> Ruleset:
    """Write ``copy_text`` of ``rules`` to ``path`` (``name`` None: the file's name without ``.yaml``) and
    return the copy, loaded. The file is written whole or not at all (``safewrite.write_whole``): an
    existing file is replaced only with ``force`` and only once the copy is on disk, so a full disk
    leaves it as it was and a new path absent. Raises ``RulesetError`` (the name as ``copy_text``; an
    existing file without ``force``; a file that cannot be written)."""
    # here: the records package imports this one
    from ..records.safewrite import write_whole

    text = copy_text(rules, Path(path).stem if name is None else name, os.path.basename(path))
    existed = os.path.lexists(path)
    try:
        write_whole(path, text.encode("utf-8"), replace=force)
    except OSError as exc:
        if exc.errno == errno.EEXIST:
            raise RulesetError(Message(f"{path} exists: give another FILE, or ", Argument("force", True, assigned=True),
                                       " to replace it")) from None
        kept = "the file is unchanged" if existed else "no file was written"
        raise RulesetError(f"{path}: cannot write: {exc.strerror or exc}; {kept}") from None
    return load_ruleset(path)
