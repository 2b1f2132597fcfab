"""Figures of game length: distributions and Kaplan-Meier survival curves."""

from __future__ import annotations

import numpy as np
import pandas as pd
import seaborn as sns

from ..analysis import kaplan_meier
from ..analysis._checks import check_outcomes
from ._common import check_choice, check_frame, check_hue, finish, hue_groups, label, levels, legend_outside, new_axes, palette, percent_axis

__all__ = ["plot_lengths", "plot_survival", "plot_survival_panels", "plot_hazard_bands", "plot_hazard_panels"]


def plot_lengths(data: pd.DataFrame, *, measure: str = "cards", hue="players", kind: str = "hist",
                 log: bool = False, outcomes=("win",), binwidth=None, cut=None, ax=None):
    """Distribution of game length, one colour per ``hue`` level.

    Parameters
    ----------
    data : DataFrame
        One row per game (``outcome``, ``measure``).
    kind : {'hist', 'ecdf'}
        Histogram (percent of each group's games per bin, step outline) or empirical CDF. With ``log=True`` the ECDF is drawn as
        the complementary ECDF, share of games longer than x, on a log scale: a geometric tail is a
        straight line there.
    log : bool
        Logarithmic y axis.
    outcomes : sequence of {'win', 'loop', 'cutoff'}
        Games drawn (default: finished games).
    binwidth : int, optional
        Histogram bin width in whole ``measure`` units; the edges lie on multiples of it, so every
        bin holds the same number of possible lengths (bins of fractional width alias with whole
        lengths into a comb). Default: about a hundredth of the range, rounded to a whole number.
    cut : number, optional
        End the x axis there and say in the plot which share of the games lies beyond.
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
    if binwidth is not None and (not isinstance(binwidth, (int, np.integer)) or isinstance(binwidth, bool)
                                 or binwidth < 1):
        raise ValueError(f"The value for `binwidth` must be a whole number >= 1, but {binwidth!r} was passed.")
    if cut is not None and (isinstance(cut, bool) or not isinstance(cut, (int, float, np.number)) or not cut > 0):
        raise ValueError(f"The value for `cut` must be a positive number, but {cut!r} was passed.")
    fig, axes = new_axes(ax)
    common = dict(data=plot, x=measure, hue=hue, hue_order=order, ax=axes, palette=palette(len(names)) if hue else None)
    x = plot[measure].to_numpy(float)
    x = x[~np.isnan(x)]
    if kind == "hist":
        top = x.max() if x.size else 1.0
        width = binwidth or max(1, int(round(top / 100)))
        bins = np.arange(0, top + width + 1, width)
        sns.histplot(**common, bins=bins, stat="proportion", common_norm=False, element="step", fill=False)
        axes.set_ylabel(f"games per {width}-{measure[:-1]} bin (%)")
        percent_axis(axes.yaxis)
    else:
        sns.ecdfplot(**common, complementary=log)
        axes.set_ylabel(f"share of games {'longer than' if log else 'at most'} x {measure} (%)")
        percent_axis(axes.yaxis)
    if log:
        axes.set_yscale("log")
    if cut is not None:
        axes.set_xlim(0, cut)
        beyond = float(np.mean(x > cut)) if x.size else 0.0
        axes.text(0.98, 0.6, f"not shown: {100 * beyond:.2g}% of games,\nlonger than {cut:g} {measure}",
                  transform=axes.transAxes, ha="right", va="top", fontsize="small")
    axes.set_xlabel(f"game length ({measure})")
    return finish(fig, axes, ax)


def plot_survival(data: pd.DataFrame, *, measure: str = "cards", hue="players", style=None, ci: bool = True,
                  log: bool = True, marks=None, ax=None):
    """Kaplan-Meier survival curves P(length > x) with their confidence bands.

    ``data`` is either the output of `kaplan_meier` (columns ``length``, ``survival``, ``low``,
    ``high``) or the per-game table, for which it is computed by ``hue`` and ``style``. One step
    line (and band) per (hue, style) pair; ``log`` puts the y axis on a log scale, where a curve
    that reaches 0 ends at the length of its last game, marked with a bar (0 has no place on a log
    axis). Loops never end, so a curve of loop-prone deals levels off at their share. ``marks``:
    {name: length} drawn as labelled vertical lines (the longest game seen, say); one beyond the
    axis is named at its right edge with an arrow.
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
            y, low, high = (np.r_[1, part[c].to_numpy(float)] for c in ("survival", "low", "high"))
            last = None
            if log and np.any(y <= 0):
                # On a log axis S = 0 lies at minus infinity: the curve ends at the last game instead
                # (the step holds the last positive value up to its length, marked with a bar).
                stop = int(np.argmax(y <= 0))
                x, y, low, high = x[:stop + 1], np.r_[y[:stop], y[stop - 1]], low[:stop + 1], high[:stop + 1]
                low[-1], high[-1] = low[-2], high[-2]
                last = (x[-1], y[-1])
            name = ", ".join(label(c, v) for c, v in ((hue, h), (style, s)) if c is not None) or None
            axes.step(x, y, where="post", color=colours[i], linestyle=dashes[j % 4], label=name)
            if last is not None:
                axes.scatter(*last, marker="|", s=81, color=colours[i], zorder=3)
            if ci:
                axes.fill_between(x, low, high, step="post", color=colours[i], alpha=0.2, linewidth=0)
    if log:
        axes.set_yscale("log")
    if marks:
        right = axes.get_xlim()[1]
        for k, (name, x) in enumerate(sorted(marks.items(), key=lambda m: m[1])):
            y = 0.97 - 0.07 * k
            if x <= right:
                axes.axvline(x, color="0.35", linestyle=":", linewidth=1)
                axes.text(x, y, f" {name}", transform=axes.get_xaxis_transform(), fontsize=8, color="0.25",
                          ha="right" if x > 0.75 * right else "left", va="top")
            else:
                axes.annotate(f"{name} →", xy=(1.0, y), xycoords="axes fraction", fontsize=8, color="0.25",
                              ha="right", va="top")
    percent_axis(axes.yaxis)
    axes.set_xlabel(f"game length ({measure})")
    axes.set_ylabel(f"games lasting more than x {measure} (%{', log scale' if log else ''})")
    if hue is not None or style is not None:
        axes.legend()
    return finish(fig, axes, ax)


