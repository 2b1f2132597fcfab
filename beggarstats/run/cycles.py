"""The loops of a census as cycles: every looping deal by rank, the distinct cycles it falls into."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..engine.cycles import canonical_cycle, cycle_states, half_swap, mirror_state, state_text
from ..engine.rank import deal_at
from ..game.cards import format_deal

__all__ = ["loop_cycles", "seats_in_view"]


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
        raise ValueError("The value for `summary` must be a census (summary.exact) for loop_cycles: the ids of a sample "
                         "are not deal ranks.")
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


def _in_view(state) -> tuple:
    """A trick-boundary state with the seats out of the game removed (the leader renumbered among the rest)."""
    leader, in_game, hands = state
    seats = [i for i, x in enumerate(in_game) if x]
    return seats.index(leader), tuple(in_game[i] for i in seats), tuple(hands[i] for i in seats)


def seats_in_view(summary, fewer) -> pd.DataFrame:
    """The distinct cycles of a census seen on the seats still in the game, against ``fewer``, a census
    of the same deck for as many players as are left: is each a cycle of that game?

    Seats out of the game hold no cards and never play again, so once players are out the rest play
    the game of that many players with the whole deck. Each cycle's states, with the seats out
    removed, are compared with the cycles of ``fewer`` (a cycle or its mirror image with the seats
    exchanged, `engine.cycles.mirror_state`: which seat of a pair leads is a matter of numbering).

    Returns
    -------
    DataFrame
        One row per distinct cycle of ``summary`` (`loop_cycles` order): ``cycle``, ``tricks``,
        ``deals``, ``seats_in`` (players in the game along the cycle), ``in_fewer`` (it is a cycle of
        ``fewer``'s game, seats out removed).
    """
    if not (summary.exact and fewer.exact):
        raise ValueError("The values for `summary` and `fewer` must be two censuses (summary.exact) for seats_in_view: "
                         "the ids of a sample are not deal ranks.")
    if fewer.rules != summary.rules.replace(players=fewer.rules.players):
        raise ValueError(f"The value for `fewer` must be a census of the deck and rules of `summary` with fewer "
                         f"players, but {fewer.rules} is not {summary.rules} with fewer players.")

    def forms(census):
        deals, table = loop_cycles(census)
        first = deals.drop_duplicates("cycle").set_index("cycle")
        for c in table.itertuples():
            row = first.loc[c.cycle]
            yield c, cycle_states(deal_at(c.first_rank, census.rules), census.rules, int(row.loop_start_tricks),
                                  int(row.loop_tricks))

    known = set()
    for _, states in forms(fewer):
        known |= {canonical_cycle(states), canonical_cycle([mirror_state(s) for s in states])}
    rows = []
    for c, states in forms(summary):
        seen = [_in_view(s) for s in states]
        rows.append({"cycle": c.cycle, "tricks": c.tricks, "deals": c.deals,
                     "seats_in": max(len(s[1]) for s in seen), "in_fewer": canonical_cycle(seen) in known})
    return pd.DataFrame(rows, columns=["cycle", "tricks", "deals", "seats_in", "in_fewer"]).astype(
        {"cycle": np.int64, "tricks": np.int64, "deals": np.int64, "seats_in": np.int64, "in_fewer": bool})
