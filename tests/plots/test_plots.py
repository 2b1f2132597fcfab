"""Tests of beggarstats.plots: every figure draws what it should (lines, bands, labels) and refuses
bad options by name. Figures are closed after each test."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402
from matplotlib.collections import LineCollection, PolyCollection  # noqa: E402
from matplotlib.container import BarContainer, ErrorbarContainer  # noqa: E402

from beggarstats import analysis as A, plots as P  # noqa: E402
from beggarstats.run.play import play  # noqa: E402
from beggarstats.game.rules import Rules  # noqa: E402

from _frames import reference_frames  # noqa: E402

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"       # Nessler 2022: 8344 cards
NEVER_ENDING = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"  # Casella 2024


@pytest.fixture(autouse=True)
def close_figures():
    yield
    plt.close("all")


@pytest.fixture(scope="module")
def frames():
    g2, s2 = reference_frames(200, Rules(players=2), seed=3)
    g3, s3 = reference_frames(120, Rules(players=3), seed=3, arrow=True)
    gj, _ = reference_frames(120, Rules(players=2, jokers=2), seed=3)
    return pd.concat([g2, g3, gj], ignore_index=True), pd.concat([s2, s3], ignore_index=True)


def legend_texts(ax):
    return [t.get_text() for t in ax.get_legend().get_texts()]


def test_plot_lengths_hist_and_log_ecdf(frames):
    games = frames[0]
    fig = P.plot_lengths(games[games["rules"] == "standard"])
    assert isinstance(fig, plt.Figure) and len(fig.axes) == 1
    ax = fig.axes[0]
    assert legend_texts(ax) == ["2 players", "3 players"]
    assert ax.get_xlabel() == "game length (cards)" and ax.get_yscale() == "linear"
    # whole-number bins with edges on multiples of the width (no aliasing comb); percent on the axis
    fig = P.plot_lengths(games[games["rules"] == "standard"], binwidth=10, cut=300)
    ax = fig.axes[0]
    edges = np.unique(np.concatenate([line.get_xdata() for line in ax.get_lines()] +
                                     [p.get_xy()[:, 0] for p in ax.patches if hasattr(p, "get_xy")]))
    assert len(edges) > 5 and np.allclose(edges % 10, 0)
    assert ax.get_ylabel() == "games per 10-card bin (%)" and ax.get_xlim() == (0, 300)
    longer = (games.loc[games["rules"] == "standard", "cards"] > 300).mean()
    assert any(t.get_text().startswith(f"not shown: {100 * longer:.2g}% of games") for t in ax.texts)
    assert ax.yaxis.get_major_formatter()(0.25, 0) == "25%"
    with pytest.raises(ValueError, match="`binwidth` must be a whole number"):
        P.plot_lengths(games, binwidth=2.5)
    fig = P.plot_lengths(games, kind="ecdf", log=True, measure="tricks")
    ax = fig.axes[0]
    assert len(ax.get_lines()) == 2 and ax.get_yscale() == "log"
    # complementary ECDF: starts at 1 (every game longer than 0) and falls
    y = ax.get_lines()[0].get_ydata()
    assert y.max() == pytest.approx(1) and y.min() < 0.05


def test_plots_draw_on_a_given_axes(frames):
    games, seats = frames
    fig, ax = plt.subplots()
    assert P.plot_lengths(games, ax=ax) is ax
    for draw in (P.plot_survival, P.plot_seat_win_rates):
        _, ax = plt.subplots()
        assert draw(games, ax=ax) is ax
    _, ax = plt.subplots()
    assert P.plot_comebacks(seats, ax=ax, cards=3) is ax


def test_plot_survival_lines_and_bands(frames):
    games = frames[0]
    fig = P.plot_survival(games, style="rules")
    ax = fig.axes[0]
    assert len(ax.get_lines()) == 3                              # (2p, standard), (2p, jokers), (3p, standard)
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == 3
    assert ax.get_yscale() == "log"
    assert set(legend_texts(ax)) == {"2 players, standard", "2 players, 2 jokers (super)", "3 players, standard"}
    km = A.kaplan_meier(games[games["rules"] == "standard"], by="players")
    ax = P.plot_survival(km, ci=False, log=False, ax=plt.subplots()[1])
    assert len(ax.get_lines()) == 2 and not ax.collections
    line = ax.get_lines()[0]
    assert line.get_ydata()[0] == 1 and line.get_xdata()[0] == 0


def test_survival_on_a_log_axis_ends_at_the_last_game_instead_of_falling_to_zero():
    km = pd.DataFrame({"length": [10.0, 20.0, 30.0], "survival": [2 / 3, 1 / 3, 0.0], "low": [0.5, 0.2, 0.0],
                       "high": [0.8, 0.5, 0.0]})
    ax = P.plot_survival(km, hue=None).axes[0]
    line = ax.get_lines()[0]
    assert list(line.get_xdata()) == [0, 10, 20, 30]  # up to the last game's length ...
    assert (line.get_ydata() > 0).all() and line.get_ydata()[-1] == pytest.approx(1 / 3)  # ... never down to 0
    marks = [c for c in ax.collections if not isinstance(c, PolyCollection)]
    assert len(marks) == 1 and marks[0].get_offsets()[0].tolist() == pytest.approx([30, 1 / 3])
    linear = P.plot_survival(km, hue=None, log=False).axes[0].get_lines()[0]
    assert linear.get_ydata()[-1] == 0  # on a linear axis 0 is drawn


def test_plot_seat_win_rates_reference_lines(frames):
    games = frames[0]
    standard = games[games["rules"] == "standard"]
    ax = P.plot_seat_win_rates(standard).axes[0]
    assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 2
    refs = [c for c in ax.collections if isinstance(c, LineCollection) and c.get_linestyle()[0][1] is not None]
    levels = sorted(seg[0][1] for c in refs for seg in c.get_segments())
    assert levels == pytest.approx([1 / 3, 1 / 2])
    assert [t.get_text() for t in ax.get_xticklabels()] == ["0", "1", "2"]
    rates = A.seat_win_rates(standard)
    points = np.concatenate([c.lines[0].get_ydata() for c in ax.containers])
    assert sorted(points) == pytest.approx(sorted(rates["rate"]))


def test_plot_comebacks_bars(frames):
    seats = frames[1]
    ax = P.plot_comebacks(seats).axes[0]
    bars = [c for c in ax.containers if isinstance(c, BarContainer)]
    assert len(bars) == 1 and len(bars[0].patches) == 2
    heights = [p.get_height() for p in bars[0].patches]
    assert heights == pytest.approx(A.comebacks(seats)["rate"].tolist())
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2 players", "3 players"]
    assert ax.get_ylabel() == "comebacks (% of decided games)"


def test_plot_variant_effects_forest(frames):
    games = frames[0]
    pass_through = A.compare_variants(games[games["players"] == 2])
    fig = P.plot_variant_effects(games[games["players"] == 2])
    assert len(fig.axes) == 3
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == ["2 jokers (super) (2p)"]  # y shared
    assert [len(ax.containers) for ax in fig.axes] == [1, 1, 1]
    refs = [ax.get_lines()[-1].get_xdata()[0] for ax in fig.axes]
    assert refs == [0.0, 1.0, 0.0]
    # jokers are slipped into the same deals (RULES_VERSION 3): a paired comparison, a filled circle;
    # its numbers beside it
    assert (pass_through["design"] == "paired").all()
    row = pass_through.set_index("metric").loc["seat0_win_diff"]
    first = fig.axes[2]
    dot = [line for line in first.get_lines() if line.get_marker() == "o" and len(line.get_xdata())][0]
    assert dot.get_xdata()[0] == pytest.approx(100 * row["estimate"])   # percentage points
    assert first.texts[0].get_text() == f"{100 * row['estimate']:+.2f} [{100 * row['low']:+.2f}, {100 * row['high']:+.2f}]"
    assert "percentage points" in first.get_xlabel()
    ax = P.plot_variant_effects(pass_through, metric="mean_length_ratio", ax=plt.subplots()[1])
    assert "ratio of mean lengths, vs standard" == ax.get_xlabel()


def test_plot_hand_strength_curves(frames):
    seats = frames[1]
    ax = P.plot_hand_strength(seats).axes[0]
    assert len(ax.get_lines()) == 2                       # one curve per player count
    assert sum(isinstance(c, PolyCollection) for c in ax.collections) == 2
    assert legend_texts(ax) == ["2 players", "3 players"]
    pred = A.hand_strength_predictions(seats, vary="tribute_total", by="players")
    ax = P.plot_hand_strength(pred, observed=False, ax=plt.subplots()[1])
    assert len(ax.collections) == 2 and ax.get_xlabel().startswith("tribute points dealt to the seat")
    assert ax.get_ylabel() == "probability of winning (%)"


def test_card_count_timeline_of_the_record_game():
    result = play(RECORD, trace=True)
    tricks, cards, sizes = P.hand_size_table(result.trace)
    assert sizes[0].tolist() == [26, 26] and (sizes.sum(axis=1) == 52).all()   # no pile at a boundary
    assert cards[-1] == 8344 and tricks[-1] == 1164
    ax = P.card_count_timeline(result, x="cards").axes[0]
    seat0, seat1 = ax.get_lines()
    assert seat1.get_xdata()[-1] == 8344 and seat1.get_ydata()[-1] == 52 and seat0.get_ydata()[-1] == 0
    assert legend_texts(ax) == ["seat 0", "seat 1"]
    assert len(P.card_count_timeline(result).axes[0].get_lines()[0].get_xdata()) == 1165


def test_record_timeline_stacks_the_hands_and_writes_the_record_facts():
    """#38 item 4: the two seats' lines crossed 1,164 tricks long; now the hands are stacked (at a
    trick boundary they hold the whole deck) with each seat's closest call and the game's facts."""
    result = play(RECORD, trace=True)
    facts = P.timeline_facts(result)
    assert (facts["cards"], facts["tricks"], facts["winner"], facts["deck"]) == (8344, 1164, 1, 52)
    _, _, sizes = P.hand_size_table(result.trace)
    assert facts["fewest"][1][0] == result.min_cards[1] == sizes[:, 1].min()   # the winner's closest call
    assert facts["fewest"][0][0] == sizes[:-1, 0].min() > 0 == result.final_hand_sizes[0]  # the loser's, before the end
    lead = np.sign(sizes[:, 0] - 26)
    lead = lead[lead != 0]
    assert facts["leader_changes"] == np.sum(lead[1:] != lead[:-1])  # a tie keeps the last leader
    seat, run, start = facts["longest_lead"]
    assert (np.sign(sizes[start:start + run, 0] - 26) != (1 if seat == 0 else -1)).sum() == np.sum(
        sizes[start:start + run, 0] == 26)  # led by that seat (or tied) throughout
    fig = P.plot_record_timeline(result)
    ax = fig.axes[0]
    bands = [c for c in ax.collections if isinstance(c, PolyCollection)]
    assert len(bands) == 2 and ax.get_ylim() == (0, 52)       # stacked bands, not two tangled lines
    said = ax.get_legend().get_title().get_text()
    assert said.startswith("8,344 cards, 1,164 tricks; seat 1 wins") and f"{facts['leader_changes']} times" in said
    notes = [t.get_text() for t in ax.texts]
    assert f"seat 0 down to {facts['fewest'][0][0]} cards\n(after trick {facts['fewest'][0][1]:,})" in notes
    assert all(t.get_fontsize() >= 8 for t in ax.texts)
    assert any(a.get_xlabel() == "cards played" for a in ax.child_axes)  # the second scale on top


def test_loop_cycle_marks_start_and_repeat():
    ax = P.loop_cycle(play(NEVER_ENDING, trace=True)).axes[0]
    marks = [line.get_xdata()[0] for line in ax.get_lines()[2:]]
    assert marks == [4, 66]                                       # RULES.md: cycle from trick 4, repeat at 66
    assert ax.get_title() == "cycle of 62 tricks, 440 cards"
    assert legend_texts(ax)[-2:] == ["cycle starts after trick 4", "state repeats after trick 66"]
    assert ax.get_legend().get_bbox_to_anchor().x0 >= ax.get_window_extent().x1 - 1   # beside the data
    ax = P.loop_cycle(play(NEVER_ENDING, trace=True), x="cards", ax=plt.subplots()[1])
    assert [line.get_xdata()[0] for line in ax.get_lines()[2:]] == [34, 474]
    assert legend_texts(ax)[-2:] == ["cycle starts after 34 cards", "state repeats after 474 cards"]


def test_game_plots_draw_played_games_and_play_none():
    """Plots take results: a deal, a trace or an untraced result is refused, naming `game`."""
    import beggarstats.plots.games as games_module

    assert "play" not in vars(games_module)
    for game in (RECORD, play(RECORD, trace=True).trace):
        for plot in (P.card_count_timeline, P.loop_cycle):
            with pytest.raises(TypeError, match="`game` must be a GameResult played with trace=True"):
                plot(game)
    with pytest.raises(ValueError, match="trace=True"):
        P.card_count_timeline(play(RECORD))


def test_plot_seat_advantage_panels_with_hand_sizes(frames):
    games = frames[0]
    standard = games[games["rules"] == "standard"]
    fig = P.plot_seat_advantage(standard)
    assert [ax.get_title() for ax in fig.axes] == ["2 players", "3 players"]
    three = fig.axes[1]
    assert [t.get_text() for t in three.get_xticklabels()] == ["0\n18", "1\n17", "2\n17"]
    rates = A.seat_win_rates(standard, by="players", n_cards=52)
    rates = rates[rates["players"] == 3]
    filled, hollow = [line for line in three.get_lines() if line.get_marker() == "o"]
    assert filled.get_ydata()[0] == pytest.approx(100 * (rates["rate"].iloc[0] - 1 / 3))   # seat 0, 18 cards
    assert list(hollow.get_xdata()) == [1, 2]
    assert sum(isinstance(c, ErrorbarContainer) for c in three.containers) == 1


def test_plot_first_player_advantage(frames):
    games = frames[0]
    standard = games[games["rules"] == "standard"]
    adv = A.first_player_advantage(standard, by="players")
    ax = P.plot_first_player_advantage(adv).axes[0]
    (bars,) = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
    points = bars.lines[0]
    assert list(points.get_xdata()) == [2, 3]
    assert points.get_ydata() == pytest.approx(100 * adv["advantage"].to_numpy(float))
    low, high = bars.lines[2][0].get_segments()[0][:, 1]                   # the 2-player bar, in pp
    assert (low, high) == pytest.approx((100 * adv["low"].iloc[0], 100 * adv["high"].iloc[0]))
    assert ax.get_lines()[-1].get_ydata()[0] == 0                          # the no-advantage line
    assert [t.get_text() for t in ax.get_xticklabels()] == ["2", "3"] and ax.get_xlabel() == "players"
    # from the games table directly: the same points
    again = P.plot_first_player_advantage(standard, ax=plt.subplots()[1])
    assert list(again.containers[0].lines[0].get_ydata()) == list(points.get_ydata())


def test_plot_hand_strength_panels_share_y_and_one_legend(frames):
    seats = frames[1]
    fig = P.plot_hand_strength_panels(seats, min_seats=5)
    a, b = fig.axes
    assert a.get_xlabel().startswith("aces dealt") and b.get_xlabel().startswith("tribute points dealt")
    assert a.get_shared_y_axes().joined(a, b)
    assert a.get_legend() is not None and b.get_legend() is None
    assert tuple(fig.get_size_inches()) == (11.0, 4.0)
    assert len(P.plot_hand_strength_panels(seats, panels=["aces"]).axes) == 1
    with pytest.raises(ValueError, match="`panels` must name at least one predictor"):
        P.plot_hand_strength_panels(seats, panels=())


def test_plot_hand_strength_check_shows_the_observed_curve_and_the_logistic_s_test(frames):
    """#38 item 4: the figure's title claimed a logistic the data bend away from. Now the observed
    shares carry the figure (dots with Wilson intervals, joined), the logistic is a dashed line, and
    each player count's test of it is in the legend, from `logistic_fit_test`."""
    seats = frames[1]
    fig = P.plot_hand_strength_check(seats, min_seats=5)
    a, b = fig.axes
    assert a.get_shared_y_axes().joined(a, b) and b.get_xlabel().startswith("tribute points dealt")
    for ax, predictor in zip((a, b), ("aces", "tribute_total")):
        tests = fig.tests[predictor]
        cells = A.hand_strength_cells(seats, vary=predictor, min_seats=5)
        assert_frame = A.logistic_fit_test(seats, vary=predictor, min_seats=5)[0]
        pd.testing.assert_frame_equal(tests, assert_frame)
        texts = legend_texts(ax)
        assert len(texts) == len(tests) == 2
        for text, t in zip(texts, tests.itertuples()):
            verdict = "rejected" if t.p_value < 0.05 else "not rejected"
            assert text.startswith(f"{t.players}p: χ² ") and f"on {t.dof} df" in text and text.endswith(f": {verdict}")
        assert "Wald test" in ax.get_legend().get_title().get_text()
        assert all(t.get_fontsize() >= 8 for t in ax.get_legend().get_texts())
        # the observed curve: one errorbar set per player count at the fitted cells, their Wilson bars
        bars = [c for c in ax.containers if isinstance(c, ErrorbarContainer)]
        two = cells[(cells["players"] == 2) & cells["fitted"]]
        assert list(bars[0].lines[0].get_xdata()) == list(two["value"])
        assert list(bars[0].lines[0].get_ydata()) == pytest.approx(two["share"].to_list())
        dashed = [line for line in ax.get_lines() if line.get_linestyle() == "--"]
        assert len(dashed) == 2
    with pytest.raises(ValueError, match="`panels` must name at least one predictor"):
        P.plot_hand_strength_check(seats, panels=())


