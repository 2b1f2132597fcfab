"""Conformance: every rule of docs/RULES.md on a deal traced by hand, played by every engine.

Each case below is a small deal whose game was worked out by hand, card by card, in the comment
above it (cards are numbered in the order they are played; ``s0`` is seat 0; hands are written
top card first, ``-`` a number card). The expected figures are the hand trace, not engine output.
Every case is played by every engine entry point that can play its rules:

* ``reference``  - ``engine.reference.play_hands`` (the readable rules);
* ``api``        - ``beggarstats.run.play`` on the deal as text;
* ``general``    - ``play_deals(kernel="general")`` (tests/_kernel_deals.py) (ring-buffer kernel, exact driver);
* ``bits``       - ``play_deals(kernel="bits")`` (bit-plane kernel, exact driver: the
  fallback that replays whatever a fast pass hands back);
* ``fast-two``   - ``kernel_two.play_two`` (2 players), the fast pass of random 2-player tables;
* ``fast-multi`` - ``kernel_multi.play_multi`` (3+ players), the fast pass of the other tables.

The fast passes only play random deals inside `play_games`, so they are fed the deal here
directly as bit-planes, exactly as `batch._two_pass` / `_multi_pass` feed them. When a
fast pass gives up (``FALLBACK``: a loop, the cut-off, an empty hand at the deal) the batch
engine replays the game with the ``bits`` driver, so that is the figure it reports; the suite
also checks that a fast pass gives up exactly when it cannot prove a plain win.

The second half holds the two published games (docs/RULES.md, section 10) to golden traces in
tests/data/golden/ (written by tests/data/golden/regenerate.py): every trick's leader, taker,
cards and hand sizes from the reference engine, and the kernels' final figures from the same rows.
"""

from __future__ import annotations

import csv
import dataclasses
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.game.cards import composition, parse_deal
from beggarstats.engine.constants import DONE, FALLBACK, OUTCOME_CODES
from beggarstats.engine.options import options_for
from beggarstats.engine.kernel_multi import new_table, play_multi
from beggarstats.engine.kernel_two import play_two
from beggarstats.engine.reference import play_hands
from beggarstats.run.play import rules_for_deal
from beggarstats.engine.rng import GameStream, next_u64, stream_state
from beggarstats.game.rules import Rules, rule_options
from _kernel_deals import play_deals
from _rule_table import code_names, rule_rows
from _scripts import load_script

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

GOLDEN = Path(__file__).parents[1] / "data" / "golden"
MASK32 = 0xFFFFFFFF


# -------------------------------------------------------------------------------------------------
# the figures every engine reports, in one comparable form
# -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Figures:
    outcome: str
    winner: int | None
    cards: int
    tricks: int
    loop: tuple                      # (start tricks, start cards, tricks, cards), or four Nones
    place: tuple
    out_cards: tuple
    min_cards: tuple
    path: str = field(default="exact", compare=False)  # which tier of the engine produced them


def _none(v):
    return None if v < 0 else int(v)


def _from_result(r) -> Figures:
    loop = (r.loop_start_tricks, r.loop_start_cards, r.loop_tricks, r.loop_cards)
    return Figures(r.outcome, r.winner, r.cards, r.tricks, loop, r.place, r.out_cards, r.min_cards)


