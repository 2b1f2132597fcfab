"""Shared fixtures.

The compiled kernels come from the per-user kernel cache (`beggarstats.engine.kernel_cache`), so only the
first session on a machine compiles them; `python -m pytest -m "not slow" -n 2 --dist loadgroup` is the quick tier (two
pytest-xdist workers; each loads the kernels from the cache, which locks each kernel's files).

A test that checks a random sample of a larger sweep (the quick tier's share of a slow test) draws
it from `sample_rng`: a stream seeded from ``BEGGARSTATS_TEST_SEED`` (drawn afresh for each run when
unset, passed to the xdist workers through the environment) and the test's id, so every run checks
another sample; the header and the last lines print the seed (the last lines with ``-q`` too), and
setting it repeats the run's samples exactly.

Only the tests that play games through the kernels request `warm_kernels` (a module's
``pytestmark = pytest.mark.usefixtures("warm_kernels")``, or the mark on one test): a pure-Python
test file runs without compiling anything, from an empty cache too.
"""

import os
import resource
import secrets
import time
import zlib

import pytest

# tests/gpu/ runs in a pytest process of its own, with numba's CUDA simulator switched on first
# (tests/engine/test_gpu_isolated.py, which sets BEGGARSTATS_GPU_TESTS): collected here as well, it ran a
# second time in the suite's workers, where it once met the real CUDA target.
collect_ignore = [] if os.environ.get("BEGGARSTATS_GPU_TESTS") else ["gpu"]

SEED_VAR = "BEGGARSTATS_TEST_SEED"
# A share of the collected tests (after -m and -k) to run, drawn from the session's seed: the quick
# tier plays half of the GPU simulator's quick tests each run (tests/engine/test_gpu_isolated.py), the slow
# tier all of them.
SHARE_VAR = "BEGGARSTATS_TEST_SHARE"


def pytest_configure(config):
    # the controller draws the seed before the xdist workers start; they inherit it with the environment
    if not os.environ.get(SEED_VAR):
        os.environ[SEED_VAR] = str(secrets.randbits(32))


# The longest single tests (benchmarks/README.md, "The full suite"), started first: pytest-xdist's loadgroup
# hands out the xdist groups first (the largest first: the notebooks) and then single tests in collection
# order, one at a time to whichever worker is free, so a long test collected last left one worker running
# it alone at the end (the GPU simulator's tests, a pytest of their own: about 150 CPU-s; the two groups of
# GPU kernels compiled to PTX, tests/engine/test_gpu_ptx.py, about 145 CPU-s each).
LONGEST_FIRST = ("test_gpu_tests_all", "test_kernels_compile_to_ptx_for_hopper")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    _leave_out_shares_of_selected_wholes(config, items)
    items.sort(key=lambda item: getattr(item, "originalname", item.name) not in LONGEST_FIRST)  # stable: the rest keep their order
    share = os.environ.get(SHARE_VAR)
    if not share or not items:
        return
    import random

    rng = random.Random(int(os.environ[SEED_VAR]))
    keep = set(rng.sample(range(len(items)), k=max(1, round(float(share) * len(items)))))
    config.hook.pytest_deselected(items=[t for i, t in enumerate(items) if i not in keep])
    items[:] = [t for i, t in enumerate(items) if i in keep]


def _leave_out_shares_of_selected_wholes(config, items):
    """A test marked ``share_of("test_name")`` checks a share of what ``test_name`` (a test of the same
    module, with its parameter id if it has one) checks whole: the quick tier's share of a slow test.
    When the whole runs too (the full suite, which CI runs), the share is left out (deselected): its
    checks are among the whole's, and running both did the share's work twice."""
    selected = {(item.path, item.name) for item in items}
    shares = [item for item in items if (m := item.get_closest_marker("share_of")) and (item.path, m.args[0]) in selected]
    if shares:
        config.hook.pytest_deselected(items=shares)
        items[:] = [item for item in items if item not in shares]


def _seed_line() -> str:
    return f"sampled tests: {SEED_VAR}={os.environ[SEED_VAR]} (set it to repeat this run's samples)"


def pytest_report_header(config):
    return _seed_line()


def pytest_terminal_summary(terminalreporter):
    # again at the end, where `-q` (which hides the header) shows it too
    terminalreporter.write_line(_seed_line())


_PROFILE = pytest.StashKey[tuple]()


def _cpu_seconds() -> float:
    """CPU time of this process (every thread) and of the children it has waited for."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


@pytest.hookimpl(hookwrapper=True, tryfirst=True)
def pytest_runtest_setup(item):
    item.stash[_PROFILE] = (time.time(), _cpu_seconds())
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    # Each test's CPU time (setup, call and teardown: a session fixture is charged to the first test
    # that asks for it), the worker and its start, as properties of the JUnit XML report
    # (`--junitxml`): benchmarks/suite_profile.py reads them into the suite's profile.
    if call.when == "teardown" and _PROFILE in item.stash:
        start, cpu = item.stash[_PROFILE]
        item.user_properties += [("cpu_s", f"{_cpu_seconds() - cpu:.3f}"), ("start", f"{start:.3f}"),
                                 ("worker", os.environ.get("PYTEST_XDIST_WORKER", "main"))]
    yield


@pytest.fixture
def sample_rng(request):
    """A NumPy generator for a test's random sample: this run's seed and the test's id."""
    import numpy as np

    seed = int(os.environ[SEED_VAR])
    print(f"{SEED_VAR}={seed}")  # shown with a failure, to repeat the sample
    return np.random.default_rng([seed, zlib.crc32(request.node.nodeid.encode())])


def _warm(tmp_path_factory, name: str, kernels) -> None:
    """Compile ``kernels`` (or load them from the kernel cache) side by side, as a first run does. Under
    pytest-xdist the workers take turns (a lock in the session's temporary directory, one a set of
    kernels): on a cold cache the first compiles and the others then load, instead of every worker
    compiling them all (numba's own cache locks a kernel's files while it loads or saves them, not
    while it compiles)."""
    from contextlib import nullcontext

    from filelock import FileLock

    from beggarstats.run.warmup import warm_up

    xdist = os.environ.get("PYTEST_XDIST_WORKER") is not None
    with FileLock(tmp_path_factory.getbasetemp().parent / f"{name}.lock") if xdist else nullcontext():
        warm_up(kernels)


@pytest.fixture(scope="session")
def warm_kernels(tmp_path_factory):
    """The engine kernels (`engine.fast.KERNELS`), compiled once per session. Requested by the kernel
    tests only; a test that plays games without it still works (the kernel it needs compiles on first
    use, alone)."""
    from beggarstats.engine.fast import KERNELS

    _warm(tmp_path_factory, "warm_kernels", KERNELS)


@pytest.fixture(scope="session")
def warm_census_kernels(tmp_path_factory):
    """The census kernels (`run.warmup.CENSUS_KERNELS`: the census passes and the replay of the deals they
    hand back), compiled once per session, for the tests that run censuses: without it two workers
    starting census tests together each compiled them (about 40 CPU-seconds each)."""
    from beggarstats.run.warmup import CENSUS_KERNELS

    _warm(tmp_path_factory, "warm_census_kernels", CENSUS_KERNELS)


@pytest.fixture(autouse=True)
def run_cache(tmp_path_factory, monkeypatch):
    """`beggarstats figures` caches its runs in a fresh directory per test, never the user's."""
    path = tmp_path_factory.mktemp("runs")
    monkeypatch.setenv("BEGGARSTATS_RUNS_DIR", str(path))
    return path
