"""The sampled tests' seed (tests/conftest.py): shown where `python -m pytest -q` shows it, and the
sample it draws repeated by setting it."""

import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SEED_VAR = "BEGGARSTATS_TEST_SEED"
DRAW = Path(__file__).resolve().relative_to(ROOT).as_posix() + "::test_a_draw"


def test_a_draw(sample_rng):
    """A sampled test, for the test below: prints the sample it draws."""
    print(f"drew {sample_rng.integers(2**62)}")


def test_the_seed_is_shown_with_q_and_repeats_the_sample():
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")} | {SEED_VAR: "424242"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-n", "0", "-p", "no:cacheprovider", DRAW],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert f"{SEED_VAR}=424242 (set it to repeat" in lines[-2]  # above the last line, "1 passed in ..."
    # the sample is the seed's and the test's: the same in any run given that seed
    want = np.random.default_rng([424242, zlib.crc32(DRAW.encode())]).integers(2**62)
    assert [line for line in lines if line.startswith("drew ")] == [f"drew {want}"]
