"""The explorer of notebooks/00_explorer, driven headless: controls set from the test, results read
back from the panels' attributes (outside a kernel nothing is displayed)."""


import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

import beggarstats as bs  # noqa: E402
from scipy import stats  # noqa: E402

from beggarstats.engine.deals import random_deal  # noqa: E402
from beggarstats.report.findings import fmt_p  # noqa: E402
from beggarstats.game.rules import rule_options  # noqa: E402
from beggarstats.report.explore import (GAMES_RANGE, Explorer, Replayer, build_rules, check_sample,  # noqa: E402
                                        compare_with_standard, pile_text, readable_comparison, readable_seats,
                                        shares_deals)



def frame(cards, winners, outcomes=None, games=None):
    n = len(cards)
    return pd.DataFrame({"game": np.arange(n) if games is None else games, "cards": cards,
                         "winner": pd.array(winners, dtype="Int8"),
                         "outcome": outcomes or ["win" if w is not None else "loop" for w in winners]})


# -- the rules of the controls -----------------------------------------------------------------------

def test_build_rules_maps_every_control():
    r = build_rules(players=4, deck="italian", jokers=2, joker_mode="beggar", end="unable",
                    exhausted_tribute="passes_on", direction="ccw", shuffle_on_loop=True, max_cards=5000,
                    unfinished="most_cards", leader="next")
    assert r == bs.Rules(players=4, deck="italian", jokers=2, joker_mode="beggar", end="unable",
                         exhausted_tribute="passes_on", direction="ccw", shuffle_on_loop=True, max_cards=5000,
                         unfinished="most_cards", leader="next")
    assert build_rules() == bs.Rules()
    assert build_rules(max_cards=0).max_cards is None  # the box's 0 means no cut-off
    assert build_rules(shuffle_pile=True).shuffle_pile
    assert build_rules(deck="custom", custom_deck="10/2/0/0/0").deck.counts == (10, 2, 0, 0, 0)


@pytest.mark.parametrize("values, name", [
    (dict(deck="custom", custom_deck="10/2/0"), "`custom_deck`"),
    (dict(deck="custom", custom_deck="a/b/c/d/e"), "`custom_deck`"),
    (dict(deck="tarot"), "`deck`"),
    (dict(shuffle_pile=True, shuffle_on_loop=True), "`shuffle_pile`"),
    (dict(end="never"), "`end`"),
    (dict(max_cards=-5), "`max_cards`"),
    (dict(shuffle="sometimes"), "The keyword `shuffle` names no rule option"),
])
def test_build_rules_names_the_bad_control(values, name):
    with pytest.raises(ValueError, match=name):
        build_rules(**values)


@pytest.mark.parametrize("games, seed, name", [(20_000_000, 1, "`games`.*20,000,000 was typed"), (99, 1, "`games`"),
                                               (1000, -1, "`seed`"), (True, 1, "`games`")])
def test_check_sample_refuses_in_words(games, seed, name):
    with pytest.raises(ValueError, match=name):
        check_sample(games, seed)
    assert check_sample(GAMES_RANGE[1], 0) == (GAMES_RANGE[1], 0)


def test_a_custom_deck_is_labelled_once():
    assert bs.Rules(deck=bs.Deck(10, 2, 0, 0, 0)).name == "10/2/0/0/0 deck"
    assert bs.Rules(deck="italian").name == "italian deck"


def _dealt(hands):
    """The cards of a deal in the order they were dealt (one at a time round the table)."""
    return [hand[i] for i in range(max(map(len, hands))) for hand in hands if i < len(hand)]


