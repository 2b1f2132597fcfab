"""Random uneven deals against today's random deals: CPU nanoseconds per card played.

Plays the same number of games through `fast.play_games` (random deals, seat 0 leads) and
`uneven_play.play_uneven` (the even split 26/26 with seat 0 leading - the same distribution of
games - and an uneven split with seat 1 leading), in alternate rounds, in one process, counting CPU
time (`time.process_time`): a busy spell of a shared machine falls on all rows alike. Prints ONE
table: ns per card of each row (median over rounds) and its ratio to the random deals.

Usage::

    python benchmarks/uneven.py [--games N] [--rounds K] [--players P]
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import beggarstats as bs
from beggarstats.engine.fast import play_games
from beggarstats.engine.uneven_play import play_uneven


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200_000)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--players", type=int, default=2)
    a = ap.parse_args(argv)
    rules = bs.Rules(players=a.players)
    n, N = rules.players, rules.n_cards
    even = [N // n + (1 if s < N % n else 0) for s in range(n)]
    skew = [N - 10 * (n - 1)] + [10] * (n - 1)
    rows = {
        "random deals (play_games)": lambda ids: play_games(rules, 1, ids),
        f"uneven {'/'.join(map(str, even))}, seat 0 leads": lambda ids: play_uneven(rules, 1, ids, even, 0),
        f"uneven {'/'.join(map(str, skew))}, seat 1 leads": lambda ids: play_uneven(rules, 1, ids, skew, 1),
    }
    ids = np.arange(a.games, dtype=np.int64)
    for run in rows.values():  # compile / load the kernels outside the timing
        run(ids[:10])
    per_card = {name: [] for name in rows}
    for _ in range(a.rounds):
        for name, run in rows.items():
            t = time.process_time()
            res = run(ids)
            dt = time.process_time() - t
            per_card[name].append(dt / float(res["cards"].sum()) * 1e9)
    base = statistics.median(per_card["random deals (play_games)"])
    print(f"{a.players} players, {a.games} games a row, median of {a.rounds} rounds (CPU time)")
    print(f"{'row':<34} {'ns/card':>8} {'ratio':>6}")
    for name, values in per_card.items():
        m = statistics.median(values)
        print(f"{name:<34} {m:8.3f} {m / base:6.3f}")


if __name__ == "__main__":
    main()
