"""`census(device="cuda")` against the CPU census, without a GPU.

The census kernels (`engine.gpu_census`) run under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``,
set before numba's CUDA target is first imported, as tests/gpu/test_gpu.py does): every field of the
Summary equal to the CPU census's, on whole small decks with loops, 2 and 3 players, rules that
hand deals back (loops, cut-offs) and ranges of ranks. tests/gpu/test_gpu.py has numba type them for
compute capability 9.0, as the simulator does not.
"""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import beggarstats as bs  # noqa: E402
from beggarstats.engine.rank import n_deals, sequence_at  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_kernels")

LOOPS_2P = bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0))  # 153 deals, a third of them loop
TABLES = {
    "2p 12 cards": bs.Rules(deck=bs.Deck(10, 1, 1, 0, 0)),
    "3p 12 cards": bs.Rules(players=3, deck=bs.Deck(10, 1, 1, 0, 0)),
    "2p 18 cards, loops": LOOPS_2P,
    "2p end=empty": bs.Rules(deck=bs.Deck(10, 1, 1, 0, 0), end="empty"),
    "2p cut-off": bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0), max_cards=60, unfinished="most_cards"),
    "2p Beggar joker": bs.Rules(jokers=1, joker_mode="beggar", deck=bs.Deck(9, 1, 1, 0, 0)),
    "4p leader=next": bs.Rules(players=4, leader="next", deck=bs.Deck(9, 1, 1, 1, 0)),
}
SLOW = {"4p leader=next"}


@pytest.mark.parametrize("rules", [pytest.param(r, id=k, marks=[pytest.mark.slow] if k in SLOW else [])
                                   for k, r in TABLES.items()])
def test_census_is_the_cpu_census_field_for_field(rules):
    # a small cap puts deals beyond it; top=5 keeps a few longest
    gpu = bs.census(rules, device="cuda", cap=40, top=5)
    cpu = bs.census(rules, n_jobs=1, cap=40, top=5)
    assert gpu == cpu
    assert gpu.exact and gpu.n_games == n_deals(rules)


def test_the_tables_hand_deals_back():
    """The tables above exercise the replay of handed-back deals: loops and cut-offs."""
    loops = bs.census(LOOPS_2P, device="cuda")
    assert loops.outcomes[1] == 49
    cut = bs.census(TABLES["2p cut-off"], device="cuda")
    assert cut.outcomes[2] > 0


def test_a_range_of_ranks_in_any_chunks():
    """A range inside a larger deck (threads starting mid-run, chunks of odd sizes): the CPU's."""
    rules = bs.Rules(deck=bs.Deck(12, 2, 1, 1, 0))  # 21,840 deals
    kw = dict(start=5_003, stop=5_400, top=4, cap=60)
    cpu = bs.census(rules, n_jobs=1, **kw)
    assert bs.census(rules, device="cuda", **kw) == cpu
    assert bs.census(rules, device="cuda", chunk_size=101, **kw) == cpu
    assert bs.census(rules, device="cuda", start=9, stop=9) == bs.census(rules, n_jobs=1, start=9, stop=9)
    five = bs.Rules(players=5, deck=bs.Deck(6, 1, 1, 1, 1))
    assert bs.census(five, device="cuda", start=100, stop=300, top=3) == bs.census(five, n_jobs=1, start=100,
                                                                                  stop=300, top=3)


@pytest.mark.parametrize("run", [1, 3, 64])
def test_each_thread_steps_from_its_own_unranking(run):
    """The counts do not depend on how many ranks a thread steps through."""
    from beggarstats.engine.gpu import count_ranks_cuda

    rules = bs.Rules(players=3, deck=bs.Deck(10, 1, 1, 0, 0))
    got = count_ranks_cuda(rules, 7, 100, cap=200, bar=0, run=run)
    ref = count_ranks_cuda(rules, 7, 100, cap=200, bar=0, run=100)
    for k in ("hist_cards", "hist_tricks", "wins", "listed"):
        assert np.array_equal(got[k], ref[k]), k
    order = np.argsort(got["candidates"]["game"])
    assert np.array_equal(got["candidates"]["game"][order], np.arange(7, 107)[~np.isin(np.arange(7, 107),
                                                                                       got["handed_back"]["game"])])


def test_a_run_of_no_ranks_is_refused():
    from beggarstats.engine.gpu import count_ranks_cuda

    with pytest.raises(ValueError, match="`run` must be a whole number >= 1"):
        count_ranks_cuda(LOOPS_2P, 0, 10, cap=100, bar=0, run=0)


