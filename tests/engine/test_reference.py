"""The reference engine against published figures and hand-traced deals.

Sources of published figures: docs/RULES.md section 10, and R. P. Mann's record list as reproduced in the
exercism `camicia` canonical data (tests/data/camicia_cases.csv, exercism/problem-specifications,
exercises/camicia/canonical-data.json).
"""

import csv
from pathlib import Path

import pytest

from beggarstats import Rules, play
from beggarstats.game.cards import format_hand, parse_hand

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
NEVER_ENDING = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"


# The two published games (RULES.md section 10) are held, trick by trick, to the golden files by
# tests/engine/test_conformance.py and to the published figures by test_rules_doc.py and test_anchor.py.


def test_never_ending_cycle_really_repeats():
    # The trace must show the same hand sizes at the cycle's start and at the first repeat.
    r = play(NEVER_ENDING, trace=True)
    assert r.trace[4 - 1].hand_sizes == r.trace[66 - 1].hand_sizes
    assert sum(t.cards for t in r.trace[4:66]) == 440



def test_trick_states_follow_the_published_cycle():
    # Casella 2024 (RULES.md section 10): the state after 4 tricks comes back 62 tricks later, and
    # at no boundary between; Nessler 2022 is over after its 1164 tricks, not after 1163.
    from beggarstats.engine.reference import trick_states
    from beggarstats.game.cards import parse_deal

    states, over = trick_states(parse_deal(NEVER_ENDING), Rules(), 4, 62)
    assert len(states) == 63 and not over
    assert states[-1] == states[0] and states[0] not in states[1:-1]
    assert sum(len(h) for h in states[0][2]) == 52
    assert trick_states(parse_deal(RECORD), Rules(), 1163, 1)[1] is True
    assert trick_states(parse_deal(RECORD), Rules(), 1162, 1)[1] is False

def _camicia_cases():
    path = Path(__file__).parents[1] / "data" / "camicia_cases.csv"
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("case", _camicia_cases(), ids=lambda c: c["description"])
def test_published_camicia_cases(case):
    deal = format_hand(parse_hand(case["player_a"])) + "/" + format_hand(parse_hand(case["player_b"]))
    r = play(deal, any_deck=True)
    expected = {"finished": "win", "loop": "loop"}[case["status"]]
    assert (r.outcome, r.cards, r.tricks) == (expected, int(case["cards"]), int(case["tricks"]))


def test_worked_example_of_the_rule_texts():
    # Seat 0 plays a Queen; seat 1 pays a 6 and a Jack; seat 0 pays an Ace; seat 1 pays 3, 7, King;
    # seat 0 pays 10, 4, 6; seat 1 takes the 10-card pile and leads.
    deal = "QA1046----/6J37K--"  # both hands go on with number cards so play continues
    r = play(deal, any_deck=True, trace=True)
    first = r.trace[0]
    assert first.leader == 0
    assert first.plays == ((0, 2), (1, 0), (1, 1), (0, 4), (1, 0), (1, 0), (1, 3), (0, 0), (0, 0), (0, 0))
    assert first.taker == 1 and first.cards == 10
    assert first.hand_sizes == (4, 12)
    assert r.trace[1].leader == 1
    # the pile went under seat 1's hand in the order played: after its own two number cards,
    # the Queen (first card of the pile) is the next card seat 1 plays.
    second = r.trace[1]
    assert [c for s, c in second.plays if s == 1] == [0, 0, 2]


# --- end conventions: "K/---" traced by hand ----------------------------------------------------
# trick : K, then seat 1 pays - - -; seat 0 takes 4 cards; seat 1 is empty after the trick: out.
# empty : K is seat 0's last card; only seat 1 holds cards at once: seat 1 wins, takes the 1-card pile.
# unable: as trick, but seat 1 stays in; seat 0 leads -, seat 1 cannot play: out; seat 0 takes 1 card.
@pytest.mark.parametrize("end, winner, cards, tricks", [
    ("trick", 0, 4, 1), ("empty", 1, 1, 1), ("unable", 0, 5, 2),
])
def test_end_conventions(end, winner, cards, tricks):
    r = play("K/---", Rules(end=end), any_deck=True)
    assert (r.outcome, r.winner, r.cards, r.tricks) == ("win", winner, cards, tricks)


# --- exhausted tribute: "K/-/--", 3 players, traced by hand -------------------------------------
# claimant : K; seat 1 pays -, runs out; seat 0 takes K- and leads K; seat 2 pays - -, runs out
#            with only 2 players in: out, seat 0 wins and takes 3. 5 cards, 2 tricks.
# passes_on: K; seat 1 pays -, runs out; seat 2 owes the other 2: - -; seat 0 takes 4; seat 2 is out.
@pytest.mark.parametrize("rule, cards, tricks", [("claimant", 5, 2), ("passes_on", 4, 1)])
def test_exhausted_tribute(rule, cards, tricks):
    r = play("K/-/--", Rules(exhausted_tribute=rule), any_deck=True)
    assert (r.winner, r.cards, r.tricks) == (0, cards, tricks)
    assert r.out_order == ((1,), (2,))
    assert r.place == (1, 3, 2)


# --- direction: "J/--/-", 3 players -------------------------------------------------------------
# cw : seat 1 pays first and goes out first;  ccw: seat 2 pays first and goes out first.
@pytest.mark.parametrize("direction, out_order", [("cw", ((1,), (2,))), ("ccw", ((2,), (1,)))])
def test_direction(direction, out_order):
    deal = "J/--/-" if direction == "ccw" else "J/-/--"
    r = play(deal, Rules(direction=direction), any_deck=True)
    assert (r.winner, r.cards, r.tricks) == (0, 7, 3)
    assert r.out_order == out_order


