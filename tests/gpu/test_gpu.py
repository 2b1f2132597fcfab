"""The GPU path (``device="cuda"``) against the CPU engine, without a GPU.

The kernels run under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, set below before numba's
CUDA target is first imported: no other test module imports it), which executes the kernel code
thread by thread on the CPU and so checks what the kernels compute: every array of every game,
and every field of a summary, equal to the CPU's for the same seed and ids. It does not type the
kernels as the GPU compiler does; tests/engine/test_gpu_ptx.py does that, compiling
each kernel to PTX for compute capability 9.0 (the H100 and H200) with no GPU present.
benchmarks/gpu.py runs the same identity checks on a real GPU, at 10^5 games a table.
"""

from __future__ import annotations

import os
import subprocess
import sys
import types as pytypes

import numpy as np
import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import beggarstats as bs  # noqa: E402
from beggarstats.engine.fast import play_games  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_kernels")

SEED = 2026
IDS = np.concatenate([np.arange(24, dtype=np.int64), np.arange(24, dtype=np.int64) * 1_000_003 + 2**40])

QUICK = {
    "2p standard": bs.Rules(),
    "4p standard": bs.Rules(players=4),
    "2p 18 cards, loops": bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0)),
}
EVERY = {
    "2p end=empty": bs.Rules(end="empty"),
    "2p end=unable": bs.Rules(end="unable"),
    "2p Beggar joker": bs.Rules(jokers=1, joker_mode="beggar"),
    "2p 2 super jokers, empty": bs.Rules(jokers=2, end="empty"),
    "2p shuffle_pile": bs.Rules(shuffle_pile=True),
    "2p cut-off": bs.Rules(max_cards=300, unfinished="most_cards"),
    "3p standard": bs.Rules(players=3),
    "3p passes_on ccw": bs.Rules(players=3, exhausted_tribute="passes_on", direction="ccw"),
    "4p leader=next": bs.Rules(players=4, leader="next"),
    "4p shuffle_pile": bs.Rules(players=4, shuffle_pile=True),
    "5p end=empty, jokers": bs.Rules(players=5, end="empty", jokers=1),
    "6p standard": bs.Rules(players=6),
    "3p cut-off": bs.Rules(players=3, max_cards=200),
    "3p 13 cards, loops": bs.Rules(players=3, deck=bs.Deck(9, 1, 1, 1, 1)),
}


def _tables(quick):
    return [pytest.param(r, id=name) for name, r in quick.items()] + [
        pytest.param(r, id=name, marks=pytest.mark.slow) for name, r in EVERY.items()]


def test_the_tables_play_every_version_the_gpu_compiles():
    """The tables above reach every row of `passes.VERSIONS` the GPU compiles, so the simulator holds
    each version to the CPU (the versions are the CPU's: `engine.fast.fast_pass` chooses for both)."""
    from beggarstats.engine.fast import fast_pass
    from beggarstats.engine.gpu_kernels import PASSES

    assert {fast_pass(r) for r in {**QUICK, **EVERY}.values()} == set(PASSES)


@pytest.mark.parametrize("rules", _tables(QUICK))
def test_rows_are_the_cpu_rows(rules):
    from beggarstats.engine.gpu import play_games_cuda

    gpu = play_games_cuda(rules, SEED, IDS, per_seat=True)
    cpu = play_games(rules, SEED, IDS, per_seat=True)
    assert set(gpu) == set(cpu)
    for key in cpu:
        assert np.array_equal(gpu[key], cpu[key]), key


def test_rows_include_games_handed_back_to_the_exact_driver():
    """Loops and cut-offs are replayed on the CPU: the table above has both kinds of game."""
    from beggarstats.engine.gpu import play_games_cuda

    rules = bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0))
    gpu = play_games_cuda(rules, SEED, IDS)
    assert np.count_nonzero(gpu["outcome"] == 1) >= 5  # loops: about a third of these deals
    assert np.array_equal(gpu["loop_cards"], play_games(rules, SEED, IDS)["loop_cards"])


@pytest.mark.parametrize("rules", _tables({"2p standard": bs.Rules(), "2p 18 cards, loops": bs.Rules(
    deck=bs.Deck(16, 2, 0, 0, 0))}))
