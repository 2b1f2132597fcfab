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
import functools
import json
import re
import resource
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd

import beggarstats as bs
from beggarstats.analysis.longest import expected_longest
from beggarstats.analysis.summaries import tail_rate
from beggarstats.run.committed_data import data_path
from beggarstats.run.summary import load_summary

SEED = 26
HOUR_NODES = 10**6  # states per extended deal in the long run: every ancestor tree measured was smaller


def runs(seconds: float, short: float, hour: float = 7200.0, wall: float | None = None):
    """(name, keyword arguments of search_long) of every run, in order."""
    out = [("p2-random", dict(seed=SEED, seconds=seconds, strategy="random")),
           ("p2-backward", dict(seed=SEED, seconds=seconds, strategy="backward", min_cards=3600, nodes=50_000)),
           # the hour, then again from other tables: one hour is one draw of the longest (docs/search.md)
           *(("p2-hour" if s == SEED else f"p2-hour-{s}",
              dict(seed=s, seconds=hour, wall_seconds=wall, strategy="backward", min_cards=3000, nodes=HOUR_NODES,
                   n_jobs=2)) for s in (SEED, 28, 29, 30, 31, 32))]
    for p in range(2, 7):
        out.append((f"p{p}-committed", dict(summary=load_summary(data_path(f"summary-p{p}.json")),
                                              min_cards=1, nodes=HOUR_NODES)))
    for p in range(3, 7):
        out.append((f"p{p}-backward", dict(rules=bs.Rules(players=p), seed=SEED, seconds=short,
                                           strategy="backward", min_cards=3000, nodes=HOUR_NODES)))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seconds", type=float, default=180.0, help="CPU seconds of each two-player search")
    ap.add_argument("--hour", type=float, default=7200.0, help="CPU seconds of the long two-player search "
                    "(both cores: 7,200 is one hour)")
    ap.add_argument("--wall", type=float, default=None, help="wall-clock seconds the long search may take at most")
    ap.add_argument("--short", type=float, default=60.0, help="CPU seconds of each 3-6 player search")
    ap.add_argument("--out", type=Path, default=None, help="directory for longest.csv and runs.json")
    ap.add_argument("--only", nargs="*", help="run only these (names as printed)")
    ap.add_argument("--merge", nargs="*", type=Path,
                    help="run nothing: merge the outputs of runs made apart (--out of each) into --out")
    ap.add_argument("--records", action="store_true", help="run every published deal of data/records.csv back "
                    "(bs.run_back) into --out (records_back.csv, never_ending.csv) and stop")
    ap.add_argument("--docs", type=Path, default=None, help="fill the generated blocks of this page (docs/search.md) "
                    "from --out and stop")
    ap.add_argument("--markdown", action="store_true", help="print the generated blocks of docs/search.md for --out and stop")
    args = ap.parse_args(argv)
    if args.records:
        back, loops = records_back()
        args.out.mkdir(parents=True, exist_ok=True)
        back.to_csv(args.out / "records_back.csv", index=False)
        loops.to_csv(args.out / "never_ending.csv", index=False)
        print(records_table(back))
        return 0
    if args.docs is not None:
        args.docs.write_text(fill_blocks(args.docs.read_text(), blocks(args.out)))
        return 0
    if args.markdown:
        for name, text in blocks(args.out).items():
            print(f"<!-- search:begin {name} -->\n{text}\n<!-- search:end {name} -->\n")
        return 0
    if args.merge:
        figures = {}
        frames = []
        for d in args.merge:  # a run measured again in a later directory replaces the earlier one
            mine = json.loads((d / "runs.json").read_text())
            figures.update(mine)
            frames = [f[~f["run"].isin(mine)] for f in frames]
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
    for name, kw in runs(args.seconds, args.short, args.hour, args.wall):
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
               "stopped": a["stopped"], "random_longest": int(a["random_longest"]),
               "random_longest_game": int(a["random_longest_game"]), "n_jobs": int(kw.get("n_jobs", 1)),
               "backward_search": "compiled" if a["strategy"] == "backward" else ""}
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
            e = expected_longest(load_summary(data_path("summary-p2.json")), r["deals"]).iloc[0]
            exp = f"{e['mean']:.0f} [{e['low']:.0f}, {e['high']:.0f}]"
        lines.append(f"{name:<16}{r['deals']:>15,}{r['states']:>12,}{r['longest']:>9,}{r['longest_cpu_seconds']:>10.1f}"
                     f"{r['cpu_seconds']:>9.1f}{r['wall_seconds']:>9.1f}{exp:>22}")
    return "\n".join(lines)