def test_plot_loop_shares_dodges_families():
    table = pd.DataFrame({"family": ["a", "a", "b", "b"], "size": [8, 10, 8, 10], "rate": [0.1, 0.05, 0.2, 0.0],
                          "low": [0.05, 0.01, 0.1, 0.0], "high": [0.2, 0.1, 0.3, 0.02]})
    ax = P.plot_loop_shares(table, legend_title="penalty cards").axes[0]
    a, b = [c.lines[0] for c in ax.containers]
    assert list(a.get_xdata()) == [7.875, 9.875] and list(b.get_xdata()) == [8.125, 10.125]
    assert list(b.get_ydata()) == pytest.approx([20.0, 0.0])
    assert legend_texts(ax) == ["a", "b"] and ax.get_legend().get_title().get_text() == "penalty cards"
    assert [t.get_text() for t in ax.get_xticklabels()] == ["8", "10"]
    assert a.get_linestyle() == "None"  # one marker per deck: decks of neighbouring sizes are not joined
    with pytest.raises(ValueError, match=r"`data` lacks the column\(s\) \['rate'"):
        P.plot_loop_shares(table.drop(columns="rate"))
    # exact rows (a census): plain filled markers, no interval; sampled ones keep theirs, open
    ax = P.plot_loop_shares(table.assign(design=["census", "sample", "census", "census"])).axes[0]
    assert len(ax.containers) == 1 and list(ax.containers[0].lines[0].get_xdata()) == [9.875]
    assert ax.containers[0].lines[0].get_markerfacecolor() == "white"
    filled = [line for line in ax.lines if line.get_marker() == "o" and line.get_markerfacecolor() != "white"]
    assert sorted(len(line.get_xdata()) for line in filled) == [1, 2]  # 'a' at 8 cards; 'b' at 8 and 10
    assert legend_texts(ax) == ["a", "b"]


