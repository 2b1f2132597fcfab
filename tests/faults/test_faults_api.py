"""The public functions check what they are given (issue #40, item 4): `rules` checked where it has
no default, integers bounded before they reach numba or an allocation, text never read as a number.
Before: `bs.deal_at(5, None)` was an AttributeError, `bs.Deck(10**30, 0, 0, 0, 0)` was accepted
(then an OverflowError), `random_deal(seed=())` a 20-line numba TypingError, `tail_chain(n_deals=10**12)`
a MemoryError of 7.28 TiB, `random_deal(1, '5', ...)` read '5' as 5."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs

R = bs.Rules()
DEAL = bs.deal_at(5, R)


WITH_DEFAULT = [lambda rules: bs.deal_at(5, rules), lambda rules: bs.deal_rank(DEAL, rules),
                lambda rules: bs.n_deals(rules), lambda rules: bs.random_deal(1, 0, rules)[0]]


@pytest.mark.parametrize("call", WITH_DEFAULT)
@pytest.mark.parametrize("rules", ["standard", 3, bs.Deck(), [R]])
def test_rules_is_checked_where_it_has_a_default(call, rules):
    """`rules=None` is the standard table (one set of signatures, issue #41); anything but a Rules,
    its dict or None is refused naming the parameter."""
    with pytest.raises(ValueError, match="`rules` must be a Rules"):
        call(rules)


@pytest.mark.parametrize("call", WITH_DEFAULT)
def test_no_rules_is_the_standard_table(call):
    assert call(None) == call(R)


@pytest.mark.parametrize("rules", [None, "standard", 3, bs.Deck(), [R]])
def test_rules_is_checked_where_it_has_no_default(rules):
    with pytest.raises(TypeError, match="`rules` must be a Rules"):
        bs.Summary(rules, 1)


@pytest.mark.parametrize("call, name", [
    (lambda: bs.Deck(10**30, 0, 0, 0, 0), "numbers"), (lambda: bs.Deck(36, 4, 4, 4, -1), "aces"),
    (lambda: bs.Deck(36, 4, 4, 4.0, 4), "kings"), (lambda: bs.Deck(36, "4", 4, 4, 4), "jacks"),
    (lambda: bs.Deck(9000, 4000, 0, 0, 0), "10,000 cards"), (lambda: bs.Deck.from_counts(5), "counts"),
    (lambda: bs.Deck.from_counts(["36", 4, 4, 4, 4]), "numbers"),
    (lambda: bs.random_deal(2**64, 0, R), "seed"), (lambda: bs.random_deal((), 0, R), "seed"),
    (lambda: bs.random_deal(1, "5", R), "game"), (lambda: bs.random_deal(1, 2**63, R), "game"),
    (lambda: bs.random_deal(1, -1, R), "game"), (lambda: bs.random_deal(1.0, 0, R), "seed"),
    (lambda: bs.run_back(bs.format_deal(DEAL), nodes=10**30), "nodes"),
    (lambda: bs.tail_chain(horizon=2**64, seed=1), "horizon"),
    (lambda: bs.tail_chain(n_deals=10**12, seed=1), "n_deals"),
    (lambda: bs.tail_chain_cards(horizon=10**7, seed=1), "horizon"),
    (lambda: bs.save(3, "x.parquet"), "frame"), (lambda: bs.save(pd.DataFrame({"a": [1]}), 3), "path"),
    (lambda: bs.format_deal(3), "deal"), (lambda: bs.format_deal(((9,), (1,))), "position 1"),
    (lambda: bs.format_deal((("0",), (1,))), "position 1"), (lambda: bs.format_deal(((0.5,), (1,))), "tribute"),
    (lambda: bs.deal_rank((("0",) * 26, (0,) * 26), R), "deal"), (lambda: bs.deal_rank(5, R), "deal"),
])
def test_bad_values_are_refused_naming_them(call, name):
    with pytest.raises(ValueError) as info:
        call()
    assert name in str(info.value) and "\n" not in str(info.value)


def test_numpy_integers_are_accepted_as_the_ints_they_are():
    deck = bs.Deck(np.int8(5), np.int64(1), 1, 1, 1)
    assert deck == bs.Deck(5, 1, 1, 1, 1) and type(deck.numbers) is int
    assert bs.random_deal(np.uint64(3), np.int32(2), R)[0] == bs.random_deal(3, 2, R)[0]
    assert bs.deal_at(np.int64(5), R) == DEAL and bs.deal_rank(DEAL, R.to_dict()) == 5
    assert bs.format_deal(tuple(np.array(h, np.int8) for h in DEAL)) == bs.format_deal(DEAL)
