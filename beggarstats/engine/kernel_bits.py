"""Bit-plane kernel (placeholder until the fast path lands)."""


def supports(n_cards, players):
    return False
