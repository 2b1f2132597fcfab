"""One trick forward and backward on full hands: the trick-boundary states a game passes through, and
the states one trick before a given one (pure Python; `beggarstats.run.search` searches with them).

A *state* is the hands at a trick boundary (a tuple of tuples of tributes, top card first) and the
seat that leads. Every state of a game is itself a deal, with uneven hands and any leader; a state
whose hand sizes are those of the round deal is a standard deal once its seats are turned so that
the leader sits at seat 0 (`as_deal`).

`predecessors` runs a trick backwards. The taker put the pile under their hand in the order it was
played, so the pile is the last ``k`` cards of the leader's hand (under ``leader='taker'`` the
leader of a state took the last pile). Given who led that trick, the pile alone decides who
played each of its cards; it is a trick if it ends exactly at its last card, taken by the leader.
Each player's cards go back on top of their hand. Every state found that way plays, by `step`, one
trick into the given one (tests/run/test_search.py checks this on thousands of states).

Only the rules for which the construction is exact are accepted (`check_backward_rules`): every
player still in and holding cards, ``leader='taker'``, no Beggar jokers, no shuffles, no cut-off -
a whitelist of every option's values, `game.rules.BACKWARD_VALUES`, which a new option must join.
"""

from __future__ import annotations

from ..game.rules import backward_refusals

__all__ = ["step", "main_path", "predecessors", "as_deal", "check_backward_rules", "loop_path", "loop_ancestors"]


def check_backward_rules(rules, instead: str = " Use strategy='random' instead.") -> None:
    """Refuse the rules under which a trick cannot be run backwards here, naming the option
    (``instead``: what to do then, appended to the message)."""
    why = backward_refusals(rules)  # the whitelist of every option, declared in game/rules.py
    if why:
        raise ValueError(f"The value for `rules` must be rules under which a trick runs backwards, but these do not: "
                         f"{'; '.join(why)}."
                         f"{instead}")


def _next(seat: int, n: int, step_: int) -> int:
    return (seat + step_) % n


def step(hands, leader: int, *, ccw: bool = False):
    """Play one trick from a state in which every player holds cards.

    Parameters
    ----------
    hands : tuple of tuple of int
        Each seat's hand, top card first (tributes 0..5).
    leader : int
        The seat that leads.
    ccw : bool
        Play counter-clockwise (``direction='ccw'``).

    Returns
    -------
    tuple or None
        ``(hands, leader, cards)``: the state after the trick (the taker leads) and the cards
        played in it; None if a player must play and has no card (the trick is not a plain one).
    """
    n = len(hands)
    d = -1 if ccw else 1
    hs = [list(h) for h in hands]
    pos = [0] * n
    pile = []
    turn, owed, claimant = leader, 0, -1
    while True:
        if pos[turn] >= len(hs[turn]):
            return None
        c = hs[turn][pos[turn]]
        pos[turn] += 1
        pile.append(c)
        if c > 0:
            claimant, owed, turn = turn, c, _next(turn, n, d)
        elif owed > 0:
            owed -= 1
            if owed == 0:
                out = [tuple(h[p:]) for h, p in zip(hs, pos)]
                out[claimant] = out[claimant] + tuple(pile)
                return tuple(out), claimant, len(pile)
        else:
            turn = _next(turn, n, d)


def main_path(hands, leader: int = 0, *, ccw: bool = False):
    """The trick-boundary states of a game while every player holds cards.

    Returns
    -------
    list of (hands, leader, cards)
        State ``k`` after ``k`` tricks and the cards played before it (state 0 is the deal). The
        list stops at the last state from which a trick is played with every player holding cards
        at its end (a game that never ends: through one turn of its cycle, `loop_path`).
    """
    return loop_path(hands, leader, ccw=ccw)[0]


