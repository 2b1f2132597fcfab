"""Every parameter of play, replay, simulate_matches, load and verify is checked (issue #21, item 8).

Before: ``play(deal, rules={'end': 'x'})``, ``rules=True`` and ``rules='standard'`` ended in
AttributeError / TypeError tracebacks (simulate and replay accepted ``Rules.to_dict()``, play did
not); boolean parameters accepted any object (``simulate_matches(replay_unfinished='no')``
replayed and recorded True; ``replay(trace='standard')``), and arrays or ``pd.NA`` gave numpy's
"truth value is ambiguous", naming nothing.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs

DEAL = "--K-/-Q--"
NOT_FLAGS = ["no", 1, 0, None, pd.NA, np.array([True, False]), "standard"]


def test_play_takes_the_rules_simulate_takes():
    rules = bs.Rules(end="empty")
    assert bs.play(DEAL, rules=rules.to_dict(), any_deck=True).summary() == bs.play(DEAL, rules=rules, any_deck=True).summary()
    assert bs.play(DEAL, rules=None, any_deck=True).summary() == bs.play(DEAL, any_deck=True).summary()


@pytest.mark.parametrize("rules, why", [({"end": "x"}, "`end`"), ({"bogus": 1}, "`rules` as a dict.*bogus"),
                                        ({"deck": {"name": "x"}}, "`rules` as a dict"), (True, "`rules`"),
                                        ("standard", "`rules`"), (3, "`rules`")])
def test_bad_rules_are_a_sentence_naming_them(rules, why):
    for call in (lambda: bs.play(DEAL, rules=rules, any_deck=True), lambda: bs.replay(1, 0, rules),
                 lambda: bs.simulate_matches(10, rules=rules, seed=1)):
        with pytest.raises(ValueError, match=why):
            call()


@pytest.mark.parametrize("value", NOT_FLAGS, ids=repr)
def test_boolean_parameters_take_only_true_or_false(tmp_path, value):
    calls = {
        "any_deck": lambda: bs.play(DEAL, any_deck=value),
        "trace": lambda: bs.play(DEAL, trace=value, any_deck=True),
        "replay trace": lambda: bs.replay(1, 0, trace=value),
        "replay_unfinished": lambda: bs.simulate_matches(10, seed=1, replay_unfinished=value),
        "return_rounds": lambda: bs.simulate_matches(10, seed=1, return_rounds=value),
        "per_seat": lambda: bs.simulate(10, seed=1, per_seat=value),
        "seats": lambda: bs.load(tmp_path, seats=value),
        "partial": lambda: bs.load(tmp_path, partial=value),
        "repair": lambda: bs.verify(tmp_path, repair=value),
    }
    for name, call in calls.items():
        with pytest.raises(ValueError, match=f"`{name.split()[-1]}` must be True or False"):
            call()


def test_numpy_booleans_are_booleans():
    assert bs.play(DEAL, trace=np.bool_(True), any_deck=True).trace
    assert bs.replay(1, 0, trace=np.False_)[1].trace in (None, [], ())


@pytest.mark.parametrize("rng", ["x", 1.5, True, [1, 2]], ids=repr)
def test_a_bad_rng_is_named(rng):
    with pytest.raises(ValueError, match="`rng`"):
        bs.play(DEAL, rules=bs.Rules(shuffle_pile=True), rng=rng, any_deck=True)
