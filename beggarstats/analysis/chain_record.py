"""The penalty-card chain's record odds, judged by what it changes: its survival at long lengths
against the run, and the record odds with a misspecification allowance taken from that check.

The standard deck's committed cells (`run.tail_chain_cards.moves_only`) keep the moves on exactly
but put every end at 0 cards, so they give the decay rate but not the survival. Measuring the
ends of all 23,123 states costs about an hour of CPU; the survival at L needs them only for the
states where long games are: `dominant_states` finds, from the moves alone, the states that hold
all but ``1 - share`` of the trick boundaries in the last ``window`` cards before each length (and
of the quasi-stationary split). Those states are measured again in full (the same games: state i
plays games ``i * n_deals ..``, so their moves on must equal the committed ones, `merge_cells`
checks), and the others keep their ends at 0 cards (a lower bound of the survival) or move them
to the horizon (an upper bound): `bounded_survival` gives both, each with a bootstrap interval.

`record_check` then holds the chain's survival against the games seen longer than 2,000, 3,000
and 4,000 cards and turns the worst ratio of seen to expected (with the count's exact Poisson
interval) into a factor that widens the chain's record odds: a mechanism-based estimate beside
the curve fits, with the allowance its own check asks for. One definition of beating the record
throughout: a game longer than ``record`` cards, P(length > record) = P(length >= record + 1).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from scipy import sparse, stats

from ..run.tail_chain import ABSORBED

__all__ = ["dominant_states", "merge_cells", "bounded_survival", "record_check", "recheck", "allowance"]


def _window_weights(chain, lengths, window: int) -> list:
    """For each L of ``lengths``, the chance of a trick boundary in each state in the ``window``
    cards before L, from a standard deal, by the moves on alone (they do not depend on when the
    ends fall)."""
    S = chain.n_states
    n_i = np.maximum(chain._totals(chain.count), 1)
    on = chain.to != ABSORBED
    lo = int(chain.cards[on].min())
    width = int(chain.cards[on].max()) - lo + 1
    col = (chain.cards[on] - lo) * S + chain.to[on]
    PT = sparse.csr_matrix(((chain.count / n_i[chain.frm])[on], (col, chain.frm[on])), shape=(width * S, S))
    ring = lo + width
    at = np.zeros((ring, S))
    at[0] = chain.start_vector()
    sums = [np.zeros(S) for _ in lengths]
    for t in range(int(max(lengths))):
        row = at[t % ring]
        if row.any():
            for s, L in zip(sums, lengths):
                if L - window <= t < L:
                    s += row
            at[(t + lo + np.arange(width)) % ring] += (PT @ row).reshape(width, S)
            row[:] = 0.0
    return sums


def dominant_states(chain, lengths, *, share: float = 1 - 1e-4, window: int | None = None) -> np.ndarray:
    """The fewest states holding ``share`` of the trick boundaries in the last ``window`` cards
    before each of ``lengths`` (default: the longest move on, plus one), and of the
    quasi-stationary split: the states whose ends decide the survival at those lengths. Sorted
    state indices."""
    on = chain.to != ABSORBED
    window = int(chain.cards[on].max()) + 1 if window is None else int(window)
    lengths = [int(L) for L in np.atleast_1d(lengths)]
    weights = _window_weights(chain, lengths, window) + [chain.perron_vector()]
    keep = set()
    for w in weights:
        order = np.argsort(w)[::-1]
        k = int(np.searchsorted(np.cumsum(w[order]) / w.sum(), share)) + 1
        keep.update(order[:k].tolist())
    return np.array(sorted(keep), dtype=np.int64)


def merge_cells(moves, full, states):
    """The committed ``moves`` (`moves_only` cells) with the cells of ``states`` replaced by
    ``full`` (those states measured again with their ends). The moves on of the measured states
    must be the committed ones (the same games), else ValueError."""
    states = np.asarray(states, dtype=np.int64)
    inside = np.isin(moves.frm, states)
    mine = np.isin(full.frm, states)
    f_on = mine & (full.to != ABSORBED)
    m_on = inside & (moves.to != ABSORBED)
    got = np.lexsort((full.count[f_on], full.cards[f_on], full.to[f_on], full.frm[f_on]))
    want = np.lexsort((moves.count[m_on], moves.cards[m_on], moves.to[m_on], moves.frm[m_on]))
    same = all(np.array_equal(getattr(full, k)[f_on][got], getattr(moves, k)[m_on][want])
               for k in ("frm", "to", "cards", "count"))
    if not same:
        raise ValueError("The value for `full`: the moves on (not absorbed) of the measured `states` differ from "
                         "those in `moves`: not the same games (another seed, n_deals, horizon or engine).")
    cols = {k: np.concatenate([getattr(moves, k)[~inside], getattr(full, k)[mine]]) for k in ("frm", "to", "cards", "count")}
    order = np.lexsort((cols["cards"], cols["to"], cols["frm"]))
    return replace(moves, **{k: v[order] for k, v in cols.items()})


def bounded_survival(chain, measured, cards, *, replicates: int = 200, seed: int = 0, confidence: float = 0.95):
    """P(length >= L) for each L of ``cards`` from a chain whose states outside ``measured`` keep
    their ends at 0 cards (`merge_cells`): those ends put at 0 cards (``lower``: the survival can
    only be larger) and at the horizon (``upper``: an end comes before the first boundary at or
    after it, so the survival can only be smaller). The lower bound has its bootstrap percentile
    interval (``replicates`` draws of each state's deals, `TailChain.survival`: a few seconds a
    draw, run card by card to the longest length); the upper bound's interval is the lower one's
    scaled by the ratio of the two (the unmeasured states hold a tiny share of the boundaries, so
    the ratio is close to one and a second bootstrap would double the cost for nothing). Returns a
    dict of arrays: ``lower``, ``lower_low``, ``lower_high``, ``upper``, ``upper_low``, ``upper_high``."""
    from .chain_cards import CardsChain

    ended = (chain.to == ABSORBED) & ~np.isin(chain.frm, np.asarray(measured))
    low_cells = replace(chain, cards=np.where(ended, 0, chain.cards), _cache={})
    high_cells = replace(chain, cards=np.where(ended, chain.horizon, chain.cards), _cache={})
    sv = CardsChain.survival(low_cells, cards, replicates=replicates, seed=seed, confidence=confidence)
    out = {k: sv[c].to_numpy() for k, c in (("lower", "survival"), ("lower_low", "low"), ("lower_high", "high"))}
    out["upper"] = high_cells._survival_curve(high_cells.count, np.atleast_1d(np.asarray(cards, dtype=np.int64)))
    ratio = out["upper"] / out["lower"]
    out["upper_low"], out["upper_high"] = out["lower_low"] * ratio, out["lower_high"] * ratio
    return out


def allowance(seen: int, expected_low: float, expected_high: float, *, confidence: float = 0.95) -> tuple:
    """The ratio of the games seen to the games the chain expects, as wide as both allow: the exact
    (Garwood) Poisson interval of ``seen`` divided by the chain's interval of the expectation."""
    q = (1 - confidence) / 2
    low = stats.chi2.ppf(q, 2 * seen) / 2 if seen > 0 else 0.0
    high = stats.chi2.ppf(1 - q, 2 * seen + 2) / 2
    return low / expected_high, high / expected_low


