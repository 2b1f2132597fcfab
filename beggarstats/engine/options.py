"""The options as the kernels read them: one record, the facts derived from the rules worked out once,
and which tables a fast pass plays with them as constants.

`Options` is the record every kernel takes - both fast passes (`kernel_two.play_two`,
`kernel_multi.play_multi`) and the exact driver (`exact.play_one`) - built once from the parameter
array of `Rules` (`constants.pack_params`) by `options_of`, which works out the facts the rules imply
once for every engine: ``detect`` (Brent's loop search) is `loop_search` of the pile shuffle (a
shuffled pile is not deterministic play), and the cut-off is a card count with one value for none
(`cut_off_count`: the array's -1 is `constants.NO_LIMIT`). A tuple of scalars, so the kernels stay
free of Python objects (numba passes it as its fields, one machine word each).

The fast passes play the most common tables with the options folded in as constants (a quarter of
the standard table's speed, benchmarks/README.md), and every other table with the options as
variables. Which tables are "common" is `table_kind`, read from the record; which compiled version
of a pass plays each kind is the table of `engine.passes`.
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit, types
from numba.extending import intrinsic

from .constants import (END_EMPTY, END_TRICK, NO_LIMIT, P_BEGGAR, P_END, P_LEADER, P_MAX_CARDS, P_MOST,
                        P_PASSES_ON, P_SHUFFLE_ON_LOOP, P_SHUFFLE_PILE, P_STEP)
from .kernel_cache import install as _install_kernel_cache
from .rulebook import sole_holder_wins

__all__ = ["Options", "options_of", "options_for", "loop_search", "cut_off_count", "folded", "folded_values", "FOLDED",
           "with_limit", "record", "COMMON", "ONLY_EMPTY", "ONLY_BEGGAR", "ONLY_SHUFFLE", "OTHER", "KINDS", "table_kind"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)

# end: END_*; beggar: Beggar jokers; detect: run Brent's loop search (`loop_search`); shuffle: shuffle_pile;
# limit: the cut-off as a card count (`cut_off_count`: NO_LIMIT for none); step: 1 or players - 1 (direction);
# passes_on: exhausted_tribute 'passes_on'; leader: LEADER_*; shuffle_on_loop; most: unfinished 'most_cards'.
# The last two are the exact driver's alone: a fast pass hands back every game they matter to (a loop, a cut-off).
Options = namedtuple("Options", "end beggar detect shuffle limit step passes_on leader shuffle_on_loop most")


@njit(nogil=True, cache=True, inline="always")
def loop_search(shuffle):
    """Whether a game is searched for loops: only deterministic play can repeat a state for ever, so a
    shuffled pile (shuffle_pile) means no loop search (RULES.md section 6). Worked out here once."""
    return not shuffle


@njit(nogil=True, cache=True, inline="always")
def cut_off_count(max_cards):
    """The cut-off as a card count from the parameter array's ``max_cards`` (-1: none, NO_LIMIT).
    Decoded here once; every kernel reads the record's ``limit``."""
    return NO_LIMIT if max_cards < 0 else max_cards


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def options_of(prm):
    """The `Options` of the parameter array ``prm``, every field a variable."""
    shuffle = prm[P_SHUFFLE_PILE] != 0
    return Options(prm[P_END], prm[P_BEGGAR] != 0, loop_search(shuffle), shuffle, cut_off_count(prm[P_MAX_CARDS]),
                   prm[P_STEP], prm[P_PASSES_ON] != 0, prm[P_LEADER], prm[P_SHUFFLE_ON_LOOP] != 0, prm[P_MOST] != 0)


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


# the fields a fast pass reads, in the record's order (`record` fills in the others)
_PASS_FIELDS = 8


@intrinsic(prefer_literal=True)
def record(typingctx, end, beggar, detect, shuffle, limit, step, passes_on, leader):
    """The `Options` of these fields, each of the type it comes with: a field given as a constant stays
    one (numba's tuple constructor would make it a variable). For a pass that takes the fields one by
    one and hands them on as a record (`kernel_multi._play`). The exact driver's own fields
    (``shuffle_on_loop``, ``most``) are constant False: a fast pass never reads them."""
    fields = [end, beggar, detect, shuffle, limit, step, passes_on, leader]
    rest = [types.literal(False)] * (len(Options._fields) - _PASS_FIELDS)
    typ = types.NamedTuple(fields + rest, Options)

    def codegen(context, builder, sig, args):
        return context.make_tuple(builder, typ, list(args) + [context.get_constant(types.boolean, False)] * len(rest))

    return typ(*fields), codegen


