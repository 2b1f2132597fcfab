"""Figures of effects: variants against the baseline (forest plot) and hand-strength curves."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from ..analysis import compare_variants, hand_strength_cells, hand_strength_predictions, logistic_fit_test
from ..analysis.variants import METRICS
from matplotlib.ticker import MaxNLocator

from ._common import check_choice, check_frame, check_hue, finish, hue_groups, label, new_axes, percent_axis

__all__ = ["plot_variant_effects", "plot_variant_grid", "plot_hand_strength", "plot_hand_strength_panels",
           "plot_hand_strength_check"]

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


def _p_text(p: float) -> str:
    return "p < 1e-10" if p < 1e-10 else f"p {p:.2g}"


def _stat_text(v: float) -> str:
    """A test statistic: three significant digits, whole with thousands separators from 100 on."""
    return f"{v:,.0f}" if abs(v) >= 100 else f"{v:.3g}"


def plot_hand_strength_check(data: pd.DataFrame, *, panels=("aces", "tribute_total"), min_seats: int = 1,
                             level: float = 0.05, width: float = 6.0, height: float = 4.6):
    """The observed win share by what a seat was dealt, and how far a logistic in it holds: one
    panel per predictor of ``panels`` on a shared y axis, one colour per player count.

    Dots: `hand_strength_cells` where at least ``min_seats`` seats were dealt the value, with their
    95% Wilson intervals, joined by a thin line (the empirical curve); open where every seat lost
    (or won), which a logistic cannot fit and `logistic_fit_test` leaves out. Dashed: the logistic in
    that predictor alone, fitted on the other dots' seats, with its 95% band (clustered by game). The
    legend of each panel gives each player count's Wald test of that logistic against the observed
    shares and its verdict at ``level``. ``data`` is the per-seat table. Returns the Figure; its
    ``tests`` attribute holds the tests ({predictor: `logistic_fit_test`'s table}).
    """
    panels = list(panels)
    if not panels:
        raise ValueError("The value for `panels` must name at least one predictor, but it is empty.")
    fig, axs = plt.subplots(1, len(panels), figsize=(width * len(panels), height), layout="constrained",
                            sharey=True, squeeze=False)
    fig.tests = {}
    for axes, predictor in zip(axs[0], panels):
        cells = hand_strength_cells(data, vary=predictor, min_seats=min_seats)
        tests, curve = logistic_fit_test(data, vary=predictor, min_seats=min_seats)
        fig.tests[predictor] = tests
        verdicts = tests.set_index("players")
        for part, colour, _, players in hue_groups(cells[cells["drawn"]], "players"):
            x, y = part["value"].to_numpy(float), part["share"].to_numpy(float)
            fitted = part["fitted"].to_numpy(bool)
            axes.plot(x, y, color=colour, linewidth=0.8, alpha=0.7)
            axes.errorbar(x[fitted], y[fitted], yerr=[y[fitted] - part["low"].to_numpy(float)[fitted],
                                                       part["high"].to_numpy(float)[fitted] - y[fitted]],
                          fmt="o", markersize=3.5, capsize=2, elinewidth=0.9, color=colour)
            if (~fitted).any():
                axes.plot(x[~fitted], y[~fitted], "o", markersize=4.5, color=colour, mfc="white")
            line = curve[curve["players"] == players]
            if players in verdicts.index and len(line):
                t = verdicts.loc[players]
                said = "rejected" if t["p_value"] < level else "not rejected"
                lx = line["value"].to_numpy(float)
                axes.plot(lx, line["probability"], color=colour, linestyle="--", linewidth=1.2,
                          label=f"{players}p: χ² {_stat_text(t['chi2'])} on {int(t['dof'])} df, {_p_text(t['p_value'])}: {said}")
                axes.fill_between(lx, line["low"], line["high"], color=colour, alpha=0.15, linewidth=0)
        axes.set_xlabel(_HAND.get(predictor, f"{predictor} in the dealt hand"))
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))
        heading = f"dashed: logistic in {predictor.replace('_', ' ')} alone;\n"
        if len(tests):
            axes.legend(loc="upper left", fontsize=8, title_fontsize=8, alignment="left",
                        title=heading + "its Wald test against the dots (clustered by game)")
        else:  # too few seats for two cells of any player count: nothing fitted, and the panel says so
            axes.text(0.02, 0.98, "no logistic: fewer than two hands\nwith enough seats", transform=axes.transAxes,
                      ha="left", va="top", fontsize=8)
    axs[0][0].set_ylabel("probability of winning (%)")
    percent_axis(axs[0][0].yaxis)
    top = max(axes.get_ylim()[1] for axes in axs[0])
    axs[0][0].set_ylim(0, max(top, 0.5) * 1.12)  # room for the legends above the curves
    return fig


_GRID_METRICS = (("mean_length_diff", "change in mean length (cards; symmetric log scale beyond ±1)", 1.0),
                 ("seat0_win_diff", "change in seat 0's win rate (percentage points)", 100.0))


def plot_variant_grid(data: pd.DataFrame):
    """Every variant against the base rules for every player count: one row per variant, the player
    counts side by side within it (one colour each), the change in mean length (left; a symmetric
    log axis, so that ±0.3 cards and the jokers' -70 both read) and in seat 0's win rate (right),
    each with its 95% interval. Filled: detected after Holm; open: not detected (its detectable
    effect is in the findings); a cross: identical in every pair (no pair differs).

    ``data``: one row per (variant, players, metric) with ``label``, ``players``, ``metric``,
    ``estimate``, ``low``, ``high`` and ``verdict`` (`report.variant_data.figure_frame`).
    """
    check_frame(data, ["label", "players", "metric", "estimate", "low", "high", "verdict"])
    labels = list(dict.fromkeys(data["label"]))
    players = sorted(set(int(p) for p in data["players"]))
    colours = dict(zip(players, plt.get_cmap("viridis")(np.linspace(0, 0.9, len(players)))))
    fig, axs = plt.subplots(1, 2, figsize=(11, 0.55 * len(labels) + 1.6), layout="constrained", sharey=True)
    step = 0.7 / max(len(players), 1)
    for axes, (metric, title, k) in zip(axs, _GRID_METRICS):
        part = data[data["metric"] == metric]
        for p in players:
            rows = part[part["players"] == p]
            y = np.array([len(labels) - 1 - labels.index(l) for l in rows["label"]], float) \
                + 0.35 - step * (players.index(p) + 0.5)
            est, low, high = (k * rows[c].to_numpy(float) for c in ("estimate", "low", "high"))
            ok = np.isfinite(low)
            axes.errorbar(est[ok], y[ok], xerr=[est[ok] - low[ok], high[ok] - est[ok]], fmt="none", ecolor=colours[p],
                          elinewidth=1.2, capsize=2)
            verdict = rows["verdict"].to_numpy()
            found, same = verdict == "detected", verdict == "identical in every pair"
            rest = ~found & ~same
            axes.plot(est[found], y[found], "o", color=colours[p], markersize=4.5, label=f"{p} players")
            axes.plot(est[rest], y[rest], "o", markerfacecolor="white", markeredgecolor=colours[p], markersize=4.5)
            axes.plot(est[same], y[same], "x", color=colours[p], markersize=4.5)
        axes.axvline(0, color="0.3", linewidth=0.8)
        if metric == "mean_length_diff":
            axes.set_xscale("symlog", linthresh=1.0)
            axes.axvspan(-0.3, 0.3, color="0.85", zorder=0, linewidth=0)
            lo, hi = axes.get_xlim()
            ticks = [t for t in (-100, -30, -10, -3, -1, 0, 1, 3, 10, 30, 100) if lo <= t <= hi]
            axes.set_xticks(ticks, [f"{t:+d}" if t else "0" for t in ticks])
            axes.xaxis.set_minor_locator(plt.NullLocator())
        axes.set_xlabel(title)
        axes.set_yticks(range(len(labels)), labels[::-1])
        axes.set_ylim(-0.6, len(labels) - 0.4)
        for y in range(len(labels) - 1):
            axes.axhline(y + 0.5, color="0.9", linewidth=0.6)
    handles = [plt.Line2D([], [], marker="o", color=colours[p], linestyle="", label=f"{p} players") for p in players]
    handles += [plt.Line2D([], [], marker="o", markerfacecolor="black", markeredgecolor="black", linestyle="",
                           label="detected (Holm)"),
                plt.Line2D([], [], marker="o", markerfacecolor="white", markeredgecolor="black", linestyle="",
                           label="not detected"),
                plt.Line2D([], [], marker="x", color="black", linestyle="", label="identical in every pair"),
                plt.matplotlib.patches.Patch(color="0.85", label="±0.3 cards")]
    fig.legend(handles=handles, loc="outside right upper", fontsize=8, frameon=False)
    return fig
