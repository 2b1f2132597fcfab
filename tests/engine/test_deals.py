"""The random deal: the branch-free bit-plane deal of the batch kernels (`hands_bits.deal_planes`)
deals exactly the hands of `deals.deal_into` and leaves the stream where it does, and the shuffle
with its state in registers (`rng.shuffle_words`) is the Fisher-Yates of docs/RULES.md draw for draw."""

from __future__ import annotations

import numpy as np
import pytest

from beggarstats import Deck, Rules
from beggarstats.engine.deals import deal_into
from beggarstats.engine.hands_bits import card_at, deal_planes
from beggarstats.engine.rng import bounded32, next_u64, shuffle_inplace, stream_state

TABLES = [Rules(), Rules(players=3), Rules(players=4), Rules(players=5), Rules(players=6),
          Rules(jokers=1), Rules(players=3, jokers=2), Rules(deck="italian"), Rules(players=4, deck="italian"),
          Rules(deck=Deck.from_counts((1, 1, 0, 0, 0))), Rules(deck=Deck.from_counts((3, 2, 1, 0, 0))),
          Rules(players=5, deck=Deck.from_counts((44, 5, 5, 5, 5))),  # 64 cards: every bit of a plane
          Rules(players=3, deck=Deck.from_counts((42, 5, 5, 5, 5)), jokers=2)]  # 64 with the jokers slipped in


def fisher_yates(state, a):
    """The deal's shuffle as docs/RULES.md states it, one step at a time on a state array: from the
    top position i down, swap i with a uniform position in [0, i], two positions per 64-bit output
    (low half first)."""
    i = len(a) - 1
    while i > 0:
        r = int(next_u64(state))
        for half in (r & 0xFFFFFFFF, r >> 32):
            if i == 0:
                break
            j, *words = bounded32(np.uint64(half), i + 1, *state)
            state[:] = words
            a[i], a[j] = a[j], a[i]
            i -= 1


@pytest.mark.parametrize("n", [0, 1, 2, 3, 52, 53])
def test_the_shuffle_draws_as_the_rules_say(n):
    for game in range(40):
        a = np.arange(n, dtype=np.int8)
        b = a.copy()
        state, ref = stream_state(9, game), stream_state(9, game)
        shuffle_inplace(state, a, n)
        fisher_yates(ref, b)
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(state, ref)


@pytest.mark.parametrize("rules", TABLES, ids=lambda r: f"{r.players}p-{r.deck_cards().size}")
def test_bit_plane_deal_is_the_deal(rules):
    deck = rules.deck_cards()
    N, n = deck.size, rules.players
    games = 300
    init_out = np.full((games, 7, n), -7, dtype=np.int64)
    shuffled = np.zeros(N, dtype=np.int8)
    d0, d1, d2 = (np.full(n, 99, dtype=np.uint64) for _ in range(3))
    dl = np.zeros(n, dtype=np.int64)
    state = np.zeros(4, dtype=np.uint64)
    hands = np.zeros((n, -(-N // n)), dtype=np.int8)
    lens = np.zeros(n, dtype=np.int64)
    for i in range(games):
        game = 1000 + 7919 * i
        deal_planes(deck, n, np.uint64(41), game, state, shuffled, d0, d1, d2, dl, init_out, i, True)
        ref = stream_state(41, game)
        deal_into(ref, deck, n, hands, lens)
        np.testing.assert_array_equal(state, ref)  # the stream goes on from the same place
        np.testing.assert_array_equal(dl, lens)
        for s in range(n):
            hand = hands[s, :lens[s]]
            got = [int(card_at(d0[s], d1[s], d2[s], k)) for k in range(lens[s])]
            assert got == hand.tolist(), (game, s)
            assert int(d0[s] | d1[s] | d2[s]) >> int(lens[s]) == 0  # nothing beyond the hand
            counts = [lens[s]] + [int((hand == k).sum()) for k in range(1, 6)] + [int(hand.sum())]
            assert init_out[i, :, s].tolist() == counts, (game, s)


# -- jokers: the deal without them, the jokers slipped in (docs/RULES.md section 7, RULES_VERSION 3) --------
def _order(rules, seed, game):
    """The shuffled deck of game ``game`` (card i is seat i mod n's card i // n) and the stream after it."""
    deck = rules.deck_cards()
    n = rules.players
    hands = np.zeros((n, -(-deck.size // n)), dtype=np.int8)
    lens = np.zeros(n, dtype=np.int64)
    state = stream_state(seed, game)
    deal_into(state, deck, n, hands, lens)
    return [int(hands[i % n, i // n]) for i in range(deck.size)], state


@pytest.mark.parametrize("rules", [Rules(jokers=1), Rules(jokers=2), Rules(players=4, jokers=2),
                                   Rules(deck="italian", jokers=1)], ids=lambda r: r.name)
def test_a_joker_deal_is_the_deal_without_jokers_with_the_jokers_slipped_in(rules):
    """The pairing: the cards other than jokers of joker game g are, in order, standard game g."""
    plain = Rules(players=rules.players, deck=rules.deck)
    for game in range(200):
        with_jokers, _ = _order(rules, 77, game)
        without, _ = _order(plain, 77, game)
        assert [c for c in with_jokers if c != 5] == without, game
        assert with_jokers.count(5) == rules.jokers


def test_joker_positions_are_uniform():
    """Chi-square goodness of fit of the two jokers' positions in the 54-card deal: each of the 54
    positions holds a joker with probability 2/54."""
    from scipy import stats

    rules = Rules(jokers=2)
    games = 20_000
    counts = np.zeros(54)
    for game in range(games):
        order, _ = _order(rules, 5, game)
        counts[[i for i, c in enumerate(order) if c == 5]] += 1
    assert stats.chisquare(counts).pvalue > 1e-3


@pytest.mark.parametrize("jokers", [1, 2])
def test_a_small_decks_joker_deals_are_uniform_over_its_sequences(jokers):
    """Every distinct sequence of a 5- or 6-card deck with jokers is equally likely (chi-square over
    all of them: 20 and 60 sequences)."""
    from scipy import stats

    rules = Rules(deck=Deck.from_counts((2, 1, 1, 0, 0)), jokers=jokers)
    seen = {}
    games = 30_000
    for game in range(games):
        order, _ = _order(rules, 11, game)
        seen[tuple(order)] = seen.get(tuple(order), 0) + 1
    import math
    n = 4 + jokers
    assert len(seen) == math.factorial(n) // (2 * math.factorial(jokers))
    assert stats.chisquare(list(seen.values())).pvalue > 1e-3
