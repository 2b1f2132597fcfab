"""Write data/seat0-coverage.json: how often the paired intervals cover the truth, two-sided and
on each side, for the seat-0 win-rate difference (Tango's score interval, `run.paired_props`)
and for the length difference (paired t), 2 players, end=empty and 1 super joker against the
standard game on the same deals (issue #39, item 3).

end=empty changes few winners (about 1 in 1,000 deals): a sample of 300 pairs mostly has none or
one, where the t and BCa intervals of the win indicators failed (#39: the BCa bootstrap covered 7 of
the 25 samples of 300 pairs that were sent to it, 28%). The joker changes half of the winners. The truth is `compare` over
4,000,000 other pairs (games 40,000,000 on of seed 2026; its standard error is given); the samples
are disjoint blocks of games 0 .. 1,999,999 (those finished under both rules), at least 1,000
samples a row. A miss is counted on the side of the truth it falls: ``below`` when the whole
interval lies below the truth (its upper end < truth), ``above`` when above. A two-sided 95%
interval should miss about 2.5% on each side; a one-sided claim (TOST) needs each side right.
About 3 CPU-minutes.

Between those rows lies the regime of a few discordant pairs, 1 to 40 expected in a sample, where a
sample's handful of changed winners decides the interval: there the coverage of Tango's interval is
computed exactly (`exact_coverage`: every outcome of the discordant pairs summed with its binomial
probability, nothing sampled), at end=empty's discordant share, with end=empty's own split of the
changed winners between the two sides and with more lopsided ones (`few_discordant`; a minute).

    python data/seat0_coverage.py           # everything
    python data/seat0_coverage.py --few     # the exact few-discordant part of the committed json only
"""

import json
from pathlib import Path
import time

import numpy as np
from scipy import stats

import beggarstats as bs
from beggarstats.run.paired_props import tango_interval
from beggarstats.run.committed_data import source_data_folder
from beggarstats.run.device import batch_engine


def _path() -> Path:
    """The committed json, in the source tree's data/ (an installed copy is refused: `InstalledCopy`)."""
    return source_data_folder("python data/seat0_coverage.py") / "seat0-coverage.json"

SEED = 2026
BASE = bs.Rules()
VARIANTS = {"end=empty": bs.Rules(end="empty"), "jokers=1": bs.Rules(jokers=1)}
GAMES = 2_000_000
TRUTH = 4_000_000
SIZES = {"Tango score": (300, 1000), "paired t": (1000, 2000)}
FEW = tuple(range(1, 41))  # expected discordant pairs in a sample: the few-discordant regime
SPLITS = (None, 0.75, 0.9, 1.0)  # share of the changed winners on seat 0's side (None: end=empty's own)
TAIL = 1e-12  # the binomial tail left out of an exact coverage (reported as ``lost``)


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


def exact_coverage(n: int, pb: float, pc: float, *, confidence: float = 0.95, cache=None) -> dict:
    """The exact coverage of Tango's interval (`run.paired_props.tango_interval`) of pb - pc from n
    pairs: the discordant count D ~ Binomial(n, pb + pc), and b | D ~ Binomial(D, pb / (pb + pc)) of
    them on the first side, every (b, D - b) weighted by its probability up to where the binomial
    tail of D falls below `TAIL`. Returns ``covered``, ``below`` (the whole interval below the
    truth), ``above`` and ``lost`` (the probability left out). ``cache``: intervals by (b, c, n)."""
    cache = {} if cache is None else cache
    d, delta = pb + pc, pb - pc
    top = min(n, int(stats.binom.isf(TAIL, n, d)) + 1)
    out = dict(covered=0.0, below=0.0, above=0.0)
    for D in range(top + 1):
        w = stats.binom.pmf(D, n, d)
        for b, wb in enumerate(stats.binom.pmf(np.arange(D + 1), D, pb / d)):
            key = (b, D - b, n)
            if key not in cache:
                cache[key] = tango_interval(b, D - b, n, confidence=confidence)
            low, high = cache[key]
            side = "below" if high < delta else "above" if low > delta else "covered"
            out[side] += w * wb
    out["lost"] = float(stats.binom.sf(top, n, d))
    return out


def few_discordant(cov) -> dict:
    """The exact coverage of Tango's interval at 1 to 40 expected discordant pairs (`FEW`), at
    end=empty's discordant share (``cov``'s measurement) and each split of `SPLITS`: n pairs of a
    sample expect `FEW` discordant ones; the true difference is share * (2 * split - 1)."""
    share = cov["end=empty"]["discordant_share"]
    own = (share + cov["end=empty"]["seat0_truth"]) / (2 * share)  # end=empty's split of the changed winners
    rows, cache = [], {}
    for lam in FEW:
        n = round(lam / share)
        for split in SPLITS:
            q = own if split is None else split
            got = exact_coverage(n, share * q, share * (1 - q), cache=cache)
            rows.append(dict(expected_discordant=lam, pairs=n, split=round(q, 6), own=split is None,
                             **{k: round(v, 8) for k, v in got.items()}))
    return dict(variant="end=empty", discordant_share=share, own_split=own, rows=rows)


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
    out["few_discordant"] = few_discordant(out)
    out["cpu_seconds"] = round(time.process_time() - started)
    _path().write_text(json.dumps(out, indent=1) + "\n")


def main_few():
    """Only the exact few-discordant part, on the committed json (its measurement of end=empty)."""
    path = _path()
    cov = json.loads(path.read_text())
    cov["few_discordant"] = few_discordant(cov)
    path.write_text(json.dumps(cov, indent=1) + "\n")


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
    text = ("Two players against the standard game on the same deals, truth from 4,000,000 other pairs; a miss "
            "is below when the whole interval lies below the truth. " + ". ".join(p[0].upper() + p[1:] for p in parts)
            + ".")
    few = cov.get("few_discordant")
    if few:
        rows = few["rows"]
        worst = min(rows, key=lambda r: r["covered"])
        own = [r for r in rows if r["own"]]
        low_own = min(own, key=lambda r: r["covered"])
        splits = sorted({r["split"] for r in rows if not r["own"]})
        text += (f" Between them, where a sample expects {min(r['expected_discordant'] for r in rows)} to "
                 f"{max(r['expected_discordant'] for r in rows)} discordant pairs ({min(r['pairs'] for r in rows):,} to "
                 f"{max(r['pairs'] for r in rows):,} pairs of end=empty), Tango's interval covers exactly (every outcome "
                 f"summed, nothing sampled) at least {100 * low_own['covered']:.1f}% with end=empty's own split of the "
                 f"changed winners ({100 * few['own_split']:.1f}% on seat 0's side; lowest at "
                 f"{low_own['expected_discordant']} expected), and at least {100 * worst['covered']:.1f}% over all "
                 f"{len(rows)} cases, the splits of {', '.join(f'{100 * q:.0f}%' for q in splits)} on one side included "
                 f"(lowest at {worst['expected_discordant']} expected, {100 * worst['split']:.0f}% on one side: "
                 f"{100 * worst['below']:.1f}% below, {100 * worst['above']:.1f}% above).")
    return text


if __name__ == "__main__":
    import sys

    main_few() if "--few" in sys.argv[1:] else main()
