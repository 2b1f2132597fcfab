"""The batch engine (`engine.fast`): published figures, chunking independence."""

from __future__ import annotations

import numpy as np
import pytest

from beggarstats.game.cards import parse_deal
from beggarstats.game.decks import Deck
from beggarstats.engine.fast import RESULT_KEYS, SEAT_KEYS, kernel_for, play_games
from beggarstats.game.rules import Rules
from _kernel_deals import play_deals

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

# docs/RULES.md, "Two published checks": the default rules. Their figures in every engine are held to
# the golden files by tests/engine/test_conformance.py, and to the published numbers by test_rules_doc.py
# and test_anchor.py; here only what the batch engine adds (the cut-off at the repeat, shuffle_on_loop).
NESSLER = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
CASELLA = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
KERNELS = ("bits", "general")


@pytest.mark.parametrize("kernel", KERNELS)
def test_never_ending_game_under_a_cutoff(kernel):
    """Cut off before its first repeat (474 cards) the Casella deal is a cut-off, from 474 on a loop."""
    deal = parse_deal(CASELLA)
    before = play_deals(Rules(max_cards=473), [deal], kernel=kernel)
    at = play_deals(Rules(max_cards=474), [deal], kernel=kernel)
    assert (before["outcome"][0], before["cards"][0], before["looped"][0]) == (2, 473, False)
    assert (at["outcome"][0], at["cards"][0], at["looped"][0]) == (1, 474, True)


def test_shuffle_on_loop_ends_the_casella_game():
    r = play_deals(Rules(shuffle_on_loop=True), [parse_deal(CASELLA)], seed=5)
    assert r["outcome"][0] == 0 and r["looped"][0]
    assert (r["loop_start_tricks"][0], r["loop_tricks"][0]) == (4, 62)
    assert r["cards"][0] > 474


@pytest.mark.parametrize("rules", [Rules(), Rules(players=4, shuffle_pile=True),
                                   Rules(deck=Deck.from_counts((8, 4, 0, 0, 0)), shuffle_on_loop=True,
                                         max_cards=60)],
                         ids=["standard", "4p-shuffle_pile", "small-shuffle_on_loop"])
def test_chunking_independence(rules):
    """Game g is the same game whichever chunk, order or batch it is played in."""
    ids = np.arange(3000, dtype=np.int64)
    whole = play_games(rules, 99, ids, per_seat=True)
    rng = np.random.default_rng(0)
    order = rng.permutation(ids)
    parts = [play_games(rules, 99, chunk, per_seat=True) for chunk in np.array_split(order, 7)]
    for key in whole:
        joined = np.concatenate([p[key] for p in parts])
        back = np.empty_like(joined)
        back[order] = joined
        np.testing.assert_array_equal(back, whole[key], err_msg=key)


def test_result_contract():
    rules = Rules(players=3)
    r = play_games(rules, 1, np.arange(50), per_seat=True)
    dtypes = {"cards": np.uint32, "tricks": np.uint32, "outcome": np.uint8, "winner": np.int8, "looped": np.bool_,
              "loop_start_tricks": np.uint32, "loop_start_cards": np.uint32, "loop_tricks": np.uint32,
              "loop_cards": np.uint32, "hand_size": np.uint8, "jacks": np.uint8, "queens": np.uint8,
              "kings": np.uint8, "aces": np.uint8, "jokers": np.uint8, "tribute_total": np.uint16,
              "min_cards": np.int16, "place": np.int8, "out_cards": np.int64}
    assert set(r) == set(RESULT_KEYS) | set(SEAT_KEYS)
    for key, dt in dtypes.items():
        assert r[key].dtype == dt, key
        assert r[key].shape == ((50,) if key in RESULT_KEYS else (50, 3)), key
    # the initial hands: 18/17/17 cards, every penalty card dealt once
    assert (r["hand_size"].sum(axis=1) == 52).all() and list(r["hand_size"][0]) == [18, 17, 17]
    for key in ("jacks", "queens", "kings", "aces"):
        assert (r[key].sum(axis=1) == 4).all()
    assert (r["tribute_total"].sum(axis=1) == 4 * (1 + 2 + 3 + 4)).all()
    assert (r["place"] == 1).sum(axis=1).tolist() == (r["winner"] >= 0).astype(int).tolist()
    assert set(play_games(rules, 1, np.arange(5))) == set(RESULT_KEYS)


def test_kernel_dispatch():
    assert kernel_for(Rules()) == "bits"
    assert kernel_for(Rules(players=6, jokers=2)) == "bits"
    assert kernel_for(Rules(deck=Deck.from_counts((60, 4, 4, 4, 4)))) == "general"
    big = Rules(players=3, deck=Deck.from_counts((60, 4, 4, 4, 4)))
    a = play_games(big, 4, np.arange(300), per_seat=True)
    assert (a["outcome"] == 0).mean() > 0.9


