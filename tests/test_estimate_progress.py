"""The estimate's progress line: its time left, from the pace so far, once enough is done to tell."""

from __future__ import annotations

import pytest

from pinochle_cli.cli import estimate_cmd


@pytest.mark.parametrize(("done", "total", "elapsed", "said"), [
    (0, 100, 60.0, ""),          # nothing done: no pace
    (4, 100, 60.0, ""),          # under 5 % done: the first parts are no guide
    (50, 100, 9.0, ""),          # under 10 s: too soon
    (100, 100, 60.0, ""),        # done
    (50, 100, 30.0, ", about 30 s left"),
    (10, 100, 20.0, ", about 3 min left"),
    (500, 8000, 1200.0, ", about 5 h 00 min left"),
])
def test_time_left(done: int, total: int, elapsed: float, said: str) -> None:
    assert estimate_cmd.time_left(done, total, elapsed) == said


def test_the_line_tells_the_time_left_and_keeps_its_length(monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    clock = [100.0]
    monkeypatch.setattr(estimate_cmd.time, "monotonic", lambda: clock[0])
    bar = estimate_cmd._Progress("solves")
    bar.enabled, bar.before = True, 8
    clock[0] = 130.0
    # 8 solves were timed before the start: 40 more in 30 s, 40 to go
    bar(48, 88)
    clock[0] = 131.0
    bar(88, 88)
    bar.close()
    first, second = capsys.readouterr().err.strip("\n").split("\r")[1:]
    assert first.endswith("48/88 solves, about 30 s left")
    assert second.rstrip().endswith("88/88 solves") and len(second) == len(first)