# --- jokers: "X/-A---" ----------------------------------------------------------------------------
# super : X demands 5; seat 1 pays -, then A: seat 0 owes 4 with no card: out. Seat 1 takes X-A.
# beggar: the A paid to a Beggar joker is a plain card: seat 1 pays 5, seat 0 takes 6 and wins.
@pytest.mark.parametrize("mode, winner, cards", [("super", 1, 3), ("beggar", 0, 6)])
def test_joker_modes(mode, winner, cards):
    r = play("X/-A---", Rules(joker_mode=mode), any_deck=True)
    assert (r.winner, r.cards, r.tricks) == (winner, cards, 1)


def test_joker_needs_jokers_in_the_rules():
    with pytest.raises(ValueError, match="one joker too many"):
        play("X/-A---", Rules(deck=__import__("beggarstats").Deck(4, 0, 0, 0, 1)))


# --- player counts 2..6: "J/-/-/..." traced by hand ---------------------------------------------
# n=2: J -, seat 0 takes, seat 1 out.                                        2 cards, 1 trick
# n=3: + J - (seat 2), seat 2 out.                                           4 cards, 2 tricks
# n=4: + - - J (seat 0, 3, 0): seat 3 owes and cannot pay, out; 0 takes 3.   7 cards, 3 tricks
# n=5: + - - - J: seat 3 cannot pay (claimant takes 4); seat 4 empty: out.  8 cards, 3 tricks
# n=6: + - - - - J: seat 3 cannot pay; seats 4 and 5 out together (2nd).     9 cards, 3 tricks
@pytest.mark.parametrize("n, cards, tricks, place", [
    (2, 2, 1, (1, 2)),
    (3, 4, 2, (1, 3, 2)),
    (4, 7, 3, (1, 4, 3, 2)),
    (5, 8, 3, (1, 5, 4, 3, 2)),
    (6, 9, 3, (1, 6, 5, 4, 2, 2)),
])
def test_player_counts(n, cards, tricks, place):
    r = play("/".join(["J"] + ["-"] * (n - 1)), any_deck=True)
    assert (r.winner, r.cards, r.tricks, r.place) == (0, cards, tricks, place)


def test_unable_keeps_empty_players_in_until_they_must_play():
    # J -, seat 0 takes; seat 1 (empty) stays in; J: seat 1 cannot pay, out, claimant takes;
    # - - J: seat 2 cannot pay, out, seat 0 wins with the 3-card pile.
    r = play("J/-/-", Rules(end="unable"), any_deck=True)
    assert (r.winner, r.cards, r.tricks) == (0, 6, 3)


def test_cutoff_and_most_cards():
    r = play(RECORD, Rules(max_cards=1000))
    assert (r.outcome, r.cards, r.winner) == ("cutoff", 1000, None)
    r2 = play(RECORD, Rules(max_cards=1000, unfinished="most_cards"))
    sizes = r2.final_hand_sizes
    assert r2.outcome == "cutoff" and r2.winner == sizes.index(max(sizes))


def test_loop_found_before_cutoff_is_a_loop():
    assert play(NEVER_ENDING, Rules(max_cards=474)).outcome == "loop"
    assert play(NEVER_ENDING, Rules(max_cards=473)).outcome == "cutoff"


def test_shuffle_on_loop_breaks_the_never_ending_game():
    from beggarstats.engine.rng import GameStream
    r = play(NEVER_ENDING, Rules(shuffle_on_loop=True), rng=GameStream(1, 0))
    assert r.outcome == "win" and r.cards > 474
    assert (r.loop_start_tricks, r.loop_tricks) == (4, 62)  # the loop it broke


def test_italian_deck_refuses_aces():
    with pytest.raises(ValueError, match=r"hand 1, position 18: one number card too many: the deal has 36 number cards, the italian deck has 28"):
        play(RECORD, Rules(deck="italian"))


@pytest.mark.parametrize("deal, message", [
    ("--K-", "a deal needs at least 2 hands"),
    ("/".join(["-"] * 13), "at most 12 hands"),
    ("--Z/--", "hand 0, position 3: unknown card symbol 'Z'"),
    (RECORD + "A", "hand 1, position 27: one Ace too many"),
    (RECORD[:-1], "missing 1 number card"),
])
def test_bad_deals_are_refused_with_their_place(deal, message):
    with pytest.raises(ValueError, match=message):
        play(deal)


def test_open_deal_and_speed_play_change_nothing():
    # The engine has no hidden state: the same deal always gives the same game, whatever was played
    # before it (face-up cards or faster play do not change the order of cards and turns).
    first = [play(RECORD), play(NEVER_ENDING)]
    again = [play(NEVER_ENDING), play(RECORD)][::-1]
    assert first == again


def test_shuffle_variants_take_a_numpy_generator():
    import numpy as np
    rules = Rules(shuffle_pile=True)
    first = play(NEVER_ENDING, rules, rng=np.random.default_rng(7))
    again = play(NEVER_ENDING, rules, rng=np.random.default_rng(7))
    other = play(NEVER_ENDING, rules, rng=np.random.default_rng(8))
    assert first.outcome == "win" and first == again
    assert (first.cards, first.winner) != (other.cards, other.winner) or first.tricks != other.tricks


def test_shuffle_variants_refuse_to_run_without_a_stream():
    with pytest.raises(ValueError, match="need a random stream: pass `rng`"):
        play(NEVER_ENDING, Rules(shuffle_pile=True))