def test_rules_that_keep_the_deck_deal_the_same_games():
    base = bs.Rules(players=3)
    for rules, same in ((bs.Rules(players=3, shuffle_pile=True), True), (bs.Rules(players=3, end="empty"), True),
                        (bs.Rules(players=3, direction="ccw"), True), (bs.Rules(players=3, jokers=1), True),
                        (bs.Rules(players=3, jokers=2, joker_mode="beggar"), True),
                        (bs.Rules(players=3, deck="italian"), False)):
        assert shares_deals(rules, base) is same
        # jokers are slipped into the same deal (RULES_VERSION 3): without them, the cards come in the same order
        dealt = [[c for c in _dealt(random_deal(7, g, rules)[0]) if c != 5] == _dealt(random_deal(7, g, base)[0])
                 for g in range(20)]
        assert all(dealt) if same else not any(dealt)
    assert not shares_deals(bs.Rules(players=2), base)


# -- the comparison with the standard game, against values worked out by hand -------------------------

SAME_DEALS = (bs.Rules(shuffle_pile=True), bs.Rules())  # rules that deal the standard game's cards


def test_paired_comparison_by_hand():
    # 40 deals: lengths x of the chosen rules, y of the standard game; the last deal loops under the chosen rules
    rng = np.random.default_rng(5)
    y = rng.integers(100, 400, 40)
    x = y + rng.integers(-30, 31, 40)
    variant = frame(list(x), [int(v) for v in rng.integers(0, 2, 40)][:-1] + [None])
    standard = frame(list(y), [int(v) for v in rng.integers(0, 2, 40)])
    out = compare_with_standard(variant, standard, *SAME_DEALS).set_index("metric")
    m = out.loc["mean_length_diff"]
    assert m.n == 39 and m.design == "paired" and m.interval == "paired t"  # the loop (game 39) has no length
    t = stats.ttest_rel(x[:39], y[:39])
    ci = t.confidence_interval(0.95)
    assert m.estimate == pytest.approx(np.mean(x[:39] - y[:39]))
    assert (m.low, m.high, m.p_value) == pytest.approx((ci.low, ci.high, t.pvalue))
    assert (m.value, m.baseline_value) == pytest.approx((x[:39].mean(), y[:39].mean()))
    assert m.pairs_needed == pytest.approx(28 + 25 * stats.skew(x[:39] - y[:39]) ** 2)
    # seat 0 won under one rule only: Tango's score interval for paired proportions, over the same 39 pairs
    from beggarstats.run.paired_props import paired_proportion_test, tango_interval

    wa = variant["winner"].to_numpy(dtype=float, na_value=np.nan)[:39] == 0
    wb = standard["winner"].to_numpy(dtype=float, na_value=np.nan)[:39] == 0
    k, l = int(np.sum(wa & ~wb)), int(np.sum(~wa & wb))
    w = out.loc["seat0_win_diff"]
    assert w.n == 39 and w.estimate == pytest.approx((k - l) / 39) and w.interval == "Tango score"
    assert (w.low, w.high) == pytest.approx(tango_interval(k, l, 39))
    assert w.p_value == pytest.approx(paired_proportion_test(k, l))
    assert (w.value, w.baseline_value) == pytest.approx((wa.mean(), wb.mean()))
    # Holm over the two rows
    low, high = sorted([m.p_value, w.p_value])
    assert sorted([m.p_holm, w.p_holm]) == pytest.approx([min(2 * low, 1), min(max(2 * low, high), 1)])
    shown = readable_comparison(out.reset_index()).set_index("chosen minus standard")
    assert shown.loc["mean length (cards)", "p (Holm)"] == f"{fmt_p(m.p_value)} ({fmt_p(m.p_holm)})"
    assert shown.loc["seat 0 win rate (pp)", "estimate"] == f"{100 * w.estimate:.2f}"
    assert shown.loc["seat 0 win rate (pp)", "chosen"] == f"{100 * wa.mean():.2f}%"


