"""The quick tier's time (issue #41 item 4: at most 60 s wall on two workers, 150 CPU-seconds).

    python benchmarks/quick_tier.py              # three runs, seeds 11, 12, 13
    python benchmarks/quick_tier.py --seeds 5 6

Each row runs the README's quick-tier command in a child process with ``BEGGARSTATS_TEST_SEED`` set
(the seed draws the sampled tests, so a row repeats), and prints its wall time, the CPU time of the
child and everything it started (``getrusage(RUSAGE_CHILDREN)``: the workers and their processes), the
tests passed and the one-minute load average before the run. The kernels come from the cache: run the
quick tier once first on a fresh machine. ``PYTHONDONTWRITEBYTECODE=1`` (set on some machines)
makes every worker compile every module and rewrite every test's asserts again: about 5 s more a
run; the table says which way it ran.
"""

from __future__ import annotations

import argparse
import os
import re
import resource
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMAND = [sys.executable, "-m", "pytest", "-m", "not slow", "-n", "2", "--dist", "loadgroup", "-q",
           "-p", "no:cacheprovider"]


def run_once(seed: int) -> dict:
    load = os.getloadavg()[0]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(COMMAND, cwd=ROOT, env={**os.environ, "BEGGARSTATS_TEST_SEED": str(seed)},
                          capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    last = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr[-300:]
    passed = re.search(r"(\d+) passed", last)
    return {"seed": seed, "load": load, "wall": wall, "cpu": cpu, "passed": int(passed[1]) if passed else 0,
            "ok": done.returncode == 0, "last": last}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, nargs="+", default=[11, 12, 13])
    args = ap.parse_args(argv)
    bytecode = "off (PYTHONDONTWRITEBYTECODE)" if os.environ.get("PYTHONDONTWRITEBYTECODE") else "on"
    print(f"quick tier: {' '.join(COMMAND[1:])}; bytecode cache {bytecode}; {os.cpu_count()} cores")
    head = f"{'seed':>6} {'load before':>11} {'tests':>6} {'wall s':>7} {'CPU s':>7}  target (60 s, 150 CPU-s)"
    print(head)
    print("-" * len(head))
    rows = []
    for seed in args.seeds:
        r = run_once(seed)
        rows.append(r)
        met = r["ok"] and r["wall"] <= 60 and r["cpu"] <= 150
        print(f"{seed:>6} {r['load']:>11.2f} {r['passed']:>6,} {r['wall']:>7.1f} {r['cpu']:>7.1f}  "
              f"{'met' if met else 'MISSED'}{'' if r['ok'] else ' (failed: ' + r['last'] + ')'}")
    print("-" * len(head))
    walls = sorted(r["wall"] for r in rows)
    cpus = sorted(r["cpu"] for r in rows)
    print(f"median wall {walls[len(walls) // 2]:.1f} s, median CPU {cpus[len(cpus) // 2]:.1f} s over {len(rows)} runs")
    return 0 if all(r["ok"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
