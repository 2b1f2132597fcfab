"""Peak memory of `simulate` against the frame it returns (issue #11).

    python benchmarks/memory.py                 # 10^7 games, n_jobs 1 and 2, plus per_seat at 10^6
    python benchmarks/memory.py --games 1000000

Every row runs in a fresh process: import beggarstats, warm the kernels on a few games, note the
resident set (RSS) as the baseline, reset the peak (``/proc/self/clear_refs``), run `simulate`,
and read the process's peak RSS since then (``VmHWM``; ``getrusage`` where it cannot be reset:
what the operating system had to provide). ``peak`` is peak RSS minus baseline;
``frame`` is ``memory_usage(deep=True)`` of the returned frame(s); the target is peak <= 2x frame.
A matches row measures `simulate_matches` the same way, against its frame (target 1.3x). A store
row measures what ``beggarstats simulate --store`` runs (`run.summarize.store_and_summarize` into a
fresh directory): it returns no frame, so its peak is per game and should not grow with the games
(``--store-games`` gives the sizes: the same peak at every size is constant memory).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CHILD = r"""
import json, resource, sys, tempfile
import beggarstats as bs
from beggarstats.run.summarize import store_and_summarize

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()

kind, n, jobs, per_seat = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1"
if kind == "simulate":
    bs.simulate(2000, seed=0, n_jobs=jobs, per_seat=per_seat)   # warm: kernels loaded, pools up
elif kind == "store":
    tmp = tempfile.TemporaryDirectory()
    store_and_summarize(2000, seed=0, n_jobs=jobs, store=tmp.name + "/warm")
else:
    bs.simulate_matches(2000, seed=0, n_jobs=jobs)
def high_water():
    # the peak resident set since the last reset (VmHWM), so that a kernel compiled during the
    # warm-up (its LLVM memory) is not counted as the run's
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) * 1024 for line in f if line.startswith("VmHWM:"))

try:
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")  # reset the high-water mark (Linux >= 4.0)
    reset = True
except OSError:
    reset = False
base = rss()
if kind == "simulate":
    out = bs.simulate(n, seed=1, n_jobs=jobs, per_seat=per_seat)
elif kind == "store":
    out = ()
    store_and_summarize(n, seed=1, n_jobs=jobs, per_seat=per_seat, store=tmp.name + "/run")
else:
    out = bs.simulate_matches(n, seed=1, n_jobs=jobs)
peak = (high_water() if reset else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024) - base
frames = out if isinstance(out, tuple) else (out,)
frame = sum(int(f.memory_usage(deep=True).sum()) for f in frames)
print(json.dumps({"base": base, "peak": peak, "frame": frame}))
"""


def measure(kind: str, n: int, jobs: int, per_seat: bool) -> dict:
    env = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}
    done = subprocess.run([sys.executable, "-c", _CHILD, kind, str(n), str(jobs), "1" if per_seat else "0"],
                          cwd=ROOT, env=env, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10**7)
    ap.add_argument("--store-games", type=int, nargs="*", default=[10**6, 4 * 10**6],
                    help="sizes of the simulate --store rows (default 10^6 and 4x10^6; none: no store row)")
    ap.add_argument("--only", choices=["simulate", "matches", "store"], default=None, help="run one kind of row")
    args = ap.parse_args(argv)
    n = args.games
    rows = [("simulate", n, 1, False), ("simulate", n, 2, False), ("simulate", n // 10, 2, True),
            ("matches", n // 10, 2, False)] + [("store", k, 2, False) for k in args.store_games]
    rows = [r for r in rows if args.only in (None, r[0])]
    head = f"{'run':<40} {'rows':>12} {'baseline MB':>12} {'frame MB':>9} {'peak MB':>8} {'B/row frame':>12} " \
           f"{'B/row peak':>11} {'peak/frame':>10}  target"
    print(head)
    print("-" * len(head))
    ok = True
    for kind, k, jobs, per_seat in rows:
        m = measure(kind, k, jobs, per_seat)
        label = f"{kind}({k:,}, n_jobs={jobs}{', per_seat' if per_seat else ''})"
        if kind == "store":  # no frame: the peak alone, which should not grow with the games
            print(f"{label:<40} {k:>12,} {m['base'] / 1e6:>12.0f} {'-':>9} {m['peak'] / 1e6:>8.0f} {'-':>12} "
                  f"{m['peak'] / k:>11.1f} {'-':>10}  -")
            continue
        ratio = m["peak"] / m["frame"]
        good = ratio <= (2.0 if kind == "simulate" else 1.3)
        ok &= good
        print(f"{label:<40} {k:>12,} {m['base'] / 1e6:>12.0f} {m['frame'] / 1e6:>9.0f} {m['peak'] / 1e6:>8.0f} "
              f"{m['frame'] / k:>12.1f} {m['peak'] / k:>11.1f} {ratio:>9.2f}x  "
              f"{'ok' if good else 'MISS'}")
    print("-" * len(head))
    print("target: simulate peak <= 2x its frame, matches <= 1.3x" + ("; met" if ok else "; MISSED"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
