"""The GPU engine against the CPU engine, in one run a bare GPU machine starts cold: preflight, identity,
one speed table, then (optional) the long runs. Needs an NVIDIA GPU and the ``cuda`` extra; every package
must already be there (a GPU machine here reaches no package registry).

    python benchmarks/gpu.py --preflight          # a few seconds: what is missing, then exit
    python benchmarks/gpu.py --out DIR            # the run (benchmarks/README.md: the exact command)

0. Preflight (a few seconds, every run: `gpu_preflight.py`): anything missing is named with its fix and
   the run stops (status 2) before anything compiles. Without platformdirs the kernel cache is ``--cache``.
1. Identity (``--games`` a table, ids above 2^32): `summarize(device="cuda")` against the CPU's
   `summarize`, field for field, on every table; the rows of `engine.gpu.play_games_cuda` against
   `engine.fast.play_games` (per-seat figures included) on the standard 2- and 4-player tables; the census
   of the first ``--census-check`` ranks of a 24-card deck against the CPU census. Every GPU kernel the run
   uses is compiled here, once a process (`engine.gpu_kernels`, `engine.gpu_refill` keep them).
2. Speed, one table: games/s and cards/s of `summarize(device="cuda")` for 2-6 players and each variant
   (``cuda/refill``: a trick a loop step, the default; ``cuda/fixed``, a game a thread, on the same games
   for the two-player standard table, or every standard table with ``--fixed``), census deals/s, and the
   same machine's CPU (every core) on the standard tables and the census, in the same run. Each GPU row
   times whole chunks of ``--chunk`` games (2^28) after a chunk of the same size has set the bar of the
   candidates for the longest (`run.summary_gpu`), and counts the launches: every timed chunk is launched
   once, and a row that needed more says so. (Before, the bar was cleared before each timed run, so each
   chunk was launched twice and the rate read half the steady one: 1.49e8 against 3.0e8 on 2026-12-04.)
3. With ``--frontier S``: about S seconds of `summarize(device="cuda")` on the standard tables,
   continuing the committed summaries (``data/summary-p*.json``: seed 2026, top 20), saved to ``--out``.

Exit status 1 if any check differs or a timed chunk was launched more than once; the speed rows go to
``--out``/gpu-speed.json. The cold-cache budget on an H200 is 4 minutes for stages 0-2 (``--budget``);
the run prints each stage's time and says whether it was met.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(1, str(HERE.parent))
from gpu_preflight import preflight  # noqa: E402

SEED = 2026
CENSUS_DECK = (16, 2, 2, 2, 2)  # 24 cards, two of each penalty card: 1.85e9 deals for two players
BUDGET = 240.0  # seconds, stages 0-2 from a cold cache on an H200 (issue #54)


def tables():
    import beggarstats as bs

    return {
        "2p standard": bs.Rules(),
        "2p end=empty": bs.Rules(end="empty"),
        "2p end=unable": bs.Rules(end="unable"),
        "2p Beggar joker": bs.Rules(jokers=1, joker_mode="beggar"),
        "2p 2 super jokers": bs.Rules(jokers=2),
        "2p shuffle_pile": bs.Rules(shuffle_pile=True),
        "2p 18-card deck (loops)": bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0)),
        "3p standard": bs.Rules(players=3),
        "4p standard": bs.Rules(players=4),
        "5p standard": bs.Rules(players=5),
        "6p standard": bs.Rules(players=6),
        "3p passes_on ccw": bs.Rules(players=3, exhausted_tribute="passes_on", direction="ccw"),
        "4p leader=next": bs.Rules(players=4, leader="next"),
        "4p shuffle_pile": bs.Rules(players=4, shuffle_pile=True),
        "4p end=empty": bs.Rules(players=4, end="empty"),
    }


class Launches:
    """Counts the GPU's counting launches (`engine.gpu.count_games_cuda`, `count_ranks_cuda`): one a chunk
    when the bar of the candidates was right, more when a chunk had to be launched again."""

    def __init__(self):
        from beggarstats.engine import gpu

        self.n = 0
        for name in ("count_games_cuda", "count_ranks_cuda"):
            real = getattr(gpu, name)

            def counted(*a, _real=real, **k):
                self.n += 1
                return _real(*a, **k)

            setattr(gpu, name, counted)


def identity(games: int, census_check: int, names=None) -> bool:
    import numpy as np

    import beggarstats as bs
    from beggarstats.engine.fast import play_games
    from beggarstats.engine.gpu import play_games_cuda

    print(f"\n## identity: {games:,} games a table (ids from 2^33): summaries field for field; rows on the standard 2- "
          f"and 4-player tables; the census's first {census_check:,} ranks")
    print(f"{'table':<26} {'summary':>8} {'rows':>6} {'handed back':>12} {'s':>7}")
    ok = True
    ids = np.arange(games, dtype=np.int64) + 2**33
    for name, rules in tables().items():
        if names is not None and name not in names:
            continue
        t = time.perf_counter()
        same_s = (bs.summarize(games, rules=rules, seed=SEED, start=2**33, device="cuda", top=20)
                  == bs.summarize(games, rules=rules, seed=SEED, start=2**33, n_jobs=-1, top=20))
        rows = "-"
        c = None
        if name in ("2p standard", "4p standard"):
            g = play_games_cuda(rules, SEED, ids, per_seat=True)
            c = play_games(rules, SEED, ids, per_seat=True)
            same = set(g) == set(c) and all(np.array_equal(g[k], c[k]) for k in c)
            rows = "same" if same else "DIFF"
            ok &= same
        ok &= same_s
        back = "" if c is None else f"{int(np.count_nonzero(c['outcome'] != 0)):,}"
        print(f"{name:<26} {'same' if same_s else 'DIFF':>8} {rows:>6} {back:>12} {time.perf_counter() - t:>7.1f}",
              flush=True)
    census_rules = bs.Rules(deck=bs.Deck(*CENSUS_DECK))
    t = time.perf_counter()
    same_c = bs.census(census_rules, device="cuda", stop=census_check) == bs.census(census_rules, stop=census_check,
                                                                                   n_jobs=-1)
    print(f"{'census ' + census_rules.deck.label():<26} {'same' if same_c else 'DIFF':>8} {'-':>6} {'':>12} "
          f"{time.perf_counter() - t:>7.1f}", flush=True)
    return ok and same_c


def _cards(s) -> int:
    import numpy as np

    return int(sum(int((h * np.arange(h.size)).sum()) for h in s.cards) + s.over_cap["cards"].sum())


def timed(run, *, chunk: int, seconds: float, launches: Launches | None, start: int) -> dict:
    """Time ``run(n, start, chunk_size)`` (a summarize or census of ``n`` ids from ``start``) over whole
    chunks: one chunk first (compiles, sets the bar, gives the rate), then as many chunks as fill about
    ``seconds``, the launches counted. Returns (the row's figures, the timed run's Summary)."""
    t = time.perf_counter()
    run(chunk, start, chunk)
    rate = chunk / max(time.perf_counter() - t, 1e-9)
    k = max(1, round(rate * seconds / chunk))
    before = launches.n if launches else 0
    t = time.perf_counter()
    s = run(k * chunk, start + chunk, chunk)
    took = time.perf_counter() - t
    n = k * chunk
    out = {"ids": n, "chunks": k, "seconds": took, "per_s": n / took, "cards_per_s": _cards(s) / took}
    if launches is not None:
        out["launches"] = launches.n - before
    return out, s


def speed(seconds: float, cpu_seconds: float, chunk: int, cpu_chunk: int, fixed_all: bool,
          launches: Launches, names=None, census: bool = True, top: int = 20) -> tuple[list, bool]:
    import beggarstats as bs
    from beggarstats.engine import gpu

    print(f"\n## speed: about {seconds:g} s a GPU row ({cpu_seconds:g} s a CPU row, every core), whole chunks of "
          f"{chunk:,} games after one that compiles and sets the bar; launches counted")
    print(f"{'table':<26} {'device':<12} {'games':>15} {'s':>7} {'games/s':>10} {'cards/s':>10} {'launches':>9}")
    rows, ok = [], True
    for name, rules in tables().items():
        if names is not None and name not in names:
            continue
        standard = name.endswith("standard")
        timed_games = {}
        ways = [("cuda", "refill")]
        if name == "2p standard" or (fixed_all and standard):
            ways.append(("cuda", "fixed"))
        if standard:
            ways.append(("cpu", None))
        base = 2**40  # the rows' own ids, away from the identity's
        for device, lanes in ways:
            gpu.LANES = lanes or "refill"

            def run(n, start, size, device=device):
                return bs.summarize(n, rules=rules, seed=SEED, start=start, chunk_size=size, device=device,
                                    n_jobs=-1, top=top)

            size = chunk if device == "cuda" else cpu_chunk
            row, summary = timed(run, chunk=size, seconds=seconds if device == "cuda" else cpu_seconds,
                                 launches=launches if device == "cuda" else None, start=base)
            label = f"cuda/{lanes}" if lanes else "cpu"
            once = device != "cuda" or row["launches"] == row["chunks"]
            ok &= once
            if lanes == "fixed":  # the refill row's games again: the same Summary
                same = timed_games.get(row["ids"]) in (None, summary)
                ok &= same
                row["same_as_refill"] = same
            elif lanes:
                timed_games[row["ids"]] = summary
            rows.append({"table": name, "device": label, **row})
            print(f"{name:<26} {label:<12} {row['ids']:>15,} {row['seconds']:>7.2f} {row['per_s']:>10.3g} "
                  f"{row['cards_per_s']:>10.3g} {row.get('launches', '-'):>9}"
                  + ("" if once else "  (a chunk launched again: its bar was too high)")
                  + ("" if row.get("same_as_refill", True) else "  DIFF: not the refill's summary"), flush=True)
    gpu.LANES = "refill"
    census_rules = bs.Rules(deck=bs.Deck(*CENSUS_DECK))
    for device in ("cuda", "cpu") if census else ():
        def run(n, start, size, device=device):
            return bs.census(census_rules, device=device, start=start, stop=start + n, chunk_size=size, max_deals=n,
                             n_jobs=-1, top=top)

        row, _ = timed(run, chunk=chunk if device == "cuda" else cpu_chunk,
                       seconds=seconds if device == "cuda" else cpu_seconds,
                       launches=launches if device == "cuda" else None, start=2**20)
        once = device != "cuda" or row["launches"] == row["chunks"]
        ok &= once
        rows.append({"table": f"census {census_rules.deck.label()}", "device": device, **row})
        print(f"{'census ' + census_rules.deck.label():<26} {device:<12} {row['ids']:>15,} {row['seconds']:>7.2f} "
              f"{row['per_s']:>10.3g} {'(deals/s)':>10} {row.get('launches', '-'):>9}", flush=True)
    return rows, ok


def frontier(seconds: float, out: Path, data: Path, step2: int = 1 << 30, stepn: int = 1 << 28) -> None:
    import beggarstats as bs
    from beggarstats.run.summary import load_summary

    print(f"\n## frontier: about {seconds:g} s of standard games on the GPU, continuing data/summary-p*.json")
    shares = {2: 0.6, 3: 0.1, 4: 0.1, 5: 0.1, 6: 0.1}
    for players, share in shares.items():
        base = load_summary(data / f"summary-p{players}.json")
        rules = base.rules
        start = base.ranges[-1][1]
        step = step2 if players == 2 else stepn
        total = None
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < share * seconds:
            part = bs.summarize(step, rules=rules, seed=base.seed, start=start, top=base.top, cap=base.cap,
                                device="cuda")
            total = part if total is None else total + part
            start += step
            total.save(out / f"summary-p{players}-gpu.json")
        took = time.perf_counter() - t0
        n = total.n_games if total is not None else 0
        longest = int(total.longest["cards"][0]) if n else 0
        print(f"{players} players: {n:,} games (ids {base.ranges[-1][1]:,} on) in {took:.0f} s, longest {longest:,} "
              f"cards, outcomes {[int(x) for x in total.outcomes] if n else []}", flush=True)


def parser() -> argparse.ArgumentParser:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preflight", action="store_true", help="only the preflight checks, then exit")
    ap.add_argument("--games", type=int, default=100_000, help="games a table for the identity check")
    ap.add_argument("--census-check", type=int, default=1 << 20,
                    help="ranks of the census held to the CPU census in the identity check (default 2^20)")
    ap.add_argument("--seconds", type=float, default=3.0, help="GPU seconds a speed row")
    ap.add_argument("--cpu-seconds", type=float, default=5.0, help="CPU seconds a speed row")
    ap.add_argument("--chunk", type=int, default=1 << 28, help="games a timed GPU chunk (one launch)")
    ap.add_argument("--cpu-chunk", type=int, default=1 << 22, help="games a timed CPU chunk")
    ap.add_argument("--fixed", action="store_true", help="time 'fixed' beside 'refill' on every standard table")
    ap.add_argument("--frontier", type=float, default=0.0, help="seconds of long runs (0: none)")
    ap.add_argument("--deadline", type=float, default=0.0,
                    help="seconds from the start by which the frontier stage stops (0: --frontier alone)")
    ap.add_argument("--step", type=int, default=1 << 30, help="two-player games a frontier step (3-6: a quarter)")
    ap.add_argument("--budget", type=float, default=BUDGET, help="seconds stages 0-2 may take (the cold-cache budget)")
    ap.add_argument("--cache", type=Path, default=None,
                    help="the kernel cache when platformdirs is missing (default $XDG_CACHE_HOME/beggarstats)")
    ap.add_argument("--out", type=Path, default=Path("."), help="where the speed rows and summaries go")
    return ap


def main(argv=None) -> int:
    args = parser().parse_args(argv)
    started = time.perf_counter()
    problems, found, cache = preflight(args.cache)
    for line in found:
        print(f"preflight: {line}")
    for line in problems:
        print(f"preflight: missing: {line}", file=sys.stderr)
    print(f"preflight: {time.perf_counter() - started:.1f} s" + (", nothing missing" if not problems else ""))
    if problems:
        return 2
    if args.preflight:
        return 0
    if cache is not None:
        os.environ["BEGGARSTATS_CACHE_DIR"] = str(cache)
    import beggarstats as bs
    from beggarstats.engine.gpu import gpu_name

    args.out.mkdir(parents=True, exist_ok=True)
    print(f"GPU: {gpu_name()}; CPU: {os.cpu_count()} cores; beggarstats RULES_VERSION {bs.RULES_VERSION}")
    launches = Launches()
    t = time.perf_counter()
    ok = identity(args.games, args.census_check)
    print(f"(identity stage {time.perf_counter() - t:.0f} s, every GPU kernel of the run compiled in it)")
    t = time.perf_counter()
    rows, once = speed(args.seconds, args.cpu_seconds, args.chunk, args.cpu_chunk, args.fixed, launches)
    print(f"(speed stage {time.perf_counter() - t:.0f} s)")
    took = time.perf_counter() - started
    print(f"stages 0-2: {took:.0f} s, budget {args.budget:.0f} s: {'met' if took <= args.budget else 'NOT MET'}")
    ok = ok and once
    (args.out / "gpu-speed.json").write_text(json.dumps({"gpu": gpu_name(), "cpu_cores": os.cpu_count(),
                                                         "identical": ok, "seconds_to_table": took, "rows": rows},
                                                        indent=1))
    seconds = args.frontier
    if args.deadline > 0:
        seconds = min(seconds, args.deadline - (time.perf_counter() - started))
    if seconds > 0:
        from beggarstats.run.committed_data import data_folder

        frontier(seconds, args.out, data_folder(), args.step, max(1, args.step // 4))
    print("\nidentical on every check, every timed chunk launched once" if ok else "\nDIFFERENCES FOUND")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
