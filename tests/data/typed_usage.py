"""A user's script of the public API, checked by mypy and never run (tests/project/test_typing.py).

Every exported function and class is called here as the docs show it, each result pinned with
``assert_type``: a return without a hint is ``Any`` and fails the pin, a function without hints
fails ``disallow_untyped_calls``, and each ``# type: ignore[arg-type]`` below must be needed
(``warn_unused_ignores``): a parameter without a hint accepts the wrong value and the unused
ignore fails the run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, assert_type

import numpy as np
import pandas as pd

import beggarstats as bs
from beggarstats.analysis.chain import TailChain
from beggarstats.analysis.chain_cards import CardsChain
from beggarstats.engine.rng import GameStream
from beggarstats.run.compare import PairedMoments
from beggarstats.run.store import Problem, Store

# -- cards, decks, rules -------------------------------------------------------------------------
deal = bs.parse_deal("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---")
assert_type(deal, tuple[tuple[int, ...], ...])
assert_type(bs.format_deal(deal), str)
assert_type(bs.format_deal([np.zeros(26, np.int8), [0, 1, 2]]), str)
bs.format_deal(3)  # type: ignore[arg-type]
error: ValueError = bs.DealError("hand 0, position 1")

deck = bs.Deck(numbers=28, jacks=4, queens=4, kings=4, aces=0, name="italian")
assert_type(bs.Deck.from_counts((36, 4, 4, 4, 4)), bs.Deck)
assert_type(bs.Deck.from_name("standard"), bs.Deck)
assert_type(deck.counts, tuple[int, int, int, int, int])
assert_type(deck.label(), str)
assert_type(bs.STANDARD, bs.Deck)
assert_type(bs.ITALIAN.size, int)
bs.Deck.from_counts(5)  # type: ignore[arg-type]

rules = bs.Rules(players=3, deck=bs.ITALIAN, jokers=1, max_cards=10_000)
assert_type(rules.replace(players=2), bs.Rules)
assert_type(rules.to_dict(), dict)
assert_type(bs.Rules.from_dict(rules.to_dict()), bs.Rules)
assert_type(rules.name, str)
assert_type(rules.deck_cards(), np.ndarray)
assert_type(bs.RULES_VERSION, int)

# -- deals as numbers ----------------------------------------------------------------------------
small = bs.Rules(deck=bs.Deck(8, 1, 1, 1, 1))
assert_type(bs.n_deals(small), int)
assert_type(bs.n_deals(), int)
assert_type(bs.deal_rank("-J--/Q-KA-", small.to_dict()), int)
assert_type(bs.deal_rank([(0, 1), (2, 3)], small), int)
assert_type(bs.deal_at(5, small), tuple[tuple[int, ...], ...])
bs.deal_at("5", small)  # type: ignore[arg-type]
bs.n_deals(rules=3)  # type: ignore[arg-type]
dealt, stream = bs.random_deal(1, 0, small)
assert_type(dealt, tuple[tuple[int, ...], ...])
assert_type(stream, GameStream)
bs.random_deal(1, "0")  # type: ignore[arg-type]

# -- one game ------------------------------------------------------------------------------------
result = bs.play(deal, trace=True)
assert_type(result, bs.GameResult)
assert_type(bs.play(deal, rules, rng=np.random.default_rng(1)), bs.GameResult)
assert_type(bs.play(deal, rng=7).cards, int)
bs.play(deal, rng="7")  # type: ignore[arg-type]
assert_type(result.winner, int | None)
assert_type(result.trace, tuple[bs.Trick, ...] | None)
assert_type(result.summary(), dict[str, Any])
assert_type(result.to_dict(), dict[str, Any])
trick = bs.Trick(leader=0, plays=((0, 1), (1, 0)), taker=0, hand_sizes=(25, 25))
assert_type(trick.cards, int)
seed_deal, replayed = bs.replay(2024, 17, rules)
assert_type(seed_deal, str)
assert_type(replayed, bs.GameResult)
bs.replay(2024, 17, trace="yes")  # type: ignore[arg-type]
assert_type(bs.load_records(), list[dict])
assert_type(bs.replay_records(), list[dict])
assert_type(bs.run_back("--K-/-Q--"), pd.DataFrame)
bs.run_back("--K-/-Q--", nodes="many")  # type: ignore[arg-type]

# -- many games ----------------------------------------------------------------------------------
games = bs.simulate(10_000, rules, seed=1, n_jobs=-1, progress="notebook")
assert_type(games, pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame])
bs.simulate("10")  # type: ignore[arg-type]
bs.simulate(10, seed="1")  # type: ignore[arg-type]
bs.simulate(10, per_seat=None)  # type: ignore[arg-type]
store = bs.simulate_to_store(10_000, rules, seed=1, store=Path("runs/a"))
assert_type(store, Store)
bs.simulate_to_store(10, chunk_size="big")  # type: ignore[arg-type]
assert_type(bs.load("runs/a", ["cards"], partial=True), pd.DataFrame)
assert_type(bs.save(pd.DataFrame(), "games.parquet"), Path)
assert_type(bs.verify(store, repair=True), list[Problem])
bs.load(3)  # type: ignore[arg-type]
bs.verify(Path("runs/a"), repair=1.5)  # type: ignore[arg-type]
matches = bs.simulate_matches(100, rules.replace(players=2), format="first_to_3", seed=3)
assert_type(matches, pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame])
bs.simulate_matches(100, max_rounds="many")  # type: ignore[arg-type]

# -- summaries, comparisons, census, search --------------------------------------------------------
summary = bs.summarize(10**6, seed=1, store="runs/s", checkpoint=5.0, device="cpu")
assert_type(summary, bs.Summary)
assert_type(summary.n_games, int)
assert_type(summary + summary, bs.Summary)
assert_type(summary.frequencies("cards", outcomes="win"), tuple[np.ndarray, np.ndarray])
assert_type(summary.to_frame(), pd.DataFrame)
assert_type(summary.save("summary.json"), Path)
bs.summarize(10, cap="all")  # type: ignore[arg-type]
exact = bs.census(small, n_jobs=2, max_deals=10**6)
assert_type(exact, bs.Summary)
bs.census(small, stop="end")  # type: ignore[arg-type]
moments = bs.compare(rules, rules.replace(shuffle_pile=True), 10_000, seed=1)
assert_type(moments, PairedMoments)
assert_type(moments.interval(0.99), tuple[float, float])
bs.compare(rules, None, "10")  # type: ignore[arg-type]
longest = bs.search_long(seed=1, deals=10_000, summary=summary, seconds=60.0)
assert_type(longest, pd.DataFrame)
bs.search_long(summary=summary.to_dict())  # type: ignore[arg-type]
chain = bs.tail_chain(seed=1, n_deals=1000)
assert_type(chain, TailChain)
assert_type(chain.survival([1000, 2000]), pd.DataFrame)
bs.tail_chain(seed="1")  # type: ignore[arg-type]
cards_chain = bs.tail_chain_cards(seed=1, horizon=50)
assert_type(cards_chain, CardsChain)
bs.tail_chain_cards(seed=1, n_jobs="all")  # type: ignore[arg-type]
