"""Write data/tail/chain-cards-p2-h{H}-moves.npz/.json and data/tail/results-cards.json: the tail chain of
the standard two-player game on hand sizes and penalty cards, measured from random deals with given
hands (`beggarstats.run.tail_chain_cards.card_chain_cells`, seed 2026, ``N_DEALS`` deals per state),
read beside the billion-game run (`analysis.chain_cards.card_results`), with the census decks'
validation (`analysis.chain_cards.CARD_CENSUS_DECKS`, whose small chains are measured on the spot):
what docs/tail.md's penalty-card section quotes, beside data/tail/results.json.

The standard deck's cells are millions (most deals end, each at its own card count), so only their
moves on are committed (`run.tail_chain_cards.moves_only`: the decay rate is recomputed from them
exactly); the survival in results-cards.json comes from the full cells, which this script measures
again (same seed, same cells).

    python data/tail/make_chain_cards.py               # measure and write everything
    python data/tail/make_chain_cards.py --keep DIR    # also keep the full cells in DIR (and reuse them)
"""

import sys
import time
from pathlib import Path

import beggarstats as bs
from beggarstats.analysis.chain import TailChain, save_results
from beggarstats.analysis.chain_cards import CARD_CENSUS_DECKS, CardsChain, card_results
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import chain_cells, load_cells, save_cells
from beggarstats.run.tail_chain_cards import card_chain_cells, moves_only

HERE = Path(__file__).resolve().parent
SEED = 2026
N_DEALS = {1000: 1_000}  # horizon (cards) -> deals per state of the standard deck


def main(argv):
    keep = Path(argv[argv.index("--keep") + 1]) if "--keep" in argv else None
    chains = {}
    for h, n in N_DEALS.items():
        full = keep / f"chain-cards-p2-h{h}-full.npz" if keep else None
        if full and full.exists():
            cells = load_cells(full)
        else:
            started = time.process_time()
            cells = card_chain_cells(bs.Rules(), seed=SEED, n_deals=n, horizon=h, n_jobs=-1)
            print(f"horizon {h}: {time.process_time() - started:.1f} s CPU, {cells.count.size:,} cells", flush=True)
            if full:
                save_cells(cells, full)
        save_cells(moves_only(cells), HERE / f"chain-cards-p2-h{h}-moves.npz")
        chains[h] = CardsChain.from_cells(cells)
    started = time.process_time()
    census = {}
    for deck, (horizons, n_cards, n_sizes, lengths) in CARD_CENSUS_DECKS.items():
        exact = load_summary(HERE.parent / "census" / f"{deck}.json")
        pairs = {h: (CardsChain.from_cells(card_chain_cells(exact.rules, seed=SEED, n_deals=n_cards, horizon=h,
                                                            n_jobs=-1)),
                     TailChain.from_cells(chain_cells(exact.rules, seed=SEED, n_deals=n_sizes, horizon=h, n_jobs=-1)))
                 for h in horizons}
        census[deck] = (exact, lengths, pairs)
    results = card_results(chains, load_summary(HERE.parent / "summary-p2.json"), census)
    save_results(results, HERE / "results-cards.json")
    print(f"results: {time.process_time() - started:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
