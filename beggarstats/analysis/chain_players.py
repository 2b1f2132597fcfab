"""The tail chain for three to six players, and the odds of a game twice the longest seen.

The two-player chain (`analysis.chain`, docs/tail.md) is measured for three and four players the
same way (their states: every seat's count in the order of play from the leader) and held to the
runs of 10^8 games of ``data/summary-p3.json`` and ``-p4.json`` (their geometric tail beyond the
longest 1% and the games seen at long lengths) and to census decks of three and four players,
where every deal's survival is exact. Five and six players are refused by `run.tail_chain`
(`chain_cost` gives what they would take).

The answers of issue 26 item 5 for 3-6 players: P(length >= twice the longest game of the run),
from the curve fit (a geometric tail beyond the longest 1%, with the spread of the tail models of
`summaries.record_range` beside it) and from the chain where it exists and agrees with its run
(a chain that disagrees gives none, as for two players).
"""

from __future__ import annotations

from .chain import chain_results, sci, seen_cells
from .summaries import record_range

__all__ = ["twice_longest", "curve_fit_odds", "players_results", "players_markdown", "odds_markdown"]


def twice_longest(summary) -> int:
    """Twice the longest game (cards) of ``summary``."""
    return 2 * int(summary.longest["cards"][0])


def curve_fit_odds(summary, length: int) -> dict:
    """P(length >= ``length``) from the tail models of `summaries.record_range` (the event
    length > ``length`` - 1): the geometric tail beyond the longest 1% with its 95% interval (the
    rate's sampling error only), and the lowest and highest end of the intervals over every model
    (geometric tails from several thresholds and a log-linear hazard): the models' range."""
    models = record_range(summary, length - 1, thresholds=(None, 1500, 2000, 2500, 3000))
    first = models.iloc[0]
    geo = models[models["model"] == "geometric"]
    return dict(length=int(length), longest=int(summary.longest["cards"][0]), games=int(summary.n_games),
                threshold=float(first["threshold"]),
                geometric=[float(first["probability"]), float(first["low"]), float(first["high"])],
                range=[float(models["low"].min()), float(models["high"].max())],
                thresholds=[float(geo["threshold"].min()), float(geo["threshold"].max())])


def players_results(chains: dict, summaries: dict, *, exact_to: int, rate_replicates: int,
                    survival_replicates: int, seed: int = 0) -> dict:
    """One entry per player count of ``summaries`` (players -> the run's `Summary`): the curve fit
    at twice its longest game (`curve_fit_odds`), and, for the player counts of ``chains`` (players
    -> horizon -> `TailChain`), `chain.chain_results` at that length (the chain run card by card to
    ``exact_to`` cards and extended from there by its own decay rate)."""
    out = {}
    for players, summary in sorted(summaries.items()):
        length = twice_longest(summary)
        row = dict(curve_fit_odds=curve_fit_odds(summary, length))
        if players in chains:
            # P(length >= length) is P(length > length - 1), the event `chain_results` names by its record
            row["chain"] = chain_results(chains[players], summary, record=length - 1, rate_replicates=rate_replicates,
                                         survival_replicates=survival_replicates, seed=seed, exact_to=exact_to)
        out[str(players)] = row
    return out


