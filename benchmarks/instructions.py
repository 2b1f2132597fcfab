"""Instructions and branch mispredictions a card, counted by valgrind: engine speed without the noise.

This machine is shared: its speed drifts by a third within a run, so a change of 5% to the engine
cannot be told from the noise by timing it. Counting is exact and the same on every run. This plays
the rows of `side_by_side.rows()` (the rows of `throughput.py`, then two for the exact driver) under
``valgrind --tool=callgrind --branch-sim=yes`` and prints, per card played, the instructions
executed, the conditional branches and the branches callgrind's simulated predictor mispredicts (a
model, not this CPU's predictor: read it as a trend), beside the C anchor `benchmarks/c/bmn.c` on
the same games (built for x86-64-v3: valgrind does not run AVX-512). Only the games are counted,
deals included: Python and loading the kernels are outside the count (callgrind's client requests,
through a small shim built with gcc). With ``--old CHECKOUT`` the same rows are counted
in another checkout too (typically ``git worktree add /tmp/old <commit>``), and new/old printed.

Usage::

    python benchmarks/instructions.py [--games N] [--rows TEXT ...] [--old CHECKOUT]

valgrind runs code 50-100 times slower: 20,000 games a row (the default) take a few seconds each.
Numba sees another CPU under valgrind, so the first run in a kernel cache compiles every kernel it
plays again under valgrind (several minutes each); later runs load them. Needs valgrind and its
header ``valgrind/callgrind.h`` (Debian: valgrind), and gcc.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "benchmarks"))
from side_by_side import rows  # noqa: E402
from throughput import build_c  # noqa: E402

_SHIM = r"""
#include <valgrind/callgrind.h>
void bs_count_start(void) { CALLGRIND_START_INSTRUMENTATION; CALLGRIND_ZERO_STATS; }
void bs_count_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); CALLGRIND_STOP_INSTRUMENTATION; }
"""

# Runs under valgrind inside the checkout counted: its own beggarstats, the rows given.
_COUNTER = r"""
import ctypes, gc, json, sys
import numpy as np
import beggarstats as bs
from beggarstats.engine import fast
from beggarstats.engine.fast import play_games
shim = ctypes.CDLL(sys.argv[3])
try:  # the exact driver, which a fast pass hands its rare games: loaded now, not inside a count
    fast.compile_kernels("exact")
except (AttributeError, ValueError):  # a checkout without it
    pass
gc.disable()  # no collection inside a count
rows = json.loads(sys.argv[1]); games = int(sys.argv[2]); out = {}
ids = np.arange(games, dtype=np.int64)
for k, (label, options) in enumerate(rows):
    try:
        rules = bs.Rules.from_dict(options)
    except TypeError:  # an option this checkout does not have
        continue
    play_games(rules, 12345, ids[:64])  # compile / load from the cache, outside the count
    gc.collect()
    shim.bs_count_start()
    res = play_games(rules, 12345, ids)
    shim.bs_count_dump(f"row{k}".encode())
    out[label] = [k, int(res["cards"].sum())]
