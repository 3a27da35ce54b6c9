"""The hint keeps its time in every game, says when it was cut short or judged too few worlds, tells how each card
was judged and the best card's margin, judges worlds in order whatever the threads, and answers on the first run
after an install while the engine is built.

The time bounds here are generous (the machine running the tests is busy): the figures of a quiet machine are
``benchmarks/bench_hint_pace.py``'s.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from clihelp import run_cli

from pinochle_cli.game.deal import deal_cards
from pinochle_cli.game.state import DealState
from pinochle_cli.hint.advice import RELIABLE_WORLDS, hint, hint_facts
from pinochle_cli.hint.facts import facts_of
from pinochle_cli.hint.judging import judge_worlds
from pinochle_cli.hint.values import Plan, plan_for
from pinochle_cli.meld import shown_cards
from pinochle_cli.player.seat import computer_card
from pinochle_cli.ruleset import bundled_names, load_ruleset

ROOT = Path(__file__).resolve().parent.parent


def opening(name: str, seed: int = 2, cards: int = 0) -> DealState:
    """A deal of ``name`` at its first card (the computer playing ``cards`` cards on), the contract and meld given."""
    rules = load_ruleset(name)
    hands, stock = deal_cards(rules, np.random.default_rng(seed))
    bidder = 0
    trump = (rules.eligible_trumps(hands[bidder]) or list(rules.suits))[0]
    if rules.has_stock:
        trump = stock[-1].suit
    shown = {} if rules.has_stock else {s: shown_cards(rules, hands[s], trump) for s in range(rules.players)
                                        if rules.melders == "all" or s == bidder}
    bid = rules.auction.minimum if rules.auction is not None else None
    state = DealState.at_play(rules, trump, bidder=bidder if bid is not None else None, bid=bid, hands=hands,
                              shown=shown, stock=stock if rules.has_stock else None)
    for _ in range(cards):
        state.play(computer_card(state))
    return state


@pytest.mark.parametrize("name", bundled_names())
def test_the_hint_keeps_its_time_from_the_first_card_in_every_game(name: str) -> None:
    # a game with a stock is hinted from the play-off on
    state = opening(name, cards=load_ruleset(name).stock_size)
    start = time.monotonic()
    answer = hint(state, seconds=1.0, workers=2)
    spent = time.monotonic() - start
    assert spent < 1.0 + 1.5, f"{name}: {spent:.2f} s for a 1 s hint"
    assert len(answer.worlds) >= 1 and answer.best in state.legal_plays()


def test_a_hint_cut_short_says_so_and_warns_with_few_worlds() -> None:
    state = opening("double-deck")
    answer = hint(state, seconds=0.2, workers=1)
    assert answer.cut_short and answer.why == "time" and len(answer.worlds) >= 1
    assert answer.reliable == (len(answer.worlds) >= RELIABLE_WORLDS)
    facts = facts_of(state)
    args = ["hint", "-r", "double-deck", "-t", facts.trump.letter, "--hand", " ".join(c.ascii() for c in facts.hand),
            "--bidder", "0", "--bid", "50", "--time", "0.2", "--workers", "1",
            *[f"--meld={s}={' '.join(c.ascii() for c in h)}" for s, h in facts.shown.items()]]
    ran = run_cli(*args)
    assert ran.code == 0, ran
    assert "Cut short: the time ran out after" in ran.out
    if "Too few worlds" in ran.out:
        assert "the order below is unreliable" in ran.out
    doc = json.loads(run_cli(*args, "--json").out)
    assert doc["cut_short"] is True and doc["stopped"] == "time" and doc["worlds"] >= 1


def test_the_json_gives_the_worlds_the_method_and_the_margin() -> None:
    state = opening("single-deck", cards=36)
    facts = facts_of(state)
    answer = hint_facts(facts, seconds=None, worlds=40, workers=2)
    assert answer.method == "exact" and answer.plan == "solved exactly (double-dummy)" and answer.why in ("all",
                                                                                                         "enough")
    if answer.margin is not None:
        assert answer.margin.low <= answer.margin.mean <= answer.margin.high
        assert answer.margin.second != answer.best and answer.margin.clear == (answer.margin.low > 0)


def test_early_cards_are_estimated_and_late_ones_exact() -> None:
    early = facts_of(opening("single-deck"))
    assert plan_for(early) == Plan(False, 10)
    assert "the computer plays on to trick 2" in Plan(False, 10).words(early)
    assert plan_for(facts_of(opening("single-deck", cards=8))).exact
    answer = hint_facts(early, seconds=None, worlds=6, workers=2, plan=Plan(False, 5))
    assert answer.method == "estimated" and len(answer.worlds) == 6 and answer.why == "all"


def test_the_same_worlds_give_the_same_answer_on_any_threads() -> None:
    facts = facts_of(opening("single-deck", seed=7))
    plan = Plan(False, 6)
    one = hint_facts(facts, seconds=None, worlds=12, workers=1, plan=plan)
    two = hint_facts(facts, seconds=None, worlds=12, workers=2, plan=plan)
    assert one.cards == two.cards and one.best == two.best and one.margin == two.margin


def test_worlds_are_kept_in_order_and_a_world_past_its_limit_is_skipped() -> None:
    from pinochle_cli.errors import SearchLimitError

    def value(world: int) -> int:
        if world == 3:
            raise SearchLimitError("too many nodes")
        time.sleep(0.001 * (10 - world))
        return world * 10

    judged = judge_worlds(list(range(10)), value, workers=3, deadline=None, clock=time.monotonic,
                          enough=lambda indices, values: len(values) == 6)
    assert judged.indices == (0, 1, 2, 4, 5, 6) and judged.values == (0, 10, 20, 40, 50, 60)
    assert (judged.skipped, judged.why) == (1, "enough")
    late = judge_worlds(list(range(10)), value, workers=2, deadline=time.monotonic() - 1, clock=time.monotonic,
                        enough=lambda indices, values: False)
    assert late.values == () and late.why == "time"


SINGLE = ["-t", "S", "--hand", "AS AS TS KS QS JS 9S AD AD TD AC KC", "--bidder", "0", "--bid", "250"]
# a double-deck first card: too few worlds in the time to stop early
DOUBLE = ["-r", "double-deck", "-t", "S", "--hand", "AS AS TS TS KS KS QS QS JS JS AD AD TD KD QD JD AC TC KH QH",
          "--bidder", "0", "--bid", "500"]


def _hint_command(extra_env: dict[str, str], args: list[str], seconds: float) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PINOCHLE_RULESET": "", **extra_env}
    return subprocess.Popen([sys.executable, "-m", "pinochle_cli", "hint", *args, "--time", str(seconds), "--json"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)


def _cpu_seconds(pid: int) -> float:
    """The process's CPU seconds so far (Linux's /proc; elsewhere the wall time since this was first asked)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return time.monotonic() - _cpu_seconds.__dict__.setdefault("start", time.monotonic())
    fields = stat.read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not hasattr(os, "killpg"), reason="Ctrl-C is sent to a process group (POSIX)")
