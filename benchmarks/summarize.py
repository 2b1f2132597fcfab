"""summarize(): throughput against the bare engine, and peak memory against the number of games.

Usage::

    python benchmarks/summarize.py [--games N] [--memory 1000000,100000000] [--jobs 2]

Throughput: best of 5, interleaved, of (a) the bare engine - `engine.fast.play_games` on the same
chunks in ``--jobs`` joblib threads, results thrown away - and (b) ``summarize(N, n_jobs=jobs)``,
on standard two-player games, and (c) ``simulate(N, n_jobs=jobs)``, the frame of one row a game.
Targets: (b) >= 0.95x (a), and (b) >= 0.97x (c) (issue #24). Both wall-clock games/s and games per
CPU-second of this process are shown: on a shared machine the wall clock swings with the
neighbours' load, CPU time much less, so the CPU ratio is the steadier one; the 10^10-game estimate
uses games per CPU-second (one core's speed).

Memory: each size in ``--memory`` runs ``summarize(n, n_jobs=jobs)`` in a fresh Python process
(so numba, numpy and pandas are loaded alike) and reads that process's peak resident set size
(``ru_maxrss``). Target: peak RSS at the largest size within a few MB of the smallest.

Prints one table. Compile the kernels first (any earlier run does): compilation is not timed.
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

SEED = 12345


def child(n: int, jobs: int) -> None:
    """Run summarize(n) here and print JSON: seconds, games/s, peak RSS in MB."""
    from beggarstats.run.summarize import summarize

    summarize(1000, seed=SEED, n_jobs=1)  # loads the compiled kernels
    t0 = time.perf_counter()
    s = summarize(n, seed=SEED, n_jobs=jobs)
    dt = time.perf_counter() - t0
    assert s.n_games == n
    print(json.dumps({"games": n, "seconds": dt, "rate": n / dt,
                      "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}))


def throughput(n: int, jobs: int, repeats: int = 5) -> dict:
    import joblib
    import numpy as np

    from beggarstats.engine.fast import play_games
    from beggarstats.game.rules import Rules
    from beggarstats.run.parallel import chunks as _chunks
    from beggarstats.run.simulate import simulate
    from beggarstats.run.summarize import summarize

    rules = Rules()

    def bare():
        def one(lo, hi):
            play_games(rules, SEED, np.arange(lo, hi, dtype=np.int64))
            return hi - lo

        tasks = (joblib.delayed(one)(lo, hi) for lo, hi in _chunks([(0, n)], None, jobs))
        done = sum(joblib.Parallel(n_jobs=jobs, prefer="threads", return_as="generator_unordered")(tasks))
        assert done == n

    runs = {"engine": bare, "summarize": lambda: summarize(n, seed=SEED, n_jobs=jobs),
            "simulate": lambda: simulate(n, seed=SEED, n_jobs=jobs)}
    runs["summarize"]()  # warm-up
    runs["simulate"]()
    best = dict.fromkeys(runs, float("inf"))
    cpu = dict.fromkeys(runs, float("inf"))
    for _ in range(repeats):
        for name, run in runs.items():
            t0, c0 = time.perf_counter(), time.process_time()
            run()
            best[name] = min(best[name], time.perf_counter() - t0)
            cpu[name] = min(cpu[name], time.process_time() - c0)
    return {k: n / v for k, v in best.items()}, {k: n / v for k, v in cpu.items()}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2_000_000, help="games per throughput run (default 2e6)")
    ap.add_argument("--memory", default="1000000,100000000", help="comma-separated sizes for the memory rows")
    ap.add_argument("--jobs", type=int, default=2, help="threads (default 2)")
    ap.add_argument("--child", type=int, default=None, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child is not None:
        child(args.child, args.jobs)
        return 0

    rates, cpu = throughput(args.games, args.jobs)
    rows = [("bare engine, same chunks", f"{args.games:,}", f"{rates['engine']:,.0f}", f"{cpu['engine']:,.0f}",
             "", "", ""),
            ("summarize()", f"{args.games:,}", f"{rates['summarize']:,.0f}", f"{cpu['summarize']:,.0f}",
             f"{rates['summarize'] / rates['engine']:.3f}x / {cpu['summarize'] / cpu['engine']:.3f}x engine "
             f"(target >= 0.95)", "", ""),
            ("simulate(), a row a game", f"{args.games:,}", f"{rates['simulate']:,.0f}", f"{cpu['simulate']:,.0f}",
             f"summarize {rates['summarize'] / rates['simulate']:.3f}x / {cpu['summarize'] / cpu['simulate']:.3f}x "
             f"this (target >= 0.97)", "", "")]
    peaks = []
    for n in (int(x) for x in args.memory.split(",") if x):
        out = subprocess.run([sys.executable, __file__, "--child", str(n), "--jobs", str(args.jobs)],
                             check=True, capture_output=True, text=True, cwd=REPO).stdout
        r = json.loads(out.strip().splitlines()[-1])
        peaks.append(r["peak_mb"])
        rows.append(("summarize() in a fresh process", f"{n:,}", f"{r['rate']:,.0f}", "", "",
                     f"{r['seconds']:.1f}", f"{r['peak_mb']:.1f}"))
    head = ("run", "games", "games/s", "games/CPU-s", "ratio wall / CPU", "seconds", "peak RSS MB")
    widths = [max(len(str(x[i])) for x in rows + [head]) for i in range(len(head))]
    print(f"threads: {args.jobs}")
    for row in [head, tuple("-" * w for w in widths), *rows]:
        print("  ".join(str(c).ljust(w) for c, w in zip(row, widths)))
    if len(peaks) > 1:
        print(f"peak RSS, largest minus smallest run: {peaks[-1] - peaks[0]:+.1f} MB")
    per_core = cpu["summarize"]  # games per CPU-second: one busy core's speed, whatever the neighbours do
    hours = 1e10 / per_core / 3600
    print(f"per core: {per_core:,.0f} games/s -> 10^10 games take {hours:,.1f} core-hours "
          f"({hours * 60 / 64:,.0f} minutes on 64 cores, {hours / 2:,.1f} hours on this machine's 2)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
