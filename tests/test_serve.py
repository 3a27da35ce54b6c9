"""The score page through its HTTP interface (Flask's test client): reading, entering deals with the prompted
add's checks, undo and redo, the PIN, cross-site posts, limits, and the page beside `record add`."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from servehelp import MADE, ORIGIN, Phone, new_record

from pinochle_cli.records import read_record
from pinochle_cli.serve.security import PIN_FREE, Guard

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def record(tmp_path: Path) -> Path:
    return new_record(tmp_path)


def test_the_page_shows_the_standing_chart_and_deals(tmp_path: Path) -> None:
    src = (ROOT / "examples" / "single-deck-night.yaml").read_text(encoding="utf-8")
    path = tmp_path / "night.yaml"
    path.write_text(src, encoding="utf-8")
    page = Phone(path).open()
    html = page.get_data(as_text=True)
    assert page.status_code == 200
    assert "North-South won" in html and ">1820<" in html and ">90<" in html
    assert '<svg class="chart"' in html and "<polyline" in html
    # the deals as score shows them, latest first
    assert html.index("<td>10</td>") < html.index("<td>1</td>")
    assert "The match is over" in html


def test_the_form_asks_what_record_add_asks(record: Path) -> None:
    html = Phone(record).open().get_data(as_text=True)
    for name in ("dealer", "bidder", "bid", "trump", "meld:Us", "meld:Them", "counters:Us"):
        assert f'name="{name}"' in html
    # the last side's counters are inferred, not asked
    assert 'name="counters:Them"' not in html and "Them's counters" in html


def test_a_deal_added_and_the_next_dealer_preselected(record: Path) -> None:
    phone = Phone(record)
    done = phone.post("/deal", {"dealer": "Ann", **MADE})
    assert done.status_code == 303
    added = read_record(str(record))
    assert len(added.deals) == 1 and added.deals[0].counters == (150, 100)
    html = phone.client.get(done.location, base_url=ORIGIN).get_data(as_text=True)
    assert "Deal 1 added." in html and '<option value="Bob" selected>' in html
    # the dealer left as preselected: the next one
    assert phone.post("/deal", {"dealer": "Bob", **MADE}).status_code == 303
    assert read_record(str(record)).deals[1].dealer == "Bob"


@pytest.mark.parametrize(("field", "value", "said"), [
    ("counters:Us", "300", "more than the 250 counters"),
    ("bid", "25x", "expected a whole number"),
    ("bidder", "Zed", "Zed"),
    ("trump", "X", "X"),
])
def test_a_wrong_deal_is_refused_beside_its_field(record: Path, field: str, value: str, said: str) -> None:
    before = record.read_bytes()
    phone = Phone(record)
    refused = phone.post("/deal", {"dealer": "Ann", **MADE, field: value})
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert record.read_bytes() == before
    # the message follows the field it concerns, and what was typed is kept
    at = html.index(f'name="{field}"')
    error = html.index('class="error"', at)
    assert said in html[error:error + 300] and _after_or_none(html.find('name="', at + 10), error)
    assert f'value="{value}"' in html or f'<option value="{value}" selected>' in html or field in ("bidder", "trump")


def test_a_meld_left_out_is_refused(record: Path) -> None:
    before = record.read_bytes()
    form = {k: v for k, v in MADE.items() if k != "meld:Them"}
    refused = Phone(record).post("/deal", {"dealer": "Ann", **form})
    assert refused.status_code == 422 and "no meld given for Them" in refused.get_data(as_text=True)
    assert record.read_bytes() == before


def test_undo_and_redo(record: Path) -> None:
    phone = Phone(record)
    phone.post("/deal", {"dealer": "Ann", **MADE})
    undone = phone.post("/undo")
    assert undone.status_code == 303
    assert read_record(str(record)).deals == ()
    assert "taken out" in phone.client.get(undone.location, base_url=ORIGIN).get_data(as_text=True)
    assert phone.post("/redo").status_code == 303
    assert len(read_record(str(record)).deals) == 1
    # nothing left to redo: the page offers no redo
    assert "/redo" not in phone.forms and 'action="/redo' not in phone.open().get_data(as_text=True)


def test_live_answers_only_when_the_file_changed(record: Path) -> None:
    phone = Phone(record)
    first = phone.client.get("/live", base_url=ORIGIN).get_json()
    assert phone.client.get(f"/live?v={first['version']}", base_url=ORIGIN).status_code == 204
    phone.post("/deal", {"dealer": "Ann", **MADE})
    changed = phone.client.get(f"/live?v={first['version']}", base_url=ORIGIN)
    assert changed.status_code == 200 and changed.get_json()["version"] != first["version"]
    assert ">250<" in changed.get_json()["live"]


def test_changes_need_the_pin(record: Path) -> None:
    guard = Guard("123456")
    phone = Phone(record, guard)
    before = record.read_bytes()
    html = phone.open().get_data(as_text=True)
    assert 'action="/pin#said"' in html and 'action="/deal' not in html
    for where in ("/deal", "/undo", "/redo"):
        refused = phone.post(where, {"dealer": "Ann", **MADE})
        assert refused.status_code == 403
    assert record.read_bytes() == before
    assert phone.post("/pin", {"pin": "000000"}).status_code == 403
    assert phone.post("/pin", {"pin": "123456"}).status_code == 303
    assert phone.post("/deal", {"dealer": "Ann", **MADE}).status_code == 303
    # another phone, without the cookie, still may not
    other = Phone(record, guard)
    assert other.post("/undo").status_code == 403
    assert len(read_record(str(record)).deals) == 1


def test_wrong_pins_make_only_that_phone_wait(record: Path) -> None:
    guard = Guard("123456")
    guesser = Phone(record, guard, address="10.0.0.66")
    for _ in range(PIN_FREE):
        assert guesser.post("/pin", {"pin": "999999"}).status_code == 403
    # the guesser waits now, even with the right PIN; another phone's right PIN is taken at once
    assert guesser.post("/pin", {"pin": "123456"}).status_code == 429
    assert Phone(record, guard, address="10.0.0.7", app=guesser.app).post("/pin", {"pin": "123456"}).status_code == 303


@pytest.mark.parametrize("how", ["other-origin", "no-token", "other-token", "other-referer"])
def test_a_cross_site_post_is_refused(record: Path, how: str) -> None:
    phone = Phone(record)
    before = record.read_bytes()
    data = {"dealer": "Ann", **MADE}
    if how == "other-origin":
        refused = phone.post("/deal", data, origin="http://evil.example")
    elif how == "no-token":
        refused = phone.post("/deal", data, token=False)
    elif how == "other-token":
        # a token of another browser's cookie
        refused = phone.post("/deal", {**data, "token": phone.guard.form_token("someone-else")}, token=False)
    else:
        phone.open()
        refused = phone.client.post("/undo", data={"token": phone.token}, base_url=ORIGIN,
                                    headers={"Referer": "http://evil.example/page"})
    assert refused.status_code == 403
    assert record.read_bytes() == before


def test_limits_and_malformed_requests(record: Path) -> None:
    phone = Phone(record)
    before = record.read_bytes()
    assert phone.post("/deal", {"dealer": "Ann", **MADE, "notes": "x" * 20000}).status_code == 413
    assert phone.post("/deal", {"dealer": "Ann", **MADE, "bidder": "A" * 500}).status_code == 400
    assert phone.post("/deal", {f"x{i}": "1" for i in range(60)}).status_code in (400, 413)
    bad = phone.client.post("/deal", data=b"\xff\xfe", base_url=ORIGIN, headers={"Origin": ORIGIN},
                            content_type="multipart/form-data")
    assert bad.status_code == 400
    assert record.read_bytes() == before


@pytest.mark.parametrize("where", ["/etc/passwd", "/../game.yaml", "/game.yaml", "/static/app.js", "/record/x"])
def test_nothing_else_is_served(record: Path, where: str) -> None:
    assert Phone(record).client.get(where, base_url=ORIGIN).status_code == 404


def test_the_record_itself_is_served(record: Path) -> None:
    got = Phone(record).client.get("/record", base_url=ORIGIN)
    assert got.status_code == 200 and got.data == record.read_bytes()


def test_three_players_each_for_themselves(tmp_path: Path) -> None:
    path = new_record(tmp_path, "-r", "three-handed", "--player", "Ann", "--player", "Bob", "--player", "Cy")
    phone = Phone(path)
    html = phone.open().get_data(as_text=True)
    assert 'name="meld:Ann"' in html and 'name="counters:Bob"' in html and 'name="counters:Cy"' not in html


def _cli_add(path: Path) -> None:
    env = {**os.environ, "PINOCHLE_RULESET": ""}
    done = subprocess.run([sys.executable, "-m", "pinochle_cli", "record", "add", str(path), "--no-prompt",
                           "--bidder", "Bob", "--bid", "250", "-t", "S", "--meld", "Us=20", "--meld", "Them=20",
                           "--counters", "Us=150"], env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr


def test_the_page_and_record_add_at_once_lose_nothing(record: Path) -> None:
    rounds = 5
    failures: list[BaseException] = []

    def page() -> None:
        phone = Phone(record)
        for _ in range(rounds):
            deal = {"bidder": "Ann", "bid": "250", "trump": "H", "meld:Us": "20", "meld:Them": "20",
                    "counters:Us": "100"}
            done = phone.post("/deal", deal)
            # the terminal added a deal after the page was shown: the page says so, shows it, and is sent again
            while done.status_code == 409 and "The sheet changed" in done.get_data(as_text=True):
                done = phone.post("/deal", deal)
            if done.status_code != 303:
                failures.append(AssertionError(done.get_data(as_text=True)))

    def terminal() -> None:
        try:
            for _ in range(rounds):
                _cli_add(record)
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=page), threading.Thread(target=terminal)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not failures
    deals = read_record(str(record)).deals
    assert len(deals) == 2 * rounds
    assert sorted(d.bidder for d in deals) == ["Ann"] * rounds + ["Bob"] * rounds


def test_a_record_that_becomes_unreadable_is_said(record: Path) -> None:
    phone = Phone(record)
    phone.open()
    record.write_text("deals: [\n", encoding="utf-8")
    got = phone.client.get("/", base_url=ORIGIN)
    assert got.status_code == 503 and "The record cannot be read now" in got.get_data(as_text=True)


def _after_or_none(found: int, error: int) -> bool:
    """The next field starts after the error (or no field follows)."""
    return found == -1 or found > error