def _checks(shares, summary, check) -> tuple[list, list, list]:
    """The check rows of ``summary`` against the chain's survival ``shares`` [(share, low, high)]
    past each length of ``check``: games seen longer, expected, its interval and the ratio's."""
    x, c = summary.frequencies("cards", ("win", "loop", "cutoff"))
    n = summary.n_games
    rows, lows, highs = [], [], []
    for L, (share, low, high) in zip(check, shares):
        seen = int(c[x > L].sum())
        exp, e_low, e_high = n * share, n * low, n * high
        a, b = allowance(seen, e_low, e_high)
        lows.append(a)
        highs.append(b)
        rows.append(dict(cards=int(L), seen=seen, expected=float(exp), expected_low=float(e_low),
                         expected_high=float(e_high), ratio=seen / exp, ratio_low=float(a), ratio_high=float(b)))
    return rows, lows, highs


def record_check(bounds: dict, cards, summary, *, record: int, check=(2000, 3000, 4000)) -> dict:
    """The chain's survival (``bounds`` of `bounded_survival` at ``cards``, which hold L + 1 for each
    L of ``check`` and ``record`` + 1) against the games of ``summary`` longer than each check
    length, and its record odds: P(length > record) from the lower and upper bounds with their
    bootstrap intervals, widened by the allowance: the lowest and highest ratio of seen to expected
    over the check lengths (`allowance`). Returns a dict for results json."""
    cards = list(np.atleast_1d(cards))
    at = [cards.index(L + 1) for L in check]
    shares = [((bounds["lower"][i] + bounds["upper"][i]) / 2, bounds["lower_low"][i], bounds["upper_high"][i])
              for i in at]
    rows, lows, highs = _checks(shares, summary, check)
    i = cards.index(record + 1)
    p = float((bounds["lower"][i] + bounds["upper"][i]) / 2)
    p_low, p_high = float(bounds["lower_low"][i]), float(bounds["upper_high"][i])
    return dict(record=int(record), checks=rows, probability=p, sampling=[p_low, p_high],
                allowance=[float(min(lows)), float(max(highs))],
                with_allowance=[p_low * min(lows), p_high * max(highs)],
                bounds=[float(bounds["lower"][i]), float(bounds["upper"][i])])


def recheck(survival: dict, games: int, summary) -> dict:
    """`record_check` of a committed chain survival (``survival``: its dict, whose checks were made
    against a run of ``games`` games) against another run of the same rules, ``summary`` (the
    frontier's 9.33e10 two-player games): the chain's survival at each check length is the committed
    expected count over ``games`` (with its interval), so nothing of the chain is measured again;
    the games seen, the ratios, the allowance and the record odds with it are the new run's. The
    chain's own record odds (``probability``, ``sampling``) are unchanged. Returns the same dict,
    with ``games`` (the new run's)."""
    if summary.rules.players != 2:
        raise ValueError(f"The value for `summary` must be a two-player run like the chain's, but it has "
                         f"{summary.rules.players} players.")
    check = [k["cards"] for k in survival["checks"]]
    shares = [(k["expected"] / games, k["expected_low"] / games, k["expected_high"] / games)
              for k in survival["checks"]]
    rows, lows, highs = _checks(shares, summary, check)
    p_low, p_high = survival["sampling"]
    return dict(survival, checks=rows, games=int(summary.n_games), allowance=[float(min(lows)), float(max(highs))],
                with_allowance=[p_low * min(lows), p_high * max(highs)])
