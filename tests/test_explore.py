"""The explorer of notebooks/00_explorer, driven headless: controls set from the test, results read
back from the panels' attributes (outside a kernel nothing is displayed)."""

import math

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import beggarstats as bs  # noqa: E402
from beggarstats.engine.deals import random_deal  # noqa: E402
from beggarstats.report.explore import (Explorer, Replayer, build_rules, compare_with_standard,  # noqa: E402
                                 paired_comparison, pile_text, shares_deals)

T_975_DF3 = 3.1824463052837078  # Student t, 97.5% quantile, 3 degrees of freedom (printed tables: 3.182)


def frame(cards, winners, outcomes=None, games=None):
    n = len(cards)
    return pd.DataFrame({"game": np.arange(n) if games is None else games, "cards": cards,
                         "winner": pd.array(winners, dtype="Int8"),
                         "outcome": outcomes or ["win" if w is not None else "loop" for w in winners]})


# -- the rules of the controls -----------------------------------------------------------------------

def test_build_rules_maps_every_control():
    r = build_rules(players=4, deck="italian", jokers=2, joker_mode="beggar", end="unable",
                    exhausted_tribute="passes_on", direction="ccw", shuffle="shuffle_on_loop", max_cards=5000,
                    unfinished="most_cards")
    assert r == bs.Rules(players=4, deck="italian", jokers=2, joker_mode="beggar", end="unable",
                         exhausted_tribute="passes_on", direction="ccw", shuffle_on_loop=True, max_cards=5000,
                         unfinished="most_cards")
    assert build_rules() == bs.Rules()
    assert build_rules(shuffle="shuffle_pile").shuffle_pile
    assert build_rules(deck="custom", custom_deck="10/2/0/0/0").deck.counts == (10, 2, 0, 0, 0)


@pytest.mark.parametrize("values, name", [
    (dict(deck="custom", custom_deck="10/2/0"), "custom_deck"),
    (dict(deck="custom", custom_deck="a/b/c/d/e"), "custom_deck"),
    (dict(shuffle="sometimes"), "shuffle"),
    (dict(end="never"), "end"),
])
def test_build_rules_names_the_bad_control(values, name):
    with pytest.raises(ValueError, match=f"`{name}`"):
        build_rules(**values)


def test_a_custom_deck_is_labelled_once():
    assert bs.Rules(deck=bs.Deck(10, 2, 0, 0, 0)).name == "10/2/0/0/0 deck"
    assert bs.Rules(deck="italian").name == "italian deck"


def test_rules_that_keep_the_deck_deal_the_same_games():
    base = bs.Rules(players=3)
    for rules, same in ((bs.Rules(players=3, shuffle_pile=True), True), (bs.Rules(players=3, end="empty"), True),
                        (bs.Rules(players=3, direction="ccw"), True), (bs.Rules(players=3, jokers=1), False),
                        (bs.Rules(players=3, deck="italian"), False)):
        assert shares_deals(rules, base) is same
        dealt = [random_deal(7, g, rules)[0] == random_deal(7, g, base)[0] for g in range(20)]
        assert all(dealt) if same else not any(dealt)
    assert not shares_deals(bs.Rules(players=2), base)


# -- the paired comparison, against values worked out by hand ------------------------------------------

def test_paired_comparison_by_hand():
    # lengths 10 12 15 20 vs 8 12 11 18: differences 2 0 4 2, mean 2, sd sqrt(8/3), se sqrt(8/3)/2
    variant = frame([10, 12, 15, 20, 7], [0, 1, 0, 0, None])
    standard = frame([8, 12, 11, 18, 9], [0, 0, 1, 1, 0])
    out = paired_comparison(variant, standard).set_index("metric")
    half = T_975_DF3 * math.sqrt(8 / 3) / 2
    m = out.loc["mean_length_diff"]
    assert m.n == 4 and m.design == "paired"  # the loop (game 4) is left out: it has no length
    assert m.estimate == pytest.approx(2.0)
    assert (m.low, m.high) == pytest.approx((2 - half, 2 + half))
    assert m.value == pytest.approx(57 / 4) and m.baseline_value == pytest.approx(49 / 4)
    # t = 2 / se = 2.449; two-sided p with 3 df is 0.0917 (tables: between 0.05 and 0.10)
    assert 0.05 < m.p_value < 0.10 and m.p_value == pytest.approx(0.0917, abs=1e-4)
    # seat 0 won: 1 0 1 1 vs 1 1 0 0 on the four deals both decided; d = 0 -1 1 1, mean 1/4,
    # sum of squared deviations 2.75, sd sqrt(2.75/3)
    w = out.loc["seat0_win_diff"]
    half = T_975_DF3 * math.sqrt(2.75 / 3) / 2
    assert w.n == 4 and w.estimate == pytest.approx(0.25)
    assert (w.low, w.high) == pytest.approx((0.25 - half, 0.25 + half))
    assert (w.value, w.baseline_value) == pytest.approx((0.75, 0.5))


