"""The per-user kernel cache: found again after a reinstall, thrown away when any kernel source changes
(numba alone would keep a kernel when only an inlined helper's file changed)."""

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

import beggarstats
from beggarstats.engine import kernel_cache
from beggarstats.engine.kernel_cache import index_file, kernel_dir, sources_digest

PACKAGE = Path(beggarstats.__file__).resolve().parent


def _tree(tmp_path):
    (tmp_path / "engine").mkdir(parents=True)
    (tmp_path / "rng.py").write_text("from numba import njit\nx = 1\n")
    (tmp_path / "deals.py").write_text("from numba import njit\ny = 1\n")
    (tmp_path / "engine" / "kernel_two.py").write_text("from numba import njit\nz = 1\n")
    (tmp_path / "play.py").write_text("no compiled code here\n")
    return tmp_path


def test_the_key_follows_every_kernel_source_and_nothing_else(tmp_path):
    root = _tree(tmp_path / "one")
    first = sources_digest(root)
    os.utime(root / "rng.py", (1, 1))  # a reinstall: new file times, same text
    assert sources_digest(root) == first
    (root / "play.py").write_text("edited\n")  # not compiled by numba
    assert sources_digest(root) == first
    (root / "engine" / "kernel_two.py").write_text("from numba import njit\nz = 2\n")  # an inlined helper changes
    second = sources_digest(root)
    assert second != first
    (root / "engine" / "kernel_new.py").write_text("import numba\n")  # a new kernel file
    assert sources_digest(root) != second
    clone = _tree(tmp_path / "clone")
    (clone / "engine" / "kernel_two.py").write_text("from numba import njit\nz = 2\n")
    (clone / "engine" / "kernel_new.py").write_text("import numba\n")
    assert sources_digest(clone) == sources_digest(root)  # the same sources elsewhere: the same key


def test_cache_location_and_override(tmp_path, monkeypatch):
    monkeypatch.setenv("BEGGARSTATS_CACHE_DIR", str(tmp_path))
    assert kernel_cache.cache_root() == tmp_path
    assert kernel_dir().parent == tmp_path / "kernels"
    assert kernel_dir().name == sources_digest()[:20]
    monkeypatch.delenv("BEGGARSTATS_RUNS_DIR", raising=False)
    from beggarstats.run.paths import runs_dir

    assert runs_dir() == tmp_path / "runs"  # the run layer's, next to the kernels
    monkeypatch.delenv("BEGGARSTATS_CACHE_DIR")
    assert "beggarstats" in str(kernel_cache.cache_root())  # platformdirs' per-user cache


_CHILD = """
import json, sys
from beggarstats.engine.deals import deal_into, random_deal
from beggarstats.game.rules import Rules
random_deal(3, 4, Rules())
print(json.dumps({"file": deal_into.py_func.__code__.co_filename,
                  "hits": sum(deal_into.stats.cache_hits.values()),
                  "misses": sum(deal_into.stats.cache_misses.values())}))
"""

# The smallest cached kernel of the package (no callees: about 0.8 s of CPU to compile against 2 s
# for `deal_into` and the two rng kernels it calls), for the cases that only ask where a kernel is
# found and when it is compiled again.
_SMALL = """
import json, sys
from beggarstats.engine.rng import seed_into, stream_state
stream_state(3, 4)
print(json.dumps({"file": seed_into.py_func.__code__.co_filename,
                  "hits": sum(seed_into.stats.cache_hits.values()),
                  "misses": sum(seed_into.stats.cache_misses.values())}))
"""


def _install(dest: Path) -> Path:
    """A copy of the package, as pip would lay it out (fresh file times, no __pycache__)."""
    shutil.copytree(PACKAGE, dest / "beggarstats", ignore=shutil.ignore_patterns("__pycache__"))
    return dest


def _run(site: Path, cache: Path, child: str = _CHILD) -> dict:
    env = dict(os.environ, PYTHONPATH=str(site), BEGGARSTATS_CACHE_DIR=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", child], env=env, cwd=site, capture_output=True, text=True,
                          timeout=600, check=True)
    return json.loads(done.stdout)


@pytest.mark.slow  # child interpreters that compile kernels: about 5 s of CPU (the quick tier keeps the empty-index case)
def test_a_reinstall_finds_the_compiled_kernels_and_an_edit_does_not(tmp_path):
    cache, site = tmp_path / "cache", tmp_path / "site"
    first = _run(_install(site), cache, _SMALL)
    assert first["misses"] == 1 and first["hits"] == 0 and first["file"].startswith(str(site))
    shutil.rmtree(site)
    time.sleep(0.01)
    again = _run(_install(site), cache, _SMALL)  # pip uninstall + install: same place, new file times
    assert again["hits"] == 1 and again["misses"] == 0
    assert not list(site.rglob("*.nbi"))  # nothing in the install itself
    kernel = site / "beggarstats" / "engine" / "kernel_two.py"
    kernel.write_text(kernel.read_text() + "\n# an edit to a helper the kernels inline\n")
    assert _run(site, cache, _SMALL)["misses"] == 1  # compiled afresh, in a directory of its own
    elsewhere = _run(_install(tmp_path / "elsewhere"), cache, _SMALL)  # another clone of the first sources
    assert elsewhere["hits"] == 1 and elsewhere["misses"] == 0 and elsewhere["file"].startswith(str(tmp_path / "elsewhere"))
    assert len(list((cache / "kernels").iterdir())) == 2