def plot_survival_panels(data: pd.DataFrame, *, measure: str = "cards", hue="players", marks=None,
                         bulk: float = 0.01):
    """`plot_survival` twice, side by side: the bulk on a linear axis, up to the length by which every
    curve has fallen to ``bulk`` (a share), where groups whose tails overlap on a log axis (3-6
    players) stand apart; and the whole curve on a log axis with ``marks``. ``data`` as for
    `plot_survival` (its Kaplan-Meier table is computed once, by ``hue``). Returns the Figure."""
    import matplotlib.pyplot as plt

    hue = check_hue(data, hue)
    if not 0 < bulk < 1:
        raise ValueError(f"The value for `bulk` must be a share between 0 and 1, but {bulk!r} was passed.")
    if "survival" not in data.columns:
        check_frame(data, ["outcome", measure])
        data = kaplan_meier(data, measure=measure, by=[hue] if hue is not None else None)
    fig, (left, right) = plt.subplots(1, 2, figsize=(12, 4.4), layout="constrained")
    plot_survival(data, measure=measure, hue=hue, log=False, ax=left)
    parts = [data] if hue is None else [part for _, part in data.groupby(hue, observed=True)]
    end = max(float(part.loc[part["survival"] <= bulk, "length"].min()) for part in parts)
    left.set_xlim(0, end)
    left.set_ylim(0, 1.02)
    left.set_title(f"the bulk: linear scale, until every curve is down to {100 * bulk:g}%", fontsize=9)
    plot_survival(data, measure=measure, hue=hue, log=True, marks=marks, ax=right)
    if right.get_legend() is not None:
        right.get_legend().remove()
    right.set_title("the whole range: log scale", fontsize=9)
    return fig


def plot_hazard_bands(data: pd.DataFrame, *, hue="players", rejected=(), ax=None):
    """End rate per card in bands of length (`analysis.hazard_bands`) with their intervals, and
    as a dashed line the one rate of a group (events / exposure), drawn only for the ``hue`` levels
    not in ``rejected`` (those whose `analysis.tail_constancy_test` rejects one rate: a line the
    data reject would be read as a fit)."""
    check_frame(data, ["band_low", "band_high", "rate", "low", "high", "events", "exposure"])
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax)
    for part, colour, offset, h in hue_groups(data, hue):
        lo, hi = part["band_low"].to_numpy(float), part["band_high"].to_numpy(float)
        width = np.nanmin(hi - lo) if np.isfinite(hi).any() else 1.0
        mid = np.where(np.isfinite(hi), (lo + hi) / 2, lo + width / 2) + offset * width * 0.08
        y = part["rate"].to_numpy(float)
        axes.errorbar(mid, y, yerr=[y - part["low"].to_numpy(float), part["high"].to_numpy(float) - y], fmt="o",
                      markersize=3, capsize=2, color=colour, label=None if h is None else label(hue, h))
        if h not in set(rejected):
            one = part["events"].sum() / part["exposure"].sum()
            axes.hlines(one, lo.min(), mid.max(), colors=[colour], linestyles="--", linewidth=0.8)
    percent_axis(axes.yaxis, digits=2)
    axes.set_xlabel("game length (cards; each band drawn at its middle, the last band open-ended)")
    axes.set_ylabel("games ending per card played (%)")
    if hue is not None and ax is None:
        legend_outside(axes, title="dashed: one rate for all\nbands, where its test\ndoes not reject it")
    return finish(fig, axes, ax)


def plot_hazard_panels(bands: pd.DataFrame, tests: pd.DataFrame, *, level: float = 0.05, title: str | None = None):
    """`plot_hazard_bands`, one panel per player count on shared axes (the bands' intervals overlap
    when drawn together), each with its one-rate line only where ``tests``
    (`analysis.tail_constancy_test`, by ``players``) does not reject it at ``level``, and the test's
    verdict in the panel's title."""
    import matplotlib.pyplot as plt

    check_frame(tests, ["players", "p_value"])
    counts = sorted(bands["players"].unique())
    fig, axes = plt.subplots(1, len(counts), figsize=(2.6 * len(counts), 3.6), sharex=True, sharey=True)
    axes = np.atleast_1d(axes)
    verdict = tests.set_index("players")["p_value"]
    for k, (ax, p, colour) in enumerate(zip(axes, counts, palette(len(counts)))):
        rejected = verdict.loc[p] < level
        plot_hazard_bands(bands[bands["players"] == p], hue=None, rejected=(None,) if rejected else (), ax=ax)
        for line in ax.get_lines() + list(ax.collections):
            line.set_color(colour)
        pv = "p < 1e-10" if verdict.loc[p] < 1e-10 else f"p {verdict.loc[p]:.2g}"
        ax.set_title(f"{p} players\none rate {'rejected, no line' if rejected else 'not rejected (dashed)'}\n({pv})",
                     fontsize=8)
        ax.set_xlabel("")
        if k:
            ax.set_ylabel("")
    fig.supxlabel("game length (cards; each band at its middle, the last band open-ended)", fontsize=9)
    if title:
        fig.suptitle(title)
    fig.tight_layout()
    return fig
