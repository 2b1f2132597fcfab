"""The explorer's comparison of the chosen rules with the standard game at the same player count, by
the package's own design.

* **Paired** when both deal alike (`run.compare.same_deals`: the same players and deck). Game g of a
  table is fixed by (seed, g) alone, and a joker deal is the deal without jokers with the jokers
  slipped in (docs/RULES.md section 7), so every rule option but the deck keeps the deals: the two
  samples are reduced by `run.compare.paired_moments`, the reduction `bs.compare` applies to its
  chunks, and their rows are those of `beggarstats compare` (`run.variants.variant_rows`): the
  length difference over the deals both finished with its paired t interval (none where the pairs
  are fewer than the differences' skewness needs), seat 0's win rate over the same pairs with
  Tango's score interval, Holm over the two rows, each row's smallest detectable effect at Holm's
  strictest level; for a joker variant also the difference in cards played per card dealt.
* **Independent** when another deck deals other games: `analysis.compare_variants` with
  ``design='independent'`` (Welch t, Newcombe score), Holm over the same two rows.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ..game.rules import Rules
from ..run.compare import len_deck, paired_moments, same_deals
from ..run.tables import OUTCOMES
from .findings import fmt_p

__all__ = ["shares_deals", "compare_with_standard", "comparison_caption", "readable_seats", "readable_comparison",
           "slim"]

ALPHA, POWER = 0.05, 0.8  # as `beggarstats compare` (run/variants.py)
COLUMNS = ["metric", "design", "interval", "estimate", "low", "high", "p_value", "p_holm", "verdict", "detectable",
           "level", "n", "value", "baseline_value", "pairs_needed"]


def shares_deals(rules: Rules, other: Rules) -> bool:
    """True when both rules deal game g of a seed alike (same players and deck; jokers are slipped
    into the same deals): `run.compare.same_deals`, the pairs `bs.compare` accepts."""
    return same_deals(rules, other)


def _engine_arrays(games: pd.DataFrame) -> dict:
    """A `simulate` frame back in the engine's arrays (``outcome`` codes, ``cards``, ``winner``)."""
    outcome = games["outcome"]
    if isinstance(outcome.dtype, pd.CategoricalDtype) and tuple(outcome.cat.categories) == OUTCOMES:
        codes = outcome.cat.codes.to_numpy()
    else:
        codes = pd.Categorical(outcome.astype(str), categories=OUTCOMES).codes
    winner = pd.to_numeric(games["winner"]).to_numpy(dtype=float, na_value=np.nan)
    return {"outcome": codes, "cards": games["cards"].to_numpy(dtype=np.int64),
            "winner": np.where(np.isnan(winner), -1, winner).astype(np.int64)}


def _paired(games, baseline, rules, base, confidence) -> list[dict]:
    from ..run.variants import variant_rows

    if not np.array_equal(games["game"].to_numpy(), baseline["game"].to_numpy()):
        raise ValueError("The values for `games` and `baseline` must hold the same games in the same order "
                         "to be paired.")
    a, b = _engine_arrays(games), _engine_arrays(baseline)
    m = paired_moments(a, b, rules, base, seed=games.attrs.get("seed"), ids=games["game"].to_numpy())
    both = (a["outcome"] == 0) & (b["outcome"] == 0)
    values = {"mean_length_diff": (a["cards"][both].mean(), b["cards"][both].mean()),
              "seat0_win_diff": ((a["winner"][both] == 0).mean(), (b["winner"][both] == 0).mean())} \
        if both.any() else {}
    rows = []
    for r in variant_rows([(rules.name, m)], alpha=ALPHA, confidence=confidence):
        value, baseline_value = values.get(r["metric"], (math.nan, math.nan))
        rows.append(dict(metric=r["metric"], design="paired", interval=r["interval"], estimate=r["estimate"],
                         low=r["low"], high=r["high"], p_value=r["p_value"], p_holm=r["p_holm"],
                         verdict=r["verdict"], detectable=r["detectable"], level=r["detectable_level"],
                         n=r["pairs"], value=value,
                         baseline_value=baseline_value,
                         pairs_needed=m.t_pairs_needed if r["metric"] == "mean_length_diff" else math.nan))
        if "per_card" in r:  # a joker variant: beyond dealing more cards (paired t, as `beggarstats compare`)
            rows.append(dict(metric="per_card_dealt_diff", design="paired", interval="paired t",
                             estimate=r["per_card"], low=r["per_card_low"], high=r["per_card_high"],
                             p_value=math.nan, p_holm=math.nan, verdict="", detectable=math.nan, level=math.nan,
                             n=r["pairs"],
                             value=value / len_deck(rules), baseline_value=baseline_value / len_deck(base),
                             pairs_needed=math.nan))
    return rows


