"""The search for long deals, measured: the longest deal each strategy finds in a CPU-time budget.

    nice -n 5 python benchmarks/search.py --seconds 180 --out data/search

Runs, each with its own CPU budget (time.process_time of this process, threads included):

* two players, ``strategy='random'`` and ``'backward'`` from the same table (seed 26): the backward
  run plays a prefix of the random run's deals and extends the longest of them backwards;
* two players, backward from the longest games of the committed 10^9-game run
  (data/summary-p2.json), and the same for 3-6 players from their 10^8-game runs;
* 3-6 players, a short backward search of their own (seed 26).

Each run's deals go to ``OUT/longest.csv`` (one row per deal, with its run) and its figures to
``OUT/runs.json`` as soon as it ends, so an interrupted benchmark keeps the runs it finished. The
table printed: deals tried, states examined backwards, longest found, CPU and wall seconds, and for
the random runs the longest expected from the committed tail (`analysis.longest.expected_longest`).
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import time
from pathlib import Path

import pandas as pd

import beggarstats as bs
from beggarstats.analysis.longest import expected_longest
from beggarstats.run.summary import load_summary

ROOT = Path(__file__).resolve().parents[1]
SEED = 26


def runs(seconds: float, short: float):
    """(name, keyword arguments of search_long) of every run, in order."""
    out = [("p2-random", dict(seed=SEED, seconds=seconds, strategy="random")),
           ("p2-backward", dict(seed=SEED, seconds=seconds, strategy="backward", min_cards=3600, nodes=50_000))]
    for p in range(2, 7):
        out.append((f"p{p}-committed", dict(summary=load_summary(ROOT / f"data/summary-p{p}.json"),
                                              min_cards=1, nodes=20_000)))
    for p in range(3, 7):
        out.append((f"p{p}-backward", dict(rules=bs.Rules(players=p), seed=SEED, seconds=short,
                                           strategy="backward", min_cards=3000, nodes=20_000)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=180.0, help="CPU seconds of each two-player search")
    ap.add_argument("--short", type=float, default=60.0, help="CPU seconds of each 3-6 player search")
    ap.add_argument("--out", type=Path, default=None, help="directory for longest.csv and runs.json")
    ap.add_argument("--only", nargs="*", help="run only these (names as printed)")
    ap.add_argument("--merge", nargs="*", type=Path,
                    help="run nothing: merge the outputs of runs made apart (--out of each) into --out")
    ap.add_argument("--markdown", action="store_true", help="print the table of docs/search.md for --out and stop")
    args = ap.parse_args(argv)
    if args.markdown:
        print(markdown(json.loads((args.out / "runs.json").read_text())))
        return 0
    if args.merge:
        figures = {}
        frames = []
        for d in args.merge:
            figures.update(json.loads((d / "runs.json").read_text()))
            frames.append(pd.read_csv(d / "longest.csv", keep_default_na=False, na_values=[""]))
        order = [name for name, _ in runs(0, 0) if name in figures]
        figures = {name: figures[name] for name in order}
        df = pd.concat(frames, ignore_index=True)
        df["order"] = df["run"].map({name: i for i, name in enumerate(order)})
        df = df.sort_values(["order", "cards"], ascending=[True, False], kind="stable").drop(columns="order")
        args.out.mkdir(parents=True, exist_ok=True)
        df.to_csv(args.out / "longest.csv", index=False)
        (args.out / "runs.json").write_text(json.dumps(figures, indent=1) + "\n")
        print(table(figures))
        return 0
    frames, figures = [], {}
    if args.out is not None and (args.out / "runs.json").exists():
        figures = json.loads((args.out / "runs.json").read_text())
        frames = [pd.read_csv(args.out / "longest.csv", keep_default_na=False, na_values=[""])]
        frames[0] = frames[0][frames[0]["run"].isin(figures)]
    for p in (2, 3):  # the kernels compiled or loaded, outside any budget
        bs.search_long(bs.Rules(players=p), seed=0, deals=1000, strategy="random")
    for name, kw in runs(args.seconds, args.short):
        if args.only and name not in args.only:
            continue
        cpu0, wall0 = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter()
        df = bs.search_long(top=10, **kw)
        cpu1 = resource.getrusage(resource.RUSAGE_SELF)
        cpu = (cpu1.ru_utime + cpu1.ru_stime) - (cpu0.ru_utime + cpu0.ru_stime)
        a = df.attrs
        wins = df[df["outcome"] == "win"]
        row = {"players": int(a["rules"]["players"]), "strategy": a["strategy"], "seed": int(a["seed"]),
               "from": "committed summary" if "summary" in kw else "own random deals",
               "seconds_budget": kw.get("seconds"), "deals": int(a["deals"]), "extended": int(a["extended"]),
               "states": int(a["states"]), "min_cards": int(a["min_cards"]), "nodes": int(a["nodes"]),
               "longest": int(wins["cards"].max()), "longest_deal": str(wins["deal"].iloc[0]),
               "longest_cpu_seconds": float(wins["cpu_seconds"].iloc[0]), "loops": int((df["outcome"] == "loop").sum()),
               "cpu_seconds": round(cpu, 1), "wall_seconds": round(time.perf_counter() - wall0, 1),
               "stopped": a["stopped"]}
        figures[name] = row
        frames = [f[f["run"] != name] for f in frames] + [df.assign(run=name)]
        if args.out is not None:
            args.out.mkdir(parents=True, exist_ok=True)
            pd.concat(frames, ignore_index=True).to_csv(args.out / "longest.csv", index=False)
            (args.out / "runs.json").write_text(json.dumps(figures, indent=1) + "\n")
        print(f"{name}: {row['longest']} cards, {row['deals']:,} deals, {row['states']:,} states, "
              f"{row['cpu_seconds']} CPU s, {row['wall_seconds']} s wall", file=sys.stderr, flush=True)
    print(table(figures))
    return 0


def table(figures: dict) -> str:
    """The runs as a text table; random runs with the longest expected from the committed tail."""
    lines = [f"{'run':<16}{'deals':>15}{'states':>12}{'longest':>9}{'found at':>10}{'CPU s':>9}{'wall s':>9}"
             f"{'expected (random)':>22}"]
    for name, r in figures.items():
        exp = ""
        if r["strategy"] == "random" and r["players"] == 2:
            e = expected_longest(load_summary(ROOT / "data/summary-p2.json"), r["deals"]).iloc[0]
            exp = f"{e['mean']:.0f} [{e['low']:.0f}, {e['high']:.0f}]"
        lines.append(f"{name:<16}{r['deals']:>15,}{r['states']:>12,}{r['longest']:>9,}{r['longest_cpu_seconds']:>10.1f}"
                     f"{r['cpu_seconds']:>9.1f}{r['wall_seconds']:>9.1f}{exp:>22}")
    return "\n".join(lines)


WHAT = {"random": "random deals", "backward": "backward from random deals"}


def markdown(figures: dict) -> str:
    """The table of docs/search.md (tests/test_search_data.py checks it against runs.json)."""
    lines = ["| players | strategy | from | deals tried | states backwards | longest found (cards) | found after (CPU s) "
             "| run (CPU s) | wall (s) |", "|---:|---|---|---:|---:|---:|---:|---:|---:|"]
    for r in figures.values():
        src = (f"the committed {r['deals']:,} deals" if r["from"] == "committed summary"
               else f"seed {r['seed']}, {r['seconds_budget']:g} CPU s")
        lines.append(f"| {r['players']} | {r['strategy']} | {src} | {r['deals']:,} | {r['states']:,} | {r['longest']:,} "
                     f"| {r['longest_cpu_seconds']:.1f} | {r['cpu_seconds']:.1f} | {r['wall_seconds']:.0f} |")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
