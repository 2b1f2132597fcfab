"""The rules of docs/RULES.md as the kernels apply them: each rule once, named for the rule.

Every kernel - the exact driver on ring buffers or bit-planes, the two fast passes - asks this
module what the rules say and only moves cards itself. The readable statement of the same rules is
`engine/reference.py`; docs/DESIGN.md has the table from each rule to its two places, and
tests/engine/test_conformance.py plays one hand-traced deal per rule through every kernel.

The functions are tiny and inlined: calling them costs nothing in the compiled kernels.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .constants import END_EMPTY, END_TRICK, JOKER, LEADER_NEXT
from .kernel_ops import cttz

__all__ = ["demand", "owed_to_beggar", "next_demand_at", "lapses", "out_at_trick_end", "sole_holder_wins",
           "next_in_game", "next_leader", "cut_off", "most_cards_winner"]


# -- tribute (RULES.md section 3) ----------------------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def demand(card, beggar_owed):
    """How many cards a card just played demands from the next player: its tribute (a number card
    0, J 1, Q 2, K 3, A 4, joker 5) - and nothing while a Beggar joker is being paid, whose payment
    counts as plain cards whatever they are."""
    return 0 if beggar_owed else card


@njit(nogil=True, cache=True, inline="always")
def owed_to_beggar(card, beggar_mode):
    """True if the tribute ``card`` just demanded is owed to a Beggar joker (joker_mode 'beggar')."""
    return beggar_mode and card == JOKER


@njit(nogil=True, cache=True, inline="always")
def next_demand_at(p0, p1, p2, beggar_owed):
    """`demand` on a hand held as bit-planes: how many cards from the top its first card that
    demands a tribute lies (64: none in the hand, or a Beggar joker is being paid)."""
    return np.int64(64) if beggar_owed else np.int64(cttz(p0 | p1 | p2))


@njit(nogil=True, cache=True, inline="always")
def lapses(passes_on):
    """A payer who must pay and has no card left is out. With exhausted_tribute 'claimant' the rest
    of the tribute lapses and the claimant takes the pile (True); with 'passes_on' the next player
    owes the rest (False)."""
    return not passes_on


# -- players going out and the end of the game (RULES.md section 4) -------------------------------
@njit(nogil=True, cache=True, inline="always")
def out_at_trick_end(end):
    """end 'trick': when a pile is taken, every player left with no card is out (together).
    Under every end convention a player who must play and cannot is out at once."""
    return end == END_TRICK


@njit(nogil=True, cache=True, inline="always")
def sole_holder_wins(end):
    """end 'empty': the moment only one player holds cards, the others still in are out."""
    return end == END_EMPTY


# -- the order of play and the lead (RULES.md sections 2 and 3) -----------------------------------
@njit(nogil=True, cache=True, _nrt=False)
def next_in_game(in_game, seat, step):
    """The next seat still in the game after ``seat``: ``step`` 1 clockwise ('cw'), n - 1
    counter-clockwise ('ccw'). -1 if nobody is."""
    n = in_game.shape[0]
    s = seat
    for _ in range(n):
        s += step
        if s >= n:
            s -= n
        if in_game[s]:
            return s
    return -1


@njit(nogil=True, cache=True, inline="always")
def next_leader(leader_rule, taker, after_last_payer):
    """Who leads after a pile is taken: its taker (leader 'taker'), or the player still in after
    the one who paid the trick's last card or ran out paying it (leader 'next'; the same as
    'taker' with two players)."""
    return after_last_payer if leader_rule == LEADER_NEXT else taker


# -- cut-off and unfinished games (RULES.md section 5) --------------------------------------------
@njit(nogil=True, cache=True, inline="always")
def cut_off(cards, limit):
    """max_cards: the game stops once ``limit`` cards have been played (checked after every card
    and its consequences)."""
    return cards >= limit


@njit(nogil=True, cache=True, _nrt=False)
def most_cards_winner(sizes):
    """unfinished 'most_cards': the one player holding the most cards wins a loop or cut-off game;
    -1 on a tie for the most."""
    best = -1
    count = 0
    winner = -1
    for s in range(sizes.shape[0]):
        v = sizes[s]
        if v > best:
            best = v
            count = 1
            winner = s
        elif v == best:
            count += 1
    return winner if count == 1 else -1
