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


def reference_arrays(rules, seed, games):
    """The reference engine's figures for the games ``games`` (ids), in the kernels' encoding."""
    keys = ("cards", "tricks", "outcome", "winner", "looped", "loop_start_tricks", "loop_start_cards",
            "loop_tricks", "loop_cards")
    n = len(games)
    out = {k: np.zeros(n, dtype=np.int64) for k in keys}
    for k in ("place", "out_cards", "min_cards"):
        out[k] = np.zeros((n, rules.players), dtype=np.int64)
    for g, game in enumerate(games):
        deal, stream = random_deal(seed, int(game), rules)
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


def assert_same(rules, seed, games, got, want, label):
    for key, expected in want.items():
        actual = got[key].astype(np.int64)
        bad = np.flatnonzero((actual != expected).reshape(len(actual), -1).any(axis=1))
        if bad.size:
            g = int(bad[0])
            deal, _ = random_deal(seed, int(games[g]), rules)
            from beggarstats.game.cards import format_deal
            raise AssertionError(
                f"[{label}] {rules.players}p {rules.name}: `{key}` differs in {bad.size} games; first "
                f"game {games[g]} of seed {seed} (deal {format_deal(deal)}): kernel {actual[g]}, "
                f"reference {expected[g]}")


def check(rules, seed, n, games=None):
    """Games ``0 .. n-1`` of the table seeded ``seed`` (or the ids ``games``) through the kernels and
    the reference engine."""
    games = np.arange(n, dtype=np.int64) if games is None else np.asarray(games, dtype=np.int64)
    want = reference_arrays(rules, seed, games)
    kernels = ["general"] + (["bits"] if hands_bits.supports(rules.n_cards, rules.players) else [])
    for kernel in kernels:
        got = play_games(rules, seed, games, per_seat=True, kernel=kernel)
        assert_same(rules, seed, games, got, want, kernel)
    return want


CASES = [(name, p) for name in VARIANTS for p in PLAYERS if VARIANTS[name](p) is not None]

# The full decks without a cut-off: every game is a plain win (no loop, no cut-off: checked below),
# the path tests/scripts/test_anchor.py and test_simulate.py take again, at 0.3-0.6 ms a game in the reference
# engine. What many games are for - the rare loops, cut-offs at the repeat, players going out - is
# in the small decks (0.04-0.12 ms a game), which get more of them.
PLAIN_WINS = {"standard", "italian", "leader_next"}
# Sized by what one run must find: a kernel that differs from the reference in a share q of a table's
# games shows in n of its games with probability 1 - (1 - q)^n, so a small deck's 6,000 find a
# difference in 1 game in 1,000 with probability 99.75% and a full deck's 2,000 one in 500 with 98.2%.
# Each run draws its games afresh (a table seed and ids anywhere in the id range, from `sample_rng`:
# the run's seed is printed at the end), so over runs the sweep reaches ever more deals, where the
# 50,000 fixed games a table it replaced (seeds 20240 + p and 777 + p, ids from 0) were the same
# every run and took about 500 CPU-seconds, two thirds of the full suite's budget (issue #53 item 7:
# 6 minutes on two cores).
SMALL_DECK_GAMES, FULL_DECK_GAMES = 6_000, 2_000


@pytest.mark.slow  # the sweep; in the quick tier tests/run/test_simulate.py replays every row of seven tables
@pytest.mark.parametrize("name,players", CASES, ids=[f"{n}-{p}p" for n, p in CASES])
def test_kernels_match_reference(name, players, sample_rng):
    rules = VARIANTS[name](players)
    n = FULL_DECK_GAMES if name in PLAIN_WINS else SMALL_DECK_GAMES
    seed = int(sample_rng.integers(2**32))
    want = check(rules, seed, n, games=np.sort(sample_rng.integers(0, 2**62, size=n)))
    # The cases are chosen to exercise loops and cut-offs; make sure they do (the rarest, a cut-off in
    # 0.27% of shuffle_pile_cutoff's two-player games: 16 expected in 6,000).
    if name in ("loops", "shuffle_on_loop", "end_empty"):
        assert want["looped"].sum() > 0
    if "cutoff" in name:
        assert (want["outcome"] == 2).sum() > 0
    if name in PLAIN_WINS:  # the premise of the smaller size: nothing here but plain wins
        assert rules.max_cards is None and not want["looped"].any() and (want["outcome"] == 0).all()


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
