"""The suite's own machinery (tests/conftest.py): the sampled tests' seed, shown where `python -m pytest
-q` shows it and repeating the sample it draws; a quick share left out where its whole runs; each test's
CPU time in the JUnit XML that benchmarks/suite_profile.py reads."""

import os
import subprocess
import sys
import zlib
from pathlib import Path
from types import SimpleNamespace

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SEED_VAR = "BEGGARSTATS_TEST_SEED"
DRAW = Path(__file__).resolve().relative_to(ROOT).as_posix() + "::test_a_draw"


def test_a_draw(sample_rng):
    """A sampled test, for the test below: prints the sample it draws."""
    print(f"drew {sample_rng.integers(2**62)}")


def test_the_seed_is_shown_with_q_and_repeats_the_sample_and_the_cpu_time_is_recorded(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")} | {SEED_VAR: "424242"}
    xml = tmp_path / "run.xml"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-s", "-n", "0", "-p", "no:cacheprovider", DRAW,
                           f"--junitxml={xml}"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    assert f"{SEED_VAR}=424242 (set it to repeat" in lines[-2]  # above the last line, "1 passed in ..."
    # the sample is the seed's and the test's: the same in any run given that seed
    want = np.random.default_rng([424242, zlib.crc32(DRAW.encode())]).integers(2**62)
    assert [line for line in lines if line.startswith("drew ")] == [f"drew {want}"]
    # the test's CPU time, worker and start, as benchmarks/suite_profile.py reads them
    from _scripts import load_script

    profile = load_script("benchmarks/suite_profile.py")
    session, rows = profile.read_junit(xml)
    (row,) = rows
    assert row["outcome"] == "passed" and row["worker"] == "main" and 0 <= row["cpu"] < 60
    assert session["start"] - 5 <= row["start"] <= session["start"] + session["wall"] + 5
    assert "test_a_draw" in profile.table(xml)


class _Item:
    """What `_leave_out_shares_of_selected_wholes` asks of a collected test."""

    def __init__(self, path, name, share_of=None):
        self.path, self.name, self._share_of = path, name, share_of

    def get_closest_marker(self, mark):
        import types

        return types.SimpleNamespace(args=(self._share_of,)) if mark == "share_of" and self._share_of else None


def test_a_share_is_left_out_only_where_its_whole_runs():
    from conftest import _leave_out_shares_of_selected_wholes

    left_out = []
    config = SimpleNamespace(hook=SimpleNamespace(pytest_deselected=lambda items: left_out.extend(items)))
    whole, share = _Item("a.py", "test_all"), _Item("a.py", "test_some", share_of="test_all")
    elsewhere = _Item("b.py", "test_some", share_of="test_all")  # the whole of another module is not its
    items = [share, whole, elsewhere]
    _leave_out_shares_of_selected_wholes(config, items)
    assert items == [whole, elsewhere] and left_out == [share]
    items, left_out[:] = [share, elsewhere], []  # -m "not slow": the whole is not selected, the share runs
    _leave_out_shares_of_selected_wholes(config, items)
    assert items == [share, elsewhere] and left_out == []


GROUPED = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("i", range(4))
def test_kept_together(i):
    with open(os.environ["WORKERS_FILE"], "a") as out:
        print(os.environ["PYTEST_XDIST_WORKER"], file=out)
"""


def test_tests_of_one_xdist_group_run_on_one_worker(tmp_path):
    """`--dist loadgroup` (the README's command) keeps an xdist_group on one worker: the notebook tests rely
    on it, and a pytest release once made it stop grouping without a word (pyproject.toml's test extra)."""
    for name in ("test_a.py", "test_b.py"):
        (tmp_path / name).write_text(GROUPED)
    (tmp_path / "test_c.py").write_text("def test_free():\n    pass\n")
    seen = tmp_path / "workers.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")} | {"WORKERS_FILE": str(seen)}
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q",
                           "-p", "no:cacheprovider", "-c", os.devnull, "--rootdir", str(tmp_path), str(tmp_path)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    workers = seen.read_text().split()
    assert len(workers) == 8 and len(set(workers)) == 1, workers
