"""The tail of game length as the decay of a chain on the hand sizes (the quasi-stationary view).

Every trick boundary of a game is a deal: hands of some sizes and a seat to lead. If the cards of a
long game at a boundary are as good as shuffled given the hand sizes (the *mixing assumption*,
tested in docs/tail.md), the game is a Markov renewal process on the *state* - every seat's count
in the order of play from the leader, seats out left out - and its transitions can be measured
from random uneven deals of each state (`run.tail_chain.chain_cells`): from state i, play on to the first trick
boundary at or after ``horizon`` cards and note the state met there (or that the game ended) and
the cards played, tau.

`TailChain` holds those transitions as counts of cells (from, to, tau) and answers:

* `decay_rate`: the per-card rate r at which the chance that a game is still on decays, the root
  of rho(M(r)) = 1 where M(r)[i, j] = E[exp(r tau); next state j | state i] (the Malthusian
  parameter of the renewal process; for a chain moving one card at a time it is -log of the
  leading eigenvalue of the sub-stochastic transition matrix);
* `quasi_stationary`: the left Perron vector of M(r): the share of trick boundaries of long
  games in each state;
* `survival`: P(a game from a standard deal lasts at least L cards), by running the chain forward
  card by card (the density of being at a boundary at each card count, and of ending);

each with a 95% interval from a seeded bootstrap over the deals (within each state, the deals are
resampled with replacement: a multinomial draw of the state's cells).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy import optimize, sparse
from scipy.sparse import linalg as splinalg

from ..run.tail_chain import ABSORBED, ChainCells, chain_cells

__all__ = ["TailChain", "tail_chain", "chain_results", "save_results", "CHECK_LENGTHS"]


@dataclass(frozen=True, eq=False)
class TailChain:
    """Transitions between trick-boundary states measured from random uneven deals.

    Parameters
    ----------
    rules : Rules
        The rules the deals were played under.
    seed : int
        The table seed of the deals (state i used games ``i * n_deals .. (i + 1) * n_deals - 1``).
    horizon : int
        Cards a transition plays at least (it stops at the first trick boundary at or after it).
    n_deals : int
        Deals per state.
    states : tuple of tuple of int
        Every state: the counts in the order of play from the leader (seats out left out).
    start : int
        The state of a standard deal (the hand sizes of `deals.deal_into`, seat 0 to lead).
    frm, to, cards, count : numpy.ndarray
        The cells: ``count`` deals went from state ``frm`` to state ``to`` (`ABSORBED`: the game
        ended) in ``cards`` cards.
    """

    rules: object
    seed: int
    horizon: int
    n_deals: int
    states: tuple
    start: int
    frm: np.ndarray
    to: np.ndarray
    cards: np.ndarray
    count: np.ndarray
    _cache: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_cells(cls, cells: ChainCells) -> "TailChain":
        """The chain of measured cells."""
        return cls(rules=cells.rules, seed=cells.seed, horizon=cells.horizon, n_deals=cells.n_deals,
                   states=cells.states, start=cells.start, frm=cells.frm, to=cells.to, cards=cells.cards,
                   count=cells.count)

    # -- the pieces ------------------------------------------------------------------------------
    @property
    def n_states(self) -> int:
        return len(self.states)

    def _totals(self, count) -> np.ndarray:
        return np.bincount(self.frm, weights=count, minlength=self.n_states)

    def resampled(self, rng: np.random.Generator) -> np.ndarray:
        """The cell counts of one bootstrap draw: each state's deals resampled with replacement."""
        out = np.zeros_like(self.count)
        order = np.argsort(self.frm, kind="stable")
        bounds = np.searchsorted(self.frm[order], np.arange(self.n_states + 1))
        for i in range(self.n_states):
            rows = order[bounds[i]:bounds[i + 1]]
            if rows.size:
                c = self.count[rows]
                out[rows] = rng.multinomial(int(c.sum()), c / c.sum())
        return out

    def _matrix(self, r: float, count) -> sparse.csr_matrix:
        keep = self.to != ABSORBED
        w = count[keep] * np.exp(r * self.cards[keep]) / np.maximum(self._totals(count)[self.frm[keep]], 1)
        return sparse.csr_matrix((w, (self.frm[keep], self.to[keep])), shape=(self.n_states, self.n_states))

    def _rho(self, r: float, count) -> float:
        m = self._matrix(r, count)
        if self.n_states <= 400:
            return float(np.max(np.abs(np.linalg.eigvals(m.toarray()))))
        return float(np.abs(splinalg.eigs(m, k=1, which="LM", return_eigenvectors=False, tol=1e-10)[0]))

    def _rate(self, count) -> float:
        f = lambda r: np.log(self._rho(r, count))  # noqa: E731
        hi = 1.0 / self.horizon
        while f(hi) < 0:
            hi *= 2
        return float(optimize.brentq(f, 0.0, hi, xtol=1e-12))

    def _draws(self, replicates: int, seed: int):
        rng = np.random.default_rng(seed)
        return [self.resampled(rng) for _ in range(replicates)]

    # -- the answers -----------------------------------------------------------------------------
    def decay_rate(self, *, confidence: float = 0.95, replicates: int = 200, seed: int = 0) -> dict:
        """The per-card decay rate r of P(still on) for long games, with a bootstrap percentile
        interval (``replicates`` draws, numpy Generator ``seed``).

        Returns a dict: ``rate``, ``low``, ``high`` (per card), ``half_life`` (cards: log 2 / r),
        ``replicates``.
        """
        key = ("rate", confidence, replicates, seed)
        if key not in self._cache:
            rate = self._rate(self.count)
            boot = np.array([self._rate(c) for c in self._draws(replicates, seed)])
            q = (1 - confidence) / 2
            self._cache[key] = dict(rate=rate, low=float(np.quantile(boot, q)), high=float(np.quantile(boot, 1 - q)),
                                    half_life=float(np.log(2) / rate), replicates=replicates)
        return self._cache[key]

    def quasi_stationary(self) -> pd.DataFrame:
        """The quasi-stationary split: the share of the trick boundaries of long games in each
        state (the left Perron vector of M(r) at the decay rate), with the leader's cards."""
        r = self._rate(self.count)
        m = self._matrix(r, self.count).toarray() if self.n_states <= 400 else None
        if m is not None:
            vals, vecs = np.linalg.eig(m.T)
            v = np.abs(np.real(vecs[:, np.argmax(np.abs(vals))]))
        else:
            _, vecs = splinalg.eigs(self._matrix(r, self.count).T, k=1, which="LM")
            v = np.abs(np.real(vecs[:, 0]))
        v = v / v.sum()
        return pd.DataFrame({"state": ["/".join(map(str, s)) for s in self.states],
                             "players_in": [len(s) for s in self.states],
                             "leader_cards": [s[0] for s in self.states], "share": v})

    def _survival_curve(self, count, lengths) -> np.ndarray:
        """P(length >= L) for each L of ``lengths``, from the standard deal, under the cells ``count``."""
        top = int(np.max(lengths))
        S = self.n_states
        n_i = np.maximum(self._totals(count), 1)
        lo = int(self.cards.min())
        L = int(self.cards.max()) - lo + 1
        col = (self.cards - lo) * (S + 1) + np.where(self.to == ABSORBED, S, self.to)
        P = sparse.csr_matrix((count / n_i[self.frm], (self.frm, col)), shape=(S, L * (S + 1)))
        at = np.zeros((top + lo + L + 1, S))   # probability of a boundary at card t in each state
        end = np.zeros(top + lo + L + 1)  # probability that the game ends at card t
        at[0, self.start] = 1.0
        for t in range(top + 1):
            row = at[t]
            if not row.any():
                continue
            out = (P.T @ row).reshape(L, S + 1)
            at[t + lo:t + lo + L] += out[:, :S]
            end[t + lo:t + lo + L] += out[:, S]
        # alive at L: the last boundary before L was at t < L, in state i, and the transition from
        # it takes at least L - t cards (whether it ends or moves on): a sum of positive terms,
        # exact down to the smallest probabilities (1 - cumulative ends would cancel)
        hi = int(self.cards.max())
        dur = np.zeros((S, hi + 2))
        np.add.at(dur, (self.frm, self.cards), count / n_i[self.frm])
        q = np.cumsum(dur[:, ::-1], axis=1)[:, ::-1]   # q[i, d] = P_i(tau >= d)
        out = np.ones(len(lengths))
        for k, L in enumerate(lengths):
            if L > 0:
                t0 = max(0, L - hi)
                d = L - np.arange(t0, L)               # boundaries at t = t0 .. L - 1
                out[k] = float(np.einsum("ti,it->", at[t0:L], q[:, d]))
        return out

    def survival(self, cards, *, confidence: float = 0.95, replicates: int = 100, seed: int = 0) -> pd.DataFrame:
        """P(a game from a standard deal lasts at least ``cards`` cards), with a bootstrap
        percentile interval (``replicates`` draws, numpy Generator ``seed``).

        Returns one row per length: ``cards``, ``survival``, ``low``, ``high``.
        """
        cards = np.atleast_1d(np.asarray(cards, dtype=np.int64))
        if cards.size == 0 or cards.min() < 0:
            raise ValueError(f"The value for `cards` must be card counts >= 0, but {cards.tolist()!r} was passed.")
        point = self._survival_curve(self.count, cards)
        boot = np.array([self._survival_curve(c, cards) for c in self._draws(replicates, seed)])
        q = (1 - confidence) / 2
        return pd.DataFrame({"cards": cards, "survival": point, "low": np.quantile(boot, q, axis=0),
                             "high": np.quantile(boot, 1 - q, axis=0)})


