"""`chain_cells`: the transitions of the trick-boundary states, measured from random uneven deals.

A state is every seat's count in the order of play from the leader (seats out left out): for two
players with 52 cards, the leader's count 1..51. For each state, ``n_deals`` random uneven deals
with those counts (`engine.uneven_play.uneven_steps`: game ids ``i * n_deals ..`` of the table
``seed`` for state i, so every state's deals are their own) are played to the first trick
boundary at or after ``horizon`` cards; the state met there, or the end of the game, and the
cards played make the cells (from, to, cards, count) that `analysis.chain.TailChain` reads
(`bs.tail_chain` measures and reads in one call).

The number of states is the number of compositions of the deck into 2..players positive parts:
51 for two players, 1,326 for three, 22,151 for four; five and six players (272,051 and 2,621,111
states) are refused with what they would cost (`chain_cost`) rather than grouped.
"""

from __future__ import annotations

import functools
import hashlib
import io
import itertools
import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from ..engine.uneven_play import uneven_steps
from ..game.checks import MAX_DEALS_PER_STATE, MAX_HORIZON, check_n_jobs, check_seed, whole
from ..engine.rank import hand_sizes
from ..game.rules import RULES_VERSION, Rules, check_rules, same_games_as_now
from .outputs import write_bytes, write_text
from .parallel import run_chunks
from .store_files import read_checked

MAX_CELLS_BYTES = 2**30  # compressed cell counts: megabytes at most

__all__ = ["chain_cells", "ChainCells", "chain_states", "state_codes", "save_cells", "load_cells", "mixing_sample", "MAX_STATES",
           "ABSORBED", "chain_cost", "CPU_PER_CARD", "BYTES_PER_CELL", "check_chain_run", "measure_cells"]

ABSORBED = -1  # the ``to`` of a transition in which the game ended

MAX_STATES = 25_000  # four players with a standard deck; five (about 2.7e5 states) are refused
# what a transition costs, for `chain_cost`: CPU seconds per card played by `uneven_steps`, measured on
# the four-player chain (data/tail/results-players.json: its CPU time over its cards; tests check it),
# and bytes per cell: the peak memory of measuring it over its cells (the interpreter and kernels included)
CPU_PER_CARD = 1.1e-7
BYTES_PER_CELL = 200


def state_codes(counts, base: int) -> np.ndarray:
    """One int64 per state (rows of ``counts``, zeros for seats out, in the order of play from the
    leader): the positive counts as digits of ``base``, first count lowest. Zeros are dropped, so
    a state and its seats-out-removed form share a code."""
    counts = np.asarray(counts, dtype=np.int64)
    if counts.ndim == 1:
        counts = counts[None, :]
    pos = np.cumsum(counts > 0, axis=1) - 1
    weight = np.where(counts > 0, np.power(np.int64(base), np.maximum(pos, 0)), 0)
    return (counts * weight).sum(axis=1)


@dataclass(frozen=True)
class ChainCells:
    """What `chain_cells` measured: ``count`` deals went from state ``frm`` to state ``to``
    (`ABSORBED`: the game ended) in ``cards`` cards. ``states``: each state's counts in the order
    of play from the leader; ``start``: the state of a standard deal; state i played games
    ``i * n_deals .. (i + 1) * n_deals - 1`` of the table ``seed``."""

    rules: Rules
    seed: int
    horizon: int
    n_deals: int
    states: tuple
    start: int
    frm: np.ndarray
    to: np.ndarray
    cards: np.ndarray
    count: np.ndarray


def chain_states(n_cards: int, players: int) -> tuple:
    """Every state of ``players`` seats and ``n_cards`` cards: the compositions of ``n_cards`` into
    ``players``, ``players - 1``, ... 2 positive parts (the leader's count first)."""
    out = []
    for m in range(players, 1, -1):
        for cuts in itertools.combinations(range(1, n_cards), m - 1):
            b = (0,) + cuts + (n_cards,)
            out.append(tuple(b[k + 1] - b[k] for k in range(m)))
    return tuple(out)


