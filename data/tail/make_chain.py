"""Write data/tail/chain-p2-h{H}.npz/.json: the trick-boundary transitions of the standard two-player
game measured from random uneven deals (`beggarstats.run.tail_chain.chain_cells`, seed 2026,
100,000 deals per state) at three horizons (100, 300 and 1,000 cards), and data/tail/results.json (with the census decks'
validation, `analysis.chain.CENSUS_DECKS`, whose small chains are measured on the spot):
what docs/tail.md and notebooks/09_the_tail quote (`beggarstats.analysis.chain.chain_results`).

    python data/tail/make_chain.py            # measure and write everything
    python data/tail/make_chain.py --results  # only results.json, from the committed cells
"""

import sys
import time

import beggarstats as bs
from beggarstats.analysis.chain import CENSUS_DECKS, TailChain, census_check, chain_results, save_results
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import chain_cells, load_cells, save_cells
from beggarstats.run.committed_data import data_path, source_data_folder

HERE = source_data_folder("python data/tail/make_chain.py") / "tail"  # the source tree's; an installed copy is refused
SEED = 2026
N_DEALS = 100_000
HORIZONS = (100, 300, 1000)


def main(argv):
    chains = {}
    for h in HORIZONS:
        path = HERE / f"chain-p2-h{h}.npz"
        if "--results" not in argv:
            started = time.process_time()
            save_cells(chain_cells(bs.Rules(), seed=SEED, n_deals=N_DEALS, horizon=h, n_jobs=-1), path)
            print(f"horizon {h}: {time.process_time() - started:.1f} s CPU", flush=True)
        chains[h] = TailChain.from_cells(load_cells(path))
    started = time.process_time()
    summary = load_summary(data_path("summary-p2.json"))
    results = chain_results(chains, summary)
    results["census"] = {}
    for deck, (h, n, lengths) in CENSUS_DECKS.items():
        census = load_summary(data_path("census", f"{deck}.json"))
        chain = TailChain.from_cells(chain_cells(census.rules, seed=SEED, n_deals=n, horizon=h, n_jobs=-1))
        results["census"][deck] = dict(horizon=h, n_deals=n, checks=census_check(chain, census, lengths))
    save_results(results, HERE / "results.json")
    print(f"results: {time.process_time() - started:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