@functools.lru_cache(maxsize=None)
def _summary(players: int):
    return load_summary(data_path(f"summary-p{players}.json"))


def _expected(r: dict):
    """The longest expected of the run's random deals, from the committed tail of its player count."""
    return expected_longest(_summary(r["players"]), r["deals"]).iloc[0]


def markdown(figures: dict) -> str:
    """The table of docs/search.md (tests/run/test_search_data.py checks it against runs.json)."""
    lines = ["| players | strategy | deals from | deals tried | states backwards | longest found (cards) "
             "| expected of that many random deals [5%, 95%] | found after (CPU s) | run (CPU s) | wall (s) "
             "| backward search |",
             "|---:|---|---|---:|---:|---:|---:|---:|---:|---:|---|"]
    for r in figures.values():
        src = ("the committed run (seed 2026)" if r["from"] == "committed summary"
               else f"seed {r['seed']}, a budget of {r['seconds_budget']:,g} CPU s")
        if r.get("n_jobs", 1) > 1:
            src += f" on {r['n_jobs']} threads"
        if r["stopped"] == "wall":
            src += f", stopped by the wall clock after {r['cpu_seconds']:,.0f} CPU s"
        e = _expected(r)
        lines.append(f"| {r['players']} | {r['strategy']} | {src} | {r['deals']:,} | {r['states']:,} | {r['longest']:,} "
                     f"| {e['mean']:,.0f} [{e['low']:,.0f}, {e['high']:,.0f}] | {r['longest_cpu_seconds']:.1f} "
                     f"| {r['cpu_seconds']:,.1f} | {r['wall_seconds']:,.0f} | {r.get('backward_search', '')} |")
    return "\n".join(lines)


def longest_known(figures: dict, deals: pd.DataFrame) -> str:
    """The longest deal known per player count, from every run (docs/search.md's second table)."""
    lines = ["| players | cards | tricks | winner | how it was found | deal |", "|---:|---:|---:|---:|---|---|"]
    wins = deals[deals["outcome"] == "win"].sort_values(["players", "cards"], ascending=[True, False], kind="stable")
    for p, g in wins.groupby("players", sort=True):
        b = g.iloc[0]
        lines.append(f"| {p} | {b['cards']:,} | {b['tricks']:,} | seat {b['winner']} | {b['strategy']}: {b['how']} "
                     f"| `{b['deal']}` |")
    loops = deals[deals["outcome"] == "loop"]
    lines.append("")
    lines.append(f"Loops met by the searches: {len(loops)}." if len(loops) == 0 else
                 "Loops met by the searches: " + "; ".join(f"{r.players} players, `{r.deal}` ({r.how})"
                                                            for r in loops.itertuples()) + ".")
    return "\n".join(lines)


def prose(figures: dict) -> str:
    """The paragraph of docs/search.md that compares the two-player strategies (the runs measured)."""
    out = []
    rnd, back, com = figures.get("p2-random"), figures.get("p2-backward"), figures.get("p2-committed")
    if rnd is not None:
        e = _expected(rnd)
        rate = rnd["deals"] / rnd["cpu_seconds"]
        out.append(f"In {rnd['cpu_seconds']:.0f} CPU seconds the random search played {rnd['deals']:,} deals "
                   f"({rate:,.0f} per CPU second) and found {rnd['longest']:,} cards, where the committed tail "
                   f"expects {e['mean']:,.0f} [{e['low']:,.0f}, {e['high']:,.0f}] of that many deals.")
    if back is not None:
        e = _expected(back)
        out.append(f"The backward search, on the same table and budget, played {back['deals']:,} of those deals, "
                   f"extended {back['extended']:,} of them ({back['states']:,} states run backwards) and found "
                   f"{back['longest']:,} cards in {back['cpu_seconds']:.0f} CPU seconds, against {e['mean']:,.0f} "
                   f"[{e['low']:,.0f}, {e['high']:,.0f}] expected of its random deals alone.")
    if com is not None:
        out.append(f"From the longest {com['extended']:,} deals of the committed run of {com['deals']:,} deals (its "
                   f"longest {_committed_longest():,} cards), the backward search found {com['longest']:,} cards "
                   f"in {com['cpu_seconds']:.1f} CPU seconds.")
    if rnd is not None:
        hour = expected_longest(_summary(2), [rate * 3600, rate * 7200])
        out.append(f"At the random search's speed one CPU hour expects {hour['mean'][0]:,.0f} [{hour['low'][0]:,.0f}, "
                   f"{hour['high'][0]:,.0f}] cards and one hour on both cores of this machine {hour['mean'][1]:,.0f} "
                   f"[{hour['low'][1]:,.0f}, {hour['high'][1]:,.0f}].")
    return " ".join(out)


