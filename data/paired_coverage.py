"""Write data/paired-coverage.json: how often the paired intervals of `compare_variants` and
`compare` cover the true mean length difference of end=empty against the standard game (2
players), the variant whose per-pair differences are most skewed (80% of pairs differ by 0, a few
by hundreds of cards; skewness -34).

The truth is `compare` over 10^7 other pairs (games 40,000,000 to 49,999,999 of seed 2026). The
samples are disjoint blocks of the first 2,000,000 pairs (games 0 to 1,999,999, finished under
both rules) for the t interval at 1,000 to 10,000 pairs and the BCa bootstrap (`scipy.stats.bootstrap`,
2,000 resamples per sample to keep the run short) at 2,000 pairs, and 400 `compare` runs of 30,000
pairs from game 2,000,000 on for the t interval at the size the skewness rule asks for
(`run.compare.t_sample_size`: 29,100 pairs). About 2 CPU-minutes.

    python data/paired_coverage.py
"""

import json
import time
from pathlib import Path

import numpy as np
from scipy import stats

import beggarstats as bs
from beggarstats.run.compare import t_sample_size

SEED = 2026
A, B = bs.Rules(end="empty"), bs.Rules()


def _t_covers(x, mu):
    n, m, se = x.size, x.mean(), x.std(ddof=1) / np.sqrt(x.size)
    q = stats.t.ppf(0.975, n - 1)
    return m - q * se <= mu <= m + q * se


def main():
    started = time.process_time()
    truth = bs.compare(A, B, 10_000_000, seed=SEED, start=40_000_000, n_jobs=-1)
    mu = truth.mean
    a = bs.simulate(2_000_000, rules=A, seed=SEED, n_jobs=-1)
    b = bs.simulate(2_000_000, rules=B, seed=SEED, n_jobs=-1)
    both = (a["outcome"] == "win").to_numpy() & (b["outcome"] == "win").to_numpy()
    d = (a["cards"].to_numpy(float) - b["cards"].to_numpy(float))[both]
    out = dict(truth=mu, truth_se=truth.se, skewness=float(stats.skew(d)), needed=t_sample_size(stats.skew(d)), rows=[])
    for n in (1000, 2000, 5000, 10000):
        k = d.size // n
        hits = sum(_t_covers(d[i * n:(i + 1) * n], mu) for i in range(k))
        out["rows"].append(dict(interval="paired t", pairs=n, samples=k, covered=int(hits)))
    n, k, hits = 2000, 200, 0
    for i in range(k):
        ci = stats.bootstrap((d[i * n:(i + 1) * n],), np.mean, method="BCa", n_resamples=2000,
                             rng=np.random.default_rng(i)).confidence_interval
        hits += ci.low <= mu <= ci.high
    out["rows"].append(dict(interval="BCa bootstrap", pairs=n, samples=k, covered=int(hits)))
    n, k, hits = 30_000, 400, 0
    for i in range(k):
        m = bs.compare(A, B, n, seed=SEED, start=2_000_000 + i * n, n_jobs=-1)
        q = stats.t.ppf(0.975, m.pairs - 1)
        hits += m.mean - q * m.se <= mu <= m.mean + q * m.se
    out["rows"].append(dict(interval="paired t", pairs=n, samples=k, covered=int(hits)))
    out["cpu_seconds"] = round(time.process_time() - started)
    path = Path(__file__).resolve().parent / "paired-coverage.json"
    path.write_text(json.dumps(out, indent=1) + "\n")
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
