"""A slow stand-in for `engine.fast.play_games`, built on the reference engine.

Same signature and output arrays as the kernel's batch entry point (see docs/DESIGN.md), so the
simulator can be tested before (and independently of) the numba kernels.
"""

from __future__ import annotations

import numpy as np

from beggarstats.engine.deals import random_deal
from beggarstats.engine.reference import play_hands

__all__ = ["play_games"]

_OUTCOME = {"win": 0, "loop": 1, "cutoff": 2}


def play_games(rules, seed, games, *, per_seat=False):
    games = np.asarray(games, dtype=np.int64)
    n, p = len(games), rules.players
    out = {
        "cards": np.zeros(n, np.uint32), "tricks": np.zeros(n, np.uint32),
        "outcome": np.zeros(n, np.uint8), "winner": np.full(n, -1, np.int8),
        "looped": np.zeros(n, bool),
    }
    for k in ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"):
        out[k] = np.zeros(n, np.uint32)
    if per_seat:
        out["hand_size"] = np.zeros((n, p), np.uint8)
        for k in ("jacks", "queens", "kings", "aces", "jokers"):
            out[k] = np.zeros((n, p), np.uint8)
        out["tribute_total"] = np.zeros((n, p), np.uint16)
        out["min_cards"] = np.zeros((n, p), np.int16)
        out["place"] = np.full((n, p), -1, np.int8)
        out["out_cards"] = np.full((n, p), -1, np.int64)
    for i, g in enumerate(games):
        deal, stream = random_deal(seed, int(g), rules)
        r = play_hands(deal, rules, rng=stream)
        out["cards"][i], out["tricks"][i] = r.cards, r.tricks
        out["outcome"][i] = _OUTCOME[r.outcome]
        out["winner"][i] = -1 if r.winner is None else r.winner
        if r.loop_tricks is not None:
            out["looped"][i] = True
            for k in ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"):
                out[k][i] = getattr(r, k)
        if per_seat:
            for s, hand in enumerate(deal):
                h = np.asarray(hand, dtype=np.int64)
                out["hand_size"][i, s] = len(h)
                for kind, k in enumerate(("jacks", "queens", "kings", "aces", "jokers"), start=1):
                    out[k][i, s] = int((h == kind).sum())
                out["tribute_total"][i, s] = int(h.sum())
                out["min_cards"][i, s] = r.min_cards[s]
                out["place"][i, s] = -1 if r.place[s] is None else r.place[s]
                out["out_cards"][i, s] = -1 if r.out_cards[s] is None else r.out_cards[s]
    return out


class CountingEngine:
    """Wraps a `play_games`: counts calls (chunks computed) and can raise KeyboardInterrupt on
    call number ``interrupt_at`` (1-based) to simulate Ctrl-C in the middle of a run."""

    def __init__(self, engine, interrupt_at=None):
        import threading

        self.engine, self.interrupt_at = engine, interrupt_at
        self.calls, self.games = 0, 0
        self._lock = threading.Lock()

    def __call__(self, rules, seed, games, *, per_seat=False):
        with self._lock:
            self.calls += 1
            if self.interrupt_at is not None and self.calls == self.interrupt_at:
                raise KeyboardInterrupt
            self.games += len(games)
        return self.engine(rules, seed, games, per_seat=per_seat)
