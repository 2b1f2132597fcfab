"""The engine of this checkout against the engine of another, row by row, in one sitting.

Engine changes must keep every row of `throughput.py` within 5% of the engine they replace. This
times the rows of `throughput.cases()` (and two rows for the exact driver) in two checkouts -
typically a worktree of the old commit, ``git worktree add /tmp/old <commit>`` - in alternate
subprocesses (old, new, old, new, ...), so a busy spell of a shared machine hits both alike, and
prints ONE table: games per CPU-second of each run, new/old per pair, their median and, from three
pairs on, the verdict against a gate (``--gate``, default 0.95: "every row within 5%").

The verdict reads the pairs as the paired design they are: the new/old ratios' geometric mean and
its one-sided 95% lower bound (Student's t on the logarithms of the ratios, `scipy.stats.ttest_1samp`),
'within' when the bound is at or above the gate, 'slower' when the one-sided 95% upper bound is
below it, 'undecided' otherwise (more pairs decide). The gate is met when every row is 'within': each
row's test at 5% is then an intersection-union test of all of them, which needs no multiplicity
adjustment. A median above the gate is not enough; noise alone puts some rows of a long table on
either side of it.

Usage::

    python benchmarks/side_by_side.py OLD_CHECKOUT [--games N] [--pairs K] [--gate G] [--rows TEXT ...]

The first run in a checkout compiles its kernels (about a minute); that warm-up is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Runs inside the checkout under test: its own beggarstats, the rows of this checkout's list.
_TIMER = r"""
import json, sys, time
import numpy as np
import beggarstats as bs
from beggarstats.engine.fast import play_games
Rules = bs.Rules  # wherever the checkout keeps it
rows = json.loads(sys.argv[1]); games = int(sys.argv[2]); out = {}
ids = np.arange(games, dtype=np.int64)
for label, options in rows:
    try:
        rules = Rules.from_dict(options)
    except TypeError:  # an option this checkout does not have
        continue
    play_games(rules, 12345, ids[:64])  # compile / load from the cache
    best = float("inf")
    for _ in range(3):
        c0 = time.process_time()
        play_games(rules, 12345, ids)
        best = min(best, time.process_time() - c0)
    out[label] = games / best
print(json.dumps(out))
"""


def rows() -> list[tuple[str, dict]]:
    """The rows of throughput.py, then two rows for the exact driver (which the throughput rows
    reach only for the rare games a fast pass hands back): every game of a jacks-only deck, where
    loops are common, and a double deck on ring buffers. As (label, Rules.to_dict() without the
    defaults), which both checkouts read."""
    sys.path.insert(0, str(REPO / "benchmarks"))
    sys.path.insert(0, str(REPO))
    from throughput import cases  # noqa: E402

    from beggarstats import Deck, Rules

    extra = [("loops common, exact replays", Rules(deck=Deck.from_counts((8, 4, 0, 0, 0)))),
             ("exact driver, ring, 104 cards", Rules(players=3, deck=Deck.from_counts((72, 8, 8, 8, 8))))]
    default = Rules().to_dict()
    out = []
    for label, rules in cases() + extra:
        out.append((label, {k: v for k, v in rules.to_dict().items() if v != default[k]}))
    return out


def time_checkout(checkout: Path, table: list, games: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    done = subprocess.run([sys.executable, "-c", _TIMER, json.dumps(table), str(games)], cwd=checkout, env=env,
                          capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"timing {checkout} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def gate_row(ratios: list[float], gate: float) -> tuple[float, float, str]:
    """The geometric mean of the new/old ``ratios`` of one row, its one-sided 95% lower bound and the
    verdict against ``gate`` ('within', 'slower' or 'undecided'; see the module's docstring)."""
    import numpy as np
    from scipy import stats

    logs = np.log(np.asarray(ratios, dtype=float))
    if len(logs) < 3:
        raise ValueError(f"`ratios` must hold at least three pairs to bound their mean, got {len(logs)}")
    low, high = stats.ttest_1samp(logs, 0.0).confidence_interval(0.90)  # each end a one-sided 95% bound
    verdict = "within" if low >= np.log(gate) else ("slower" if high < np.log(gate) else "undecided")
    return float(np.exp(logs.mean())), float(np.exp(low)), verdict


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, help="the other checkout (e.g. a worktree of the old commit)")
    ap.add_argument("--games", type=int, default=300_000, help="games per row (default 300,000)")
    ap.add_argument("--pairs", type=int, default=2, help="old/new pairs (default 2)")
    ap.add_argument("--gate", type=float, default=0.95,
                    help="the lowest new/old every row must be shown to keep (default 0.95; issue #41: 0.97)")
    ap.add_argument("--rows", nargs="*", default=None, metavar="TEXT",
                    help="only the rows whose label contains one of these texts (default: every row)")
    args = ap.parse_args(argv)
    old = args.old.resolve()
    if not 0 < args.gate <= 1:
        print(f"error: --gate must be in (0, 1], got {args.gate}", file=sys.stderr)
        return 2
    if not (old / "beggarstats").is_dir():
        print(f"error: {old} is not a beggarstats checkout", file=sys.stderr)
        return 2
    table = rows()
    if args.rows:
        table = [(label, options) for label, options in table if any(t in label for t in args.rows)]
    for checkout in (old, REPO):  # warm-up: compile or load each checkout's kernels
        time_checkout(checkout, table, 1_000)
    runs = []
    for _ in range(args.pairs):
        runs.append((time_checkout(old, table, args.games), time_checkout(REPO, table, args.games)))
    load = os.getloadavg()[0]
    print(f"side by side, {args.games:,} games per row, games per CPU-second, old = {old.name}, "
          f"{args.pairs} pairs run old then new, load average {load:.1f}")
    verdicts = len(runs) >= 3
    head = f"{'row':<34}" + "".join(f"{'old':>11}{'new':>11}{'new/old':>9}" for _ in runs) \
        + f"{'median':>9}{'best/best':>10}" + (f"{'geomean':>9}{'low 95%':>9}  verdict" if verdicts else "")
    print(head)
    print("-" * len(head))
    worst = float("inf")
    counts = {"within": 0, "slower": 0, "undecided": 0}
    for label, _ in table:
        line = f"{label:<34}"
        ratios = []
        for o, n in runs:
            if label not in o:
                line += f"{'-':>11}{n[label]:>11,.0f}{'new row':>9}"
                continue
            ratios.append(n[label] / o[label])
            line += f"{o[label]:>11,.0f}{n[label]:>11,.0f}{ratios[-1]:>9.3f}"
        if ratios:
            median = statistics.median(ratios)
            best = max(n[label] for _, n in runs) / max(o[label] for o, _ in runs)
            worst = min(worst, median)
            line += f"{median:>9.3f}{best:>10.3f}"
            if verdicts and len(ratios) >= 3:
                geo, low, verdict = gate_row(ratios, args.gate)
                counts[verdict] += 1
                line += f"{geo:>9.3f}{low:>9.3f}  {verdict}"
        print(line)
    print(f"lowest median new/old: {worst:.3f} ('best/best' is the fastest new run over the fastest old one)")
    if verdicts:
        met = counts["within"] == sum(counts.values())
        print(f"gate {args.gate}: {counts['within']} rows within, {counts['slower']} slower, {counts['undecided']} "
              f"undecided: {'met' if met else 'not met'} (within: the one-sided 95% lower bound of the row's "
              f"geometric mean new/old is at least {args.gate})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
