"""Write data/compare-shuffle-p{2..6}.json: does shuffling the won pile (``shuffle_pile``) change how
long a game lasts? The same deals (seed 2026) under shuffle_pile and the standard rules, paired
moments of the per-game length difference (`beggarstats.run.compare.compare`).

Sizes: a pilot of 100,000 pairs per player count (the first games of the same table) put the sd
of the per-game difference at 265 (2 players) to 313 cards (6 players); n = (2.80 sd / 0.3)^2
pairs detect a mean difference of 0.3 cards at 80% power in a two-sided test at 5%.

    python data/compare_shuffle.py [players ...] [--jobs=N]

Since RULES_VERSION 3 the files also keep seat 0's discordant pairs (Tango's interval for the
seat-0 rows) and the per-card sums; the length sums are those of the version-2 run, game for game
(games without jokers did not change).
"""

import sys
import time
from pathlib import Path

import beggarstats as bs

PAIRS = {2: 6_200_000, 3: 7_700_000, 4: 8_300_000, 5: 8_500_000, 6: 8_600_000}
SEED = 2026


def main(players=tuple(PAIRS), n_jobs=-1):
    here = Path(__file__).resolve().parent
    for p in players:
        started = time.process_time()
        m = bs.compare(bs.Rules(players=p, shuffle_pile=True), bs.Rules(players=p), PAIRS[p], seed=SEED, n_jobs=n_jobs)
        m.save(here / f"compare-shuffle-p{p}.json")
        print(f"{p} players: {m.pairs:,} pairs, {m.mean:+.3f} cards, detectable {m.detectable():.3f}, "
              f"{time.process_time() - started:.0f} s CPU", flush=True)


if __name__ == "__main__":
    jobs = [a for a in sys.argv[1:] if a.startswith("--jobs=")]
    main(tuple(int(a) for a in sys.argv[1:] if not a.startswith("--")) or tuple(PAIRS),
         int(jobs[-1].split("=")[1]) if jobs else -1)