def test_paired_comparison_without_spread_is_a_point():
    out = paired_comparison(frame([5, 6, 7], [0, 1, 0]), frame([4, 5, 6], [0, 1, 0])).set_index("metric")
    assert (out.loc["mean_length_diff", "low"], out.loc["mean_length_diff", "high"]) == (1.0, 1.0)
    assert out.loc["seat0_win_diff", "estimate"] == 0 and out.loc["seat0_win_diff", "p_value"] == 1.0


def test_paired_comparison_needs_the_same_deals():
    with pytest.raises(ValueError, match="same game ids"):
        paired_comparison(frame([1, 2], [0, 1]), frame([1, 2], [0, 1], games=[5, 6]))
    with pytest.raises(ValueError, match="`baseline` has no column 'winner'"):
        paired_comparison(frame([1, 2], [0, 1]), frame([1, 2], [0, 1]).drop(columns="winner"))


def test_compare_with_standard_picks_the_design():
    base = bs.Rules()
    standard = bs.simulate(3000, rules=base, seed=3)
    shuffled = bs.Rules(shuffle_pile=True)
    games = bs.simulate(3000, rules=shuffled, seed=3)
    paired = compare_with_standard(games, standard, shuffled, base)
    assert set(paired.design) == {"paired"}
    by_hand = paired_comparison(games, standard)  # compare_variants(design="paired") must agree with it
    cols = ["estimate", "low", "high", "n", "value", "baseline_value"]
    np.testing.assert_allclose(paired[cols].to_numpy(float), by_hand[cols].to_numpy(float), rtol=1e-9)
    assert list(paired.metric) == list(by_hand.metric)
    italian = bs.Rules(deck="italian")
    other = compare_with_standard(bs.simulate(3000, rules=italian, seed=3), standard, italian, base)
    assert set(other.design) == {"independent"}
    m = other.set_index("metric").loc["mean_length_diff"]
    # the Italian deck has 40 cards and no Aces: its games are much shorter (notebook 03)
    assert m.high < 0 and m.estimate == pytest.approx(m.value - m.baseline_value)


# -- the explorer panel, driven from the test --------------------------------------------------------

@pytest.fixture(scope="module")
def explorer():
    return Explorer(games=3000, seed=11, n_jobs=1)


def test_explorer_starts_on_the_standard_game(explorer):
    assert explorer.rules == bs.Rules() and explorer.error is None
    assert explorer.tables["comparison"].empty
    seats = explorer.tables["seats"]
    assert list(seats.seat) == [0, 1] and seats.wins.sum() == seats.games.iloc[0]
    assert len(explorer.figure.axes) == 2 and explorer.elapsed > 0


def test_explorer_widgets_drive_the_sample(explorer):
    before = explorer.updates
    explorer.controls["players"].value = 4  # a widget change alone triggers the update
    assert explorer.updates == before + 1
    assert explorer.rules.players == 4 and len(explorer.tables["seats"]) == 4
    assert explorer.games.attrs["rules"]["players"] == 4
    explorer.controls["seed"].value = 12
    assert explorer.games.attrs["seed"] == 12
    expected = bs.simulate(3000, rules=bs.Rules(players=4), seed=12)
    assert explorer.games["cards"].tolist() == expected["cards"].tolist()
    explorer.set(players=2, seed=11)