def test_too_few_pairs_for_their_skewness_give_no_interval():
    # lengths 10 12 15 20 vs 8 12 11 18: differences 2 0 4 2, mean 2; 4 pairs are fewer than the t interval
    # needs at any skewness (28 + 25 g1^2), so, as `bs.compare` refuses it, the explorer gives none
    variant = frame([10, 12, 15, 20, 7], [0, 1, 0, 0, None])
    standard = frame([8, 12, 11, 18, 9], [0, 0, 1, 1, 0])
    out = compare_with_standard(variant, standard, *SAME_DEALS).set_index("metric")
    m = out.loc["mean_length_diff"]
    assert m.n == 4 and m.estimate == pytest.approx(2.0) and m.interval == "too skewed for the t interval"
    assert np.isnan(m.low) and np.isnan(m.p_value) and m.pairs_needed == pytest.approx(28.0)
    shown = readable_comparison(out.reset_index()).set_index("chosen minus standard")
    assert shown.loc["mean length (cards)", "95% interval"] == "–"
    assert "needs 28 pairs" in shown.loc["mean length (cards)", "verdict"]
    # seat 0 won: 1 0 1 1 vs 1 1 0 0 on the four deals both finished: (2 - 1) / 4
    from beggarstats.run.paired_props import tango_interval

    w = out.loc["seat0_win_diff"]
    assert w.estimate == pytest.approx(0.25) and (w.low, w.high) == pytest.approx(tango_interval(2, 1, 4))


def test_a_rule_that_changes_no_game_is_identical_in_every_pair():
    out = compare_with_standard(frame([5, 6, 7], [0, 1, 0]), frame([5, 6, 7], [0, 1, 0]), *SAME_DEALS)
    out = out.set_index("metric")
    assert (out.loc["mean_length_diff", "low"], out.loc["mean_length_diff", "high"]) == (0.0, 0.0)
    assert out.loc["mean_length_diff", "verdict"] == "identical in every pair"
    assert out.loc["seat0_win_diff", "estimate"] == 0 and out.loc["seat0_win_diff", "p_value"] == 1.0
    shown = readable_comparison(out.reset_index())
    assert list(shown["p (Holm)"]) == ["1 (1)", "1 (1)"]


@pytest.mark.parametrize("controls", [dict(jokers=1), dict(jokers=1, joker_mode="beggar"), dict(shuffle_pile=True)],
                         ids=["super joker", "Beggar joker", "shuffle_pile"])
def test_the_explorer_compares_as_bs_compare(controls):
    # the explorer's paired comparison is `bs.compare`'s, on the same seed and size: every number equal
    rules = bs.Rules(**controls)
    ex = Explorer(games=3000, seed=11, n_jobs=1, panel=False, auto=False)
    ex.set(**controls)
    assert ex.rules == rules
    table = ex.tables["comparison"].set_index("metric")
    m = bs.compare(rules, bs.Rules(), 3000, seed=11)
    assert set(table.design) == {"paired"}
    length, seat0 = table.loc["mean_length_diff"], table.loc["seat0_win_diff"]
    assert (length.n, length.estimate, (length.low, length.high), length.p_value) == \
        (m.pairs, m.mean, m.interval(), m.p_value())
    assert (seat0.n, seat0.estimate, (seat0.low, seat0.high), seat0.p_value) == \
        (m.pairs, m.seat0_diff, m.seat0_interval(), m.seat0_p_value())
    assert length.pairs_needed == m.t_pairs_needed
    if rules.jokers:  # cards played per card dealt, as `beggarstats compare` prints for jokers
        per = table.loc["per_card_dealt_diff"]
        assert (per.estimate, per.low, per.high) == m.per_card_dealt()
    assert "same deals" in ex.comparison_caption() and ("jokers slipped" in ex.comparison_caption()) == bool(rules.jokers)


