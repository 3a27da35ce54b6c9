"""The page's deals that were not played out (the form's optional "how the deal ended"): offered where the
ruleset has a rule for them, written as `record add` writes them, refused with the records library's own
messages beside the field each concerns."""

from __future__ import annotations

import re
import shutil
from html import unescape
from pathlib import Path

import pytest
from click.testing import CliRunner
from servehelp import Phone, new_record

from pinochle_cli.cli import cli
from pinochle_cli.records import read_record
from pinochle_cli.serve.form import ENDINGS

TEAMS = ("--team", "Us=Ann,Cy", "--team", "Them=Bob,Di")
TABLES = {
    "single-deck": TEAMS,
    "single-deck-small": TEAMS,
    "double-deck": TEAMS,
    "three-handed": ("--player", "Ann", "--player", "Bob", "--player", "Cy"),
    "two-handed": ("--player", "Ann", "--player", "Bob"),
}
OPTION = re.compile(r'<option value="([^"]*)"[^>]*>([^<]*)</option>')


def _record(folder: Path, ruleset: str) -> Path:
    return new_record(folder, "-r", ruleset, *TABLES[ruleset])


def _offered(html: str) -> tuple[str, ...] | None:
    found = re.search(r'<select id="f-ending" name="ending">(.*?)</select>', html)
    if found is None:
        return None
    return tuple(value for value, _text in OPTION.findall(found.group(1)))


@pytest.mark.parametrize(("ruleset", "offered"), [
    # a throw-in and the five-nines redeal
    ("single-deck", ("", "conceded", "redeal")),
    # a throw-in; the bidder may name any suit, so never a deal without trump
    ("single-deck-small", ("", "conceded")),
    # no throw-in; trump needs a marriage, and a bidder without one has a rule
    ("double-deck", ("", "no-trump")),
    ("three-handed", ("", "conceded")),
    # no auction, no redeal rule: nothing to offer
    ("two-handed", None),
])
def test_the_endings_the_ruleset_has_a_rule_for(tmp_path: Path, ruleset: str, offered: tuple[str, ...] | None) -> None:
    html = Phone(_record(tmp_path, ruleset)).open().get_data(as_text=True)
    assert _offered(html) == offered
    if offered is not None:
        # played out is the default; each choice says what it means
        assert '<option value="" selected>played out</option>' in html
        for ending in offered[1:]:
            assert f'<option value="{ending}">{ENDINGS[ending]}</option>' in html


def _cli_add(path: Path, *args: str) -> None:
    added = CliRunner().invoke(cli, ["record", "add", str(path), *args], input="", env={"PINOCHLE_RULESET": None})
    assert added.exit_code == 0, added.output


# each: the ruleset, the form's fields, the same deal as `record add` options, the points it scores
ENDED = {
    "conceded": ("single-deck",
                 {"dealer": "Ann", "bidder": "Bob", "bid": "300", "trump": "S", "meld:Us": "60", "meld:Them": "100",
                  "ending": "conceded"},
                 ("--dealer", "Ann", "--bidder", "Bob", "--bid", "300", "--trump", "S", "--meld", "Us=60",
                  "--meld", "Them=100", "--conceded"), (60, -300)),
    "conceded-three": ("three-handed",
                       {"dealer": "Ann", "bidder": "Bob", "bid": "300", "trump": "S", "meld:Ann": "10",
                        "meld:Bob": "50", "meld:Cy": "0", "ending": "conceded"},
                       ("--dealer", "Ann", "--bidder", "Bob", "--bid", "300", "--trump", "S", "--meld", "Ann=10",
                        "--meld", "Bob=50", "--meld", "Cy=0", "--conceded"), (10, -300, 0)),
    "no-trump": ("double-deck", {"dealer": "Ann", "bidder": "Bob", "bid": "60", "ending": "no-trump"},
                 ("--dealer", "Ann", "--bidder", "Bob", "--bid", "60", "--no-trump"), (0, -60)),
    "redeal": ("single-deck", {"dealer": "Ann", "ending": "redeal"}, ("--dealer", "Ann", "--redeal"), (0, 0)),
}


@pytest.mark.parametrize("case", list(ENDED))
def test_an_ended_deal_is_written_as_record_add_writes_it(tmp_path: Path, case: str) -> None:
    ruleset, form, options, points = ENDED[case]
    path = _record(tmp_path, ruleset)
    by_hand = tmp_path / "by-hand.yaml"
    shutil.copyfile(path, by_hand)
    assert Phone(path).post("/deal", form).status_code == 303
    _cli_add(by_hand, *options)
    assert path.read_bytes() == by_hand.read_bytes()
    deal = read_record(str(path)).deals[0]
    assert deal.score.points == points
    assert deal.score.result == form["ending"]
    assert (deal.conceded, deal.no_trump, deal.redeal) == tuple(form["ending"] == e for e in ENDINGS)


# each: the ruleset, the form's fields, the field the refusal goes beside, the records library's message
REFUSED = [
    ("single-deck", {"dealer": "Ann", "bidder": "Bob", "ending": "redeal"}, "bidder",
     "a redealt deal was thrown in before the auction: it has no bidder"),
    ("single-deck", {"dealer": "Ann", "ending": "redeal", "meld:Us": "20"}, "meld:Us",
     "a redealt deal was thrown in before the auction: it has no meld"),
    ("single-deck", {"dealer": "Ann", "bidder": "Bob", "bid": "300", "trump": "S", "meld:Us": "60",
                     "meld:Them": "100", "counters:Us": "100", "ending": "conceded"}, "counters:Us",
     "the deal ended after the meld (conceded): no cards were played"),
    ("single-deck", {"dealer": "Ann", "bidder": "Bob", "bid": "300", "trump": "S", "meld:Us": "60",
                     "ending": "conceded"}, "meld:Them", "no meld given for Them"),
    ("double-deck", {"dealer": "Ann", "bidder": "Bob", "bid": "60", "trump": "S", "ending": "no-trump"}, "trump",
     "a deal with no-trump: true has no trump suit"),
    # a choice the ruleset has no rule for (a hand-made post): refused, saying what may be chosen
    ("single-deck", {"dealer": "Ann", "bidder": "Bob", "bid": "300", "ending": "no-trump"}, "ending",
     "'no-trump': expected one of conceded, redeal, or empty (played out)"),
    ("double-deck", {"dealer": "Ann", "bidder": "Bob", "bid": "60", "ending": "conceded"}, "ending",
     "'conceded': expected one of no-trump, or empty (played out)"),
]


@pytest.mark.parametrize(("ruleset", "form", "field", "said"), REFUSED)
def test_an_ended_deal_is_refused_beside_its_field(tmp_path: Path, ruleset: str, form: dict[str, str], field: str,
                                                   said: str) -> None:
    path = _record(tmp_path, ruleset)
    before = path.read_bytes()
    refused = Phone(path).post("/deal", form)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert path.read_bytes() == before
    at = html.index(f'name="{field}"')
    error = html.index('class="error"', at)
    assert said in unescape(html[error:error + 300]) and _after_or_none(html.find('name="', at + 10), error)
    # the ending chosen is kept as it was
    if form["ending"] in (_offered(html) or ()):
        assert f'<option value="{form["ending"]}" selected>' in html


def _after_or_none(found: int, error: int) -> bool:
    """The next field starts after the error (or no field follows)."""
    return found == -1 or found > error