def tail_chain(rules=None, *, seed, n_deals: int = 20_000, horizon: int = 100, n_jobs=-1,
               progress=False) -> TailChain:
    """Measure the trick-boundary chain of ``rules`` from random uneven deals
    (`run.tail_chain.chain_cells`, whose parameters these are) and return it as a `TailChain`."""
    return TailChain.from_cells(chain_cells(rules, seed=seed, n_deals=n_deals, horizon=horizon, n_jobs=n_jobs,
                                            progress=progress))


CHECK_LENGTHS = (2000, 3000, 4000)  # where the 10^9-game run still counts games


def chain_results(chains: dict, summary, *, record: int = 8344, rate_replicates: int = 200,
                  survival_replicates: int = 50, seed: int = 0) -> dict:
    """The chain's answers beside the observed run, for docs/tail.md and the notebook.

    ``chains``: horizon -> `TailChain` of the same rules; ``summary``: the large `Summary` of those
    rules (data/summary-p2.json). For each horizon: the decay rate with its bootstrap interval;
    P(length >= L) for L in `CHECK_LENGTHS` and ``record``, with intervals; the games the chain
    expects at each check length in a run of the summary's size, and the games seen; and whether
    the chain agrees with the run: its rate interval overlaps the run's (the geometric tail MLE
    beyond the longest 1%, `summaries.tail_rate`) and every count seen lies in the chain's
    interval widened by the count's own Poisson 95% range. Only a chain that agrees gives
    ``record`` odds (``record_ok``). Beside them, the curve-fit extrapolation of the run:
    P(length > record - 1) from `summaries.tail_extrapolation`, the same event.
    """
    from scipy import stats

    from .summaries import tail_extrapolation, tail_rate

    n = summary.n_games
    x, c = summary.frequencies("cards", ("win", "loop", "cutoff"))
    observed = tail_rate(summary, start=0.99).iloc[0]
    ext = tail_extrapolation(summary, [record - 1], start=0.99).iloc[0]
    out = {"games": int(n), "seed": int(summary.seed), "record": int(record),
           "observed_rate": [float(observed["rate"]), float(observed["rate_low"]), float(observed["rate_high"])],
           "observed_threshold": float(observed["threshold"]),
           "curve_fit": [float(ext["probability"]), float(ext["probability_low"]), float(ext["probability_high"])],
           "longest": int(summary.longest["cards"][0]), "horizons": {}}
    lengths = list(CHECK_LENGTHS) + [record]
    for h, ch in sorted(chains.items()):
        rate = ch.decay_rate(replicates=rate_replicates, seed=seed)
        sv = ch.survival(lengths, replicates=survival_replicates, seed=seed)
        checks = []
        agree = rate["low"] <= observed["rate_high"] and observed["rate_low"] <= rate["high"]
        for L, row in zip(CHECK_LENGTHS, sv.itertuples()):
            seen = int(c[x >= L].sum())
            lo = stats.poisson.ppf(0.025, n * row.low) if n * row.low > 0 else 0
            hi = stats.poisson.ppf(0.975, n * row.high)
            ok = bool(lo <= seen <= hi)
            agree = agree and ok
            checks.append(dict(cards=L, seen=seen, expected=n * row.survival, low=n * row.low, high=n * row.high,
                               within=ok))
        rec = sv.iloc[-1]
        out["horizons"][str(h)] = dict(
            n_deals=ch.n_deals, states=ch.n_states, rate=[rate["rate"], rate["low"], rate["high"]],
            checks=checks, agrees=bool(agree),
            record=[float(rec["survival"]), float(rec["low"]), float(rec["high"])],
            record_ok=bool(agree))
    return out


def save_results(results: dict, path) -> None:
    """Write `chain_results` as JSON (floats in full)."""
    import json
    from pathlib import Path

    Path(path).write_text(json.dumps(results, indent=1) + "\n")
