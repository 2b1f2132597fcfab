"""Write data/compare-variants-p{2..6}.json and data/compare-shuffle-p{2..6}.json: every rule variant
against the standard game on the same deals (seed 2026), paired moments per variant and player count
(`beggarstats.run.compare`), for `figures/variant_effects.png`, the variant rows of findings.csv, the
README and notebook 03. shuffle_pile, the variant the rule text makes a claim about ("shuffling speeds
the game up"), has a file of its own per player count; every other variant is a row of the
compare-variants file.

Each row detects a mean length difference of TARGET cards at 80% power at Holm's strictest level over
the whole family (0.05 / FAMILY: the length and seat-0 rows of 10 variants x 5 player counts): its
pairs are sized from a pilot of 20,000 (games 0 .. 19,999, reused by the run) and then from the run's
own sd until it does (`run.variants.compare_to_detect`), at most MAX_PAIRS. A file is written after
every step of every row, and a run started again continues from the files (the same games, the same
moments): nothing computed is lost when it is interrupted.

    python data/compare_variants.py [players ...] [--variants shuffle_pile,ccw,...] [--jobs 1]
"""

import argparse
import json
import time
from pathlib import Path

import beggarstats as bs
from beggarstats.run.committed_data import source_data_folder
from beggarstats.run.compare import PairedMoments, load_moments
from beggarstats.run.variants import STANDARD_VARIANTS, compare_to_detect, parse_variant

SEED = 2026
PLAYERS = (2, 3, 4, 5, 6)
TARGET = 0.3
MAX_PAIRS = 40_000_000
PILOT = 20_000
FAMILY = 2 * len(STANDARD_VARIANTS) * len(PLAYERS)
HERE = source_data_folder("python data/compare_variants.py")  # the source tree's data/; an installed copy is refused


def shuffle_path(players, out=HERE):
    return Path(out) / f"compare-shuffle-p{players}.json"


def variants_path(players, out=HERE):
    return Path(out) / f"compare-variants-p{players}.json"


def _saved_variants(players, out):
    path = variants_path(players, out)
    if not path.exists():
        return {}
    doc = json.loads(path.read_text())
    return {r["variant"]: PairedMoments(**r["moments"]) for r in doc["results"]}


def _write_variants(players, found, out):
    results = [dict(variant=spec, moments=found[spec].to_dict()) for spec in STANDARD_VARIANTS
               if spec != "shuffle_pile" and spec in found]
    doc = dict(seed=SEED, target=TARGET, max_pairs=MAX_PAIRS, pilot=PILOT, family=FAMILY, players=players,
               rules_version=bs.RULES_VERSION, results=results)
    path = variants_path(players, out)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    tmp.replace(path)


def run(players, variants=STANDARD_VARIANTS, n_jobs=1, out=HERE):
    """Every variant in ``variants`` for ``players`` players, continued from the files in ``out``."""
    base = bs.Rules(players=players)
    found = _saved_variants(players, out)
    for spec in variants:
        variant = parse_variant(spec, base)
        started = time.process_time()
        if spec == "shuffle_pile":
            path = shuffle_path(players, out)
            prior = load_moments(path) if path.exists() else None

            def saved(m, path=path):
                m.save(path.with_suffix(".tmp")).replace(path)
        else:
            prior = found.get(spec)

            def saved(m, spec=spec):
                found[spec] = m
                _write_variants(players, found, out)
        m = compare_to_detect(base, variant, target=TARGET, family=FAMILY, seed=SEED, pilot=PILOT,
                              max_pairs=MAX_PAIRS, prior=prior, saved=saved, n_jobs=n_jobs)
        saved(m)
        print(f"{players} players, {spec}: {m.pairs:,} pairs, {m.mean:+.3f} cards, detects "
              f"{m.detectable(alpha=0.05 / FAMILY):.3f} at 0.05/{FAMILY}, {time.process_time() - started:.0f} s CPU",
              flush=True)


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("players", nargs="*", type=int, default=list(PLAYERS))
    ap.add_argument("--variants", default=",".join(STANDARD_VARIANTS))
    ap.add_argument("--jobs", type=int, default=1)
    a = ap.parse_args()
    for p in a.players:
        run(p, tuple(v.strip() for v in a.variants.split(",")), a.jobs)
