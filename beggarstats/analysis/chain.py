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

from collections.abc import Iterable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd
from scipy import optimize, sparse
from scipy.sparse import linalg as splinalg

from ..game.checks import whole
from ..run.tail_chain import ABSORBED, ChainCells, chain_cells

if TYPE_CHECKING:
    from ..game.hints import Progress, RulesLike

__all__ = ["TailChain", "tail_chain", "chain_results", "save_results", "mixing_test", "CHECK_LENGTHS", "TRICK_BINS",
           "SPLIT_BINS", "chain_markdown", "census_check", "CENSUS_DECKS", "sci", "seen_cells"]

# the census decks of the validation (data/census/): the longest games among the two-player decks
# without loops, and one with more penalty cards; horizon, deals per state, the lengths compared
CENSUS_DECKS = {"2p-24-1-1-1-1": (30, 20_000, (50, 100, 200, 400)),
                "2p-20-1-1-1-1": (30, 20_000, (50, 100, 200, 400)),
                "2p-14-2-2-2-0": (30, 20_000, (50, 100, 200, 400))}


@dataclass(frozen=True, eq=False)
class TailChain(ChainCells):
    """Transitions between trick-boundary states measured from random uneven deals: the cells of
    `run.tail_chain.ChainCells` (rules, seed, horizon, n_deals, states, start, and the cells
    ``frm, to, cards, count``: ``count`` deals went from state ``frm`` to state ``to`` - `ABSORBED`:
    the game ended - in ``cards`` cards), with the answers below."""

    _cache: dict = field(default_factory=dict, repr=False)

    @classmethod
    def from_cells(cls, cells: ChainCells) -> "TailChain":
        """The chain of measured cells."""
        return cls(**{f.name: getattr(cells, f.name) for f in fields(ChainCells)})

    # -- the pieces ------------------------------------------------------------------------------
    @property
    def n_states(self) -> int:
        return len(self.states)

    def _totals(self, count) -> np.ndarray:
        return np.bincount(self.frm, weights=count, minlength=self.n_states)

    def _by_state(self):
        """The cells sorted by their state (``order``) and each state's slice of them (``bounds``)."""
        if "by_state" not in self._cache:
            order = np.argsort(self.frm, kind="stable")
            self._cache["by_state"] = order, np.searchsorted(self.frm[order], np.arange(self.n_states + 1))
        return self._cache["by_state"]

    def _point_rate(self) -> float:
        """The decay rate of the measured cells themselves (no resampling)."""
        if "point_rate" not in self._cache:
            self._cache["point_rate"] = self._rate(self.count)
        return self._cache["point_rate"]

    def resampled(self, rng: np.random.Generator) -> np.ndarray:
        """The cell counts of one bootstrap draw: each state's deals resampled with replacement."""
        out = np.zeros_like(self.count)
        order, bounds = self._by_state()
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
        # started from the last Perron vector found (the same root, found in fewer steps)
        vals, vecs = splinalg.eigs(m, k=1, which="LM", tol=1e-10, v0=self._cache.get("v0"))
        self._cache["v0"] = np.abs(np.real(vecs[:, 0])) + 1e-12
        return float(np.abs(vals[0]))

    def _rate(self, count, guess: float | None = None) -> float:
        """The root r of rho(M(r)) = 1 under the cells ``count``; ``guess`` (a nearby root, such as
        the point rate for a bootstrap draw) only narrows the bracket: the root is the same."""
        f = lambda r: np.log(self._rho(r, count))  # noqa: E731
        if guess is not None and guess > 0:
            lo, hi = 0.98 * guess, 1.02 * guess
            while lo > 0 and f(lo) > 0:
                lo = lo / 2 if lo > 1e-9 else 0.0
            while f(hi) < 0:
                hi *= 2
            return float(optimize.brentq(f, lo, hi, xtol=1e-12))
        lo, hi = 0.0, 1.0 / self.horizon
        while f(hi) < 0:
            hi *= 2
        return float(optimize.brentq(f, lo, hi, xtol=1e-12))

    def _draws(self, replicates: int, seed: int):
        return list(self._draw_iter(replicates, seed))

    def _draw_iter(self, replicates: int, seed: int):
        """The bootstrap draws one at a time (the same draws as `_draws`): a large chain's draws do not
        all fit in memory at once."""
        rng = np.random.default_rng(seed)
        for _ in range(replicates):
            yield self.resampled(rng)

    def _draw_rate(self, k: int, seed: int, count) -> float:
        """The decay rate of bootstrap draw ``k`` of ``seed`` (whose counts are ``count``), cached."""
        key = ("draw_rate", seed, k)
        if key not in self._cache:
            self._cache[key] = self._rate(count, guess=self._point_rate())
        return self._cache[key]

    # -- the answers -----------------------------------------------------------------------------
    def decay_rate(self, *, confidence: float = 0.95, replicates: int = 200, seed: int = 0) -> dict:
        """The per-card decay rate r of P(still on) for long games, with a bootstrap percentile
        interval (``replicates`` draws, numpy Generator ``seed``).

        Returns a dict: ``rate``, ``low``, ``high`` (per card), ``half_life`` (cards: log 2 / r),
        ``replicates``.
        """
        key = ("rate", confidence, replicates, seed)
        if key not in self._cache:
            rate = self._point_rate()
            boot = np.array([self._draw_rate(k, seed, c) for k, c in enumerate(self._draw_iter(replicates, seed))])
            q = (1 - confidence) / 2
            self._cache[key] = dict(rate=rate, low=float(np.quantile(boot, q)), high=float(np.quantile(boot, 1 - q)),
                                    half_life=float(np.log(2) / rate), replicates=replicates)
        return self._cache[key]

    def perron_vector(self) -> np.ndarray:
        """The left Perron vector of M(r) at the decay rate, summing to 1: the share of the trick
        boundaries of long games in each state (whatever the states are)."""
        m = self._matrix(self._point_rate(), self.count)
        if self.n_states <= 400:
            vals, vecs = np.linalg.eig(m.toarray().T)
            v = np.abs(np.real(vecs[:, np.argmax(np.abs(vals))]))
        else:
            _, vecs = splinalg.eigs(m.T, k=1, which="LM")
            v = np.abs(np.real(vecs[:, 0]))
        return v / v.sum()

    def quasi_stationary(self) -> pd.DataFrame:
        """The quasi-stationary split: the share of the trick boundaries of long games in each
        state (`perron_vector`), with the leader's cards."""
        return pd.DataFrame({"state": ["/".join(map(str, s)) for s in self.states],
                             "players_in": [len(s) for s in self.states],
                             "leader_cards": [s[0] for s in self.states], "share": self.perron_vector()})

    def start_vector(self) -> np.ndarray:
        """The chance of each state at the first trick boundary of a standard deal (here all on
        ``start``; a chain whose states split the deals of one hand-size split overrides it)."""
        v = np.zeros(self.n_states)
        v[self.start] = 1.0
        return v

    def _survival_curve(self, count, lengths, exact_to: int | None = None, rate: float | None = None) -> np.ndarray:
        """P(length >= L) for each L of ``lengths``, from the standard deal, under the cells ``count``.

        With ``exact_to``, lengths beyond it are the chain's own asymptote from there on: P(length >=
        exact_to) exp(-r (L - exact_to)), r the decay rate of ``count`` (``rate`` if given). A Markov
        renewal process decays at exactly that rate once its split has settled on the quasi-stationary
        one (the renewal theorem), so this is the chain's survival, not a fitted curve, as far as
        ``exact_to`` lies past the settling (`settling` measures it); it saves running the chain card by
        card to long lengths, which costs one pass over the cells per card.
        """
        lengths = np.asarray(lengths, dtype=np.int64)
        if exact_to is not None and np.any(lengths > exact_to):
            far = lengths > exact_to
            near = np.append(lengths[~far], exact_to)
            s = self._survival_curve(count, near)
            r = self._rate(count, guess=self._point_rate()) if rate is None else rate
            out = np.empty(len(lengths))
            out[~far] = s[:-1]
            out[far] = s[-1] * np.exp(-r * (lengths[far] - exact_to))
            return out
        top = int(np.max(lengths))
        S = self.n_states
        n_i = np.maximum(self._totals(count), 1)
        keep = self.to != ABSORBED  # the moves on (the ends count through q below)
        lo = int(self.cards[keep].min()) if keep.any() else 1
        L = int(self.cards[keep].max()) - lo + 1 if keep.any() else 1
        col = (self.cards[keep] - lo) * S + self.to[keep]
        PT = sparse.csr_matrix(((count / n_i[self.frm])[keep], (col, self.frm[keep])), shape=(L * S, S))
        # alive at L: the last boundary before L was at t < L, in state i, and the transition from
        # it takes at least L - t cards (whether it ends or moves on): a sum of positive terms,
        # exact down to the smallest probabilities (1 - cumulative ends would cancel)
        hi = int(self.cards.max())
        q = np.zeros((S, hi + 2))
        np.add.at(q, (self.frm, self.cards), count / n_i[self.frm])
        q = np.cumsum(q[:, ::-1], axis=1)[:, ::-1]   # q[i, d] = P_i(tau >= d)
        # the probability of a boundary at card t in each state, for the cards t .. t + lo + L - 1
        # still to come (a ring of rows: row t is final once every earlier row has moved on)
        W = lo + L
        at = np.zeros((W, S))
        at[0] = self.start_vector()
        out = np.where(lengths > 0, 0.0, 1.0)
        for t in range(top):
            row = at[t % W]
            if row.any():
                near = np.flatnonzero((lengths > t) & (lengths - hi <= t))
                if near.size:
                    out[near] += row @ q[:, lengths[near] - t]
                moved = (PT @ row).reshape(L, S)
                rows = (t + lo + np.arange(L)) % W
                at[rows] += moved
                row[:] = 0.0
        return out

    def survival(self, cards: int | Iterable[int], *, confidence: float = 0.95, replicates: int = 100,
                 seed: int = 0, exact_to: int | None = None) -> pd.DataFrame:
        """P(a game from a standard deal lasts at least ``cards`` cards), with a bootstrap
        percentile interval (``replicates`` draws, numpy Generator ``seed``).

        ``exact_to``: run the chain card by card only that far and extend each draw beyond it with its
        own decay rate (see `_survival_curve`; for chains too large to run to long lengths).

        Returns one row per length: ``cards``, ``survival``, ``low``, ``high``.
        """
        cards = np.atleast_1d(np.asarray(cards, dtype=np.int64))
        if cards.size == 0 or cards.min() < 0:
            raise ValueError(f"The value for `cards` must be card counts >= 0, but {cards.tolist()!r} was passed.")
        if exact_to is not None:
            exact_to = whole("exact_to", exact_to, 1)
        if exact_to is None:
            point = self._survival_curve(self.count, cards)
            boot = np.array([self._survival_curve(c, cards) for c in self._draw_iter(replicates, seed)])
        else:
            point = self._survival_curve(self.count, cards, exact_to, self._point_rate())
            boot = np.array([self._survival_curve(c, cards, exact_to, self._draw_rate(k, seed, c))
                             for k, c in enumerate(self._draw_iter(replicates, seed))])
        q = (1 - confidence) / 2
        return pd.DataFrame({"cards": cards, "survival": point, "low": np.quantile(boot, q, axis=0),
                             "high": np.quantile(boot, 1 - q, axis=0)})