def players_markdown(results: dict) -> str:
    """The validation tables of the 3- and 4-player chains in docs/tail.md, from
    data/tail/results-players.json (tests/analysis/test_chain_players.py regenerates them)."""
    lines = ["| players | horizon (cards) | deals per state | states | CPU (s) | decay rate per card | 95% interval | "
             "run's rate (geometric tail beyond) | 95% interval | agrees with the run |",
             "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|"]
    for p, entry in results["players"].items():
        ch = entry.get("chain")
        if not ch:
            continue
        obs = ch["observed_rate"]
        for h, row in ch["horizons"].items():
            r = row["rate"]
            lines.append(f"| {p} | {int(h):,} | {row['n_deals']:,} | {row['states']:,} | "
                         f"{results['cpu'][p][h]:,.0f} | {r[0]:.6f} | [{r[1]:.6f}, {r[2]:.6f}] | "
                         f"{obs[0]:.6f} ({ch['observed_threshold']:,.0f} cards) | [{obs[1]:.6f}, {obs[2]:.6f}] | "
                         f"{'yes' if row['agrees'] else 'no'} |")
    lines += ["", "| players | horizon (cards) | length (cards) | games seen | games the chain expects | 95% interval |",
              "|---:|---:|---:|---:|---:|---:|"]
    for p, entry in results["players"].items():
        ch = entry.get("chain")
        if not ch:
            continue
        for h, row in ch["horizons"].items():
            for k in row["checks"]:
                lines.append(f"| {p} | {int(h):,} | " + seen_cells(k))
    lines += ["", "| players | states | deals per state | horizon (cards) | cards to play | CPU-hours to measure | "
              "cells, at most | memory of the cells (GB) |", "|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for p, c in results["refused"].items():
        lines.append(f"| {p} | {c['states']:,} | {c['deals'] // c['states']:,} | {c['cards'] / c['deals']:,.0f} | "
                     f"{c['cards']:.2g} | {c['cpu_hours']:.2g} | {c['cells']:.2g} | {c['memory_gb']:.3g} |")
    lines += ["", "| census deck | horizon | deals per state | length (cards) | exact survival | chain | 95% interval |",
              "|---|---:|---:|---:|---:|---:|---:|"]
    for deck, row in results["census"].items():
        for k in row["checks"]:
            lines.append(f"| {deck} | {row['horizon']} | {row['n_deals']:,} | {k['cards']} | {sci(k['exact'])} | "
                         f"{sci(k['chain'])} | [{sci(k['low'])}, {sci(k['high'])}] |")
    return "\n".join(lines)


def odds_markdown(results: dict) -> str:
    """Issue 26 item 5 for 3-6 players: P(length >= twice the longest game seen), each row saying
    what it is (docs/tail.md and notebooks/09_the_tail)."""
    lines = ["| players | length (cards): twice the longest of the run | estimate | 95% interval | what it is |",
             "|---:|---:|---:|---:|---|"]
    for p, entry in results["players"].items():
        cf = entry["curve_fit_odds"]
        g = cf["geometric"]
        length = f"{cf['length']:,} (longest {cf['longest']:,} of {cf['games']:,})"
        # the span first: no one fit's number leads a row of extrapolations that disagree by orders of magnitude
        lines.append(f"| {p} | {length} | - | [{sci(cf['range'][0])}, {sci(cf['range'][1])}] | span of the curve fits' "
                     f"intervals: geometric tails fitted beyond {cf['thresholds'][0]:,.0f} to "
                     f"{cf['thresholds'][1]:,.0f} cards and a log-linear hazard (which passes its out-of-sample test "
                     f"or not as README.md's record table says), each interval sampling only |")
        lines.append(f"| {p} | {cf['length']:,} | {sci(g[0])} | [{sci(g[1])}, {sci(g[2])}] | one of those fits: the "
                     f"geometric tail fitted beyond {cf['threshold']:,.0f} cards, the longest 1% (interval: the "
                     f"rate's sampling error only) |")
        ch = entry.get("chain")
        if ch:
            for h, row in ch["horizons"].items():
                if row["record_ok"]:
                    r = row["record"]
                    lines.append(f"| {p} | {cf['length']:,} | {sci(r[0])} | [{sci(r[1])}, {sci(r[2])}] | tail "
                                 f"chain, horizon {int(h):,}: its survival (bootstrap interval) |")
                else:
                    lines.append(f"| {p} | {cf['length']:,} | none | - | tail chain, horizon {int(h):,}: not reported, "
                                 f"the chain disagrees with the run (decay rate {row['rate'][0]:.6f} against "
                                 f"{ch['observed_rate'][0]:.6f}) |")
        else:
            cost = results["refused"][p]
            lines.append(f"| {p} | {cf['length']:,} | none | - | tail chain: not measured, {cost['states']:,} states "
                         f"(refused: see the cost above) |")
    return "\n".join(lines)