def _independent(games, baseline, confidence) -> list[dict]:
    from statsmodels.stats.multitest import multipletests

    from .. import analysis as an
    from ..analysis.intervals import z_value
    from ..analysis.variants import detectable_effect

    both = pd.concat([slim(games).assign(rules="variant"), slim(baseline).assign(rules="standard")],
                     ignore_index=True)
    table = an.compare_variants(both, baseline="standard", by=None, confidence=confidence, design="independent")
    table = table[table["metric"].isin(["mean_length_diff", "seat0_win_diff"])].reset_index(drop=True)
    tested = table["p_value"].notna().to_numpy()
    holm = np.full(len(table), np.nan)
    if tested.any():
        holm[tested] = multipletests(table.loc[tested, "p_value"], alpha=ALPHA, method="holm")[1]
    level = ALPHA / len(table)
    rows = []
    for r, p_holm in zip(table.itertuples(), holm):
        se = (r.high - r.low) / (2 * z_value(confidence))
        rows.append(dict(metric=r.metric, design="independent", interval=r.interval, estimate=r.estimate,
                         low=r.low, high=r.high, p_value=r.p_value, p_holm=p_holm,
                         verdict="no test" if math.isnan(p_holm) else "detected" if p_holm < ALPHA else "not detected",
                         detectable=float(detectable_effect(se, power=POWER, alpha=level)), level=level, n=r.n,
                         value=r.value, baseline_value=r.baseline_value, pairs_needed=math.nan))
    return rows


def compare_with_standard(games: pd.DataFrame, baseline: pd.DataFrame, rules: Rules, base: Rules,
                          *, confidence: float = 0.95) -> pd.DataFrame:
    """The chosen rules' sample ``games`` against the standard game's ``baseline`` (both from
    `simulate`, with the same seed and game ids): paired when they deal alike (`shares_deals`), else
    independent (see the module's docstring).

    Returns
    -------
    DataFrame, one row per metric: 'mean_length_diff' (cards, chosen minus standard, over the games
    both finished when paired), 'seat0_win_diff' (a proportion), and for a paired joker variant
    'per_card_dealt_diff' (cards played per card dealt). Columns ``metric, design`` ('paired' or
    'independent'), ``interval`` (which interval, as `beggarstats compare` and `compare_variants`
    name it), ``estimate, low, high, p_value, p_holm`` (Holm over the two tested rows), ``verdict``,
    ``detectable`` (smallest effect found with 80% power at Holm's strictest level, alpha / 2),
    ``n`` (pairs, or games of the chosen sample), ``value, baseline_value`` (the two means or rates
    compared) and ``pairs_needed`` (the pairs the t interval needs at the differences' skewness).
    """
    if shares_deals(rules, base):
        rows = _paired(games, baseline, rules, base, confidence)
    else:
        rows = _independent(games, baseline, confidence)
    return pd.DataFrame(rows, columns=COLUMNS)


def comparison_caption(rules: Rules | None, base: Rules | None) -> str:
    """The line above the comparison: which design, and why."""
    if rules is None:
        return ""
    if rules == base:
        return "these are the standard rules: nothing to compare"
    if shares_deals(rules, base):
        slipped = " (its jokers slipped into them)" if rules.jokers != base.jokers else ""
        return (f"against the standard game on the same deals{slipped}: paired, as `beggarstats compare` "
                "(paired t and Tango score intervals, 95%; Holm over the two rows)")
    return ("against the standard game: another deck deals other games, so the samples are independent "
            "(Welch and Newcombe intervals, 95%; Holm over the two rows)")