def tail_chain(rules: RulesLike = None, *, seed: int, n_deals: int = 20_000, horizon: int = 100,
               n_jobs: int | None = None, progress: Progress = False) -> TailChain:
    """Measure the trick-boundary chain of ``rules`` from random uneven deals
    (`run.tail_chain.chain_cells`, whose parameters these are) and return it as a `TailChain`."""
    return TailChain.from_cells(chain_cells(rules, seed=seed, n_deals=n_deals, horizon=horizon, n_jobs=n_jobs,
                                            progress=progress))


CHECK_LENGTHS = (2000, 3000, 4000)  # where the 10^9-game run still counts games


def chain_results(chains: dict, summary, *, record: int = 8344, rate_replicates: int = 200,
                  survival_replicates: int = 50, seed: int = 0, check_lengths=CHECK_LENGTHS,
                  exact_to: int | None = None) -> dict:
    """The chain's answers beside the observed run, for docs/tail.md and the notebook.

    ``chains``: horizon -> `TailChain` of the same rules; ``summary``: the large `Summary` of those
    rules (data/summary-p2.json). For each horizon: the decay rate with its bootstrap interval;
    P(length >= L) for L in `CHECK_LENGTHS` and ``record``, with intervals; the games the chain
    expects at each check length in a run of the summary's size, and the games seen; and whether
    the chain agrees with the run: its rate interval overlaps the run's (the geometric tail MLE
    beyond the longest 1%, `summaries.tail_rate`) and every count seen lies in the chain's
    interval widened by the count's own Poisson 95% range. Only a chain that agrees gives
    ``record`` odds (``record_ok``): P(length > record), a game longer than the record (the one
    definition of beating it everywhere), the chain's survival at ``record + 1``. Beside them, the
    curve-fit extrapolation of the run: P(length > record) from `summaries.tail_extrapolation`,
    the same event. ``check_lengths``:
    the lengths compared with the games seen; ``exact_to``: see `TailChain.survival` (None: the
    chain is run card by card to every length).
    """
    from scipy import stats

    from .summaries import tail_extrapolation, tail_rate

    n = summary.n_games
    x, c = summary.frequencies("cards", ("win", "loop", "cutoff"))
    observed = tail_rate(summary, start=0.99).iloc[0]
    ext = tail_extrapolation(summary, [record], start=0.99).iloc[0]
    out = {"games": int(n), "seed": int(summary.seed), "record": int(record),
           "observed_rate": [float(observed["rate"]), float(observed["rate_low"]), float(observed["rate_high"])],
           "observed_threshold": float(observed["threshold"]),
           "curve_fit": [float(ext["probability"]), float(ext["probability_low"]), float(ext["probability_high"])],
           "longest": int(summary.longest["cards"][0]), "horizons": {}}
    lengths = list(check_lengths) + [record + 1]  # longer than the record: at least record + 1 cards
    for h, ch in sorted(chains.items()):
        rate = ch.decay_rate(replicates=rate_replicates, seed=seed)
        sv = ch.survival(lengths, replicates=survival_replicates, seed=seed, exact_to=exact_to)
        checks = []
        agree = rate["low"] <= observed["rate_high"] and observed["rate_low"] <= rate["high"]
        for L, row in zip(check_lengths, sv.itertuples()):
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

    from ..run.outputs import write_text

    write_text(path, json.dumps(results, indent=1) + "\n", what="tail-chain results")


