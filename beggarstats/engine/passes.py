"""The compiled versions of the fast passes, and the one step each plays a dealt game with.

A fast pass plays a dealt game with `kernel_two.play_two` (two players) or `kernel_multi.play_multi`
(three or more) given the options record (`options.Options`), and numba compiles a version of it for
each type of record it is given: the options of one kind of table folded in as constants
(`options.folded`), or every option a variable (`options.options_of`). Which versions a caller
compiles, and which tables each version plays, is written once, in `VERSIONS`; every caller takes a
row by its name and plays each game through the same three steps:

* ``plan = setup(prm)`` (`setup`, once a batch): which records the version plays the table with;
* ``plan[0]``: whether the version plays the table at all (an entry given a table it was not made for
  hands every game to the exact driver: slower, never wrong);
* ``play_pair(a, b, plan, stream)`` / ``play_table(t, plan, stream)``: one game from its deal, then
  `two_row` / `multi_row` write its row (or the caller counts it). A caller that compiles one version
  alone (the GPU's kernels) takes the version's own step functions from `steps`: the same step, with
  one call of the game where the version has one record (`one_record`), which numba compiles in half
  the time to the same code.

The callers: the batch entries (`batch`, one entry a version of `engine.fast.KERNELS`), the census
passes (`census_kernel`, `gpu_census`), the uneven pass (`batch.play_uneven_bits`) and the GPU kernels
(`gpu_kernels`). None of them chooses a version itself, so a new option of the rules changes
`options` (the record, `options.table_kind`) and never a caller, and the CPU and the GPU play a table
with the same version: tests/gpu/ compiles every row of `VERSIONS` for both.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from .constants import FALLBACK, NO_LIMIT, R_CARDS, R_LOOP_START_TRICKS, R_LOOPED, R_OUTCOME, R_TRICKS, R_WINNER, \
    SEAT_MIN, SEAT_OUT, SEAT_PLACE, U32_ROWS, WIN
from .kernel_cache import install as _install_kernel_cache
from .kernel_multi import play_multi, trick_multi
from .kernel_two import play_two, trick_two
from .seats import seat
from .options import (COMMON, ONLY_BEGGAR, ONLY_EMPTY, ONLY_SHUFFLE, OTHER, folded, options_of, record, table_kind,
                      with_limit)

__all__ = ["Version", "VERSIONS", "CALLERS", "setup", "version_for", "versions_of", "play_pair", "play_table",
           "one_record", "Steps", "steps", "trick_pair", "trick_table", "two_left_options", "two_row", "multi_row", "record_win"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

# One row a compiled version:
# * players: 2, or 3 for three and more;
# * constants: the kind of table (`options.table_kind`) played with its options folded in as constants
#   (`options.folded`), OTHER for none;
# * cut_off: in that record, the cut-off as a "constant" or a "variable" (None: no such record;
#   `options.with_limit`, no cut-off:
#   the multi-player pass, whose loop LLVM allocates worse with it folded in: 3.1-3.5% more instructions
#   a card, benchmarks/README.md, issue #41);
# * others: every other table played with the options as "variables", or "handed back" to the exact driver;
# * callers: who compiles it (`CALLERS`).
Version = namedtuple("Version", "players constants cut_off others callers")
# batch: the entry of `batch` (and of `engine.fast.KERNELS`) of the version's name, the table's own
# (`version_for`); gpu: the GPU's rows and summary kernels (`gpu_kernels`); census: the census passes of
# the CPU and the GPU; uneven: the uneven deals' pass (`batch.play_uneven_bits`)
CALLERS = ("batch", "gpu", "census", "uneven")
VERSIONS = {
    "two": Version(2, COMMON, "constant", "handed back", ("batch", "gpu")),
    "two_empty": Version(2, ONLY_EMPTY, "constant", "handed back", ("batch", "gpu")),
    "two_beggar": Version(2, ONLY_BEGGAR, "constant", "handed back", ("batch", "gpu")),
    "two_rules": Version(2, ONLY_SHUFFLE, "constant", "variables", ("batch", "gpu")),
    "two_any": Version(2, COMMON, "constant", "variables", ("census", "uneven")),
    "multi": Version(3, COMMON, "variable", "handed back", ("batch", "gpu")),
    "multi_rules": Version(3, OTHER, None, "variables", ("batch", "gpu", "census", "uneven")),
}


def versions_of(caller: str, players: int) -> tuple[str, ...]:
    """The versions ``caller`` (one of `CALLERS`) compiles for ``players``, in the table's order."""
    return tuple(name for name, v in VERSIONS.items() if caller in v.callers and v.players == min(players, 3))