def test_summary_is_the_cpu_summary_field_for_field(rules):
    # a small cap puts games beyond it; top=5 keeps a few longest; ids above 2^32
    kw = dict(rules=rules, seed=SEED, start=2**33, top=5, cap=150)
    gpu = bs.summarize(300, device="cuda", **kw)
    cpu = bs.summarize(300, n_jobs=1, **kw)
    assert gpu == cpu
    assert gpu.n_games == 300


def test_summary_lists_that_overflow_fall_back_exactly(monkeypatch):
    """A bar guessed too high is launched again; candidates that do not fit go row by row."""
    import beggarstats.engine.gpu as gpu
    from beggarstats.run import summary_chunks, summary_gpu
    from beggarstats.run.summary import DEFAULT_CAP

    rules = bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0))
    cpu = bs.summarize(200, rules=rules, seed=3, n_jobs=1, top=8)
    summary_gpu._last_bar[(rules, 3, DEFAULT_CAP, 8, 200)] = 10**6  # far too high
    assert bs.summarize(200, rules=rules, seed=3, top=8, device="cuda") == cpu
    monkeypatch.setattr(gpu, "LIST_CAPACITY", 4)  # nothing fits: the range is played row by row
    calls = []
    real = summary_chunks.summarize_chunk
    monkeypatch.setattr(summary_chunks, "summarize_chunk", lambda *a, **k: calls.append(a) or real(*a, **k))
    assert bs.summarize(200, rules=rules, seed=3, top=8, device="cuda") == cpu
    assert calls


def test_compare_and_simulate_on_the_gpu():
    a, b = bs.Rules(players=3), bs.Rules(players=3, shuffle_pile=True)
    assert bs.compare(a, b, 40, seed=SEED, device="cuda", n_jobs=1) == bs.compare(a, b, 40, seed=SEED, n_jobs=1)
    games = bs.simulate(40, rules=a, seed=SEED, device="cuda")
    assert games.equals(bs.simulate(40, rules=a, seed=SEED))


def test_matches_on_the_gpu(capsys):
    """`simulate_matches` takes the `device` of every batch entry point: each round of the running
    matches is one launch, the same matches and rounds as on the CPU (and the command's --device)."""
    import pandas as pd

    from beggarstats.cli import main

    rules = bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0))  # rounds without a winner (loops): replayed
    gpu = bs.simulate_matches(30, rules=rules, seed=SEED, device="cuda", return_rounds=True)
    cpu = bs.simulate_matches(30, rules=rules, seed=SEED, return_rounds=True)
    assert (gpu[1]["outcome"] != "win").any()
    pd.testing.assert_frame_equal(gpu[0], cpu[0])
    pd.testing.assert_frame_equal(gpu[1], cpu[1])
    argv = ["matches", "--matches", "30", "--seed", "5", "--players", "3"]
    assert main(argv) == 0
    on_cpu = capsys.readouterr().out
    assert main(argv + ["--device", "cuda"]) == 0
    assert capsys.readouterr().out == on_cpu


def test_the_device_is_checked_once_a_run(monkeypatch):
    """Chosen at the entry point and asked after: a GPU run checks the device once, also a search
    whose rounds are `summarize` runs (it was twice in `simulate`, once a round in a search)."""
    import beggarstats.engine.gpu as gpu

    real, calls = gpu.check_device, []
    monkeypatch.setattr(gpu, "check_device", lambda device: calls.append(device) or real(device))
    for run in (lambda: bs.simulate(40, seed=SEED, device="cuda"), lambda: bs.summarize(40, seed=SEED, device="cuda"),
                lambda: bs.compare(bs.Rules(), bs.Rules(end="empty"), 40, seed=SEED, device="cuda"),
                lambda: bs.search_long(seed=SEED, deals=3000, strategy="random", device="cuda")):
        calls.clear()
        run()
        assert calls == ["cuda"]


