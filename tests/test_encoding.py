"""The card encoding is named once (``cards``): the compiled and batch modules use the names, not the numbers.

A bare ``24`` (the deck), ``0x3F``/``63`` (one suit's cards in a mask) in those modules fails here; a module-level
constant of an upper-case name may be defined from a number (a layout of its own, such as a shift).
"""

from __future__ import annotations

import ast
from pathlib import Path

import numpy as np
import pytest

from pinochle_cli import cards
from pinochle_cli.cards import ALL_CARDS, N_CARDS, N_RANKS, N_SUITS, SUIT_MASK, Card, Rank, Suit
from pinochle_cli.game.kernels import low_bit, lowest_card
from pinochle_cli.game.machine_code import engine_modules
from pinochle_cli.game.trick_rules import suit_masks
from pinochle_cli.player import exchange, play
from pinochle_cli.solver import general, keys, ordering, search

PACKAGE = Path(cards.__file__).resolve().parent
# every module that compiles code, and the rules it compiles
COMPILED = sorted({m.replace(".", "/") + ".py" for m in engine_modules()} | {"game/trick_rules.py"})
BARE = {24, 63}  # N_CARDS, SUIT_MASK (0x3F is 63 to the parser)


def _is_constant_definition(node: ast.AST) -> bool:
    """A module-level ``NAME = …`` (or ``A, B = …``) of upper-case names: where a number gets its name."""
    if not isinstance(node, ast.Assign | ast.AnnAssign):
        return False
    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
    names = [t for target in targets for t in (target.elts if isinstance(target, ast.Tuple) else [target])]
    return all(isinstance(t, ast.Name) and t.id.lstrip("_").isupper() for t in names)


def bare_numbers(path: Path) -> list[str]:
    """The bare ``24``/``63`` of a module outside its constant definitions, as ``file:line: source``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed = {id(n) for stmt in tree.body if _is_constant_definition(stmt) for n in ast.walk(stmt)}
    lines = path.read_text(encoding="utf-8").splitlines()
    return [f"{path.name}:{n.lineno}: {lines[n.lineno - 1].strip()}" for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and type(n.value) is int and n.value in BARE and id(n) not in allowed]


@pytest.mark.parametrize("module", COMPILED)
def test_the_compiled_and_batch_modules_name_the_encoding(module: str) -> None:
    found = bare_numbers(PACKAGE / module)
    assert not found, "use cards.N_CARDS / cards.SUIT_MASK (or a named constant of its own):\n" + "\n".join(found)


def test_the_check_sees_a_bare_number(tmp_path: Path) -> None:
    src = tmp_path / "m.py"
    src.write_text("LAYOUT = 24\nA, B = 24, 63\n\n\ndef f(x):\n    return x & 0x3F, [0] * 24\n")
    assert [line.split(": ", 1)[0] for line in bare_numbers(src)] == ["m.py:6", "m.py:6"]


def test_the_names_are_the_card_index() -> None:
    assert (len(Suit), len(Rank), len(ALL_CARDS), 0x3F) == (N_SUITS, N_RANKS, N_CARDS, SUIT_MASK)
    for card in ALL_CARDS:
        assert card.index == int(card.suit) * N_RANKS + int(card.rank)
    masks = suit_masks()
    for s in Suit:
        assert int(masks[s]) == sum(1 << c.index for c in ALL_CARDS if c.suit is s) == SUIT_MASK << (N_RANKS * s)


@pytest.mark.parametrize("module", [play, exchange, keys, ordering, general])
def test_each_compiled_module_reads_the_names_as_its_own_globals(module: object) -> None:
    """numba reads a module's global ints as compile-time constants: the names are imported, not looked up."""
    source = Path(module.__file__).read_text(encoding="utf-8")  # type: ignore[attr-defined]
    used = [name for name in ("N_RANKS", "N_SUITS", "SUIT_MASK") if name in source]
    assert used
    for name in used:
        assert getattr(module, name) == getattr(cards, name)


def test_one_low_bit_helper() -> None:
    assert play.low_bit is low_bit and search.low_bit is low_bit
    masks = [1, 2, 0b1100, 1 << 23, (1 << 24) - 1, 0b101 << 17]
    assert [lowest_card(m) for m in masks] == [0, 1, 2, 23, 0, 17]
    if low_bit is lowest_card:  # numba's intrinsic is not there (or NUMBA_DISABLE_JIT)
        return
    numba = pytest.importorskip("numba")

    @numba.njit
    def lows(ms: np.ndarray) -> np.ndarray:
        out = np.zeros_like(ms)
        for i in range(ms.shape[0]):
            out[i] = low_bit(ms[i])
        return out

    assert list(lows(np.array(masks, dtype=np.int64))) == [0, 1, 2, 23, 0, 17]


def test_the_solver_arrays_by_name() -> None:
    from pinochle_cli.ruleset import load_ruleset
    from pinochle_cli.solver.solve import Solver

    rules = load_ruleset("single-deck")
    solver = Solver(rules, Suit.H, table_bits=10)
    assert solver.par[search.PAR_PLAYERS] == rules.players
    assert solver.par[search.PAR_TRUMP] == int(Suit.H)
    assert solver.par[search.PAR_LAST_TRICK] == rules.last_trick
    assert solver.tab.shape == (search.TAB_CLASS + 1, N_CARDS)
    assert list(solver.tab[search.TAB_COUNTER]) == [rules.counter_value(c) for c in ALL_CARDS]
    assert solver.stats.shape == (search.STAT_GENERATION + 1,)
    assert Card.parse("AH").index == int(Suit.H) * N_RANKS