_CHECKED = """
import json
from beggarstats.engine import fast
from beggarstats.engine.deals import deal_into, random_deal
from beggarstats.game.rules import Rules
print(json.dumps({"deal": repr(random_deal(3, 4, Rules())[0]),
                  "hits": sum(deal_into.stats.cache_hits.values()),
                  "misses": sum(deal_into.stats.cache_misses.values())}))
"""


@pytest.mark.slow  # six fresh processes
def test_installs_compiling_at_once_share_one_consistent_cache(tmp_path):
    """The key no longer holds the install's place, so two clones compiling at once write the same
    index files; the per-kernel lock keeps every save whole: all of them give the deal, and the
    next process of either clone loads it without compiling or discarding anything."""
    cache, sites = tmp_path / "cache", [_install(tmp_path / "a"), _install(tmp_path / "b")]
    env = dict(os.environ, BEGGARSTATS_CACHE_DIR=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    procs = [subprocess.Popen([sys.executable, "-c", _CHECKED], env=dict(env, PYTHONPATH=str(site)), cwd=site,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for site in sites * 2]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-2000:] for _, err in outs]
    assert len({json.loads(out)["deal"] for out, _ in outs}) == 1
    for site in sites:
        env_site = dict(env, PYTHONPATH=str(site))
        done = subprocess.run([sys.executable, "-c", _CHECKED], env=env_site, cwd=site, capture_output=True,
                              text=True, timeout=600, check=True)
        again = json.loads(done.stdout)
        assert again["hits"] == 1 and again["misses"] == 0 and "damaged" not in done.stderr


_SAVING_ONLY = """
import json
from beggarstats.engine import deals, rng
from beggarstats.engine.kernel_cache import index_file, saving_only
from beggarstats.game.rules import Rules
with saving_only(deals.deal_into):
    deals.random_deal(3, 4, Rules())
    inside = type(rng.shuffle_inplace._cache).__name__
print(json.dumps({"entry": index_file(deals.deal_into).exists(), "callee": index_file(rng.shuffle_inplace).exists(),
                  "inside": inside, "after": type(rng.shuffle_inplace._cache).__name__}))
"""


@pytest.mark.slow  # child interpreters that compile kernels: about 5 s of CPU
def test_a_kernel_compiled_apart_saves_only_its_entry_which_loads_on_its_own(tmp_path):
    """What lets `run.warmup` compile kernels in processes side by side: inside `saving_only`, the
    kernels the entry calls save nothing (two processes never write one index), and the entry saved
    alone is enough for the next process to load it without compiling."""
    cache = tmp_path / "cache"
    apart = _run(PACKAGE.parent, cache, _SAVING_ONLY)
    assert apart == {"entry": True, "callee": False, "inside": "_LoadOnly", "after": "_Guarded"}
    again = _run(PACKAGE.parent, cache)
    assert again["hits"] == 1 and again["misses"] == 0


@pytest.mark.usefixtures("warm_kernels")
def test_the_session_kernels_are_saved_where_index_file_says():
    from beggarstats.engine import batch, fast

    for kernel in fast.KERNELS:  # compiled (or loaded) by conftest's warm-up
        entry = fast._entry(kernel)
        path = index_file(entry)
        assert path.parent == kernel_dir() and path.name.startswith(f"batch.{entry.__name__}-")
        assert path.exists() and fast.kernels_ready(kernel)


def test_directories_of_other_sources_are_pruned_when_unused(tmp_path):
    here = tmp_path / "kernels" / "new"
    stale, recent = tmp_path / "kernels" / "stale", tmp_path / "kernels" / "recent"
    for d in (here, stale, recent):
        d.mkdir(parents=True)
        (d / "x.nbi").write_text("")
    old = time.time() - (kernel_cache.KEEP_DAYS + 1) * 86400
    os.utime(stale, (old, old))
    kernel_cache._prune(here)
    assert here.exists() and recent.exists() and not stale.exists()


@pytest.mark.slow  # a child pytest (about 4 s of CPU): CI's full suite runs it, the quick tier need not
def test_a_pure_python_test_file_compiles_nothing(tmp_path):
    """The kernel warm-up is a fixture the kernel tests request, not an autouse one: a test file that
    plays no game through the kernels leaves an empty cache empty (it took minutes when it did not)."""
    env = dict(os.environ, BEGGARSTATS_CACHE_DIR=str(tmp_path))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                           str(Path(__file__).parents[1] / "game" / "test_cards.py")],
                          env=env, cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    assert " passed" in done.stdout and not list(tmp_path.rglob("*.nbi"))


def test_the_numba_internals_the_cache_uses_exist_in_the_declared_range():
    """`kernel_cache` relies on numba internals, so pyproject.toml bounds numba to the tested range;
    this names what a new numba release would have to keep."""
    import re as _re

    import numba
    from numba.core import caching
    from numba.core.registry import CPUDispatcher

    declared = _re.search(r'"numba>=([0-9.]+),<([0-9.]+)"', (PACKAGE.parent / "pyproject.toml").read_text())
    assert declared, "pyproject.toml must bound numba (its cache internals are used)"
    version = tuple(int(x) for x in numba.__version__.split(".")[:2])
    low, high = (tuple(int(x) for x in v.split(".")[:2]) for v in declared.groups())
    assert low <= version < high, (numba.__version__, declared.groups())
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    assert isinstance(impl._locator_classes, list) and hasattr(caching, "_CacheLocator")
    from beggarstats.engine import deals

    assert isinstance(deals.deal_into, CPUDispatcher)
    cache = getattr(deals.deal_into._cache, "cache", deals.deal_into._cache)  # under the guard, numba's own
    assert type(cache).__name__ == "FunctionCache" and hasattr(cache._impl, "locator")
    assert callable(cache.load_overload) and callable(cache.save_overload) and callable(cache.flush)
