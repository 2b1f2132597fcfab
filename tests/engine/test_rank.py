"""Deals as numbers (engine/rank.py): a bijection onto 0..N-1 in lexicographic order of kinds."""

import itertools
from math import factorial

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.engine.census_kernel import step_sequence as next_sequence
from beggarstats.engine.rank import deal_at, deal_rank, hand_sizes, n_deals, sequence_at

# every composition of at most 7 cards over the six kinds that Rules accepts (jokers <= 2)
# every deck of 2 to 5 cards without jokers, and a few with jokers and of 6 to 7 cards
SMALL = sorted({(c, 0) for size in range(2, 6) for c in itertools.product(range(size + 1), repeat=5)
                if sum(c) == size}) + [((2, 1, 0, 1, 0), 1), ((1, 1, 1, 0, 0), 2), ((3, 1, 1, 1, 0), 0),
                                       ((4, 1, 1, 0, 1), 0)]


def _rules(counts, jokers, players):
    return bs.Rules(players=players, deck=bs.Deck.from_counts(counts), jokers=jokers)


def test_known_counts():
    assert n_deals(bs.Rules(deck=bs.Deck(14, 2, 2, 2, 0))) == 3_488_400
    assert n_deals(bs.Rules(deck=bs.Deck(18, 2, 2, 2, 2))) == 3_936_933_000
    assert n_deals(bs.Rules()) == factorial(52) // (factorial(36) * factorial(4) ** 4)
    assert hand_sizes(bs.Rules(players=3, deck=bs.Deck(5, 1, 1, 0, 0))) == (3, 2, 2)


@pytest.mark.slow  # every deal of every small deck and player count, walked one by one
@pytest.mark.parametrize("counts,jokers", SMALL)
def test_round_trip_every_small_deck_and_player_count(counts, jokers):
    _round_trip(counts, jokers)


def test_round_trip_a_sample_of_small_decks(sample_rng):
    """The quick tier's share of the test above: five decks drawn afresh each run (the seed is in the
    header; ``BEGGARSTATS_TEST_SEED`` repeats it), always with one of the decks of 6 or 7 cards."""
    picks = list(sample_rng.choice(len(SMALL) - 4, 4, replace=False)) + [len(SMALL) - 1 - sample_rng.integers(4)]
    for i in picks:
        _round_trip(*SMALL[i])


def _round_trip(counts, jokers):
    kinds = [k for k, c in enumerate(tuple(counts) + (jokers,)) for _ in range(c)]
    every = sorted(set(itertools.permutations(kinds)))  # the distinct deals in lexicographic order
    for players in range(2, len(kinds) + 1):
        rules = _rules(counts, jokers, players)
        assert n_deals(rules) == len(every)
        seq = sequence_at(0, rules)
        for r, want in enumerate(every):
            assert tuple(seq) == want  # next_sequence walks the ranks in order
            hands = deal_at(r, rules)
            assert sum(hands, ()) == want and tuple(map(len, hands)) == hand_sizes(rules)
            assert deal_rank(hands, rules) == r
            assert next_sequence(seq) == (r < len(every) - 1)
        assert tuple(seq) == every[-1]  # unchanged after the last


def test_round_trip_large_deck_sampled():
    rules = bs.Rules(players=4)
    rng = np.random.default_rng(1)
    n = n_deals(rules)
    for r in [0, 1, n - 1, n // 2] + [int(x) for x in rng.integers(0, 2**62, 50)]:
        assert deal_rank(deal_at(r, rules), rules) == r
    deal, _ = bs.random_deal(3, 7, rules)
    assert deal_at(deal_rank(deal, rules), rules) == deal
    assert deal_rank(bs.format_deal(deal), rules) == deal_rank(deal, rules)


def test_next_sequence_compiles_in_numba():
    from beggarstats.engine.census_kernel import next_sequence as step

    rules = bs.Rules(deck=bs.Deck(3, 1, 1, 1, 0))
    a, b = sequence_at(0, rules), sequence_at(0, rules)
    for _ in range(n_deals(rules) + 1):
        assert step(a) == next_sequence(b)
        assert (a == b).all()


def test_bad_input_names_the_problem():
    rules = bs.Rules(deck=bs.Deck(2, 1, 0, 0, 0))
    with pytest.raises(ValueError, match="`rank`.*0 to 2"):
        deal_at(3, rules)
    with pytest.raises(ValueError, match="`rank`"):
        deal_at(-1, rules)
    with pytest.raises(ValueError, match="`rank`"):
        deal_at(1.0, rules)
    with pytest.raises(ValueError, match="`deal`: hand 0 holds 1 cards.*gives seat 0 2"):
        deal_rank("-/-J", rules)
    with pytest.raises(ValueError, match="Hand 1, position 1: the deck has no card of kind 1"):
        deal_rank("J-/J", rules)
    with pytest.raises(ValueError, match="3 hands but the rules are for 2"):
        deal_rank("-/-/J", rules)


def test_public_names():
    assert bs.deal_rank is deal_rank and bs.deal_at is deal_at and bs.n_deals is n_deals
