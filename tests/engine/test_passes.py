"""The compiled versions of the fast passes (engine/passes.py, issue #53): one table, every caller.

Every row of `passes.VERSIONS` is compiled here on the CPU by each caller the table names for it - the
batch entry of its name, the census pass, the uneven pass - and plays a table of its kind (and, where
it plays the other tables with the options as variables, one of those too) exactly as the exact driver
does; tests/gpu/ compiles every row the GPU calls to PTX for sm_90 and plays it under the simulator.
docs/DESIGN.md's copy of the table is held to it.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.engine import batch, fast
from beggarstats.engine.census_kernel import play_ranks
from beggarstats.engine.constants import pack_params
from beggarstats.engine.options import COMMON, KINDS, ONLY_BEGGAR, ONLY_EMPTY, ONLY_SHUFFLE, OTHER, options_for
from beggarstats.engine.passes import CALLERS, VERSIONS, version_for, versions_of
from beggarstats.engine.rank import hand_sizes, n_deals, sequence_at
from beggarstats.engine.reference import play_hands
from beggarstats.engine.uneven import uneven_deal
from beggarstats.engine.uneven_play import play_uneven

pytestmark = pytest.mark.usefixtures("warm_kernels")

ROOT = Path(__file__).resolve().parents[2]
GAMES = np.arange(200, dtype=np.int64)
# a table of each kind (`options.table_kind`), and one of the others
KIND_OPTIONS = {COMMON: {}, ONLY_EMPTY: {"end": "empty"}, ONLY_BEGGAR: {"jokers": 1, "joker_mode": "beggar"},
                ONLY_SHUFFLE: {"shuffle_pile": True}, OTHER: {"end": "unable", "max_cards": 400}}


def _tables(name):
    """The rules a version is tried on: its own kind's table, and an OTHER table if it plays the others
    with variables (players: 2, or 3 and 4 for the multi-player versions)."""
    v = VERSIONS[name]
    kinds = [v.constants] + ([OTHER] if v.others == "variables" and v.constants != OTHER else [])
    return [bs.Rules(players=p, **KIND_OPTIONS[k]) for k in kinds for p in ((2,) if v.players == 2 else (3, 4))]


def _exact(rules, seed, games):
    return fast._run_entry("exact", rules, np.uint64(seed), games, False)


def _census_by_exact_driver(rules, lo, hi):
    """The deals of ranks lo..hi-1 played by the exact driver alone (what `play_ranks` replays)."""
    p, sizes = rules.players, np.asarray(hand_sizes(rules), np.int64)
    dh = np.zeros((hi - lo, p, int(sizes.max())), np.int8)
    for j in range(hi - lo):
        s, at = sequence_at(lo + j, rules), 0
        for seat in range(p):
            dh[j, seat, :sizes[seat]] = s[at:at + sizes[seat]]
            at += sizes[seat]
    out = fast.empty_raw(hi - lo, p)
    batch.play_deals_bits(dh, np.tile(sizes, (hi - lo, 1)), np.zeros((hi - lo, 4), np.uint64), pack_params(rules),
                          *out)
    return fast.assemble(*out, None, False)


def _cases():
    return [pytest.param(name, caller, id=f"{name}, {caller}") for name, v in VERSIONS.items() for caller in v.callers
            if caller != "gpu"]


@pytest.mark.parametrize(("name", "caller"), _cases())
def test_every_version_compiles_for_each_cpu_caller_and_plays_as_the_exact_driver(name, caller):
    for rules in _tables(name):
        if caller == "batch":
            got = fast._run_entry(name, rules, np.uint64(7), GAMES, True)
            want = fast._run_entry("exact", rules, np.uint64(7), GAMES, True)
        elif caller == "census":
            if rules.shuffle_pile:
                continue  # a census plays no shuffled pile (run.census refuses it)
            rules = bs.Rules(players=rules.players, **{k: v for k, v in rules.to_dict().items()
                                                        if k in ("end", "max_cards", "jokers", "joker_mode")},
                             deck=bs.Deck(8, 1, 1, 1, 0) if rules.players == 2 else bs.Deck(6, 1, 1, 1, 0))
            hi = min(n_deals(rules), 300)
            got, want = play_ranks(rules, 0, hi), _census_by_exact_driver(rules, 0, hi)
        else:  # uneven: seat 0 short, the last seat long
            sizes = [10] + [(52 - 10) // (rules.players - 1)] * (rules.players - 1)
            sizes[-1] += 52 - sum(sizes)
            got = play_uneven(rules, 3, GAMES[:60], sizes)
            want = {"cards": [], "winner": []}
            for g in GAMES[:60]:
                hands, stream = uneven_deal(3, int(g), rules, sizes)
                r = play_hands(hands, rules, rng=stream)
                want["cards"].append(r.cards)
                want["winner"].append(r.winner if r.winner is not None else -1)
            got = {"cards": got["cards"], "winner": got["winner"]}
        for figure in want:
            np.testing.assert_array_equal(np.asarray(got[figure]), np.asarray(want[figure]),
                                          err_msg=f"{name} ({caller}), {rules.name}: {figure}")


def test_each_table_gets_the_version_of_its_kind():
    for kind, options in KIND_OPTIONS.items():
        for players in (2, 3, 5):
            o = options_for(bs.Rules(players=players, **options))
            name = version_for(o, players)
            v = VERSIONS[name]
            assert "batch" in v.callers and v.players == min(players, 3)
            assert v.constants == kind or (v.others == "variables" and kind not in
                                           {w.constants for w in VERSIONS.values() if w.players == v.players
                                            and "batch" in w.callers}), (kind, players, name)
            (census,) = versions_of("census", players)
            assert VERSIONS[census].others == "variables"  # a census plays every table with one pass
    assert set(fast.FAST_PASSES) == {n for n, v in VERSIONS.items() if "batch" in v.callers}
    assert {c for v in VERSIONS.values() for c in v.callers} <= set(CALLERS)


def test_design_md_holds_the_table():
    """docs/DESIGN.md's pass-step table is `passes.VERSIONS`, row for row."""
    text = (ROOT / "docs" / "DESIGN.md").read_text(encoding="utf-8")
    rows = [[c.strip() for c in line.strip().strip("|").split("|")]
            for line in text.split("| version | players |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]]
    assert len(rows) == len(VERSIONS)
    for (name, players, constants, cut, others, callers), (key, v) in zip(rows, VERSIONS.items()):
        assert name == f"`{key}`"
        assert players == ("2" if v.players == 2 else "3+")
        assert re.match(r"`(\w+)`", constants).group(1) == KINDS[v.constants].upper()
        assert cut == (v.cut_off or "")
        assert others == v.others
        assert callers == ", ".join(v.callers)


@pytest.mark.parametrize("name", list(VERSIONS))
def test_a_version_of_one_record_plays_it_with_the_one_step_call(name):
    """`passes.steps` gives a version of one record (`one_record`) the step with one call: its plan's
    constants and variables are then the same record, of one type, for every table it plays; a version
    of two records gets the generic step, which chooses between them."""
    from numba import njit

    from beggarstats.engine.passes import one_record, play_pair, setup, steps

    plan_of = setup(name)
    plan = njit(lambda prm: plan_of(prm))
    plan(pack_params(_tables(name)[0]))
    record_types = plan.nopython_signatures[0].return_type.types[2:]  # (the parameter array's type only)
    assert (record_types[0] == record_types[1]) == one_record(name), (name, record_types)
    assert (steps(name).play_pair is play_pair) != one_record(name)
