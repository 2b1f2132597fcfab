"""The loops of a census as cycles: every looping deal by rank, the distinct cycles it falls into."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.cycles import canonical_cycle, cycle_states, half_swap, state_text
from ..engine.rank import deal_at
from ..game.cards import format_deal

__all__ = ["loop_cycles"]


def loop_cycles(summary) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Every looping deal of ``summary`` (a census: its ids are ranks) and the distinct cycles.

    Returns
    -------
    deals : DataFrame
        One row per looping deal, by rank: ``rank``, ``deal``, ``loop_start_tricks``,
        ``loop_start_cards``, ``loop_tricks``, ``loop_cards``, ``cycle`` (the row of ``cycles``).
    cycles : DataFrame
        One row per distinct cycle (canonical form, `engine.cycles.canonical_cycle`), numbered in the
        order of the first rank reaching it: ``cycle``, ``tricks`` and ``cards`` (its period),
        ``deals`` (looping deals that reach it), ``first_rank``, ``half_swap`` (the seats exchanged
        after half a period), ``state`` (its smallest state, `engine.cycles.state_text`).
    """
    if not summary.exact:
        raise ValueError("loop_cycles needs a census (summary.exact): the ids of a sample are not deal ranks.")
    rules, loops = summary.rules, summary.loops
    keys, rows, cycles = {}, [], []
    for i in range(loops["game"].size):
        rank = int(loops["game"][i])
        deal = deal_at(rank, rules)
        states = cycle_states(deal, rules, int(loops["loop_start_tricks"][i]), int(loops["loop_tricks"][i]))
        form = canonical_cycle(states)
        if form not in keys:
            keys[form] = len(cycles)
            cycles.append({"cycle": len(cycles), "tricks": len(form), "cards": int(loops["loop_cards"][i]),
                           "deals": 0, "first_rank": rank, "half_swap": half_swap(form),
                           "state": state_text(form[0])})
        cycles[keys[form]]["deals"] += 1
        rows.append({"rank": rank, "deal": format_deal(deal),
                     **{c: int(loops[c][i]) for c in ("loop_start_tricks", "loop_start_cards", "loop_tricks",
                                                      "loop_cards")},
                     "cycle": keys[form]})
    columns = ["rank", "deal", "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards", "cycle"]
    deals = pd.DataFrame(rows, columns=columns).astype({c: np.int64 for c in columns if c != "deal"})
    table = pd.DataFrame(cycles, columns=["cycle", "tricks", "cards", "deals", "first_rank", "half_swap", "state"])
    return deals, table