TRICK_BINS = (1, 2, 3, 5, 9, 15)  # the categories of a trick's cards: 1, 2, 3-4, 5-8, 9-14, 15 and more


SPLIT_BINS = (1, 11, 19, 26, 34, 42)  # the leader's cards: 1-10, 11-18, 19-25, 26-33, 34-41, 42 and more


def mixing_test(sample, chain: "TailChain | None" = None) -> pd.DataFrame:
    """The mixing assumption tested on `run.tail_chain.mixing_sample`: do the tricks played from the
    states of long games look like those from random uneven deals of the same split?

    Two chi-squared tests of homogeneity (scipy.stats.chi2_contingency) of long game against random
    deal: the next trick's cards in the categories of `TRICK_BINS`, and whether the leader took it;
    with ``chain``, a third: the long games' split (the leader's cards, in the categories of
    `SPLIT_BINS`) against the chain's quasi-stationary split (scipy.stats.chisquare). Their
    p-values are Holm-adjusted together (statsmodels). Beside each, ``mde``: the difference in
    the share that the test would detect at 80% power, two-sided at Holm's strictest level over
    these tests, 0.05 / their number (``level``; statsmodels' NormalIndPower for two samples, for
    the share of tricks of 5 cards and more, or taken by the leader; the one-sample share of a
    leader holding 26 cards or more for the split). A random deal's trick that ended its game
    counts in its cards category and as taken by whoever won it. The long games' points are a few
    hundred cards apart within each game, not independent: the p-values assume they are.

    Returns one row per test: ``test``, ``long_games``, ``random_deals`` (tricks), ``share_long``,
    ``share_random`` (the share of tricks of 5 cards and more, or taken by the leader; for the
    split, of a leader with 26 cards or more, seen and quasi-stationary), ``chi2``, ``dof``,
    ``p``, ``p_holm``, ``mde``, ``level``.
    """
    from scipy import stats
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.power import NormalIndPower

    def detectable(p0, n1, ratio, level):
        # ratio 0: one sample against a known share, the limit of a second sample without end
        h = NormalIndPower().solve_power(nobs1=n1, ratio=ratio or 1e9, alpha=level, power=0.8)
        # Cohen's h back to a share difference around p0
        return float(np.sin(np.arcsin(np.sqrt(p0)) + h / 2) ** 2 - p0)

    real = sample["source"] == "long game"
    cats = np.digitize(sample["trick_cards"], TRICK_BINS)
    rows = []
    for name, values, share in (("cards of the next trick", cats, sample["trick_cards"] >= 5),
                                ("the leader takes the next trick", sample["kept"].astype(int), sample["kept"])):
        table = pd.crosstab(real, values).to_numpy()
        chi2, p, dof, _ = stats.chi2_contingency(table)
        n1, n2 = int(real.sum()), int((~real).sum())
        p0 = float(share[~real].mean())
        rows.append(dict(test=name, long_games=n1, random_deals=n2, share_long=float(share[real].mean()),
                         share_random=p0, chi2=float(chi2), dof=int(dof), p=float(p),
                         mde=(p0, n1, n2 / n1)))
    if chain is not None:
        qsd = chain.quasi_stationary()
        lead = sample.loc[real, "leader_cards"]
        seen = np.bincount(np.digitize(lead, SPLIT_BINS), minlength=len(SPLIT_BINS) + 1)[1:]
        mass = np.bincount(np.digitize(qsd["leader_cards"], SPLIT_BINS), weights=qsd["share"],
                           minlength=len(SPLIT_BINS) + 1)[1:]
        chi2, p = stats.chisquare(seen, mass / mass.sum() * seen.sum())
        p0 = float(qsd.loc[qsd["leader_cards"] >= 26, "share"].sum())
        rows.append(dict(test="the split against the quasi-stationary split", long_games=int(real.sum()),
                         random_deals=0, share_long=float((lead >= 26).mean()), share_random=p0,
                         chi2=float(chi2), dof=len(SPLIT_BINS) - 1, p=float(p), mde=(p0, int(real.sum()), 0)))
    level = 0.05 / len(rows)  # Holm's strictest level: a "not told apart" says what it could miss at it
    for r in rows:
        r["mde"], r["level"] = detectable(*r["mde"], level), level
    df = pd.DataFrame(rows)
    df["p_holm"] = multipletests(df["p"], method="holm")[1]
    return df


