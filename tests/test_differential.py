"""The numba kernels against the reference engine, game for game, on every figure.

Each case plays random games ``0 .. n-1`` of one table through `fast.play_games` (both kernels
where the bit-plane one applies) and replays every game with ``reference.play_hands`` on
``deals.random_deal(seed, g, rules)``. Small custom decks make loops, cut-offs landing near the
first repeated state, and players going out common - exactly the cases that need checking.
"""

from __future__ import annotations

import numpy as np
import pytest

from beggarstats.engine.deals import random_deal
from beggarstats.game.decks import Deck
from beggarstats.engine import hands_bits
from beggarstats.engine.fast import OUTCOME_CODES, play_games
from beggarstats.engine.reference import play_hands
from beggarstats.game.rules import Rules

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

JACKS_ONLY = Deck.from_counts((8, 4, 0, 0, 0))    # ~8% of games loop
LOOPY = Deck.from_counts((5, 2, 1, 0, 0))         # loops, and hands that run out
MIXED = Deck.from_counts((12, 2, 2, 2, 2))        # every penalty card, short games

# name -> (rules for p players, or None when the variant needs more players)
VARIANTS = {
    "standard": lambda p: Rules(players=p),
    "italian": lambda p: Rules(players=p, deck="italian"),
    "loops": lambda p: Rules(players=p, deck=JACKS_ONLY),
    "loops_cutoff_most_cards": lambda p: Rules(players=p, deck=JACKS_ONLY, max_cards=37, unfinished="most_cards"),
    "loops_cutoff_tight": lambda p: Rules(players=p, deck=LOOPY, max_cards=23),
    "shuffle_on_loop": lambda p: Rules(players=p, deck=JACKS_ONLY, shuffle_on_loop=True),
    "shuffle_on_loop_cutoff": lambda p: Rules(players=p, deck=LOOPY, shuffle_on_loop=True, max_cards=41),
    "shuffle_pile_cutoff": lambda p: Rules(players=p, deck=MIXED, shuffle_pile=True, max_cards=150,
                                           unfinished="most_cards"),
    "jokers2_super": lambda p: Rules(players=p, deck=MIXED, jokers=2),
    "joker_beggar": lambda p: Rules(players=p, deck=MIXED, jokers=1, joker_mode="beggar"),
    "ccw": lambda p: Rules(players=p, deck=MIXED, direction="ccw"),
    "passes_on": lambda p: None if p < 3 else Rules(players=p, deck=MIXED, exhausted_tribute="passes_on"),
    "end_empty": lambda p: Rules(players=p, deck=JACKS_ONLY, end="empty"),
    "end_empty_beggar": lambda p: Rules(players=p, deck=MIXED, jokers=1, joker_mode="beggar", end="empty",
                                        shuffle_pile=True, max_cards=200),
    "end_unable_jokers": lambda p: Rules(players=p, deck=MIXED, jokers=2, end="unable"),
    "end_unable": lambda p: Rules(players=p, deck=LOOPY, end="unable", exhausted_tribute="passes_on",
                                  direction="ccw"),
    "leader_next": lambda p: Rules(players=p, leader="next"),
    "leader_next_loops": lambda p: Rules(players=p, deck=JACKS_ONLY, leader="next", max_cards=300),
    "leader_next_mixed": lambda p: Rules(players=p, deck=MIXED, jokers=1, joker_mode="beggar", leader="next",
                                         exhausted_tribute="passes_on" if p > 2 else "claimant", end="empty"),
}
PLAYERS = (2, 3, 4, 5, 6)


def reference_arrays(rules, seed, n):
    """The reference engine's figures for games 0..n-1, in the kernels' encoding."""
    keys = ("cards", "tricks", "outcome", "winner", "looped", "loop_start_tricks", "loop_start_cards",
            "loop_tricks", "loop_cards")
    out = {k: np.zeros(n, dtype=np.int64) for k in keys}
    for k in ("place", "out_cards", "min_cards"):
        out[k] = np.zeros((n, rules.players), dtype=np.int64)
    for g in range(n):
        deal, stream = random_deal(seed, g, rules)
        r = play_hands(deal, rules, rng=stream)
        out["cards"][g] = r.cards
        out["tricks"][g] = r.tricks
        out["outcome"][g] = OUTCOME_CODES.index(r.outcome)
        out["winner"][g] = -1 if r.winner is None else r.winner
        out["looped"][g] = r.loop_tricks is not None
        out["loop_start_tricks"][g] = r.loop_start_tricks or 0
        out["loop_start_cards"][g] = r.loop_start_cards or 0
        out["loop_tricks"][g] = r.loop_tricks or 0
        out["loop_cards"][g] = r.loop_cards or 0
        out["place"][g] = [-1 if x is None else x for x in r.place]
        out["out_cards"][g] = [-1 if x is None else x for x in r.out_cards]
        out["min_cards"][g] = r.min_cards
    return out


