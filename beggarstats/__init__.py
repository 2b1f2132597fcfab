"""beggarstats: the Monte Carlo laboratory for Beggar-My-Neighbour."""

from .cards import DealError, format_deal, parse_deal
from .decks import ITALIAN, STANDARD, Deck
from .deals import random_deal
from .engine.result import GameResult, Trick
from .play import play
from .rules import RULES_VERSION, Rules

__all__ = [
    "DealError", "parse_deal", "format_deal", "Deck", "STANDARD", "ITALIAN", "random_deal",
    "GameResult", "Trick", "play", "Rules", "RULES_VERSION",
]
__version__ = "0.1.0"
