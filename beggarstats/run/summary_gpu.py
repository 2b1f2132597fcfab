"""`summarize(device="cuda")`: a range of games reduced on the GPU to the fields of the Summary the
CPU gives (`summary_chunks.summarize_chunk_gpu` builds it).

The GPU (`engine.gpu.count_games_cuda`) counts the games its fast pass decides into histograms and
wins, and lists three kinds of game one by one: those it hands back (replayed here on the CPU by
`engine.fast.play_games`, exactly as on the CPU), those longer than ``cap`` cards, and those of at
least ``bar`` cards, the candidates for the ``top`` longest. A Summary needs every finished game of
at least the ``top``-th longest length; that length is read off the histogram after the launch, so
the launch is exact when it was at least ``bar`` (and no list was cut short). ``bar`` is a guess a
little below the last chunk's of the same run; a wrong guess costs one more launch of that range,
never a wrong summary, and a range whose lists do not fit (a small deck with very many games of
one length) is handed back (None) to be played row by row.
"""

from __future__ import annotations

import functools

import numpy as np

from ..engine.fast import play_games
from .game_lists import GAME_COLUMNS, LOOP_COLUMNS, concat, top as top_records

__all__ = ["chunk_fields", "GPU_CHUNK"]

GPU_CHUNK = 1 << 28  # games a task (one launch): under a second on an H200
NO_BAR = 2**62  # a bar no game reaches
_last_bar: dict = {}  # (rules, seed, cap, top, chunk size) -> the bar of its last chunk


def chunk_fields(lo, hi, *, rules, seed, cap, top, ranks=False) -> dict | None:
    """The fields of the Summary of games lo..hi-1 (``outcomes, wins, cards, tricks, over_cap,
    loops, longest``), or None where the range must be played row by row. ``ranks``: the ids are
    deal ranks, a census (`engine.gpu.count_ranks_cuda`, the deals handed back replayed by
    `census_kernel.play_ranks`), ``seed`` unused."""
    from ..engine import gpu

    key = (rules, int(seed), cap, top, hi - lo, ranks)
    bar = int(0.9 * _last_bar.get(key, 0))  # a little below the last chunk's: one launch, nearly always
    for _ in range(2):
        if ranks:
            got = gpu.count_ranks_cuda(rules, lo, hi - lo, cap=cap, bar=bar, capacity=gpu.LIST_CAPACITY)
            replay = functools.partial(gpu.play_rank_list, rules)
        else:
            got = gpu.count_games_cuda(rules, seed, lo, hi - lo, cap=cap, bar=bar, capacity=gpu.LIST_CAPACITY)
            replay = functools.partial(play_games, rules, seed)
        if np.any(got["listed"][:2] > gpu.LIST_CAPACITY):
            return None  # games handed back or beyond the cap do not fit a list
        fields, need_bar = _fields(got, lo, hi, replay=replay, rules=rules, cap=cap, top=top)
        if need_bar >= bar and got["listed"][2] <= gpu.LIST_CAPACITY:
            _last_bar[key] = need_bar
            return fields
        bar = need_bar
    return None


def _fields(got: dict, lo: int, hi: int, *, replay, rules, cap, top):
    """(the Summary's fields, the bar they needed) from one launch's counts and lists; the games
    handed back are played on the CPU here (``replay(ids)``: the engine's arrays)."""
    back = np.sort(got["handed_back"]["game"], kind="stable")
    a = replay(back)  # the exact driver on the CPU, as engine.fast (or census_kernel.play_ranks) does
    cards, tricks, out, winner = (np.asarray(a[k], np.int64) for k in ("cards", "tricks", "outcome", "winner"))
    looped, cutoff = int(np.count_nonzero(out == 1)), int(np.count_nonzero(out == 2))
    outcomes = np.array([hi - lo - looped - cutoff, looped, cutoff], np.int64)
    wins = got["wins"] + np.array([np.count_nonzero(winner == s) for s in range(rules.players)], np.int64)
    within = cards <= cap
    hist_c, hist_t = [], []
    for o in range(3):
        m = within & (out == o)
        hc, ht = np.bincount(cards[m]).astype(np.int64), np.bincount(tricks[m]).astype(np.int64)
        if o == 0:
            hc, ht = _add(got["hist_cards"], hc), _add(got["hist_tricks"], ht)
        hist_c.append(np.trim_zeros(hc, "b"))
        hist_t.append(np.trim_zeros(ht, "b"))

    def pick(mask, columns):
        idx = np.flatnonzero(mask)
        return {c: np.asarray(back[idx] if c == "game" else a[c][idx], np.int64) for c in columns}

    def decided(name):  # a list of games the fast pass decided: each a win
        rec = got[name]
        return {"game": rec["game"], "outcome": np.zeros(len(rec["game"]), np.int64), "winner": rec["winner"],
                "cards": rec["cards"], "tricks": rec["tricks"]}

    over_cap = concat(decided("over_cap"), pick(~within, GAME_COLUMNS))
    # the top-th longest finished length: from the histogram and the finished games beyond the cap
    need_bar = 0
    if not top:
        need_bar = NO_BAR  # no longest games kept: no candidates needed
    elif outcomes[0] > top:
        beyond = int(np.count_nonzero(over_cap["outcome"] == 0))
        if beyond >= top:
            need_bar = cap + 1
        else:
            at_least = np.cumsum(hist_c[0][::-1])[::-1] + beyond
            need_bar = int(np.flatnonzero(at_least >= top)[-1])
    candidates = concat(decided("candidates"), pick(out == 0, GAME_COLUMNS))
    keep = candidates["cards"] >= need_bar
    fields = dict(outcomes=outcomes, wins=wins, cards=hist_c, tricks=hist_t, over_cap=over_cap,
                  loops=pick(np.asarray(a["looped"], bool), LOOP_COLUMNS),
                  longest=top_records({c: v[keep] for c, v in candidates.items()}, top))
    return fields, need_bar


def _add(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    out = np.zeros(max(a.size, b.size), np.int64)
    out[: a.size] += a
    out[: b.size] += b
    return out
