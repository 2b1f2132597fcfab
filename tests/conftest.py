"""Shared fixtures."""

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_kernels():
    """Compile (or load from numba's disk cache) the engine kernels once per session."""
    import numpy as np

    from beggarstats.engine.fast import play_games
    from beggarstats.rules import Rules

    for rules in (Rules(), Rules(players=3, deck="italian")):
        for kernel in ("general", "bits"):
            try:
                play_games(rules, 0, np.arange(2), per_seat=True, kernel=kernel)
            except Exception:  # a kernel that cannot play these rules is warmed by its own tests
                pass