def test_ctrl_c_stops_a_hint_at_once() -> None:
    proc = _hint_command({}, DOUBLE, 60)
    # into the judging, however busy the machine: the start-up takes about a CPU second
    while _cpu_seconds(proc.pid) < 2.5 and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None
    sent = time.monotonic()
    os.killpg(proc.pid, signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert time.monotonic() - sent < 2.0 and "Traceback" not in err


@pytest.mark.exhaustive
def test_the_first_hint_after_an_install_answers_in_its_time(tmp_path: Path) -> None:
    """An empty cache: the hint answers within its time by the slow engine while the fast one is built behind."""
    start = time.monotonic()
    proc = _hint_command({"NUMBA_CACHE_DIR": str(tmp_path)}, SINGLE, 5)
    out, err = proc.communicate(timeout=120)
    spent = time.monotonic() - start
    assert proc.returncode == 0, err
    doc = json.loads(out)
    assert doc["method"] == "estimated" and doc["plan"] == "estimated: the computer plays every trick on"
    assert doc["worlds"] >= 20 and spent < 5 + 3
    # the build behind it ends with the engine on disk
    deadline = time.monotonic() + 240
    while time.monotonic() < deadline and not list(tmp_path.glob("engine-*/ready")):
        time.sleep(1)
    assert list(tmp_path.glob("engine-*/ready"))


def test_analyze_from_the_players_view_ends_in_its_time_however_many_worlds() -> None:
    # the drawing of the worlds stops with the time too (100,000 worlds a card took minutes)
    from pinochle_cli.records import read_record
    from pinochle_cli.solver.analyze import analyze_deal, view_deal

    record = read_record(ROOT / "examples" / "single-deck-played.yaml")
    deal = record.deals[0]
    analysis = analyze_deal(record, deal, time_limit=2)
    start = time.process_time()
    view = view_deal(record, analysis, deal, time_limit=1.0, worlds=100_000)
    assert time.process_time() - start < 4.0
    assert view.not_judged > 0 and view.verdicts


def test_the_calibration_copes_with_a_deadline_already_past() -> None:
    # one world, one thread: nothing left to judge after the trial, whose one world ran past the time
    from pinochle_cli.hint.advice import _calibrated

    state = opening("single-deck")
    facts = facts_of(state)
    now = [0.0]

    def judged_by(plan: Plan) -> object:
        def value(world: object) -> Plan:
            now[0] = 100.0
            return plan
        return value

    assert plan_for(facts).tail > 1
    plan = _calibrated(facts, [object()], judged_by, 1, 3.0, clock=lambda: now[0])  # type: ignore[arg-type, list-item]
    assert 1 <= plan.tail < plan_for(facts).tail


def test_the_command_s_budget_counts_its_start_up() -> None:
    from pinochle_cli.cli.common import set_started, time_left

    try:
        set_started(time.monotonic() - 1.0)
        assert 3.9 < time_left(5.0) <= 4.0
        # a start-up longer than the budget leaves the hint a fifth of it
        assert time_left(0.5) == pytest.approx(0.1)
        set_started(None)
        assert time_left(5.0) == 5.0
    finally:
        set_started(None)


def _deepening(cost: dict[int, float], seconds: float) -> tuple[Plan, list[int]]:
    """``_deepened`` from a cheap plan over real worlds, each world's values fixed and each plan's world costing
    ``cost[tail]`` seconds of a fake clock (the exact plan: ``cost[0]``); the plan kept and the tails tried."""
    import random

    from pinochle_cli.hint.advice import _deepened, _judge
    from pinochle_cli.hint.inference import infer
    from pinochle_cli.hint.values import Valued
    from pinochle_cli.hint.worlds import draw_worlds

    facts = facts_of(opening("single-deck"))
    deal = draw_worlds(facts, infer(facts), 150, random.Random(1)).worlds
    legal = facts_of(opening("single-deck")).hand.cards()
    now = [0.0]
    tried: list[int] = []

    def judged_by(plan: Plan) -> object:
        tried.append(0 if plan.exact else plan.tail)

        def value(world: object) -> Valued:
            now[0] += cost[0 if plan.exact else plan.tail]
            # the first card best by 10 counters in every world: clear at once
            return Valued(tuple((c, 10 if i == 0 else 0) for i, c in enumerate(dict.fromkeys(legal))), plan.exact)
        return value

    start = Plan(False, 6)
    first = judged_by(start)
    judged = _judge(facts, deal, first, 1, seconds, lambda: now[0], None)  # type: ignore[arg-type]
    tried.clear()
    plan, _ = _deepened(facts, deal, judged_by, start, (judged, now[0]), 1, seconds,  # type: ignore[arg-type]
                        lambda: now[0], None)
    return plan, tried


def test_time_left_after_a_clear_answer_judges_the_worlds_again_solving_more_tricks() -> None:
    # each trick more costs three times as much: from 1 ms a world, 100 worlds of tail 7 take 0.3 s, of 8 0.9 s
    cost = {6: 0.001, 7: 0.003, 8: 0.009, 9: 0.027, 10: 0.081}
    plan, tried = _deepening(cost, 2.0)
    assert tried == [7, 8] and plan == Plan(False, 8)
    # with time enough, as deep as the uncalibrated plan (at the first trick: the last ten tricks exact)
    plan, tried = _deepening(cost, 100.0)
    assert tried == [7, 8, 9, 10] and plan == plan_for(facts_of(opening("single-deck")))


def test_a_deeper_run_cut_short_is_dropped() -> None:
    # the pace said tail 7 would fit (1 ms a world, three times that); it costs 50 ms: cut at 1 s, dropped
    plan, tried = _deepening({6: 0.001, 7: 0.05}, 1.0)
    assert tried == [7] and plan == Plan(False, 6)
