"""Figures of single games: hand sizes trick by trick, and the cycle of a never-ending deal."""

from __future__ import annotations

import numpy as np

from ..game.results import GameResult
from ._common import check_choice, finish, legend_outside, new_axes, palette

__all__ = ["card_count_timeline", "loop_cycle", "hand_size_table"]


def _traced(game) -> GameResult:
    """``game`` if it is a GameResult played with trace=True; plots draw games, they do not play them."""
    if not isinstance(game, GameResult):
        raise TypeError(f"The value for `game` must be a GameResult played with trace=True "
                        f"(`play(deal, rules, trace=True)` or `replay(seed, game, rules)`), but a "
                        f"{type(game).__name__} was passed.")
    if game.trace is None:
        raise ValueError("The value for `game` must be played with trace=True (its `trace` is None).")
    return game


def hand_size_table(trace) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hand sizes at every trick boundary of a trace (a sequence of `Trick`).

    Returns ``(tricks, cards, sizes)``: boundary number 0..T, cards played up to it, and an int array
    (T+1, seats). Boundary 0 (the deal) is rebuilt from the first trick: what each seat held after
    it, plus what it played, minus the pile its taker received.
    """
    trace = list(trace)
    if not trace:
        raise ValueError("The value for `trace` must hold at least one trick, but it is empty.")
    first = trace[0]
    before = list(first.hand_sizes)
    for seat, _ in first.plays:
        before[seat] += 1
    if first.taker is not None:
        before[first.taker] -= len(first.plays)
    sizes = np.array([before] + [t.hand_sizes for t in trace])
    cards = np.r_[0, np.cumsum([t.cards for t in trace])]
    return np.arange(len(trace) + 1), cards, sizes


def _x(x, tricks, cards):
    check_choice("x", x, ("tricks", "cards"))
    return tricks if x == "tricks" else cards


def card_count_timeline(game: GameResult, *, x: str = "tricks", ax=None):
    """Each seat's hand size after every trick, one line per seat.

    ``game`` is a GameResult played with trace=True (``play(deal, trace=True)``). ``x`` is 'tricks'
    (boundary number) or 'cards' (cards played so far).
    """
    tricks, cards, sizes = hand_size_table(_traced(game).trace)
    xs = _x(x, tricks, cards)
    fig, axes = new_axes(ax, figsize=(8, 3.5))
    colours = palette(sizes.shape[1])
    for seat in range(sizes.shape[1]):
        axes.step(xs, sizes[:, seat], where="post", color=colours[seat], label=f"seat {seat}")
    axes.set_xlabel(f"{x} played")
    axes.set_ylabel("cards in hand")
    legend_outside(axes)
    return finish(fig, axes, ax)


def loop_cycle(game: GameResult, *, x: str = "tricks", ax=None):
    """The hand sizes of a looping game up to its first repeated state, with the cycle shaded:
    a dashed line where the cycle starts (boundary mu) and a solid one where the state repeats (R).

    ``game`` is a GameResult played with trace=True that found a loop (``loop_start_tricks`` set).
    """
    result = _traced(game)
    if result.loop_start_tricks is None:
        raise ValueError(f"The value for `game` must be a game that loops, but it ended with outcome "
                         f"{result.outcome!r} and no repeated state.")
    mu, period = result.loop_start_tricks, result.loop_tricks
    tricks, cards, sizes = hand_size_table(result.trace[: mu + period])
    xs = _x(x, tricks, cards)
    start, repeat = xs[mu], xs[mu + period]
    fig, axes = new_axes(ax, figsize=(8, 3.5))
    colours = palette(sizes.shape[1])
    for seat in range(sizes.shape[1]):
        axes.step(xs, sizes[:, seat], where="post", color=colours[seat], label=f"seat {seat}")
    axes.axvspan(start, repeat, color="grey", alpha=0.15, label="cycle")
    unit = "trick" if x == "tricks" else "cards"
    axes.axvline(start, color="black", linestyle="--", linewidth=1, label=_after("cycle starts", unit, start))
    axes.axvline(repeat, color="black", linewidth=1, label=_after("state repeats", unit, repeat))
    axes.set_title(f"cycle of {result.loop_tricks} tricks, {result.loop_cards} cards")
    axes.set_xlabel(f"{x} played")
    axes.set_ylabel("cards in hand")
    legend_outside(axes)
    return finish(fig, axes, ax)


def _after(what, unit, at) -> str:
    """'cycle starts after trick 4' / 'state repeats after 474 cards'."""
    return f"{what} after trick {at}" if unit == "trick" else f"{what} after {at} cards"