def test_plot_loop_shares_on_a_symlog_axis_shows_shares_of_a_millionth():
    """#38 item 4: on a linear axis the J Q K A decks' 4.6e-6 and 1.0e-5 read 0. On the symmetric
    log axis they sit decades above the exact zeros, with their values written beside them, and the
    sampled deck's interval (0 to 3.8e-5) is a capped bar."""
    table = pd.DataFrame({"family": ["a", "a", "a", "b"], "size": [18, 20, 28, 18],
                          "rate": [1.02e-5, 4.59e-6, 0.0, 0.32], "low": [1.02e-5, 4.59e-6, 0.0, 0.32],
                          "high": [1.02e-5, 4.59e-6, 3.84e-5, 0.32], "design": ["census", "census", "sample", "census"]})
    assert P.symlog_threshold(table) == pytest.approx(1e-6)
    assert P.symlog_threshold(table.assign(rate=0.0, high=0.0)) == 1e-3
    ax = P.plot_loop_shares(table, scale="symlog", label_below=1e-3).axes[0]
    assert ax.get_yscale() == "symlog" and ax.yaxis.get_transform().linthresh == pytest.approx(1e-4)  # percent
    ticks = [t.get_text() for t in ax.get_yticklabels()]
    assert ticks[0] == "0 (none)" and ticks[1] == "0.0001%" and ticks[-1] == "100%"
    # the small shares lie in the log part, apart from 0: at least a third of a decade above the threshold
    to_axes = ax.transScale.transform
    zero, small, threshold = (to_axes([(0, v)])[0][1] for v in (0.0, 100 * 4.59e-6, 1e-4))
    assert small - threshold > 0.3 * (to_axes([(0, 1e-3)])[0][1] - threshold) and threshold > zero
    assert sorted(t.get_text() for t in ax.texts) == ["0.000459%", "0.00102%"]  # 'b' at 32% is not labelled
    assert all(t.get_fontsize() >= 8 for t in ax.texts)
    (bar,) = ax.containers
    assert len(bar.lines[1]) == 2                                   # caps at both ends of the sampled interval
    assert bar.lines[2][0].get_segments()[0][:, 1] == pytest.approx([0.0, 3.84e-3])
    assert P.plot_loop_shares(table).axes[0].get_yscale() == "linear"  # linear stays the default
    with pytest.raises(ValueError, match="`scale` must be one of"):
        P.plot_loop_shares(table, scale="log")


