"""Figures of fairness: seat win rates against 1/n, and comebacks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..analysis import comebacks, first_player_advantage, seat_win_rates
import matplotlib.pyplot as plt

from ._common import check_frame, check_hue, finish, hue_groups, label, legend_outside, new_axes, palette, percent_axis

__all__ = ["plot_seat_win_rates", "plot_seat_advantage", "plot_first_player_advantage", "plot_comebacks"]


def plot_seat_win_rates(data: pd.DataFrame, *, hue="players", ax=None):
    """Win rate per seat with Wilson error bars and a dashed 1/n line per player count.

    ``data`` is the output of `seat_win_rates` or the per-game table (then computed by players and
    rules). Points of different ``hue`` levels are dodged a little so their bars do not overlap.
    """
    if "rate" not in data.columns:
        data = seat_win_rates(data)
    check_frame(data, ["players", "seat", "rate", "low", "high", "expected"])
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax)
    groups = hue_groups(data, hue)
    for part, colour, offset, h in groups:
        x = part["seat"].to_numpy(float) + offset * 0.12
        y = part["rate"].to_numpy(float)
        axes.errorbar(x, y, yerr=[y - part["low"].to_numpy(float), part["high"].to_numpy(float) - y],
                      fmt="o", markersize=3, color=colour, capsize=3, label=None if h is None else label(hue, h))
    colour_of = {h: colour for _, colour, _, h in groups}
    for n in sorted(pd.unique(data["players"].astype(int))):
        colour = colour_of.get(n) if hue == "players" else None
        axes.hlines(1 / n, -0.4, n - 0.6, colors=[colour or groups[0][1]], linestyles="--", linewidth=1)
    axes.set_xticks(range(int(data["seat"].max()) + 1))
    axes.set_xlabel("seat (0 leads)")
    axes.set_ylabel("win rate (%)")
    percent_axis(axes.yaxis)
    if hue is not None:
        legend_outside(axes)
    return finish(fig, axes, ax)


def plot_seat_advantage(data: pd.DataFrame, *, figsize=None):
    """One panel per player count: every seat's win rate minus 1/n in percentage points with its
    interval, the seat's dealt hand size under its tick, filled markers for the seats dealt the
    larger hand (open where every hand is equal or the seat got the smaller one).

    ``data`` is the output of `seat_win_rates` with ``hand_size`` (``n_cards=``) or the per-game
    table (then computed for the 52-card deck).
    """
    if "rate" not in data.columns:
        data = seat_win_rates(data, by="players", n_cards=52)
    check_frame(data, ["players", "seat", "rate", "low", "high", "expected", "hand_size"])
    counts = sorted(pd.unique(data["players"].astype(int)))
    widths = [max(c, 2) for c in counts]
    fig, axs = plt.subplots(1, len(counts), figsize=figsize or (1.5 + 0.55 * sum(widths), 3.8),
                            layout="constrained", sharey=True, squeeze=False,
                            gridspec_kw=dict(width_ratios=widths))
    colours = palette(len(counts))
    for axes, n, colour in zip(axs[0], counts, colours):
        part = data[data["players"].astype(int) == n].sort_values("seat")
        seat = part["seat"].to_numpy(int)
        y = 100 * (part["rate"] - part["expected"]).to_numpy(float)
        err = [y - 100 * (part["low"] - part["expected"]).to_numpy(float),
               100 * (part["high"] - part["expected"]).to_numpy(float) - y]
        hand = part["hand_size"].to_numpy(int)
        big = hand > hand.min()
        axes.errorbar(seat, y, yerr=err, fmt="none", ecolor=colour, capsize=3)
        axes.plot(seat[big], y[big], "o", color=colour, markersize=5)
        axes.plot(seat[~big], y[~big], "o", markerfacecolor="white", markeredgecolor=colour, markersize=5)
        axes.axhline(0, color="grey", linestyle="--", linewidth=1)
        axes.set_xticks(seat, [f"{s}\n{h}" for s, h in zip(seat, hand)])
        axes.set_xlim(seat.min() - 0.6, seat.max() + 0.6)
        axes.set_title(f"{n} players")
        axes.set_xlabel("seat\ncards dealt")
    axs[0][0].set_ylabel("win rate − 1/n (percentage points)")
    return fig


def plot_first_player_advantage(data: pd.DataFrame, *, ax=None):
    """Seat 0's win rate minus 1/n by player count, in percentage points, with its interval and a
    dashed line at no advantage.

    ``data`` is the output of `first_player_advantage` or the per-game table (then computed by
    player count).
    """
    if "advantage" not in data.columns:
        data = first_player_advantage(data, by="players")
    check_frame(data, ["players", "advantage", "low", "high"])
    fig, axes = new_axes(ax)
    y = 100 * data["advantage"].to_numpy(float)
    axes.errorbar(data["players"].astype(int), y, fmt="o", markersize=4, capsize=4,
                  yerr=[y - 100 * data["low"].to_numpy(float), 100 * data["high"].to_numpy(float) - y])
    axes.axhline(0, color="grey", linestyle="--", linewidth=1)
    axes.set_xticks(list(data["players"].astype(int)))
    axes.set_xlabel("players")
    axes.set_ylabel("seat 0 win rate − 1/n (percentage points)")
    return finish(fig, axes, ax)


def plot_comebacks(data: pd.DataFrame, *, hue="rules", ax=None, **options):
    """Comeback rate by player count as bars with Wilson error bars, one bar colour per ``hue``.

    ``data`` is the output of `comebacks` or the per-seat table (then ``options`` such as
    ``fraction`` or ``cards`` go to `comebacks`).
    """
    if "comebacks" not in data.columns:
        data = comebacks(data, **options)
    check_frame(data, ["players", "rate", "low", "high"])
    hue = check_hue(data, hue)
    fig, axes = new_axes(ax)
    players = sorted(pd.unique(data["players"].astype(int)))
    groups = hue_groups(data, hue)
    width = 0.8 / len(groups)
    for part, colour, offset, h in groups:
        x = np.array([players.index(int(p)) for p in part["players"]]) + offset * width
        y = part["rate"].to_numpy(float)
        axes.bar(x, y, width=width, color=colour, label=None if h is None else label(hue, h),
                 yerr=[y - part["low"].to_numpy(float), part["high"].to_numpy(float) - y], capsize=3)
    axes.set_xticks(range(len(players)), [f"{p} players" for p in players])
    threshold = data["threshold"].iloc[0] if "threshold" in data.columns and len(data) else ""
    axes.set_ylabel("comebacks (% of decided games)")
    if threshold:
        axes.set_title(f"winner once {threshold}")
    percent_axis(axes.yaxis)
    if hue is not None:
        legend_outside(axes)
    return finish(fig, axes, ax)
