"""``pinochle score``: whole example nights with totals worked out by hand, JSON per docs/json.md, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import Ran, run_cli

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def run(*args: str) -> Ran:
    """The wide table: these outputs were written for a terminal wider than the table (see test_card_night)."""
    return run_cli(*args, env={"COLUMNS": "200"})


# Each example night, deal by deal: (result, points, totals), computed by hand from the game's scoring rules.
NIGHTS = {
    "single-deck-night.yaml": ("single-deck", ["North-South", "East-West"], [
        ("made", (290, 170), (290, 170)),          # 150+140 >= 270; EW 60+110
        ("set", (190, -300), (480, -130)),         # EW 190+100 < 300
        ("redeal", (0, 0), (480, -130)),
        ("conceded", (80, -250), (560, -380)),     # defenders keep their meld
        ("not-on-board", (-350, 40), (210, -340)),  # 90 + 250 < 350
        ("made", (370, 0), (580, -340)),
        ("made", (60, 470), (640, 130)),           # NS took a trick without counters: meld kept
        ("made", (610, 100), (1250, 230)),         # players' meld 300 + 130
        ("set", (230, -250), (1480, -20)),         # the stuck dealer Di at 250
        ("made", (340, 110), (1820, 90)),
    ], "won", "North-South"),
    "single-deck-small-4-deals.yaml": ("single-deck-small", ["Team A", "Team B"], [
        ("made", (29, 17), (29, 17)),
        ("not-on-board", (-40, 5), (-11, 22)),
        ("made", (1, 49), (-10, 71)),              # dix-only meld kept without a counter
        ("set", (33, -26), (23, 45)),              # meld reaches but no counter point
    ], "won", "Team B"),
    "double-deck-night.yaml": ("double-deck", ["Kim & Lou", "Max & Ned"], [
        ("made", (68, 40), (68, 40)),
        ("made", (46, 73), (114, 113)),
        ("no-trump", (-55, 0), (59, 113)),
        ("set", (36, -70), (95, 43)),
        ("made", (115, 30), (210, 73)),
        ("made", (50, 200), (260, 273)),           # both pass 250: the bidding pair wins
    ], "won", "Max & Ned"),
    "two-handed-night.yaml": ("two-handed", ["Pat", "Sam"], [
        (None, (280, 180), (280, 180)),
        (None, (290, 0), (570, 180)),              # Sam won no trick: meld forfeited
        (None, (190, 440), (760, 620)),
        (None, (240, 390), (1000, 1010)),          # both reach 1000: the higher wins
    ], "won", "Sam"),
    "single-deck-played.yaml": ("single-deck", ["North-South", "East-West"], [
        ("made", (270, 160), (270, 160)),          # counters 90/160 from the replayed tricks
    ], "in-progress", None),
}


@pytest.mark.parametrize("name", sorted(NIGHTS))
def test_example_nights(name):
    ruleset, sides, deals, status, winner = NIGHTS[name]
    result = run("score", str(EXAMPLES / name), "--json")
    assert result.code == 0, result.err
    data = json.loads(result.out)
    assert data["ruleset"] == ruleset and data["sides"] == sides
    got = [(d["result"], tuple(d["points"][s] for s in sides), tuple(d["totals"][s] for s in sides))
           for d in data["deals"]]
    assert got == deals
    assert [d["number"] for d in data["deals"]] == list(range(1, len(deals) + 1))
    assert data["totals"] == dict(zip(sides, deals[-1][2], strict=True))
    assert (data["status"], data["winner"]) == (status, winner)


def test_json_shape_per_cli_md():
    data = json.loads(run("score", str(EXAMPLES / "single-deck-night.yaml"), "--json").out)
    assert {"ruleset", "sides", "deals", "totals", "winner", "status"} <= set(data)
    first, redeal = data["deals"][0], data["deals"][2]
    assert {"number", "bidder", "bid", "trump", "result", "points", "totals"} <= set(first)
    assert (first["bidder"], first["bid"], first["trump"]) == ("Ann", 270, "H")
    assert (redeal["bidder"], redeal["bid"], redeal["trump"]) == (None, None, None)
    two = json.loads(run("score", str(EXAMPLES / "two-handed-night.yaml"), "--json").out)
    assert {d["result"] for d in two["deals"]} == {None} and two["deals"][0]["bid"] is None


def test_table_output_exact():
    result = run("score", str(EXAMPLES / "single-deck-small-4-deals.yaml"))
    assert result.code == 0
    assert result.out == (
        "single-deck-small (target=4-deals), 4 deals: Team A (Eve, Gus) v Team B (Fay, Hal)\n"
        "meld, counters and points: Team A / Team B\n"
        "\n"
        "  #  dealer    bidder      bid  trump    meld    counters    result        points      Team A    Team B\n"
        "---  --------  --------  -----  -------  ------  ----------  ------------  --------  --------  --------\n"
        "  1  Eve       Eve          27  ♥        15 / 6  14 / 11     made          29 / 17         29        17\n"
        "  2  Fay       Gus          40  ♠        12 / 5              not-on-board  -40 / 5        -11        22\n"
        "  3  Gus       Hal          30  ♣        1 / 24  0 / 25      made          1 / 49         -10        71\n"
        "  4  Hal       Fay          26  ♦        8 / 30  25 / 0      set           33 / -26        23        45\n"
        "\n"
        "Team B won: 45 to 23, the higher total after 4 deals.\n")


def test_two_handed_table_has_no_auction_columns():
    out = run("score", str(EXAMPLES / "two-handed-night.yaml")).out
    header = out.splitlines()[3]
    assert header.split() == ["#", "dealer", "trump", "meld", "counters", "points", "Pat", "Sam"]
    assert out.endswith("Sam won: 1,010 to 1,000, the higher total (Pat also reached 1,000 on that deal).\n")


def test_in_progress_and_empty(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\ndeals: []\n")
    result = run("score", str(path))
    assert result.out == ("single-deck, game to 1500: NS (Ann, Cy) v EW (Bob, Di)\n\n"
                             "In progress (no deals yet, game to 1500): NS 0, EW 0.\n")
    data = json.loads(run("score", str(path), "--json").out)
    assert (data["deals"], data["totals"], data["winner"], data["status"]) == ([], {"NS": 0, "EW": 0}, None,
                                                                               "in-progress")


def test_draw_and_fixed_deals(tmp_path):
    path = tmp_path / "r.yaml"
    deals = "".join(f"  - {{bidder: {w}, bid: 25, meld: {{{t}: 10}}, counters: {{{t}: 15, {o}: 10}}}}\n"
                    for w, t, o in (("a1", "A", "B"), ("b1", "B", "A"), ("a1", "A", "B"), ("b1", "B", "A")))
    path.write_text("ruleset: single-deck-small\noptions: {target: 4-deals}\nteams: {A: [a1, a2], B: [b1, b2]}\n"
                    "deals:\n" + deals)
    data = json.loads(run("score", str(path), "--json").out)
    # each deal: the bidders 10 + 15 = 25, the defenders 10
    assert [d["totals"] for d in data["deals"]] == [{"A": 25, "B": 10}, {"A": 35, "B": 35}, {"A": 60, "B": 45},
                                                    {"A": 70, "B": 70}]
    assert (data["status"], data["winner"]) == ("draw", None)
    assert run("score", str(path)).out.endswith("Draw: A 70, B 70; a tie after 4 deals.\n")
    path.write_text(path.read_text() + "  - {bidder: a1, bid: 25, meld: {A: 10}, counters: {A: 15, B: 10}}\n")
    result = run("score", str(path))
    assert result.code == 2
    assert result.err == f"Error: {path}:9: deal 5: the match was already decided after deal 4: a draw at 70\n"


ERRORS = [
    ("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\ndeals:\n"
     "  - {bidder: Bob, bid: 300, meld: {EW: 100}, counters: {NS: 80, EW: 160}}\n",
     "Error: {f}:4: deal 1, counters: add up to 240, expected 250\n"),
    ("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\ndeals:\n  - bidder: Bob\n    bid: 300\n"
     "    trmp: H\n", "Error: {f}:6: deal 1: unknown key 'trmp' (a deal has dealer, bidder, bid, auction, trump, meld, "
     "counters, tricks, hands, stock, widow, buried, play, conceded, no-trump, redeal, notes)\n"),
    ("ruleset: single-deck\nteams: [NS, EW]\n", "Error: {f}:2: teams: expected a mapping of team names to players, "
     "got a list\n"),
    ("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\ndeals: [1\n", None),
]


@pytest.mark.parametrize(("text", "expected"), ERRORS)
def test_errors_exit_2_with_file_line_deal_field(tmp_path, text, expected):
    path = tmp_path / "r.yaml"
    path.write_text(text)
    result = run("score", str(path))
    assert result.code == 2
    assert result.out == ""
    if expected is None:
        assert result.err.startswith(f"Error: {path}:") and "not valid YAML" in result.err
    else:
        assert result.err == expected.replace("{f}", str(path))
    assert "Traceback" not in result.out


def test_missing_file():
    result = run("score", "/nonexistent/night.yaml")
    assert result.code == 2
    assert result.err == "Error: /nonexistent/night.yaml: cannot read: No such file or directory\n"


# --------------------------------------------------------------------------- --all-errors

THREE = ("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\ndeals:\n"
         "  - {dealer: Ann, bidder: Bob, bid: 300, meld: {EW: 100}, counters: {NS: 80, EW: 160}}\n"
         "  - {dealer: Bob, bidder: Cy, bid: 250, meld: {NS: 100, EW: 40}, counters: {NS: 130, EW: 120}}\n"
         "  - {dealer: Cy, bidder: Zed, bid: 250, counters: {NS: 80, EW: 170}}\n"
         "  - dealer: Di\n    bidder: Ann\n    bid: 255\n    counters: {NS: 80, EW: 170}\n"
         "  - {dealer: Ann, bidder: Di, bid: 260, meld: {EW: 100}, counters: {NS: 100, EW: 150}}\n")


@pytest.mark.parametrize("flag", ["--all-errors", "--lenient"])
def test_all_errors_prints_what_could_be_scored_and_every_problem(tmp_path, flag):
    path = tmp_path / "r.yaml"
    path.write_text(THREE)
    result = run("score", str(path), flag)
    assert result.code == 2
    assert result.out == (
        "single-deck, game to 1500: NS (Ann, Cy) v EW (Bob, Di)\n"
        "meld, counters and points: NS / EW\n"
        "\n"
        "  #  dealer    bidder      bid  trump    meld      counters    result    points        NS    EW\n"
        "---  --------  --------  -----  -------  --------  ----------  --------  ----------  ----  ----\n"
        "  2  Bob       Cy          250           100 / 40  130 / 120   set       -250 / 160  -250   160\n"
        "  5  Ann       Di          260           0 / 100   100 / 150   set       100 / -260  -150  -100\n"
        "\n"
        "Not scored: deals 1, 3 and 4 (see the problems).\n"
        "In progress (after 2 deals, game to 1500): NS -150, EW -100.\n")
    assert result.err == (
        f"Error: {path}: 3 problems:\n"
        f"  {path}:4: deal 1, counters: add up to 240, expected 250\n"
        f"  {path}:6: deal 3, bidder: 'Zed' is not at the table (Ann, Bob, Cy, Di)\n"
        f"  {path}:9: deal 4, bid: 255 is off the steps (from 250: steps of 10; next valid bid 260)\n")
    # plain score stops at the first
    plain = run("score", str(path))
    assert (plain.code, plain.out) == (2, "")
    assert plain.err == f"Error: {path}:4: deal 1, counters: add up to 240, expected 250\n"


def test_all_errors_json_lists_the_problems(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text(THREE)
    result = run("score", str(path), "--all-errors", "--json")
    assert result.code == 2
    assert result.err.startswith(f"Error: {path}: 3 problems:\n")
    data = json.loads(result.out)
    assert [d["number"] for d in data["deals"]] == [2, 5]
    assert data["totals"] == {"NS": -150, "EW": -100}
    assert data["problems"] == [
        {"deal": 1, "trick": None, "line": 4, "field": "counters", "message": "add up to 240, expected 250"},
        {"deal": 3, "trick": None, "line": 6, "field": "bidder",
         "message": "'Zed' is not at the table (Ann, Bob, Cy, Di)"},
        {"deal": 4, "trick": None, "line": 9, "field": "bid",
         "message": "255 is off the steps (from 250: steps of 10; next valid bid 260)"},
    ]


def test_all_errors_one_problem_is_singular(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: single-deck\nteams: {NS: [Ann, Cy], EW: [Bob, Di]}\nnote: hi\ndeals: []\n")
    result = run("score", str(path), "--all-errors")
    assert result.code == 2
    assert result.out.endswith("In progress (no deals yet, game to 1500): NS 0, EW 0.\n")
    assert result.err == (f"Error: {path}: 1 problem:\n  {path}:3: unknown key 'note' (a record has ruleset, "
                             "options, teams, players, seating, deals, title, date, notes)\n")


@pytest.mark.parametrize("name", sorted(NIGHTS))
@pytest.mark.parametrize("as_json", [[], ["--json"]])
def test_all_errors_without_problems_is_plain_score(name, as_json):
    plain = run("score", str(EXAMPLES / name), *as_json)
    lenient = run("score", str(EXAMPLES / name), "--all-errors", *as_json)
    assert (lenient.code, lenient.out, lenient.err) == (0, plain.out, "")
    if as_json:
        assert json.loads(plain.out)["problems"] == []


def test_all_errors_still_stops_where_nothing_can_be_checked(tmp_path):
    path = tmp_path / "r.yaml"
    path.write_text("ruleset: single-deck\nteams: [NS, EW]\n")
    result = run("score", str(path), "--all-errors")
    assert (result.code, result.out) == (2, "")
    assert result.err == f"Error: {path}:2: teams: expected a mapping of team names to players, got a list\n"