def test_plot_hazard_bands(frames):
    games = frames[0]
    bands = A.hazard_bands(games[games["rules"] == "standard"], by="players", width=100, min_events=20)
    ax = P.plot_hazard_bands(bands).axes[0]
    assert sum(isinstance(c, ErrorbarContainer) for c in ax.containers) == 2
    two = bands[bands["players"] == 2]
    level = [c for c in ax.collections if isinstance(c, LineCollection) and c.get_linestyle()[0][1] is not None]
    assert level[0].get_segments()[0][0][1] == pytest.approx(two["events"].sum() / two["exposure"].sum())
    assert ax.get_ylabel() == "games ending per card played (%)"
    # a one-rate line whose own test rejects it is not drawn (#38 item 4)
    ax = P.plot_hazard_bands(bands, rejected=(2,)).axes[0]
    dashed = [c for c in ax.collections if isinstance(c, LineCollection) and c.get_linestyle()[0][1] is not None]
    assert len(dashed) == len(level) - 1


def test_plot_survival_marks_the_longest_game_and_the_record(frames):
    games = frames[0]
    ax = P.plot_survival(games[games["rules"] == "standard"], marks={"longest seen": 100, "the record": 10**6}).axes[0]
    texts = [t.get_text() for t in ax.texts]
    assert " longest seen" in texts and "the record →" in texts  # the record lies beyond the axis: named at its edge
    assert any(line.get_xdata()[0] == 100 for line in ax.get_lines() if line.get_linestyle() == ":")