def version_for(o, players: int, caller: str = "batch") -> str:
    """The version ``caller`` plays the options record ``o`` (`options.options_for`) with at ``players``:
    the one whose constants are the table's kind, else the one that plays every other table with
    variables (the only one a census or the uneven pass has)."""
    kind = table_kind.py_func(o)
    names = versions_of(caller, players)
    for name in names:
        if VERSIONS[name].constants == kind:
            return name
    return next(name for name in names if VERSIONS[name].others == "variables")


def _setup_of(name):
    """The numba function ``setup(prm)`` of the version ``name``: the plan (`setup`'s docstring)."""
    v = VERSIONS[name]
    kind, limit_variable, others = v.constants, v.cut_off == "variable", v.others == "variables"
    if kind == OTHER:
        def plan(prm):
            o = options_of(prm)
            return True, False, o, o
    elif limit_variable:  # (a version with others as variables would take them from `options_of` too)
        def plan(prm):
            o = options_of(prm)
            f = with_limit(folded(kind, o), NO_LIMIT)
            return table_kind(o) == kind, True, f, f
    elif not others:
        def plan(prm):
            o = options_of(prm)
            f = folded(kind, o)
            return table_kind(o) == kind, True, f, f
    else:
        def plan(prm):
            o = options_of(prm)
            return True, table_kind(o) == kind, folded(kind, o), o
    plan.__name__ = plan.__qualname__ = f"plan_{name}"
    return njit(nogil=True, cache=True, _nrt=False, inline="always")(plan)


_SETUPS = {name: _setup_of(name) for name in VERSIONS}


