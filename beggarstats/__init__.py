"""beggarstats: the Monte Carlo laboratory for Beggar-My-Neighbour.

>>> import beggarstats as bs
>>> bs.play("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---").cards
8344

Importing the package is cheap: the names below are loaded on first use (module ``__getattr__``),
so ``bs.play`` needs neither numba nor pandas, and ``bs.analysis`` (scipy, statsmodels) and
``bs.plots`` (matplotlib, seaborn) are imported only when touched.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"

# public name -> (module, attribute); attribute None: the module itself
_LAZY = {
    "analysis": (".analysis", None),
    "plots": (".plots", None),
    "DealError": (".game.cards", "DealError"),
    "parse_deal": (".game.cards", "parse_deal"),
    "format_deal": (".game.cards", "format_deal"),
    "random_deal": (".engine.deals", "random_deal"),
    "deal_rank": (".engine.rank", "deal_rank"),
    "deal_at": (".engine.rank", "deal_at"),
    "n_deals": (".engine.rank", "n_deals"),
    "census": (".run.census", "census"),
    "Deck": (".game.decks", "Deck"),
    "STANDARD": (".game.decks", "STANDARD"),
    "ITALIAN": (".game.decks", "ITALIAN"),
    "GameResult": (".game.results", "GameResult"),
    "Trick": (".game.results", "Trick"),
    "simulate_matches": (".run.matches", "simulate_matches"),
    "play": (".run.play", "play"),
    "load_records": (".run.records", "load_records"),
    "replay_records": (".run.records", "replay_records"),
    "RULES_VERSION": (".game.rules", "RULES_VERSION"),
    "Rules": (".game.rules", "Rules"),
    "replay": (".run.simulate", "replay"),
    "simulate": (".run.simulate", "simulate"),
    "simulate_to_store": (".run.simulate", "simulate_to_store"),
    "load": (".run.store", "load"),
    "save": (".run.store", "save"),
    "verify": (".run.store", "verify"),
    "Summary": (".run.summary", "Summary"),
    "summarize": (".run.summarize", "summarize"),
    "compare": (".run.compare", "compare"),
    "search_long": (".run.search", "search_long"),
    "run_back": (".run.run_back", "run_back"),
    "tail_chain": (".analysis.chain", "tail_chain"),
    "tail_chain_cards": (".analysis.chain_cards", "tail_chain_cards"),
}

if TYPE_CHECKING:  # what type checkers see of the names loaded on first use (tests/project/test_typing.py)
    from . import analysis as analysis, plots as plots
    from .analysis.chain import tail_chain as tail_chain
    from .analysis.chain_cards import tail_chain_cards as tail_chain_cards
    from .engine.deals import random_deal as random_deal
    from .engine.rank import deal_rank as deal_rank, deal_at as deal_at, n_deals as n_deals
    from .game.cards import DealError as DealError, parse_deal as parse_deal, format_deal as format_deal
    from .game.decks import Deck as Deck, STANDARD as STANDARD, ITALIAN as ITALIAN
    from .game.results import GameResult as GameResult, Trick as Trick
    from .game.rules import RULES_VERSION as RULES_VERSION, Rules as Rules
    from .run.census import census as census
    from .run.compare import compare as compare
    from .run.matches import simulate_matches as simulate_matches
    from .run.play import play as play
    from .run.records import load_records as load_records, replay_records as replay_records
    from .run.run_back import run_back as run_back
    from .run.search import search_long as search_long
    from .run.simulate import replay as replay, simulate as simulate, simulate_to_store as simulate_to_store
    from .run.store import load as load, save as save, verify as verify
    from .run.summarize import summarize as summarize
    from .run.summary import Summary as Summary

__all__ = [
    "analysis", "plots", "DealError", "parse_deal", "format_deal", "random_deal", "deal_rank", "deal_at", "n_deals",
    "census", "Deck", "STANDARD", "ITALIAN",
    "GameResult", "Trick", "simulate_matches", "play", "load_records", "replay_records",
    "RULES_VERSION", "Rules", "replay", "simulate", "simulate_to_store", "load", "save",
    "verify", "Summary", "summarize", "compare", "search_long", "run_back", "tail_chain",
    "tail_chain_cards",
]


def __getattr__(name: str) -> object:
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None  # names: the attribute, in Python's own words for a module
    module = importlib.import_module(module_name, __name__)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
