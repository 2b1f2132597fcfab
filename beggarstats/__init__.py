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
import sys
import types

__version__ = "0.1.0"

# public name -> (module, attribute); attribute None: the module itself
_LAZY = {
    "analysis": (".analysis", None),
    "plots": (".plots", None),
    "DealError": (".cards", "DealError"),
    "parse_deal": (".cards", "parse_deal"),
    "format_deal": (".cards", "format_deal"),
    "random_deal": (".deals", "random_deal"),
    "Deck": (".decks", "Deck"),
    "STANDARD": (".decks", "STANDARD"),
    "ITALIAN": (".decks", "ITALIAN"),
    "GameResult": (".engine.result", "GameResult"),
    "Trick": (".engine.result", "Trick"),
    "simulate_matches": (".matches", "simulate_matches"),
    "play": (".play", "play"),
    "load_records": (".records", "load_records"),
    "replay_records": (".records", "replay_records"),
    "RULES_VERSION": (".rules", "RULES_VERSION"),
    "Rules": (".rules", "Rules"),
    "replay": (".simulate", "replay"),
    "simulate": (".simulate", "simulate"),
    "simulate_to_store": (".simulate", "simulate_to_store"),
    "load": (".store", "load"),
    "save": (".store", "save"),
    "verify": (".store", "verify"),
    "Summary": (".summary", "Summary"),
    "summarize": (".summary", "summarize"),
}

__all__ = [
    "analysis", "DealError", "parse_deal", "format_deal", "random_deal", "Deck", "STANDARD", "ITALIAN",
    "GameResult", "Trick", "simulate_matches", "play", "load_records", "replay_records",
    "RULES_VERSION", "Rules", "replay", "simulate", "simulate_to_store", "load", "save",
    "verify", "Summary", "summarize",
]


def __getattr__(name: str):
    try:
        module_name, attr = _LAZY[name]
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None
    module = importlib.import_module(module_name, __name__)
    value = module if attr is None else getattr(module, attr)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__():
    return sorted(set(globals()) | set(_LAZY))


class _Package(types.ModuleType):
    """Importing the submodule ``beggarstats.play`` (or ``.simulate``) sets the package attribute of
    that name to the module; keep the function there instead, as ``bs.play`` promises."""

    def __setattr__(self, name, value):
        module_name, attr = _LAZY.get(name, (None, None))
        if attr is not None and isinstance(value, types.ModuleType) and value.__name__ == __name__ + module_name:
            value = getattr(value, attr)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