def setup(name: str):
    """The numba function (inlined) of the version ``name`` giving the plan of a parameter array:
    ``plan = setup(name)(prm)``, the tuple (plays, constant, constants, variables): whether the
    version plays the table, whether it plays it with the record of constants, that record, and the
    record of variables (where the version has none of one kind, the other stands in for it). Called
    once a batch, before the loop; a caller binds it to a name of its own module, so numba inlines it."""
    return _SETUPS[name]


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def play_pair(a, b, plan, stream):
    """One two-player game from its deal, ``a`` (seat 0, leading) and ``b`` (seat 1), each (plane 0,
    plane 1, plane 2, length), with the record ``plan`` says (`setup`): `kernel_two.play_two`'s result."""
    _, constant, constants, variables = plan
    if constant:
        return play_two(a, b, constants, stream)
    return play_two(a, b, variables, stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def play_table(t, plan, stream):
    """One game of three or more players from its deal in the `kernel_multi.Table` ``t``, with the
    record ``plan`` says (`setup`): `kernel_multi.play_multi`'s result."""
    _, constant, constants, variables = plan
    if constant:
        return play_multi(t, constants, stream)
    return play_multi(t, variables, stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def trick_pair(g, plan, stream):
    """One trick of a two-player game in the state ``g`` (`kernel_two.TwoGame`, from
    `kernel_two.start_two`), with the record ``plan`` says: `kernel_two.trick_two`'s (result, state).
    The step `play_two` loops over on the CPU, which the GPU's refill kernels take once a loop step."""
    _, constant, constants, variables = plan
    if constant:
        return trick_two(g, constants, stream)
    return trick_two(g, variables, stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _play_pair_one(a, b, plan, stream):
    """`play_pair` of a version with one record (`one_record`): the record's one call of `play_two`."""
    return play_two(a, b, plan[2], stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _play_table_one(t, plan, stream):
    """`play_table` of a version with one record (`one_record`)."""
    return play_multi(t, plan[2], stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _trick_pair_one(g, plan, stream):
    """`trick_pair` of a version with one record (`one_record`)."""
    return trick_two(g, plan[2], stream)


def one_record(name: str) -> bool:
    """Whether the version ``name`` plays every table it plays with one record (its plan's constants and
    variables are the same record: `setup`), as all do but those with constants of a kind and the other
    tables as variables."""
    v = VERSIONS[name]
    return v.constants == OTHER or v.others != "variables"


Steps = namedtuple("Steps", "play_pair play_table trick_pair")


def steps(name: str) -> Steps:
    """The step functions of the version ``name`` for a caller that compiles it alone (the GPU's kernels):
    `play_pair`, `play_table` and `trick_pair`, or for a version of one record (`one_record`) the same
    step with the one call its record needs. Both ways give the same machine code - a version of one
    record never takes the other branch, and the compiler folds it away - but numba types and lowers
    every call it inlines before that: the branch's second call of `play_two` doubled the time to
    compile a refill kernel for the GPU (the two-player standard one: 11.7 -> 4.9 CPU-s to the same PTX,
    2026-12-07). The CPU's batch and census passes take the plan as an argument, so they keep the
    generic step (there the branch is taken at run time, once a game)."""
    if one_record(name):
        return Steps(_play_pair_one, _play_table_one, _trick_pair_one)
    return Steps(play_pair, play_table, trick_pair)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def _record(plan):
    """The one record of a multi-player version's plan (its two stand in for each other: `setup`)."""
    _, constant, constants, variables = plan
    return constants if constant else variables


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def trick_table(t, g, plan, stream):
    """One trick of a game of three or more players in the `kernel_multi.Table` ``t`` and the state
    ``g`` (`kernel_multi.MultiGame`, from `kernel_multi.start_multi`), with the record ``plan`` says:
    `kernel_multi.trick_multi`'s (result, state, table), the options handed one by one as `play_multi`
    hands them. The step `play_multi` loops over on the CPU."""
    o = _record(plan)
    return trick_multi(t, g, o.step, o.end, o.passes_on, o.beggar, o.shuffle, o.detect, o.limit, o.leader, stream)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def two_left_options(plan, cards):
    """The record a multi-player version finishes a game in `kernel_two` with, two seats left after
    ``cards`` cards: its options as `kernel_multi._play` hands them on (`options.record`, constants
    kept), the cut-off what is left of it."""
    o = _record(plan)
    return with_limit(record(o.end, o.beggar, o.detect, o.shuffle, o.limit, o.step, o.passes_on, o.leader),
                      o.limit - cards)


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def record_win(out_u32, out_small, i, cards, tricks, w):
    """Game i was won by seat w (a fast pass proved it: no loop, no cut-off)."""
    out_u32[R_CARDS, i] = cards
    out_u32[R_TRICKS, i] = tricks
    for k in range(R_LOOP_START_TRICKS, U32_ROWS):
        out_u32[k, i] = 0
    out_small[R_OUTCOME, i] = WIN
    out_small[R_WINNER, i] = w
    out_small[R_LOOPED, i] = 0


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def two_row(res, out_u32, out_small, seat_out, i, per_seat, need):
    """Write game ``i``'s row from `play_two`'s result, or mark it for the exact driver."""
    st, cards, tricks, w, m0, m1, oc = res
    if st == FALLBACK:
        need[i] = 1
        return
    record_win(out_u32, out_small, i, cards, tricks, w)
    if per_seat:
        seat_out[i, SEAT_MIN, 0] = m0
        seat_out[i, SEAT_MIN, 1] = m1
        seat_out[i, SEAT_PLACE, w] = 1
        seat_out[i, SEAT_PLACE, 1 - w] = 2
        seat_out[i, SEAT_OUT, w] = -1
        seat_out[i, SEAT_OUT, 1 - w] = oc


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def multi_row(res, t, n, out_u32, out_small, seat_out, i, per_seat, need):
    """Write game ``i``'s row from `play_multi`'s result and the table ``t``, or mark it for the
    exact driver."""
    st, cards, tricks, w = res
    if st == FALLBACK:
        need[i] = 1
        return
    record_win(out_u32, out_small, i, cards, tricks, w)
    if per_seat:
        for s in range(n):
            u = np.uint64(s)
            seat_out[i, SEAT_MIN, s] = seat(t.min_cards, u)
            seat_out[i, SEAT_PLACE, s] = seat(t.place, u)
            seat_out[i, SEAT_OUT, s] = seat(t.out_cards, u)