def options_for(rules) -> Options:
    """The `Options` of ``rules``, from Python (the same function as the kernels')."""
    from .constants import pack_params

    return options_of.py_func(pack_params(rules))


def folded_values(kind) -> tuple:
    """The fields ``end, beggar, detect, shuffle, limit`` of the tables of ``kind`` (`FOLDED`)."""
    return FOLDED[kind]


@intrinsic
def folded(typingctx, kind, o):
    """The record ``o`` (`options_of`) with the fields that make the tables of ``kind`` (a constant:
    COMMON, ONLY_EMPTY, ONLY_BEGGAR or ONLY_SHUFFLE; `FOLDED`) typed as literals, so that each kind
    compiles a version of the pass with them folded in (numba's tuple constructor would make them
    variables); the other fields as ``o`` has them."""
    if not isinstance(kind, types.IntegerLiteral):
        return None  # numba retries with the literal
    if not isinstance(o, types.NamedTuple) or o.instance_class is not Options:
        return None
    fixed = [types.literal(v) for v in FOLDED[kind.literal_value]]
    given = [types.unliteral(t) for t in o.types[len(fixed):]]
    typ = types.NamedTuple(fixed + given, Options)

    def codegen(context, builder, sig, args):
        record = args[1]
        members = [context.get_constant(types.unliteral(t), t.literal_value) for t in fixed]
        members += [context.cast(builder, builder.extract_value(record, i), o.types[i], t)
                    for i, t in enumerate(given, start=len(fixed))]
        return context.make_tuple(builder, typ, members)

    return typ(kind, o), codegen


# The kinds of table (`table_kind`'s answers). The first four are each a version of a fast pass with
# the options as constants; OTHER is every table the passes play with the options as variables.
COMMON, ONLY_EMPTY, ONLY_BEGGAR, ONLY_SHUFFLE, OTHER = range(5)
KINDS = ("common", "only_empty", "only_beggar", "only_shuffle", "other")


def _kind_fields(end, beggar, shuffle):
    """end, beggar, detect, shuffle, limit of a kind with no cut-off: ``detect`` derived as `options_of` derives it."""
    return end, beggar, loop_search.py_func(shuffle), shuffle, int(NO_LIMIT)


# the options each kind with constants fixes: end, beggar, detect, shuffle, limit (`folded`)
FOLDED = {COMMON: _kind_fields(END_TRICK, False, False),
          ONLY_EMPTY: _kind_fields(END_EMPTY, False, False),
          ONLY_BEGGAR: _kind_fields(END_TRICK, True, False),
          ONLY_SHUFFLE: _kind_fields(END_TRICK, False, True)}


@njit(nogil=True, cache=True, _nrt=False, inline="always")
def table_kind(o):
    """The kind of table of the options record ``o`` (`options_of`):

    * COMMON: a game ends with its trick, no Beggar jokers, no pile shuffle, no cut-off (most tables;
      ``direction``, ``exhausted_tribute``, ``leader``, ``shuffle_on_loop`` and ``unfinished`` may take
      any value: they do not change the version);
    * ONLY_EMPTY, ONLY_BEGGAR, ONLY_SHUFFLE: the common options but one, ``end='empty'``, Beggar
      jokers or ``shuffle_pile``;
    * OTHER: anything else (a cut-off, two of the options above, ``end='unable'``).

    A new option that changes play must be added here, or its tables go to OTHER only if it says so:
    tests/engine/test_options.py plays every value of every option of `rule_options()` through the version
    `engine.passes` chooses."""
    if o.limit != NO_LIMIT:
        return OTHER
    trick = o.end == END_TRICK
    if trick and not o.beggar and not o.shuffle:
        return COMMON
    if sole_holder_wins(o.end) and not o.beggar and not o.shuffle:
        return ONLY_EMPTY
    if trick and o.beggar and not o.shuffle:
        return ONLY_BEGGAR
    if trick and not o.beggar and o.shuffle:
        return ONLY_SHUFFLE
    return OTHER

