"""beggarstats: the Monte Carlo laboratory for Beggar-My-Neighbour.

>>> import beggarstats as bs
>>> bs.play("---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---").cards
8344

`beggarstats.plots` (seaborn figures) is imported on demand, so importing the package pulls in no
plotting library.
"""

from .kernel_cache import refresh as _refresh_kernel_cache

_refresh_kernel_cache()  # before any kernel is loaded from numba's cache

from . import analysis  # noqa: E402
from .cards import DealError, format_deal, parse_deal  # noqa: E402
from .deals import random_deal  # noqa: E402
from .decks import ITALIAN, STANDARD, Deck  # noqa: E402
from .engine.result import GameResult, Trick  # noqa: E402
from .matches import simulate_matches  # noqa: E402
from .play import play  # noqa: E402
from .records import load_records, replay_records  # noqa: E402
from .rules import RULES_VERSION, Rules  # noqa: E402
from .simulate import replay, simulate, simulate_to_store  # noqa: E402
from .store import load, save  # noqa: E402

__all__ = [
    "analysis", "DealError", "parse_deal", "format_deal", "random_deal", "Deck", "STANDARD", "ITALIAN",
    "GameResult", "Trick", "simulate_matches", "play", "load_records", "replay_records",
    "RULES_VERSION", "Rules", "replay", "simulate", "simulate_to_store", "load", "save",
]
from .summary import Summary, summarize  # noqa: E402  (issue 15: streaming summaries)

__all__ += ["Summary", "summarize"]
__version__ = "0.1.0"
