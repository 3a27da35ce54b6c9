"""House rules in one step: `rulesets copy`, and a record that keeps scoring when its folder moves."""

from __future__ import annotations

import dataclasses
import json
import shutil
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from clihelp import run_cli

from pinochle_cli.ruleset import Ruleset, load_ruleset


@pytest.fixture(autouse=True)
def _here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def the_game(rules: Ruleset) -> Ruleset:
    """The ruleset without what names it (name, aliases, source, file)."""
    return dataclasses.replace(rules, name="", aliases=(), source="", path="", deck=dataclasses.replace(rules.deck, name=""))


@pytest.mark.parametrize("game", ["single-deck", "double-deck", "two-handed", "small"])
def test_copy_renames_and_keeps_the_comments(game: str) -> None:
    code, out, err = run_cli("rulesets", "copy", game, "house.yaml", "--name", "Friday rules")
    original = load_ruleset(game)
    assert (code, err) == (0, "")
    assert out == (f"Wrote house.yaml: 'Friday rules', a copy of {original.name}. Change what your table plays, "
                   "then: pinochle rulesets check house.yaml\n")
    copied = load_ruleset("house.yaml")
    assert (copied.name, copied.aliases, copied.source) == (
        "Friday rules", (), f"copied from the {original.name} ruleset")
    text = Path("house.yaml").read_text(encoding="utf-8")
    assert text.startswith(f"# Friday rules: house rules, copied from the {original.name} ruleset")
    comments = [line for line in Path(original.path).read_text(encoding="utf-8").splitlines() if "#" in line
                and not line.startswith(("name:", "aliases:", "source:"))]
    assert comments and all(line in text.splitlines() for line in comments)
    assert the_game(copied) == the_game(original)
    assert [o.name for o in copied.options] == [o.name for o in original.options]


def test_every_answer_then_names_the_copy() -> None:
    run_cli("rulesets", "copy", "single-deck", "house.yaml", "--name", "Friday rules")
    code, out, _ = run_cli("meld", "AH TH KH QH JH", "-t", "H", "-r", "house.yaml", "-o", "target=1000")
    assert code == 0 and out.splitlines()[0] == "Friday rules (-o target=1000), trump ♥ hearts: A♥ 10♥ K♥ Q♥ J♥"
    code, out, _ = run_cli("legal", "--hand", "AS", "-t", "H", env={"PINOCHLE_RULESET": "house.yaml"})
    assert code == 0 and out.splitlines()[0] == "Friday rules, trump ♥ hearts"


def test_the_name_defaults_to_the_file_and_a_quoted_name_reads_back() -> None:
    assert run_cli("rulesets", "copy", "single-deck", "ours.yaml")[0] == 0
    assert load_ruleset("ours.yaml").name == "ours"
    assert run_cli("rulesets", "copy", "single-deck", "odd.yaml", "--name", "yes: #1")[0] == 0
    assert load_ruleset("odd.yaml").name == "yes: #1"


@pytest.mark.parametrize(("args", "message"), [
    (["--name", "Small"], "Error: 'Small' names a bundled ruleset: give the copy a name of its own "
                          "(e.g. --name \"Small at our table\")\n"),
    (["--name", "  "], "Error: --name is empty: give the copy a name of its own, e.g. --name \"Friday rules\"\n"),
])
def test_a_name_of_its_own(args: list[str], message: str) -> None:
    assert run_cli("rulesets", "copy", "single-deck", "house.yaml", *args) == (2, "", message)
    assert not Path("house.yaml").exists()


def test_an_existing_file_is_kept_unless_forced() -> None:
    Path("house.yaml").write_text("mine\n", encoding="utf-8")
    assert run_cli("rulesets", "copy", "single-deck", "house.yaml") == (
        2, "", "Error: house.yaml exists: give another FILE, or --force to replace it\n")
    assert Path("house.yaml").read_text(encoding="utf-8") == "mine\n"
    assert run_cli("rulesets", "copy", "single-deck", "house.yaml", "--force")[0] == 0