def _from_arrays(r) -> Figures:
    looped = bool(r["looped"][0])
    loop = tuple(int(r[k][0]) if looped else None
                 for k in ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"))
    return Figures(OUTCOME_CODES[int(r["outcome"][0])], _none(int(r["winner"][0])), int(r["cards"][0]),
                   int(r["tricks"][0]), loop, tuple(_none(int(v)) for v in r["place"][0]),
                   tuple(_none(int(v)) for v in r["out_cards"][0]), tuple(int(v) for v in r["min_cards"][0]))


def _planes(hand):
    """A hand as the kernels' three bit-planes of its tributes (bit i: the i-th card from the top)."""
    planes = [0, 0, 0]
    for i, card in enumerate(hand):
        for b in range(3):
            if (card >> b) & 1:
                planes[b] |= 1 << i
    return [np.uint64(p) for p in planes]


# -------------------------------------------------------------------------------------------------
# the engine entry points
# -------------------------------------------------------------------------------------------------
def play_reference(deal, rules, seed):
    return _from_result(play_hands(parse_deal(deal), rules, rng=GameStream(seed, 0)))


def play_api(deal, rules, seed):
    return _from_result(bs.play(deal, rules, any_deck=True, rng=GameStream(seed, 0)))


def play_kernel(kernel):
    def run(deal, rules, seed):
        return _from_arrays(play_deals(rules, [parse_deal(deal)], seed=seed, game=0, kernel=kernel))
    return run


def play_fast_two(deal, rules, seed):
    """`kernel_two.play_two` on the deal, with the options record of ``rules`` (`options.options_for`)."""
    a, b = parse_deal(deal)
    st, cards, tricks, w, m0, m1, oc = play_two((*_planes(a), len(a)), (*_planes(b), len(b)), options_for(rules),
                                                stream_state(seed, 0).copy())
    if st == FALLBACK:
        return None
    assert st == DONE
    place = (1, 2) if w == 0 else (2, 1)
    out_cards = (None, int(oc)) if w == 0 else (int(oc), None)
    return Figures("win", int(w), int(cards), int(tricks), (None,) * 4, place, out_cards,
                   (int(m0), int(m1)), path="fast")


def play_fast_multi(deal, rules, seed):
    """`kernel_multi.play_multi` on the deal, with the options record of ``rules``."""
    hands = parse_deal(deal)
    n = len(hands)
    planes = [_planes(h) for h in hands]
    t = new_table(n)
    for s, h in enumerate(hands):
        t.p0[s], t.p1[s], t.p2[s] = planes[s]
        t.ln[s] = len(h)
    st, cards, tricks, w = play_multi(t, options_for(rules), stream_state(seed, 0).copy())
    if st == FALLBACK:
        return None
    assert st == DONE
    return Figures("win", int(w), int(cards), int(tricks), (None,) * 4,
                   tuple(_none(int(v)) for v in t.place), tuple(_none(int(v)) for v in t.out_cards),
                   tuple(int(v) for v in t.min_cards), path="fast")


def every_engine(deal, rules, seed=0):
    """name -> Figures for every entry point that can play ``rules``. A fast pass that gives up is
    followed, as in the batch engine, by the exact replay of the bit-plane kernel."""
    out = {"reference": play_reference(deal, rules, seed), "api": play_api(deal, rules, seed),
           "general": play_kernel("general")(deal, rules, seed)}
    if rules.n_cards <= 64:
        out["bits"] = play_kernel("bits")(deal, rules, seed)
        fast = play_fast_two if rules.players == 2 else play_fast_multi
        name = "fast-two" if rules.players == 2 else "fast-multi"
        out[name] = fast(deal, rules, seed) or Figures(**{**out["bits"].__dict__, "path": "fallback"})
    return out


# -------------------------------------------------------------------------------------------------
# the hand-traced deals, one (or a few) per rule
# -------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Case:
    rule: str           # the rule of docs/RULES.md this deal shows
    deal: str
    options: dict       # Rules options (the deck is the deal's own)
    outcome: str
    winner: int | None
    cards: int
    tricks: int
    takers: tuple | None = None      # who took each pile, from the reference trace
    loop: tuple = (None,) * 4
    place: tuple | None = None
    seed: int = 0                    # the random stream (shuffle variants): GameStream(seed, 0)


CASES = {
    # §3.1-3.5, who leads: number cards pass the turn, a paid tribute takes the pile, the taker
    # leads the next trick. s0 -----, s1 -Q--.
    #   trick 1 (s0 leads): s0 - (1), s1 - (2), s0 - (3), s1 Q (4): s0 owes 2: - (5), - (6), paid;
    #     s1 takes ---Q-- -> s1 has -- + ---Q-- = 8 cards, s0 has 1.
    #   trick 2 (s1 leads, the taker): s1 - (7), s0 - (8, its last), s1 - (9); s0 must play and
    #     cannot: out, s1 wins and takes the pile of 3 (trick 2).
    "tribute-taker-leads": Case("3, taking the pile, who leads", "-----/-Q--", {},
                                "win", 1, 9, 2, takers=(1, 1), place=(2, 1)),
    # §3.4 a penalty card while paying: K -> A -> J. s0 K---J-, s1 -A--.
    #   s0 K (1); s1 owes 3: - (2), A (3): s0 owes 4: - (4), - (5), - (6), J (7): s1 owes 1: - (8);
    #   s0 takes K-A---J- (trick 1): s0 holds -K-A---J- (9 cards), s1 - (1 card).
    #   s0 - (9), s1 - (10, its last), s0 K (11); s1 owes 3, cannot: out; s0 wins, takes --K (trick 2).
    "penalty-chain": Case("3.4, counter-penalty chain", "K---J-/-A--", {},
                          "win", 0, 11, 2, takers=(0, 0), place=(1, 2)),
    # §4 and end: s0 K, s1 ---.
    #   trick:  s0 K (1), s1 - - - (2-4): s0 takes (trick 1); s1 is empty at the trick: out. 4 cards.
    #   unable: as trick, but s1 stays in until it must play: s0 K (5), s1 cannot pay: out;
    #           s0 takes [K] (trick 2). 5 cards.
    #   empty:  s0 K (1) is s0's last card: only s1 holds cards, the game ends; s1 wins and takes [K].
    "end-trick-2p": Case("4, end trick", "K/---", {"end": "trick"}, "win", 0, 4, 1, takers=(0,)),
    "end-unable-2p": Case("4, end unable", "K/---", {"end": "unable"}, "win", 0, 5, 2, takers=(0, 0)),
    "end-empty-2p": Case("4, end empty (winner changes)", "K/---", {"end": "empty"}, "win", 1, 1, 1,
                         takers=(1,), place=(2, 1)),
    # §4 end with 3 players, shared places. s0 J, s1 Q, s2 --.
    #   trick:  s0 J (1), s1 Q (2), s2 - - (3, 4): s1 takes JQ-- (trick 1); s0 and s2 are empty
    #           at the trick: out together, both 2nd; s1 wins.
    #   unable: s1 J (5): s2 owes 1, cannot: out (3rd); two left, the claimant s1 takes [J]
    #           (trick 2); s1 Q (6): s0 owes 2, cannot: out (2nd); s1 wins, takes [Q] (trick 3).
    #   empty:  s0 J (1) (holders s1, s2), s1 Q (2): only s2 holds cards: s0 and s1 out together
    #           (both 2nd), s2 wins and takes JQ (trick 1).
    "end-trick-3p": Case("4, end trick, out together", "J/Q/--", {"end": "trick"}, "win", 1, 4, 1,
                         takers=(1,), place=(2, 1, 2)),
    "end-unable-3p": Case("4, end unable", "J/Q/--", {"end": "unable"}, "win", 1, 6, 3,
                          takers=(1, 1, 1), place=(2, 1, 3)),
    "end-empty-3p": Case("4, end empty, out together", "J/Q/--", {"end": "empty"}, "win", 2, 2, 1,
                         takers=(2,), place=(2, 2, 1)),
    # §4 end empty: an empty-handed claimant still takes the pile. s0 K, s1 ---, s2 -.
    #   empty: s0 K (1, its last; s1 and s2 hold cards), s1 - - - (2-4): s0 takes K--- (trick 1);
    #          s0 K (5): s1 owes 3, cannot: out (3rd); the claimant s0 takes [K] (trick 2);
    #          s0 - (6), s2 - (7): only s0 holds cards: s2 out (2nd), s0 wins, takes -- (trick 3).
    #   trick: s0 takes K--- (trick 1), s1 empty: out (3rd); s0 K (5), s2 - (6), owes 2, cannot:
    #          out; s0 wins, takes K- (trick 2).
    "end-empty-claimant": Case("4, end empty, empty-handed claimant", "K/---/-", {"end": "empty"},
                               "win", 0, 7, 3, takers=(0, 0, 0), place=(1, 3, 2)),
    "end-trick-claimant": Case("4, end trick", "K/---/-", {"end": "trick"},
                               "win", 0, 6, 2, takers=(0, 0), place=(1, 3, 2)),
    # §4 exhausted tribute, 3 players. s0 K, s1 -, s2 ----.
    #   claimant:  s0 K (1), s1 - (2), cannot pay more: out (3rd); the claimant s0 takes K- (trick 1);
    #              s0 K (3), s2 - - - (4-6): s0 takes (trick 2), s0 -K---, s2 -; s0 - (7), s2 - (8),
    #              s0 K (9): s2 cannot pay: out; s0 wins, takes --K (trick 3).
    #   passes_on: s0 K (1), s1 - (2), out (3rd); s2 owes the other 2: - - (3, 4): s0 takes K---
    #              (trick 1); s0 K (5), s2 - - (6, 7), cannot pay the third: out; s0 takes K-- (trick 2).
    "exhausted-claimant": Case("4, exhausted_tribute claimant", "K/-/----", {"exhausted_tribute": "claimant"},
                               "win", 0, 9, 3, takers=(0, 0, 0), place=(1, 3, 2)),
    "exhausted-passes-on": Case("4, exhausted_tribute passes_on", "K/-/----", {"exhausted_tribute": "passes_on"},
                                "win", 0, 7, 2, takers=(0, 0), place=(1, 3, 2)),
    # §2 direction, 3 players. s0 J-, s1 -, s2 Q--.
    #   cw (0, 1, 2): s0 J (1), s1 - (2): s0 takes J- (trick 1); s1 empty: out (3rd).
    #       s0 - (3), s2 Q (4), s0 J (5), s2 - (6): s0 takes -QJ- (trick 2): s0 has 5, s2 has 1.
    #       s0 - (7), s2 - (8), s0 - (9): s2 cannot play: out; s0 wins, takes --- (trick 3).
    #   ccw (0, 2, 1): s0 J (1), s2 Q (2), s1 - (3), owes 1 more, cannot: out (3rd); the claimant
    #       s2 takes JQ- (trick 1). s2 - (4), s0 - (5, its last), s2 - (6): s0 cannot play: out;
    #       s2 wins, takes --- (trick 2).
    "direction-cw": Case("2, direction cw", "J-/-/Q--", {"direction": "cw"}, "win", 0, 9, 3,
                         takers=(0, 0, 0), place=(1, 3, 2)),
    "direction-ccw": Case("2, direction ccw", "J-/-/Q--", {"direction": "ccw"}, "win", 2, 6, 2,
                          takers=(2, 2), place=(2, 3, 1)),
    # §3 jokers. s0 J--A--, s1 X-----.
    #   super:  s0 J (1), s1 X (2): s0 owes 5: - - (3, 4), A (5): s1 owes 4: - - - - (6-9): s0 takes
    #           nine cards (trick 1), s0 has 11, s1 has 1. s0 - (10), s1 - (11), s0 - (12): s1 cannot
    #           play: out; s0 wins, takes --- (trick 2).
    #   beggar: the X paid to a Jack starts its own tribute of 5, and the A paid to it is plain:
    #           s0 J (1), s1 X (2), s0 - - A - - (3-7): s1 takes (trick 1); s0 is empty: out.
    "joker-super": Case("3, joker super", "J--A--/X-----", {"joker_mode": "super"}, "win", 0, 12, 2,
                        takers=(0, 0)),
    "joker-beggar": Case("3, joker beggar (paid to a Jack, penalty paid to it is plain)", "J--A--/X-----",
                         {"joker_mode": "beggar"}, "win", 1, 7, 1, takers=(1,)),
    # §3 two jokers. s0 X--, s1 X----.
    #   super:  s0 X (1), s1 X (2): s0 owes 5: - - (3, 4), cannot pay more: out; s1 takes XX-- and wins.
    #   beggar: s0 X (1): s1 pays 5 cards, its X plain: X - - - - (2-6): s0 takes (trick 1);
    #           s1 is empty: out.
    "two-jokers-super": Case("3, two jokers, super", "X--/X----", {"joker_mode": "super"}, "win", 1, 4, 1,
                             takers=(1,)),
    "two-jokers-beggar": Case("3, two jokers, both Beggars", "X--/X----", {"joker_mode": "beggar"},
                              "win", 0, 6, 1, takers=(0,)),
    # §5 loops. s0 J--, s1 -J-.
    #   s0 J (1), s1 - (2): s0 takes J- (trick 1). Boundary 1: s0 leads, s0 --J-, s1 J-.
    #   s0 - (3), s1 J (4), s0 - (5): s1 takes -J- (trick 2): s1 leads, s1 --J-, s0 J-.
    #   s1 - (6), s0 J (7), s1 - (8): s0 takes -J- (trick 3): boundary 3 = boundary 1.
    #   loop: mu = 1 trick (2 cards), a cycle of 2 tricks (6 cards); 8 cards, 3 tricks.
    "loop": Case("5, loops", "J--/-J-", {}, "loop", None, 8, 3, takers=(0, 1, 0), loop=(1, 2, 2, 6),
                 place=(None, None)),
    # §5 unfinished most_cards: at the repeat s0 holds 4 cards, s1 2: s0 wins.
    "loop-most-cards": Case("5, unfinished most_cards", "J--/-J-", {"unfinished": "most_cards"},
                            "loop", 0, 8, 3, loop=(1, 2, 2, 6), place=(1, None)),
    # §5 cut-off on the loop deal: after 7 cards (s0's J, mid-trick) s0 holds - (1), s1 -J- (3).
    "loop-cut-off-most-cards": Case("5, cut-off before the repeat, most_cards", "J--/-J-",
                                    {"max_cards": 7, "unfinished": "most_cards"},
                                    "cutoff", 1, 7, 2, place=(None, 1)),
    # §5 a loop found at the trick boundary of the max_cards-th card is a loop, not a cut-off.
    "loop-at-cut-off": Case("5, loop found at the limit card", "J--/-J-", {"max_cards": 8},
                            "loop", None, 8, 3, loop=(1, 2, 2, 6)),
    # §5 cut-off on the first deal ("-----/-Q--", traced above):
    #   max_cards 5: s0's first payment to the Q is card 5; s0 and s1 hold 2 each: a tie, no winner.
    #   max_cards 6: card 6 completes the tribute, s1 takes (trick 1): s0 holds 1, s1 8.
    #   max_cards 9: s1's - (9) leaves s0 unable to play, but only at its next turn: a cut-off.
    "cutoff-tie": Case("5, cut-off, most_cards tie", "-----/-Q--", {"max_cards": 5, "unfinished": "most_cards"},
                       "cutoff", None, 5, 0, place=(None, None)),
    "cutoff-after-trick": Case("5, cut-off after a trick", "-----/-Q--", {"max_cards": 6, "unfinished": "most_cards"},
                               "cutoff", 1, 6, 1, takers=(1,), place=(None, 1)),
    "cutoff-none": Case("5, cut-off, unfinished none", "-----/-Q--", {"max_cards": 6}, "cutoff", None, 6, 1),
    #   max_cards 1 (the least): s0's - (1) is the last card played; s0 and s1 hold 4 each, no winner.
    "cutoff-first-card": Case("5, cut-off at the first card", "-----/-Q--", {"max_cards": 1}, "cutoff", None, 1, 0),
    "cutoff-before-out": Case("5, cut-off before a player is out", "-----/-Q--", {"max_cards": 9},
                              "cutoff", None, 9, 1),
    # §5 a win decided by the consequences of the limit card stands ("K/---" under trick: card 4
    # completes the tribute, s1 is empty at the trick and out); one card earlier it is a cut-off
    # (s0 holds 0, s1 1: most_cards names s1).
    "win-on-limit-card": Case("5, win on the limit card", "K/---", {"max_cards": 4}, "win", 0, 4, 1),
    "cutoff-most-cards": Case("5, cut-off, most_cards", "K/---", {"max_cards": 3, "unfinished": "most_cards"},
                              "cutoff", 1, 3, 0, place=(None, 1)),
    # §1, §4 an empty hand at the deal. s0 --J, s1 (none).
    #   trick/unable: s0 - (1); s1 must play and cannot: out; s0 wins, takes [-] (trick 1).
    #   empty: only s0 holds cards at the start: s0 wins before any card is played.
    "empty-hand-trick": Case("1, 4, an empty hand at the deal", "--J/", {"end": "trick"}, "win", 0, 1, 1,
                             takers=(0,), place=(1, 2)),
    "empty-hand-empty": Case("1, 4, end empty at the start", "--J/", {"end": "empty"}, "win", 0, 0, 0,
                             takers=(), place=(1, 2)),
    # 4 players. s0 J, s1 -, s2 Q, s3 --.
    #   s0 J (1), s1 - (2): s0 takes J- (trick 1); s1 empty: out (4th).
    #   s0 J (3), s2 Q (4), s3 - - (5, 6): s2 takes JQ-- (trick 2); s3 empty: out (3rd).
    #   s2 J (7), s0 - (8): s2 takes J- (trick 3); s0 empty: out (2nd); s2 wins.
    "four-players": Case("2, 4 players", "J/-/Q/--", {}, "win", 2, 8, 3, takers=(0, 2, 2), place=(2, 4, 1, 3)),
    # 5 players, uneven hands. s0 -, s1 -, s2 -, s3 -, s4 K.
    #   s0..s3 - (1-4), s4 K (5): s0 owes 3, cannot: out (5th).
    #   claimant:  s4 takes ----K (trick 1); s1, s2, s3 are empty at the trick: out together (2nd).
    #   passes_on: s1, s2, s3 owe it in turn and cannot: out one by one (4th, 3rd, 2nd); s4 is
    #              left, wins and takes the pile (trick 1).
    "five-claimant": Case("2, 4, 5 players, claimant", "-/-/-/-/K", {}, "win", 4, 5, 1, takers=(4,),
                          place=(5, 2, 2, 2, 1)),
    "five-passes-on": Case("2, 4, 5 players, passes_on", "-/-/-/-/K", {"exhausted_tribute": "passes_on"},
                           "win", 4, 5, 1, takers=(4,), place=(5, 4, 3, 2, 1)),
    # §6 shuffle_pile, with the stream GameStream(seed, 0). s0 J, s1 -Q.
    #   s0 J (1), s1 - (2): s0 takes J- shuffled: the J goes to slot floor(u * 2 / 2**32) of 2, u
    #   the low 32 bits of the stream's first output (see test_the_draws_the_shuffle_traces_use).
    #   seed 1, slot 0: s0 holds J-. s0 J (3), s1 Q (4), s0 - (5), cannot pay the second card:
    #     out; s1 wins, takes JQ- (trick 2).
    #   seed 0, slot 1: s0 holds -J. s0 - (3), s1 Q (4), s0 J (5): s1 owes 1, cannot: out;
    #     s0 wins, takes -QJ (trick 2).
    "shuffle-pile-slot-0": Case("6, shuffle_pile", "J/-Q", {"shuffle_pile": True}, "win", 1, 5, 2,
                                takers=(0, 1), seed=1),
    "shuffle-pile-slot-1": Case("6, shuffle_pile", "J/-Q", {"shuffle_pile": True}, "win", 0, 5, 2,
                                takers=(0, 0), seed=0),
    # §6 shuffle_on_loop on the loop deal "J--/-J-" (traced above): no draw until the repeat at
    #   trick 3 (8 cards); the loop figures are recorded. Then s0 - (9), s1 J (10), s0 - (11):
    #   s1 takes -J- shuffled, the J to slot floor(u * 3 / 2**32) of 3 = 0 with seed 1: s1 holds
    #   -J--, s0 J-. s1 - (12), s0 J (13), s1 J (14), s0 - (15, its last): s1 takes (trick 5);
    #   s0 is empty at the trick: out. s1 wins.
    "shuffle-on-loop": Case("6, shuffle_on_loop", "J--/-J-", {"shuffle_on_loop": True}, "win", 1, 15, 5,
                            takers=(0, 1, 0, 1, 1), loop=(1, 2, 2, 6), seed=1),
    # 3 players, the multi-player engines on the joker, shuffle and cut-off rules.
    # jokers: s0 X, s1 -J---, s2 --.
    #   beggar: s0 X (1): s1 pays all 5, its J plain: - J - - - (2-6): s0 takes (trick 1); s1 is
    #           empty: out (3rd). s0 X (7): s2 - - (8, 9), cannot pay more: out; s0 wins (trick 2).
    #   super:  s0 X (1), s1 - J (2, 3), s2 - (4): s1 takes X-J- (trick 1); s0 empty: out (3rd).
    #           s1 - (5), s2 - (6, its last), s1 - (7): s2 cannot play: out; s1 wins (trick 2).
    "joker-beggar-3p": Case("3, joker beggar, 3 players", "X/-J---/--", {"joker_mode": "beggar"},
                            "win", 0, 9, 2, takers=(0, 0), place=(1, 3, 2)),
    "joker-super-3p": Case("3, joker super, 3 players", "X/-J---/--", {"joker_mode": "super"},
                           "win", 1, 7, 2, takers=(1, 1), place=(3, 1, 2)),
    # shuffle_pile: s0 J, s1 -, s2 Q. s0 J (1), s1 - (2): s0 takes J- shuffled (the draws of the
    #   2-player shuffle case); s1 empty: out (3rd).
    #   seed 1, slot 0: s0 J- : s0 J (3), s2 Q (4), s0 - (5), cannot pay more: out; s2 wins.
    #   seed 0, slot 1: s0 -J : s0 - (3), s2 Q (4), s0 J (5): s2 cannot pay: out; s0 wins.
    "shuffle-pile-3p-slot-0": Case("6, shuffle_pile, 3 players", "J/-/Q", {"shuffle_pile": True},
                                   "win", 2, 5, 2, takers=(0, 2), place=(2, 3, 1), seed=1),
    "shuffle-pile-3p-slot-1": Case("6, shuffle_pile, 3 players", "J/-/Q", {"shuffle_pile": True},
                                   "win", 0, 5, 2, takers=(0, 0), place=(1, 3, 2), seed=0),
    # cut-off on "K/-/----" (claimant, traced above) at 5 cards: s0 K (1), s1 - (2), out (3rd),
    #   s0 takes K- (trick 1); s0 K (3), s2 - - (4, 5): cut off. s0 holds 1, s2 2: s2 wins by
    #   most_cards, s0 has no place.
    "cutoff-3p-most-cards": Case("5, cut-off, most_cards, 3 players", "K/-/----",
                                 {"max_cards": 5, "unfinished": "most_cards"}, "cutoff", 2, 5, 1,
                                 takers=(0,), place=(None, 3, 1)),
    # loop with 3 players: s0 J--, s1 -, s2 J-. s0 J (1), s1 - (2): s0 takes J- (trick 1); s1 is
    #   empty: out (3rd). Boundary 1: s0 leads, s0 --J-, s2 J-: from here the 2-player loop above
    #   (s2 takes -J- at 5 cards, s0 takes -J- at 8): boundary 3 = boundary 1, a loop with one
    #   seat out: mu = 1 trick (2 cards), cycle 2 tricks (6 cards).
    "loop-3p": Case("5, loops, 3 players", "J--/-/J-", {}, "loop", None, 8, 3, takers=(0, 2, 0),
                    loop=(1, 2, 2, 6), place=(None, 3, None)),
    # §3 who leads after a trick (`leader`), 3 players. s0 J-, s1 --, s2 Q-.
    #   s0 J (1), s1 - (2): paid, s0 takes J- (trick 1); the last payer is s1. s0 -J-, s1 -, s2 Q-.
    #   taker: s0 leads. s0 - (3), s1 - (4, its last), s2 Q (5): s0 owes 2: J (6): s1 owes 1,
    #          cannot: out (3rd); the claimant s0 takes --QJ (trick 2), s0 ---QJ, s2 -. s0 - (7),
    #          s2 - (8), s0 - (9); s2 cannot play: out (2nd); s0 wins, takes --- (trick 3).
    #   next:  s2 leads (after the last payer s1). s2 Q (3): s0 owes 2: - (4), J (5): s1 owes 1:
    #          - (6), paid; s0 takes Q-J- (trick 2); s1 is empty at the trick: out (3rd). The last
    #          payer was s1, so s2 leads: s2 - (7), s0 - (8); s2 cannot play: out (2nd); s0 wins,
    #          takes -- (trick 3).
    "leader-taker": Case("3, leader taker", "J-/--/Q-", {"leader": "taker"}, "win", 0, 9, 3,
                         takers=(0, 0, 0), place=(1, 3, 2)),
    "leader-next": Case("3, leader next", "J-/--/Q-", {"leader": "next"}, "win", 0, 8, 3,
                        takers=(0, 0, 0), place=(1, 3, 2)),
    # 6 players. s0 -, s1 -, s2 J, s3 -, s4 -, s5 -.
    #   s0 - (1), s1 - (2), s2 J (3), s3 - (4): s2 takes --J- (trick 1); s0, s1, s3 are empty at
    #   the trick: out together (4th). s2 - (5), s4 - (6), s5 - (7), s2 - (8); s4 must play and
    #   cannot: out (3rd); then s5: out (2nd); s2 wins, takes ---- (trick 2).
    "six-players": Case("2, 6 players", "-/-/J/-/-/-", {}, "win", 2, 8, 2, takers=(2, 2),
                        place=(4, 4, 1, 4, 3, 2)),
}


# the first draw of GameStream(seed, 0) and the slot the shuffle traces above take from it
SHUFFLE_DRAWS = [(1, 2, 0), (0, 2, 1), (1, 3, 0)]  # (seed, pile size, slot of its one penalty card)


def _rules(case: Case) -> Rules:
    return rules_for_deal(parse_deal(case.deal), Rules(**case.options), any_deck=True)


def _takers(case: Case) -> tuple:
    result = bs.play(case.deal, _rules(case), any_deck=True, rng=GameStream(case.seed, 0), trace=True)
    return tuple(t.taker for t in result.trace if t.taker is not None)


@pytest.mark.parametrize("seed, size, slot", SHUFFLE_DRAWS)
def test_the_draws_the_shuffle_traces_use(seed, size, slot):
    """Lemire's multiply-shift on the low 32 bits of the first output (RULES.md section 7); the
    biased sliver (product's low half below 2**32 mod size) is not hit by these draws."""
    u = int(next_u64(stream_state(seed, 0).copy())) & MASK32
    assert (u * size) >> 32 == slot
    assert (u * size) & MASK32 >= (2**32) % size


# The options a case does not set in ``options``: they are its deal's own.
FROM_THE_DEAL = {
    "players": lambda hands: len(hands),
    "jokers": lambda hands: composition(hands)[5],
    "deck": lambda hands: composition(hands),
}


def _played(option) -> set:
    """The values of the rule option ``option`` (a `RuleOption`) the hand-traced cases play."""
    if option.name in FROM_THE_DEAL:
        return {FROM_THE_DEAL[option.name](parse_deal(case.deal)) for case in CASES.values()}
    return {case.options.get(option.name, option.default) for case in CASES.values()}


@pytest.mark.parametrize("option", rule_options(), ids=lambda o: o.name)
def test_every_rule_option_has_a_hand_traced_case(option):
    """Every option of `Rules` (`rule_options()`, the list the command line and the explorer are built
    from) is played by some case: every value of a choice or a flag; an integer option at its low
    bound and at two more values (its whole range when that is smaller: jokers 0, 1, 2), ``None``
    included when it is optional; more than one deck. A new option fails here until it gets a deal."""
    played = _played(option)
    if option.kind == "choice":
        assert set(option.choices) <= played, set(option.choices) - played
    elif option.kind == "flag":
        assert played == {False, True}, played
    elif option.kind == "int":
        ints = {v for v in played if v is not None}
        assert option.low in ints, (option.low, ints)
        assert len(ints) >= min(3, option.high - option.low + 1), ints
        assert not option.optional or None in played
    elif option.kind == "deck":
        assert len(played) > 1
    else:
        pytest.fail(f"rule option {option.name!r} of kind {option.kind!r}: say here how a case plays it")


def test_every_count_of_players_the_game_is_played_with_has_a_case():
    assert {len(parse_deal(case.deal)) for case in CASES.values()} >= {2, 3, 4, 5, 6}


@pytest.mark.parametrize("name", list(CASES))
def test_hand_traced_deal(name):
    case = CASES[name]
    rules = _rules(case)
    results = every_engine(case.deal, rules, case.seed)
    ref = results["reference"]
    # the hand trace
    assert (ref.outcome, ref.winner, ref.cards, ref.tricks) == (case.outcome, case.winner, case.cards, case.tricks)
    assert ref.loop == case.loop
    if case.place is not None:
        assert ref.place == case.place
    if case.takers is not None:
        assert _takers(case) == case.takers
    # every entry point plays the same game, figure for figure
    for engine, figures in results.items():
        assert figures == ref, f"{engine} differs from the reference on {case.deal!r} ({case.rule})"
    # a fast pass gives up exactly when it cannot prove a plain win
    fast = results.get("fast-two") or results.get("fast-multi")
    if ref.outcome != "win" or ref.loop[0] is not None:
        assert fast.path == "fallback"
    elif rules.max_cards is None and all(parse_deal(case.deal)):
        assert fast.path == "fast"


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_uneven_random_deals(players):
    """Section 2: card i of the shuffled deck goes to seat i mod n, so the first seats get one card
    more when n does not divide 52; the batch engine (fast pass or fallback) deals and plays them
    as the reference does."""
    from beggarstats.engine.deals import random_deal
    from beggarstats.engine.fast import play_games

    rules = Rules(players=players)
    sizes = tuple(52 // players + (1 if s < 52 % players else 0) for s in range(players))
    hands, stream = random_deal(7, 0, rules)
    assert tuple(len(h) for h in hands) == sizes
    ref = _from_result(play_hands(hands, rules, rng=stream))
    for kernel in ("general", "bits"):
        r = play_games(rules, 7, np.array([0]), per_seat=True, kernel=kernel)
        assert tuple(int(v) for v in r["hand_size"][0]) == sizes
        assert _from_arrays(r) == ref, kernel


# -------------------------------------------------------------------------------------------------
# golden traces of the two published games
# -------------------------------------------------------------------------------------------------
def _regenerate():
    return load_script(GOLDEN / "regenerate.py")


def _golden(name):
    """(deal, rows) of a golden file; each row (trick, leader, taker, cards, hand sizes...)."""
    lines = (GOLDEN / f"{name}.csv").read_text(encoding="utf-8").splitlines()
    deal = next(line.split(": ", 1)[1] for line in lines if line.startswith("# deal: "))
    rows = list(csv.reader(line for line in lines if not line.startswith("#")))
    header, body = rows[0], rows[1:]
    assert header[:4] == ["trick", "leader", "taker", "cards"]
    return deal, [tuple(int(v) if v != "" else None for v in row) for row in body]


GOLDEN_GAMES = ("nessler_2022", "casella_2024")


@pytest.mark.parametrize("name", GOLDEN_GAMES)
def test_golden_file_is_what_the_script_writes(name):
    module = _regenerate()
    deal, source = module.GAMES[name]
    assert (GOLDEN / f"{name}.csv").read_text(encoding="utf-8") == module.trace_text(deal, source)


@pytest.mark.parametrize("name", GOLDEN_GAMES)
@pytest.mark.parametrize("engine", ["reference", "api"])
def test_golden_trace_trick_by_trick(name, engine):
    deal, rows = _golden(name)
    hands = parse_deal(deal)
    if engine == "api":
        trace = bs.play(deal, trace=True).trace
    else:
        trace = play_hands(hands, Rules(), trace=True).trace
    assert len(trace) == len(rows)
    for k, (trick, row) in enumerate(zip(trace, rows), start=1):
        got = (k, trick.leader, trick.taker, trick.cards) + tuple(trick.hand_sizes)
        assert got == row, f"trick {k}: {got} != golden {row}"


def _figures_from_golden(deal, rows):
    """What the rows say the game's figures are (docs/RULES.md sections 5 and 8)."""
    dealt = tuple(len(h) for h in parse_deal(deal))
    sizes = [dealt] + [row[4:] for row in rows]           # the hand sizes at every trick boundary
    cards = sum(row[3] for row in rows)
    min_cards = tuple(min(s[seat] for s in sizes) for seat in range(len(dealt)))
    return cards, len(rows), sizes, min_cards


@pytest.mark.parametrize("engine", ["general", "bits", "fast-two"])
def test_longest_game_final_figures_against_the_golden_file(engine):
    deal, rows = _golden("nessler_2022")
    cards, tricks, sizes, min_cards = _figures_from_golden(deal, rows)
    winner = rows[-1][2]
    loser = 1 - winner
    assert sizes[-1][loser] == 0
    figures = every_engine(deal, Rules())[engine]
    assert figures.path == ("fast" if engine == "fast-two" else "exact")
    assert (figures.outcome, figures.winner, figures.cards, figures.tricks) == ("win", winner, cards, tricks)
    assert figures.min_cards == min_cards
    assert figures.place[winner] == 1 and figures.place[loser] == 2
    assert figures.out_cards[loser] == cards and figures.out_cards[winner] is None


@pytest.mark.parametrize("engine", ["general", "bits", "fast-two"])
def test_never_ending_game_final_figures_against_the_golden_file(engine):
    deal, rows = _golden("casella_2024")
    cards, tricks, sizes, min_cards = _figures_from_golden(deal, rows)
    figures = every_engine(deal, Rules())[engine]
    assert figures.path == ("fallback" if engine == "fast-two" else "exact")
    assert (figures.outcome, figures.winner, figures.cards, figures.tricks) == ("loop", None, cards, tricks)
    mu, mu_cards, lam, lam_cards = figures.loop
    # the loop figures cut the golden rows where the repeat starts: the state at boundary mu
    # comes back at the last row, so at least the leader and hand sizes must agree there
    assert lam == tricks - mu
    assert mu_cards == sum(row[3] for row in rows[:mu])
    assert lam_cards == sum(row[3] for row in rows[mu:])
    assert sizes[mu] == sizes[-1]
    assert (rows[mu - 1][2] if mu else 0) == rows[-1][2]
    assert figures.min_cards == min_cards
    assert figures.place == (None, None) and figures.out_cards == (None, None)


# -------------------------------------------------------------------------------------------------
# docs/DESIGN.md's table from each rule to its two places
# -------------------------------------------------------------------------------------------------
ENGINE = Path(__file__).parents[2] / "beggarstats" / "engine"


def test_the_rule_table_names_real_code():
    import importlib

    from beggarstats.engine import reference, rulebook

    listed = set()
    options = set()
    for rule, _, option, ref, kernel, _places in rule_rows():  # places: tests/docs/test_rule_places.py
        options.update(code_names(option))
        for name in code_names(ref):
            assert callable(getattr(reference._Game, name, None)), (rule, name)
        for name in code_names(kernel):
            if "." in name:
                module, attr = name.rsplit(".", 1)
                mod = importlib.import_module(f"beggarstats.engine.{module}")
                assert hasattr(mod, attr), (rule, name)
            else:
                assert hasattr(rulebook, name), (rule, name)
                listed.add(name)
    assert listed == set(rulebook.__all__), "every function of rulebook.py has a row, and only those"
    fields = {f.name for f in dataclasses.fields(Rules)}
    assert options <= fields
    assert fields - options == set(), f"options without a row: {fields - options}"


def test_no_kernel_decides_a_rule_itself():
    """The constants that name a choice are read only by rulebook.py (and defined in constants.py);
    no card is compared with the literal 5 (the joker), and no option's code is a literal."""
    for path in ENGINE.glob("*.py"):
        if path.name in ("constants.py", "rulebook.py", "reference.py"):
            continue
        code = path.read_text(encoding="utf-8")
        for name in ("JOKER", "LEADER_NEXT", "LEADER_TAKER"):
            assert not re.search(rf"\b{name}\b", code), f"{path.name} uses {name}: ask rulebook.py"
        # END_EMPTY may be passed on as a constant (a pass compiled for that table), never compared
        compared = re.search(r"[=!]= *END_EMPTY\b|\bEND_EMPTY *[=!<>]", code)
        assert not compared, f"{path.name} tests END_EMPTY: ask rulebook.py"
        assert not re.search(r"\b(card|owed|v|c|tribute) *[=!]= *5\b", code), f"{path.name}: a card compared with 5"
        # an option's code is named (constants.py), never written as a number
        literal = re.search(r"\b(end|end_rule|leader|leader_rule|joker_mode) *(==|!=|<=|>=) *-?[0-9]", code)
        assert not literal, f"{path.name}: {literal.group(0)!r} compares a rule option with a literal code"
        call = re.search(r"play_(two|multi)\([^)]*?\b(step|[ab]), *[0-9]", code)
        assert not call, f"{path.name}: {call.group(0)!r} passes a rule option as a literal code"
        # the result and cut-off arrays are read and written through their named rows (constants.py,
        # state.py), never a bare number
        row = re.search(r"\b(out_u32|out_small|cut)\[ *[0-9]|\b(seat_out|init_out)\[[^],]*, *[0-9]", code)
        assert not row, f"{path.name}: {row.group(0)!r} indexes a result array with a literal row"
