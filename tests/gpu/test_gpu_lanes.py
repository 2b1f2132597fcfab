"""The two ways a GPU launch shares out its games among threads (`gpu_kernels.LANES`), against the
CPU engine, without a GPU.

'refill' (the default, `gpu_refill`): the games dealt first, then played one trick a loop step, a lane
whose game has ended taking its block's next deal; 'fixed': thread g plays every G-th id from g, a
whole game at a time. Which thread plays which game then depends on how long the games are (and, on
a GPU, on timing), so the tests hold both to the CPU with far fewer threads than games (`FEW_LANES` a
block: every lane refills again and again), runs of games that no thread count, block or chunk
divides, ids either side of 2^32,
and tables whose games are handed back (loops, cut-offs): every id is played exactly once, each
game's row lands at its index, and a summary's lists come out complete and in the CPU's order.
Under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, as tests/gpu/test_gpu.py) the blocks
run one after another, so there the first block takes most games; the PTX test of test_gpu.py
compiles both kinds of kernel for the GPU.
"""

from __future__ import annotations

import os

import numpy as np
import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import beggarstats as bs  # noqa: E402
from beggarstats.engine import gpu  # noqa: E402
from beggarstats.engine.fast import play_games  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_kernels")

SEED = 77
FEW_LANES = 8  # threads a block (at most 4 blocks under the simulator): far fewer threads than games
LANES = ("refill", "fixed")
START = 2**32 - 150  # ids either side of 2^32
GAMES = 301  # no multiple of the threads (8, 24) or of the chunk below
CHUNK = 97
LOOPS_2P = bs.Rules(deck=bs.Deck(16, 2, 0, 0, 0))  # 18 cards: about a third of the deals loop

QUICK = {
    "2p 18 cards, loops": LOOPS_2P,
    "4p standard": bs.Rules(players=4),
}
EVERY = {
    "2p standard": bs.Rules(),
    "2p cut-off": bs.Rules(max_cards=250, unfinished="most_cards"),
    "2p end=empty, Beggar joker": bs.Rules(end="empty", jokers=1, joker_mode="beggar"),
    "3p 13 cards, loops": bs.Rules(players=3, deck=bs.Deck(9, 1, 1, 1, 1)),
    "5p cut-off, leader=next": bs.Rules(players=5, max_cards=200, leader="next"),
}


def _tables(lanes):
    """Every table with every way; the quick tier: the default ('refill') on the quick tables."""
    return [pytest.param(rules, way, id=f"{name}, {way}",
                         marks=[] if name in QUICK and way == "refill" else [pytest.mark.slow])
            for way in lanes for name, rules in {**QUICK, **EVERY}.items()]


@pytest.fixture
def few_lanes(monkeypatch):
    monkeypatch.setattr(gpu, "THREADS", FEW_LANES)


@pytest.mark.parametrize(("rules", "lanes"), _tables(LANES))
def test_summary_is_the_cpu_summary_either_way(rules, lanes, few_lanes, monkeypatch):
    monkeypatch.setattr(gpu, "LANES", lanes)
    kw = dict(rules=rules, seed=SEED, start=START, top=6, cap=120)  # a small cap: games beyond it
    cpu = bs.summarize(GAMES, n_jobs=1, **kw)
    assert bs.summarize(GAMES, device="cuda", chunk_size=CHUNK, **kw) == cpu
    assert bs.summarize(GAMES, device="cuda", **kw) == cpu  # one launch, every thread taking many times


@pytest.mark.parametrize(("rules", "lanes"), _tables(LANES))
def test_rows_are_the_cpu_rows_either_way(rules, lanes, few_lanes):
    ids = np.concatenate([np.arange(START, START + 40), np.arange(21, dtype=np.int64)[::-1] * 7919])  # 61 ids
    cpu = play_games(rules, SEED, ids, per_seat=True)
    for blocks in (1, 3):  # 8 and 24 threads for 61 games
        got = gpu.play_games_cuda(rules, SEED, ids, per_seat=True, lanes=lanes, blocks=blocks)
        assert set(got) == set(cpu)
        for key in cpu:
            assert np.array_equal(got[key], cpu[key]), (key, blocks)


@pytest.mark.parametrize("rules", [pytest.param(LOOPS_2P, id="2p 18 cards, loops"),
                                   pytest.param(bs.Rules(players=3, max_cards=150), id="3p cut-off",
                                                marks=pytest.mark.slow)])
def test_every_id_is_played_once_whichever_thread_takes_it(rules, few_lanes):
    """With ``bar=0`` every decided game is listed: the two lists hold each id exactly once, and
    both ways count the same (the lists in any order: the host sorts them)."""
    got = {lanes: gpu.count_games_cuda(rules, SEED, START, GAMES, cap=100, bar=0, blocks=3, lanes=lanes)
           for lanes in LANES}
    for lanes, g in got.items():
        ids = np.concatenate([g["handed_back"]["game"], g["candidates"]["game"]])
        assert np.array_equal(np.sort(ids), np.arange(START, START + GAMES)), lanes
        assert g["handed_back"]["game"].size > 10  # loops or cut-offs: the replay on the CPU is exercised
    a, b = got["refill"], got["fixed"]
    for key in ("hist_cards", "hist_tricks", "wins", "listed"):
        assert np.array_equal(a[key], b[key]), key
    for name in ("handed_back", "over_cap", "candidates"):
        order_a, order_b = np.argsort(a[name]["game"]), np.argsort(b[name]["game"])
        for column in a[name]:
            assert np.array_equal(a[name][column][order_a], b[name][column][order_b]), (name, column)


def test_lanes_is_checked():
    for run in (lambda: gpu.play_games_cuda(bs.Rules(), 1, np.arange(3), lanes="warp"),
                lambda: gpu.count_games_cuda(bs.Rules(), 1, 0, 3, cap=100, bar=0, lanes="warp")):
        with pytest.raises(ValueError, match="The value for `lanes` must be one of 'refill', 'fixed', but 'warp'"):
            run()
