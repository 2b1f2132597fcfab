"""census(): deals/s and cards/s of the census kernels beside simulate's engine on the same deck.

Usage::

    python benchmarks/census.py [--deals N] [--full]

For each deck (two players): (a) `engine.census_kernel.play_ranks` on N deals taken as 16 runs of
ranks spread evenly over all of the deck's ranks (neighbouring ranks are similar deals; the first
ones are unusually short), and (b) `engine.fast.play_games`, the engine behind `simulate`, on N
random games of the same deck. Both single-threaded, best of 3, interleaved. Columns: deals/s,
Mcards/s, and census cards/s over simulate's cards/s (target >= 0.8x). The last column projects a
full census of the deck on this machine from (a) and the cores joblib sees. ``--full`` also times
``census()`` of the Italian half deck end to end with every core (the published checks' census).

Prints one table. The machine is shared: quote ratios from one run, never across runs.
Compilation is not timed (a first call of each kernel runs before the clock).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

DECKS = ((14, 2, 2, 2, 0), (8, 1, 1, 1, 1), (12, 2, 2, 2, 2), (18, 2, 2, 2, 2))


def _census_rate(rules, n):
    from beggarstats.engine.census_kernel import play_ranks
    from beggarstats.engine.rank import n_deals

    total = n_deals(rules)
    size = max(1, min(n, total) // 16)
    starts = [(total - size) * k // 15 for k in range(16)]
    t0 = time.perf_counter()
    cards = 0
    for a in starts:
        cards += int(play_ranks(rules, a, a + size)["cards"].sum())
    dt = time.perf_counter() - t0
    return 16 * size / dt, cards / dt


def _simulate_rate(rules, n):
    import numpy as np

    from beggarstats.engine.fast import play_games

    t0 = time.perf_counter()
    cards = int(play_games(rules, 12345, np.arange(n, dtype=np.int64))["cards"].sum())
    dt = time.perf_counter() - t0
    return n / dt, cards / dt


def _duration(seconds: float) -> str:
    for unit, size in (("d", 86400), ("h", 3600), ("min", 60)):
        if seconds >= size:
            return f"{seconds / size:.1f} {unit}"
    return f"{seconds:.1f} s"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=400_000, help="deals per row and run (default 400000)")
    parser.add_argument("--full", action="store_true", help="also time census() of the Italian half deck")
    args = parser.parse_args(argv)
    import joblib

    import beggarstats as bs

    cores = joblib.effective_n_jobs(-1)
    print(f"{'deck':<14} {'deals':>14} {'census deals/s':>15} {'Mcards/s':>9} {'simulate Mcards/s':>18} "
          f"{'ratio':>6} {'full census, ' + str(cores) + ' cores':>22}")
    for counts in DECKS:
        rules = bs.Rules(deck=bs.Deck.from_counts(counts))
        _census_rate(rules, 64), _simulate_rate(rules, 64)  # compiled before the clock
        best_c, best_s = (0.0, 0.0), (0.0, 0.0)
        for _ in range(3):
            best_c = max(best_c, _census_rate(rules, args.deals))
            best_s = max(best_s, _simulate_rate(rules, args.deals))
        total = bs.n_deals(rules)
        print(f"{'/'.join(map(str, counts)):<14} {total:>14,} {best_c[0]:>15,.0f} {best_c[1] / 1e6:>9.1f} "
              f"{best_s[1] / 1e6:>18.1f} {best_c[1] / best_s[1]:>5.2f}x {_duration(total / best_c[0] / cores):>22}")
    if args.full:
        rules = bs.Rules(deck=bs.Deck(14, 2, 2, 2, 0))
        t0, c0 = time.perf_counter(), time.process_time()
        s = bs.census(rules)
        print(f"census(Italian half deck): {s.n_games:,} deals in {time.perf_counter() - t0:.1f} s wall, "
              f"{time.process_time() - c0:.1f} s CPU, {s.outcomes[1]} loops")


if __name__ == "__main__":
    main()
