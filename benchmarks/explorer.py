"""How long the explorer of notebooks/00_explorer takes to answer a change of its controls.

    python benchmarks/explorer.py              # 100,000 games, 3 passes
    python benchmarks/explorer.py --games N --passes K --jobs J

One row per change of the controls, applied in turn as in a reader's session: `update` (play the
sample, and the standard game when the player count or seed changed; the tables; the figure) and
`png` (rendering that figure to PNG, what the notebook's inline backend does to show it). The
table shows the median and the worst pass of each, and the target: an update within about 2 s.
`cpu s` is the CPU time this process spent on the change (both threads of the simulation counted),
which other users of a shared machine inflate much less than the wall-clock columns. The machine
is shared: quote numbers from one run, with the load average it prints.
"""

from __future__ import annotations

import argparse
import io
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import matplotlib  # noqa: E402

matplotlib.use("Agg")

from beggarstats.report.explore import Explorer  # noqa: E402

CHANGES = [
    ("shuffle_pile on", dict(shuffle_pile=True)),
    ("shuffle_pile off", dict(shuffle_pile=False)),
    ("end = empty", dict(end="empty")),
    ("players = 3 (new standard sample)", dict(players=3)),
    ("exhausted_tribute = passes_on", dict(exhausted_tribute="passes_on")),
    ("direction = ccw", dict(direction="ccw")),
    ("deck = italian (independent)", dict(deck="italian")),
    ("jokers = 1", dict(jokers=1)),
    ("joker_mode = beggar", dict(joker_mode="beggar")),
    ("seed = 7 (new standard sample)", dict(seed=7)),
    ("back to the standard game", dict(players=2, deck="standard", jokers=0, joker_mode="super", end="trick",
                                       exhausted_tribute="claimant", direction="cw", seed=2026)),
]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=-1)
    args = ap.parse_args(argv)

    explorer = Explorer(games=args.games, seed=2026, n_jobs=args.jobs)  # warms the kernels and caches
    times = {name: ([], [], []) for name, _ in CHANGES}
    for _ in range(args.passes):
        for name, change in CHANGES:
            cpu = time.process_time()
            explorer.set(**change)
            t = time.perf_counter()
            explorer.figure.savefig(io.BytesIO(), format="png", bbox_inches="tight")
            times[name][0].append(explorer.elapsed)
            times[name][1].append(time.perf_counter() - t)
            times[name][2].append(time.process_time() - cpu)

    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"explorer updates, {args.games:,} games per sample, n_jobs={args.jobs}, {args.passes} passes, "
          f"{os.cpu_count()} cores, load average {load:.1f}")
    head = f"{'change':40s} {'update s':>9s} {'png s':>7s} {'total s':>8s} {'worst s':>8s} {'cpu s':>6s}  target"
    print(head)
    print("-" * len(head))
    worst_all = 0.0
    for name, (update, png, cpu) in times.items():
        total = [u + p for u, p in zip(update, png)]
        worst_all = max(worst_all, max(total))
        ok = "ok" if statistics.median(total) <= 2.0 else "SLOW"
        print(f"{name:40s} {statistics.median(update):9.2f} {statistics.median(png):7.2f} "
              f"{statistics.median(total):8.2f} {max(total):8.2f} {statistics.median(cpu):6.2f}  {ok}")
    print("-" * len(head))
    print(f"target: median update + png <= 2.0 s; worst single update {worst_all:.2f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
