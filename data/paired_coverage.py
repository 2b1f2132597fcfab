"""Write data/paired-coverage.json: how often the paired intervals of `compare_variants` and
`compare` cover the true mean length difference of end=empty against the standard game (2
players), the variant whose per-pair differences are most skewed (80% of pairs differ by 0, a few
by hundreds of cards; skewness -34), two-sided and on each side.

The truth is `compare` over 10^7 other pairs (games 40,000,000 to 49,999,999 of seed 2026). The
samples are disjoint blocks of the pairs of games 0 to 30,099,999 (finished under both rules, their
differences kept as they are played, chunk by chunk): the t interval at 1,000 to 10,000 pairs and
at 30,000 pairs (the size the skewness rule asks for, `run.compare.t_sample_size`: 29,100 pairs),
and the BCa bootstrap (`scipy.stats.bootstrap`, 1,000 resamples per sample to keep the run short)
at 2,000 pairs; at least 1,000 samples a row (issue #39). A miss is ``below`` when the whole
interval lies below the truth, ``above`` when above: a one-sided claim needs each side near 2.5%.
About 10 CPU-minutes.

    python data/paired_coverage.py
"""

import json
import time

import numpy as np
from scipy import stats

import beggarstats as bs
from beggarstats.run.compare import t_sample_size
from beggarstats.run.committed_data import source_data_folder
from beggarstats.run.device import batch_engine

SEED = 2026
A, B = bs.Rules(end="empty"), bs.Rules()
GAMES = 30_100_000
SAMPLES = 1000


def differences(lo, hi, chunk=500_000):
    """The length differences (cards, A minus B) of the pairs of games lo..hi-1 both rules finish."""
    engine, out = batch_engine(), []
    for start in range(lo, hi, chunk):
        ids = np.arange(start, min(hi, start + chunk), dtype=np.int64)
        a, b = engine(A, SEED, ids), engine(B, SEED, ids)
        both = (a["outcome"] == 0) & (b["outcome"] == 0)
        out.append((a["cards"][both].astype(np.int32) - b["cards"][both].astype(np.int32)))
    return np.concatenate(out)


def _row(interval, n, lows, highs, mu):
    lows, highs = np.asarray(lows), np.asarray(highs)
    below, above = int(np.sum(highs < mu)), int(np.sum(lows > mu))
    return dict(interval=interval, pairs=n, samples=len(lows), covered=len(lows) - below - above, below=below,
                above=above)


def t_row(d, n, mu):
    k = min(d.size // n, max(SAMPLES, 2000 if n <= 1000 else SAMPLES))
    x = d[: k * n].reshape(k, n).astype(np.float64)
    m, se = x.mean(axis=1), x.std(axis=1, ddof=1) / np.sqrt(n)
    q = stats.t.ppf(0.975, n - 1)
    return _row("paired t", n, m - q * se, m + q * se, mu)


def main():
    started = time.process_time()
    truth = bs.compare(A, B, 10_000_000, seed=SEED, start=40_000_000, n_jobs=1)
    mu = truth.mean
    d = differences(0, GAMES)
    out = dict(truth=mu, truth_se=truth.se, skewness=float(stats.skew(d[:2_000_000])),
               needed=t_sample_size(stats.skew(d[:2_000_000])), rows=[])
    for n in (1000, 2000, 5000, 10000):
        out["rows"].append(t_row(d, n, mu))
    n, lows, highs = 2000, [], []
    for i in range(SAMPLES):
        ci = stats.bootstrap((d[i * n:(i + 1) * n].astype(np.float64),), np.mean, method="BCa", n_resamples=1000,
                             rng=np.random.default_rng(i)).confidence_interval
        lows.append(ci.low)
        highs.append(ci.high)
    out["rows"].append(_row("BCa bootstrap", n, lows, highs, mu))
    out["rows"].append(t_row(d, 30_000, mu))
    out["cpu_seconds"] = round(time.process_time() - started)
    path = source_data_folder("python data/paired_coverage.py") / "paired-coverage.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
