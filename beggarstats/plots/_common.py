"""Shared plumbing of the figures: one Figure or the caller's Axes, hue levels, palettes."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from matplotlib.ticker import FuncFormatter

from ..analysis._checks import check_choice, check_frame

__all__ = ["new_axes", "finish", "levels", "hue_groups", "palette", "check_choice", "check_frame", "check_hue", "theme",
           "percent_axis", "legend_outside", "THEME"]

# One look for every figure: seaborn's white grid, the default palette, slightly smaller titles.
THEME = {**sns.axes_style("whitegrid"), "axes.titlesize": "medium", "figure.titlesize": "medium",
         "legend.fontsize": "small", "legend.title_fontsize": "small"}


def theme():
    """A context in which figures take the common look (`THEME`): ``with theme(): ...``."""
    return plt.rc_context(THEME)


def percent_axis(axis, *, points: bool = False, digits=None):
    """Tick labels of a share (0-1) as percent, or of a difference of shares as percentage points."""
    def show(v, _):
        value = 100 * v
        text = f"{value:.{digits}f}" if digits is not None else np.format_float_positional(value, precision=8, trim="-")
        return f"{text} pp" if points else f"{text}%"
    axis.set_major_formatter(FuncFormatter(show))


def legend_outside(axes, **options):
    """A legend to the right of the axes, where it cannot cover data."""
    return axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, **options)


def new_axes(ax=None, *, figsize=(6.4, 4.0)):
    """The caller's ``ax`` (and its figure) or a fresh Figure with one Axes."""
    if ax is not None:
        return ax.figure, ax
    fig, ax = plt.subplots(figsize=figsize, layout="constrained")
    return fig, ax


def finish(fig, ax, given):
    """What every plot returns: the Axes when the caller gave one, else the Figure."""
    return ax if given is not None else fig


def check_hue(data: pd.DataFrame, hue, *, name: str = "hue"):
    """A grouping column of ``data`` or None; the error names the parameter ``name``."""
    if hue is not None and hue not in data.columns:
        raise ValueError(f"The value for `{name}` must be a column of the data ({list(data.columns)}) or None, "
                         f"but {hue!r} was passed.")
    return hue


def levels(data: pd.DataFrame, column):
    """Sorted distinct values of ``column`` ([None] when column is None)."""
    if column is None:
        return [None]
    return sorted(pd.unique(data[column].astype(object)), key=lambda v: (str(type(v)), v))


def hue_groups(data: pd.DataFrame, hue):
    """One ``(part, colour, offset, value)`` per level of ``hue`` (the whole frame, once, for None):
    ``offset`` centres the levels on 0 (-1, 0, +1 for three), for dodging markers side by side."""
    hues = levels(data, hue)
    colours = palette(len(hues))
    return [(data if h is None else data[data[hue].astype(object) == h], colours[i], i - (len(hues) - 1) / 2, h)
            for i, h in enumerate(hues)]


def palette(n: int):
    return sns.color_palette(n_colors=max(n, 1))


def label(column, value) -> str:
    return f"{value} players" if column == "players" else f"{value}"
