"""``analyze --view players``: each card judged by the hint from its player's view, beside the double-dummy view."""

from __future__ import annotations

import time
from pathlib import Path
from typing import NamedTuple

import pytest
from analysed import analysed
from clihelp import run_cli, run_cli_json

from pinochle_cli.records import DealRecord, MatchRecord
from pinochle_cli.solver.analyze import DealAnalysis, PlayersView, view_deal

PLAYED = str(Path(__file__).resolve().parent.parent / "examples" / "single-deck-played.yaml")


class Played(NamedTuple):
    record: MatchRecord
    deal: DealRecord
    analysis: DealAnalysis
    view: PlayersView


@pytest.fixture(scope="module")
def played() -> Played:
    """The example's deal, its double-dummy analysis and its players' view over one world from seed 3, found once."""
    record, deal, analysis = analysed(PLAYED)
    return Played(record, deal, analysis, view_deal(record, analysis, deal, worlds=1, seed=3))


def test_each_card_is_a_mistake_unlucky_or_fine_by_its_figures(played: Played) -> None:
    analysis, view = played.analysis, played.view
    assert view.first_trick == 1 and len(view.verdicts) == len(analysis.verdicts) == 48
    costs = {(v.trick, v.seat): v.cost for v in analysis.verdicts}
    for v in view.verdicts:
        assert v.cost == costs[(v.trick, v.seat)]
        assert v.lost >= 0
        expected = "mistake" if v.lost > 0 else ("unlucky" if v.cost > 0 else "fine")
        assert v.verdict == expected
    # the last trick: every hand is known, so the view is the double-dummy view
    assert all(v.exact and v.lost == 0 == v.cost for v in view.verdicts if v.trick == 12)
    assert {v.verdict for v in view.verdicts} >= {"mistake", "unlucky"}


def test_the_time_limit_is_for_the_whole() -> None:
    start = time.process_time()
    data = run_cli_json("analyze", PLAYED, "--view", "players", "--time-limit", "2")
    assert time.process_time() - start < 30
    deal = data["deals"][0]
    view = deal["players_view"]
    assert view["judged_from_trick"] > 1
    assert all(c["trick"] >= view["judged_from_trick"] for c in view["cards"])
    for card in view["cards"]:
        assert set(card) == {"trick", "player", "card", "best", "lost", "worlds", "exact", "gave_up", "verdict"}


def test_the_human_answer_has_both_views() -> None:
    code, out, err = run_cli("analyze", PLAYED, "--view", "players", "--time-limit", "2")
    assert (code, err) == (0, "")
    assert "By what each player could see (the hint at each card, 20 worlds from seed 1):" in out
    assert "player      cards    mistakes    unlucky" in out


def test_an_unknown_view_is_refused() -> None:
    code, out, err = run_cli("analyze", PLAYED, "--view", "nobody")
    assert code == 2 and out == "" and err.startswith("Error: Invalid value for '--view'")


def test_the_answer_is_a_function_of_the_record_the_seed_and_the_worlds(played: Played) -> None:
    # the command (its workers, its time limit) and the library, each on its own: the same answer
    args = ("analyze", PLAYED, "--view", "players", "--worlds", "1", "--seed", "3", "--time-limit", "3600")
    view = run_cli_json(*args)["deals"][0]["players_view"]
    assert (view["seed"], view["worlds"], view["not_judged"], view["judged_from_trick"]) == (3, 1, 0, 1)
    assert all(c["worlds"] <= 1 for c in view["cards"])
    assert view["cards"] == [{"trick": v.trick, "player": v.player, "card": v.card.ascii(), "best": v.best.ascii(),
                              "lost": round(v.lost, 3), "worlds": v.worlds, "exact": v.exact, "gave_up": v.cost,
                              "verdict": v.verdict} for v in played.view.verdicts]


def test_the_time_limit_stops_the_work_but_never_changes_a_verdict(played: Played) -> None:
    record, deal, analysis, whole = played
    ticks = iter(range(10**6))
    # a clock that advances one second a reading: the work stops after a few cards
    part = view_deal(record, analysis, deal, worlds=1, seed=3, time_limit=40, clock=lambda: float(next(ticks)))
    assert 1 < part.first_trick <= 12 and part.not_judged > 0
    assert part.not_judged == len(analysis.verdicts) - len(part.verdicts)
    assert part.verdicts == whole.verdicts[len(whole.verdicts) - len(part.verdicts):]
    assert (part.seed, part.worlds) == (3, 1)


def test_worlds_below_one_are_refused() -> None:
    code, out, err = run_cli("analyze", PLAYED, "--view", "players", "--worlds", "0")
    assert code == 2 and out == "" and "--worlds" in err
