"""Write data/seat0-coverage.json: how often the paired intervals cover the truth, two-sided and
on each side, for the seat-0 win-rate difference (Tango's score interval, `run.paired_props`)
and for the length difference (paired t), 2 players, end=empty and 1 super joker against the
standard game on the same deals (issue #39, item 3).

end=empty changes few winners (about 7 in 10,000 deals): a sample of 300 pairs mostly has none or
one or two, all on one side, where the t and BCa intervals of the win indicators failed (the BCa
bootstrap covered 28%). The joker changes a third of the winners. The truth is `compare` over
4,000,000 other pairs (games 40,000,000 on of seed 2026; its standard error is given); the samples
are disjoint blocks of games 0 .. 1,999,999 (those finished under both rules), at least 1,000
samples a row. A miss is counted on the side of the truth it falls: ``below`` when the whole
interval lies below the truth (its upper end < truth), ``above`` when above. A two-sided 95%
interval should miss about 2.5% on each side; a one-sided claim (TOST) needs each side right.
About 3 CPU-minutes.

    python data/seat0_coverage.py
"""

import json
import time
from pathlib import Path

import numpy as np
from scipy import stats

import beggarstats as bs
from beggarstats.run.paired_props import tango_interval
from beggarstats.run.device import batch_engine

SEED = 2026
BASE = bs.Rules()
VARIANTS = {"end=empty": bs.Rules(end="empty"), "jokers=1": bs.Rules(jokers=1)}
GAMES = 2_000_000
TRUTH = 4_000_000
SIZES = {"Tango score": (300, 1000), "paired t": (1000, 2000)}


def pairs(variant, lo, hi, chunk=200_000):
    """Per finished pair: length difference (cards) and seat 0's wins under each rule."""
    engine = batch_engine()
    d, wa, wb = [], [], []
    for start in range(lo, hi, chunk):
        ids = np.arange(start, min(hi, start + chunk), dtype=np.int64)
        a, b = engine(variant, SEED, ids), engine(BASE, SEED, ids)
        both = (a["outcome"] == 0) & (b["outcome"] == 0)
        d.append(a["cards"][both].astype(np.int64) - b["cards"][both].astype(np.int64))
        wa.append(a["winner"][both] == 0)
        wb.append(b["winner"][both] == 0)
    return np.concatenate(d), np.concatenate(wa), np.concatenate(wb)


def tally(intervals, truth):
    lows, highs = np.array([i[0] for i in intervals]), np.array([i[1] for i in intervals])
    below, above = int(np.sum(highs < truth)), int(np.sum(lows > truth))
    return dict(samples=len(intervals), covered=len(intervals) - below - above, below=below, above=above)


def main():
    started = time.process_time()
    out = dict(seed=SEED, games=GAMES, truth_pairs=TRUTH, rows=[])
    for name, variant in VARIANTS.items():
        truth = bs.compare(variant, BASE, TRUTH, seed=SEED, start=40_000_000, n_jobs=1)
        seat_truth, len_truth = truth.seat0_diff, truth.mean
        d, wa, wb = pairs(variant, 0, GAMES)
        out[name] = dict(seat0_truth=seat_truth, seat0_truth_se=float(np.sqrt(
            (truth.seat0_a_only + truth.seat0_b_only) / truth.pairs) / np.sqrt(truth.pairs)),
            length_truth=len_truth, length_truth_se=truth.se, discordant_share=float(np.mean(wa != wb)))
        for n in SIZES["Tango score"]:
            k = wa.size // n
            ivs = []
            for i in range(k):
                a, b = wa[i * n:(i + 1) * n], wb[i * n:(i + 1) * n]
                ivs.append(tango_interval(int(np.sum(a & ~b)), int(np.sum(~a & b)), n))
            out["rows"].append(dict(variant=name, metric="seat0_win_diff", interval="Tango score", pairs=n,
                                    **tally(ivs, seat_truth)))
        for n in SIZES["paired t"]:
            k = d.size // n
            q = stats.t.ppf(0.975, n - 1)
            ivs = []
            for i in range(k):
                x = d[i * n:(i + 1) * n]
                se = x.std(ddof=1) / np.sqrt(n)
                ivs.append((x.mean() - q * se, x.mean() + q * se))
            out["rows"].append(dict(variant=name, metric="mean_length_diff", interval="paired t", pairs=n,
                                    **tally(ivs, len_truth)))
        print(name, json.dumps(out["rows"][-4:]), flush=True)
    out["cpu_seconds"] = round(time.process_time() - started)
    path = Path(__file__).resolve().parent / "seat0-coverage.json"
    path.write_text(json.dumps(out, indent=1) + "\n")


NAMES = {"end=empty": "end=empty", "jokers=1": "1 super joker"}


def coverage_text(cov) -> str:
    """The paragraph of docs/FIGURES.md (block seat0_coverage) for the committed ``cov``."""
    def share(r):
        return (f"{100 * r['covered'] / r['samples']:.1f}% of {r['samples']:,} samples of {r['pairs']:,} pairs "
                f"({r['below']} below, {r['above']} above)")

    parts = []
    for metric, what in (("seat0_win_diff", "seat 0's win-rate difference, Tango's score interval"),
                         ("mean_length_diff", "the length difference, paired t interval")):
        items = []
        for name in VARIANTS:
            rows = [r for r in cov["rows"] if r["variant"] == name and r["metric"] == metric]
            extra = (f", {100 * cov[name]['discordant_share']:.2f}% of deals change the winner"
                     if metric == "seat0_win_diff" else "")
            items.append(f"{NAMES[name]}{extra}: " + ", ".join(share(r) for r in rows))
        parts.append(f"{what}: " + "; ".join(items))
    return ("Two players against the standard game on the same deals, truth from 4,000,000 other pairs; a miss "
            "is below when the whole interval lies below the truth. " + ". ".join(p[0].upper() + p[1:] for p in parts)
            + ".")


if __name__ == "__main__":
    main()
