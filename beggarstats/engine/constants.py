"""Every number the kernels share: the cards, the rule codes, the outcome codes, the parameter array.

The kernels take no Python objects, so a `Rules` reaches them as the int64 array of `pack_params`
and every choice as a small integer named here. Nothing else in the engine writes these numbers.
"""

from __future__ import annotations

import numpy as np

from ..game.cards import ACE, JACK, JOKER, KING, NUMBER, QUEEN

__all__ = [
    "NUMBER", "JACK", "QUEEN", "KING", "ACE", "JOKER", "WIN", "LOOP", "CUTOFF", "OUTCOME_CODES",
    "DONE", "FALLBACK", "C_PAID", "C_WIN", "C_CUT", "C_LAPSED", "END_TRICK", "END_EMPTY",
    "LEADER_NEXT", "NO_LIMIT", "PARAMS", "pack_params",
    "R_CARDS", "R_TRICKS", "R_LOOP_START_TRICKS", "R_LOOP_START_CARDS", "R_LOOP_TRICKS", "R_LOOP_CARDS", "U32_ROWS",
    "R_OUTCOME", "R_WINNER", "R_LOOPED", "SMALL_ROWS", "SEAT_MIN", "SEAT_PLACE", "SEAT_OUT", "SEAT_ROWS",
    "INIT_HELD", "INIT_JACKS", "INIT_QUEENS", "INIT_KINGS", "INIT_ACES", "INIT_JOKERS", "INIT_TRIBUTE",
    "INIT_ROWS",
    "GOING", "TWO_LEFT",
]

# -- cards: a card is stored as the tribute it demands (game/cards.py): NUMBER 0 .. JOKER 5 ------

# -- how a game ended (the ``outcome`` row of the result arrays) ---------------------------------
WIN, LOOP, CUTOFF = 0, 1, 2
OUTCOME_CODES = ("win", "loop", "cutoff")

# -- a fast pass's answer: the game is decided, or it goes to the exact driver; a trick step's
#    answer may also be that the game goes on, or (3+ players) goes on as a two-player game
#    (`kernel_two.trick_two`, `kernel_multi.trick_multi`) ------------------------------------------
DONE, FALLBACK, GOING, TWO_LEFT = 0, 1, 2, 3

# -- how a trick stopped (exact driver): tribute paid, game won, cut-off reached, tribute lapsed --
C_PAID, C_WIN, C_CUT, C_LAPSED = 0, 1, 2, 3

# -- the rows of the result arrays the kernels write (engine.fast.empty_raw) ----------------------
# uint32[U32_ROWS, n]: the counts of each game
R_CARDS, R_TRICKS, R_LOOP_START_TRICKS, R_LOOP_START_CARDS, R_LOOP_TRICKS, R_LOOP_CARDS = range(6)
U32_ROWS = 6
# int8[SMALL_ROWS, n]: the outcome code, the winner (-1 none), a state repeated (0/1)
R_OUTCOME, R_WINNER, R_LOOPED = range(3)
SMALL_ROWS = 3
# int64[n, SEAT_ROWS, players]: each seat's fewest cards at a trick boundary, place, cards played when out
SEAT_MIN, SEAT_PLACE, SEAT_OUT = range(3)
SEAT_ROWS = 3
# int64[n, INIT_ROWS, players], the initial hands: the cards dealt, the jacks ... jokers (each row the
# card's own code), the sum of the hand's tributes
INIT_HELD, INIT_TRIBUTE = 0, 6
INIT_JACKS, INIT_QUEENS, INIT_KINGS, INIT_ACES, INIT_JOKERS = JACK, QUEEN, KING, ACE, JOKER
INIT_ROWS = 7

# -- the choices of `Rules`, as codes ------------------------------------------------------------
END_TRICK, END_EMPTY = 0, 1                         # Rules.end: 'trick', 'empty' ('unable' is 2)
LEADER_NEXT = 1                                     # Rules.leader: 'next' ('taker' is 0)
NO_LIMIT = np.int64(2**62)                          # "no cut-off" as a card count

# -- the parameter array: one slot per option ----------------------------------------------------
(P_END, P_PASSES_ON, P_STEP, P_BEGGAR, P_SHUFFLE_PILE, P_SHUFFLE_ON_LOOP, P_MAX_CARDS, P_MOST,
 P_LEADER) = range(9)
PARAMS = 9


def pack_params(rules) -> np.ndarray:
    """The rules as the int64 parameter array the kernels read (slots ``P_*``)."""
    p = np.zeros(PARAMS, dtype=np.int64)
    p[P_END] = ("trick", "empty", "unable").index(rules.end)
    p[P_PASSES_ON] = rules.exhausted_tribute == "passes_on"
    p[P_STEP] = 1 if rules.direction == "cw" else rules.players - 1
    p[P_BEGGAR] = rules.joker_mode == "beggar"
    p[P_SHUFFLE_PILE] = bool(rules.shuffle_pile)
    p[P_SHUFFLE_ON_LOOP] = bool(rules.shuffle_on_loop)
    p[P_MAX_CARDS] = -1 if rules.max_cards is None else int(rules.max_cards)
    p[P_MOST] = rules.unfinished == "most_cards"
    p[P_LEADER] = ("taker", "next").index(rules.leader)
    return p