def test_explorer_compares_a_variant_deal_by_deal(explorer):
    explorer.set(shuffle="shuffle_pile")
    assert explorer.rules == bs.Rules(shuffle_pile=True)
    table = explorer.tables["comparison"]
    assert set(table.design) == {"paired"}
    again = paired_comparison(bs.simulate(3000, rules=bs.Rules(shuffle_pile=True), seed=11),
                              bs.simulate(3000, seed=11))
    cols = ["estimate", "low", "high", "n"]
    np.testing.assert_allclose(table[cols].to_numpy(float), again[cols].to_numpy(float), rtol=1e-9)
    assert "same deals" in explorer.comparison_caption()
    assert set(explorer.tables["lengths"]["sample"]) == {"chosen rules", "standard game"}
    survival = explorer.figure.axes[1]
    assert len(survival.get_lines()) == 2  # one curve per sample
    explorer.set(shuffle="none")
    assert explorer.tables["comparison"].empty


def test_explorer_other_deck_is_independent(explorer):
    explorer.set(deck="custom", custom_deck="10/2/0/0/0")
    assert explorer.rules.deck.counts == (10, 2, 0, 0, 0)
    assert (explorer.games["outcome"] == "loop").any()  # small decks with two Jacks loop often (notebook 04)
    assert set(explorer.tables["comparison"].design) == {"independent"}
    assert "loop" in explorer.status.value
    explorer.set(deck="standard")


def test_explorer_reports_bad_controls_and_keeps_the_last_results(explorer):
    games = explorer.games
    explorer.set(deck="custom", custom_deck="10/2")
    assert "`custom_deck`" in explorer.error and "custom_deck" in explorer.status.value
    assert explorer.games is games
    explorer.set(custom_deck="1/1/0/0/0", players=3)  # two cards for three players
    assert "cannot be dealt to 3 players" in explorer.error
    explorer.set(deck="standard", players=2)
    assert explorer.error is None and explorer.rules == bs.Rules()


# -- the replay panel --------------------------------------------------------------------------------

def test_replayer_steps_through_a_random_game():
    rules = bs.Rules(players=3)
    rp = Replayer(lambda: rules, seed=5, game=17)
    rp.load()
    deal, expected = bs.replay(5, 17, rules)
    assert rp.deal == deal and rp.result.cards == expected.cards and rp.result.winner == expected.winner
    assert rp.step.max == len(expected.trace) and rp.trick["trick"] == 1
    rp.step.value = 3
    t = expected.trace[2]
    assert rp.trick == dict(trick=3, leader=t.leader, pile=pile_text(t.plays), cards=len(t.plays), taker=t.taker,
                            hand_sizes=t.hand_sizes)
    assert sum(rp.trick["hand_sizes"]) == 52  # the pile is empty again after every trick
    assert f"seat {expected.winner} wins" in rp.status.value
    rp.step.value = rp.step.max
    assert rp.trick["hand_sizes"] == expected.final_hand_sizes
    rp.game.value = 18  # another game: the slider starts again at its first trick, within its length
    rp.load()
    _, other = bs.replay(5, 18, rules)
    assert rp.step.max == len(other.trace) and rp.step.value == 1 and rp.trick["trick"] == 1
    assert rp.trick["hand_sizes"] == other.trace[0].hand_sizes


def test_replayer_draws_the_loop_of_a_pasted_deal():
    loop = next(r for r in bs.load_records() if r["outcome"] == "loop")
    rp = Replayer(bs.Rules())
    rp.source.value = "deal"
    rp.deal_text.value = loop["deal"]
    rp.load()
    assert rp.result.outcome == "loop" and rp.result.loop_tricks == loop["loop_tricks"]
    assert "cycle of" in rp.status.value and "cycle of" in rp.figure.axes[0].get_title()
    rp.step.value = 2
    assert rp.trick["trick"] == 2


def test_replayer_reports_a_bad_deal():
    rp = Replayer(bs.Rules())
    rp.source.value = "deal"
    rp.deal_text.value = "--Z-/----"
    rp.load()
    assert rp.result is None and "hand 0, position 3" in rp.error


def test_pile_text():
    assert pile_text(((0, 0), (1, 4), (0, 1), (1, 5))) == "0:- 1:A 0:J 1:X"
