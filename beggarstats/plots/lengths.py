"""Figures of game length: distributions and Kaplan-Meier survival curves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns

from ..analysis import kaplan_meier
from ..analysis._checks import check_outcomes
from ._common import check_choice, check_frame, check_hue, finish, label, levels, new_axes, palette

__all__ = ["plot_lengths", "plot_survival"]


def plot_lengths(data: pd.DataFrame, *, measure: str = "cards", hue="players", kind: str = "hist",
                 log: bool = False, outcomes=("win",), ax=None):
    """Distribution of game length, one colour per ``hue`` level.

    Parameters
    ----------
    data : DataFrame
        One row per game (``outcome``, ``measure``).
    kind : {'hist', 'ecdf'}
        Histogram (density, step outline) or empirical CDF. With ``log=True`` the ECDF is drawn as
        the complementary ECDF, share of games longer than x, on a log scale: a geometric tail is a
        straight line there.
    log : bool
        Logarithmic y axis.
    outcomes : sequence of {'win', 'loop', 'cutoff'}
        Games drawn (default: finished games).
    ax : matplotlib Axes, optional
        Draw there and return it; otherwise return a new Figure.
    """
    check_choice("measure", measure, ("cards", "tricks"))
    check_choice("kind", kind, ("hist", "ecdf"))
    check_frame(data, ["outcome", measure])
    hue = check_hue(data, hue)
    outcomes = check_outcomes(outcomes)
    keep = data[data["outcome"].astype(str).isin(outcomes)]
    plot = pd.DataFrame({measure: pd.to_numeric(keep[measure].astype("Float64")).astype(float)})
    names = levels(keep, hue)
    if hue is not None:
        plot[hue] = keep[hue].map(lambda v: label(hue, v)).astype(str).to_numpy()
    order = [label(hue, v) for v in names] if hue is not None else None
    fig, axes = new_axes(ax)
    common = dict(data=plot, x=measure, hue=hue, hue_order=order, ax=axes, palette=palette(len(names)) if hue else None)
    if kind == "hist":
        sns.histplot(**common, stat="density", common_norm=False, element="step", fill=False)
    else:
        sns.ecdfplot(**common, complementary=log)
    if log:
        axes.set_yscale("log")
    axes.set_xlabel(f"game length ({measure})")
    return finish(fig, axes, ax)


def plot_survival(data: pd.DataFrame, *, measure: str = "cards", hue="players", style=None, ci: bool = True,
                  log: bool = True, ax=None):
    """Kaplan-Meier survival curves P(length > x) with their confidence bands.

    ``data`` is either the output of `kaplan_meier` (columns ``length``, ``survival``, ``low``,
    ``high``) or the per-game table, for which it is computed by ``hue`` and ``style``. One step
    line (and band) per (hue, style) pair; ``log`` puts the y axis on a log scale.
    """
    hue, style = check_hue(data, hue), check_hue(data, style, name="style")
    if "survival" not in data.columns:
        check_frame(data, ["outcome", measure])
        by = [c for c in (hue, style) if c is not None]
        data = kaplan_meier(data, measure=measure, by=by or None)
    check_frame(data, ["length", "survival", "low", "high"])
    fig, axes = new_axes(ax)
    hues, styles = levels(data, hue), levels(data, style)
    colours, dashes = palette(len(hues)), ["-", "--", ":", "-."]
    for i, h in enumerate(hues):
        for j, s in enumerate(styles):
            part = data
            if h is not None:
                part = part[part[hue].astype(object) == h]
            if s is not None:
                part = part[part[style].astype(object) == s]
            if part.empty:
                continue
            x = np.r_[0, part["length"].to_numpy(float)]
            name = ", ".join(label(c, v) for c, v in ((hue, h), (style, s)) if c is not None) or None
            axes.step(x, np.r_[1, part["survival"]], where="post", color=colours[i],
                      linestyle=dashes[j % 4], label=name)
            if ci:
                axes.fill_between(x, np.r_[1, part["low"]], np.r_[1, part["high"]], step="post",
                                  color=colours[i], alpha=0.2, linewidth=0)
    if log:
        axes.set_yscale("log")
    axes.set_xlabel(f"game length ({measure})")
    axes.set_ylabel("share of games still going")
    if hue is not None or style is not None:
        axes.legend()
    return finish(fig, axes, ax)
