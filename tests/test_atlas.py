"""The exact atlas in data/census/: every file intact and a census, atlas.csv generated from them, and
the files agree with fresh censuses (whole small decks, ranges of the larger ones)."""

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.analysis.exact import ATLAS_COLUMNS, exact_loop_share, exact_row, exact_table
from beggarstats.engine.census_kernel import play_ranks
from beggarstats.report.atlas import ATLAS_DECKS, ATLAS_DIR, atlas_rules, census_file, load_atlas
from beggarstats.run.census import census
from beggarstats.run.cycles import loop_cycles
from beggarstats.run.summary import load_summary

ON_FILE = [d for d in ATLAS_DECKS if census_file(*d).exists()]


def test_every_deck_of_the_atlas_is_on_file_and_a_census():
    assert ON_FILE == list(ATLAS_DECKS)
    for deck, s in zip(ON_FILE, load_atlas()):  # load_summary checks each file's checksum
        assert s.exact and s.rules == atlas_rules(*deck) and s.ranges == ((0, bs.n_deals(s.rules)),)


def test_the_table_is_generated_from_the_files():
    table = pd.read_csv(ATLAS_DIR / "atlas.csv")
    assert list(table.columns) == list(ATLAS_COLUMNS)
    summaries = load_atlas()
    want = exact_table(summaries, [len(loop_cycles(s)[1]) if s.outcomes[1] < 200 else int(c)
                                   for s, c in zip(summaries, table["cycles"])])
    pd.testing.assert_frame_equal(table, want, check_dtype=False, rtol=1e-9)


@pytest.mark.parametrize("deck", [d for d in ATLAS_DECKS if bs.n_deals(atlas_rules(*d)) <= 20_000],
                         ids=lambda d: census_file(*d).stem)
def test_small_files_equal_a_fresh_census(deck):
    assert census(atlas_rules(*deck), n_jobs=1) == load_summary(census_file(*deck))


@pytest.mark.parametrize("deck", [d for d in ATLAS_DECKS if bs.n_deals(atlas_rules(*d)) > 20_000][::4]
                         + [(2, (14, 2, 2, 2, 0), "trick")], ids=lambda d: census_file(*d).stem)
def test_large_files_agree_with_a_range_re_census(deck):
    rules, on_file = atlas_rules(*deck), load_summary(census_file(*deck))
    n = bs.n_deals(rules)
    lo = n // 3
    hi = min(n, lo + 20_000)
    part = census(rules, start=lo, stop=hi, n_jobs=1)
    inside = (on_file.loops["game"] >= lo) & (on_file.loops["game"] < hi)
    for column in on_file.loops:
        assert part.loops[column].tolist() == on_file.loops[column][inside].tolist()
    longest = on_file.longest["cards"][0]
    assert part.frequencies("cards")[0].max() <= longest
    r = on_file.longest["game"][0]  # the longest deal on file plays that long
    assert play_ranks(rules, r, r + 1)["cards"][0] == longest


def test_exact_row_against_the_deals_played_one_by_one():
    rules = bs.Rules(deck=bs.Deck(4, 1, 1, 1, 0))
    a = play_ranks(rules, 0, bs.n_deals(rules))
    won = a["outcome"] == 0
    row = exact_row(census(rules, n_jobs=1), cycles=0)
    assert row["deals"] == won.size and row["loops"] == int((a["outcome"] == 1).sum())
    assert row["mean_cards"] == pytest.approx(a["cards"][won].mean())
    assert row["sd_cards"] == pytest.approx(a["cards"][won].std())
    assert row["max_cards"] == a["cards"][won].max()
    assert row["longest_rank"] == int(np.flatnonzero(won & (a["cards"] == a["cards"][won].max()))[0])
    assert row["seat0_share"] == pytest.approx((a["winner"] == 0).sum() / (a["winner"] >= 0).sum())
    assert np.isnan(row["seat2_share"]) and row["design"] == "census"
    with pytest.raises(ValueError, match="needs a census"):
        exact_row(bs.summarize(10, rules=rules, seed=1, n_jobs=1))
    share = exact_loop_share([census(rules, n_jobs=1)])
    assert share["loop_share"].iloc[0] == row["loop_share"] and share["design"].iloc[0] == "census"


def test_readme_numbers_come_from_the_atlas():
    """Every number of README's census section is a fact of the committed censuses (or a deck's counts)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    section = readme.split("## Exact answers: every deal of a small deck", 1)[1].split("\n## ", 1)[0]
    prose = re.sub(r"```.*?```|`[^`]*`", " ", section, flags=re.S)
    italian = load_summary(census_file(2, (14, 2, 2, 2, 0), "trick"))
    empty = load_summary(census_file(2, (14, 2, 2, 2, 0), "empty"))
    lengths, counts = empty.frequencies("cards", ("win", "loop", "cutoff"))
    _, cycles = loop_cycles(italian)
    two = [d for d in ATLAS_DECKS if d[0] == 2]
    facts = {italian.n_games, int(italian.outcomes[1]), int(lengths[np.argmax(counts)]), int(counts.max()),
             int(cycles["tricks"][0]), int(cycles["cards"][0]), len(ON_FILE),
             max(c[0] for _, c, _ in two if c[1] == 1), max(c[0] for _, c, _ in two if c[1] == 2),
             bs.n_deals(bs.Rules(deck=bs.Deck(18, 2, 2, 2, 2))), 95, 2, 8}  # §2, 95%, 08_exact
    assert len(cycles) == 1 and "a single cycle" in prose and bool(cycles["half_swap"][0])
    quoted = {int(x.replace(",", "")) for x in re.findall(r"(?<![\w.])\d[\d,]*(?![\w])", prose)}
    assert quoted <= facts, sorted(quoted - facts)
    assert "(True, 3488400, 16)" in section and italian.exact
