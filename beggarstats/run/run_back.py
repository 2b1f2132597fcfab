"""`run_back(deal)`: the deals whose games run into a given one, found by playing its tricks backwards.

Every trick-boundary state of a game is itself a deal, and the states one trick before it are
found by running the trick backwards (`engine.backward`, docs/search.md). A standard deal met that
way plays into the given game: it lasts the cards played back to it plus what the given game had
left, and if the given game never ends, neither does it.

* A deal that ends: the longest standard deal in the ancestor trees of all its states (the
  compiled search of `search_long`'s backward strategy, `engine.backward_kernel`), if one is
  longer than the deal itself.
* A deal that never ends: every standard deal in the ancestor trees of the states of its game
  (through one turn of its cycle; `engine.backward.loop_ancestors`): each never ends.

Every deal returned is replayed by the reference engine (`play`) and reported as it plays.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pandas as pd

from ..engine.backward import check_backward_rules, loop_ancestors, main_path
from ..engine.backward_kernel import extend_deal_hands
from ..engine.rank import hand_sizes
from ..game.cards import format_deal, parse_deal
from ..game.checks import MAX_NODES, whole
from ..game.rules import check_rules
from .play import check_deal, hands_from_values, play, rules_for_deal

if TYPE_CHECKING:
    from ..game.hints import DealLike, RulesLike

__all__ = ["run_back", "COLUMNS"]

COLUMNS = ("deal", "players", "rules", "outcome", "winner", "cards", "tricks", "loop_start_cards", "loop_cards",
           "boundary", "tricks_back", "cards_back", "how")


def run_back(deal: DealLike, rules: RulesLike = None, *, nodes: int = 1_000_000) -> pd.DataFrame:
    """The standard deals whose games run into the game of ``deal``.

    Parameters
    ----------
    deal : str or sequence of hands
        As for `play` (seat 0 leads); any split of the deck, the round deal's or not.
    rules : Rules or dict, optional
        Default the standard game; ``players`` is taken from the deal. The rules must allow a
        trick to be run backwards: deterministic play, no cut-off, no Beggar jokers, and
        ``leader='taker'`` with 3 or more players.
    nodes : int
        States examined backwards at most (the default is more than the whole ancestor tree of
        every long two-player game measured: docs/search.md); ``attrs['stopped']`` says if it ran
        out before every tree was searched.

    Returns
    -------
    pandas.DataFrame
        If the deal ends: one row, the longest standard deal found that lasts longer, or none. If
        it never ends: every standard deal found (each never ends), in the order met. Columns
        ``deal``, ``players``, ``rules``, ``outcome``, ``winner`` (nullable), ``cards``, ``tricks``,
        ``loop_start_cards``, ``loop_cards`` (nullable) as `play` gives them; ``boundary`` (the
        trick boundary of the given game it runs into), ``tricks_back`` and ``cards_back`` (played
        back from there), ``how`` (the same in words). ``attrs``: the given deal's ``outcome``,
        ``cards``, ``loop_cards``; ``states`` examined, ``nodes``, ``stopped`` (True if ``nodes``
        ran out).
    """
    rules = check_rules(rules)
    hands = parse_deal(deal) if isinstance(deal, str) else hands_from_values(deal)
    rules = rules_for_deal(hands, rules)
    check_backward_rules(rules, instead="")
    check_deal(hands, rules)
    nodes = whole("nodes", nodes, 1, MAX_NODES)
    if min(len(h) for h in hands) == 0:
        raise ValueError("The value for `deal` must give every player a card: a game run backwards starts from a "
                         "state in which every player holds cards.")
    given = play(hands, rules)
    sizes, ccw, keep = hand_sizes(rules), rules.direction == "ccw", rules.end == "empty"
    if given.outcome == "loop":
        found, states, stopped = loop_ancestors(hands, 0, sizes, nodes=nodes, ccw=ccw, keep_taker=keep)
    else:
        got = extend_deal_hands(hands, given.cards, sizes, nodes, ccw=ccw, keep_taker=keep)
        found = [] if got["deal"] is None else [(got["deal"], got["boundary"], got["depth"], got["back"])]
        states, stopped = got["states"], got["states"] >= nodes or got["overflow"]
    rows, seen = [], set()
    for hands_found, boundary, depth, back in found:
        text = format_deal(hands_found)
        if text in seen:
            continue
        seen.add(text)
        r = play(text, rules)
        if given.outcome == "loop":
            wrong = r.outcome != "loop" or r.loop_cards != given.loop_cards  # the same cycle
        else:
            at = main_path(hands, 0, ccw=ccw)[boundary][2]  # cards played before that boundary
            wrong = r.outcome != "win" or r.cards != given.cards - at + back
        if wrong:
            raise RuntimeError(f"deal {text} plays {r.outcome} after {r.cards} cards, not what running back from "
                               f"{format_deal(hands)} promised: a bug, please report it")
        how = (f"a state of the game itself (trick boundary {boundary})" if depth == 0 else
               f"{depth} trick{'' if depth == 1 else 's'} ({back} cards) back from trick boundary {boundary}")
        rows.append({"deal": text, "players": rules.players, "rules": rules.name, "outcome": r.outcome,
                     "winner": r.winner, "cards": r.cards, "tricks": r.tricks, "loop_start_cards": r.loop_start_cards,
                     "loop_cards": r.loop_cards, "boundary": boundary, "tricks_back": depth, "cards_back": back,
                     "how": how})
    df = pd.DataFrame(rows, columns=list(COLUMNS))
    for c in ("winner", "loop_start_cards", "loop_cards"):
        df[c] = df[c].astype("Int64")
    df.attrs.update({"deal": format_deal(hands), "outcome": given.outcome, "cards": given.cards,
                     "loop_cards": given.loop_cards, "states": int(states), "nodes": nodes, "stopped": bool(stopped)})
    return df
