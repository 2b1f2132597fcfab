"""Where the run layer keeps what it computes on disk: the run cache of `beggarstats figures --cache`."""

from __future__ import annotations

import os
from pathlib import Path

from ..engine.kernel_cache import cache_root

__all__ = ["runs_dir", "RUNS_ENV"]

RUNS_ENV = "BEGGARSTATS_RUNS_DIR"


def runs_dir() -> Path:
    """Where `beggarstats figures --cache` keeps its runs: ``<cache_root>/runs`` (the per-user cache
    directory of `engine.kernel_cache.cache_root`; ``BEGGARSTATS_RUNS_DIR`` if set)."""
    env = os.environ.get(RUNS_ENV)
    return Path(env) if env else cache_root() / "runs"
