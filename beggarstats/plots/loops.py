"""Figures of never-ending deals across decks: the share of random deals that loop."""

from __future__ import annotations

import numpy as np
import pandas as pd

from matplotlib.ticker import NullLocator

from ._common import check_choice, check_frame, check_hue, finish, legend_outside, new_axes

__all__ = ["plot_loop_shares", "symlog_threshold"]


def plot_loop_shares(data: pd.DataFrame, *, hue="family", legend_title=None, dodge: float = 0.25,
                     scale: str = "linear", label_below: float = 0.0, ax=None):
    """The share of random deals that loop against the cards in the deck, in percent with its
    interval, one marker per deck and one colour per ``hue`` level (in the order the levels first
    appear), dodged by ``dodge`` cards so the bars do not overlap. The markers are not joined:
    each deck is its own composition, and the share jumps between neighbouring sizes.

    ``data`` has one row per deck: ``size`` (cards), ``rate`` (share that loops), ``low``,
    ``high`` and the ``hue`` column (e.g. ``family``, the deck's penalty cards); an optional
    ``design`` column marks exact rows ('census': a filled marker, no interval) apart from sampled
    ones (an open marker with its interval).

    ``scale`` 'symlog' puts shares from about a millionth to a third on one axis (a linear axis drew
    a share of 1e-5 at 0): logarithmic from the power of ten at or below the smallest positive share or
    upper bound (`symlog_threshold`), linear below it, so an exact 0 keeps its place at the bottom.
    Exact shares above 0 and below ``label_below`` (a share) have their value written beside them.
    """
    check_frame(data, ["size", "rate", "low", "high"])
    check_choice("scale", scale, ("linear", "symlog"))
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax, figsize=(8.4, 4.6))
    groups = [(None, data)] if hue is None else list(data.groupby(hue, sort=False))
    for i, (level, part) in enumerate(groups):
        y = 100 * part["rate"].to_numpy(float)
        x = part["size"].to_numpy(float) + (i - (len(groups) - 1) / 2) * dodge
        exact = (part["design"] == "census").to_numpy() if "design" in part else np.zeros(len(part), bool)
        color = f"C{i}"
        if exact.any():
            axes.plot(x[exact], y[exact], "o", markersize=5, color=color, label=level)
            for xi, share in zip(x[exact], part["rate"].to_numpy(float)[exact]):
                if 0 < share < label_below:
                    axes.annotate(f"{100 * share:.3g}%", (xi, 100 * share), xytext=(0, 6), textcoords="offset points",
                                  ha="center", va="bottom", fontsize=8, color=color)
        if (~exact).any():
            axes.errorbar(x[~exact], y[~exact], fmt="o", markersize=5, capsize=3, color=color, mfc="white",
                          label=None if exact.any() else level,
                          yerr=[y[~exact] - 100 * part["low"].to_numpy(float)[~exact],
                                100 * part["high"].to_numpy(float)[~exact] - y[~exact]])
    axes.set_xticks(sorted(pd.unique(data["size"].astype(int))))
    axes.set_xlabel("cards in the deck")
    axes.set_ylabel("random deals that loop (%)")
    if scale == "symlog":
        threshold = 100 * symlog_threshold(data)
        axes.set_yscale("symlog", linthresh=threshold, linscale=0.4)
        top = 10 ** np.ceil(np.log10(max(100 * data["high"].max(), threshold)))
        axes.set_ylim(-threshold / 4, top)
        ticks = [0.0] + [threshold * 10 ** k for k in range(int(round(np.log10(top / threshold))) + 1)]
        axes.set_yticks(ticks, ["0 (none)"] + [np.format_float_positional(t, precision=8, trim="-") + "%"
                                               for t in ticks[1:]])
        axes.yaxis.set_minor_locator(NullLocator())
        axes.set_ylabel("deals that loop (%, log scale;\nlinear below "
                        f"{np.format_float_positional(threshold, precision=8, trim='-')}%)")
    if hue is not None:
        legend_outside(axes, title=legend_title or hue)
    return finish(fig, axes, ax)


def symlog_threshold(data: pd.DataFrame) -> float:
    """The share where `plot_loop_shares`' symmetric log axis turns linear: the power of ten at or
    below the smallest positive share or upper bound of ``data`` (1e-3 when none is positive)."""
    values = data[["rate", "high"]].to_numpy(float).ravel()
    positive = values[values > 0]
    return float(10.0 ** np.floor(np.log10(positive.min()))) if positive.size else 1e-3
