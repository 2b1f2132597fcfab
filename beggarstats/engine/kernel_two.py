"""The two-player fast path: the whole game in registers.

Two players, at most 64 cards, every end convention, Super or Beggar jokers, shuffle_pile: the
common case of every table, and the one the throughput target is about. The state is eight
machine words - three bit-planes and a length per hand, the leader's hand first - so a trick costs
a handful of count-trailing-zeros, shifts and ORs, and Brent's loop check compares eight words.

The fast path plays a game only as far as it can prove the result: a win before any cut-off with
no repeated trick-boundary state. Anything else (a loop found, the card limit reached) is handed
back with status `FALLBACK`, and the caller replays the game with the exact driver (`exact.py`,
same deal, same stream), so the figures never depend on which path ran. The rules are asked of
`rulebook.py`; every card move (turning a card onto the pile, paying, the plain-run split, laying the
pile under a hand, comparing hands) is the exact driver's own, from `hands_bits.py`, called on the
registers.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .kernel_cache import install as _install_kernel_cache
from .brent import snapshot_due, widen
from .constants import DONE, FALLBACK, GOING
from .hands_bits import (counts_differ, drop, lay_at, lay_top, pay, pile_as_taken, plain_run, planes_differ, run_share,
                         under)
from .rulebook import cut_off, next_demand_at, out_at_trick_end, owed_to_beggar, sole_holder_wins

__all__ = ["play_two", "start_two", "trick_two", "TwoResult", "TwoGame"]

# What `play_two` returns: DONE (won, the figures are final) or FALLBACK (replay with the exact
# driver); the cards and tricks played, the winner, each seat's fewest cards at a trick boundary,
# and the cards played when the loser went out.
TwoResult = namedtuple("TwoResult", "status cards tricks winner min0 min1 out_cards")
# A two-player game between tricks (`start_two`, `trick_two`): the leader's hand (three planes, length),
# the other's, the leader's seat, the cards and tricks played, each seat's fewest cards at a trick
# boundary; Brent's tortoise (the leader's hand and length, the other hand, the leader's seat) and its
# schedule (`brent.py`). Twenty-three machine words: in registers on the CPU and on the GPU.
TwoGame = namedtuple("TwoGame", "lead0 lead1 lead2 n_lead other0 other1 other2 n_other lead_seat cards tricks min0 "
                                "min1 tort0 tort1 tort2 tort_n tort_other0 tort_other1 tort_other2 tort_leader power "
                                "lam")

_ZERO = np.uint64(0)


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(nogil=True, cache=True, inline="always")
def _won(winner, L, cards, tricks, m0, m1):
    """``winner`` takes the pile (a trick if it holds any card); the loser holds nothing."""
    if L > 0:
        tricks += 1
        if winner == 0:
            m1 = 0
        else:
            m0 = 0
    return TwoResult(DONE, cards, tricks, winner, m0, m1, cards)


@njit(nogil=True, cache=True, inline="always")
def _give_up(cards, tricks, m0, m1):
    return TwoResult(FALLBACK, cards, tricks, -1, m0, m1, 0)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def start_two(a, b):
    """The state (`TwoGame`) of a two-player game from the hands ``a`` (seat 0, leading) and ``b``
    (seat 1), each (plane 0, plane 1, plane 2, length), before its first trick, with its `TwoResult`:
    GOING, or FALLBACK for an empty hand at the deal (the exact driver plays it)."""
    lead0, lead1, lead2, n_lead = a
    other0, other1, other2, n_other = b
    g = TwoGame(lead0, lead1, lead2, n_lead, other0, other1, other2, n_other, 0, 0, 0, n_lead, n_other,
                # Brent: the tortoise state (the leader's hand and length, the other hand, the leader's seat)
                lead0, lead1, lead2, n_lead, other0, other1, other2, 0, 1, 1)
    if n_lead == 0 or n_other == 0:
        return _give_up(0, 0, n_lead, n_other), g
    return TwoResult(GOING, 0, 0, -1, n_lead, n_other, 0), g


@njit(nogil=True, cache=True, _nrt=False)
def play_two(a, b, o, stream):
    """Play a two-player game from the hands ``a`` (seat 0, leading) and ``b`` (seat 1), each a
    tuple (plane 0, plane 1, plane 2, length), with the options ``o`` (`options.Options`, the record
    every fast pass takes): `start_two`, then `trick_two` until the game is decided or handed back.

    A record of constants (`options.folded`) compiles a version of its own with the constants folded
    in (`passes.VERSIONS`); from `options.options_of` they are variables.

    Options read
    ------------
    end : int
        The end convention (its code in constants.py). With two players 'empty' means: the
        moment a player plays their last card, the other wins (unless that card completes a
        tribute, when the other takes the pile first - the same winner and counts).
    beggar : bool
        Jokers are Beggar jokers.
    detect : bool
        Run Brent's loop check (deterministic play); a loop found returns FALLBACK.
    shuffle : bool
        shuffle_pile: every pile taken is shuffled on ``stream`` first.
    limit : int
        The cut-off as a card count, NO_LIMIT for none; reaching it returns FALLBACK (a negative one
        at the first test).

    (exhausted_tribute, direction and leader make no difference with two players.)

    Returns
    -------
    TwoResult
    """
    # the state carried in scalars, not in the tuple: numba gives each scalar a slot of its own, in this
    # order, and LLVM then allocates the loop's registers as it did for 6daff1f's inline loop (issue #53 item 8)
    res, g = start_two(a, b)
    (lead0, lead1, lead2, n_lead, other0, other1, other2, n_other, lead_seat, cards, tricks, min0, min1, tort0, tort1,
     tort2, tort_n, tort_other0, tort_other1, tort_other2, tort_leader, power, lam) = g
    while res.status == GOING:
        res, g = trick_two(TwoGame(lead0, lead1, lead2, n_lead, other0, other1, other2, n_other, lead_seat, cards,
                                   tricks, min0, min1, tort0, tort1, tort2, tort_n, tort_other0, tort_other1,
                                   tort_other2, tort_leader, power, lam), o, stream)
        (lead0, lead1, lead2, n_lead, other0, other1, other2, n_other, lead_seat, cards, tricks, min0, min1, tort0,
         tort1, tort2, tort_n, tort_other0, tort_other1, tort_other2, tort_leader, power, lam) = g
    return res


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def trick_two(g, o, stream):
    """One trick of a two-player game in the state ``g`` (`TwoGame`), with the options ``o``: from the
    lead to the pile taken, then the end and the loop check of the trick boundary. Returns (`TwoResult`,
    the state after the trick): status GOING while the game goes on (the other figures not yet
    final), DONE (won: final) or FALLBACK (replay with the exact driver). The step every caller
    shares: `play_two` loops over it, the GPU's refill kernels call it once a loop step."""
    end, beggar_mode, detect, shuffle = o.end, o.beggar, o.detect, o.shuffle
    # Fail-safe: a negative cut-off (no record has one: `options.options_of` gives NO_LIMIT for none, and
    # `kernel_multi._two_left` hands on what is left of a cut-off not yet reached) stops the game at its
    # first test, handed back, never "no cut-off": a wrong caller cannot make a game play for ever.
    # Clamping also tells LLVM that the cut-off is not negative, which folds the cut-off tests of the
    # multi-player pass's two-left finish as efde310 did: without it they took 2.1% more instructions
    # (issue #41)
    limit = o.limit if o.limit >= 0 else 0
    empty = sole_holder_wins(end)
    out_at_end = out_at_trick_end(end)
    (lead0, lead1, lead2, n_lead, other0, other1, other2, n_other, lead_seat, cards, tricks, min0, min1,
     tort0, tort1, tort2, tort_n, tort_other0, tort_other1, tort_other2, tort_leader, power, lam) = g
    # -- plain play: the leader's k-th card is play 2k, the other's play 2k+1; an event is a
    #    penalty card, a run-out, or (end `empty`) a hand's last card --
    run_lead = plain_run(lead0, lead1, lead2, n_lead, empty, False)
    run_other = plain_run(other0, other1, other2, n_other, empty, False)
    # the leader's event first (play 2 * run_lead before 2 * run_other + 1)? selects below, as
    # the outcome is a coin flip; the event is card `run` of offset `first`
    lead_first = run_lead <= run_other
    run = run_lead if lead_first else run_other
    first = 0 if lead_first else 1
    played_lead = run_share(run, 0, first)
    played_other = run_share(run, 1, first)
    lead0, lead1, lead2 = drop(lead0, lead1, lead2, played_lead)
    n_lead -= played_lead
    other0, other1, other2 = drop(other0, other1, other2, played_other)
    n_other -= played_other
    n_pile = played_lead + played_other
    cards += n_pile
    # the claimant: the player whose event came first (claim*, n_claim); the payer (pay*, n_pay)
    claim0 = lead0 if lead_first else other0
    claim1 = lead1 if lead_first else other1
    claim2 = lead2 if lead_first else other2
    n_claim = n_lead if lead_first else n_other
    pay0 = other0 if lead_first else lead0
    pay1 = other1 if lead_first else lead1
    pay2 = other2 if lead_first else lead2
    n_pay = n_other if lead_first else n_lead
    claimant = lead_seat if lead_first else 1 - lead_seat
    if n_claim == 0:
        # the claimant must play and cannot: out; the payer wins and takes the pile
        if cut_off(cards, limit):
            return _give_up(cards, tricks, min0, min1), g
        return _won(1 - claimant, n_pile, cards, tricks, min0, min1), g
    # the claimant turns its top card: a penalty card (or, end `empty`, its last card)
    card, claim0, claim1, claim2, pile0, pile1, pile2 = lay_top(claim0, claim1, claim2, _ZERO, _ZERO, _ZERO,
                                                                 n_pile)
    n_pile += 1
    cards += 1
    n_claim -= 1
    if cut_off(cards, limit):
        return _give_up(cards, tricks, min0, min1), g
    if empty and n_claim == 0:
        return _won(1 - claimant, n_pile, cards, tricks, min0, min1), g
    owed = np.int64(card)
    beggar_owed = owed_to_beggar(owed, beggar_mode)
    # -- tribute: the payer owes `owed` cards to the claimant --
    while True:
        penalty_at = next_demand_at(pay0, pay1, pay2, beggar_owed)
        if empty:
            # the payer's first event: a penalty card, its last card, or the card completing the tribute
            event = penalty_at
            if n_pay - 1 < event:
                event = n_pay - 1
            if owed - 1 < event:
                event = owed - 1
            if cut_off(cards + event + 1, limit):
                return _give_up(cards, tricks, min0, min1), g
            if event == penalty_at:
                k = penalty_at
            else:
                # the payer plays event + 1 cards; then the pile is taken, or it played its last card
                k = event + 1
                pay0, pay1, pay2, pile0, pile1, pile2 = pay(pay0, pay1, pay2, k, pile0, pile1, pile2, n_pile,
                                                            beggar_owed)
                n_pay -= k
                n_pile += k
                cards += k
                if n_pay == 0:
                    # the payer's last card (completing the tribute or not): the claimant wins, holding the pile
                    return _won(claimant, n_pile, cards, tricks, min0, min1), g
                owed = 0
        elif penalty_at < owed:
            k = penalty_at
        elif n_pay < owed:
            # the payer runs out: out; the claimant wins and takes the pile
            cards += n_pay
            if cut_off(cards, limit):
                return _give_up(cards, tricks, min0, min1), g
            return _won(claimant, n_pile + n_pay, cards, tricks, min0, min1), g
        else:
            k = -1
        if k >= 0 and owed > 0:
            # a penalty card turns up after k number cards: the obligation passes back
            if cut_off(cards + k + 1, limit):
                return _give_up(cards, tricks, min0, min1), g
            card, pay0, pay1, pay2, pile0, pile1, pile2 = lay_at(pay0, pay1, pay2, k, pile0, pile1, pile2, n_pile)
            n_pile += k + 1
            cards += k + 1
            n_pay -= k + 1
            if empty and n_pay == 0:
                return _won(claimant, n_pile, cards, tricks, min0, min1), g
            owed = np.int64(card)
            beggar_owed = owed_to_beggar(owed, beggar_mode)
            claim0, claim1, claim2, n_claim, pay0, pay1, pay2, n_pay = (pay0, pay1, pay2, n_pay,
                                                                        claim0, claim1, claim2, n_claim)
            claimant = 1 - claimant
            continue
        if owed > 0:
            # paid in full
            if cut_off(cards + owed, limit):
                return _give_up(cards, tricks, min0, min1), g
            pay0, pay1, pay2, pile0, pile1, pile2 = pay(pay0, pay1, pay2, owed, pile0, pile1, pile2, n_pile,
                                                        beggar_owed)
            cards += owed
            n_pile += owed
            n_pay -= owed
        # the claimant takes the pile
        pile0, pile1, pile2 = pile_as_taken(pile0, pile1, pile2, n_pile, shuffle, stream)
        claim0, claim1, claim2 = under(claim0, claim1, claim2, n_claim, pile0, pile1, pile2)
        n_claim += n_pile
        tricks += 1
        break
    # -- trick boundary: the claimant leads --
    lead0, lead1, lead2, n_lead = claim0, claim1, claim2, n_claim
    other0, other1, other2, n_other = pay0, pay1, pay2, n_pay
    lead_seat = claimant
    # selects, not branches: who took the pile is a coin flip for the branch predictor
    n_seat0 = n_lead if lead_seat == 0 else n_other
    n_seat1 = n_other if lead_seat == 0 else n_lead
    min0 = n_seat0 if n_seat0 < min0 else min0
    min1 = n_seat1 if n_seat1 < min1 else min1
    if n_other == 0 and out_at_end:
        # end `trick`: the other player's hand is empty, out; the taker wins
        return TwoResult(DONE, cards, tricks, lead_seat, min0, min1, cards), g
    if detect:
        # one well-predicted test instead of a chain of short-circuit branches
        # (the other's length follows from the leader's: every card is in the two hands)
        diff = (planes_differ(lead0, lead1, lead2, tort0, tort1, tort2)
                | planes_differ(other0, other1, other2, tort_other0, tort_other1, tort_other2)
                | counts_differ(lead_seat, tort_leader) | counts_differ(n_lead, tort_n))
        if diff == _ZERO:
            return _give_up(cards, tricks, min0, min1), g
        if snapshot_due(power, lam):
            tort0, tort1, tort2, tort_n = lead0, lead1, lead2, n_lead
            tort_other0, tort_other1, tort_other2, tort_leader = other0, other1, other2, lead_seat
            power, lam = widen(power)
        lam += 1
    return (TwoResult(GOING, cards, tricks, -1, min0, min1, 0),
            TwoGame(lead0, lead1, lead2, n_lead, other0, other1, other2, n_other, lead_seat, cards, tricks, min0,
                    min1, tort0, tort1, tort2, tort_n, tort_other0, tort_other1, tort_other2, tort_leader, power, lam))