TARGET = 5500  # the target: a deal this long in one hour on this machine


@functools.lru_cache(maxsize=None)
def _tail():
    t = tail_rate(_summary(2), start=0.99).iloc[0]
    return float(t["threshold"]), float(t["survival_at_threshold"]), float(t["rate"])


def deals_for(longest: float, k: float = 1.0) -> float:
    """Random deals whose expected longest (the Gumbel mean of `expected_longest`: u + (ln(n S(u)) +
    Euler's gamma) / b) is ``longest``, when each deal counts as ``k`` (the backward search's K)."""
    u, s_u, p = _tail()
    b = -np.log1p(-p)
    return float(np.exp(b * (longest - u) - np.euler_gamma) / (s_u * k))


def hour_prose(figures: dict, gains: dict | None) -> str:
    """The paragraph on the long two-player runs, each against the target: one hour is one draw of
    the longest, so each run is reported on its own, and the target is reached by a run or not."""
    names = [name for name in figures if name.startswith("p2-hour")]  # p2-hour, p2-hour-28, ...
    if not names:
        return ""
    out = []
    inside = 0  # runs whose longest falls in the 5%-95% band of the law of the gain
    above = []  # and those above it
    for i, name in enumerate(names):
        r = figures[name]
        e = _expected(r)
        which = "The long run" if len(names) == 1 else ("The first long run" if i == 0 else "Another long run")
        out.append(f"{which} (seed {r['seed']}, {r['n_jobs']} threads, every random deal of at least "
                   f"{r['min_cards']:,} cards run back through its whole ancestor tree) played {r['deals']:,} random "
                   f"deals in {r['cpu_seconds']:,.0f} CPU seconds ({r['deals'] / r['cpu_seconds']:,.0f} a CPU second, "
                   f"{r['wall_seconds']:,.0f} s of wall time on the shared machine"
                   + (", where it was stopped by the wall clock before its budget of "
                      f"{r['seconds_budget']:,.0f} CPU seconds was spent" if r["stopped"] == "wall" else "") + "). "
                   f"Its random deals alone reached {r['random_longest']:,} cards (random deal "
                   f"{r['random_longest_game']:,}; {e['mean']:,.0f} [{e['low']:,.0f}, {e['high']:,.0f}] expected of "
                   f"that many); run backwards, {r['extended']:,} of them ({r['states']:,} states) gave "
                   f"{r['longest']:,} cards, found after {r['longest_cpu_seconds']:,.0f} CPU seconds.")
        if gains is not None:
            k = gains["K"]
            eb = expected_longest(_summary(2), r["deals"] * k).iloc[0]
            out.append(f"With the measured factor K = {k:.1f} the backward search of that many deals expects "
                       f"{eb['mean']:,.0f} [{eb['low']:,.0f}, {eb['high']:,.0f}].")
            inside += int(eb["low"] <= r["longest"] <= eb["high"])
            if r["longest"] > eb["high"]:
                above.append(name)
        out.append(f"The target of {TARGET:,} cards was {'reached' if r['longest'] >= TARGET else 'not reached'}"
                   + (" in this hour." if len(names) > 1 else "."))
    if gains is not None and len(names) > 1:  # the law of the gain, checked on the runs it did not come from
        out.append(f"{inside} of the {len(names)} long runs found a longest within the 5%-95% band that the "
                   f"factor K, measured on other deals (seed {gains['seed']}), gives them.")
        if above:
            seeds = ", ".join(f"seed {figures[n]['seed']}" for n in above)
            out.append(f"Above it: {seeds}. The law draws on the {gains['games']:,} gains measured, the largest "
                       f"{gains['gain_quantiles']['1.0']:,.0f} cards; a run whose longest came from further back (the "
                       f"table of the longest known deals below says how far back each was found) lies above it.")
    return " ".join(out)


