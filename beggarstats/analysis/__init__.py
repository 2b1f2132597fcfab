"""Statistics on simulated games: tidy DataFrames in, tidy DataFrames out.

The names below, and the modules of the package (``an.variants``), are loaded on first use
(module ``__getattr__``, PEP 562), each name with its own module: ``import beggarstats.analysis`` loads no statistics library, and ``length_summary`` does not
pay for the statsmodels models that ``hand_strength`` fits (importing every module at once took
seconds; tests/project/test_imports.py holds the budget).
"""

from __future__ import annotations

import importlib
import sys
import types
from typing import TYPE_CHECKING

# public name -> its module
_LAZY = {
    "comebacks": ".comebacks",
    "hand_strength": ".hands", "hand_strength_cells": ".hands", "hand_strength_predictions": ".hands",
    "logistic_fit_test": ".hands",
    "mean_interval": ".intervals", "newcombe_interval": ".intervals", "wilson_interval": ".intervals",
    "length_summary": ".lengths",
    "Overview": ".overview", "overview": ".overview", "seat_shares": ".overview",
    "dealt_hand_size": ".seats", "first_player_advantage": ".seats", "seat_fairness_test": ".seats",
    "seat_contrasts": ".seats", "seat_position_model": ".seats", "seat_win_rates": ".seats",
    "step_heterogeneity": ".seats",
    "kaplan_meier": ".survival", "km_table": ".survival", "length_distribution": ".survival",
    "geometric_tail": ".tail", "hazard_bands": ".tail", "tail_constancy_test": ".tail", "tail_rate": ".tail",
    "compare_variants": ".variants",
}

if TYPE_CHECKING:  # what type checkers see of the names loaded on first use
    from .comebacks import comebacks as comebacks
    from .hands import (hand_strength as hand_strength, hand_strength_cells as hand_strength_cells,
                        hand_strength_predictions as hand_strength_predictions, logistic_fit_test as logistic_fit_test)
    from .intervals import (mean_interval as mean_interval, newcombe_interval as newcombe_interval,
                            wilson_interval as wilson_interval)
    from .lengths import length_summary as length_summary
    from .overview import Overview as Overview, overview as overview, seat_shares as seat_shares
    from .seats import (dealt_hand_size as dealt_hand_size, first_player_advantage as first_player_advantage,
                        seat_contrasts as seat_contrasts, seat_fairness_test as seat_fairness_test,
                        seat_position_model as seat_position_model, seat_win_rates as seat_win_rates,
                        step_heterogeneity as step_heterogeneity)
    from .survival import kaplan_meier as kaplan_meier, km_table as km_table, length_distribution as length_distribution
    from .tail import (geometric_tail as geometric_tail, hazard_bands as hazard_bands,
                       tail_constancy_test as tail_constancy_test, tail_rate as tail_rate)
    from .variants import compare_variants as compare_variants

__all__ = [
    "length_summary", "length_distribution", "kaplan_meier", "km_table", "tail_rate", "geometric_tail",
    "hazard_bands", "tail_constancy_test",
    "seat_win_rates", "seat_fairness_test", "first_player_advantage", "dealt_hand_size", "seat_position_model", "seat_contrasts", "step_heterogeneity",
    "compare_variants", "hand_strength", "hand_strength_predictions", "hand_strength_cells", "logistic_fit_test",
    "comebacks",
    "wilson_interval", "newcombe_interval", "mean_interval", "overview", "Overview", "seat_shares",
]


def __getattr__(name: str) -> object:
    module_name = _LAZY.get(name)
    if module_name is None:  # a module of the package (`an.variants.detectable_effect`), loaded when asked for
        try:
            return importlib.import_module(f".{name}", __name__)  # the import system sets the attribute
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{name}":
                raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None  # names: the attribute, in Python's own words for a module
    value = getattr(importlib.import_module(module_name, __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))


class _Package(types.ModuleType):
    """Two functions share their module's name (``comebacks``, ``overview``): importing the module
    (``from beggarstats.analysis.overview import overview``, as the command line does) makes the import
    system set the package's attribute to the module, which would hide the function; here the
    function is set instead, as the eager ``from .overview import overview`` of old left it."""

    def __setattr__(self, name: str, value: object) -> None:
        if isinstance(value, types.ModuleType) and _LAZY.get(name) == "." + name:
            value = getattr(value, name)
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Package
