"""Deals as numbers: a bijection between the distinct deals of a deck and 0 .. N-1 (docs/RULES.md §2).

Only the kinds of the cards matter, so a deal of a deck with ``c_k`` cards of kind ``k`` (0 number,
1 J, 2 Q, 3 K, 4 A, 5 joker) is a sequence of kinds: seat 0's hand top card first, then seat 1's,
..., each seat holding the cards the round deal gives it (``n // p`` cards, one more for the first
``n % p`` seats). There are ``N = n! / (c_0! ... c_5!)`` such sequences (`n_deals`), and a deal's
rank is its place among them in lexicographic order of kinds: rank 0 is every number card first,
rank N-1 every number card last. Every random deal of `deals.random_deal` is one of these, each
equally likely, so a census of all N deals is the exact distribution of random play.

`census_kernel.next_sequence` steps a sequence to the next rank in place (the classic
next-permutation step on a multiset): a census walks a range of ranks with it, unranking only the
range's first deal.
"""

from __future__ import annotations

from math import factorial
from typing import TYPE_CHECKING

import numpy as np

from ..game.rules import Rules, check_rules, require_rules

if TYPE_CHECKING:
    from ..game.hints import Deal, DealLike, RulesLike

__all__ = ["n_deals", "hand_sizes", "deal_rank", "deal_at", "sequence_at", "unrank_into"]


def _counts(rules) -> tuple[int, ...]:
    return tuple(int(c) for c in rules.counts)


def n_deals(rules: RulesLike = None) -> int:
    """The number of distinct deals of ``rules.deck`` (jokers included): the multinomial
    ``n! / (c_0! ... c_5!)``, an exact Python int. ``rules`` None: the standard table."""
    counts = _counts(check_rules(rules))
    out = factorial(sum(counts))
    for c in counts:
        out //= factorial(c)
    return out


def hand_sizes(rules: Rules) -> tuple[int, ...]:
    """Cards each seat is dealt: ``n // p``, one more for the first ``n % p`` seats."""
    n, p = rules.n_cards, rules.players
    return tuple(n // p + (1 if s < n % p else 0) for s in range(p))


def _multinomial(left) -> int:
    out = factorial(sum(left))
    for c in left:
        out //= factorial(c)
    return out


def deal_rank(deal: DealLike, rules: RulesLike = None) -> int:
    """The rank (0 .. `n_deals` - 1) of a deal of ``rules.deck`` for ``rules.players``.

    Parameters
    ----------
    deal : str or sequence of hands
        A deal as `beggarstats.parse_deal` reads it, or a tuple of hands of tributes (top first).
    rules : Rules, optional
        Default ``Rules()``.

    Raises
    ------
    ValueError
        A deal with the wrong number of hands, a hand of the wrong size (naming the seat), or cards
        that are not exactly the deck's (naming the hand and position of the first card too many).
    """
    rules = check_rules(rules)
    if isinstance(deal, str):
        from ..game.cards import parse_deal

        deal = parse_deal(deal)
    if not isinstance(deal, (tuple, list)) or not all(isinstance(h, (tuple, list, np.ndarray)) for h in deal):
        raise ValueError(f"The value for `deal` must be a deal as text or a sequence of hands (sequences of "
                         f"tributes 0-5), but {deal!r:.80} was passed.")
    sizes = hand_sizes(rules)
    if len(deal) != rules.players:
        raise ValueError(f"The value for `deal`: the deal has {len(deal)} hands but the rules are for {rules.players} players.")
    for seat, (hand, size) in enumerate(zip(deal, sizes)):
        if len(hand) != size:
            raise ValueError(f"The value for `deal`: hand {seat} holds {len(hand)} cards, but the round deal of {rules.n_cards} cards "
                             f"to {rules.players} players gives seat {seat} {size}.")
    left = list(_counts(rules))
    total = _multinomial(left)
    rank = 0
    position = 0
    for seat, hand in enumerate(deal):
        for pos, card in enumerate(hand, start=1):
            if not isinstance(card, (int, np.integer)) or isinstance(card, (bool, np.bool_)):
                raise ValueError(f"Hand {seat}, position {pos}: a card of `deal` must be a tribute 0-5 as a whole "
                                 f"number, but {card!r} was passed.")
            card = int(card)
            if not 0 <= card < 6 or left[card] == 0:
                raise ValueError(f"Hand {seat}, position {pos}: the deck has no card of kind {card} left "
                                 f"(its counts by kind are {list(_counts(rules))}).")
            remaining = rules.n_cards - position  # cards still to place, this one included
            for k in range(card):  # every sequence with a smaller kind here comes first
                if left[k]:
                    rank += total * left[k] // remaining
            total = total * left[card] // remaining
            left[card] -= 1
            position += 1
    return rank


def sequence_at(rank: int | np.integer, rules: Rules | dict) -> np.ndarray:
    """The deal of rank ``rank`` as one int8 sequence of kinds (seat 0's hand first)."""
    rules = require_rules(rules)
    n = n_deals(rules)
    if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or not 0 <= int(rank) < n:
        raise ValueError(f"The value for `rank` must be a whole number from 0 to {n - 1:,} (the deals of the "
                         f"{rules.deck.label()} deck for {rules.players} players), but {rank!r} was passed.")
    out = np.zeros(rules.n_cards, np.int8)
    unrank_into(int(rank), n, list(_counts(rules)), out)
    return out


def unrank_into(rank, total, left, out) -> None:
    """Write the deal of rank ``rank`` into ``out`` (int8[n_cards]) without allocating: ``total``
    the number of deals (`n_deals`), ``left`` the counts by kind (used up). Plain Python (exact
    ints) for `sequence_at`; the GPU census (`engine.gpu_census`) compiles it with numba, in 64-bit
    arithmetic, so every thread unranks its first deal from the same source."""
    n = out.shape[0]
    for position in range(n):
        remaining = n - position
        for k in range(6):
            if left[k] == 0:
                continue
            block = total * left[k] // remaining  # sequences with kind k here
            if rank < block:
                out[position] = k
                total = block
                left[k] -= 1
                break
            rank -= block


def deal_at(rank: int | np.integer, rules: RulesLike = None) -> Deal:
    """The deal of rank ``rank``: a tuple of hands (seat 0 first, top card first), the inverse of
    `deal_rank` (``rules`` None: the standard table)."""
    rules = check_rules(rules)
    seq = sequence_at(rank, rules)
    hands, at = [], 0
    for size in hand_sizes(rules):
        hands.append(tuple(int(c) for c in seq[at:at + size]))
        at += size
    return tuple(hands)