def gains_prose(g: dict, figures: dict) -> str:
    """The paragraph on the law of the gain (data/search/gains.json, benchmarks/search_gains.py)."""
    q, k = g["gain_quantiles"], g["K"]
    b = -np.log1p(-g["rate"])
    rnd = figures["p2-random"]
    hour = rnd["deals"] / rnd["cpu_seconds"] * 7200  # one hour on both cores at the random search's speed
    e0, e1 = expected_longest(_summary(2), hour).iloc[0], expected_longest(_summary(2), hour * k).iloc[0]
    need_r, need_b, need_lo = deals_for(TARGET), deals_for(TARGET, k), deals_for(TARGET, g["K_high"])
    return (f"The first {g['deals']:,} random deals of seed {g['seed']} hold {g['games']:,} games of at least "
            f"{g['min_cards']:,} cards. Each was run back through its whole ancestor tree (median "
            f"{g['states_median']:,.0f} states, at most {g['states_max']:,}; {g['overflow']} stopped by the stack), "
            f"in {g['backward_cpu_seconds']:,.0f} CPU seconds against {g['random_cpu_seconds']:,.0f} for playing the "
            f"deals. {g['share_longer']:.0%} of them gained: the gain in cards has median {q['0.5']:,.0f}, 90th "
            f"percentile {q['0.9']:,.0f}, 99th {q['0.99']:,.0f} and maximum {q['1.0']:,.0f}; Spearman's rho of gain "
            f"and length is {g['spearman']:.3f} (p = {g['spearman_p']:.2g}). "
            f"Weighted by the tail (a card more is rarer by a factor e^b, b = -ln(1 - {g['rate']:.6f})), a game run "
            f"backwards is worth K = E[e^(b gain)] = {k:.1f} [{g['K_low']:.1f}, {g['K_high']:.1f}] random deals "
            f"(95% BCa bootstrap over the games), {np.log(k) / b:,.0f} cards on the longest if the gain does not "
            f"depend on the length. One hour on both cores at the random search's speed ({hour:.2e} deals) then "
            f"expects {e0['mean']:,.0f} [{e0['low']:,.0f}, {e0['high']:,.0f}] cards by random search (in brackets the "
            f"5% and 95% points of the longest) and "
            f"{e1['mean']:,.0f} [{e1['low']:,.0f}, {e1['high']:,.0f}] run backwards. An expected longest of "
            f"{TARGET:,} cards takes {need_r:.1e} random deals, or {need_b:.1e} run backwards ({need_lo:.1e} at the "
            f"top of K's interval): {need_b / hour:.1f} hours on both cores at that speed. The chance that one hour "
            f"reaches it is {reach(hour):.1%} by random search and {reach(hour * k):.0%} "
            f"[{reach(hour * g['K_low']):.0%}, {reach(hour * g['K_high']):.0%}] run backwards.")


def reach(deals: float, length: float = TARGET) -> float:
    """P(the longest of ``deals`` random deals >= ``length``) by the committed two-player tail:
    1 - exp(-deals S(u) (1 - p)^(length - u)) (`analysis.longest`'s model)."""
    u, s_u, p = _tail()
    return float(-np.expm1(-deals * s_u * (1 - p) ** (length - u)))


def _committed_longest() -> int:
    return int(_summary(2).longest["cards"][0])


def records_back(nodes: int = 10**6):
    """Every published standard deal (data/records.csv) run back by `bs.run_back`: one row per deal,
    and every deal found that never ends (with the record it was found from)."""
    rows, loops = [], []
    for r in bs.load_records():
        if r["deck"] != "standard":
            continue
        df = bs.run_back(r["deal"], nodes=nodes)
        a = df.attrs
        top = df.iloc[0] if len(df) and r["outcome"] == "win" else None
        rows.append({"name": r["name"], "deal": r["deal"], "outcome": r["outcome"], "cards": r["cards"],
                     "loop_cards": r["loop_cards"], "states": a["states"], "stopped": a["stopped"], "found": len(df),
                     "longest": None if top is None else int(top["cards"]),
                     "longest_deal": None if top is None else top["deal"],
                     "how": None if top is None else top["how"]})
        if r["outcome"] == "loop":
            loops.append(df.assign(record=r["name"]))
    back = pd.DataFrame(rows)
    for c in ("loop_cards", "longest"):
        back[c] = back[c].astype("Int64")
    cols = ["record", "deal", "cards", "tricks", "loop_start_cards", "loop_cards", "boundary", "tricks_back",
            "cards_back", "how"]
    return back, pd.concat(loops, ignore_index=True)[cols]


