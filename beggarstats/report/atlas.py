"""The exact atlas: censuses of the small decks of the standard family, kept in data/census/.

Read from the committed data (`run.committed_data`: ``census/`` there, `atlas_dir`); the runner
writes into the source tree's ``data/census/`` and refuses an installed copy.

One file per census, ``<players>p-<numbers>-<J>-<Q>-<K>-<A>[-empty].json`` (`Summary.save`: JSON with
a checksum), and ``atlas.csv``, the table of `analysis.exact.exact_table` over them with the
distinct cycles of `run.cycles.loop_cycles`. ``python -m beggarstats.report.atlas [--jobs N]
[--max-deals N]`` computes the censuses not yet on file, the smallest first (each resumable through its
own store), adds the wall and CPU time of each large one to ``runtimes.csv``, and rewrites the table;
`load_atlas` reads the censuses back. Its arguments are checked as the command line's are (exit status
2 and one line, as is a damaged census file, before any census runs).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

from ..run.committed_data import InstalledCopy, data_folder, data_path, source_data_folder

__all__ = ["atlas_dir", "ATLAS_DECKS", "FIGURE_DECKS", "RUNTIME_COLUMNS", "RECORDED_DEALS", "atlas_rules",
           "census_file", "build_atlas", "load_atlas", "record_runtime", "deck_markdown"]

ATLAS = "census"  # the atlas's folder in the committed data
RUNNER = "python -m beggarstats.report.atlas"


def atlas_dir() -> Path:
    """The committed atlas: ``census/`` of the committed data (`run.committed_data.data_folder`)."""
    return data_folder() / ATLAS

# (players, deck counts, end). Three and four players: one of each penalty card up to 60 number cards
# (64 cards, the census kernels' limit; 15,249,024 deals), two of each up to 14 (805,820,400 deals), the
# family's bound of about 10^9 deals. Past it (issue #42 item 7b, on the CPU): two players with two of
# each and 15-20 number cards (1,235,591,280 to 7,832,424,600 deals), three and four players with 15; then
# (issue #52 item 7) two players with 21 to 24 (10,816,205,400 to 26,506,116,000 deals).
ATLAS_DECKS = tuple(
    [(2, (k, 1, 1, 1, 1), "trick") for k in range(0, 25)]
    + [(2, (k, 2, 2, 2, 2), "trick") for k in range(2, 18)]
    + [(p, (k, 1, 1, 1, 1), "trick") for p in (3, 4) for k in range(0, 61)]
    + [(p, (k, 2, 2, 2, 2), "trick") for p in (3, 4) for k in range(2, 15)]
    + [(2, (14, 2, 2, 2, 0), "trick"), (2, (14, 2, 2, 2, 0), "empty")]
    + [(2, (18, 2, 2, 2, 2), "trick")]  # the standard half deck: 3,936,933,000 deals
    + [(2, (k, 2, 2, 2, 2), "trick") for k in range(19, 25)]  # 21 to 24 (1.08e10 to 2.65e10 deals): issue #52 item 7
    + [(p, (15, 2, 2, 2, 2), "trick") for p in (3, 4)]
)
# The decks of the small-deck loop figure (`report.figures.small_decks`) not above, every one but the
# 28-card deck of the scaled-down standard mix (5.2e10 deals): the figure shows their exact shares.
FIGURE_DECKS = tuple(
    [(2, (k, 2, 0, 0, 0), "trick") for k in range(6, 27, 2)]
    + [(2, (k, 1, 1, 0, 0), "trick") for k in range(6, 27, 2)]
    + [(2, c, "trick") for c in ((7, 1, 1, 1, 0), (11, 2, 1, 1, 1), (12, 2, 2, 1, 1), (14, 2, 2, 1, 1),
                                  (15, 2, 2, 2, 1), (17, 2, 2, 2, 1))]
)
ATLAS_DECKS = ATLAS_DECKS + FIGURE_DECKS


def atlas_rules(players, counts, end):
    from ..game.decks import Deck
    from ..game.rules import Rules

    return Rules(players=players, deck=Deck.from_counts(counts), end=end)


def census_file(players, counts, end, root=None) -> Path:
    name = f"{players}p-{'-'.join(map(str, counts))}{'' if end == 'trick' else '-' + end}.json"
    return Path(root or atlas_dir()) / name


def load_atlas(root=None) -> list:
    """The censuses on file, in the order of `ATLAS_DECKS` (a damaged file is refused)."""
    from ..run.summary import load_summary

    return [load_summary(f) for f in (census_file(*d, root=root) for d in ATLAS_DECKS) if f.exists()]


RUNTIME_COLUMNS = ("file", "deals", "wall_seconds", "cpu_seconds", "jobs", "machine", "source")
RECORDED_DEALS = 10**7  # `build_atlas` adds a census of at least this many deals to runtimes.csv


def record_runtime(row: dict, root=None) -> Path:
    """Add ``row`` (the keys of `RUNTIME_COLUMNS`) to ``runtimes.csv``, replacing the row of the same
    file and machine ('quiet': nothing else ran; 'shared': other work shared the machine)."""
    import pandas as pd

    if set(row) != set(RUNTIME_COLUMNS):
        raise ValueError(f"The value for `row` must have exactly the columns {RUNTIME_COLUMNS}, but it has {sorted(row)}.")
    if row["machine"] not in ("quiet", "shared"):
        raise ValueError(f"The value for `machine` must be 'quiet' or 'shared', but {row['machine']!r} was passed.")
    path = Path(root or source_data_folder(RUNNER) / ATLAS) / "runtimes.csv"
    table = pd.read_csv(path) if path.exists() else pd.DataFrame(columns=list(RUNTIME_COLUMNS))
    table = table[(table["file"] != row["file"]) | (table["machine"] != row["machine"])]
    table = pd.concat([table, pd.DataFrame([row], columns=list(RUNTIME_COLUMNS))], ignore_index=True)
    table.to_csv(path, index=False)
    return path


def build_atlas(root=None, *, n_jobs=None, progress=False, max_deals=None) -> None:
    """Run every census of `ATLAS_DECKS` not yet on file, the fewest deals first (what finishes in a
    limited time is then as many decks as possible), then write ``atlas.csv`` in the order of
    `ATLAS_DECKS`. A census of at least `RECORDED_DEALS` deals adds its wall and process CPU time (the
    kernels run in threads) to ``runtimes.csv`` as run on a 'shared' machine. ``max_deals`` goes to
    every `census` (default None: its limit, which refuses a deck of more than 10^10 deals). The
    arguments, and every census already on file (a damaged one raises, naming it), are checked
    before any census runs."""
    import resource
    import shutil

    import joblib

    from ..analysis.exact import exact_table
    from ..engine.rank import n_deals
    from ..game.checks import check_n_jobs, whole
    from ..run.census import census
    from ..run.cycles import loop_cycles
    from ..run.progress import check_progress
    from ..run.summary import load_summary

    n_jobs, progress = check_n_jobs(n_jobs), check_progress(progress)
    max_deals = whole("max_deals", max_deals, 1, 2**63 - 1, none=True)  # (past it: no census ends)
    if root is not None and (not isinstance(root, (str, os.PathLike)) or not str(root).strip()):
        raise ValueError(f"The value for `root` must be a folder's path or None (data/census/), but {root!r} was "
                         f"passed.")
    root = Path(root) if root is not None else source_data_folder(RUNNER) / ATLAS
    root.mkdir(parents=True, exist_ok=True)
    on_file = [census_file(*d, root=root) for d in ATLAS_DECKS if os.path.lexists(census_file(*d, root=root))]
    for path in on_file:  # a damaged file is said now, not after hours of censuses
        load_summary(path)
    missing = sorted((d for d in ATLAS_DECKS if census_file(*d, root=root) not in on_file),
                     key=lambda d: n_deals(atlas_rules(*d)))  # stable: ties keep the order of ATLAS_DECKS
    for deck in missing:
        path = census_file(*deck, root=root)
        store = root / (".store-" + path.stem)
        resumed = store.exists()
        load = os.getloadavg()[0]
        t0, c0 = time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF)
        s = census(atlas_rules(*deck), n_jobs=n_jobs, progress=progress, store=store, max_deals=max_deals)
        c1 = resource.getrusage(resource.RUSAGE_SELF)
        wall, cpu = time.perf_counter() - t0, (c1.ru_utime + c1.ru_stime) - (c0.ru_utime + c0.ru_stime)
        s.save(path)
        shutil.rmtree(store, ignore_errors=True)
        if s.n_games >= RECORDED_DEALS:
            record_runtime({
                "file": path.name, "deals": s.n_games, "wall_seconds": round(wall, 1), "cpu_seconds": round(cpu, 1),
                "jobs": joblib.effective_n_jobs(n_jobs), "machine": "shared",
                "source": (f"python -m beggarstats.report.atlas --jobs {n_jobs}"
                           + ("" if max_deals is None else f" --max-deals {max_deals}")
                           + f" (niceness {os.nice(0)}), other work "
                           f"sharing the 2-core machine; wall and process CPU (resource.getrusage) around census(); "
                           f"1-minute load average {load:.1f} at its start, {os.getloadavg()[0]:.1f} at its end"
                           + ("; resumed from its store, so the times are those of the rest only" if resumed else ""))},
                root)
        print(f"{path.name}: {s.n_games:,} deals, {s.outcomes[1]} loops, {wall:.1f} s wall, {cpu:.1f} s CPU",
              file=sys.stderr, flush=True)
    summaries = load_atlas(root)
    table = exact_table(summaries, [len(loop_cycles(s)[1]) for s in summaries])
    table.to_csv(root / "atlas.csv", index=False, float_format="%.10g")


def deck_markdown(players, counts, end="trick", root=None) -> str:
    """The row of ``atlas.csv`` for one census as a Markdown table (what README.md quotes for the
    standard half deck; a test regenerates it): deals, loops, distinct cycles, each seat's exact
    share of the deals with a winner, mean and sd of the finished deals' length and the longest deal
    with its rank. Exact values, printed to 6 significant digits."""
    import pandas as pd

    table = pd.read_csv(Path(root) / "atlas.csv" if root else data_path(ATLAS, "atlas.csv", made_by=RUNNER))
    keys = dict(zip(("numbers", "jacks", "queens", "kings", "aces"), counts))
    hit = table[(table["players"] == players) & (table["end"] == end)
                & np.logical_and.reduce([table[k] == v for k, v in keys.items()])]
    if len(hit) != 1:
        raise ValueError(f"The values for `players`, `counts` and `end` must name a census in atlas.csv, but it "
                         f"has none of {players} players, deck {counts}, end {end!r}.")
    r = hit.iloc[0]
    seats = [f"seat {s}" for s in range(players)]
    head = ["deck", "players", "deals", "loops", "distinct cycles", *(f"{s} wins" for s in seats), "mean cards",
            "sd cards", "longest (cards)", "its rank"]
    cells = [r["deck"], str(players), f"{int(r['deals']):,}", f"{int(r['loops']):,}", f"{int(r['cycles']):,}",
             *(f"{100 * r[f'seat{s}_share']:.4f}%" for s in range(players)), f"{r['mean_cards']:.6g}",
             f"{r['sd_cards']:.6g}", f"{int(r['max_cards']):,}", f"{int(r['longest_rank']):,}"]
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1),
                      "| " + " | ".join(cells) + " |"])


PROG = "python -m beggarstats.report.atlas"


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # as the command line's: one line naming the flag, exit 2
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _whole(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a whole number written in digits (e.g. 100000000000), but "
                                         f"{text.strip()!r} was passed") from None


def main(argv=None) -> int:
    """The atlas runner: `build_atlas` with the command line's checks (exit status 2 and one line for a
    bad argument, a damaged census file or an unwritable folder; 130 on Ctrl-C, the census in progress
    resuming from its store)."""
    from ..game.checks import check_n_jobs

    parser = _Parser(prog=PROG, description="Compute the censuses of the exact atlas into data/census/.")
    parser.add_argument("--jobs", type=_whole, default=None,
                        help="parallel workers; -1 = all cores (default: 1, as the API's n_jobs=None)")
    parser.add_argument("--max-deals", type=_whole, default=None,
                        help="run a census of up to this many deals (default: census()'s limit, 10^10 deals, and "
                             "10^9 when it would take more than an hour here)")
    parser.add_argument("--root", default=None, help="the folder of the censuses (default: data/census/)")
    parser.add_argument("--progress", action="store_true", help="show a progress bar on stderr (default off)")
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # --help (0) or a usage error (2, already said)
        return exc.code if isinstance(exc.code, int) else 2
    try:
        check_n_jobs(args.jobs, name="--jobs")  # before the censuses on file are read: now, and in the flag's words
        if args.max_deals is not None and not 1 <= args.max_deals <= 2**63 - 1:
            raise ValueError(f"--max-deals must be a whole number from 1 to {2**63 - 1}, but {args.max_deals} was "
                             f"passed.")
        build_atlas(args.root, n_jobs=args.jobs, progress=args.progress, max_deals=args.max_deals)
    except InstalledCopy as exc:  # its data/ is not what a commit holds
        print(exc, file=sys.stderr)
        return 2
    except (ValueError, OSError) as exc:  # StoreError (a damaged census or store) is a ValueError
        message = " ".join(str(exc).split())
        if isinstance(exc, OSError) and exc.filename:  # the folder or a file in it, as the system said it
            message = f"cannot write {str(exc.filename)!r} ({exc.strerror}): pass a writable --root"
        # census()'s words for the flag (and no range of ranks: the atlas holds whole censuses)
        message = message.replace("`max_deals`", "--max-deals").replace(", or a range of ranks (`start`, `stop`)", "")
        print(f"{PROG}: error: {message}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"{PROG}: interrupted (the census under way resumes from its store on the next run)", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
