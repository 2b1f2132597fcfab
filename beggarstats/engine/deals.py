"""Random deals: a uniform shuffle of the deck dealt one card at a time, seat 0 first (docs/RULES.md §2)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from ..game.checks import check_seed, whole
from ..game.rules import check_rules
from .kernel_cache import install as _install_kernel_cache
from .rng import GameStream, deal_inplace, stream_state

if TYPE_CHECKING:
    from ..game.hints import Deal, RulesLike

__all__ = ["deal_into", "random_deal"]


_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@njit(cache=True)
def deal_into(state, deck, n_players, hands, lens):
    """Shuffle a copy of ``deck`` on ``state`` (`rng.deal_words`: the cards other than jokers as
    the deck without them, the jokers then inserted at uniform gaps) and deal it round: card i to
    seat i mod n.

    ``hands`` is int8[n_players, >= ceil(len(deck)/n)], ``lens`` int64[n_players]; the k-th card a
    seat receives is its k-th card from the top.
    """
    n = deck.shape[0]
    shuffled = deck.copy()
    deal_inplace(state, shuffled, n)  # jokers slipped into the deal without them (rng.deal_words)
    seat = 0
    pos = 0
    for i in range(n):  # card i to seat i mod n at position i // n, without a division per card
        hands[seat, pos] = shuffled[i]
        seat += 1
        if seat == n_players:
            seat = 0
            pos += 1
    for s in range(n_players):
        lens[s] = n // n_players + (1 if s < n % n_players else 0)


def random_deal(seed: int, game: int, rules: RulesLike = None) -> tuple[Deal, GameStream]:
    """The deal of game ``game`` of the table seeded ``seed``, and its stream positioned after it.

    ``seed`` is a whole number 0 .. 2**64 - 1, ``game`` a game id 0 .. 2**63 - 1 (never text: '5' is
    refused, not read as 5), ``rules`` a Rules (None: the standard table)."""
    seed = check_seed(seed, none=False)
    game = whole("game", game, 0, 2**63 - 1)
    rules = check_rules(rules)
    deck = rules.deck_cards()
    state = stream_state(seed, game)
    width = -(-len(deck) // rules.players)
    hands = np.zeros((rules.players, width), dtype=np.int8)
    lens = np.zeros(rules.players, dtype=np.int64)
    deal_into(state, deck, rules.players, hands, lens)
    deal = tuple(tuple(int(c) for c in hands[s, : lens[s]]) for s in range(rules.players))
    return deal, GameStream(seed, game, state)