def test_device_is_checked():
    with pytest.raises(ValueError, match="`device` must be one of 'cpu', 'cuda'"):
        bs.summarize(10, seed=1, device="gpu")
    with pytest.raises(ValueError, match="at most 64 cards"):
        bs.summarize(10, seed=1, rules=bs.Rules(deck=bs.Deck(60, 4, 4, 4, 4)), device="cuda")
    with pytest.raises(ValueError, match="at most 64 cards"):
        bs.simulate(10, seed=1, rules=bs.Rules(deck=bs.Deck(60, 4, 4, 4, 4)), device="cuda")
    with pytest.raises(ValueError, match="at most 64 cards"):
        big = bs.Rules(deck=bs.Deck(60, 4, 4, 4, 4))
        bs.compare(big, bs.Rules(deck=big.deck, end="empty"), 10, seed=1, device="cuda")
    with pytest.raises(ValueError, match="not for a run with a `store`"):
        bs.simulate(10, seed=1, device="cuda", store=True)
    with pytest.raises(ValueError, match="`engine='reference'` plays on the CPU, not on `device='cuda'`"):
        with pytest.warns(FutureWarning):
            bs.simulate_matches(10, seed=1, device="cuda", engine="reference")


def _python(code: str, **env) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def test_cpu_path_never_imports_the_gpu_package():
    # (numba-cuda installs a start-up hook, `_numba_cuda_redirector`, that only points `numba.cuda`
    # at itself: the package is not imported until it is used)
    code = ("import sys, beggarstats as bs; bs.summarize(2000, seed=1, n_jobs=1); bs.simulate(100, seed=1);"
            "print(sorted(m for m in sys.modules if m in ('numba.cuda', 'numba_cuda', 'cuda')"
            " or m.startswith(('numba.cuda.', 'numba_cuda.', 'cuda.'))))")
    out = _python(code, NUMBA_ENABLE_CUDASIM="0")
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


def test_without_the_package_or_a_gpu_one_clear_error():
    missing = _python("import sys; sys.modules['numba_cuda'] = None\nimport beggarstats as bs\n"
                      "bs.summarize(10, seed=1, device='cuda')", NUMBA_ENABLE_CUDASIM="0")
    assert missing.returncode == 1
    assert missing.stderr.strip().splitlines()[-1] == (
        "ValueError: `device='cuda'` needs numba's CUDA target, which is not installed: "
        "pip install \"beggarstats[cuda]\" (an NVIDIA GPU and its driver are needed to run it).")
    no_gpu = _python("import beggarstats as bs\nfrom numba import cuda\nprint(cuda.is_available())\n"
                     "bs.summarize(10, seed=1, device='cuda')", NUMBA_ENABLE_CUDASIM="0")
    if no_gpu.stdout.strip() == "False":  # as on CI: the driver is not found
        assert no_gpu.stderr.strip().splitlines()[-1].startswith(
            "ValueError: `device='cuda'` found no usable NVIDIA GPU")
    else:  # a machine with a GPU runs it
        assert no_gpu.returncode == 0, no_gpu.stderr


_EVERY_COMMAND = """
from beggarstats.cli import main
for argv in (["simulate", "--games", "10"], ["summarize", "--games", "10"], ["census", "--counts", "4,1,1,0,0"],
             ["search", "--seed", "1", "--deals", "10"], ["matches", "--matches", "10"]):
    print(main(argv + ["--device", "cuda"]))
"""


def test_every_command_says_it_with_its_flag():
    """The same sentences on the command line, in one line each (exit 2), naming --device as typed."""
    missing = _python("import sys; sys.modules['numba_cuda'] = None\n" + _EVERY_COMMAND, NUMBA_ENABLE_CUDASIM="0")
    assert missing.stdout.split() == ["2"] * 5, missing.stderr
    # (the other lines: numba-cuda's start-up hook warns that the package it points numba.cuda at is gone)
    assert [line.split(": error: ")[1] for line in missing.stderr.splitlines() if ": error: " in line] == [
        "--device cuda needs numba's CUDA target, which is not installed: pip install \"beggarstats[cuda]\" "
        "(an NVIDIA GPU and its driver are needed to run it)."] * 5
    no_gpu = _python("from numba import cuda\nprint(cuda.is_available())\n" + _EVERY_COMMAND, NUMBA_ENABLE_CUDASIM="0")
    if no_gpu.stdout.split()[0] == "False":  # as on CI: the driver is not found
        assert no_gpu.stdout.split()[1:] == ["2"] * 5, no_gpu.stderr
        assert [line.split(": error: ")[1] for line in no_gpu.stderr.splitlines() if ": error: " in line] == [
            "--device cuda found no usable NVIDIA GPU (no device, or no driver): run on a machine with one, or use "
            "--device cpu."] * 5