def test_compare_with_standard_picks_the_design():
    base = bs.Rules()
    standard = bs.simulate(3000, rules=base, seed=3)
    for rules in (bs.Rules(shuffle_pile=True), bs.Rules(jokers=2)):
        games = bs.simulate(3000, rules=rules, seed=3)
        paired = compare_with_standard(games, standard, rules, base)
        assert set(paired.design) == {"paired"} and {"mean_length_diff", "seat0_win_diff"} <= set(paired.metric)
        assert paired.n.iloc[0] == ((games.outcome == "win") & (standard.outcome == "win")).sum()
    italian = bs.Rules(deck="italian")
    other = compare_with_standard(bs.simulate(3000, rules=italian, seed=3), standard, italian, base)
    assert set(other.design) == {"independent"} and set(other.interval) == {"Welch t", "Newcombe score"}
    m = other.set_index("metric").loc["mean_length_diff"]
    # the Italian deck has 40 cards and no Aces: its games are much shorter (notebook 03)
    assert m.high < 0 and m.estimate == pytest.approx(m.value - m.baseline_value) and m.verdict == "detected"
    with pytest.raises(ValueError, match="`games` and `baseline`"):
        compare_with_standard(bs.simulate(3000, rules=bs.Rules(jokers=1), seed=3, start=1), standard,
                              bs.Rules(jokers=1), base)


def test_readable_seats_in_percent():
    seats = pd.DataFrame({"seat": [0, 1], "wins": [1234, 766], "games": [2000, 2000], "rate": [0.617, 0.383],
                          "low": [0.5956, 0.3617], "high": [0.6383, 0.4044], "p_value": [3e-25, 0.04]})
    shown = readable_seats(seats)
    assert list(shown["win rate %"]) == ["61.70", "38.30"]
    assert list(shown["95% interval %"]) == ["[59.56, 63.83]", "[36.17, 40.44]"]
    assert list(shown["p (vs 1/n)"]) == ["< 1e-10", "0.04"] and list(shown["wins"]) == ["1,234", "766"]


# -- the explorer panel, driven from the test --------------------------------------------------------

@pytest.fixture(scope="module")
def explorer():
    return Explorer(games=3000, seed=11, n_jobs=1)


def _non_default(option):
    """A value of a rule option other than its default, valid with the other defaults."""
    if option.kind in ("choice", "deck"):
        return next(c for c in option.choices if c != option.default)
    if option.kind == "flag":
        return not option.default
    return 5000 if option.optional else option.low + 1 if option.default != option.low + 1 else option.low


def test_every_rule_option_is_a_control(explorer):
    # a new field of Rules gets an entry in rule_options(), hence a control: this fails if it has none
    import dataclasses

    standard, back = bs.Rules(), {}
    for option in rule_options():
        assert option.name in explorer.controls, f"rule option {option.name!r} has no control in the explorer"
        value = _non_default(option)
        explorer.set(**back, **{option.name: value})  # one update: the option before back to its default, this one not
        assert explorer.error is None, explorer.error
        got = getattr(explorer.rules, option.name)
        assert (got.name if option.kind == "deck" else got) == value
        assert dataclasses.replace(explorer.rules, **{option.name: getattr(standard, option.name)}) == standard
        back = {option.name: option.default if option.default is not None else 0}
    explorer.set(**back)
    assert explorer.rules == standard
    assert explorer.controls["leader"].options == ("taker", "next")


def test_explorer_starts_on_the_standard_game(explorer):
    assert explorer.rules == bs.Rules() and explorer.error is None
    assert explorer.tables["comparison"].empty
    seats = explorer.tables["seats"]
    assert list(seats.seat) == [0, 1] and seats.wins.sum() == seats.games.iloc[0]
    assert len(explorer.figure.axes) == 2 and explorer.elapsed > 0
    assert "nothing to compare" in explorer.comparison_caption()


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


def test_explorer_says_it_is_running(explorer):
    said = []
    explorer.status.observe(lambda change: said.append(change["new"]), names="value")
    explorer.set(seed=13)
    assert any("running 3,000 games" in s for s in said[:-1])  # said before the answer
    assert "running" not in said[-1] and "seed 13" in said[-1]
    said.clear()
    explorer.set(end="empty")  # a variant with a seed not yet run: its sample and the standard game's
    assert any("running 6,000 games" in s for s in said[:-1])
    explorer.status.unobserve_all()
    explorer.set(seed=11, end="trick")


