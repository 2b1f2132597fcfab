"""`play_games`: the batch entry point over the numba kernels.

One call plays a chunk of random games inside numba (GIL released, so joblib threads scale) and
returns one numpy array per figure. It picks the fastest kernel valid for the rules:

* ``"bits"`` - hands as bit-planes in uint64 words: decks of at most 64 cards (standard,
  italian, jokers, small custom decks), every rule. Each game first goes through a fast pass -
  `kernel_two` (two players, the game in registers) or `kernel_multi` (any number of players) -
  which plays it as far as it can prove the result (a win, no loop, no cut-off); the others are
  replayed by the exact driver (`exact.py`: Brent, cycle start, replay to the repeat) on planes;
* ``"general"`` - the exact driver on ring-buffer hands, one step per card: any deck.

The loops over a batch are in `batch.py`.

Both give the same games, figure for figure, as the reference engine (tests/engine/test_differential.py).
"""

from __future__ import annotations

import numpy as np

from . import batch, hands_bits, kernel_cache
from .options import options_for
from .passes import version_for
from .constants import (INIT_ACES, INIT_HELD, INIT_JACKS, INIT_JOKERS, INIT_KINGS, INIT_QUEENS, INIT_ROWS, INIT_TRIBUTE,
                        OUTCOME_CODES, R_CARDS, R_LOOP_CARDS, R_LOOP_START_CARDS, R_LOOP_START_TRICKS, R_LOOP_TRICKS,
                        R_LOOPED, R_OUTCOME, R_TRICKS, R_WINNER, SEAT_MIN, SEAT_OUT, SEAT_PLACE, SEAT_ROWS, SMALL_ROWS,
                        U32_ROWS, pack_params)

__all__ = ["play_games", "kernel_for", "fast_pass", "KERNELS", "kernels_for", "kernels_ready", "compile_kernels", "compile_apart",
           "RESULT_KEYS", "SEAT_KEYS", "OUTCOME_CODES"]

kernel_cache.guard()  # every kernel is defined: a damaged cache file is discarded, never loaded

RESULT_KEYS = ("cards", "tricks", "outcome", "winner", "looped",
               "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")
SEAT_KEYS = ("hand_size", "jacks", "queens", "kings", "aces", "jokers", "tribute_total",
             "min_cards", "place", "out_cards")


def kernel_for(rules) -> str:
    """Name of the kernel `play_games` uses for ``rules``: 'bits' or 'general'."""
    return "bits" if hands_bits.supports(rules.n_cards, rules.players) else "general"


# The units numba compiles (each a cached entry of `batch`, compiled by the first run that needs it):
# the fast passes on bit-planes - the "batch" versions of `passes.VERSIONS`: two players or more, the
# common options ('two', 'multi') or any ('two_rules', 'multi_rules'), and two players with only
# ``end='empty'`` or only Beggar jokers ('two_empty', 'two_beggar'), `passes.version_for` choosing - the
# exact driver on bit-planes, the exact driver on ring buffers.
KERNELS = ("two", "two_rules", "two_empty", "two_beggar", "multi", "multi_rules", "exact", "general")
FAST_PASSES = KERNELS[:6]


def kernels_for(rules) -> tuple[str, ...]:
    """The kernels a run of ``rules`` needs from its first game: the fast pass of its table on
    bit-planes ('two', 'two_rules', 'multi' or 'multi_rules'), or 'general'. 'exact' is compiled when
    a run first hands it a game (a loop or a cut-off), which most tables never do."""
    return ("general",) if kernel_for(rules) == "general" else (fast_pass(rules),)


def fast_pass(rules) -> str:
    """The fast pass on bit-planes for the table size and options of ``rules``: a version of
    `passes.VERSIONS` (and its entry of `KERNELS`), which the GPU plays too."""
    return version_for(options_for(rules), rules.players)