def _count_states(n_cards: int, players: int) -> int:
    from math import comb

    return sum(comb(n_cards - 1, m - 1) for m in range(2, players + 1))


def chain_cost(rules, *, n_deals: int, horizon: int) -> dict:
    """What `chain_cells` would take for ``rules``: ``states``, ``deals`` (states x n_deals),
    ``cards`` (deals x horizon: each deal plays to the horizon unless its game ends first, so this
    is about right for horizons below the mean game length), ``cpu_hours`` (at `CPU_PER_CARD`),
    ``cells`` (at most one per deal) and ``memory_gb`` (at `BYTES_PER_CELL`)."""
    states = _count_states(rules.n_cards, rules.players)
    deals = states * int(n_deals)
    cells = deals
    return dict(states=states, deals=deals, cards=float(deals) * horizon, cpu_hours=deals * horizon * CPU_PER_CARD / 3600,
                cells=cells, memory_gb=cells * BYTES_PER_CELL / 1e9)


def _seat_sizes(state, step: int):
    """Hand sizes by seat for ``state`` (counts in the order of play from seat 0, the leader)."""
    m = len(state)
    sizes = [0] * m
    for k, c in enumerate(state):
        sizes[(k * step) % m] = c
    return sizes


def _work(lo, hi, *, rules, seed, n_deals, horizon, states, codes):
    base = rules.n_cards + 1
    cells = []
    for i in range(lo, hi):
        state = states[i]
        m = len(state)
        r = rules if m == rules.players else replace(rules, players=m)
        step = 1 if r.direction == "cw" else m - 1
        games = np.arange(i * n_deals, (i + 1) * n_deals, dtype=np.int64)
        res = uneven_steps(r, seed, games, _seat_sizes(state, step), 0, horizon)
        order = (res["leader"][:, None] + step * np.arange(m)[None, :]) % m
        counts = np.take_along_axis(res["held"], order, axis=1)
        to = np.searchsorted(codes, state_codes(counts, base))
        to = np.where(res["over"], ABSORBED, to)
        key, n = np.unique(np.stack([to, res["cards"]]), axis=1, return_counts=True)
        cells.append(np.stack([np.full(key.shape[1], i), key[0], key[1], n]))
    return np.concatenate(cells, axis=1)


def check_chain_run(rules, seed, n_deals, horizon, n_jobs) -> tuple:
    """The arguments every chain measurement shares (`chain_cells`, `tail_chain_cards.card_chain_cells`),
    checked: ``(rules, seed, n_deals, horizon, n_jobs)``."""
    return (check_rules(rules), check_seed(seed, none=False),
            whole("n_deals", n_deals, 1, MAX_DEALS_PER_STATE),  # a state's deals are one task, in memory
            whole("horizon", horizon, 1, MAX_HORIZON), check_n_jobs(n_jobs))


