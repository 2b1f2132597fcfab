"""Games on an NVIDIA GPU (``device="cuda"``): the host side of `gpu_kernels`.

Two entries, each giving exactly what the CPU gives for the same seed and ids:

* `play_games_cuda` - the arrays of `engine.fast.play_games` (simulate, compare): the fast pass on
  the GPU, a thread a game at a time (`LANES`), then the games it hands back replayed on the CPU by
  the exact driver (`batch.replay_bits`), from the same deal and stream, exactly as
  `fast.play_games` does;
* `count_games_cuda` - a range of ids reduced on the GPU to histograms, wins and short lists (the
  `summary` kernels), for `run.summary_gpu`, which adds the listed games and builds the Summary.

Nothing here is imported by the CPU path: `check_device` imports numba's CUDA target only when a
run asks for ``device="cuda"`` (the ``cuda`` extra: ``pip install "beggarstats[cuda]"``). Under
numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``) the same kernels run on the CPU, slowly: the
tests hold them to the CPU engine that way.
"""

from __future__ import annotations

import os

import numpy as np

from .constants import INIT_ROWS, pack_params

__all__ = ["DEVICES", "check_device", "gpu_pass", "play_games_cuda", "count_games_cuda", "count_ranks_cuda",
           "play_rank_list", "check_ranks", "gpu_name", "deal_sizes", "LAUNCH_GAMES", "DEAL_GAMES", "LIST_CAPACITY",
           "RUN", "MAX_RANKS", "LANES"]

DEVICES = ("cpu", "cuda")
LAUNCH_GAMES = 1 << 24  # games a launch of the rows kernel (its arrays: about 0.5 GB at most)
LIST_CAPACITY = 1 << 18  # listed games a launch of the summary kernel keeps, per list
THREADS = 128  # threads a block
# How a launch shares its games among threads (`gpu_kernels.LANES`): 'refill' or 'fixed'; the same
# results either way. Read at each launch, so benchmarks/gpu.py can time both.
LANES = "refill"
_INSTALL = 'pip install "beggarstats[cuda]"'


def check_device(device) -> str:
    """``device`` as 'cpu' or 'cuda'; 'cuda' only where numba's CUDA target and a GPU (or its
    simulator) can be had, else one ValueError naming the parameter and what to install."""
    if device not in DEVICES:
        raise ValueError(f"The value for `device` must be one of 'cpu', 'cuda', but {device!r} was passed.")
    if device == "cpu":
        return device
    try:
        from numba import cuda
        import numba_cuda  # noqa: F401  (the maintained CUDA target; numba's own was removed)
    except ImportError:
        raise ValueError(f"`device='cuda'` needs numba's CUDA target, which is not installed: {_INSTALL} "
                         f"(an NVIDIA GPU and its driver are needed to run it).") from None
    if not _simulated() and not cuda.is_available():
        raise ValueError("`device='cuda'` found no usable NVIDIA GPU (no device, or no driver): run on a machine "
                         "with one, or use device='cpu'.")
    return device


def _simulated() -> bool:
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") == "1"


def gpu_name() -> str:
    """The GPU's name (for benchmark tables)."""
    from numba import cuda

    if _simulated():
        return "numba CUDA simulator"
    name = cuda.get_current_device().name
    return name.decode() if isinstance(name, bytes) else str(name)


def gpu_pass(rules) -> str:
    """The fast pass ``rules`` play on the CPU (`engine.fast`), which the GPU plays too; a deck the
    GPU cannot play is refused with a sentence."""
    from . import fast

    if fast.kernel_for(rules) != "bits":
        raise ValueError(f"`device='cuda'` plays decks of at most 64 cards; this deck has {rules.n_cards}: use "
                         f"device='cpu'.")
    return fast.fast_pass(rules)