def records_table(back: pd.DataFrame) -> str:
    """docs/search.md's table of the published deals run back."""
    lines = ["| published deal | cards | states run back | longer deals found | longest found | how | deal found |",
             "|---|---:|---:|---:|---:|---|---|"]
    for r in back.itertuples():
        if r.outcome == "loop":
            lines.append(f"| {r.name} | never ends (loop of {r.loop_cards:,}) | {r.states:,} | {r.found:,} that never "
                         f"end | – | see below | |")
            continue
        found = "none" if pd.isna(r.longest) else f"{r.longest:,}"
        how = "" if pd.isna(r.how) else r.how
        lines.append(f"| {r.name} | {r.cards:,} | {r.states:,} | {r.found} | {found} | {how} "
                     f"| {'' if pd.isna(r.longest_deal) else '`' + r.longest_deal + '`'} |")
    return "\n".join(lines)


def records_prose(back: pd.DataFrame, loops: pd.DataFrame) -> str:
    """The paragraph under the records table and the list of the deals that never end."""
    wins = back[back["outcome"] == "win"]
    known = dict(zip(wins["deal"], wins["name"]))
    cards = dict(zip(wins["name"], wins["cards"]))
    longer = wins[wins["longest"].notna()]
    text = []
    for target, g in longer[longer["longest_deal"].isin(known)].groupby("longest_deal", sort=False):
        names = [f"{r.name} ({r.cards:,} cards)" for r in g.itertuples()]
        text.append(f"{' and '.join(names)} {'both run' if len(names) == 2 else 'runs'} back to the deal of "
                    f"{known[target]} ({cards[known[target]]:,}), card for card: the search rebuilds a later record "
                    f"from {'either' if len(names) == 2 else 'an'} earlier one.")
    for r in longer[~longer["longest_deal"].isin(known)].itertuples():
        beaten = wins[wins["cards"] > r.longest].iloc[0]  # the records are in the order they were set
        text.append(f"{r.name} ({r.cards:,}) runs back to a deal of {r.longest:,} cards, longer than the records "
                    f"before {beaten['name']} ({beaten['cards']:,}).")
    maximal = list(wins[wins["longest"].isna()]["name"])
    text.append(f"No longer deal runs into {', '.join(maximal[:-1])} or {maximal[-1]}.")
    loop = back[back["outcome"] == "loop"].iloc[0]
    game = bs.play(loop["deal"])
    text.append(f"The deal that never ends ({loop['name']}) has {loop['found']:,} other deals running into its game "
                f"({loop['states']:,} states run back, every tree searched to its end), {loop['found'] + 1:,} with "
                f"it; each of them plays into the same loop of {loop['loop_cards']:,} cards "
                f"({game.loop_tricks} tricks):")
    lines = [" ".join(text), "", "| deal that never ends | loop from card | loop (cards) | how it was found |",
             "|---|---:|---:|---|",
             f"| `{loop['deal']}` | {game.loop_start_cards:,} | {loop['loop_cards']:,} | {loop['name']} |"]
    lines += [f"| `{r.deal}` | {r.loop_start_cards:,} | {r.loop_cards:,} | {r.how} of {r.record}'s deal |"
              for r in loops.itertuples()]
    return "\n".join(lines)


BLOCK = re.compile(r"<!-- search:begin (\w+) -->\n.*?<!-- search:end \1 -->", re.S)


def fill_blocks(text: str, generated: dict) -> str:
    """``text`` with each ``<!-- search:begin NAME -->`` block holding ``generated[NAME]``."""
    def fill(m):
        return f"<!-- search:begin {m.group(1)} -->\n{generated[m.group(1)]}\n<!-- search:end {m.group(1)} -->"
    return BLOCK.sub(fill, text)


def blocks(out: Path) -> dict:
    """The generated blocks of docs/search.md from the data in ``out``."""
    figures = json.loads((out / "runs.json").read_text())
    deals = pd.read_csv(out / "longest.csv", keep_default_na=False, na_values=[""])
    gains = json.loads((out / "gains.json").read_text()) if (out / "gains.json").exists() else None
    got = {"runs": markdown(figures), "known": longest_known(figures, deals), "two": prose(figures),
           "hour": hour_prose(figures, gains)}
    if gains is not None:
        got["gains"] = gains_prose(gains, figures)
    if (out / "records_back.csv").exists():
        back = pd.read_csv(out / "records_back.csv", keep_default_na=False, na_values=[""])
        for c in ("loop_cards", "longest"):
            back[c] = back[c].astype("Int64")
        loops = pd.read_csv(out / "never_ending.csv")
        got["records"] = records_table(back)
        got["never"] = records_prose(back, loops)
    return got


if __name__ == "__main__":
    sys.exit(main())