def measure_cells(work, n_states: int, only, *, n_jobs, progress, desc) -> np.ndarray:
    """The cells (rows: from, to, cards, count) that ``work(lo, hi)`` measures for the states lo..hi-1,
    of every state of ``n_states`` or of those ``only`` names, in the order of `ChainCells`."""
    todo = [(k, k + 1) for k in sorted(set(int(k) for k in only))] if only is not None else [(0, n_states)]
    parts = []
    run_chunks(work, todo, sink=lambda lo, hi, cells: parts.append(cells), n_jobs=n_jobs,
               chunk_size=max(1, min(64, n_states // 8)), progress=progress, unit="state", desc=desc)
    cells = np.concatenate(parts, axis=1)
    return cells[:, np.lexsort((cells[2], cells[1], cells[0]))]


def chain_cells(rules=None, *, seed, n_deals: int = 20_000, horizon: int = 100, n_jobs=None,
                progress=False, states=None) -> ChainCells:
    """Measure the trick-boundary chain of ``rules`` from random uneven deals.

    Parameters
    ----------
    rules : Rules, optional
        Default `Rules()`. Deterministic play (no ``shuffle_on_loop``), a deck of at most 64 cards,
        at most `MAX_STATES` states (2-4 players with a standard deck).
    seed : int
        The table seed: state i plays games ``i * n_deals .. (i + 1) * n_deals - 1``; the chain is
        the same whatever ``n_jobs``.
    n_deals : int
        Random uneven deals per state.
    horizon : int
        Cards a transition plays at least (it stops at the first trick boundary at or after it).
    n_jobs : int, optional
        joblib workers (threads; scikit-learn's convention: None is 1 unless a ``joblib.parallel_config``
        context says otherwise, -1 all cores).
    progress : bool or 'notebook'
        A bar counting states.
    states : sequence of int, optional
        Measure only these state indices (the others get no cells): a check of committed data.

    Returns
    -------
    ChainCells
    """
    rules, seed, n_deals, horizon, n_jobs = check_chain_run(rules, seed, n_deals, horizon, n_jobs)
    n_states = _count_states(rules.n_cards, rules.players)
    if n_states > MAX_STATES:
        cost = chain_cost(rules, n_deals=n_deals, horizon=horizon)
        raise ValueError(f"The chain of {rules.players} players and {rules.n_cards} cards has {n_states:,} states, "
                         f"more than the {MAX_STATES:,} measured here: at n_deals={n_deals:,} and horizon={horizon:,} "
                         f"it would play about {cost['cards']:.2g} cards (about {cost['cpu_hours']:.3g} CPU-hours) and "
                         f"hold up to {cost['cells']:.2g} cells (about {cost['memory_gb']:.3g} GB): pass `rules` with "
                         f"fewer players or cards.")
    if (n_states * n_deals + n_deals) >= 2**63:
        raise ValueError("The value for `n_deals` is too large: the game ids of the states would not fit in int64.")
    every = chain_states(rules.n_cards, rules.players)
    codes = state_codes(np.array([s + (0,) * (rules.players - len(s)) for s in every]), rules.n_cards + 1)
    order = np.argsort(codes)
    # states sorted by code, so that a code's index is found by searchsorted
    every = tuple(every[k] for k in order)
    codes = codes[order]
    n = rules.players
    even = hand_sizes(rules)
    step = 1 if rules.direction == "cw" else n - 1
    start_state = tuple(even[(k * step) % n] for k in range(n))
    start = int(np.searchsorted(codes, state_codes(np.array(start_state), rules.n_cards + 1)[0]))
    work = functools.partial(_work, rules=rules, seed=seed, n_deals=n_deals, horizon=horizon, states=every,
                             codes=codes)
    cells = measure_cells(work, len(every), states, n_jobs=n_jobs, progress=progress, desc="tail chain")
    return ChainCells(rules=rules, seed=seed, horizon=horizon, n_deals=n_deals, states=every, start=start,
                      frm=cells[0], to=cells[1], cards=cells[2], count=cells[3])


def save_cells(cells: ChainCells, path) -> Path:
    """Write ``cells`` to ``path`` (.npz: the cells as int32 columns) and ``path`` .json beside it
    (rules, seed, horizon, n_deals, start, and the sha256 of the .npz), each replaced atomically."""
    path = Path(path)
    arrays = {k: np.asarray(getattr(cells, k), dtype=np.int32) for k in ("frm", "to", "cards", "count")}
    buf = io.BytesIO()
    np.savez_compressed(buf, states=np.array(["/".join(map(str, s)) for s in cells.states]), **arrays)
    data = buf.getvalue()
    meta = dict(format=1, rules=cells.rules.to_dict(), seed=cells.seed, horizon=cells.horizon, n_deals=cells.n_deals,
                start=cells.start, rules_version=RULES_VERSION, sha256=hashlib.sha256(data).hexdigest())
    write_bytes(path, data, what="tail-chain cells")
    write_text(path.with_suffix(".json"), json.dumps(meta, indent=1) + "\n", what="tail-chain cells")
    return path


def load_cells(path) -> ChainCells:
    """Read cells written by `save_cells`; a file whose checksum or contents do not match, or of
    another `RULES_VERSION`, is refused (ValueError naming the file), never loaded."""
    path = Path(path)
    try:
        meta = json.loads(read_checked(path.with_suffix(".json"), 2**20, "tail-chain cells' record").decode())
        data = read_checked(path, MAX_CELLS_BYTES, "tail-chain cells")
    except (OSError, ValueError) as e:
        raise ValueError(f"The tail-chain cells {path} cannot be read: {e}") from None  # names: the cells file by its path
    if hashlib.sha256(data).hexdigest() != meta.get("sha256"):
        raise ValueError(f"The tail-chain cells {path} are damaged: their sha256 is not the one in "
                         f"{path.with_suffix('.json').name}.")  # names: the cells file by its path
    if not same_games_as_now(meta.get("rules_version"), meta.get("rules")):
        raise ValueError(f"The tail-chain cells {path} were measured under RULES_VERSION "
                         f"{meta.get('rules_version')}, not {RULES_VERSION}: measure them again.")  # names: the cells file by its path
    z = np.load(io.BytesIO(data))
    states = tuple(tuple(int(c) for c in s.split("/")) for s in z["states"])
    return ChainCells(rules=Rules.from_dict(meta["rules"]), seed=int(meta["seed"]), horizon=int(meta["horizon"]),
                      n_deals=int(meta["n_deals"]), states=states, start=int(meta["start"]),
                      **{k: z[k].astype(np.int64) for k in ("frm", "to", "cards", "count")})


def mixing_sample(summary, *, first: int = 1000, every: int = 200, tail_gap: int = 200, per_state: int = 50,
                  seed: int = 0, points: int | None = None):
    """The mixing assumption's data: trick-boundary states of the longest games of ``summary``
    (two players: its ``longest``, replayed with the reference engine by (seed, game)) and the
    next trick from each, beside random uneven deals of the same split.

    A real game gives its first boundary at or after ``first`` cards, then one every ``every``
    cards, up to ``tail_gap`` cards before its end (so that no point is where the game is about to
    end: the long games are chosen by their length). Each point's state is played on for one trick
    from ``per_state`` random uneven deals (games ``k * per_state ..`` of the table ``seed`` for
    point k; ``points``: only the first so many points get them, a check of committed data).

    Returns a DataFrame, one row per trick: ``source`` ('long game' or 'random deal'), ``game``
    (the long game's id; for a random deal, that of its point), ``at_cards`` (cards played at the
    point), ``leader_cards`` (the leader's count), ``trick_cards`` (cards of the next trick),
    ``kept`` (the leader took it), ``ended`` (the game ended in it).
    """
    import pandas as pd

    from .simulate import replay

    rules = summary.rules
    if rules.players != 2:
        raise ValueError(f"`mixing_sample` is for two players, but the summary's rules have {rules.players}.")
    n_cards = rules.n_cards
    rows = []
    for g in summary.longest["game"]:
        _, r = replay(summary.seed, int(g), rules)
        played, mark = 0, first
        for k in range(len(r.trace) - 1):
            played += r.trace[k].cards
            if played > r.cards - tail_gap:
                break
            if played >= mark:
                nxt = r.trace[k + 1]
                rows.append(dict(source="long game", game=int(g), at_cards=played,
                                 leader_cards=int(r.trace[k].hand_sizes[nxt.leader]), trick_cards=nxt.cards,
                                 kept=nxt.taker == nxt.leader, ended=False))
                while mark <= played:
                    mark += every
    real = pd.DataFrame(rows)
    parts = [real]
    for k, row in enumerate(real.itertuples()):
        if points is not None and k >= points:
            break
        games = np.arange(k * per_state, (k + 1) * per_state, dtype=np.int64)
        res = uneven_steps(rules, seed, games, (row.leader_cards, n_cards - row.leader_cards), 0, 1)
        parts.append(pd.DataFrame(dict(source="random deal", game=row.game, at_cards=row.at_cards,
                                       leader_cards=row.leader_cards, trick_cards=res["cards"],
                                       kept=res["over"] | (res["leader"] == 0), ended=res["over"])))
    return pd.concat(parts, ignore_index=True)
