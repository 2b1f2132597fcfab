"""Loops as cycles: the trick-boundary states a looping deal repeats forever, in a canonical form.

A deal loops when a trick-boundary state (who leads, who is still in, every hand in order: the
state of `reference.trick_states`) comes back (docs/RULES.md §5). From then on play repeats a cycle
of ``period`` states. `cycle_states` lists them by playing the deal with the reference engine;
`canonical_cycle` writes the cycle from its smallest state (Python's tuple order), so that every deal
falling into the same cycle, whichever state it enters by, gets the same form; seats keep their
numbers (a cycle and its mirror image with the seats exchanged are two cycles, unless they are one,
`half_swap`).
"""

from __future__ import annotations

from .reference import trick_states

__all__ = ["cycle_states", "canonical_cycle", "half_swap", "mirror_state", "state_text"]


def cycle_states(deal, rules, start_tricks: int, period: int) -> list[tuple]:
    """The ``period`` trick-boundary states of the cycle a deal enters after ``start_tricks`` tricks
    (a census's ``loop_start_tricks`` and ``loop_tricks``); checked to close on itself."""
    states, over = trick_states(deal, rules, start_tricks, period)
    if over or states[-1] != states[0]:
        raise ValueError(f"The deal does not repeat its state of trick {start_tricks} after {period} more tricks.")
    return states[:-1]


def canonical_cycle(states) -> tuple:
    """The cycle's states rotated to start at the smallest one (ties: the smallest rotation)."""
    states = tuple(states)
    return min(states[k:] + states[:k] for k in range(len(states)))


def mirror_state(state):
    """A two-seat state with the seats exchanged (leader, who is in, hands)."""
    leader, in_game, hands = state
    return (1 - leader, in_game[::-1], hands[::-1])


def half_swap(states) -> bool:
    """Two players: half a period after each state comes the same state with the seats exchanged
    (leader and hands), so the cycle is its own mirror image. False for an odd period or more seats."""
    states = tuple(states)
    k = len(states)
    if k % 2 or len(states[0][1]) != 2:
        return False
    return all(states[(i + k // 2) % k] == mirror_state(states[i]) for i in range(k))


def state_text(state) -> str:
    """A state as ``L<leader> <hands joined by '/'>`` (seats out of the game shown as empty hands)."""
    from ..game.cards import format_deal

    return f"L{state[0]} {format_deal(state[2])}"