def _entry(kernel: str):
    entries = {"two": batch.fast_pass_two, "two_rules": batch.fast_pass_two_rules,
               "two_empty": batch.fast_pass_two_empty, "two_beggar": batch.fast_pass_two_beggar,
               "multi": batch.fast_pass_multi,
               "multi_rules": batch.fast_pass_multi_rules, "exact": batch.replay_bits,
               "general": batch.play_random_general}
    if kernel not in entries:
        raise ValueError(f"The value for `kernel` must be one of {', '.join(map(repr, KERNELS))}, "
                         f"but {kernel!r} was passed.")
    return entries[kernel]


def kernels_ready(kernel: str) -> bool:
    """True if ``kernel`` (one of `KERNELS`) starts without compiling: compiled in this process, or
    saved in the per-user kernel cache (`beggarstats.engine.kernel_cache`) with its files as they
    were saved (an index that merely exists may be truncated or another kernel's)."""
    entry = _entry(kernel)
    return bool(entry.signatures) or kernel_cache.is_sealed(entry)


def compile_kernels(kernel: str) -> None:
    """Compile ``kernel`` (one of `KERNELS`), or load it from the cache, by playing one game through
    its entry alone (every table size and option of the entry is a run-time value, so one game
    compiles all of them): a batch run then starts at full speed."""
    from ..game.rules import Rules

    _entry(kernel)  # checks the name
    rules = {"two_rules": Rules(end="unable"), "two_empty": Rules(end="empty"),
             "two_beggar": Rules(jokers=1, joker_mode="beggar"), "multi_rules": Rules(players=3, end="empty"),
             "multi": Rules(players=3)}.get(kernel, Rules())
    _run_entry(kernel, rules, np.uint64(0), np.zeros(1, dtype=np.int64), False)


def compile_apart(kernel: str) -> float:
    """Compile ``kernel`` in this process saving only its entry to the kernel cache (the helpers it
    calls are linked into it): run by `run.warmup` in worker processes, several kernels at once,
    without two processes ever writing the same cache files. Returns the CPU seconds taken."""
    import time

    from .kernel_cache import saving_only

    started = time.process_time()
    with saving_only(_entry(kernel)):
        compile_kernels(kernel)
    return time.process_time() - started


def empty_raw(n_games: int, p: int):
    """The kernels' result arrays, one row per figure so that each figure is a contiguous row
    handed out without a copy: uint32[6, n] (cards, tricks, loop_start_tricks, loop_start_cards,
    loop_tricks, loop_cards), int8[3, n] (outcome, winner, looped), int64[n, 3, p] per seat (min_cards,
    place, out_cards; written only when asked for, so untouched memory otherwise). The rows are
    named in constants.py (``R_*``, ``SEAT_*``)."""
    return (np.zeros((U32_ROWS, n_games), dtype=np.uint32), np.zeros((SMALL_ROWS, n_games), dtype=np.int8),
            np.zeros((n_games, SEAT_ROWS, p), dtype=np.int64))


def assemble(out_u32, out_small, seat_out, init_out, per_seat: bool) -> dict[str, np.ndarray]:
    res = {
        "cards": out_u32[R_CARDS],
        "tricks": out_u32[R_TRICKS],
        "outcome": out_small[R_OUTCOME].view(np.uint8),
        "winner": out_small[R_WINNER],
        "looped": out_small[R_LOOPED].view(bool),
        "loop_start_tricks": out_u32[R_LOOP_START_TRICKS],
        "loop_start_cards": out_u32[R_LOOP_START_CARDS],
        "loop_tricks": out_u32[R_LOOP_TRICKS],
        "loop_cards": out_u32[R_LOOP_CARDS],
    }
    if per_seat:
        if init_out is not None:
            for key, row in (("hand_size", INIT_HELD), ("jacks", INIT_JACKS), ("queens", INIT_QUEENS),
                             ("kings", INIT_KINGS), ("aces", INIT_ACES), ("jokers", INIT_JOKERS)):
                res[key] = init_out[:, row, :].astype(np.uint8)
            res["tribute_total"] = init_out[:, INIT_TRIBUTE, :].astype(np.uint16)
        res["min_cards"] = seat_out[:, SEAT_MIN, :].astype(np.int16)
        res["place"] = seat_out[:, SEAT_PLACE, :].astype(np.int8)
        res["out_cards"] = seat_out[:, SEAT_OUT, :].astype(np.int64)
    return res