def assert_same(rules, seed, got, want, label):
    for key, expected in want.items():
        actual = got[key].astype(np.int64)
        bad = np.flatnonzero((actual != expected).reshape(len(actual), -1).any(axis=1))
        if bad.size:
            g = int(bad[0])
            deal, _ = random_deal(seed, g, rules)
            from beggarstats.game.cards import format_deal
            raise AssertionError(
                f"[{label}] {rules.players}p {rules.name}: `{key}` differs in {bad.size} games; first "
                f"game {g} (deal {format_deal(deal)}): kernel {actual[g]}, reference {expected[g]}")


def check(rules, seed, n):
    want = reference_arrays(rules, seed, n)
    games = np.arange(n, dtype=np.int64)
    kernels = ["general"] + (["bits"] if hands_bits.supports(rules.n_cards, rules.players) else [])
    for kernel in kernels:
        got = play_games(rules, seed, games, per_seat=True, kernel=kernel)
        assert_same(rules, seed, got, want, kernel)
    return want


CASES = [(name, p) for name in VARIANTS for p in PLAYERS if VARIANTS[name](p) is not None]


@pytest.mark.slow  # the sweep; in the quick tier tests/test_simulate.py replays every row of seven tables
@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_kernels_match_reference(name, players):
    rules = VARIANTS[name](players)
    want = check(rules, seed=20240 + players, n=10_000)
    # The cases are chosen to exercise loops and cut-offs; make sure they do.
    if name in ("loops", "shuffle_on_loop", "end_empty"):
        assert want["looped"].sum() > 0
    if "cutoff" in name:
        assert (want["outcome"] == 2).sum() > 0


def test_cutoff_exactly_at_first_repeat():
    """A loop whose first repeated state R falls exactly on the cut-off card is a loop; one card
    less and it is a cut-off (RULES.md: the limit card's consequences are applied first)."""
    base = Rules(deck=JACKS_ONLY)
    res = play_games(base, 3, np.arange(2000))
    g = int(np.flatnonzero(res["outcome"] == 1)[0])
    r_cards = int(res["cards"][g])
    for limit in (r_cards - 1, r_cards, r_cards + 1):
        rules = base.replace(max_cards=limit)
        got = play_games(rules, 3, np.array([g]), per_seat=True)
        deal, stream = random_deal(3, g, rules)
        ref = play_hands(deal, rules, rng=stream)
        assert OUTCOME_CODES[got["outcome"][0]] == ref.outcome
        assert got["cards"][0] == ref.cards
        assert ref.outcome == ("cutoff" if limit < r_cards else "loop")


@pytest.mark.slow
@pytest.mark.parametrize("players", [7, 9, 12])
def test_many_players(players):
    """The engines allow up to 12 seats (rules.MAX_PLAYERS)."""
    check(Rules(players=players, exhausted_tribute="passes_on", direction="ccw"), seed=players, n=1000)
    check(Rules(players=players, deck=MIXED, jokers=2, end="unable"), seed=players, n=1000)


# The full decks without a cut-off: every game of both sweeps' seeds is a plain win (no loop, no
# cut-off: checked below), the path that 10,000 games per table already take in
# the sweep above and tests/test_anchor.py and test_simulate.py take again. At 0.6-3.3 ms a game in
# the reference engine they were half of this sweep's time; they get 10,000 more games of another
# seed. What 40,000 games are for - the rare loops, cut-offs at the repeat, players going out - is
# in the small decks, which keep them.
PLAIN_WINS = {"standard", "italian", "leader_next"}


@pytest.mark.slow
@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_kernels_match_reference_large(name, players):
    rules = VARIANTS[name](players)
    want = check(rules, seed=777 + players, n=10_000 if name in PLAIN_WINS else 40_000)
    if name in PLAIN_WINS:  # the premise of the smaller size: nothing here but plain wins
        assert rules.max_cards is None and not want["looped"].any() and (want["outcome"] == 0).all()


@pytest.mark.parametrize("players", PLAYERS)
def test_leader_next(players):
    """leader='next' against the reference on 400 games per table (quick tier: the option reaches
    every kernel; the sweep above holds the three leader_next variants to it on 10,000 games per
    table); with two players it is the 'taker' game, game for game, and with more it changes games."""
    for deck in ("standard", JACKS_ONLY):
        rules = Rules(players=players, deck=deck, leader="next")
        check(rules, seed=77 + players, n=400)
        games = np.arange(2_000, dtype=np.int64)
        nxt = play_games(rules, 77, games)["cards"]
        taker = play_games(rules.replace(leader="taker"), 77, games)["cards"]
        if players == 2:
            np.testing.assert_array_equal(nxt, taker)
        else:
            assert (nxt != taker).mean() > 0.5