print(json.dumps(out))
"""

EVENTS = ("Ir", "Bc", "Bcm")


def build_shim(workdir: Path) -> Path:
    """The shim's shared library, built with gcc against valgrind's header."""
    gcc = shutil.which("gcc")
    if gcc is None:
        raise RuntimeError("gcc not found: the callgrind shim is built with it")
    if not Path("/usr/include/valgrind/callgrind.h").exists():
        raise RuntimeError("valgrind/callgrind.h not found: install valgrind (Debian: apt-get install valgrind)")
    src = workdir / "bs_count.c"
    src.write_text(_SHIM)
    lib = workdir / "libbs_count.so"
    subprocess.run([gcc, "-O2", "-shared", "-fPIC", str(src), "-o", str(lib)], check=True)
    return lib


def count_c(workdir: Path, games: int) -> dict[str, int]:
    """The C anchor `benchmarks/c/bmn.c` on the same games, counted whole (its start-up is about
    125,000 instructions, under 0.1% of 20,000 games). Built for x86-64-v3 (AVX2, BMI2), not for
    this CPU as throughput.py builds it: valgrind does not run AVX-512."""
    exe = build_c(workdir, march="x86-64-v3")
    out = workdir / "cg.c.out"
    done = subprocess.run(["valgrind", "--tool=callgrind", "--branch-sim=yes", f"--callgrind-out-file={out}",
                           str(exe), str(games), "12345"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"counting the C anchor failed:\n{done.stderr[-2000:]}")
    fields = done.stdout.split()
    cards = int(dict(zip(fields[::2], fields[1::2]))["cards"])
    return {"cards": cards, **{e: read_dump(out)[e] for e in EVENTS}}


def read_dump(path: Path) -> dict[str, int]:
    """The event totals of one callgrind dump (its ``events:`` and ``summary:``/``totals:`` lines)."""
    names, totals = None, None
    for line in path.read_text().splitlines():
        if line.startswith("events:"):
            names = line.split()[1:]
        elif line.startswith(("summary:", "totals:")):
            totals = [int(x) for x in line.split()[1:]]
    if names is None or totals is None:
        raise RuntimeError(f"{path}: no events or totals line (not a callgrind dump?)")
    return dict(zip(names, totals))


def count_checkout(checkout: Path, table: list, games: int, shim: Path, workdir: Path) -> dict[str, dict]:
    """Per row label: cards played and the events counted while playing them, in ``checkout``."""
    out_dir = Path(tempfile.mkdtemp(dir=workdir))
    env = {**os.environ, "PYTHONPATH": str(checkout)}
    cmd = ["valgrind", "--tool=callgrind", "--instr-atstart=no", "--branch-sim=yes",
           f"--callgrind-out-file={out_dir}/cg.out", sys.executable, "-c", _COUNTER, json.dumps(table), str(games),
           str(shim)]
    done = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"counting {checkout} failed:\n{done.stderr[-2000:]}")
    played = json.loads(done.stdout.strip().splitlines()[-1])
    dumps = {}
    for path in out_dir.glob("cg.out*"):
        trigger = re.search(r"^desc: Trigger: Client Request: row(\d+)$", path.read_text(), re.M)
        if trigger:
            dumps[int(trigger.group(1))] = read_dump(path)
    counted = {}
    for label, (k, cards) in played.items():
        if k not in dumps:
            raise RuntimeError(f"no callgrind dump for row {label!r} in {out_dir}")
        counted[label] = {"cards": cards, **{e: dumps[k][e] for e in EVENTS}}
    return counted


def per_card(row: dict) -> tuple[float, float, float]:
    return tuple(row[e] / row["cards"] for e in EVENTS)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per row (default 20,000)")
    ap.add_argument("--rows", nargs="*", default=None, metavar="TEXT",
                    help="only the rows whose label contains one of these texts (default: every row)")
    ap.add_argument("--old", type=Path, default=None, help="another checkout to count beside this one")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        print("error: valgrind not found (Debian: apt-get install valgrind)", file=sys.stderr)
        return 2
    old = None if args.old is None else args.old.resolve()
    if old is not None and not (old / "beggarstats").is_dir():
        print(f"error: --old {old} is not a beggarstats checkout", file=sys.stderr)
        return 2
    table = rows()
    if args.rows:
        table = [(label, options) for label, options in table if any(t in label for t in args.rows)]
    if not table:
        print(f"error: --rows {args.rows} matches no row", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        try:
            shim = build_shim(Path(tmp))
            new = count_checkout(REPO, table, args.games, shim, Path(tmp))
            before = None if old is None else count_checkout(old, table, args.games, shim, Path(tmp))
            anchor = count_c(Path(tmp), args.games)
        except RuntimeError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
    base = per_card(new[table[0][0]])[0] if table[0][0] in new else None
    print(f"instructions a card (valgrind callgrind, exact), {args.games:,} games per row, seed 12345"
          + ("" if old is None else f"; old = {old}"))
    head = f"{'row':<34}{'instr/card':>11}{'branches':>9}{'mispred.':>9}{'vs first':>9}"
    if before is not None:
        head += f"{'old instr':>10}{'new/old':>8}{'old misp.':>10}{'new/old':>8}"
    print(head)
    print("-" * len(head))
    ir, bc, bcm = per_card(anchor)
    print(f"{'C anchor bmn.c, 2 players':<34}{ir:>11.2f}{bc:>9.2f}{bcm:>9.3f}{base / ir:>8.3f}x")
    for label, _ in table:
        if label not in new:
            continue
        ir, bc, bcm = per_card(new[label])
        line = f"{label:<34}{ir:>11.2f}{bc:>9.2f}{bcm:>9.3f}{base / ir:>8.3f}x"
        if before is not None and label in before:
            oir, _, obcm = per_card(before[label])
            line += f"{oir:>10.2f}{ir / oir:>8.3f}{obcm:>10.3f}{bcm / obcm if obcm else float('nan'):>8.3f}"
        print(line)
    print(f"'vs first': the first row's instructions a card over the row's ({table[0][0]}); "
          "the simulated mispredictions are callgrind's model, not this CPU's")
    if table[0][0] == "standard, 2 players" and anchor["cards"] != new[table[0][0]]["cards"]:
        print(f"error: the C anchor played {anchor['cards']:,} cards, our engine {new[table[0][0]]['cards']:,}: "
              "not the same games", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
