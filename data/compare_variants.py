"""Write data/compare-variants-p{2..6}.json: every rule variant against the standard game on the
same deals (seed 2026), paired moments per variant and player count (`beggarstats.run.compare`),
for `figures/variant_effects.png`, the variant rows of findings.csv, the README and notebook 03.

Each row is sized from a pilot of 20,000 pairs (games 0 .. 19,999, reused by the run) to detect a
mean length difference of TARGET cards at 80% power at Holm's strictest level over the whole
family (0.05 / FAMILY: the length and seat-0 rows of 10 variants x 5 player counts), never fewer
pairs than the t interval needs at the pilot's skewness, and at most MAX_PAIRS: the CPU this was
run on (a shared 2-core machine, about 100,000 pairs a second) affords 3 x 10^6 pairs a row, so
the rows that decorrelate the games (jokers, ccw, leader=next, end=empty with 4-6 players: sd
130-320 cards) detect about 0.7 cards at the Holm level (0.5 at 5%), not 0.3; each file keeps its
pairs and the table states every row's detectable effect. shuffle_pile is not run here: its rows are the 6.2-8.6 million pairs of
data/compare-shuffle-p*.json (data/compare_shuffle.py), which detect 0.3 cards at 5%.

    python data/compare_variants.py [players ...] [--target 0.3] [--max-pairs 3000000] [--jobs 1]
"""

import argparse
import json
import time
from pathlib import Path

import beggarstats as bs
from beggarstats.run.compare import compare
from beggarstats.run.variants import STANDARD_VARIANTS, parse_variant, plan_pairs

SEED = 2026
PLAYERS = (2, 3, 4, 5, 6)
TARGET = 0.3
MAX_PAIRS = 3_000_000
PILOT = 20_000
FAMILY = 2 * len(STANDARD_VARIANTS) * len(PLAYERS)
RUN_HERE = tuple(v for v in STANDARD_VARIANTS if v != "shuffle_pile")  # shuffle_pile: compare_shuffle.py


def run(players, target=TARGET, max_pairs=MAX_PAIRS, n_jobs=1, variants=RUN_HERE, out=None):
    base = bs.Rules(players=players)
    results = []
    for spec in variants:
        variant = parse_variant(spec, base)
        started = time.process_time()
        n, pilot, _ = plan_pairs(base, variant, target=target, family=FAMILY, seed=SEED, pilot=PILOT,
                                 max_pairs=max_pairs, n_jobs=n_jobs)
        m = pilot if n == PILOT else pilot + compare(variant, base, n - PILOT, seed=SEED, start=PILOT, n_jobs=n_jobs)
        results.append(dict(variant=spec, moments=m.to_dict()))
        print(f"{players} players, {spec}: {m.pairs:,} pairs, {m.mean:+.3f} cards, "
              f"{time.process_time() - started:.0f} s CPU", flush=True)
    doc = dict(seed=SEED, target=target, max_pairs=max_pairs, pilot=PILOT, family=FAMILY, players=players,
               rules_version=bs.RULES_VERSION, results=results)
    path = Path(out or Path(__file__).resolve().parent) / f"compare-variants-p{players}.json"
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return path


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("players", nargs="*", type=int, default=list(PLAYERS))
    ap.add_argument("--target", type=float, default=TARGET)
    ap.add_argument("--max-pairs", type=int, default=MAX_PAIRS)
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    for p in a.players:
        run(p, a.target, a.max_pairs, a.jobs)
