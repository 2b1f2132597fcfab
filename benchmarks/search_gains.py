"""What running a long game backwards gains, measured over many games: the law of the gain and the
longest a search of n random deals then expects.

    nice -n 5 python benchmarks/search_gains.py --deals 20000000 --out data/search/gains.csv

Plays random deals ``0 .. deals-1`` of the table ``--seed`` (`summarize`), and runs every game of at
least ``--min-cards`` cards back through the whole of its ancestor tree (`engine.backward_kernel`,
up to ``--nodes`` states per game): the gain of a game is the longest deal found in it less the
game's own length (0 if none is longer). One row per game goes to ``--out``.

Why the gain sets the search's reach: beyond the tail's threshold a game ends at a constant rate p
per card (b = -ln(1 - p)), so if the gain G of a game does not depend on its length, the longest of
n deals run backwards is the longest of n K random deals, K = E[exp(b G)]: the same Gumbel law
(`analysis.longest.expected_longest`) with n K deals. The table printed: the gain's quantiles, K
with a 95% bootstrap interval (`scipy.stats.bootstrap`, BCa), Spearman's correlation of gain and
length (`scipy.stats.spearmanr`), and the longest expected of n deals with and without the gain.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats

import beggarstats as bs
from beggarstats.analysis.longest import expected_longest
from beggarstats.analysis.summaries import tail_rate
from beggarstats.engine.backward_kernel import extend_deal_hands
from beggarstats.engine.deals import random_deal
from beggarstats.engine.rank import hand_sizes
from beggarstats.run.committed_data import data_path
from beggarstats.run.summary import load_summary



def cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def measure(seed: int, deals: int, min_cards: int, nodes: int) -> tuple[pd.DataFrame, dict]:
    """One row per game of at least ``min_cards`` cards among the first ``deals`` of ``seed``."""
    rules = bs.Rules()
    sizes = hand_sizes(rules)
    bs.summarize(1000, seed=0, n_jobs=1)  # the kernels compiled or loaded, outside the timing
    extend_deal_hands(random_deal(0, 0, rules)[0], 1, sizes, 10)
    c0, w0 = cpu(), time.perf_counter()
    s = bs.summarize(deals, rules=rules, seed=seed, n_jobs=1, top=1 << 16)
    c1 = cpu()
    long = s.longest["cards"] >= min_cards
    if long.all():
        raise SystemExit("every kept game reaches --min-cards: raise it")
    rows = []
    for g, cards in zip(s.longest["game"][long], s.longest["cards"][long]):
        hands = random_deal(seed, int(g), rules)[0]
        r = extend_deal_hands(hands, int(cards), sizes, nodes)
        rows.append({"game": int(g), "cards": int(cards), "found": r["cards"], "gain": r["cards"] - int(cards),
                     "boundary": r["boundary"] if r["found"] else -1, "tricks_back": r["depth"] if r["found"] else 0,
                     "states": r["states"], "boundaries": r["boundaries"], "overflow": int(r["overflow"]),
                     "deal": bs.format_deal(r["deal"]) if r["found"] else ""})
    c2 = cpu()
    meta = {"seed": seed, "deals": deals, "min_cards": min_cards, "nodes": nodes, "games": len(rows),
            "random_cpu_seconds": round(c1 - c0, 1), "backward_cpu_seconds": round(c2 - c1, 1),
            "wall_seconds": round(time.perf_counter() - w0, 1)}
    return pd.DataFrame(rows), meta


def figures(df: pd.DataFrame, deals=(1e9, 5e9)) -> dict:
    """K = E[exp(b G)] with its interval, the gain's quantiles and its correlation with length, and
    the longest expected of ``deals`` random deals with and without the gain."""
    s = load_summary(data_path("summary-p2.json"))
    p = float(tail_rate(s, start=0.99).iloc[0]["rate"])
    b = -np.log1p(-p)
    w = np.exp(b * df["gain"].to_numpy(float))
    ci = stats.bootstrap((w,), np.mean, confidence_level=0.95, method="BCa", random_state=np.random.default_rng(26))
    k, lo, hi = float(w.mean()), float(ci.confidence_interval.low), float(ci.confidence_interval.high)
    rho = stats.spearmanr(df["cards"], df["gain"])
    out = {"games": len(df), "rate": p, "K": k, "K_low": lo, "K_high": hi,
           "gain_quantiles": {str(q): float(df["gain"].quantile(q)) for q in (0.5, 0.9, 0.99, 1.0)},
           "share_longer": float((df["gain"] > 0).mean()), "spearman": float(rho.statistic),
           "spearman_p": float(rho.pvalue), "states_median": float(df["states"].median()),
           "states_max": int(df["states"].max()), "overflow": int(df["overflow"].sum()), "expected": []}
    for n in deals:
        e0 = expected_longest(s, n).iloc[0]
        e1 = expected_longest(s, n * k).iloc[0]
        out["expected"].append({"deals": n, "random": float(e0["mean"]), "random_low": float(e0["low"]),
                                "random_high": float(e0["high"]), "backward": float(e1["mean"]),
                                "backward_low": float(e1["low"]), "backward_high": float(e1["high"])})
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--deals", type=int, default=20_000_000)
    ap.add_argument("--min-cards", type=int, default=2000)
    ap.add_argument("--nodes", type=int, default=10**6)
    ap.add_argument("--out", type=Path, default=None, help="CSV of the games (and a .json beside it)")
    args = ap.parse_args(argv)
    df, meta = measure(args.seed, args.deals, args.min_cards, args.nodes)
    fig = figures(df)
    if args.out is not None:
        df.to_csv(args.out, index=False)
        args.out.with_suffix(".json").write_text(json.dumps({**meta, **fig}, indent=1) + "\n")
    print(json.dumps(meta))
    print(f"{fig['games']} games >= {args.min_cards} cards; gain > 0 in {fig['share_longer']:.1%}; "
          f"gain quantiles {fig['gain_quantiles']}; K = {fig['K']:.2f} [{fig['K_low']:.2f}, {fig['K_high']:.2f}]; "
          f"Spearman(length, gain) = {fig['spearman']:.3f} (p = {fig['spearman_p']:.2g}); "
          f"states per game median {fig['states_median']:.0f}, max {fig['states_max']}, overflow {fig['overflow']}")
    print(f"{'deals':>14}{'random':>24}{'backward':>24}")
    for e in fig["expected"]:
        print(f"{e['deals']:>14,.0f}{e['random']:>10.0f} [{e['random_low']:.0f}, {e['random_high']:.0f}]"
              f"{e['backward']:>10.0f} [{e['backward_low']:.0f}, {e['backward_high']:.0f}]")
    return 0


if __name__ == "__main__":
    sys.exit(main())