def play_games(rules, seed: int, games, *, per_seat: bool = False, kernel: str | None = None) -> dict[str, np.ndarray]:
    """Play the random games ``games`` of the table seeded ``seed`` under ``rules``.

    Game ``g``'s deal and random stream are exactly those of ``deals.random_deal(seed, g, rules)``,
    so any game can be replayed by the reference engine, whatever the chunking.

    Parameters
    ----------
    rules : Rules
    seed : int
        Table seed (0 <= seed < 2**64).
    games : array_like of int64
        Game ids.
    per_seat : bool
        Also return the per-seat figures (arrays of shape (n, players)).
    kernel : {'bits', 'general'}, optional
        Force a kernel (tests and benchmarks); default: the fastest valid one (`kernel_for`).

    Returns
    -------
    dict of str to numpy.ndarray
        Per game (n = len(games)): ``cards`` uint32 (cards played; at the first repeated state for
        a loop, ``max_cards`` for a cut-off), ``tricks`` uint32 (piles taken), ``outcome`` uint8
        (0 win, 1 loop, 2 cutoff), ``winner`` int8 (-1 none), ``looped`` bool (a trick-boundary
        state repeated, also for shuffle_on_loop games that went on), ``loop_start_tricks``,
        ``loop_start_cards``, ``loop_tricks``, ``loop_cards`` uint32 (0 unless looped).
        With ``per_seat`` (p = players): ``hand_size``, ``jacks``, ``queens``, ``kings``,
        ``aces``, ``jokers`` uint8[n, p] (the initial hand: its size and its penalty cards),
        ``tribute_total`` uint16[n, p] (sum of the tributes of the initial hand), ``min_cards``
        int16[n, p] (fewest cards held at a trick boundary), ``place`` int8[n, p] (1 = winner,
        -1 = none), ``out_cards`` int64[n, p] (cards played when the seat went out, -1 = never).
    """
    games = np.ascontiguousarray(games, dtype=np.int64)
    kernel = kernel or kernel_for(rules)
    if kernel == "bits":
        kernel = fast_pass(rules)
    elif kernel != "general":
        raise ValueError(f"The value for `kernel` must be 'bits' or 'general', but {kernel!r} was passed.")
    return _run_entry(kernel, rules, np.uint64(int(seed) % 2**64), games, per_seat)


def _run_entry(kernel, rules, seed, games, per_seat):
    """Play ``games`` through the entry of ``kernel`` (for a fast pass, then the exact driver on the
    games handed back; 'exact' alone replays every game) and assemble the figures."""
    p = rules.players
    deck = rules.deck_cards()
    prm = pack_params(rules)
    out_u32, out_small, seat_out = empty_raw(len(games), p)
    init_out = np.zeros((len(games), INIT_ROWS, p), dtype=np.int64)
    outs = (out_u32, out_small, seat_out, init_out, per_seat)
    if kernel == "general":
        batch.play_random_general(deck, p, prm, seed, games, out_u32, out_small, seat_out, init_out)
    elif kernel == "exact":
        batch.replay_bits(deck, p, prm, seed, games, np.arange(len(games)), *outs)
    else:
        need = np.zeros(len(games), dtype=np.uint8)
        if kernel.startswith("two"):
            _entry(kernel)(deck, prm, seed, games, *outs, need)
        else:
            _entry(kernel)(deck, p, prm, seed, games, *outs, need)
        rows = np.flatnonzero(need)
        if rows.size:  # the exact driver, compiled the first time a run needs it
            batch.replay_bits(deck, p, prm, seed, games, rows, *outs)
    return assemble(out_u32, out_small, seat_out, init_out, per_seat)
