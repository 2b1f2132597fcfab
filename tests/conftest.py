"""Shared fixtures.

The compiled kernels come from the per-user kernel cache (`beggarstats.engine.kernel_cache`), so only the
first session on a machine compiles them; `python -m pytest -m "not slow"` is the quick tier.

Only the tests that play games through the kernels request `warm_kernels` (a module's
``pytestmark = pytest.mark.usefixtures("warm_kernels")``, or the mark on one test): a pure-Python
test file runs without compiling anything, from an empty cache too.
"""

import pytest


@pytest.fixture(scope="session")
def warm_kernels():
    """Compile (or load from the kernel cache) the engine kernels once per session, side by side
    on a cold cache as a first run does. Requested by the kernel tests only; a test that plays
    games without it still works (the kernel it needs compiles on first use, alone)."""
    from beggarstats.engine.fast import KERNELS
    from beggarstats.run.warmup import warm_up

    warm_up(KERNELS)


@pytest.fixture(autouse=True)
def run_cache(tmp_path_factory, monkeypatch):
    """`beggarstats figures` caches its runs in a fresh directory per test, never the user's."""
    path = tmp_path_factory.mktemp("runs")
    monkeypatch.setenv("BEGGARSTATS_RUNS_DIR", str(path))
    return path
