"""Time the YAML reader: ``python benchmarks/bench_yaml.py [--deals N]``.

Prints the CPU count, then the seconds ``yamlsource.load_text`` takes on a record of N deals
with libyaml's parser (when PyYAML has it) and with the pure-Python parser, and on a text of
100,000 nested brackets (refused at the depth limit).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import time
from collections.abc import Callable

from pinochle_cli import yamlsource
from pinochle_cli.errors import YamlError
from pinochle_cli.yamlsource import load_text

DEAL = """\
  - dealer: Kim
    auction: [50, 52, pass, 55, pass, 60, pass]
    bidder: Lou
    bid: 60
    trump: hearts
    meld: {Kim & Lou: 38, Max & Ned: 20}
    counters: {Kim & Lou: 30, Max & Ned: 20}
"""


def seconds(run: Callable[[], object]) -> float:
    start = time.perf_counter()
    with contextlib.suppress(YamlError):
        run()
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--deals", type=int, default=10_000)
    args = parser.parse_args()
    print(f"os.cpu_count() = {os.cpu_count()}")
    record = "ruleset: double-deck\ndeals:\n" + DEAL * args.deals
    deep = "[" * 100_000
    fast = yamlsource._FAST_LOADER
    for label, loader in (("libyaml", fast), ("pure Python", None)):
        if label == "libyaml" and fast is None:
            print("libyaml: not in this PyYAML")
            continue
        yamlsource._FAST_LOADER = loader
        print(f"{label}: record of {args.deals} deals ({len(record) / 1e6:.1f} MB): "
              f"{seconds(lambda: load_text(record, 'record.yaml')):.2f} s; "
              f"100,000 nested brackets refused in {seconds(lambda: load_text(deep, 'deep.yaml')):.3f} s")
    yamlsource._FAST_LOADER = fast


if __name__ == "__main__":
    main()