def slim(games: pd.DataFrame, measure: str = "cards") -> pd.DataFrame:
    """The columns the comparisons and the survival curve read, as plain numpy columns (much faster to
    group and scan than the compact Arrow-backed columns of `simulate`)."""
    outcome = games["outcome"]
    if isinstance(outcome.dtype, pd.CategoricalDtype):  # decode the few categories, not every row
        outcome = np.asarray(outcome.cat.categories.astype(object))[outcome.cat.codes.to_numpy()]
    else:
        outcome = outcome.astype(str).to_numpy(object)
    return pd.DataFrame({
        "game": games["game"].to_numpy(dtype=np.int64),
        "outcome": outcome,
        "winner": pd.to_numeric(games["winner"]).to_numpy(dtype=float, na_value=np.nan),
        measure: games[measure].to_numpy(dtype=float),
    })


def _num(value, digits: int = 2) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return f"{value:,.{digits}f}"


def _pct(value, digits: int = 2) -> str:
    return "–" if value is None or math.isnan(value) else f"{100 * value:.{digits}f}"


def readable_seats(seats: pd.DataFrame) -> pd.DataFrame:
    """The seat table as the panel shows it: win rates in percent, p-values as `fmt_p` writes them."""
    return pd.DataFrame({
        "seat": seats["seat"].to_numpy(),
        "wins": [f"{int(v):,}" for v in seats["wins"]],
        "games": [f"{int(v):,}" for v in seats["games"]],
        "win rate %": [_pct(v) for v in seats["rate"]],
        "95% interval %": [f"[{_pct(lo)}, {_pct(hi)}]" for lo, hi in zip(seats["low"], seats["high"])],
        "p (vs 1/n)": [fmt_p(v) for v in seats["p_value"]],
    })


_METRIC_NAMES = {"mean_length_diff": ("mean length", "cards"), "seat0_win_diff": ("seat 0 win rate", "pp"),
                 "per_card_dealt_diff": ("cards played per card dealt", "ratio")}


def holm_level(level: float) -> str:
    """Holm's strictest level as the prose writes it: alpha over the family's size ("0.05/2")."""
    return f"{ALPHA:g}/{round(ALPHA / level)}"


def _verdict(r, show) -> str:
    if r.interval == "too skewed for the t interval":
        return f"no interval: the t interval needs {r.pairs_needed:,.0f} pairs at this skewness"
    if r.verdict == "not detected" and not math.isnan(r.detectable):
        return f"not detected (80% power to detect ±{show(r.detectable)} at Holm's strictest level, {holm_level(r.level)})"
    return r.verdict


def readable_comparison(comparison: pd.DataFrame) -> pd.DataFrame:
    """The comparison as the panel shows it, narrow enough for a notebook: chosen minus standard in
    cards, percentage points or cards per card dealt, the interval in one column, p-values as `fmt_p`
    writes them (Holm's in brackets), the verdict with the smallest detectable effect (the design and
    its intervals are in the caption above it, `comparison_caption`)."""
    rows = []
    for r in comparison.itertuples():
        what, unit = _METRIC_NAMES[r.metric]
        show = {"cards": _num, "pp": _pct, "ratio": lambda v: _num(v, 4)}[unit]
        level = (lambda v: f"{_pct(v)}%") if unit == "pp" else show
        rows.append({"chosen minus standard": f"{what} ({unit})" if unit != "ratio" else what,
                     "estimate": show(r.estimate),
                     "95% interval": "–" if math.isnan(r.low) else f"[{show(r.low)}, {show(r.high)}]",
                     "p (Holm)": "–" if math.isnan(r.p_value) else f"{fmt_p(r.p_value)} ({fmt_p(r.p_holm)})",
                     "verdict": _verdict(r, show), "n": f"{int(r.n):,}", "chosen": level(r.value),
                     "standard": level(r.baseline_value)})
    return pd.DataFrame(rows, columns=["chosen minus standard", "estimate", "95% interval", "p (Holm)", "verdict",
                                       "n", "chosen", "standard"])
