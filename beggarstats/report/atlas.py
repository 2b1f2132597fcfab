"""The exact atlas: censuses of the small decks of the standard family, kept in data/census/.

One file per census, ``<players>p-<numbers>-<J>-<Q>-<K>-<A>[-empty].json`` (`Summary.save`: JSON with
a checksum), and ``atlas.csv``, the table of `analysis.exact.exact_table` over them with the
distinct cycles of `run.cycles.loop_cycles`. ``python -m beggarstats.report.atlas [--jobs N]``
computes the censuses not yet on file (each resumable through its own store) and rewrites the
table; `load_atlas` reads the censuses back.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np

__all__ = ["ATLAS_DIR", "ATLAS_DECKS", "FIGURE_DECKS", "atlas_rules", "census_file", "build_atlas", "load_atlas",
           "deck_markdown"]

ATLAS_DIR = Path(__file__).resolve().parents[2] / "data" / "census"

# (players, deck counts, end): the decks whose census finished within this session's CPU budget.
ATLAS_DECKS = tuple(
    [(2, (k, 1, 1, 1, 1), "trick") for k in range(0, 25)]
    + [(2, (k, 2, 2, 2, 2), "trick") for k in range(2, 13)]
    + [(p, (k, 1, 1, 1, 1), "trick") for p in (3, 4) for k in range(0, {3: 60, 4: 59}[p])]
    + [(p, (k, 2, 2, 2, 2), "trick") for p in (3, 4) for k in range(2, 7)]
    + [(2, (14, 2, 2, 2, 0), "trick"), (2, (14, 2, 2, 2, 0), "empty")]
    + [(2, (18, 2, 2, 2, 2), "trick")]  # the standard half deck: 3,936,933,000 deals
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
    return Path(root or ATLAS_DIR) / name


def load_atlas(root=None) -> list:
    """The censuses on file, in the order of `ATLAS_DECKS` (a damaged file is refused)."""
    from ..run.summary import load_summary

    return [load_summary(f) for f in (census_file(*d, root=root) for d in ATLAS_DECKS) if f.exists()]


def build_atlas(root=None, *, n_jobs=-1, progress=False) -> None:
    """Run every census of `ATLAS_DECKS` not yet on file, then write ``atlas.csv``."""
    import shutil
    import sys

    from ..analysis.exact import exact_table
    from ..run.census import census
    from ..run.cycles import loop_cycles

    root = Path(root or ATLAS_DIR)
    root.mkdir(parents=True, exist_ok=True)
    for deck in ATLAS_DECKS:
        path = census_file(*deck, root=root)
        if path.exists():
            continue
        store = root / (".store-" + path.stem)
        t0 = time.perf_counter()
        s = census(atlas_rules(*deck), n_jobs=n_jobs, progress=progress, store=store)
        s.save(path)
        shutil.rmtree(store, ignore_errors=True)
        print(f"{path.name}: {s.n_games:,} deals, {s.outcomes[1]} loops, {time.perf_counter() - t0:.1f} s",
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

    table = pd.read_csv(Path(root or ATLAS_DIR) / "atlas.csv")
    keys = dict(zip(("numbers", "jacks", "queens", "kings", "aces"), counts))
    hit = table[(table["players"] == players) & (table["end"] == end)
                & np.logical_and.reduce([table[k] == v for k, v in keys.items()])]
    if len(hit) != 1:
        raise ValueError(f"atlas.csv has no census of {players} players, deck {counts}, end {end!r}.")
    r = hit.iloc[0]
    seats = [f"seat {s}" for s in range(players)]
    head = ["deck", "players", "deals", "loops", "distinct cycles", *(f"{s} wins" for s in seats), "mean cards",
            "sd cards", "longest (cards)", "its rank"]
    cells = [r["deck"], str(players), f"{int(r['deals']):,}", f"{int(r['loops']):,}", f"{int(r['cycles']):,}",
             *(f"{100 * r[f'seat{s}_share']:.4f}%" for s in range(players)), f"{r['mean_cards']:.6g}",
             f"{r['sd_cards']:.6g}", f"{int(r['max_cards']):,}", f"{int(r['longest_rank']):,}"]
    return "\n".join(["| " + " | ".join(head) + " |", "|" + "---|" + "---:|" * (len(head) - 1),
                      "| " + " | ".join(cells) + " |"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Compute the censuses of the exact atlas into data/census/.")
    parser.add_argument("--jobs", type=int, default=-1)
    parser.add_argument("--progress", action="store_true")
    args = parser.parse_args(argv)
    build_atlas(n_jobs=args.jobs, progress=args.progress)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
