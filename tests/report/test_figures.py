"""`beggarstats figures`: every file written, a sane findings table, the cache reused, bad input refused."""

import importlib

import numpy as np
import pandas as pd
import pytest

from beggarstats.cli import main
from beggarstats.report.figures import FIGURES, PLAYERS, sizes, small_decks
from beggarstats.run.variants import STANDARD_VARIANTS
from beggarstats.report.findings import COLUMNS, read_findings

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

# The module, not the function `beggarstats.run.simulate` that the package exports under the same name.
device_module = importlib.import_module("beggarstats.run.device")

GAMES = "3000"


@pytest.fixture
def engine_calls(monkeypatch):
    """Count the games the batch engine is asked to play."""
    played = []
    real = device_module._batch_engine()

    def counting(rules, seed, ids, **kw):
        played.append(len(ids))
        return real(rules, seed, ids, **kw)

    monkeypatch.setattr(device_module, "_batch_engine", lambda: counting)
    return played


@pytest.fixture(scope="module")
def mpl_agg():
    import matplotlib
    matplotlib.use("Agg")


def run(tmp_path, *extra):
    return main(["figures", "--games", GAMES, "--out", str(tmp_path / "out"), "--jobs", "2", "--no-progress", *extra])


def check_outputs(out):
    """Every figure and the findings of a `run` into ``out``: what each figure rests on, and a sane
    findings table. Returns the table."""
    for name in list(FIGURES) + ["findings.csv", "findings.md"]:
        assert (out / name).stat().st_size > 0, name
    from PIL import Image
    from beggarstats.game.rules import RULES_VERSION
    published = {"record_timeline.png": "Nessler 2022", "never_ending_cycle.png": "Casella 2024"}
    for name in FIGURES:  # every figure says what it rests on, in its metadata (and drawn on it)
        line = Image.open(out / name).text["Description"]
        assert f"RULES_VERSION {RULES_VERSION}, beggarstats " in line, name
        if name in published:  # a published deal replayed: no random game, no seed, no "1 games" (#38 item 4)
            assert line.startswith(f"the published {published[name]} deal, played once, no random draw (no seed), "
                                   "rules: "), line
        else:
            assert "seed 2026, rules: " in line, name
    assert Image.open(out / "survival.png").text["Description"].startswith(f"{int(GAMES):,} (2p) + 375 (3p)")
    table = read_findings(out / "findings.csv")
    assert list(table.columns) == list(COLUMNS)
    names = list(table["finding"])
    assert names[0] == "2-player first-player (seat 0) win rate"
    for p in PLAYERS:
        assert f"mean length (cards), {p} players" in names
        assert f"tail decay rate per card (beyond the median), {p} players" in names
        assert f"comeback rate (winner once <= 25% of hand), {p} players" in names
    effects = table[table["finding"].str.startswith("variant effect on mean length")]
    # the committed paired runs of every variant and player count (report.variant_data), jokers too
    assert len(effects) == len(STANDARD_VARIANTS) * len(PLAYERS) and (effects["design"] == "paired").all()
    assert "variant_len:jokers=1+joker_mode=beggar:2p" in set(effects["key"])
    # every seat of 3-6 players, with its hand size; the seat model's two terms; the tail test
    assert sum(k.startswith("seat_") and "_of_" in k for k in table["key"]) == 3 + 4 + 5 + 6
    assert "win rate - 1/n, seat 0 of 3 players (18 cards dealt)" in names
    assert {"seat_model_seat", "seat_model_extra_card", "tail_constancy_2p", "hazard_2p_band0"} <= set(table["key"])
    # the Holm family: every row that tests an effect, and only those; goodness-of-fit tests keep
    # their own p-value outside it
    tested = table["test"] == "effect"
    assert tested.sum() >= 40 and table.loc[tested, "p_holm"].ge(table.loc[tested, "p_value"]).all()
    assert table.loc[~tested, "holm_reject"].isna().all() and table.loc[~tested, "p_holm"].isna().all()
    fits = table.loc[table["test"] == "fit", "key"]
    assert "seat_model_fit" in set(fits) and table.loc[table["key"].str.startswith("tail_constancy"), "test"].isin(["fit", ""]).all()
    assert table.loc[table["key"].str.startswith("seat_model_"), "test"].tolist() == ["fit", "", ""]
    assert sum(k.startswith("step_") for k in table["key"]) == 2 + 3 + 4 + 5  # adjacent seats of 3-6 players
    # the per-seat runs replay standard games, and the 8-card decks of two families coincide:
    # neither is counted twice
    n = sizes(int(GAMES))
    decks = {d.counts for _, _, d in small_decks()}
    distinct = n["main2"] + 4 * n["main"] + len(decks) * n["small"]
    assert table.set_index("key").loc["run_distinct", "estimate"] == distinct
    loops = [n for n in names if n.startswith("loop share,") and "-card deck" in n]
    assert len(loops) == len(small_decks())  # every plotted deck
    assert table["finding"].is_unique
    est, low, high = (table[c].to_numpy(float) for c in ("estimate", "low", "high"))
    interval = ~np.isnan(low)
    assert np.all(np.isfinite(est)) and np.all(low[interval] <= est[interval]) and np.all(est[interval] <= high[interval])
    assert set(table.loc[~interval, "unit"]) <= {"games", "chi2", "cards, max", "p"}  # counts, a statistic, the longest game
    assert (table["n_games"] > 0).all()
    assert table.loc[0, "n_games"] <= int(GAMES)
    md = (out / "findings.md").read_text()
    assert md.count("\n") == len(table) + 2 and "Holm p" in md
    return table


