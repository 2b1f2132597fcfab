"""The options record and the one choice of entry (engine/options.py, issue #41).

Every value of every option of `rule_options()` is played through the version of the fast pass that
`passes.version_for` chooses for it: the pass must play some of the games itself (not hand them all
to the exact driver) and give the exact driver's figures for every game. An option added to `Rules`
and to the kernels but not to `options.table_kind` would be played by a pass with its constants
folded in as if it were absent: its figures would differ from the exact driver's here.
"""

from __future__ import annotations

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.engine import fast
from beggarstats.engine.constants import INIT_ROWS, NO_LIMIT, pack_params
from beggarstats.engine.options import COMMON, KINDS, OTHER, Options, folded_values, options_for, table_kind
from beggarstats.engine.passes import VERSIONS, version_for
from beggarstats.game.rules import MAX_PLAYERS, rule_options

pytestmark = pytest.mark.usefixtures("warm_kernels")

GAMES = np.arange(300, dtype=np.int64)


def _values(option):
    """Every value of a choice, flag or deck; the ends, the default and a middle value of a number."""
    if option.kind in ("choice", "deck"):
        return list(option.choices)
    if option.kind == "flag":
        return [False, True]
    if option.name == "players":
        return list(range(option.low, MAX_PLAYERS + 1))
    return [None, option.low, 400, option.high] if option.optional else [option.low, option.default, option.high]


def _variants():
    out = []
    for option in rule_options():
        for value in _values(option):
            extra = {"jokers": 2} if option.name == "joker_mode" else {}  # Beggar jokers need jokers
            if option.name == "deck":
                value = bs.ITALIAN if value == "italian" else bs.STANDARD
            out.append(pytest.param(option.name, {option.name: value, **extra}, id=f"{option.name}={value}"))
    return out


def _handed_back(kernel, rules):
    p = rules.players
    prm = pack_params(rules)
    out_u32, out_small, seat_out = fast.empty_raw(len(GAMES), p)
    init_out = np.zeros((len(GAMES), INIT_ROWS, p), dtype=np.int64)
    need = np.zeros(len(GAMES), dtype=np.uint8)
    args = (prm, np.uint64(5), GAMES, out_u32, out_small, seat_out, init_out, False, need)
    fast._entry(kernel)(rules.deck_cards(), *args) if p == 2 else fast._entry(kernel)(rules.deck_cards(), p, *args)
    return int(need.sum())


@pytest.mark.parametrize("name, options", _variants())
def test_every_value_of_every_option_reaches_an_entry_that_plays_it(name, options):
    rules = bs.Rules(**options)
    kernel = version_for(options_for(rules), rules.players)
    assert kernel in fast.FAST_PASSES
    got = fast._run_entry(kernel, rules, np.uint64(5), GAMES, True)  # the pass, then the exact driver
    want = fast._run_entry("exact", rules, np.uint64(5), GAMES, True)  # the exact driver alone
    for figure in want:
        np.testing.assert_array_equal(got[figure], want[figure], err_msg=f"{name}: {figure} ({kernel})")
    if not (name == "max_cards" and options[name] == 1):  # a cut-off at the first card: every game handed back
        assert _handed_back(kernel, rules) < len(GAMES), f"{kernel} hands back every game of {options}"


def test_a_kind_with_constants_has_the_options_of_its_tables():
    """Each kind folded into a pass (`options.FOLDED`) holds the options `options_of` gives its tables."""
    for options in ({}, {"end": "empty"}, {"jokers": 1, "joker_mode": "beggar"}, {"shuffle_pile": True},
                    {"players": 3, "leader": "next", "direction": "ccw", "exhausted_tribute": "passes_on"}):
        rules = bs.Rules(**options)
        kind = table_kind.py_func(options_for(rules))
        assert kind != OTHER, options
        o = options_for(rules)
        assert folded_values(kind) == tuple(o)[:5], options  # end, beggar, detect, shuffle, limit
    assert table_kind.py_func(options_for(bs.Rules(max_cards=500))) == OTHER
    assert table_kind.py_func(options_for(bs.Rules(end="empty", shuffle_pile=True))) == OTHER


def test_the_record():
    o = options_for(bs.Rules())
    assert isinstance(o, Options) and o.limit == NO_LIMIT and o.detect and not o.shuffle
    assert options_for(bs.Rules(max_cards=300)).limit == 300  # one value for no cut-off: NO_LIMIT
    s = options_for(bs.Rules(shuffle_pile=True))
    assert s.shuffle and not s.detect
    assert options_for(bs.Rules(shuffle_on_loop=True)).shuffle_on_loop
    assert options_for(bs.Rules(unfinished="most_cards")).most and not o.most
    assert len(KINDS) == OTHER + 1 and {v.constants for v in VERSIONS.values()} <= set(range(OTHER + 1))
    assert version_for(o, 2) == "two" and version_for(o, 3) == "multi"
    assert version_for(options_for(bs.Rules(max_cards=300)), 2, "census") == "two_any"


def test_a_new_option_reaches_no_version_choice():
    """tools/option_places.py: every option of the rules reaches the record and `options.table_kind`,
    never a place that picks a compiled version (issue #53: on 6daff1f 13 places named the kinds of
    table that choose one; now the table of versions and the two places that define the kinds)."""
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "tools"))
    try:
        from option_places import places
    finally:
        sys.path.remove(str(root / "tools"))
    for option in ("shuffle_pile", "end", "joker_mode", "max_cards", "direction", "exhausted_tribute", "leader",
                   "shuffle_on_loop", "unfinished"):
        found, _, choices, kinds = places(root, option)
        assert "beggarstats/engine/options:options_of" in found, option
        assert choices == [], (option, choices)
    assert kinds == ["beggarstats/engine/options:(module level)", "beggarstats/engine/options:table_kind",
                     "beggarstats/engine/passes:(module level)"]
