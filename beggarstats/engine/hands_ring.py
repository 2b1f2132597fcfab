"""Hands as ring buffers (`state.RingGame`): the card moves of the exact driver for any deck.

Plain functions, compiled into the driver through `hands.py` (one per primitive, chosen by the
state's type): a hand is ``hands[s, head[s] ...]`` wrapping at N, the deck's size, one step per
card. No rule is decided here (that is `rulebook.py` and `exact.py`).
"""

from __future__ import annotations

from .rng import scatter_inplace
from .state import S_LEADER, S_PLEN


def load_deal(G, deal):
    """Put the deal ``(dh int8[n, W], dl int64[n])`` in the hands, top card first."""
    dh, dl = deal
    for s in range(dl.shape[0]):
        for k in range(dl[s]):
            G.hands[s, k] = dh[s, k]
        G.head[s] = 0


def play_top(G, seat):
    """``seat`` turns its top card onto the pile; returns the card."""
    N = G.pile.shape[0]
    h = G.head[seat]
    card = G.hands[seat, h]
    G.head[seat] = 0 if h + 1 == N else h + 1
    G.ln[seat] -= 1
    G.pile[G.sc[S_PLEN]] = card
    G.sc[S_PLEN] += 1
    return card


def skip_plain(G, turn, owed, beggar_owed, limit, step, empty_end):
    """Ring buffers play every card one by one: nothing is skipped."""
    return turn, owed


def pile_under(G, taker, shuffle, stream):
    """The pile goes under ``taker``'s hand in the order played (shuffled first if ``shuffle``)."""
    N = G.pile.shape[0]
    plen = G.sc[S_PLEN]
    if shuffle:
        scatter_inplace(stream, G.pile, plen)
    pos = G.head[taker] + G.ln[taker]
    for k in range(plen):
        if pos >= N:
            pos -= N
        G.hands[taker, pos] = G.pile[k]
        pos += 1
    G.ln[taker] += plen


def save_state(G, snap):
    """Write the boundary state (leader, in-game flags, lengths, every hand in order) to ``snap``."""
    n = G.ln.shape[0]
    N = G.pile.shape[0]
    snap[0] = G.sc[S_LEADER]
    j = 1
    for s in range(n):
        snap[j] = G.in_game[s]
        snap[j + 1] = G.ln[s]
        j += 2
    for s in range(n):
        pos = G.head[s]
        for k in range(G.ln[s]):
            snap[j] = G.hands[s, pos]
            j += 1
            pos += 1
            if pos == N:
                pos = 0


def same_state(G, snap):
    """True if ``G``'s boundary state is the one `save_state` wrote to ``snap`` (in full)."""
    n = G.ln.shape[0]
    N = G.pile.shape[0]
    if snap[0] != G.sc[S_LEADER]:
        return False
    j = 1
    for s in range(n):
        if snap[j] != G.in_game[s] or snap[j + 1] != G.ln[s]:
            return False
        j += 2
    for s in range(n):
        pos = G.head[s]
        for k in range(G.ln[s]):
            if snap[j] != G.hands[s, pos]:
                return False
            j += 1
            pos += 1
            if pos == N:
                pos = 0
    return True


def same_games(G, B):
    """True if two games stand at the same boundary state (leader, in-game flags, every hand)."""
    N = G.pile.shape[0]
    if G.sc[S_LEADER] != B.sc[S_LEADER]:
        return False
    for s in range(G.ln.shape[0]):
        if G.in_game[s] != B.in_game[s] or G.ln[s] != B.ln[s]:
            return False
    for s in range(G.ln.shape[0]):
        x = G.head[s]
        y = B.head[s]
        for k in range(G.ln[s]):
            if G.hands[s, x] != B.hands[s, y]:
                return False
            x += 1
            y += 1
            if x == N:
                x = 0
            if y == N:
                y = 0
    return True
