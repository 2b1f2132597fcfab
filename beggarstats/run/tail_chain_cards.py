"""`card_chain_cells`: the tail chain whose state is the hand sizes and the penalty cards of the hands.

The chain of `run.tail_chain` takes the hand sizes alone for the state of a trick boundary, and
fails its validations (docs/tail.md). Here the state of a two-player boundary is the leader's count
and how many of each penalty card (J, Q, K, A, and jokers if the rules have them) the leader holds -
the other hand holds the rest: ``(leader's cards, J, Q, K, A[, joker])``. A standard deck has
23,123 such states (every split of the 16 penalty cards that fits the two hands), a census deck of
28 cards with one of each penalty card 398. Each state's transitions are measured from random uneven deals
with those hands (`engine.uneven_kinds.kinds_steps`: the cards shuffled within each hand; state i
plays games ``i * n_deals ..`` of the table ``seed``) played to the first trick boundary at or
after ``horizon`` cards, as in `run.tail_chain.chain_cells`, into the same cells (from, to, cards,
count). A standard deal starts in any state of the even split, with the chance that a random half
of the deck holds those penalty cards (multivariate hypergeometric): ``start_weights``.
"""

from __future__ import annotations

import functools
import itertools
from dataclasses import dataclass, replace

import numpy as np
from scipy import stats

from ..engine.rank import hand_sizes
from ..engine.uneven_kinds import kinds_steps
from .tail_chain import ABSORBED, ChainCells, check_chain_run, measure_cells

__all__ = ["CardCells", "card_states", "card_codes", "card_start_weights", "card_chain_cells", "MAX_CARD_STATES",
           "moves_only", "is_moves_only"]

MAX_CARD_STATES = 60_000  # a standard deck has 23,123 states; with two jokers more


@dataclass(frozen=True)
class CardCells(ChainCells):
    """What `card_chain_cells` measured: the cells of `run.tail_chain.ChainCells` (``states``: each
    state's ``(leader's cards, J, Q, K, A[, joker])``; ``start``: the likeliest state of a standard
    deal) and ``start_weights``: the chance of each state at a standard deal."""

    start_weights: np.ndarray


def _kinds(rules) -> np.ndarray:
    """The deck's count of each penalty tribute in the state (J, Q, K, A, and jokers if any)."""
    counts = np.array(rules.counts[1:], dtype=np.int64)
    return counts if rules.jokers else counts[:4]


def card_codes(states, rules) -> np.ndarray:
    """One int64 per state (rows ``(leader's cards, J, Q, K, A[, joker])``): the leader's cards,
    then each penalty count as a digit of its own base (its count in the deck + 1)."""
    states = np.atleast_2d(np.asarray(states, dtype=np.int64))
    code = states[:, 0].copy()
    weight = rules.n_cards + 1
    for t, c in enumerate(_kinds(rules)):
        code += states[:, t + 1] * weight
        weight *= int(c) + 1
    return code


def card_states(rules) -> tuple:
    """Every state of two players, sorted by `card_codes`: the leader holds 1 .. N - 1 cards and any
    share of each penalty card that fits both hands."""
    kinds = _kinds(rules)
    N, P = rules.n_cards, int(kinds.sum())
    out = []
    for held in itertools.product(*(range(int(c) + 1) for c in kinds)):
        p = sum(held)
        for c in range(max(1, p), N - max(1, P - p) + 1):
            out.append((c,) + held)
    out = np.array(out, dtype=np.int64)
    out = out[np.argsort(card_codes(out, rules))]
    return tuple(tuple(int(v) for v in row) for row in out)


def card_start_weights(rules, states) -> np.ndarray:
    """The chance of each state at the first boundary of a standard deal: the leader holds the
    even split's first hand, a uniformly random set of cards (multivariate hypergeometric)."""
    kinds = _kinds(rules)
    lead = int(hand_sizes(rules)[0])
    arr = np.array(states, dtype=np.int64)
    w = np.zeros(len(arr))
    on = arr[:, 0] == lead
    counts = np.concatenate(([rules.n_cards - int(kinds.sum())], kinds))
    x = np.column_stack([lead - arr[on, 1:].sum(axis=1), arr[on, 1:]])
    w[on] = stats.multivariate_hypergeom.pmf(x, m=counts, n=lead)
    return w