def test_unranking_compiled_is_sequence_at():
    from beggarstats.engine.gpu_census import unrank

    rules = bs.Rules(deck=bs.Deck(12, 2, 1, 1, 2))
    total = n_deals(rules)
    for rank in [0, 1, 12345, total // 2, total - 1]:
        out = np.zeros(rules.n_cards, np.int8)
        unrank(np.int64(rank), np.int64(total), np.asarray(rules.counts, np.int64), out)
        assert np.array_equal(out, sequence_at(rank, rules)), rank


@pytest.mark.slow  # 3 s in the simulator; the quick tier keeps the summary's overflow (tests/gpu/test_gpu.py)
def test_lists_that_overflow_cut_the_range(monkeypatch):
    """Handed-back deals that do not fit a list: the range is cut in two until they do."""
    import beggarstats.engine.gpu as gpu

    cpu = bs.census(LOOPS_2P, n_jobs=1, top=3, start=20, stop=60)
    monkeypatch.setattr(gpu, "LIST_CAPACITY", 6)
    assert bs.census(LOOPS_2P, device="cuda", top=3, start=20, stop=60) == cpu


def test_what_the_gpu_census_refuses():
    with pytest.raises(ValueError, match="`device` must be one of 'cpu', 'cuda'"):
        bs.census(LOOPS_2P, device="gpu")
    with pytest.raises(ValueError, match="`shuffle_pile` shuffles every pile"):
        bs.census(bs.Rules(deck=bs.Deck(10, 1, 1, 0, 0), shuffle_pile=True), device="cuda")
    with pytest.raises(ValueError, match=r"unranks deals in 64-bit arithmetic, for decks of fewer than 2\*\*56"):
        bs.census(bs.Rules(), device="cuda", start=0, stop=10)


def test_too_large_is_refused_at_the_speed_measured_on_the_gpu(monkeypatch):
    from beggarstats.run import census as census_module

    rules = bs.Rules(deck=bs.Deck(12, 2, 1, 1, 0))  # 21,840 deals
    monkeypatch.setattr(census_module, "GPU_SAMPLE", 300)  # the simulator's speed: a few thousand deals/s
    calls = []
    real = census_module._gpu_rate
    monkeypatch.setattr(census_module, "_gpu_rate", lambda *a: calls.append(a) or real(*a))
    monkeypatch.setattr(census_module, "_cpu_rate", lambda *a: pytest.fail("the CPU's speed was measured"))
    with pytest.raises(ValueError, match=r"21,840 deals .*, more than `max_deals` = 1,000: about .* deals/s measured"):
        bs.census(rules, device="cuda", max_deals=1000)
    monkeypatch.setattr(census_module, "TIMED_DEALS", 1000)
    monkeypatch.setattr(census_module, "MAX_CENSUS_SECONDS", 0.001)
    with pytest.raises(ValueError, match="pass `max_deals` to run it anyway"):
        bs.census(rules, device="cuda")
    assert len(calls) == 2


def test_cli_census_on_the_gpu(tmp_path):
    from beggarstats.cli import main

    out = tmp_path / "census.json"
    assert main(["census", "--counts", "16,2,0,0,0", "--device", "cuda", "--out", str(out), "--top", "3"]) == 0
    from beggarstats.run.summary import load_summary

    assert load_summary(out) == bs.census(LOOPS_2P, n_jobs=1, top=3)


# The census's kernels (its deal kernel, and the refill kernel of the version the CPU census plays,
# `passes.versions_of`) are compiled to PTX for sm_90, and their local memory read, by
# tests/engine/test_gpu_ptx.py::test_kernels_compile_to_ptx_for_hopper, beside the other kernels of their table size.


def test_the_cpu_census_and_search_never_import_the_gpu_package():
    code = ("import sys, beggarstats as bs; bs.census(bs.Rules(deck=bs.Deck(10, 1, 1, 0, 0)), n_jobs=1);"
            "bs.search_long(seed=1, deals=500, strategy='random');"
            "print(sorted(m for m in sys.modules if m in ('numba.cuda', 'numba_cuda', 'cuda')"
            " or m.startswith(('numba.cuda.', 'numba_cuda.', 'cuda.'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "NUMBA_ENABLE_CUDASIM": "0"})
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.strip() == "[]"
