"""The review at the end of a deal: each card's cost is what ``pinochle analyze`` says of the same card in the same
record; the winning call is judged by the contract solved from its first card; the rows are the costly ones
first, within a screen."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from clihelp import run_cli
from playhelp import EXAMPLES, events, follow_lines, of, practice_lines

from pinochle_cli.session.commands import parse_command
from pinochle_cli.session.postmortem import SCREEN, JudgedDecision, _call_cost
from pinochle_cli.session.session import Session
from pinochle_cli.session.settings import Settings


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def _followed(seat: int, *extra: str, drop_exchange: bool = False, seconds: str = "0.3") -> dict[str, object]:
    lines, hand, dealer = follow_lines(EXAMPLES / "single-deck-played.yaml", seat)
    if drop_exchange:
        lines = [line for line in lines if line != "give"]
    code, out, err = run_cli("play", "--follow", "--hand", hand, "--seat", str(seat), "--dealer", str(dealer),
                             "--record", "followed.yaml", "--time", seconds, "--json", *extra,
                             input="\n".join(lines) + "\n")
    assert (code, err) == (0, ""), err
    reviews = of(events(out), "review")
    assert len(reviews) == 1
    return reviews[0]


def test_each_card_costs_what_analyze_says_of_it() -> None:
    # a short time: the review and analyze both judge the last tricks only, each as far as its time goes
    review = _followed(1, seconds="0.1")
    code, out, err = run_cli("analyze", "followed.yaml", "--json", "--workers", "1", "--time-limit", "0.4")
    assert code == 0, err
    analysed = json.loads(out)["deals"][0]
    both = max(int(review["analysed_from_trick"]), int(analysed["analysed_from_trick"]))  # type: ignore[call-overload]
    # seat 1 of a table the session named (the record did not exist)
    said = {c["trick"]: c["gave_up"] for c in analysed["cards"] if c["player"] == "West" and c["trick"] >= both}
    cards = [d for d in review["decisions"] if d["kind"] == "card"]  # type: ignore[union-attr]
    costed = {d["trick"]: d["cost"] for d in cards if d["cost"] is not None and d["trick"] >= both}
    # a card that cost nothing is counted, not listed
    assert costed == {t: n for t, n in said.items() if n}
    assert both <= 9 and len(costed) >= 1 and all(n > 0 for n in costed.values())
    assert [d["cost"] for d in cards if d["cost"] is not None] == \
        sorted((d["cost"] for d in cards if d["cost"] is not None), reverse=True)


def test_the_winning_call_is_judged_by_the_contract_solved() -> None:
    # Cy's seat, the house rule without an exchange: the hands as dealt are the hands recorded
    lines, hand, dealer = follow_lines(EXAMPLES / "single-deck-played.yaml", 2)
    session = Session.begin(Settings("single-deck", (("exchange", "0"),), 2, 1, True, hand, dealer, review=False))
    session.start()
    for line in lines:
        if line != "give":
            session.handle(parse_command(line, 4))
    state = session.state
    assert state is not None and state.result == "played"
    index = next(i for i, a in enumerate(state.history) if a.seat == 2 and a.kind == "bid")
    row = JudgedDecision("call", index, 0, state.history[index], None, None, None)
    # the example solved from its first card: North-South take 70 counters (pinochle analyze says so)
    solved = SimpleNamespace(perfect=70, first_trick=1)
    judged = _call_cost(state, 2, row, solved)
    # set at 260 under perfect play (-260); made at 250, the least bid Cy could make: meld 180 + 70 = 250
    assert judged.best == "bid 250 (perfect play: 250)" and judged.cost == 250 + 260
    assert _call_cost(state, 2, row, SimpleNamespace(perfect=80, first_trick=1)).cost == 0
    assert _call_cost(state, 2, row, SimpleNamespace(perfect=60, first_trick=1)).best == "pass (perfect play: 240)"
    assert _call_cost(state, 1, row, solved).cost is None


def test_a_practice_review_fits_a_screen() -> None:
    lines = practice_lines("single-deck", 5)
    code, out, _ = run_cli("play", "--seed", "5", "--time", "0.2", input="\n".join(lines) + "\nquit\n")
    assert code == 0
    text = out.split("Review of your decisions", 1)[1].split("next (or Enter)", 1)[0]
    assert 3 < len(text.splitlines()) <= SCREEN + 10
    assert max(len(line) for line in text.splitlines()) <= 80