def test_explorer_compares_a_variant_deal_by_deal(explorer):
    explorer.set(shuffle_pile=True)
    assert explorer.rules == bs.Rules(shuffle_pile=True)
    table = explorer.tables["comparison"]
    assert set(table.design) == {"paired"}
    again = compare_with_standard(bs.simulate(3000, rules=bs.Rules(shuffle_pile=True), seed=11),
                                  bs.simulate(3000, seed=11), bs.Rules(shuffle_pile=True), bs.Rules())
    cols = ["estimate", "low", "high", "n"]
    np.testing.assert_allclose(table[cols].to_numpy(float), again[cols].to_numpy(float), rtol=1e-9)
    assert "same deals" in explorer.comparison_caption()
    shown = explorer.shown["comparison"][1]
    assert list(shown.columns)[:4] == ["chosen minus standard", "estimate", "95% interval", "p (Holm)"]
    assert not any("0.0000" in p or "0.0 " in p for p in shown["p (Holm)"])
    assert set(explorer.tables["lengths"]["sample"]) == {"chosen rules", "standard game"}
    lengths, survival = explorer.figure.axes
    assert len(survival.get_lines()) == 2  # one curve per sample
    assert {t.get_text() for t in lengths.get_legend().get_texts()} == {"chosen rules", "standard game"}
    explorer.set(shuffle_pile=False)
    assert explorer.tables["comparison"].empty


def test_survival_axis_in_percent_one_notation(explorer):
    explorer.set(deck="custom", custom_deck="10/2/0/0/0")  # loops and long games: several powers of ten
    survival = explorer.figure.axes[1]
    explorer.figure.canvas.draw()
    low, high = survival.get_ylim()
    labels = [t.get_text() for t in survival.get_yticklabels()
              if t.get_text() and low <= t.get_position()[1] <= high]
    assert len(labels) >= 2 and all(label.endswith("%") for label in labels), labels
    assert not any("e" in label or "$" in label for label in labels), labels
    assert "%" in survival.get_ylabel()
    explorer.set(deck="standard")


def test_explorer_other_deck_is_independent(explorer):
    explorer.set(deck="custom", custom_deck="10/2/0/0/0")
    assert explorer.rules.deck.counts == (10, 2, 0, 0, 0)
    assert (explorer.games["outcome"] == "loop").any()  # small decks with two Jacks loop often (notebook 04)
    assert set(explorer.tables["comparison"].design) == {"independent"}
    assert "loop" in explorer.status.value
    explorer.set(deck="standard")


def test_explorer_bad_controls_clear_the_last_results(explorer):
    explorer.set(deck="custom", custom_deck="10/2")
    assert "`custom_deck`" in explorer.error and "custom_deck" in explorer.status.value
    assert explorer.games is None and explorer.figure is None and explorer.tables == {} and explorer.shown == {}
    assert explorer.comparison_caption() == ""
    explorer.set(custom_deck="1/1/0/0/0", players=3)  # two cards for three players
    assert "cannot be dealt to 3 players" in explorer.error
    explorer.set(deck="standard", players=2)
    assert explorer.error is None and explorer.rules == bs.Rules() and explorer.figure is not None


def test_explorer_refuses_too_many_games_in_words(explorer):
    before = explorer.updates
    explorer.set(games=20_000_000)
    assert explorer.updates == before  # nothing was run
    assert "20,000,000" in explorer.error and "10,000,000" in explorer.status.value
    assert explorer.controls["games"].value == 20_000_000  # not clamped behind the reader's back
    assert explorer.games is None
    explorer.set(games=3000)
    assert explorer.error is None and len(explorer.games) == 3000


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


