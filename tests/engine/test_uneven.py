"""Random uneven deals (engine/uneven.py, engine/uneven_play.py): reproducible, the reference's games."""

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.game.decks import Deck
from beggarstats.engine.constants import OUTCOME_CODES
from beggarstats.engine.reference import play_hands
from beggarstats.engine.uneven import uneven_deal
from beggarstats.engine.uneven_play import play_uneven, uneven_steps


def _reference(seed, game, rules, sizes, leader):
    """The reference's game of the uneven deal, the leader's hand first; winner as a seat of the deal."""
    hands, stream = uneven_deal(seed, game, rules, sizes, leader)
    r = play_hands(hands[leader:] + hands[:leader], rules, rng=stream, trace=True)
    n = rules.players
    return r, None if r.winner is None else (r.winner + leader) % n


def test_deal_has_the_sizes_and_the_whole_deck():
    rules = bs.Rules()
    hands, _ = uneven_deal(3, 11, rules, [7, 45], 1)
    assert [len(h) for h in hands] == [7, 45]
    assert sorted(hands[0] + hands[1]) == sorted(rules.deck_cards().tolist())
    assert uneven_deal(3, 11, rules, [7, 45], 1)[0] == hands
    assert uneven_deal(3, 12, rules, [7, 45], 1)[0] != hands


@pytest.mark.parametrize("rules, sizes, leader", [
    (bs.Rules(), (9, 43), 1),
    (bs.Rules(), (40, 12), 0),
    (bs.Rules(players=3), (5, 30, 17), 2),
    (bs.Rules(players=4, direction="ccw"), (20, 3, 11, 18), 1),
    (bs.Rules(shuffle_pile=True), (30, 22), 1),
    (bs.Rules(max_cards=150), (26, 26), 1),
])
def test_games_are_the_reference_games(rules, sizes, leader):
    res = play_uneven(rules, 5, np.arange(60), sizes, leader)
    for g in range(60):
        r, winner = _reference(5, g, rules, sizes, leader)
        assert (res["cards"][g], res["tricks"][g]) == (r.cards, r.tricks), g
        assert OUTCOME_CODES[res["outcome"][g]] == r.outcome, g
        assert res["winner"][g] == (-1 if winner is None else winner), g


def test_steps_stop_at_the_reference_boundary():
    rules = bs.Rules(players=3)
    sizes, leader, horizon = (3, 46, 3), 1, 300  # about one game in seven is still on at the boundary
    res = uneven_steps(rules, 9, np.arange(40), sizes, leader, horizon)
    seen = set()
    for g in range(40):
        r, _ = _reference(9, g, rules, sizes, leader)
        played = 0
        for trick in r.trace:
            played += trick.cards
            if played >= horizon:
                break
        seen.add(bool(res["over"][g]))
        if played < horizon or r.outcome == "win" and trick is r.trace[-1]:
            assert res["over"][g] and res["cards"][g] == r.cards, g
            continue
        assert not res["over"][g] and res["cards"][g] == played, g
        rot = trick.hand_sizes  # the reference's seats are play seats: seat j is deal seat (leader + j) % 3
        assert [rot[(s - leader) % 3] for s in range(3)] == res["held"][g].tolist(), g
        assert res["leader"][g] == (trick.taker + leader) % 3, g
    assert seen == {True, False}  # both kinds of stop were checked


def test_reproducible_whatever_the_chunking():
    rules = bs.Rules()
    whole = play_uneven(rules, 2, np.arange(100), (30, 22), 1)
    parts = [play_uneven(rules, 2, np.arange(a, b), (30, 22), 1) for a, b in ((0, 37), (37, 38), (38, 100))]
    for key in ("cards", "tricks", "winner", "outcome"):
        assert np.array_equal(whole[key], np.concatenate([p[key] for p in parts]))
    ids = np.array([99, 3, 50])
    assert np.array_equal(play_uneven(rules, 2, ids, (30, 22), 1)["cards"], whole["cards"][ids])


@pytest.mark.parametrize("sizes, leader, message", [
    ((26, 25), 0, "`sizes` must add up to the deck's 52 cards"),
    ((52, 0), 0, "`sizes[1]`"),
    ((26, 26, 0), 0, "`sizes` must give one hand size per seat"),
    ((26.0, 26), 0, "`sizes[0]`"),
    ((26, 26), 2, "`leader`"),
    (26, 0, "`sizes` must be a sequence"),
])
def test_bad_sizes_are_refused_by_name(sizes, leader, message):
    with pytest.raises((ValueError, TypeError), match=message.replace("[", r"\[").replace("]", r"\]")):
        play_uneven(bs.Rules(), 1, [0], sizes, leader)


def test_big_decks_and_bad_horizon_are_refused():
    with pytest.raises(ValueError, match="at most 64 cards"):
        play_uneven(bs.Rules(deck=Deck(numbers=60)), 1, [0], (40, 36), 0)
    with pytest.raises(ValueError, match="`horizon`"):
        uneven_steps(bs.Rules(), 1, [0], (26, 26), 0, 0)