@pytest.mark.parametrize("players", [2, 4])
def test_the_rules_entry_plays_a_common_table_as_its_own_entry_does(players):
    """The `_rules` twin of a fast pass plays the common options too (as variables, not constants):
    every figure equal, per seat included, so either entry may play any table it is given."""
    from beggarstats.engine import fast

    rules = Rules(players=players)
    common = fast.fast_pass(rules)
    games = np.arange(4000, dtype=np.int64)
    one = fast._run_entry(common, rules, np.uint64(31), games, True)
    other = fast._run_entry(common + "_rules", rules, np.uint64(31), games, True)
    for key in one:
        np.testing.assert_array_equal(one[key], other[key], err_msg=key)


@pytest.mark.parametrize("players", [2, 3])
def test_a_common_entry_given_other_options_hands_every_game_to_the_exact_driver(players):
    """`batch.fast_pass_two` / `fast_pass_multi` fold the common options in as constants: given any
    other option they play nothing and mark every game for the exact driver (slower, never wrong)."""
    from beggarstats.engine import batch
    from beggarstats.engine.constants import INIT_ROWS, pack_params
    from beggarstats.engine.fast import empty_raw

    for rules in (Rules(players=players, shuffle_pile=True), Rules(players=players, end="empty")):
        n = 50
        out_u32, out_small, seat_out = empty_raw(n, players)
        init_out = np.zeros((n, INIT_ROWS, players), dtype=np.int64)
        need = np.zeros(n, dtype=np.uint8)
        args = (np.uint64(7), np.arange(n, dtype=np.int64), out_u32, out_small, seat_out, init_out, False, need)
        prm = pack_params(rules)
        if players == 2:
            batch.fast_pass_two(rules.deck_cards(), prm, *args)
        else:
            batch.fast_pass_multi(rules.deck_cards(), players, prm, *args)
        assert need.all() and not out_u32.any()
        # and through play_games the same games are played in full
        assert (play_games(rules, 7, np.arange(n))["cards"] > 0).all()


def _pass_hands(hands):
    """A deal as the fast passes take it: each hand's three planes and its length."""
    from beggarstats.engine.hands_bits import planes_of

    n, width = len(hands), max(len(h) for h in hands)
    dh = np.zeros((n, width), np.int8)
    for s, h in enumerate(hands):
        dh[s, :len(h)] = h
    d0, d1, d2 = (np.zeros(n, np.uint64) for _ in range(3))
    planes_of(dh, np.array([len(h) for h in hands], np.int64), d0, d1, d2)
    return [(d0[s], d1[s], d2[s], len(h)) for s, h in enumerate(hands)]


@pytest.mark.parametrize("limit", [-1, -5, -2**62])
def test_a_negative_cut_off_stops_the_game_never_plays_it_for_ever(limit):
    """Fail-safe (issue #53): a record's cut-off is a card count, NO_LIMIT for none (`options.options_of`
    decodes the parameter array's -1), so a negative one can only come from a wrong caller; both fast
    passes then hand the game back at their first cut-off test instead of playing without a cut-off
    (which, for a deal that loops with the loop search off, is for ever). The Nessler deal, played out
    in full by the same passes with the record as it is, takes its 8,344 cards (docs/RULES.md)."""
    from beggarstats.engine.constants import DONE, FALLBACK
    from beggarstats.engine.kernel_multi import new_table, play_multi
    from beggarstats.engine.kernel_two import play_two
    from beggarstats.engine.options import options_for
    from beggarstats.engine.rng import stream_state

    a, b = _pass_hands(parse_deal(NESSLER))
    o = options_for(Rules())
    assert play_two(a, b, o, stream_state(1, 0))[:2] == (DONE, 8344)
    status, cards = play_two(a, b, o._replace(limit=limit, detect=False), stream_state(1, 0))[:2]
    assert status == FALLBACK and cards < 30, (status, cards)
    rules = Rules(players=3)
    from beggarstats.engine.deals import random_deal

    hands, _ = random_deal(4, 0, rules)
    for o3, want in ((options_for(rules), DONE), (options_for(rules)._replace(limit=limit, detect=False), FALLBACK)):
        t = new_table(3)
        for s, (p0, p1, p2, n) in enumerate(_pass_hands(hands)):
            t.p0[s], t.p1[s], t.p2[s], t.ln[s] = p0, p1, p2, n
        status, cards = play_multi(t, o3, stream_state(4, 0))[:2]
        assert status == want and (want == DONE or cards < 60), (status, cards)
