"""Given deals through the kernels' exact driver: the entry the conformance suite and the kernel
tests use (the library itself only plays random deals in batches, `engine.fast.play_games`, and
single given deals with the reference engine, `beggarstats.run.play`)."""

from __future__ import annotations

import numpy as np

from beggarstats.engine import batch, hands_bits
from beggarstats.engine.constants import pack_params
from beggarstats.engine.fast import assemble, empty_raw
from beggarstats.engine.rng import stream_state

__all__ = ["play_deals"]


def play_deals(rules, deals, *, seed: int = 0, game: int = 0, streams=None,
               kernel: str | None = None) -> dict[str, np.ndarray]:
    """Play given deals with the kernels' exact driver (no fast pass); per-seat figures included.

    Parameters
    ----------
    rules : Rules
    deals : sequence of deals
        Each a sequence of ``rules.players`` hands (top card first, tributes 0..5); all deals
        must hold the same number of cards (hand lengths may differ). Not validated here:
        `beggarstats.run.play.check_deal` does that.
    seed, game : int
        The shuffle variants draw from the stream ``rng.GameStream(seed, game + k)`` for deal k
        (a fresh stream: no deal was drawn from it), as ``reference.play_hands(deal, rules,
        rng=GameStream(seed, game + k))`` does.
    streams : uint64[m, 4], optional
        Explicit stream states instead (e.g. positioned after a random deal).
    kernel : {'bits', 'general'}, optional

    Returns
    -------
    dict of str to numpy.ndarray
        The keys of `play_games` with ``per_seat=True``, except the initial-hand counts.
    """
    m, p = len(deals), rules.players
    width = max(1, max(len(h) for d in deals for h in d))
    dh = np.zeros((m, p, width), dtype=np.int8)
    dl = np.zeros((m, p), dtype=np.int64)
    for i, d in enumerate(deals):
        if len(d) != p:
            raise ValueError(f"deal {i} has {len(d)} hands but the rules are for {p} players")
        for s, h in enumerate(d):
            dh[i, s, : len(h)] = h
            dl[i, s] = len(h)
    if streams is None:
        streams = np.stack([stream_state(seed, game + k) for k in range(m)]) if m else np.zeros((0, 4), np.uint64)
    streams = np.ascontiguousarray(streams, dtype=np.uint64).copy()
    prm = pack_params(rules)
    out_u32, out_small, seat_out = empty_raw(m, p)
    n_cards = int(dl[0].sum()) if m else 0
    kernel = kernel or ("bits" if hands_bits.supports(n_cards, p) else "general")
    if kernel == "bits":
        batch.play_deals_bits(dh, dl, streams, prm, out_u32, out_small, seat_out)
    else:
        batch.play_deals_general(dh, dl, streams, prm, out_u32, out_small, seat_out)
    return assemble(out_u32, out_small, seat_out, None, True)
