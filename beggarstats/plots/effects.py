"""Figures of effects: variants against the baseline (forest plot) and hand-strength curves."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..analysis import compare_variants, hand_strength_predictions
from ..analysis.variants import METRICS
from matplotlib.ticker import MaxNLocator

from ._common import check_choice, check_frame, check_hue, finish, hue_groups, label, new_axes, percent_axis

__all__ = ["plot_variant_effects", "plot_hand_strength", "plot_hand_strength_panels"]

_TITLES = {"mean_length_diff": "difference in mean length (cards)", "mean_length_ratio": "ratio of mean lengths",
           "seat0_win_diff": "difference in seat 0's win rate (percentage points)"}
_SCALE = {"mean_length_diff": 1.0, "mean_length_ratio": 1.0, "seat0_win_diff": 100.0}
_TEXT = {"mean_length_diff": "{:+.{d}f} [{:+.{d}f}, {:+.{d}f}]", "mean_length_ratio": "{:.{d}f} [{:.{d}f}, {:.{d}f}]",
         "seat0_win_diff": "{:+.{d}f} [{:+.{d}f}, {:+.{d}f}]"}
_HAND = {"aces": "aces dealt to the seat", "tribute_total": "tribute points dealt to the seat (J 1, Q 2, K 3, A 4)"}


def plot_variant_effects(data: pd.DataFrame, *, metric=None, ax=None, **options):
    """Forest plot: each variant's effect with its interval, a reference line at no effect, and the
    estimate and interval written beside each row (many intervals are narrower than a marker).
    Filled circles are paired comparisons (same deals), open squares independent ones.

    ``data`` is the output of `compare_variants` or the per-game table (``options`` such as
    ``baseline`` go to `compare_variants`). ``metric`` picks one of `METRICS`; None draws every
    metric present side by side (then ``ax`` cannot be given). Win-rate differences are drawn in
    percentage points.
    """
    if "metric" not in data.columns:
        data = compare_variants(data, **options)
    check_frame(data, ["rules", "metric", "estimate", "low", "high"])
    metrics = [m for m in METRICS if m in set(data["metric"])] if metric is None else [metric]
    for m in metrics:
        check_choice("metric", m, METRICS)
    if ax is not None and len(metrics) != 1:
        raise ValueError("The value for `metric` must name one metric when `ax` is given, but None was passed.")
    if ax is None:
        fig, axs = plt.subplots(1, len(metrics), figsize=(5.4 * len(metrics), 0.5 + 0.4 * len(data) / len(metrics) + 1),
                                layout="constrained", sharey=True, squeeze=False)
        axs = axs[0]
    else:
        fig, axs = ax.figure, [ax]
    for axes, m in zip(axs, metrics):
        part = data[data["metric"] == m]
        names = [f"{r} ({p}p)" if "players" in part else str(r)
                 for r, p in zip(part["rules"], part["players"] if "players" in part else part["rules"])]
        y = np.arange(len(part))[::-1]
        k = _SCALE[m]
        est, low, high = (k * part[c].to_numpy(float) for c in ("estimate", "low", "high"))
        axes.errorbar(est, y, xerr=[est - low, high - est], fmt="none", capsize=3, ecolor="C0")
        paired = (part["design"] == "paired").to_numpy() if "design" in part else np.zeros(len(part), bool)
        axes.plot(est[paired], y[paired], "o", color="C0", markersize=4, label="paired (same deals)")
        axes.plot(est[~paired], y[~paired], "s", markerfacecolor="white", markeredgecolor="C0", markersize=4,
                  label="independent (other deals)")
        axes.axvline(1.0 if m == "mean_length_ratio" else 0.0, color="grey", linestyle="--", linewidth=1)
        axes.set_yticks(y, names)
        for yi, e, lo, hi in zip(y, est, low, high):
            digits = 3 if m == "mean_length_ratio" or 0 < hi - lo < 0.1 else 2   # a narrow interval shows its width
            axes.annotate(_TEXT[m].format(e, lo, hi, d=digits), (1.0, yi), xycoords=("axes fraction", "data"),
                          xytext=(4, 0), textcoords="offset points", va="center", fontsize="x-small")
        base = part["baseline"].iloc[0] if "baseline" in part and len(part) else "baseline"
        axes.set_xlabel(f"{_TITLES[m]}, vs {base}")
    axs[0].legend(loc="lower left", fontsize="x-small")
    return finish(fig, axs[0], ax)


def plot_hand_strength(data: pd.DataFrame, *, vary: str = "aces", hue="players", observed: bool = True,
                       min_seats: int = 1, ax=None, **options):
    """Predicted win probability against ``vary`` with its band, one curve per ``hue`` level;
    with ``observed`` the observed win shares as points (size ~ number of seats), where at least
    ``min_seats`` seats were dealt that value (rarer values only add noise).

    ``data`` is the output of `hand_strength_predictions` or the per-seat table (``options`` go to
    it, e.g. ``predictors``).
    """
    if "probability" not in data.columns:
        data = hand_strength_predictions(data, vary=vary, by=hue, **options)
    check_frame(data, ["value", "probability", "low", "high"])
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax)
    for part, colour, _, h in hue_groups(data, hue):
        x = part["value"].to_numpy(float)
        axes.plot(x, part["probability"], color=colour, label=None if h is None else label(hue, h))
        axes.fill_between(x, part["low"], part["high"], color=colour, alpha=0.2, linewidth=0)
        if observed and "observed" in part:
            seen = part["seats"].to_numpy(float) >= max(min_seats, 1)
            axes.scatter(x[seen], part["observed"].to_numpy(float)[seen], color=colour,
                         s=10 + 40 * np.sqrt(part["seats"].to_numpy(float)[seen] / part["seats"].max()))
    predictor = data["predictor"].iloc[0] if "predictor" in data and len(data) else vary
    axes.set_xlabel(_HAND.get(predictor, f"{predictor} in the dealt hand"))
    axes.set_ylabel("probability of winning (%)")
    percent_axis(axes.yaxis)
    axes.xaxis.set_major_locator(MaxNLocator(integer=True))
    if hue is not None:
        axes.legend()
    return finish(fig, axes, ax)


def plot_hand_strength_panels(data: pd.DataFrame, *, panels=("aces", "tribute_total"), min_seats: int = 1,
                              width: float = 5.5, height: float = 4.0):
    """`plot_hand_strength` side by side on a shared y axis, one panel per predictor of ``panels``,
    each fitted on that predictor alone; the legend stays in the first panel.

    ``data`` is the per-seat table (``simulate(..., per_seat=True)``). Returns the Figure.
    """
    panels = list(panels)
    if not panels:
        raise ValueError("The value for `panels` must name at least one predictor, but it is empty.")
    fig, axs = plt.subplots(1, len(panels), figsize=(width * len(panels), height), layout="constrained",
                            sharey=True, squeeze=False)
    for axes, predictor in zip(axs[0], panels):
        plot_hand_strength(data, vary=predictor, predictors=(predictor,), min_seats=min_seats, ax=axes)
    for axes in axs[0][1:]:
        if axes.get_legend() is not None:
            axes.get_legend().remove()
    return fig
