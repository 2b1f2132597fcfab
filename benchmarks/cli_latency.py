"""How long the light commands take, start to exit (warm: the OS file cache and the kernel cache filled).

    python benchmarks/cli_latency.py [--repeat 7]

Each command runs ``--repeat`` times in a fresh process (``python -m beggarstats ...``, as the
installed script does); the table shows the fastest and the median wall time, the CPU time
(user + sys) of the median run's process, and the target of issue #13. On a shared machine the
minimum is the figure to compare with the target: a busy neighbour only ever adds time.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"

COMMANDS = [
    ("python -c pass (interpreter start)", ["-c", "pass"], None),
    ("python -c 'import beggarstats'", ["-c", "import beggarstats"], None),
    ("beggarstats --help", ["-m", "beggarstats", "--help"], 0.3),
    ("beggarstats play DEAL", ["-m", "beggarstats", "play", RECORD], 0.5),
    ("beggarstats records", ["-m", "beggarstats", "records"], None),
]


def _once(args) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], cwd=ROOT, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                   stdout=subprocess.DEVNULL, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7)
    opts = parser.parse_args()
    print(f"{'command':<38} {'min wall':>9} {'median':>9} {'cpu':>7}  target")
    print("-" * 78)
    verdicts = []
    for name, args, target in COMMANDS:
        _once(args)  # warm the file cache
        runs = sorted(_once(args) for _ in range(opts.repeat))
        best = runs[0][0]
        median_wall, median_cpu = runs[len(runs) // 2]
        verdict = "" if target is None else f"<= {target:.1f} s {'ok' if best <= target else 'MISSED'}"
        if target is not None:
            verdicts.append(best <= target)
        print(f"{name:<38} {best:8.3f}s {median_wall:8.3f}s {median_cpu:6.3f}s  {verdict}")
    print("-" * 78)
    print(f"{opts.repeat} runs each; " + ("all targets met" if all(verdicts) else "a target was missed"))


if __name__ == "__main__":
    main()