def test_plot_survival_panels_show_the_bulk_linear_and_the_tail_on_a_log_axis(frames):
    """#38 item 4: on the log axis alone 3-6 players could not be told apart; the bulk, on a linear
    axis up to the length by which every curve is down to `bulk`, keeps them apart."""
    games = frames[0]
    standard = games[games["rules"] == "standard"]
    fig = P.plot_survival_panels(standard, marks={"longest seen": 100, "the record": 10**6}, bulk=0.05)
    left, right = fig.axes
    assert left.get_yscale() == "linear" and right.get_yscale() == "log"
    km = A.kaplan_meier(standard, by=["players"])
    end = max(part.loc[part["survival"] <= 0.05, "length"].min() for _, part in km.groupby("players"))
    assert left.get_xlim() == (0, end) and "down to 5%" in left.get_title()
    assert legend_texts(left) == ["2 players", "3 players"] and right.get_legend() is None
    assert "the record →" in [t.get_text() for t in right.texts] and not left.texts
    assert all(t.get_fontsize() >= 8 for t in right.texts)
    with pytest.raises(ValueError, match="`bulk` must be a share"):
        P.plot_survival_panels(standard, bulk=1.5)


def test_plot_errors_name_the_parameter(frames):
    games, seats = frames
    with pytest.raises(ValueError, match=r"`kind` must be one of \['hist', 'ecdf'\], but 'kde'"):
        P.plot_lengths(games, kind="kde")
    with pytest.raises(ValueError, match="`hue` must be a column of the data"):
        P.plot_lengths(games, hue="deck")
    with pytest.raises(ValueError, match="`style` must be a column"):
        P.plot_survival(games, style="deck")
    with pytest.raises(ValueError, match="`metric` must be one of"):
        P.plot_variant_effects(games[games["players"] == 2], metric="median")
    with pytest.raises(ValueError, match="`metric` must name one metric when `ax` is given"):
        P.plot_variant_effects(games[games["players"] == 2], ax=plt.subplots()[1])
    record = play(RECORD, trace=True)
    with pytest.raises(ValueError, match="`x` must be one of"):
        P.card_count_timeline(record, x="turns")
    with pytest.raises(ValueError, match="`game` must be a game that loops"):
        P.loop_cycle(record)
    with pytest.raises(ValueError, match="trace=True"):
        P.loop_cycle(play(NEVER_ENDING))
    with pytest.raises(ValueError, match=r"`data` lacks the column\(s\) \['min_cards'"):
        P.plot_comebacks(seats.drop(columns="min_cards"))


