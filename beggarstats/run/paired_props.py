"""The difference of two paired proportions: Tango's score interval and its test.

Seat 0's win rate under two rules on the same deals is a pair of 0/1 outcomes per deal. Only the
discordant deals carry the difference: ``b`` where seat 0 wins under the first rules only, ``c``
under the second only, of ``n`` deals, and the difference is (b - c) / n. Where b and c are few
and fall mostly on one side the intervals of the win indicators cover far below their level (#39:
of 1,000 samples of 300 pairs of end=empty, the 25 that the skewness rule sent to the BCa bootstrap
got an interval covering the truth in 7, 28% [12%, 49%]); Tango's score interval (Tango 1998, "Equivalence
test and confidence interval for the difference in proportions for the paired-sample design",
Statistics in Medicine 17, 891-908) inverts the score test with the restricted maximum likelihood
of the discordant cells and keeps close to its level there (Fagerland, Lydersen and Laake 2014,
"Recommended tests and confidence intervals for paired binomial proportions", Statistics in
Medicine 33, 2850-2875, recommend it). statsmodels 0.15 has no paired score interval, so it is
written here, in closed form, and tested against the roots found numerically and a worked example.
Its test at 0 is McNemar's test without continuity correction (`statsmodels.stats.contingency_tables.mcnemar`).
"""

from __future__ import annotations

import math

from scipy import optimize, stats


__all__ = ["tango_score", "tango_interval", "paired_proportion_test", "paired_detectable"]


def tango_score(b: int, c: int, n: int, delta: float) -> float:
    """Tango's score statistic for the difference of paired proportions being ``delta``:
    Z = (b - c - n delta) / sqrt(n (2 q + delta (1 - delta))), q the restricted maximum-likelihood
    estimate of the second discordant cell's probability given delta (the root of
    2n q^2 + (-b - c + (2n - b + c) delta) q - c delta (1 - delta) = 0)."""
    A = 2.0 * n
    B = -b - c + (2.0 * n - b + c) * delta
    C = -c * delta * (1.0 - delta)
    q = (math.sqrt(max(B * B - 4.0 * A * C, 0.0)) - B) / (2.0 * A)
    var = n * (2.0 * q + delta * (1.0 - delta))
    num = b - c - n * delta
    if var <= 0.0:
        return 0.0 if num == 0 else math.copysign(math.inf, num)
    return num / math.sqrt(var)


def tango_interval(b: int, c: int, n: int, *, confidence: float = 0.95) -> tuple[float, float]:
    """Tango's score interval of p_b - p_c: every delta in [-1, 1] whose |Z| (`tango_score`) stays
    below the normal quantile; Z falls as delta rises, so each end is one root (scipy `brentq`).

    Parameters
    ----------
    b, c : int
        Discordant pairs: b counted for the first proportion only, c for the second only.
    n : int
        All pairs (concordant ones included), n >= b + c, n >= 1.
    """
    b, c, n = int(b), int(c), int(n)
    if n < 1 or b < 0 or c < 0 or b + c > n:
        raise ValueError(f"The values for `b`, `c` and `n` must satisfy 0 <= b, c and b + c <= n >= 1, but b={b}, "
                         f"c={c}, n={n} were passed.")
    if not 0 < confidence < 1:
        raise ValueError(f"The value for `confidence` must lie between 0 and 1, but {confidence!r} was passed.")
    z = stats.norm.ppf(0.5 + confidence / 2)
    est = (b - c) / n

    def f(d):
        return tango_score(b, c, n, d)

    lo = -1.0 if f(-1.0) <= z else optimize.brentq(lambda d: f(d) - z, -1.0, est, xtol=1e-12)
    hi = 1.0 if f(1.0) >= -z else optimize.brentq(lambda d: f(d) + z, est, 1.0, xtol=1e-12)
    return lo, hi


def paired_proportion_test(b: int, c: int) -> float:
    """Two-sided p-value of no difference: McNemar's test without continuity correction (the score
    test Tango's interval inverts, at 0), `statsmodels.stats.contingency_tables.mcnemar`; 1 when no
    pair is discordant."""
    if b + c == 0:
        return 1.0
    from statsmodels.stats.contingency_tables import mcnemar

    return float(mcnemar([[0, b], [c, 0]], exact=False, correction=False).pvalue)


def paired_detectable(b: int, c: int, n: int, *, alpha: float = 0.05, power: float = 0.8) -> float:
    """The smallest difference of paired proportions a two-sided level-``alpha`` test detects with
    probability ``power`` at this share of discordant pairs: (z_{1-alpha/2} + z_power)
    sqrt((b + c) / n) / sqrt(n), the normal approximation of McNemar's test (Connor 1987) with the
    discordant share as observed (at least one pair, so 0 discordant pairs give a bound, not 0)."""
    k = stats.norm.ppf(1 - alpha / 2) + stats.norm.ppf(power)
    return float(k * math.sqrt(max(b + c, 1) / n) / math.sqrt(n))
