"""Write data/tail/results-players.json: the tail chain for three and four players against the runs of
10^8 games (data/summary-p3.json, -p4.json) and census decks, and P(length >= twice the longest
game seen) for 3-6 players (`beggarstats.analysis.chain_players`), quoted by docs/tail.md and
notebooks/09_the_tail.

The chains (`beggarstats.run.tail_chain.chain_cells`, seed 2026, the deals per state and horizons of
CHAINS below) hold millions of cells: they are written to CELLS (default data/tail/cells-players/,
not committed: about 2 bytes a cell compressed, 7 MB for four players), and results-players.json keeps
their sha256 and the cells of a few states, which tests/analysis/test_chain_players.py measures again.

    python data/tail/make_chain_players.py [CELLS]            # measure and write everything
    python data/tail/make_chain_players.py [CELLS] --results  # only the json, from the cells in CELLS
    python data/tail/make_chain_players.py --refused          # only the cost of five and six players
"""

import hashlib
import json
import resource
import sys
import time
from pathlib import Path

import numpy as np

import beggarstats as bs
from beggarstats.analysis.chain import TailChain, census_check
from beggarstats.analysis.chain_players import players_results
from beggarstats.run.outputs import write_text
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import chain_cells, chain_cost, load_cells, save_cells
from beggarstats.run.committed_data import data_path, source_data_folder

HERE = source_data_folder("python data/tail/make_chain_players.py") / "tail"  # the source tree's; an installed copy is refused
SEED = 2026
# players -> (deals per state, horizons): a few CPU-minutes each on this 2-core machine
CHAINS = {3: (2_000, (100, 300)), 4: (200, (100,))}
EXACT_TO = 1_500  # cards the chain is run card by card; beyond, its own decay rate (TailChain.survival)
RATE_REPLICATES = 20
SURVIVAL_REPLICATES = 10
# the census decks of three and four players without loops nearest the two-player ones of chain.CENSUS_DECKS:
# horizon, deals per state, lengths compared
CENSUS = {"3p-20-1-1-1-1": (30, 5_000, (50, 100, 200, 400)), "3p-24-1-1-1-1": (30, 5_000, (50, 100, 200, 400)),
          "4p-20-1-1-1-1": (30, 500, (50, 100, 200, 400)), "4p-24-1-1-1-1": (30, 500, (50, 100, 200, 400))}
CHECK_STATES = 3  # states whose cells the json keeps (the standard deal's and the first two)


def digest(cells) -> dict:
    """The sha256 of the cells and the cells of the standard deal's state and of states 0 and 1."""
    h = hashlib.sha256()
    for k in ("frm", "to", "cards", "count"):
        h.update(np.ascontiguousarray(getattr(cells, k), dtype=np.int64).tobytes())
    states = sorted({cells.start, 0, 1})[:CHECK_STATES]
    keep = {}
    for s in states:
        m = cells.frm == s
        keep[str(s)] = dict(to=cells.to[m].tolist(), cards=cells.cards[m].tolist(), count=cells.count[m].tolist())
    return dict(sha256=h.hexdigest(), cells=int(len(cells.count)), cards_played=int(np.dot(cells.cards, cells.count)),
                states=keep)


def refused() -> dict:
    """What five and six players would cost at the four-player chain's deals per state and horizon."""
    return {str(p): chain_cost(bs.Rules(players=p), n_deals=CHAINS[4][0], horizon=CHAINS[4][1][0]) for p in (5, 6)}


def main(argv):
    if "--refused" in argv:  # only the cost of five and six players (after a change of run.tail_chain's constants)
        results = json.loads((HERE / "results-players.json").read_text())
        results["refused"] = refused()
        write_text(HERE / "results-players.json", json.dumps(results, indent=1) + "\n", what="tail-chain results")
        return
    folder = Path(next((a for a in argv if not a.startswith("--")), HERE / "cells-players"))
    folder.mkdir(parents=True, exist_ok=True)
    chains, cpu, wall, digests, rss = {}, {}, {}, {}, {}
    for players, (n_deals, horizons) in CHAINS.items():
        rules = bs.Rules(players=players)
        chains[players], cpu[str(players)], wall[str(players)], digests[str(players)], rss[str(players)] = {}, {}, {}, {}, {}
        for h in horizons:
            path = folder / f"chain-p{players}-h{h}.npz"
            if "--results" not in argv:
                c0, w0 = time.process_time(), time.perf_counter()
                save_cells(chain_cells(rules, seed=SEED, n_deals=n_deals, horizon=h, n_jobs=-1), path)
                cpu[str(players)][str(h)] = time.process_time() - c0
                wall[str(players)][str(h)] = time.perf_counter() - w0
                # the process's peak so far (this chain's measurement, or an earlier one's if larger)
                rss[str(players)][str(h)] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                print(f"{players} players, horizon {h}: {cpu[str(players)][str(h)]:.1f} s CPU, "
                      f"{wall[str(players)][str(h)]:.1f} s wall", flush=True)
            cells = load_cells(path)
            digests[str(players)][str(h)] = digest(cells)
            chains[players][h] = TailChain.from_cells(cells)
    if "--results" in argv:
        old = json.loads((HERE / "results-players.json").read_text())
        cpu, wall, rss = old["cpu"], old["wall"], old["peak_rss_mb"]
    c0 = time.process_time()
    summaries = {p: load_summary(data_path(f"summary-p{p}.json")) for p in (3, 4, 5, 6)}
    results = dict(seed=SEED, exact_to=EXACT_TO, rate_replicates=RATE_REPLICATES,
                   survival_replicates=SURVIVAL_REPLICATES, cpu=cpu, wall=wall, peak_rss_mb=rss, digests=digests,
                   players=players_results(chains, summaries, exact_to=EXACT_TO, rate_replicates=RATE_REPLICATES,
                                           survival_replicates=SURVIVAL_REPLICATES, seed=0))
    # the chain run card by card against its extension from EXACT_TO, at the first check length
    results["settling"] = {}
    for p, by_h in chains.items():
        for h, ch in by_h.items():
            L = 3000
            exact = float(ch._survival_curve(ch.count, [L])[0])
            ext = float(ch._survival_curve(ch.count, [L], EXACT_TO, ch._point_rate())[0])
            results["settling"][f"{p}-{h}"] = dict(cards=L, exact=exact, extended=ext)
    results["census"] = {}
    for deck, (h, n, lengths) in CENSUS.items():
        census = load_summary(data_path("census", f"{deck}.json"))
        chain = TailChain.from_cells(chain_cells(census.rules, seed=SEED, n_deals=n, horizon=h, n_jobs=-1))
        results["census"][deck] = dict(horizon=h, n_deals=n, states=chain.n_states,
                                       checks=census_check(chain, census, lengths))
    results["refused"] = refused()
    write_text(HERE / "results-players.json", json.dumps(results, indent=1) + "\n", what="tail-chain results")
    ru = resource.getrusage(resource.RUSAGE_SELF)
    print(f"results: {time.process_time() - c0:.1f} s CPU, peak RSS {ru.ru_maxrss / 1024:.0f} MB", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
