"""The GPU tests (tests/gpu/: numba's CUDA simulator and PTX for sm_90, no GPU needed) in a pytest
process of their own, with the simulator switched on before numba's CUDA target is imported: run in a
worker beside the rest of the suite they once met the real target, which finds no driver here. The
quick tier runs half of their quick tests, drawn each run, the slow tier all of them, quick ones
included."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(marks: str, share: str = "") -> str:
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "1", "BEGGARSTATS_GPU_TESTS": "1", "BEGGARSTATS_TEST_SHARE": share}
    out = subprocess.run([sys.executable, "-m", "pytest", "tests/gpu", "-q", "-p", "no:cacheprovider", "-n", "0",
                          "-m", marks], cwd=ROOT, env=env, capture_output=True, text=True, timeout=3000)
    assert out.returncode == 0, out.stdout[-6000:] + out.stderr[-2000:]
    last = out.stdout.strip().splitlines()[-1]
    assert " passed" in last and "failed" not in last, last
    print(last)
    return last


@pytest.mark.share_of("test_gpu_tests_all")  # the full suite runs them all once, not a half twice
@pytest.mark.usefixtures("warm_kernels")  # compiled here once (behind the workers' lock), loaded by the child
def test_gpu_tests_quick():
    """Half of the quick GPU tests, drawn afresh each run from BEGGARSTATS_TEST_SEED (tests/conftest.py;
    in the simulator they are a quarter of the quick tier's CPU time); the slow tier runs them all."""
    last = _run("not slow and not browser", share="0.5")
    assert " deselected" in last, last


@pytest.mark.slow
@pytest.mark.usefixtures("warm_kernels")  # compiled here once (behind the workers' lock), loaded by the child
def test_gpu_tests_all():
    """Every GPU test, quick ones included: the quick tier ran only a drawn half of those."""
    _run("not browser")
