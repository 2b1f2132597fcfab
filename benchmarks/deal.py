"""Nanoseconds per random deal: `hands_bits.deal_planes` (what the batch kernels deal with) and
`deals.deal_into` (the ring-buffer decks), in this checkout and, optionally, another one.

Each timing runs in a subprocess of its checkout (old, new, old, new, ...), pinned to one core
with ``taskset`` where it exists, and counts CPU time: a busy spell of a shared machine falls on
both alike. Prints ONE table: ns per deal of each run, new/old per pair and the median.

Usage::

    python benchmarks/deal.py [OLD_CHECKOUT] [--deals N] [--pairs K]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]

# Runs inside the checkout under test. A numba loop deals games 0..N-1 and folds the hands into a
# checksum (so nothing is optimised away); the checksum is printed with the timing, and both
# checkouts must agree on it: the same deals.
_TIMER = r"""
import json, sys, time
import numpy as np
from numba import njit
import beggarstats as bs
from beggarstats.engine.hands_bits import deal_planes
from beggarstats.engine.deals import deal_into

@njit(nogil=True)
def planes(deck, n, games):
    N = deck.shape[0]
    shuffled = np.zeros(N, dtype=np.int8)
    d0 = np.zeros(n, dtype=np.uint64); d1 = d0.copy(); d2 = d0.copy()
    dl = np.zeros(n, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    init = np.zeros((1, 7, n), dtype=np.int64)
    acc = np.uint64(0)
    for g in range(games):
        deal_planes(deck, n, np.uint64(12345), g, state, shuffled, d0, d1, d2, dl, init, 0, False)
        acc += d0[0] ^ (d1[n - 1] << np.uint64(1)) ^ d2[1] ^ state[0]
    return acc

@njit(nogil=True)
def ring(deck, n, games):
    N = deck.shape[0]
    hands = np.zeros((n, (N + n - 1) // n), dtype=np.int8)
    lens = np.zeros(n, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    acc = np.uint64(0)
    for g in range(games):
        state[0] = np.uint64(g); state[1] = np.uint64(12345); state[2] = np.uint64(7); state[3] = np.uint64(1)
        deal_into(state, deck, n, hands, lens)
        acc += np.uint64(hands[0, 0] + 3 * hands[n - 1, lens[n - 1] - 1]) ^ state[0]
    return acc

rows = json.loads(sys.argv[1]); games = int(sys.argv[2]); out = {}
for label, kind, options in rows:
    rules = bs.Rules.from_dict(options)
    deck, n = rules.deck_cards(), rules.players
    f = planes if kind == "planes" else ring
    f(deck, n, 10)  # compile
    best, check = float("inf"), None
    for _ in range(3):
        c0 = time.process_time()
        check = int(f(deck, n, games))
        best = min(best, time.process_time() - c0)
    out[label] = [best / games * 1e9, check]
print(json.dumps(out))
"""

ROWS = [("planes, 2 players, 52 cards", "planes", {}),
        ("planes, 4 players, 52 cards", "planes", {"players": 4}),
        ("planes, 3 players, 40 cards", "planes", {"players": 3, "deck": "italian"}),
        ("ring, 2 players, 52 cards", "ring", {})]


def time_checkout(checkout: Path, deals: int) -> dict[str, list]:
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    cmd = [sys.executable, "-c", _TIMER, json.dumps(ROWS), str(deals)]
    if shutil.which("taskset"):
        cmd = ["taskset", "-c", str(os.sched_getaffinity(0).__iter__().__next__())] + cmd
    done = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"timing {checkout} failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("old", type=Path, nargs="?", default=None, help="another checkout to compare with")
    ap.add_argument("--deals", type=int, default=1_000_000, help="deals per row and run (default 10^6)")
    ap.add_argument("--pairs", type=int, default=3, help="old/new pairs (default 3)")
    args = ap.parse_args(argv)
    if args.deals < 1 or args.pairs < 1:
        print("error: --deals and --pairs must be at least 1", file=sys.stderr)
        return 2
    checkouts = [REPO] if args.old is None else [args.old.resolve(), REPO]
    for c in checkouts:
        if not (c / "beggarstats").is_dir():
            print(f"error: {c} is not a beggarstats checkout", file=sys.stderr)
            return 2
    runs = [[time_checkout(c, args.deals) for c in checkouts] for _ in range(args.pairs)]
    print(f"ns per deal (CPU time, best of 3 per run), {args.deals:,} deals per row, {args.pairs} runs"
          + (f", old = {checkouts[0]}, run old then new" if len(checkouts) == 2 else "")
          + f", load average {os.getloadavg()[0]:.1f}")
    head = f"{'row':<30}" + "".join(f"{'old':>8}{'new':>8}{'old/new':>9}" if len(checkouts) == 2 else f"{'ns':>8}"
                                    for _ in runs) + (f"{'median':>9}" if len(checkouts) == 2 else "")
    print(head)
    print("-" * len(head))
    for label, _, _ in ROWS:
        line, ratios = f"{label:<30}", []
        for pair in runs:
            if len(pair) == 1:
                line += f"{pair[0][label][0]:>8.1f}"
                continue
            (o, oc), (n, nc) = pair[0][label], pair[1][label]
            if oc != nc:
                print(f"error: {label}: the two checkouts dealt different games", file=sys.stderr)
                return 1
            ratios.append(o / n)
            line += f"{o:>8.1f}{n:>8.1f}{ratios[-1]:>9.2f}"
        if ratios:
            line += f"{statistics.median(ratios):>9.2f}"
        print(line)
    if len(checkouts) == 2:
        print("old/new > 1: the new deal is faster; both checkouts dealt the same games (checksums agree)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
