"""The size and seed of the published runs, in a module of their own so that `beggarstats figures
--help` prints them without importing the figure code (numpy, pandas, matplotlib)."""

__all__ = ["DEFAULT_GAMES", "DEFAULT_SEED"]

# 2-player standard games of `beggarstats figures` (the other runs scale with it): 4 M put the
# first-player win rate within +/- 0.05 percentage points.
DEFAULT_GAMES = 4_000_000
DEFAULT_SEED = 2026