@pytest.mark.parametrize("how", ["-r", "env"])
def test_a_record_and_its_house_rules_move_together(tmp_path: Path, how: str) -> None:
    night = tmp_path / "club"
    night.mkdir()
    run_cli("rulesets", "copy", "single-deck", "club/house.yaml", "--name", "Friday rules")
    table = ["--team", "North-South=Ann,Cy", "--team", "East-West=Bob,Di"]
    args, env = (["-r", "club/house.yaml"], {}) if how == "-r" else ([], {"PINOCHLE_RULESET": str(night / "house.yaml")})
    assert run_cli("record", "new", "club/night.yaml", *args, *table, env=env)[0] == 0
    assert "ruleset: house.yaml\n" in (night / "night.yaml").read_text(encoding="utf-8")
    moved = tmp_path / "elsewhere" / "club"
    shutil.move(str(night), str(moved))
    code, out, err = run_cli("score", str(moved / "night.yaml"), "--json")
    assert (code, err) == (0, "")
    assert json.loads(out)["ruleset"] == "Friday rules"


def test_a_copy_named_like_nothing_bundled_is_still_stored_by_path(tmp_path: Path) -> None:
    """A house file that kept a bundled name is stored by its path, not as the bundled game."""
    Path("house.yaml").write_text(Path(str(load_ruleset("single-deck").path)).read_text(encoding="utf-8")
                                  .replace("last_trick: 10", "last_trick: 20", 1), encoding="utf-8")
    assert run_cli("record", "new", "night.yaml", "-r", "house.yaml", "--team", "A=Ann,Cy", "--team", "B=Bob,Di")[0] == 0
    assert "ruleset: house.yaml\n" in Path("night.yaml").read_text(encoding="utf-8")


# ------------------------------------------------------------------ a full disk

def _file_size_limit(limit: int) -> Callable[[], None]:
    """For the child: writes past ``limit`` bytes fail (EFBIG, SIGXFSZ ignored), as on a full disk."""
    def set_limit() -> None:
        import resource

        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return set_limit


def _copy_under_limit(limit: int, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "pinochle_cli", "rulesets", "copy", "single-deck", *args],
                          capture_output=True, text=True, timeout=120, preexec_fn=_file_size_limit(limit))


@pytest.mark.skipif(not hasattr(signal, "SIGXFSZ"), reason="needs POSIX file size limits")
@pytest.mark.parametrize("limit", [0, 1024])
def test_a_full_disk_never_destroys_the_old_file_nor_leaves_a_new_one(limit: int) -> None:
    old = Path("house.yaml")
    old.write_text("# our Friday rules, kept\n", encoding="utf-8")
    ran = _copy_under_limit(limit, "house.yaml", "--force")
    assert (ran.returncode, ran.stdout) == (2, ""), ran
    assert old.read_text(encoding="utf-8") == "# our Friday rules, kept\n"
    assert ran.stderr == "Error: house.yaml: cannot write: File too large; the file is unchanged\n"
    ran = _copy_under_limit(limit, "new.yaml")
    assert not Path("new.yaml").exists()
    assert ran.stderr == "Error: new.yaml: cannot write: File too large; no file was written\n"
    assert not Path("new.yaml").exists()
    assert sorted(p.name for p in Path().iterdir()) == ["house.yaml"]
    # the retry with room is not blocked by anything left behind
    assert run_cli("rulesets", "copy", "single-deck", "new.yaml").code == 0


@pytest.mark.parametrize("name", ["a\x01b", "Friday\x7f", "bell\x07"])
def test_a_name_with_a_control_character_is_refused_before_anything_is_written(name: str) -> None:
    code, out, err = run_cli("rulesets", "copy", "single-deck", "house.yaml", "--name", name)
    assert (code, out, err) == (2, "", f"Error: --name {name!r}: a name is one line of printable characters\n")
    assert not Path("house.yaml").exists()


def test_a_copy_of_a_copy_has_one_header() -> None:
    assert run_cli("rulesets", "copy", "single-deck", "friday.yaml", "--name", "Friday").code == 0
    assert run_cli("rulesets", "copy", "friday.yaml", "saturday.yaml", "--name", "Saturday").code == 0
    assert run_cli("rulesets", "copy", "saturday.yaml", "sunday.yaml").code == 0
    first, last = Path("friday.yaml").read_text(encoding="utf-8"), Path("sunday.yaml").read_text(encoding="utf-8")
    assert last.count("house rules, copied from the") == 1
    assert last.startswith("# sunday: house rules, copied from the Saturday ruleset by `pinochle rulesets copy`.\n")
    # below the header, the copy of a copy is the first copy with its own name
    assert last.split("\n", 8)[8].replace("name: sunday", "name: Friday").replace(
        "copied from the Saturday ruleset", "copied from the single-deck ruleset") == first.split("\n", 8)[8]
