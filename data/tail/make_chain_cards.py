"""Write data/tail/chain-cards-p2-h{H}-moves.npz/.json and data/tail/results-cards.json: the tail chain of
the standard two-player game on hand sizes and penalty cards, measured from random deals with given
hands (`beggarstats.run.tail_chain_cards.card_chain_cells`, seed 2026, ``N_DEALS`` deals per state),
its decay rate beside the billion-game run's (`analysis.chain_cards.card_rate_results`), and the census
decks' validation (`analysis.chain_cards.CARD_CENSUS_DECKS`, whose small chains - penalty cards and
hand sizes alone, side by side - are measured on the spot): what docs/tail.md's penalty-card
section quotes, beside data/tail/results.json.

The standard deck's cells are millions (most deals end, each at its own card count), so only their
moves on are committed (`run.tail_chain_cards.moves_only`); the decay rate and its bootstrap need
nothing else and are computed from the committed file.

    python data/tail/make_chain_cards.py --measure   # measure the standard deck's cells (writes the moves)
    python data/tail/make_chain_cards.py --census    # the census decks into results-cards.json
    python data/tail/make_chain_cards.py --standard  # the standard deck's rate into results-cards.json
    python data/tail/make_chain_cards.py --dominant  # measure the ends of the states long games pass through
    python data/tail/make_chain_cards.py --survival  # survival against the run, record odds into results-cards.json

The survival needs the cards of the ends, which the committed moves drop: ``--dominant`` measures
again, in full, the states that hold all but 1e-5 of the trick boundaries before the lengths
checked and the record (`analysis.chain_record.dominant_states`: 9,044 of 23,123 states, about
25 CPU-minutes), into the ignored ``chain-cards-p2-h1000-dominant.npz`` (tens of megabytes; its
sha256 goes into results-cards.json); ``--survival`` merges them with the committed moves (their
moves on must be the committed ones) and writes the check and the record odds
(`analysis.chain_record`).
"""

import json
import sys
import time

import numpy as np

import beggarstats as bs
from beggarstats.analysis.chain import TailChain, save_results
from beggarstats.analysis.chain_cards import CARD_CENSUS_DECKS, CardsChain, card_rate_results, card_results
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import ABSORBED, chain_cells, load_cells, save_cells
from beggarstats.run.tail_chain_cards import card_chain_cells, moves_only
from beggarstats.run.committed_data import data_path, source_data_folder

HERE = source_data_folder("python data/tail/make_chain_cards.py") / "tail"  # the source tree's; an installed copy is refused
RESULTS = HERE / "results-cards.json"
SEED = 2026
RECORD = 8344  # cards: the longest known game; beating it is lasting longer
N_DEALS = {1000: 1_000}  # horizon (cards) -> deals per state of the standard deck
RATE_REPLICATES = 200  # bootstrap draws of the decay rate and of the survival
DOMINANT_SHARE = 1 - 1e-5  # the share of the trick boundaries whose states are measured in full
CHECK = (2000, 3000, 4000)  # cards: the survival against the games seen longer than these
DOMINANT = HERE / "chain-cards-p2-h1000-dominant.npz"


def _update(part: dict) -> None:
    old = json.loads(RESULTS.read_text()) if RESULTS.exists() else {"census": {}}
    save_results({**old, **part}, RESULTS)


def main(argv):
    started = time.process_time()
    if "--measure" in argv:
        for h, n in N_DEALS.items():
            cells = card_chain_cells(bs.Rules(), seed=SEED, n_deals=n, horizon=h, n_jobs=-1)
            save_cells(moves_only(cells), HERE / f"chain-cards-p2-h{h}-moves.npz")
            print(f"horizon {h}: {time.process_time() - started:.1f} s CPU, {cells.count.size:,} cells", flush=True)
    if "--census" in argv:
        census = {}
        for deck, (horizons, n_cards, n_sizes, lengths) in CARD_CENSUS_DECKS.items():
            exact = load_summary(data_path("census", f"{deck}.json"))
            pairs = {h: (CardsChain.from_cells(card_chain_cells(exact.rules, seed=SEED, n_deals=n_cards, horizon=h,
                                                                n_jobs=-1)),
                         TailChain.from_cells(chain_cells(exact.rules, seed=SEED, n_deals=n_sizes, horizon=h,
                                                          n_jobs=-1)))
                     for h in horizons}
            census[deck] = (exact, lengths, pairs)
        _update({"census": card_results({}, None, census)["census"]})
        print(f"census decks: {time.process_time() - started:.1f} s CPU", flush=True)
    if "--standard" in argv:
        chains = {h: CardsChain.from_cells(load_cells(HERE / f"chain-cards-p2-h{h}-moves.npz")) for h in N_DEALS}
        _update(card_rate_results(chains, load_summary(data_path("summary-p2.json")), replicates=RATE_REPLICATES))
        print(f"standard deck: {time.process_time() - started:.1f} s CPU", flush=True)
    if "--dominant" in argv:
        _dominant(started)
    if "--survival" in argv:
        _survival(started)


def _dominant(started):
    from beggarstats.analysis.chain_record import dominant_states

    h, n = next(iter(N_DEALS.items()))
    moves = CardsChain.from_cells(load_cells(HERE / f"chain-cards-p2-h{h}-moves.npz"))
    states = dominant_states(moves, [L + 1 for L in CHECK] + [RECORD + 1], share=DOMINANT_SHARE)
    print(f"{states.size:,} dominant states of {moves.n_states:,}", flush=True)
    cells = card_chain_cells(bs.Rules(), seed=SEED, n_deals=n, horizon=h, n_jobs=1, states=states, progress=True)
    save_cells(cells, DOMINANT)
    print(f"dominant states measured: {time.process_time() - started:.1f} s CPU, {cells.count.size:,} cells", flush=True)


def _survival(started):
    import json

    from beggarstats.analysis.chain_record import bounded_survival, merge_cells, record_check

    h = next(iter(N_DEALS))
    moves = CardsChain.from_cells(load_cells(HERE / f"chain-cards-p2-h{h}-moves.npz"))
    full = load_cells(DOMINANT)
    states = np.unique(full.frm)
    chain = CardsChain.from_cells(merge_cells(moves, full, states))
    cards = [L + 1 for L in CHECK] + [RECORD + 1]  # longer than L: at least L + 1 cards
    bounds = bounded_survival(chain, states, cards, replicates=RATE_REPLICATES, seed=0)
    out = record_check(bounds, cards, load_summary(data_path("summary-p2.json")), record=RECORD, check=CHECK)
    meta = json.loads(DOMINANT.with_suffix(".json").read_text())
    on = moves.to != ABSORBED
    out.update(states_measured=int(states.size), share=DOMINANT_SHARE, replicates=RATE_REPLICATES,
               window=int(moves.cards[on].max()) + 1,
               cells_sha256=meta["sha256"], horizon=h,
               command="python data/tail/make_chain_cards.py --dominant --survival")
    _update({"survival": out})
    print(f"survival and record odds: {time.process_time() - started:.1f} s CPU", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