def predecessors(hands, leader: int, *, ccw: bool = False, keep_taker: bool = False):
    """Every state one trick before ``(hands, leader)`` in which every player holds cards.

    Parameters
    ----------
    hands : tuple of tuple of int
        The state's hands (every player holding cards).
    leader : int
        Its leader: the taker of the trick before it.
    ccw : bool
        Counter-clockwise play.
    keep_taker : bool
        Only tricks after which the taker still holds a card of their own (``end='empty'``: a
        taker left without cards during the trick would end the game at once).

    Returns
    -------
    list of (hands, leader, cards)
        Each state that `step` plays into the given one, with the cards of that trick.
    """
    n = len(hands)
    d = -1 if ccw else 1
    taker = leader
    mine = hands[taker]
    out = []
    for k in range(2, len(mine) + 1 - (1 if keep_taker else 0)):
        pile = mine[len(mine) - k:]
        if pile[-1] != 0:  # a trick ends on a number card paying a tribute in full
            break
        for first in range(n):
            played = [[] for _ in range(n)]
            turn, owed, claimant, ok = first, 0, -1, False
            for i, c in enumerate(pile):
                played[turn].append(c)
                if c > 0:
                    claimant, owed, turn = turn, c, _next(turn, n, d)
                elif owed > 0:
                    owed -= 1
                    if owed == 0:
                        ok = i == k - 1 and claimant == taker
                        break
                else:
                    turn = _next(turn, n, d)
            if not ok:
                continue
            before = tuple(tuple(played[s]) + (mine[: len(mine) - k] if s == taker else hands[s]) for s in range(n))
            out.append((before, first, k))
    return out


def as_deal(hands, leader: int, sizes):
    """The deal a state is, seats turned so that the leader is seat 0; None unless its hand sizes
    are ``sizes`` (the round deal's) after turning."""
    n = len(hands)
    turned = tuple(hands[(leader + s) % n] for s in range(n))
    return turned if tuple(len(h) for h in turned) == tuple(sizes) else None


def loop_path(hands, leader: int = 0, *, ccw: bool = False):
    """The trick-boundary states of a game that never ends, through one turn of its cycle.

    Returns
    -------
    (list of (hands, leader, cards), int)
        The states as in `main_path`, each once, and the index of the first state of the cycle
        (the state after the last one is that state again); the index is -1 if a player's hand
        empties first (a loop among fewer players: the states before it, each once).
    """
    states = [(tuple(tuple(h) for h in hands), leader, 0)]
    seen = {states[0][:2]: 0}
    while True:
        h, ld, c = states[-1]
        nxt = step(h, ld, ccw=ccw)
        if nxt is None or min(len(x) for x in nxt[0]) == 0:
            return states, -1
        if nxt[:2] in seen:
            return states, seen[nxt[:2]]
        seen[nxt[:2]] = len(states)
        states.append((nxt[0], nxt[1], c + nxt[2]))


def loop_ancestors(hands, leader: int, sizes, *, nodes: int, ccw: bool = False, keep_taker: bool = False):
    """Every deal whose game runs into the never-ending game of ``(hands, leader)``.

    From each state of `loop_path`, depth first, the tricks are run back (`predecessors`), leaving
    out the states of the game itself: a state off the cycle has no ancestor on it (each state has
    one successor), so the search goes round no cycle and every tree is finite. Every state met
    whose hand sizes are ``sizes`` (`as_deal`) is a deal that never ends, and so is any state of the
    game itself that has them (after the first: the deal).

    Returns
    -------
    (list of (deal, boundary, depth, back), int, bool)
        The deals in the order met (each state once; two states may be the same deal with the
        seats turned), with the state of the game they run into, the tricks and cards back from
        it (0 and 0 for a state of the game itself); the states examined (each of the game's states
        counts one); True if ``nodes`` ran out before every tree was searched.
    """
    path, _ = loop_path(hands, leader, ccw=ccw)
    own = {(h, ld) for h, ld, _ in path}
    found, used = [], 0
    for b, (h, ld, _) in enumerate(path):
        if used >= nodes:
            return found, used, True
        used += 1
        deal = as_deal(h, ld, sizes) if b > 0 else None
        if deal is not None:
            found.append((deal, b, 0, 0))
        stack = [(p, pl, k, 1) for p, pl, k in reversed(predecessors(h, ld, ccw=ccw, keep_taker=keep_taker))
                 if (p, pl) not in own]
        while stack:
            if used >= nodes:
                return found, used, True
            p, pl, back, depth = stack.pop()
            used += 1
            deal = as_deal(p, pl, sizes)
            if deal is not None:
                found.append((deal, b, depth, back))
            stack.extend((q, ql, back + k, depth + 1)
                         for q, ql, k in reversed(predecessors(p, pl, ccw=ccw, keep_taker=keep_taker)))
    return found, used, False