def test_replayer_error_clears_the_previous_game():
    rp = Replayer(bs.Rules(), seed=5, game=3)
    rp.load()
    assert rp.result is not None and rp.trick is not None and rp.figure is not None
    rp.game.value = -1
    rp.load()
    assert "`game`" in rp.error and "`game`" in rp.status.value
    assert rp.result is None and rp.trick is None and rp.figure is None and rp.trick_html.value == ""
    assert rp.step.max == 0
    rp.game.value = 3
    rp.load()
    assert rp.error is None and rp.trick["trick"] == 1


def test_replayer_refuses_the_rules_of_a_broken_explorer():
    rp = Replayer(lambda: None)
    rp.load()
    assert "explorer's controls hold no valid rules" in rp.error and rp.result is None


def test_pile_text():
    assert pile_text(((0, 0), (1, 4), (0, 1), (1, 5))) == "0:- 1:A 0:J 1:X"


# -- what a reader sees before running: the panels' pictures (issue #38 item 5) ------------------------

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def _widget_count():
    from ipywidgets.widgets.widget import _instances

    return len(_instances)


def test_explorer_output_is_the_widget_and_its_picture():
    # JupyterLab draws a widget view only in a trusted notebook; in one a reader has just opened it
    # falls back to the safest type of the output: the picture, never the widget's `VBox(children=...`
    ex = Explorer(games=1000, seed=11, n_jobs=1)
    bundle = ex._repr_mimebundle_()
    assert bundle[WIDGET_VIEW]["model_id"] == ex.widget.model_id
    picture = bundle["text/html"]
    assert "bs-explorer-snapshot" in picture and "not the live panel" in picture
    # one button brings the live panel back in JupyterLab: the command of a command-linker button, which
    # JupyterLab's sanitizer keeps in an output it does not trust (tests/report/test_browser.py clicks it)
    assert picture.count("<button class='bs-run-all' data-commandlinker-command='notebook:run-all-cells'") == 1
    assert "2 players, standard: 1,000 games (seed 11)" in picture
    assert picture.count("<img src='data:image/png;base64,") == 1
    assert "win rate %" in picture and "nothing to compare" in picture  # the seat table and the comparison's caption
    assert bundle["text/plain"].startswith("Explorer: 2 players, standard: 1,000 games (seed 11)")
    assert not any("children=" in str(v) for v in bundle.values())
    assert set(ex._repr_mimebundle_(include=["text/html"])) == {"text/html"}
    ex.set(deck="custom", custom_deck="10/2")  # refused: the picture says so and shows no stale figure
    picture = ex.snapshot_html()
    assert "`custom_deck`" in picture and "<img" not in picture and "<table" not in picture


def test_a_panel_without_widgets_computes_the_same_and_makes_no_widget():
    live = Explorer(games=1000, seed=11, n_jobs=1, auto=False)
    live.set(shuffle_pile=True)
    before = _widget_count()
    plain = Explorer(games=1000, seed=11, n_jobs=1, panel=False, auto=False)
    assert plain.rules is None and plain.updates == 0  # auto=False: nothing played before `set`
    plain.set(shuffle_pile=True)
    assert _widget_count() == before  # nothing added to a notebook's saved widget state
    assert plain.rules == live.rules and plain.updates == 1
    for key in ("seats", "comparison"):
        pd.testing.assert_frame_equal(plain.tables[key], live.tables[key])
    plain.auto = True
    plain.controls["players"].value = 3  # its plain controls still drive it, as widgets do
    assert plain.rules.players == 3 and plain.updates == 2
    bundle = plain._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle and "3 players, shuffle_pile" in bundle["text/html"]


