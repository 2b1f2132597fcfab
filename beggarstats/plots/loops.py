"""Figures of never-ending deals across decks: the share of random deals that loop."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._common import check_frame, check_hue, finish, legend_outside, new_axes

__all__ = ["plot_loop_shares"]


def plot_loop_shares(data: pd.DataFrame, *, hue="family", legend_title=None, dodge: float = 0.25, ax=None):
    """The share of random deals that loop against the cards in the deck, in percent with its
    interval, one marker per deck and one colour per ``hue`` level (in the order the levels first
    appear), dodged by ``dodge`` cards so the bars do not overlap. The markers are not joined:
    each deck is its own composition, and the share jumps between neighbouring sizes.

    ``data`` has one row per deck: ``size`` (cards), ``rate`` (share that loops), ``low``,
    ``high`` and the ``hue`` column (e.g. ``family``, the deck's penalty cards); an optional
    ``design`` column marks exact rows ('census': a filled marker, no interval) apart from sampled
    ones (an open marker with its interval).
    """
    check_frame(data, ["size", "rate", "low", "high"])
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax)
    groups = [(None, data)] if hue is None else list(data.groupby(hue, sort=False))
    for i, (level, part) in enumerate(groups):
        y = 100 * part["rate"].to_numpy(float)
        x = part["size"].to_numpy(float) + (i - (len(groups) - 1) / 2) * dodge
        exact = (part["design"] == "census").to_numpy() if "design" in part else np.zeros(len(part), bool)
        color = f"C{i}"
        if exact.any():
            axes.plot(x[exact], y[exact], "o", markersize=5, color=color, label=level)
        if (~exact).any():
            axes.errorbar(x[~exact], y[~exact], fmt="o", markersize=5, capsize=3, color=color, mfc="white",
                          label=None if exact.any() else level,
                          yerr=[y[~exact] - 100 * part["low"].to_numpy(float)[~exact],
                                100 * part["high"].to_numpy(float)[~exact] - y[~exact]])
    axes.set_xticks(sorted(pd.unique(data["size"].astype(int))))
    axes.set_xlabel("cards in the deck")
    axes.set_ylabel("random deals that loop (%)")
    if hue is not None:
        legend_outside(axes, title=legend_title or hue)
    return finish(fig, axes, ax)