@pytest.mark.slow  # the whole figures command twice (about 15 s of CPU); the quick tier runs it once,
# uncached (test_the_progress_bar_counts_every_game_once_and_no_cache_writes_no_store), with the same checks
def test_figures_written_then_loaded_from_the_cache(tmp_path, monkeypatch, engine_calls, mpl_agg, capsys):
    monkeypatch.chdir(tmp_path)  # nothing may be written here
    assert run(tmp_path, "--cache") == 0
    out = tmp_path / "out"
    table = check_outputs(out)
    assert sum(engine_calls) > 0
    first = capsys.readouterr().out
    assert "loaded" not in first and "findings.md" in first  # a new store loads nothing
    assert len(first.splitlines()) <= 5 and str(out) in first  # a short summary saying where, not every finding
    assert list(tmp_path.iterdir()) == [out]

    # Second call: every run comes from the store, nothing is played; same table.
    engine_calls.clear()
    assert run(tmp_path, "--cache") == 0
    assert sum(engine_calls) == 0
    assert "loaded from the run cache" in capsys.readouterr().out
    pd.testing.assert_frame_equal(read_findings(out / "findings.csv"), table)


def test_the_provenance_line_names_games_seed_rules_and_versions():
    from beggarstats.game.rules import RULES_VERSION
    from beggarstats.report.figures import provenance

    line = provenance(4_000_000, 2026, "standard, 2 players")
    assert line.startswith("4,000,000 games, seed 2026, rules: standard, 2 players; ")
    assert f"RULES_VERSION {RULES_VERSION}, beggarstats " in line and "unknown" not in line
    assert provenance("12 decks x 100", 1, "x").startswith("12 decks x 100 games, seed 1")
    assert provenance("700 games in 14 runs", 1, "x").startswith("700 games in 14 runs, seed 1")
    assert provenance(1, 7, "x").startswith("1 game, seed 7")  # not "1 games"
    assert provenance("the published X deal, played once", None, "x").startswith(
        "the published X deal, played once, no random draw (no seed), rules: x; ")


def test_the_hand_strength_figure_does_not_title_a_logistic_fit(monkeypatch, mpl_agg, tmp_path):
    """#38 item 4: the title said "logistic fit" of curves the data bend away from; it now names
    the observed shares first and the logistic as what is tested against them."""
    from _frames import reference_frames
    from beggarstats.game.rules import Rules
    from beggarstats.report import figures

    seen = {}
    monkeypatch.setattr(figures.FigureOut, "save", lambda self, fig, name, *a, **k: seen.setdefault(name, fig))
    seats = pd.concat([reference_frames(150, Rules(players=p), seed=3)[1] for p in (2, 3)], ignore_index=True)
    monkeypatch.setattr(figures, "HAND_MIN_SEATS", 5)
    figures._hands(seats, figures.FigureOut(tmp_path, 1), [])
    title = seen["hand_strength.png"]._suptitle.get_text()
    assert title.startswith("Win probability by the dealt hand: the observed share (dots with 95% Wilson intervals")
    assert "logistic fit" not in title and "where its test rejects it" in title
    assert set(seen["hand_strength.png"].tests) == {"aces", "tribute_total"}


def test_the_small_deck_title_says_what_the_sampled_deck_saw():
    """The sampled deck's interval is a short capped bar at 0 on the figure: its title says the
    deals, the loops seen and the interval's upper end, in the axis' unit (percent)."""
    from beggarstats.report.figures import _sampled_said

    one = pd.DataFrame({"n": [100_000], "loops": [0], "high": [3.8414e-5]})
    assert _sampled_said(one) == "100,000 random deals (0 looped), 95% Wilson interval (capped bar) up to 0.0038%"
    assert _sampled_said(pd.concat([one] * 3)) == "100,000 random deals each, 95% Wilson interval"


