"""Figures of single games: hand sizes trick by trick, and the cycle of a never-ending deal."""

from __future__ import annotations

import numpy as np

from ..game.results import GameResult
from ._common import check_choice, finish, legend_outside, new_axes, palette

__all__ = ["card_count_timeline", "loop_cycle", "hand_size_table", "timeline_facts", "plot_record_timeline"]


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


def timeline_facts(game: GameResult) -> dict:
    """What `plot_record_timeline` writes on the figure, from the trace alone: ``cards``, ``tricks``,
    ``winner`` (seat, or None), ``deck`` (cards in play), ``fewest`` ({seat: (cards, trick)}: each
    seat's smallest hand at a trick boundary before the game's last, the first time it held that
    few), ``leader_changes`` (times the largest hand passed to another seat; ties keep the last
    leader) and ``longest_lead`` ((seat, tricks, from_trick): the longest run of boundaries one
    seat held the largest hand)."""
    tricks, cards, sizes = hand_size_table(_traced(game).trace)
    before = sizes[:-1]  # the last boundary is the end: the losers' zero is how the game ends, not a close call
    fewest = {seat: (int(before[:, seat].min()), int(tricks[np.argmin(before[:, seat])]))
              for seat in range(sizes.shape[1])}
    leaders, current = [], None
    for row in sizes:
        top = np.flatnonzero(row == row.max())
        current = current if current in top else int(top[0])
        leaders.append(current)
    leaders = np.array(leaders)
    changes = int(np.sum(leaders[1:] != leaders[:-1]))
    starts = np.r_[0, np.flatnonzero(leaders[1:] != leaders[:-1]) + 1]
    runs = np.diff(np.r_[starts, len(leaders)])
    k = int(np.argmax(runs))
    return dict(cards=int(cards[-1]), tricks=int(tricks[-1]), winner=game.winner, deck=int(sizes[0].sum()),
                fewest=fewest, leader_changes=changes,
                longest_lead=(int(leaders[starts[k]]), int(runs[k]), int(tricks[starts[k]])))


def plot_record_timeline(game: GameResult):
    """One long game told so it can be read: the seats' hands stacked (trick boundaries hold no
    pile, so together they fill the deck and one seat's share is the rest's complement, instead of
    lines that cross a thousand times), a dashed line at an even split, cards played on the top
    axis, each seat's closest call marked and the game's facts (`timeline_facts`) written beside
    the plot. Returns the Figure."""
    tricks, cards, sizes = hand_size_table(_traced(game).trace)
    facts = timeline_facts(game)
    fig, axes = new_axes(None, figsize=(10, 4.2))
    colours = palette(sizes.shape[1])
    axes.stackplot(tricks, sizes.T, step="post", colors=colours, alpha=0.85, linewidth=0,
                   labels=[f"seat {s}" for s in range(sizes.shape[1])])
    deck, seats = facts["deck"], sizes.shape[1]
    axes.axhline(deck / seats, color="black", linestyle="--", linewidth=0.8, label="even split")
    below = np.cumsum(sizes, axis=1) - sizes  # the bottom edge of each seat's band
    for seat, (low, trick) in facts["fewest"].items():
        top = below[trick, seat] + low
        axes.annotate(f"seat {seat} down to {low} card{'s' * (low != 1)}\n(after trick {trick:,})",
                      xy=(trick, top if seat == 0 else below[trick, seat]), xytext=(0, 22 if seat == 0 else -22),
                      textcoords="offset points", ha="center", va="bottom" if seat == 0 else "top", fontsize=8,
                      arrowprops=dict(arrowstyle="->", color="black", linewidth=0.8),
                      bbox=dict(boxstyle="round,pad=0.2", fc="white", ec="none", alpha=0.85))
    axes.set_xlim(0, tricks[-1])
    axes.set_ylim(0, deck)
    axes.set_xlabel("tricks played")
    axes.set_ylabel(f"cards in hand (stacked; together {deck})")
    top = axes.secondary_xaxis("top", functions=(lambda t: np.interp(t, tricks, cards),
                                                 lambda c: np.interp(c, cards, tricks)))
    step = 10 ** max(int(np.log10(max(cards[-1], 1))), 0)  # whole thousands for a game of thousands of cards
    top.set_xticks(np.arange(0, cards[-1] + 1, step if cards[-1] >= 4 * step else step // 2 or 1))
    top.set_xlabel("cards played")
    lead_seat, lead_len, lead_from = facts["longest_lead"]
    winner = "no winner" if facts["winner"] is None else f"seat {facts['winner']} wins"
    said = (f"{facts['cards']:,} cards, {facts['tricks']:,} tricks; {winner}\n"
            f"the larger hand changed sides {facts['leader_changes']} times;\n"
            f"longest lead: seat {lead_seat}, {lead_len} tricks\n(from trick {lead_from:,})")
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False, title=said, title_fontsize=8,
                alignment="left", fontsize=8)
    return fig


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
