"""beggarstats: the Monte Carlo laboratory for Beggar-My-Neighbour.

>>> import beggarstats as bs
>>> bs.play("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---").cards
8344

`beggarstats.plots` (seaborn figures) is imported on demand, so importing the package pulls in no
plotting library.
"""

from . import analysis
from .cards import DealError, format_deal, parse_deal
from .deals import random_deal
from .decks import ITALIAN, STANDARD, Deck
from .engine.result import GameResult, Trick
from .matches import simulate_matches
from .play import play
from .records import load_records, replay_records
from .rules import RULES_VERSION, Rules
from .simulate import replay, simulate, simulate_to_store
from .store import load, save

__all__ = [
    "analysis", "DealError", "parse_deal", "format_deal", "random_deal", "Deck", "STANDARD", "ITALIAN",
    "GameResult", "Trick", "simulate_matches", "play", "load_records", "replay_records",
    "RULES_VERSION", "Rules", "replay", "simulate", "simulate_to_store", "load", "save",
]
__version__ = "0.1.0"