def test_plot_variant_grid_marks_each_verdict():
    table = pd.DataFrame([
        dict(label="a", players=2, metric="mean_length_diff", estimate=-10.0, low=-11.0, high=-9.0, verdict="detected"),
        dict(label="a", players=3, metric="mean_length_diff", estimate=0.1, low=-0.2, high=0.4, verdict="not detected"),
        dict(label="b", players=2, metric="mean_length_diff", estimate=0.0, low=0.0, high=0.0,
             verdict="identical in every pair"),
        dict(label="a", players=2, metric="seat0_win_diff", estimate=0.01, low=0.005, high=0.015, verdict="detected")])
    fig = P.plot_variant_grid(table)
    left, right = fig.axes[:2]
    assert left.get_xscale() == "symlog" and "percentage points" in right.get_xlabel()
    assert [t.get_text() for t in left.get_yticklabels()] == ["b", "a"]  # first variant on top
    from matplotlib.colors import same_color

    def white(line):
        return same_color(line.get_markerfacecolor(), "white")
    filled = [l for l in left.get_lines() if l.get_marker() == "o" and not white(l) and len(l.get_xdata())]
    open_ = [l for l in left.get_lines() if l.get_marker() == "o" and white(l) and len(l.get_xdata())]
    crosses = [l for l in left.get_lines() if l.get_marker() == "x" and len(l.get_xdata())]
    assert [list(l.get_xdata()) for l in filled] == [[-10.0]] and [list(l.get_xdata()) for l in open_] == [[0.1]]
    assert [list(l.get_xdata()) for l in crosses] == [[0.0]]
    assert [p.get_xdata()[0] for p in right.get_lines() if p.get_marker() == "o" and len(p.get_xdata())] == [1.0]
    plt.close(fig)
