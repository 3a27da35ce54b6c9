"""Nothing is lost: the end of the input or Ctrl-C in the middle of a deal keeps it in the journal, ``--resume``
finishes the same deal with the same result as a session never interrupted, and the record never holds half a
deal."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from clihelp import run_cli
from playhelp import events, of, practice_lines

from pinochle_cli.errors import JournalError
from pinochle_cli.session import journal
from pinochle_cli.session.session import Session

ARGS = ("play", "--seed", "5", "--time", "0.2", "--no-review", "--json")


@pytest.fixture(autouse=True)
def _data(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINOCHLE_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.chdir(tmp_path)


def _deals(path: str) -> list[object]:
    return list(json.loads(run_cli("score", path, "--json").out)["deals"])


def test_eof_in_trick_5_then_resume_finishes_the_same_deal(tmp_path: Path) -> None:
    lines = list(practice_lines("single-deck", 5))
    # the call, the pass, the meld, then the cards of tricks 1 to 4: the input ends at trick 5
    first, rest = lines[:7], lines[7:]
    code, out, err = run_cli(*ARGS, "--record", "a.yaml", input="\n".join(first) + "\n")
    assert (code, err) == (0, "")
    found = events(out)
    assert found[-1] == {"event": "kept", "journal": str(journal.journal_path("a.yaml")), "deal": 1}
    assert of(found, "decision")[-1]["trick"] == 5
    assert _deals("a.yaml") == []  # no half deal in the record
    assert journal.journal_path("a.yaml").is_file()
    code, out, err = run_cli("play", "--resume", "--record", "a.yaml", "--json", input="\n".join(rest) + "\nquit\n")
    assert (code, err) == (0, "")
    resumed = events(out)
    assert [e["event"] for e in resumed[:3]] == ["deal_started", "shown", "decision"]
    assert resumed[2]["trick"] == 5
    code, out, err = run_cli(*ARGS, "--record", "b.yaml", input="\n".join(lines) + "\nquit\n")
    assert (code, err) == (0, "")
    whole = events(out)
    ended = [{k: v for k, v in e.items() if k != "record"} for e in of(resumed, "deal_ended") + of(whole, "deal_ended")]
    assert len(ended) == 2 and ended[0] == ended[1]
    assert of(resumed, "trick")[-8:] == of(whole, "trick")[-8:]
    assert _deals("a.yaml") == _deals("b.yaml") != []


def test_ctrl_c_keeps_the_deal_and_exits_130(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lines = list(practice_lines("single-deck", 5))
    handled = Session.handle
    calls = []

    def interrupted(self: Session, command: object) -> object:
        calls.append(command)
        if len(calls) == 4:
            raise KeyboardInterrupt
        return handled(self, command)  # type: ignore[arg-type]

    monkeypatch.setattr(Session, "handle", interrupted)
    code, out, _ = run_cli(*ARGS, "--record", "a.yaml", input="\n".join(lines) + "\n")
    assert code == 130
    assert events(out)[-1]["event"] == "kept" and _deals("a.yaml") == []
    monkeypatch.setattr(Session, "handle", handled)
    # the first three entries were kept; the fourth (the second card) is typed again
    code, out, _ = run_cli("play", "--resume", "--record", "a.yaml", "--json", input="\n".join(lines[3:]) + "\n")
    assert code == 0 and of(events(out), "deal_ended")


def test_quit_keeps_the_deal_and_the_match_ends_the_journal(tmp_path: Path) -> None:
    lines = list(practice_lines("single-deck", 5))
    assert run_cli(*ARGS, input="bid 250\nquit\n").code == 0
    path = journal.journal_path(None)
    assert path.parent == tmp_path / "data" and path.is_file()
    kept = journal.load(path)
    assert kept["number"] == 1 and kept["state"]["actions"]
    code, out, _ = run_cli("play", "--resume", "--json", input="\n".join(lines[1:]) + "\nquit\n")
    assert code == 0 and of(events(out), "deal_ended")


def test_a_kept_session_is_not_overwritten_unasked(tmp_path: Path) -> None:
    assert run_cli(*ARGS, input="bid 250\n").code == 0
    code, out, err = run_cli(*ARGS, input="")
    assert (code, out) == (2, "")
    assert err.startswith("Error: a session is kept in ") and "--resume" in err and "--fresh" in err
    code, out, _ = run_cli(*ARGS, "--fresh", input="quit\n")
    assert code == 0 and events(out)[0]["event"] == "deal_started"


def test_resume_without_a_kept_session_or_with_other_settings_is_an_error(tmp_path: Path) -> None:
    code, _, err = run_cli("play", "--resume")
    assert code == 2 and "no session is kept there to resume" in err
    assert run_cli(*ARGS, input="bid 250\n").code == 0
    code, _, err = run_cli("play", "--resume", "--seat", "2", "--seed", "9")
    assert code == 2 and err == ("Error: --resume continues the kept session as it was started: leave out --seat, "
                                 "--seed\n")


def test_a_journal_that_cannot_be_read_is_refused(tmp_path: Path) -> None:
    path = journal.journal_path(None)
    path.parent.mkdir(parents=True)
    path.write_text("{not json", encoding="utf-8")
    code, _, err = run_cli("play", "--resume")
    assert code == 2 and "the kept session is not JSON" in err
    path.write_text(json.dumps({"format": "other"}), encoding="utf-8")
    with pytest.raises(JournalError, match="not a session kept by this program"):
        journal.load(path)


def test_the_journal_is_written_whole(tmp_path: Path) -> None:
    path = tmp_path / "j" / "play.json"
    journal.save(path, {"a": 1})
    journal.save(path, {"a": 2})
    assert journal.load(path) == {"a": 2}
    assert sorted(p.name for p in path.parent.iterdir()) == ["play.json"]  # no temporary file left
    journal.drop(path)
    journal.drop(path)
    assert not path.exists()