def test_the_provenance_footnote_is_legible_at_the_saved_size(tmp_path, mpl_agg):
    """#38 item 4: the footnote was 6 pt; at least 8 pt now, drawn below the axes and wrapped to the
    figure's width, and the saved PNG holds it (the bounding box grows to include it)."""
    import matplotlib.pyplot as plt
    from PIL import Image
    from beggarstats.report.figures import DPI, FigureOut

    fig, ax = plt.subplots(figsize=(4, 3))
    FigureOut(tmp_path, 5).save(fig, "x.png", "12 decks x 100,000 random games and then some more words", "r")
    (note,) = [t for t in fig.texts if "seed 5," in t.get_text().replace("\n", " ")]
    assert note.get_fontsize() >= 8
    lines = note.get_text().splitlines()
    assert len(lines) >= 2 and max(map(len, lines)) <= 4 * 16  # wrapped: 16 characters an inch
    width, height = Image.open(tmp_path / "x.png").size
    assert height > 3 * DPI  # the saved area grew below the axes to hold the footnote


@pytest.mark.parametrize("argv, message", [
    (["--games", "0"], "--games must be a whole number >= 1"),
    (["--games", "-5"], "--games must be a whole number >= 1"),
    (["--jobs", "0"], "--jobs must be"),
    (["--seed", "-1"], "--seed must be"),
])
def test_bad_input_exits_2_with_one_line(argv, message, tmp_path, capsys):
    assert main(["figures", "--out", str(tmp_path / "x"), *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err
    assert not (tmp_path / "x").exists()


def test_make_figures_refuses_bad_arguments(tmp_path):
    from beggarstats.report.figures import make_figures

    with pytest.raises(ValueError, match="`games`"):
        make_figures(tmp_path, games=1.5, progress=False)
    with pytest.raises(ValueError, match="`n_jobs`"):
        make_figures(tmp_path, games=10, n_jobs=0, progress=False)


def test_the_progress_bar_counts_every_game_once_and_no_cache_writes_no_store(tmp_path, monkeypatch, mpl_agg,
                                                                             run_cache, capsys):
    """The bar's total is the games of every run and it ends there (a sane rate and time left), not
    a count of steps of very different sizes. Without ``--cache`` (the default) nothing is written
    but the figures: no store, nothing in the working directory. Every figure and the findings are
    checked as after a cached run (`check_outputs`). (One run for all: a figures run costs seconds
    whatever its size.)"""
    from beggarstats.report import figures

    seen = {"done": 0, "labels": []}

    class Spy(figures._Steps):
        def __init__(self, progress, total):
            super().__init__(progress, total)
            seen["total"] = total

        def __call__(self, label, games=0):
            super().__call__(label, games)
            seen["done"] += games
            seen["labels"].append(label)
            assert self.bar.unit == "game" and self.bar.n == seen["done"] <= self.bar.total

        def doing(self, label):
            super().doing(label)
            seen["labels"].append("doing: " + label)
            assert self.bar.postfix.endswith(label)  # shown at once, while the step runs

    monkeypatch.setattr(figures, "_Steps", Spy)
    monkeypatch.chdir(tmp_path)
    assert main(["figures", "--games", GAMES, "--out", "out", "--progress", "--jobs", "2"]) == 0
    assert not (tmp_path / "data").exists() and not any(run_cache.iterdir())
    assert [p.name for p in tmp_path.iterdir()] == ["out"] and (tmp_path / "out" / "findings.md").exists()
    check_outputs(tmp_path / "out")
    said = capsys.readouterr().out
    assert "loaded" not in said and len(said.splitlines()) <= 5 and "findings.md" in said  # a short summary
    n = sizes(int(GAMES))
    assert seen["done"] == seen["total"] == (n["main2"] + 4 * n["main"] + 5 * n["seats"] + len(small_decks()) * n["small"])
    assert seen["labels"][-1] == "findings"
    # the bar says what runs before each analysis step, the long model fits included
    doing = seen["labels"].index("doing: hand strength and seat models: fitting (no games played)")
    assert seen["labels"][doing + 1] == "hands"


def test_the_figures_module_draws_nothing_itself():
    """All drawing is in `beggarstats.plots`: figures.py computes, calls the plots, titles and saves."""
    import ast
    from pathlib import Path

    import beggarstats.report.figures as figures_module

    tree = ast.parse(Path(figures_module.__file__).read_text())
    drawing = {"subplots", "figure", "errorbar", "plot", "scatter", "bar", "hist", "fill_between", "axhline",
               "axvline", "hlines", "set_xticks", "set_xlabel", "set_ylabel", "legend", "step", "axvspan"}
    calls = sorted({node.func.attr for node in ast.walk(tree)
                    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)} & drawing)
    assert calls == []


def test_the_command_lines_defaults_pass_the_checks_and_a_missing_seed_is_named():
    """`beggarstats figures` as the README's quick start runs it, with no --jobs: its default (None,
    one core, as every batch function's n_jobs) is accepted; only a missing seed is refused."""
    from beggarstats.cli import build_parser
    from beggarstats.report.figures import check_figures

    args = build_parser("figures").parse_args(["figures"])
    assert args.jobs is None
    check_figures(args.games, args.seed, args.jobs)  # raised "must be whole numbers ... None" before
    with pytest.raises(ValueError, match="`seed`"):
        check_figures(args.games, None, args.jobs)
