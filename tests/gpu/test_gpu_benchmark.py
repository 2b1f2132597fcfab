"""benchmarks/gpu.py without a GPU: its preflight's messages with things missing, and its launch-once
accounting under numba's CUDA simulator at tiny sizes (``NUMBA_ENABLE_CUDASIM=1``, as tests/gpu/test_gpu.py).

What needs a GPU - the speed itself, the cold-cache time against the 4-minute budget - is the benchmark's
own run on one (benchmarks/README.md)."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "benchmarks"


def _load(name: str):
    """A module of benchmarks/ by its file (the directory is no package; ``gpu`` would also be a test folder)."""
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def test_preflight_names_a_missing_package_and_its_fix(monkeypatch, tmp_path):
    pre = _load("gpu_preflight")
    monkeypatch.setitem(pre.MODULES, "no_such_module_here", "no-such-package")
    assert pre.missing_modules({"no_such_module_here": "no-such-package", "numpy": "numpy"}) == [
        "no_such_module_here does not import (ModuleNotFoundError: No module named 'no_such_module_here'): install "
        "no-such-package"]
    monkeypatch.setitem(sys.modules, "numba_cuda", None)  # numba's CUDA target not installed
    monkeypatch.setitem(sys.modules, "cuda.bindings", None)
    problems, _, _ = pre.preflight(tmp_path / "cache")
    assert any(p.startswith("no_such_module_here does not import") for p in problems)
    assert any(p.startswith("numba_cuda does not import") and p.endswith("install numba-cuda") for p in problems)
    assert any(p.startswith("cuda.bindings does not import") and p.endswith("install cuda-bindings") for p in problems)


def test_without_platformdirs_the_benchmark_gives_the_cache_a_directory(monkeypatch, tmp_path):
    pre = _load("gpu_preflight")
    monkeypatch.delenv("BEGGARSTATS_CACHE_DIR", raising=False)
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # as on the H200 of 2026-12-04
    assert pre.cache_problem(tmp_path / "kernels") == (None, tmp_path / "kernels")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert pre.cache_problem(None) == (None, tmp_path / "xdg" / "beggarstats")
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    problem, given = pre.cache_problem(blocked / "kernels")  # a file where a directory must go
    assert given is None and problem.startswith(f"the kernel cache {blocked / 'kernels'} is not writable")
    assert problem.endswith("pass --cache DIR, a directory this user can write")
    monkeypatch.setenv("BEGGARSTATS_CACHE_DIR", str(tmp_path / "given"))  # set: used as it is
    assert pre.cache_problem(None) == (None, None)


def test_the_preflight_stops_the_run_naming_what_is_missing():
    """`python benchmarks/gpu.py --preflight` (here without numba's CUDA target, as on a bare machine):
    exit status 2, the missing package and its fix on stderr, in a few seconds."""
    code = ("import runpy, sys; sys.modules['numba_cuda'] = None; sys.argv = ['gpu.py', '--preflight'];"
            f"runpy.run_path({str(BENCH / 'gpu.py')!r}, run_name='__main__')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_ENABLE_CUDASIM": "0"})
    assert out.returncode == 2, out.stderr[-2000:]
    assert "preflight: missing: numba_cuda does not import" in out.stderr
    assert "install numba-cuda" in out.stderr


@pytest.mark.slow  # compiles a kernel to PTX with numba's real CUDA target (about 10 s)
def test_the_preflight_links_the_ptx_and_finds_no_gpu_here():
    """The real checks where they can run without a GPU: nvJitLink links numba-cuda's PTX for sm_90; the
    missing GPU is named; a linker that fails is named with the version it needs."""
    code = f"""
import sys
sys.path.insert(0, {str(BENCH)!r})
import gpu_preflight as pre
problems, found, _ = pre.preflight(None)
print(problems, found)
assert any(f.startswith('nvJitLink ') and 'links numba-cuda' in f and 'sm_90' in f for f in found), found
assert problems == ['no usable NVIDIA GPU (no device, or no driver): run on a machine with one'], problems
from cuda.bindings import nvjitlink
def broken(*a):
    raise RuntimeError('NVJITLINK_ERROR_PTX_COMPILE')
nvjitlink.complete = broken
msg = pre.link_problem((9, 0))
assert msg.startswith('nvJitLink ') and 'cannot link' in msg and 'install nvidia-nvjitlink 13.5 or later' in msg, msg
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "NUMBA_ENABLE_CUDASIM": "0"})
    assert out.returncode == 0, out.stdout[-2000:] + out.stderr[-3000:]


def test_every_timed_chunk_is_launched_once(monkeypatch):
    """The speed table's accounting: after a chunk of the same size has set the bar, each timed chunk is
    one launch; with the bar cleared before the timed run (benchmarks/gpu.py before issue #54) the same
    accounting counts two a chunk - the 2x under-report it fixes. Tiny sizes: 64 games a chunk, the longest
    kept (top 1), list capacity 40, so a bar of 0 (every game a candidate) overflows it as a real chunk's
    does, while the primed bar (0.9 of the first chunk's longest, 1,242 cards) is below the timed chunk's
    longest (1,415)."""
    import beggarstats.engine.gpu as gpu
    from beggarstats.run import summary_gpu

    bench = _load("gpu")
    monkeypatch.setattr(gpu, "LIST_CAPACITY", 40)
    monkeypatch.setattr(gpu, "THREADS", 8)
    for name in ("count_games_cuda", "count_ranks_cuda"):  # Launches wraps them: undone after the test
        monkeypatch.setattr(gpu, name, getattr(gpu, name))
    launches = bench.Launches()
    rows, ok = bench.speed(0.0, 0.0, 64, 64, False, launches, names=["2p standard"], census=False, top=1)
    assert ok
    assert [r["device"] for r in rows] == ["cuda/refill", "cuda/fixed", "cpu"]
    for r in rows[:2]:
        assert r["chunks"] == 1 and r["launches"] == 1, r
    assert rows[1]["same_as_refill"]

    def cleared(n, start, size):  # the old way: the bar forgotten before the timed run
        import beggarstats as bs

        summary_gpu._last_bar.clear()
        return bs.summarize(n, seed=bench.SEED, start=start, chunk_size=size, device="cuda", top=1)

    row, _ = bench.timed(cleared, chunk=64, seconds=0.0, launches=launches, start=2**40)
    assert row["chunks"] == 1 and row["launches"] == 2, row
