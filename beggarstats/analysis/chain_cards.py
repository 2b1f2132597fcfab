"""The tail chain on the hand sizes and the penalty cards of the hands (two players).

`run.tail_chain_cards.card_chain_cells` measures the transitions; `CardsChain` is `analysis.chain.TailChain`
(the same decay rate - the root of rho(M(r)) = 1 -, Perron vector, survival and bootstrap, which
do not depend on what a state is) with two differences: a standard deal starts in any state of the
even split (`start_vector`: the chance that the leader's half of the deck holds those penalty
cards), and the quasi-stationary split names the penalty cards of the leader.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, fields
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ..run.tail_chain import ChainCells
from ..run.tail_chain_cards import card_chain_cells, card_start_weights, card_states, is_moves_only
from .chain import TailChain, sci, seen_cells

if TYPE_CHECKING:
    from ..game.hints import Progress, RulesLike

__all__ = ["CardsChain", "tail_chain_cards", "PENALTY_NAMES", "CARD_CENSUS_DECKS", "card_results", "card_rate_results", "cards_markdown",
           "cards_verdict"]

PENALTY_NAMES = ("jacks", "queens", "kings", "aces", "jokers")


@dataclass(frozen=True, eq=False)
class CardsChain(TailChain):
    """A `TailChain` whose states are ``(leader's cards, J, Q, K, A[, joker])`` (the leader's
    penalty cards; the other hand holds the rest), with ``start_weights``: the chance of each
    state at a standard deal."""

    start_weights: np.ndarray | None = None

    @classmethod
    def from_cells(cls, cells: ChainCells) -> "CardsChain":
        """The chain of measured cells (`card_chain_cells`, or `run.tail_chain.load_cells` of them:
        the start weights are recomputed from the rules, and the states must be `card_states`')."""
        if tuple(cells.states) != card_states(cells.rules):
            raise ValueError("The cells are not those of a chain on hand sizes and penalty cards of their rules "
                             "(their states differ from `card_states`).")
        base = {f.name: getattr(cells, f.name) for f in fields(ChainCells)}
        return cls(**base, start_weights=card_start_weights(cells.rules, cells.states))

    def start_vector(self) -> np.ndarray:
        return np.asarray(self.start_weights, dtype=float)

    def point_rate(self) -> float:
        """The decay rate of the measured cells themselves (`decay_rate` without its interval)."""
        return self._point_rate()

    def survival(self, cards: int | Iterable[int], **kwargs: Any) -> pd.DataFrame:
        """As `TailChain.survival`; refused for cells that kept no cards of the ends
        (`run.tail_chain_cards.moves_only`, the committed standard-deck cells)."""
        if is_moves_only(self):
            raise ValueError("These cells keep the moves on but not the cards of the ends (`moves_only`): their "
                             "decay rate is the chain's, their survival is not. Measure the full cells for it.")
        return super().survival(cards, **kwargs)

    def quasi_stationary(self) -> pd.DataFrame:
        """The quasi-stationary split over the states: ``leader_cards``, the leader's penalty cards
        by kind, and ``share`` (`perron_vector`)."""
        arr = np.array(self.states)
        out = {"state": ["/".join(map(str, s)) for s in self.states], "leader_cards": arr[:, 0]}
        for t in range(arr.shape[1] - 1):
            out[PENALTY_NAMES[t]] = arr[:, t + 1]
        out["share"] = self.perron_vector()
        return pd.DataFrame(out)


def tail_chain_cards(rules: RulesLike = None, *, seed: int, n_deals: int = 2_000, horizon: int = 100,
                     n_jobs: int | None = None, progress: Progress = False) -> CardsChain:
    """Measure the two-player trick-boundary chain on hand sizes and penalty cards from random deals
    with given hands (`run.tail_chain_cards.card_chain_cells`, whose parameters these are) and
    return it as a `CardsChain` (decay rate, quasi-stationary split, survival, as `bs.tail_chain`)."""
    return CardsChain.from_cells(card_chain_cells(rules, seed=seed, n_deals=n_deals, horizon=horizon, n_jobs=n_jobs,
                                                  progress=progress))


# the census decks of the validation (the decks docs/tail.md uses): horizons, deals per state of the
# penalty-card chain and of the hand-size chain beside it, the lengths compared
CARD_CENSUS_DECKS = {"2p-24-1-1-1-1": ((30, 120), 4_000, 20_000, (50, 100, 200, 400)),
                     "2p-20-1-1-1-1": ((30, 120), 4_000, 20_000, (50, 100, 200, 400))}


def card_results(chains: dict, summary, census: dict, *, rate_replicates: int = 50, survival_replicates: int = 10,
                 seed: int = 0) -> dict:
    """The answers of the chain on hand sizes and penalty cards, for docs/tail.md.

    ``chains``: horizon -> `CardsChain` of the standard rules, read beside ``summary`` (the large
    `Summary`, data/summary-p2.json) by `analysis.chain.chain_results` (the same checks and the
    same verdict as the hand-size chain). ``census``: deck name -> (exact census `Summary`,
    lengths, {horizon: (`CardsChain`, hand-size `TailChain`)}): each chain's survival against the
    exact one (`analysis.chain.census_check`), the two chains at the same horizon side by side.
    """
    from .chain import census_check, chain_results

    out = chain_results(chains, summary, rate_replicates=rate_replicates, survival_replicates=survival_replicates,
                        seed=seed) if chains else {}
    out["replicates"] = dict(rate=rate_replicates, survival=survival_replicates)
    out["census"] = {}
    for deck, (exact, lengths, by_horizon) in census.items():
        row = {}
        for h, pair in sorted(by_horizon.items()):
            row[str(h)] = {name: dict(n_deals=ch.n_deals, states=ch.n_states, checks=census_check(ch, exact, lengths))
                           for name, ch in zip(("cards", "sizes"), pair)}
        out["census"][deck] = row
    return out


def card_rate_results(chains: dict, summary, *, replicates: int = 50, seed: int = 0) -> dict:
    """The decay rate of each chain (horizon -> `CardsChain`, which may be `moves_only`: the rate
    needs nothing else) with its bootstrap interval, beside the run's tail rate (the geometric tail
    beyond the longest 1% of ``summary``, `summaries.tail_rate`, as `analysis.chain.chain_results`).
    A chain whose rate interval misses the run's disagrees with it and gives no record odds; one
    whose interval overlaps it is not yet shown to agree (`chain_results` also checks the counts
    at long lengths, which need the survival of the full cells)."""
    from .summaries import tail_extrapolation, tail_rate

    observed = tail_rate(summary, start=0.99).iloc[0]
    ext = tail_extrapolation(summary, [8344], start=0.99).iloc[0]  # P(length > 8,344): beating the record
    out = {"games": int(summary.n_games), "record": 8344,
           "observed_rate": [float(observed["rate"]), float(observed["rate_low"]), float(observed["rate_high"])],
           "observed_threshold": float(observed["threshold"]),
           "curve_fit": [float(ext["probability"]), float(ext["probability_low"]), float(ext["probability_high"])],
           "replicates": dict(rate=replicates), "horizons": {}}
    for h, ch in sorted(chains.items()):
        if replicates == 0:  # the point rate alone: no interval, so no verdict
            point = ch.point_rate()
            out["horizons"][str(h)] = dict(n_deals=ch.n_deals, states=ch.n_states, rate=[point, None, None],
                                           overlaps=None)
            continue
        rate = ch.decay_rate(replicates=replicates, seed=seed)
        overlap = rate["low"] <= observed["rate_high"] and observed["rate_low"] <= rate["high"]
        out["horizons"][str(h)] = dict(n_deals=ch.n_deals, states=ch.n_states,
                                       rate=[rate["rate"], rate["low"], rate["high"]], overlaps=bool(overlap))
    return out


def cards_markdown(cards: dict, sizes: dict, mixing=None, frontier: dict | None = None) -> str:
    """The tables of the penalty-card chain's section of docs/tail.md, from data/tail/results-cards.json
    (`card_results`, ``cards``) beside data/tail/results.json (the hand-size chain, ``sizes``); with
    ``mixing`` (`analysis.chain.mixing_test` of data/tail/mixing.csv.gz against the committed
    penalty-card chain), the long games' split against that chain's quasi-stationary split; with
    ``frontier`` (`analysis.chain_record.recheck` of the chain's survival against the runs on file,
    data/frontier), its check against those counts and the odds with that check's allowance."""
    lines = ["| census deck | horizon | length (cards) | exact survival | hand sizes: chain | 95% interval | "
             "exact / chain | hand sizes and penalty cards: chain | 95% interval | exact / chain |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for deck, row in cards["census"].items():
        for h, pair in row.items():
            for k, o in zip(pair["cards"]["checks"], pair["sizes"]["checks"]):
                lines.append(f"| {deck} | {int(h)} | {k['cards']} | {sci(k['exact'])} | {sci(o['chain'])} | "
                             f"[{sci(o['low'])}, {sci(o['high'])}] | {o['exact'] / o['chain']:.2f} | "
                             f"{sci(k['chain'])} | [{sci(k['low'])}, {sci(k['high'])}] | "
                             f"{k['exact'] / k['chain']:.2f} |")
    lines += ["", "| census deck | horizon | states (sizes / sizes and penalty cards) | deals per state |",
              "|---|---:|---:|---:|"]
    for deck, row in cards["census"].items():
        for h, pair in row.items():
            lines.append(f"| {deck} | {int(h)} | {pair['sizes']['states']:,} / {pair['cards']['states']:,} | "
                         f"{pair['sizes']['n_deals']:,} / {pair['cards']['n_deals']:,} |")
    if not cards.get("horizons"):
        return "\n".join(lines) + "\n\n" + cards_verdict(cards, sizes)
    obs = cards["observed_rate"]
    lines += ["", "| state of the chain | horizon (cards) | deals per state | states | decay rate per card | "
              "95% interval | minus the run's rate | against the run |", "|---|---:|---:|---:|---:|---:|---:|---|"]
    for name, res in (("hand sizes", sizes), ("hand sizes and penalty cards", cards)):
        for h, row in res["horizons"].items():
            r = row["rate"]
            interval = f"[{r[1]:.6f}, {r[2]:.6f}]" if r[1] is not None else "not computed"
            lines.append(f"| {name} | {int(h):,} | {row['n_deals']:,} | {row.get('states', 51):,} | {r[0]:.6f} | "
                         f"{interval} | {r[0] - obs[0]:+.6f} | {_against(row)} |")
    lines.append(f"| run of {cards['games']:,} games (geometric tail beyond {cards['observed_threshold']:,.0f} cards) "
                 f"| - | - | - | {obs[0]:.6f} | [{obs[1]:.6f}, {obs[2]:.6f}] | - | - |")
    lines += ["", "| state of the chain | horizon (cards) | length (cards) | games seen | games the chain expects | "
              "95% interval |", "|---|---:|---:|---:|---:|---:|"]
    for name, res in (("hand sizes", sizes), ("hand sizes and penalty cards", cards)):
        for h, row in res["horizons"].items():
            if "checks" not in row:
                lines.append(f"| {name} | {int(h):,} | - | - | not computed | - |")
            for k in row.get("checks", []):
                lines.append(f"| {name} | {int(h):,} | " + seen_cells(k))
    rec, cf = cards["record"], cards["curve_fit"]
    lines += ["", f"| P(length > {rec:,} cards), two players | estimate | 95% interval | what it is |",
              "|---|---:|---:|---|",
              f"| geometric tail fitted beyond {cards['observed_threshold']:,.0f} cards | {sci(cf[0])} | "
              f"[{sci(cf[1])}, {sci(cf[2])}] | curve-fit extrapolation of {cards['games']:,} games "
              f"(interval: the rate's sampling error only) |"]
    sv = cards.get("survival")
    if sv:
        checks = ", ".join(f"{c['cards']:,}" for c in sv["checks"])
        a = sv["allowance"]
        lines += [f"| penalty-card chain, horizon {sv['horizon']:,} | {sci(sv['probability'])} | "
                  f"[{sci(sv['sampling'][0])}, {sci(sv['sampling'][1])}] | the chain's survival from a standard deal "
                  f"(bootstrap interval over its deals, {sv['replicates']} draws: sampling only) |",
                  f"| the same, with its misspecification allowance | {sci(sv['probability'])} | "
                  f"[{sci(sv['with_allowance'][0])}, {sci(sv['with_allowance'][1])}] | the interval times the lowest "
                  f"and highest ratio of games seen to games expected at {checks} cards in the run of "
                  f"{cards['games']:,} games (x{a[0]:.2f} to x{a[1]:.2f}, below) |"]
        if frontier:
            b = frontier["allowance"]
            lines.append(f"| the same, with the allowance of its check against the games on file | "
                         f"{sci(frontier['probability'])} | [{sci(frontier['with_allowance'][0])}, "
                         f"{sci(frontier['with_allowance'][1])}] | the same ratios in the {frontier['games']:,} games "
                         f"of data/frontier (x{b[0]:.2f} to x{b[1]:.2f}, below) |")
    else:
        for h, row in cards["horizons"].items():
            lines.append(f"| penalty-card chain, horizon {int(h):,} | none | - | not computed: the chain's survival "
                         f"at long lengths was not measured |")
    if sv:
        lines += ["", f"| the penalty-card chain against a run: games, length (cards) | games seen longer | games the "
                  "chain expects | 95% interval | seen / expected | 95% interval (with the count's Poisson range) |",
                  "|---|---:|---:|---:|---:|---:|"]
        for games, run in ((cards["games"], sv), (frontier and frontier["games"], frontier)):
            for c in (run or {}).get("checks", []):
                lines.append(f"| {games:,}, {c['cards']:,} | {c['seen']:,} | {c['expected']:,.1f} | "
                             f"[{c['expected_low']:,.1f}, {c['expected_high']:,.1f}] | {c['ratio']:.3f} | "
                             f"[{c['ratio_low']:.3f}, {c['ratio_high']:.3f}] |")
    if mixing is not None:
        r = mixing.iloc[-1]
        lines += ["", "| test | long-game trick boundaries | share with the leader holding 26 cards or more, long games "
                  "| the same, quasi-stationary | chi2 | dof | p | p (Holm, with the two tests one trick ahead) |",
                  "|---|---:|---:|---:|---:|---:|---:|---:|",
                  f"| the split against the penalty-card chain's quasi-stationary split (horizon "
                  f"{int(next(iter(cards['horizons']))):,}) | {r.long_games:,} | {r.share_long:.3f} | "
                  f"{r.share_random:.3f} | {r.chi2:.2f} | {r.dof} | {r.p:.3g} | {r.p_holm:.3g} |"]
    return "\n".join(lines) + "\n\n" + cards_verdict(cards, sizes, frontier)


def _against(row) -> str:
    """A chain's comparison with the run: `analysis.chain.chain_results`' verdict (rate and counts) where
    it was reached, else the rate intervals alone (`card_rate_results`), which are no verdict: the
    survival check (`analysis.chain_record`) judges the chain by what it changes."""
    if "agrees" in row:
        return "agrees with the run" if row["agrees"] else "disagrees with the run"
    return f"rate intervals {_overlap(row)} (no verdict: see the survival check)"


def cards_verdict(cards: dict, sizes: dict, frontier: dict | None = None) -> str:
    """The sentences under the tables of `cards_markdown`: how far each chain is from the truth,
    from the same results (and the check against the runs on file, ``frontier``)."""
    out = []
    for deck, row in cards["census"].items():
        for h, pair in row.items():
            k, o = pair["cards"]["checks"][-1], pair["sizes"]["checks"][-1]
            inside = sum(c["within"] for c in pair["cards"]["checks"])
            out.append(f"- {deck}, horizon {int(h)}: at {k['cards']} cards the exact survival is "
                       f"{k['exact'] / k['chain']:.2f} times the penalty-card chain's, against "
                       f"{o['exact'] / o['chain']:.2f} times the hand-size chain's; the exact value lies inside the "
                       f"penalty-card chain's interval at {inside} of {len(pair['cards']['checks'])} lengths.")
    reps = cards.get("replicates")
    if reps and reps.get("rate") and cards.get("horizons"):
        survival = f" and {reps['survival']} for the survival of standard deals" if "survival" in reps else ""
        out.append(f"- intervals: a seeded bootstrap over each state's deals, {reps['rate']} draws for the decay "
                   f"rate{survival} (50 for the census decks, `analysis.chain.census_check`).")
    obs = cards.get("observed_rate")
    for h, row in cards.get("horizons", {}).items():
        gap = row["rate"][0] - obs[0]
        o = sizes.get("horizons", {}).get(h)
        if o:
            old_gap = o["rate"][0] - obs[0]
            closed = f" ({1 - gap / old_gap:.0%} of the hand-size chain's gap {old_gap:+.6f} closed)"
        else:
            closed = ""
        out.append(f"- standard deck, horizon {int(h):,}: the penalty-card chain's decay rate is {gap:+.6f} per card "
                   f"from the run's{closed}; the rate intervals: {_overlap(row)}. The rates alone do not judge the "
                   "chain: what it changes at the lengths seen does (the survival check above).")
    sv = cards.get("survival")
    if sv:
        lo, hi = min(c["ratio"] for c in sv["checks"]), max(c["ratio"] for c in sv["checks"])
        lengths = ", ".join(f"{c['cards']:,}" for c in sv["checks"])
        out.append(f"- survival: the states holding all but {1 - sv['share']:.0e} of the trick boundaries in the "
                   f"last {sv['window']:,} cards before each length ({sv['states_measured']:,} of "
                   f"{cards['horizons'][str(sv['horizon'])]['states']:,}) were measured again with the cards of their "
                   f"ends (`analysis.chain_record`; the others' ends at 0 cards or at the horizon bound the survival "
                   f"at the record: {sci(sv['bounds'][0])} to {sci(sv['bounds'][1])}); the games seen longer than "
                   f"{lengths} cards are {lo:.2f} to {hi:.2f} times what the chain expects, and the allowance carries those "
                   f"ratios' 95% ranges to the record: one random deal in {1 / sv['probability']:.3g} "
                   f"[{1 / sv['with_allowance'][1]:.3g}, {1 / sv['with_allowance'][0]:.3g}] lasts longer than "
                   f"{sv['record']:,} cards by the chain, beside the curve fit's "
                   f"{1 / cards['curve_fit'][0]:.3g} (`{sv['command']}`).")
    if sv and frontier:
        lo, hi = min(c["ratio"] for c in frontier["checks"]), max(c["ratio"] for c in frontier["checks"])
        b, w = frontier["allowance"], frontier["with_allowance"]
        out.append(f"- against the {frontier['games']:,} two-player games on file (data/frontier: the run above "
                   f"continued on a GPU), the same check finds {lo:.2f} to {hi:.2f} times what the chain expects, "
                   f"and an allowance of x{b[0]:.2f} to x{b[1]:.2f} in place of x{sv['allowance'][0]:.2f} to "
                   f"x{sv['allowance'][1]:.2f}: one random deal in {1 / frontier['probability']:.3g} "
                   f"[{1 / w[1]:.3g}, {1 / w[0]:.3g}] lasts longer than {frontier['record']:,} cards by the chain "
                   "(`analysis.chain_record.recheck`: the chain as committed, the counts of the larger run).")
    return "\n".join(out)


def _overlap(row) -> str:
    """Whether the chain's rate interval meets the run's."""
    if row["overlaps"] is None:
        return "not compared (no interval was computed for the chain's rate)"
    return "overlap" if row["overlaps"] else "do not overlap"