def test_replayer_output_is_the_widget_and_its_picture():
    rp = Replayer(bs.Rules(), seed=5, game=3)
    bundle = rp._repr_mimebundle_()
    assert bundle[WIDGET_VIEW]["model_id"] == rp.widget.model_id
    assert "game 3 of seed 5; no game played yet" in bundle["text/html"] and "<img" not in bundle["text/html"]
    assert bundle["text/plain"] == "Replayer: game 3 of seed 5, not played yet"
    rp.load()
    picture = rp.snapshot_html()
    assert "bs-replayer-snapshot" in picture and "trick 1 of" in picture and picture.count("<img") == 1
    assert rp._repr_mimebundle_()["text/plain"].startswith("Replayer: ") and "wins after" in repr(rp)


def test_replayer_without_widgets_steps_through_a_loop():
    loop = next(r for r in bs.load_records() if r["outcome"] == "loop")
    before = _widget_count()
    rp = Replayer(bs.Rules(), deal=loop["deal"], panel=False)
    rp.load()
    rp.step.value = rp.result.loop_start_tricks + 1  # the slider's value still steps, without a widget
    assert _widget_count() == before
    assert rp.trick["trick"] == loop["loop_start_tricks"] + 1
    assert "cycle of" in rp.snapshot_html() and WIDGET_VIEW not in rp._repr_mimebundle_()


# -- `beggarstats explore`: what it refuses before serving anything (it serves in tests/report/test_browser.py) --

def _explore(argv, capsys):
    from beggarstats.cli import main

    code = main(["explore", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_explore_without_the_app_extra_says_what_to_install(monkeypatch, capsys):
    import sys

    monkeypatch.setitem(sys.modules, "voila", None)  # as if not installed: import and find_spec fail
    code, out, err = _explore([], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert 'pip install "beggarstats[app]"' in err and "voila" in err and "Traceback" not in err


def test_the_readme_gives_the_address_explore_prints():
    from pathlib import Path

    from beggarstats.cli.explore import DEFAULT_PORT, HOST

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    assert f"http://{HOST}:{DEFAULT_PORT}/?token=" in readme and 'pip install ".[app]"' in readme


def test_explore_refuses_a_busy_port_in_one_line(capsys):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code, out, err = _explore(["--port", str(port)], capsys)
    assert code == 2 and out == "" and err == (f"beggarstats explore: error: --port {port} on 127.0.0.1 is in use "
                                               "(another server?): choose another with --port\n")


@pytest.mark.parametrize("argv, says", [(["--games", "99"], "--games must be a whole number from 100"),
                                        (["--seed", "-1"], "--seed"), (["--jobs", "0"], "--jobs"),
                                        (["--port", "0"], "--port"), (["--port", "x"], "--port")])
def test_explore_refuses_bad_options_before_serving(argv, says, capsys):
    code, out, err = _explore(argv, capsys)
    assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_explore_page_is_made_from_the_package(tmp_path):
    # no file of a source tree: the notebook and the template are written from the installed package
    import json

    import nbformat
    from _notebooks import execute

    from beggarstats.report.explore_app import TEMPLATE, write_app

    path, data = write_app(tmp_path, games=1000, seed=5, n_jobs=1)
    template = data / "voila" / "templates" / TEMPLATE
    assert json.loads((template / "conf.json").read_text()) == {"base_template": "lab"}
    index = (template / "index.html.j2").read_text()
    assert index.startswith("{%- extends 'lab/index.html.j2' -%}") and index.count("cdn.jsdelivr.net") == 2
    nb = nbformat.read(path, as_version=4)
    execute(nb, tmp_path, timeout=300)  # (nbclient's Output widget imitation could stall it: _notebooks.py)
    views = [o["data"][WIDGET_VIEW] for c in nb.cells if c.cell_type == "code" for o in c.outputs
             if WIDGET_VIEW in o.get("data", {})]
    assert len(views) == 2  # the explorer's and the replayer's widget, nothing else shown
    assert not [o for c in nb.cells if c.cell_type == "code" for o in c.outputs if o["output_type"] in ("error", "stream")]
