"""The GPU engine against the CPU engine, in one prepared run: identity, then speed, then (optional)
the long runs. Needs an NVIDIA GPU and the ``cuda`` extra (``pip install "beggarstats[cuda]"``).

    python benchmarks/gpu.py [--games 100000] [--frontier SECONDS --out DIR]

1. Identity: for every table below, ``--games`` random games played row by row on the GPU
   (`engine.gpu.play_games_cuda`) against the CPU engine (`engine.fast.play_games`), every array
   compared; and `summarize(device="cuda")` against `summarize()` on the CPU, field for field.
2. Speed: `summarize(device="cuda")` on each table (games/s, cards/s, after the kernel is
   compiled: ``cuda/refill``, a thread taking the next ids as its games end, the default); on the
   standard tables also ``cuda/fixed`` (every G-th id, as measured on 2026-12-04; `engine.gpu.LANES`)
   on the same games, the two summaries compared, and the same machine's CPU, every core, in the
   same run.
3. With ``--frontier S``: about S seconds of `summarize(device="cuda")` on the standard tables,
   continuing the committed summaries (``data/summary-p*.json``: seed 2026, top 20) from where
   they end, saved to ``--out`` as ``summary-pN-gpu.json`` after every step.

Prints one table per stage; exit status 1 if any game differs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import beggarstats as bs  # noqa: E402
from beggarstats.engine import gpu  # noqa: E402
from beggarstats.engine.fast import play_games  # noqa: E402
from beggarstats.engine.gpu import check_device, gpu_name, play_games_cuda  # noqa: E402
from beggarstats.run import summary_gpu  # noqa: E402
from beggarstats.run.committed_data import data_folder  # noqa: E402
from beggarstats.run.summary import load_summary  # noqa: E402

TABLES = {
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
SEED = 2026


def identity(games: int) -> bool:
    print(f"\n## identity: {games:,} games a table, GPU rows against the CPU engine; summaries field for field "
          f"(the GPU sharing out its games the {gpu.LANES!r} way)")
    print(f"{'table':<26} {'rows':>6} {'handed back':>12} {'summary':>8} {'GPU s':>7} {'CPU s':>7}")
    ok = True
    ids = np.arange(games, dtype=np.int64) + 2**33  # ids above 2^32 too
    for name, rules in TABLES.items():
        t = time.perf_counter()
        g = play_games_cuda(rules, SEED, ids, per_seat=True)
        tg = time.perf_counter() - t
        t = time.perf_counter()
        c = play_games(rules, SEED, ids, per_seat=True)
        tc = time.perf_counter() - t
        same = all(np.array_equal(g[k], c[k]) for k in c) and set(g) == set(c)
        n_back = int(np.count_nonzero(c["outcome"] != 0))
        s_gpu = bs.summarize(games, rules=rules, seed=SEED, start=2**33, device="cuda", top=20)
        s_cpu = bs.summarize(games, rules=rules, seed=SEED, start=2**33, n_jobs=-1, top=20)
        same_s = s_gpu == s_cpu
        ok &= same and same_s
        print(f"{name:<26} {'same' if same else 'DIFF':>6} {n_back:>12,} {'same' if same_s else 'DIFF':>8} "
              f"{tg:>7.2f} {tc:>7.2f}", flush=True)
    return ok


def _cards(s) -> int:
    return int(sum(int((h * np.arange(h.size)).sum()) for h in s.cards) + s.over_cap["cards"].sum())


def speed(seconds: float, cpu_seconds: float, warm: int) -> tuple[list, bool]:
    """Each table's row 'cuda/refill'; on the standard tables also 'cuda/fixed' (the same games:
    their summaries must be equal) and 'cpu'; and whether every pair was equal."""
    print(f"\n## speed: summarize(device='cuda') about {seconds:g} s a table, after compiling; standard tables: "
          f"refill, then fixed on the same games, then the CPU, every core")
    print(f"{'table':<26} {'device':<12} {'games':>15} {'s':>7} {'games/s':>10} {'cards/s':>10}")
    rows = []
    ok = True
    for name, rules in TABLES.items():
        n = None
        summaries = {}
        standard = name.endswith("standard")  # both ways and the CPU; the variants: the default way only
        runs = [("cuda", "refill")] + ([("cuda", "fixed"), ("cpu", None)] if standard else [])
        for device, lanes in runs:
            gpu.LANES = lanes or "refill"
            if n is None or device == "cpu":  # the fixed lanes play the refill's games, the CPU its own
                n = warm
                bs.summarize(n, rules=rules, seed=SEED, device=device, n_jobs=-1)  # compiles; sizes the run
                t = time.perf_counter()
                bs.summarize(n, rules=rules, seed=SEED, start=n, device=device, n_jobs=-1)
                rate = n / max(time.perf_counter() - t, 1e-9)
                n = int(min(max(rate * (seconds if device == "cuda" else cpu_seconds), warm), 2**36))
            else:
                bs.summarize(warm, rules=rules, seed=SEED, device=device, n_jobs=-1)  # compiles
            summary_gpu._last_bar.clear()  # both ways guess the first chunk's bar alike (a second launch)
            t = time.perf_counter()
            s = bs.summarize(n, rules=rules, seed=SEED, start=2 * warm, device=device, n_jobs=-1)
            took = time.perf_counter() - t
            summaries[lanes] = s
            label = f"cuda/{lanes}" if lanes else device
            row = {"table": name, "device": device, "lanes": lanes, "games": n, "seconds": took,
                   "games_per_s": n / took, "cards_per_s": _cards(s) / took}
            rows.append(row)
            note = ""
            if lanes == "fixed":
                same = summaries["fixed"] == summaries["refill"]
                ok &= same
                note = "" if same else "  DIFF: not the refill's summary"
            print(f"{name:<26} {label:<12} {n:>15,} {took:>7.2f} {n / took:>10.3g} {_cards(s) / took:>10.3g}{note}",
                  flush=True)
    gpu.LANES = "refill"
    return rows, ok


def census_speed(seconds: float, check: int = 1 << 20) -> tuple[dict, bool]:
    """census(device='cuda') of the 24-card standard mix (two of each penalty card, 1.85e9 deals):
    its first ``check`` ranks against the CPU census, then deals/s over about ``seconds``."""
    rules = bs.Rules(deck=bs.Deck(16, 2, 2, 2, 2))
    print(f"\n## census: {rules.deck.label()} deck, 2 players, ranks stepped on the GPU")
    same = bs.census(rules, device="cuda", stop=check) == bs.census(rules, stop=check, n_jobs=-1)
    t = time.perf_counter()
    bs.census(rules, device="cuda", start=check, stop=2 * check)
    rate = check / max(time.perf_counter() - t, 1e-9)
    n = int(min(max(rate * seconds, check), 1_850_000_000 - 2 * check))
    t = time.perf_counter()
    bs.census(rules, device="cuda", start=2 * check, stop=2 * check + n, max_deals=n)
    took = time.perf_counter() - t
    print(f"first {check:,} ranks: {'same' if same else 'DIFF'} as the CPU census; {n:,} deals in {took:.2f} s: "
          f"{n / took:.3g} deals/s", flush=True)
    return {"table": "census 16/2/2/2/2", "device": "cuda", "deals": n, "seconds": took, "deals_per_s": n / took}, same


def frontier(seconds: float, out: Path, data: Path, step2: int = 1 << 30, stepn: int = 1 << 28) -> None:
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


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000, help="games a table for the identity check")
    ap.add_argument("--seconds", type=float, default=3.0, help="GPU seconds a table and way for the speed table")
    ap.add_argument("--cpu-seconds", type=float, default=5.0, help="CPU seconds a standard table")
    ap.add_argument("--frontier", type=float, default=0.0, help="seconds of long runs (0: none)")
    ap.add_argument("--deadline", type=float, default=0.0,
                    help="seconds from the start by which the frontier stage stops (0: --frontier alone)")
    ap.add_argument("--warm", type=int, default=1 << 20, help="games of the run that compiles and sizes each row")
    ap.add_argument("--step", type=int, default=1 << 30, help="two-player games a frontier step (3-6: a quarter)")
    ap.add_argument("--out", type=Path, default=Path("."), help="where the tables and summaries go")
    args = ap.parse_args(argv)
    started = time.perf_counter()
    check_device("cuda")
    from beggarstats.engine.fast import KERNELS
    from beggarstats.run.warmup import warm_up

    warm_up([k for k in KERNELS if k != "general"])  # the CPU kernels, side by side on every core
    args.out.mkdir(parents=True, exist_ok=True)
    print(f"GPU: {gpu_name()}; CPU: {os.cpu_count()} cores; beggarstats RULES_VERSION {bs.RULES_VERSION}")
    t = time.perf_counter()
    ok = identity(args.games)
    print(f"(identity stage {time.perf_counter() - t:.0f} s, kernels compiled in it)")
    rows, same_lanes = speed(args.seconds, args.cpu_seconds, args.warm)
    row, same = census_speed(args.seconds)
    rows.append(row)
    ok = ok and same and same_lanes
    (args.out / "gpu-speed.json").write_text(json.dumps({"gpu": gpu_name(), "cpu_cores": os.cpu_count(),
                                                         "identical": ok, "rows": rows}, indent=1))
    seconds = args.frontier
    if args.deadline > 0:
        seconds = min(seconds, args.deadline - (time.perf_counter() - started))
    if seconds > 0:
        frontier(seconds, args.out, data_folder(), args.step, max(1, args.step // 4))
    print("\nidentical on every check" if ok else "\nDIFFERENCES FOUND")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