def _blocks(n: int) -> int:
    return max(1, (n + THREADS - 1) // THREADS)


def _check_lanes(lanes) -> str:
    from .gpu_kernels import LANES as WAYS

    lanes = LANES if lanes is None else lanes
    if lanes not in WAYS:
        raise ValueError(f"The value for `lanes` must be one of {', '.join(map(repr, WAYS))}, but {lanes!r} was "
                         f"passed.")
    return lanes


def deal_sizes(rules) -> np.ndarray:
    """The hands' lengths of a random deal of ``rules``: card k to seat k mod n (`hands_bits.deal_planes`)."""
    n, N = rules.players, rules.n_cards
    return np.array([N // n + (1 if s < N % n else 0) for s in range(n)], np.int64)


def play_games_cuda(rules, seed: int, games, *, per_seat: bool = False, lanes: str | None = None,
                    blocks: int | None = None) -> dict[str, np.ndarray]:
    """`engine.fast.play_games` on the GPU: the same arrays for the same rules, seed and ids.
    ``lanes``: `gpu_kernels.LANES` (default `LANES`: 'refill', `gpu_refill`'s trick a step; 'fixed', a
    game a thread); ``blocks``: blocks a launch (default: a thread a game for 'fixed', `_default_blocks`
    for 'refill')."""
    from numba import cuda

    from . import batch
    from .fast import assemble, empty_raw

    kind = gpu_pass(rules)
    lanes = _check_lanes(lanes)
    p = rules.players
    games = np.ascontiguousarray(games, dtype=np.int64)
    seed = np.uint64(int(seed) % 2**64)
    deck = rules.deck_cards()
    prm = pack_params(rules)
    out_u32, out_small, seat_out = empty_raw(len(games), p)
    init_out = np.zeros((len(games) if per_seat else 1, INIT_ROWS, p), dtype=np.int64)
    need = np.zeros(len(games), dtype=np.uint8)
    d_deck, d_prm, d_sizes = cuda.to_device(deck), cuda.to_device(prm), cuda.to_device(deal_sizes(rules))
    step = DEAL_GAMES if lanes == "refill" else LAUNCH_GAMES
    for lo in range(0, len(games), step):
        hi = min(lo + step, len(games))
        m = hi - lo
        d_u32 = cuda.to_device(np.zeros((out_u32.shape[0], m), np.uint32))
        d_small = cuda.to_device(np.zeros((out_small.shape[0], m), np.int8))
        d_seat = cuda.to_device(np.zeros((m if per_seat else 1,) + seat_out.shape[1:], np.int64))
        d_init = cuda.to_device(np.zeros((m if per_seat else 1, INIT_ROWS, p), np.int64))
        d_need = cuda.to_device(np.zeros(m, np.uint8))
        d_games = cuda.to_device(games[lo:hi])
        if lanes == "refill":
            from .gpu_refill import deal_kernel, deal_words, refill_rows_kernel

            dp = cuda.device_array((deal_words(p), m), np.uint64)
            deal_kernel(p)[_blocks(m), THREADS](d_deck, seed, d_games, np.int64(0), np.int64(m), dp, d_init, per_seat)
            grid = blocks if blocks is not None else _default_blocks(m)
            refill_rows_kernel(kind, p)[grid, THREADS](dp, d_sizes, d_prm, np.int64(m), d_u32, d_small, d_seat, per_seat,
                                                       d_need)
        else:
            from .gpu_kernels import rows_kernel

            rows_kernel(kind, p)[blocks if blocks is not None else _blocks(m), THREADS](
                d_deck, d_prm, seed, d_games, d_u32, d_small, d_seat, d_init, per_seat, d_need)
        out_u32[:, lo:hi] = d_u32.copy_to_host()
        out_small[:, lo:hi] = d_small.copy_to_host()
        need[lo:hi] = d_need.copy_to_host()
        if per_seat:
            seat_out[lo:hi] = d_seat.copy_to_host()
            init_out[lo:hi] = d_init.copy_to_host()
    rows = np.flatnonzero(need)
    if rows.size:  # the games the pass hands back: the exact driver on the CPU, as engine.fast does
        if not per_seat:
            init_out = np.zeros((len(games), INIT_ROWS, p), dtype=np.int64)
        batch.replay_bits(deck, p, prm, seed, games, rows, out_u32, out_small, seat_out, init_out, per_seat)
    return assemble(out_u32, out_small, seat_out, init_out, per_seat)


def count_games_cuda(rules, seed: int, lo: int, count: int, *, cap: int, bar: int,
                     capacity: int = LIST_CAPACITY, blocks: int | None = None, lanes: str | None = None) -> dict:
    """Games ``lo .. lo + count - 1`` reduced on the GPU (the `summary` kernels).

    Returns a dict: ``hist_cards``, ``hist_tricks`` int64[cap + 1] and ``wins`` int64[players] of
    the games the fast pass decided within ``cap`` cards (wins: all it decided); ``handed_back``,
    ``over_cap``, ``candidates``: each a dict of `gpu_kernels.LIST_COLUMNS` -> int64 array (the
    games handed back to the exact driver; decided games longer than ``cap`` cards; decided games of
    at least ``bar`` cards), and ``listed`` int64[3], how many each list got (more than its
    ``capacity`` means it was cut short: the caller runs the range again another way). ``lanes``:
    `gpu_kernels.LANES` (default `LANES`); the result does not depend on it, nor on ``blocks``."""
    from numba import cuda

    kind = gpu_pass(rules)
    lanes = _check_lanes(lanes)
    p = rules.players
    seed = np.uint64(int(seed) % 2**64)
    d_deck, d_prm = cuda.to_device(rules.deck_cards()), cuda.to_device(pack_params(rules))

    if lanes == "refill":
        from .gpu_refill import deal_kernel, deal_words, refill_summary_kernel

        d_sizes, no_games = cuda.to_device(deal_sizes(rules)), cuda.to_device(np.zeros(0, np.int64))
        no_seats = cuda.to_device(np.zeros((1, 1, 1), np.int64))
        kernel = refill_summary_kernel(kind, p)

        def launch(counts):
            for a in range(lo, lo + count, DEAL_GAMES):
                m = min(DEAL_GAMES, lo + count - a)
                dp = cuda.device_array((deal_words(p), m), np.uint64)
                deal_kernel(p)[_blocks(m), THREADS](d_deck, seed, no_games, np.int64(a), np.int64(m), dp, no_seats,
                                                    False)
                kernel[blocks if blocks is not None else _default_blocks(m), THREADS](
                    dp, d_sizes, d_prm, np.int64(a), np.int64(m), *counts)
    else:
        from .gpu_kernels import summary_kernel

        def launch(counts):
            summary_kernel(kind, p)[_default_blocks(count) if blocks is None else blocks, THREADS](
                d_deck, d_prm, seed, np.int64(lo), np.int64(count), *counts)

    return _launch_counts(launch, players=p, cap=cap, bar=bar, capacity=capacity)


RUN = 64  # ranks a thread of the census steps through from one unranking
MAX_RANKS = 2**56  # decks of fewer deals unrank in 64-bit arithmetic (total * count of a kind < 2**63)
DEAL_GAMES = 1 << 22  # games dealt at once for a refill kernel (the buffer: 80 bytes a two-player game)


def check_ranks(rules) -> int:
    """The number of deals of ``rules``, which a GPU census unranks; a deck of too many is refused."""
    from .rank import n_deals

    total = n_deals(rules)
    if total >= MAX_RANKS:
        raise ValueError(f"`device='cuda'` unranks deals in 64-bit arithmetic, for decks of fewer than 2**56 deals; the "
                         f"{rules.deck.label()} deck has {total:.3g} for {rules.players} players: use device='cpu'.")
    return total


def count_ranks_cuda(rules, lo: int, count: int, *, cap: int, bar: int, capacity: int = LIST_CAPACITY,
                     blocks: int | None = None, run: int | None = None) -> dict:
    """Deal ranks ``lo .. lo + count - 1`` of ``rules`` (a census: `engine.gpu_census`) reduced on
    the GPU: the dict of `count_games_cuda`, the ids being ranks. ``run``: ranks a thread steps
    through from one unranking (default `RUN`; the result does not depend on it). The deals are made
    first, then played by the refill kernel of the census's version (`gpu_census.census_kernel`)."""
    from numba import cuda

    from .gpu_census import census_kernel, deal_kernel
    from .gpu_refill import deal_words
    from .rank import hand_sizes

    total = check_ranks(rules)
    run = RUN if run is None else run
    if isinstance(run, bool) or not isinstance(run, (int, np.integer)) or run < 1:
        raise ValueError(f"The value for `run` must be a whole number >= 1 (ranks a thread steps through), but {run!r} "
                         f"was passed.")
    p = rules.players
    d_counts, d_prm = cuda.to_device(np.asarray(rules.counts, np.int64)), cuda.to_device(pack_params(rules))
    d_sizes = cuda.to_device(np.asarray(hand_sizes(rules), np.int64))
    kernel = census_kernel(p)

    def launch(counts):
        for a in range(lo, lo + count, DEAL_GAMES):
            m = min(DEAL_GAMES, lo + count - a)
            dp = cuda.device_array((deal_words(p), m), np.uint64)
            deal_kernel(p)[_blocks((m + run - 1) // run), THREADS](d_counts, np.int64(total), d_sizes, np.int64(a),
                                                                        np.int64(m), np.int64(run), dp)
            kernel[blocks if blocks is not None else _default_blocks(m), THREADS](dp, d_sizes, d_prm, np.int64(a),
                                                                                  np.int64(m), *counts)

    return _launch_counts(launch, players=p, cap=cap, bar=bar, capacity=capacity)


def _launch_counts(launch, *, players: int, cap: int, bar: int, capacity: int) -> dict:
    """Run the counting kernels (``launch((cap, bar, hist_c, hist_t, wins, lists, n_listed))``, one launch or
    several adding to the same counts) and read their counts and lists back (`count_games_cuda`'s dict)."""
    from numba import cuda

    from .gpu_kernels import LIST_COLUMNS

    hist_c = cuda.to_device(np.zeros(cap + 1, np.uint64))
    hist_t = cuda.to_device(np.zeros(cap + 1, np.uint64))
    wins = cuda.to_device(np.zeros(players, np.uint64))
    lists = cuda.device_array((3, capacity, len(LIST_COLUMNS)), np.int64)
    listed = cuda.to_device(np.zeros(3, np.int64))
    launch((np.int64(cap), np.int64(bar), hist_c, hist_t, wins, lists, listed))
    n_listed = listed.copy_to_host()
    host_lists = lists.copy_to_host()
    names = ("handed_back", "over_cap", "candidates")
    out = {"hist_cards": hist_c.copy_to_host().astype(np.int64), "hist_tricks": hist_t.copy_to_host().astype(np.int64),
           "wins": wins.copy_to_host().astype(np.int64), "listed": n_listed}
    for k, name in enumerate(names):
        kept = host_lists[k, :min(int(n_listed[k]), capacity)]
        out[name] = {c: np.ascontiguousarray(kept[:, j]) for j, c in enumerate(LIST_COLUMNS)}
    return out


def play_rank_list(rules, ranks) -> dict[str, np.ndarray]:
    """The arrays of `census_kernel.play_ranks` for the sorted deal ranks ``ranks`` (the deals a GPU
    census hands back), played on the CPU by `play_ranks` itself, over runs of nearby ranks."""
    from .census_kernel import play_ranks
    from .fast import assemble, empty_raw

    ranks = np.asarray(ranks, np.int64)
    if not ranks.size:
        u32, small, seat = empty_raw(0, rules.players)
        return assemble(u32, small, seat, None, False)
    cuts = np.flatnonzero(np.diff(ranks) > RUN) + 1  # nearby ranks share one call
    parts = []
    for group in np.split(ranks, cuts):
        a = play_ranks(rules, int(group[0]), int(group[-1]) + 1)
        rows = group - group[0]
        parts.append({k: v[rows] for k, v in a.items()})
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}


def _default_blocks(count: int) -> int:
    """Blocks of a launch whose threads loop over games (the summary kernels, the 'refill' rows):
    enough to fill the GPU several times over, each block looping over many games so that its shared
    histograms are added to the grid's once."""
    if _simulated():
        return max(1, min(4, _blocks(count)))
    from numba import cuda

    sms = cuda.get_current_device().MULTIPROCESSOR_COUNT
    return max(1, min(_blocks(count), sms * 16))
