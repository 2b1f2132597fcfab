"""The options as the fast passes read them: one record, and which tables get them as constants.

`Options` is the record both fast passes (`kernel_two.play_two`, `kernel_multi.play_multi`) take,
built once from the parameter array of `Rules` (`constants.pack_params`) by `options_of`, with the
choices derived from the rules made there: ``detect`` (Brent's loop check) is ``not shuffle``, the
cut-off is a card count with one value for none (`constants.NO_LIMIT`). A tuple of scalars, so the
passes stay free of Python objects (numba passes it as its fields, one machine word each).

The fast passes play the most common tables with the options folded in as constants (a quarter of
the standard table's speed, benchmarks/README.md), and every other table with the options as
variables. Which tables are "common" was written five times (the entries of `batch`, the shuffle
branch of its two-player pass, the uneven pass, the census pass, and `engine.fast`'s choice of
entry); it is written here once, as `table_kind`, and every one of them asks it. `ENTRIES` names
the compiled entry of each kind and table size, which `engine.fast` picks from.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit, types
from numba.extending import intrinsic

from .constants import (END_EMPTY, END_TRICK, NO_LIMIT, P_BEGGAR, P_END, P_LEADER, P_MAX_CARDS,
                        P_PASSES_ON, P_SHUFFLE_PILE, P_STEP)
from .kernel_cache import install as _install_kernel_cache
from .rulebook import sole_holder_wins

__all__ = ["Options", "options_of", "options_for", "folded", "folded_values", "FOLDED", "with_limit", "record",
           "COMMON", "ONLY_EMPTY", "ONLY_BEGGAR", "ONLY_SHUFFLE", "OTHER", "KINDS", "table_kind", "ENTRIES",
           "entry_for"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

# end: END_*; beggar: Beggar jokers; detect: run Brent's loop check (deterministic play: not shuffle);
# shuffle: shuffle_pile; limit: the cut-off as a card count (NO_LIMIT: none); step: 1 or players - 1
# (direction); passes_on: exhausted_tribute 'passes_on'; leader: LEADER_*
Options = namedtuple("Options", "end beggar detect shuffle limit step passes_on leader")


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def options_of(prm):
    """The `Options` of the parameter array ``prm``, every field a variable (the ``_rules`` passes)."""
    shuffle = prm[P_SHUFFLE_PILE] != 0
    limit = NO_LIMIT if prm[P_MAX_CARDS] < 0 else prm[P_MAX_CARDS]
    return Options(prm[P_END], prm[P_BEGGAR] != 0, not shuffle, shuffle, limit, prm[P_STEP], prm[P_PASSES_ON] != 0,
                   prm[P_LEADER])


@intrinsic
def with_limit(typingctx, o, limit):
    """``o`` with the cut-off ``limit`` (cards still to play, when a game goes on in another pass),
    its other fields of the same types: a record of constants stays one (numba's tuple constructor would
    make them variables)."""
    if not isinstance(o, types.NamedTuple) or o.instance_class is not Options:
        return None
    at = Options._fields.index("limit")
    typ = types.NamedTuple([types.unliteral(limit) if i == at else t for i, t in enumerate(o.types)], Options)

    def codegen(context, builder, sig, args):
        record, value = args
        members = [builder.extract_value(record, i) for i in range(len(o.types))]
        members[at] = context.cast(builder, value, sig.args[1], typ.types[at])
        return context.make_tuple(builder, typ, members)

    return typ(o, limit), codegen


@intrinsic(prefer_literal=True)
def record(typingctx, end, beggar, detect, shuffle, limit, step, passes_on, leader):
    """The `Options` of these fields, each of the type it comes with: a field given as a constant stays
    one (numba's tuple constructor would make it a variable). For a pass that takes the fields one by
    one and hands them on as a record (`kernel_multi._play`)."""
    fields = [end, beggar, detect, shuffle, limit, step, passes_on, leader]
    typ = types.NamedTuple(fields, Options)

    def codegen(context, builder, sig, args):
        return context.make_tuple(builder, typ, list(args))

    return typ(*fields), codegen


def options_for(rules) -> Options:
    """The `Options` of ``rules``, from Python (the same function as the kernels')."""
    from .constants import pack_params

    return options_of.py_func(pack_params(rules))


def folded_values(kind) -> tuple:
    """The fields ``end, beggar, detect, shuffle, limit`` of the tables of ``kind`` (`FOLDED`)."""
    return FOLDED[kind]


@intrinsic
def folded(typingctx, kind, step, passes_on, leader):
    """The `Options` of the tables of ``kind`` (a constant: COMMON, ONLY_EMPTY, ONLY_BEGGAR or
    ONLY_SHUFFLE), the fields that make the kind (`FOLDED`) typed as literals, so that each kind
    compiles a version of the pass with them folded in (as literal arguments did before the record:
    numba's tuple constructor would make them variables); ``step``, ``passes_on`` and ``leader`` as
    given (two players: any)."""
    if not isinstance(kind, types.IntegerLiteral):
        return None  # numba retries with the literal
    fixed = [types.literal(v) for v in FOLDED[kind.literal_value]]
    given = [types.unliteral(t) for t in (step, passes_on, leader)]
    typ = types.NamedTuple(fixed + given, Options)

    def codegen(context, builder, sig, args):
        members = [context.get_constant(types.unliteral(t), t.literal_value) for t in fixed]
        members += [context.cast(builder, v, a, t) for v, a, t in zip(args[1:], sig.args[1:], given)]
        return context.make_tuple(builder, typ, members)

    return typ(kind, step, passes_on, leader), codegen


# The kinds of table (`table_kind`'s answers). The first four are each a version of a fast pass with
# the options as constants; OTHER is every table the passes play with the options as variables.
COMMON, ONLY_EMPTY, ONLY_BEGGAR, ONLY_SHUFFLE, OTHER = range(5)
KINDS = ("common", "only_empty", "only_beggar", "only_shuffle", "other")
# the options each kind with constants fixes: end, beggar, detect, shuffle, limit (`folded`)
FOLDED = {COMMON: (END_TRICK, False, True, False, int(NO_LIMIT)),
          ONLY_EMPTY: (END_EMPTY, False, True, False, int(NO_LIMIT)),
          ONLY_BEGGAR: (END_TRICK, True, True, False, int(NO_LIMIT)),
          ONLY_SHUFFLE: (END_TRICK, False, False, True, int(NO_LIMIT))}


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def table_kind(prm):
    """The kind of table of the parameter array ``prm`` (`constants.pack_params`):

    * COMMON: a game ends with its trick, no Beggar jokers, no pile shuffle, no cut-off (most tables;
      ``direction``, ``exhausted_tribute``, ``leader``, ``shuffle_on_loop`` and ``unfinished`` may take
      any value: they do not change the version);
    * ONLY_EMPTY, ONLY_BEGGAR, ONLY_SHUFFLE: the common options but one, ``end='empty'``, Beggar
      jokers or ``shuffle_pile``;
    * OTHER: anything else (a cut-off, two of the options above, ``end='unable'``).

    A new option that changes play must be added here, or its tables go to OTHER only if it says so:
    tests/test_options.py plays every value of every option of `rule_options()` through the entry
    this chooses."""
    if prm[P_MAX_CARDS] >= 0:
        return OTHER
    beggar = prm[P_BEGGAR] != 0
    shuffle = prm[P_SHUFFLE_PILE] != 0
    trick = prm[P_END] == END_TRICK
    if trick and not beggar and not shuffle:
        return COMMON
    if sole_holder_wins(prm[P_END]) and not beggar and not shuffle:
        return ONLY_EMPTY
    if trick and beggar and not shuffle:
        return ONLY_BEGGAR
    if trick and not beggar and shuffle:
        return ONLY_SHUFFLE
    return OTHER


# the compiled entry of `batch` (a name of `engine.fast.KERNELS`) of each kind, for two players and
# for more; a kind without an entry of its own plays in the ``_rules`` entry (ONLY_SHUFFLE there with
# constants too, `batch._two_pass_rules`)
ENTRIES = {2: {COMMON: "two", ONLY_EMPTY: "two_empty", ONLY_BEGGAR: "two_beggar"}, 3: {COMMON: "multi"}}


def entry_for(prm, players: int) -> str:
    """The fast pass on bit-planes (a name of `engine.fast.KERNELS`) that plays ``prm`` at ``players``."""
    entries = ENTRIES[2 if players == 2 else 3]
    return entries.get(table_kind.py_func(prm), "two_rules" if players == 2 else "multi_rules")