def sci(x: float) -> str:
    """A probability as the chain tables print it: 4 decimals, or 3 significant digits below 1e-3."""
    return f"{x:.2e}" if x < 1e-3 else f"{x:.4f}"


def seen_cells(k: dict) -> str:
    """The cells of a long-length check as the chain tables print them: length, games seen, games the
    chain expects and its interval (the row's leading cells are the caller's)."""
    return f"{k['cards']:,} | {k['seen']:,} | {k['expected']:,.1f} | [{k['low']:,.1f}, {k['high']:,.1f}] |"


def chain_markdown(results: dict, mixing: pd.DataFrame) -> str:
    """The tables of docs/tail.md from data/tail/results.json (`chain_results`) and `mixing_test`
    (tests/analysis/test_chain.py regenerates them, so the page cannot go stale)."""
    obs = results["observed_rate"]
    lines = ["| horizon (cards) | deals per state | decay rate per card | 95% interval | agrees with the run |",
             "|---:|---:|---:|---:|---|"]
    for h, row in results["horizons"].items():
        r = row["rate"]
        lines.append(f"| {int(h):,} | {row['n_deals']:,} | {r[0]:.6f} | [{r[1]:.6f}, {r[2]:.6f}] | "
                     f"{'yes' if row['agrees'] else 'no'} |")
    lines.append(f"| run of {results['games']:,} games (geometric tail beyond {results['observed_threshold']:,.0f} "
                 f"cards) | - | {obs[0]:.6f} | [{obs[1]:.6f}, {obs[2]:.6f}] | - |")
    lines += ["", "| horizon (cards) | length (cards) | games seen | games the chain expects | 95% interval |",
              "|---:|---:|---:|---:|---:|"]
    for h, row in results["horizons"].items():
        for k in row["checks"]:
            lines.append(f"| {int(h):,} | " + seen_cells(k))
    lines += ["", "| census deck | horizon | length (cards) | exact survival | chain | 95% interval |",
              "|---|---:|---:|---:|---:|---:|"]
    for deck, row in results.get("census", {}).items():
        for k in row["checks"]:
            lines.append(f"| {deck} | {row['horizon']} | {k['cards']} | {sci(k['exact'])} | {sci(k['chain'])} | "
                         f"[{sci(k['low'])}, {sci(k['high'])}] |")
    rec = results["record"]
    cf = results["curve_fit"]
    lines += ["", f"| P(length > {rec:,} cards), two players | estimate | 95% interval | what it is |",
              "|---|---:|---:|---|",
              f"| geometric tail fitted beyond {results['observed_threshold']:,.0f} cards | {sci(cf[0])} | "
              f"[{sci(cf[1])}, {sci(cf[2])}] | curve-fit extrapolation of {results['games']:,} games "
              f"(interval: the rate's sampling error only) |"]
    for h, row in results["horizons"].items():
        if row["record_ok"]:
            r = row["record"]
            lines.append(f"| tail chain, horizon {int(h):,} | {sci(r[0])} | [{sci(r[1])}, {sci(r[2])}] | "
                         f"the chain's survival (bootstrap interval) |")
        else:
            lines.append(f"| tail chain, horizon {int(h):,} | none | - | not reported: the chain disagrees with "
                         f"the run (decay rate {row['rate'][0]:.6f} against {obs[0]:.6f}) |")
    level = f"0.05/{len(mixing)}"
    lines += ["", "| test | long-game tricks | random-deal tricks | share, long games | share, random deals "
              f"(or quasi-stationary) | chi2 | dof | p | p (Holm) | detectable difference (80% power at {level}) |",
              "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in mixing.itertuples():
        lines.append(f"| {r.test} | {r.long_games:,} | {r.random_deals:,} | {r.share_long:.3f} | {r.share_random:.3f} "
                     f"| {r.chi2:.2f} | {r.dof} | {r.p:.3g} | {r.p_holm:.3g} | {r.mde:.3f} |")
    return "\n".join(lines)


def census_check(chain: "TailChain", census, lengths) -> list:
    """The chain's survival against the exact survival of every deal of a census (a `Summary`
    marked exact, data/census/): one dict per length, ``cards``, ``exact``, ``chain``, ``low``,
    ``high``, ``within`` (the exact value inside the chain's bootstrap interval)."""
    x, c = census.frequencies("cards", ("win", "loop", "cutoff"))
    sv = chain.survival(lengths, replicates=50)
    out = []
    for row in sv.itertuples():
        exact = float(c[x >= row.cards].sum() / census.n_games)
        out.append(dict(cards=int(row.cards), exact=exact, chain=float(row.survival), low=float(row.low),
                        high=float(row.high), within=bool(row.low <= exact <= row.high)))
    return out