def _work(lo, hi, *, rules, seed, n_deals, horizon, states, codes):
    kinds = _kinds(rules)
    k = len(kinds)
    N = rules.n_cards
    cells = []
    for i in range(lo, hi):
        c, held = states[i][0], np.array(states[i][1:], dtype=np.int64)
        games = np.arange(i * n_deals, (i + 1) * n_deals, dtype=np.int64)
        res = kinds_steps(rules, seed, games, (c, N - c), [held, kinds - held], 0, horizon)
        lead = res["leader"]
        rows = np.arange(len(games))
        nxt = np.column_stack([res["held"][rows, lead], res["kinds"][rows, lead, :k]])
        to = np.where(res["over"], ABSORBED, np.searchsorted(codes, card_codes(nxt, rules)))
        key, n = np.unique(np.stack([to, res["cards"]]), axis=1, return_counts=True)
        cells.append(np.stack([np.full(key.shape[1], i), key[0], key[1], n]))
    return np.concatenate(cells, axis=1)


def card_chain_cells(rules=None, *, seed, n_deals: int = 2_000, horizon: int = 100, n_jobs=None,
                     progress=False, states=None) -> CardCells:
    """Measure the two-player trick-boundary chain on the hand sizes and penalty cards.

    Parameters
    ----------
    rules : Rules, optional
        Default `Rules()`. Two players, deterministic play (no ``shuffle_on_loop``), a deck of at
        most 64 cards, at most `MAX_CARD_STATES` states.
    seed, n_deals, horizon, n_jobs, progress, states
        As in `run.tail_chain.chain_cells`, the states in the order of `card_states` (state i plays
        games ``i * n_deals .. (i + 1) * n_deals - 1`` of the table ``seed``).

    Returns
    -------
    CardCells
    """
    rules, seed, n_deals, horizon, n_jobs = check_chain_run(rules, seed, n_deals, horizon, n_jobs)
    if rules.players != 2:
        raise ValueError(f"The chain on hand sizes and penalty cards is for two players, but `rules` has "
                         f"{rules.players}: pass two-player rules (or use `bs.tail_chain`'s hand sizes alone).")
    every = card_states(rules)
    if len(every) > MAX_CARD_STATES:
        raise ValueError(f"The chain of {rules.n_cards} cards has {len(every):,} states on hand sizes and penalty "
                         f"cards, more than the {MAX_CARD_STATES:,} measured here: pass `rules` with fewer cards.")
    if (len(every) * n_deals + n_deals) >= 2**63:
        raise ValueError("The value for `n_deals` is too large: the game ids of the states would not fit in int64.")
    codes = card_codes(every, rules)
    weights = card_start_weights(rules, every)
    work = functools.partial(_work, rules=rules, seed=seed, n_deals=n_deals, horizon=horizon, states=every,
                             codes=codes)
    cells = measure_cells(work, len(every), states, n_jobs=n_jobs, progress=progress, desc="tail chain (cards)")
    return CardCells(rules=rules, seed=seed, horizon=horizon, n_deals=n_deals, states=every,
                     start=int(np.argmax(weights)), frm=cells[0], to=cells[1], cards=cells[2], count=cells[3],
                     start_weights=weights)


def moves_only(cells: CardCells) -> CardCells:
    """``cells`` with the ends of each state merged into one cell of 0 cards: the moves on (whose
    cards the decay rate and the quasi-stationary split need) kept exactly, the cards of the ends
    (which only the survival needs) dropped. A standard-deck chain's cells are millions (most
    deals end, each at its own card count); its moves on are few enough to commit."""
    on = cells.to != ABSORBED
    ends = np.bincount(cells.frm[~on], weights=cells.count[~on], minlength=len(cells.states)).astype(np.int64)
    has = np.flatnonzero(ends)
    frm = np.concatenate([cells.frm[on], has])
    to = np.concatenate([cells.to[on], np.full(has.size, ABSORBED)])
    cards = np.concatenate([cells.cards[on], np.zeros(has.size, dtype=np.int64)])
    count = np.concatenate([cells.count[on], ends[has]])
    order = np.lexsort((cards, to, frm))
    return replace(cells, frm=frm[order], to=to[order], cards=cards[order], count=count[order])


def is_moves_only(cells) -> bool:
    """True if ``cells`` are `moves_only` (every end at 0 cards): their survival is not the chain's."""
    ended = cells.to == ABSORBED
    return bool(ended.any() and (cells.cards[ended] == 0).all())
