"""Figures of effects: variants against the baseline (forest plot) and hand-strength curves."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..analysis import compare_variants, hand_strength_predictions
from ..analysis.variants import METRICS
from ._common import check_choice, check_frame, check_hue, finish, label, levels, new_axes, palette

__all__ = ["plot_variant_effects", "plot_hand_strength"]

_TITLES = {"mean_length_diff": "difference in mean length", "mean_length_ratio": "ratio of mean lengths",
           "seat0_win_diff": "difference in seat-0 win rate"}


def plot_variant_effects(data: pd.DataFrame, *, metric=None, ax=None, **options):
    """Forest plot: each variant's effect with its interval, a reference line at no effect.

    ``data`` is the output of `compare_variants` or the per-game table (``options`` such as
    ``baseline`` go to `compare_variants`). ``metric`` picks one of `METRICS`; None draws every
    metric present side by side (then ``ax`` cannot be given).
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
        fig, axs = plt.subplots(1, len(metrics), figsize=(4.2 * len(metrics), 0.5 + 0.4 * len(data) / len(metrics) + 1),
                                layout="constrained", sharey=True, squeeze=False)
        axs = axs[0]
    else:
        fig, axs = ax.figure, [ax]
    for axes, m in zip(axs, metrics):
        part = data[data["metric"] == m]
        names = [f"{r} ({p}p)" if "players" in part else str(r)
                 for r, p in zip(part["rules"], part["players"] if "players" in part else part["rules"])]
        y = np.arange(len(part))[::-1]
        est = part["estimate"].to_numpy(float)
        axes.errorbar(est, y, xerr=[est - part["low"].to_numpy(float), part["high"].to_numpy(float) - est],
                      fmt="o", capsize=3, color="C0")
        axes.axvline(1.0 if m == "mean_length_ratio" else 0.0, color="grey", linestyle="--", linewidth=1)
        axes.set_yticks(y, names)
        base = part["baseline"].iloc[0] if "baseline" in part and len(part) else "baseline"
        axes.set_xlabel(f"{_TITLES[m]} (vs {base})")
    return finish(fig, axs[0], ax)


def plot_hand_strength(data: pd.DataFrame, *, vary: str = "aces", hue="players", observed: bool = True,
                       ax=None, **options):
    """Predicted win probability against ``vary`` with its band, one curve per ``hue`` level;
    with ``observed`` the observed win shares as points (size ~ number of seats).

    ``data`` is the output of `hand_strength_predictions` or the per-seat table (``options`` go to
    it, e.g. ``predictors``).
    """
    if "probability" not in data.columns:
        data = hand_strength_predictions(data, vary=vary, by=hue, **options)
    check_frame(data, ["value", "probability", "low", "high"])
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax)
    hues = levels(data, hue)
    colours = palette(len(hues))
    for i, h in enumerate(hues):
        part = data if h is None else data[data[hue].astype(object) == h]
        x = part["value"].to_numpy(float)
        axes.plot(x, part["probability"], color=colours[i], label=None if h is None else label(hue, h))
        axes.fill_between(x, part["low"], part["high"], color=colours[i], alpha=0.2, linewidth=0)
        if observed and "observed" in part:
            seen = part["seats"].to_numpy(float) > 0
            axes.scatter(x[seen], part["observed"].to_numpy(float)[seen], color=colours[i],
                         s=10 + 40 * np.sqrt(part["seats"].to_numpy(float)[seen] / part["seats"].max()))
    predictor = data["predictor"].iloc[0] if "predictor" in data and len(data) else vary
    axes.set_xlabel(f"{predictor} in the dealt hand")
    axes.set_ylabel("probability of winning")
    if hue is not None:
        axes.legend()
    return finish(fig, axes, ax)
