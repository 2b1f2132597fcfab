"""The exact atlas in data/census/: every file intact and a census, atlas.csv generated from them, and
the files agree with fresh censuses (whole small decks, ranges of the larger ones)."""

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.analysis.exact import ATLAS_COLUMNS, exact_loop_share, exact_row, exact_table
from beggarstats.engine.census_kernel import play_ranks
from beggarstats.report.atlas import ATLAS_DECKS, atlas_dir, atlas_rules, census_file, deck_markdown, load_atlas
from beggarstats.run.census import census
from beggarstats.engine.cycles import cycle_states
from beggarstats.run.cycles import loop_cycles, seats_in_view
from beggarstats.run.summary import load_summary

pytestmark = pytest.mark.usefixtures("warm_census_kernels")  # runs censuses: their kernels compiled once a session

ON_FILE = [d for d in ATLAS_DECKS if census_file(*d).exists()]


def test_every_deck_of_the_atlas_is_on_file_and_a_census():
    assert ON_FILE == list(ATLAS_DECKS)
    for deck, s in zip(ON_FILE, load_atlas()):  # load_summary checks each file's checksum
        assert s.exact and s.rules == atlas_rules(*deck) and s.ranges == ((0, bs.n_deals(s.rules)),)


def test_the_table_is_generated_from_the_files():
    table = pd.read_csv(atlas_dir() / "atlas.csv")
    assert list(table.columns) == list(ATLAS_COLUMNS)
    summaries = load_atlas()
    want = exact_table(summaries, [len(loop_cycles(s)[1]) if s.outcomes[1] < 200 else int(c)
                                   for s, c in zip(summaries, table["cycles"])])
    pd.testing.assert_frame_equal(table, want, check_dtype=False, rtol=1e-9)


SMALL_DECKS = [d for d in ATLAS_DECKS if bs.n_deals(atlas_rules(*d)) <= 20_000]
LARGE_DECKS = [d for d in ATLAS_DECKS if bs.n_deals(atlas_rules(*d)) > 20_000]


def _small_file_equals_a_fresh_census(deck):
    assert census(atlas_rules(*deck), n_jobs=1) == load_summary(census_file(*deck))


# Every small deck re-censused (150,573 deals) and a range of 20,000 deals of every larger one: about
# 3.5 CPU-seconds once the census kernels are compiled (warm_census_kernels), so every run checks them all.
# They were the slow tier's (every small deck, every fourth larger one), with three small decks and one
# range drawn for the quick tier; what took minutes was the census kernels' compile, done by both workers.
@pytest.mark.parametrize("deck", SMALL_DECKS, ids=lambda d: census_file(*d).stem)
def test_small_files_equal_a_fresh_census(deck):
    _small_file_equals_a_fresh_census(deck)


@pytest.mark.parametrize("deck", LARGE_DECKS, ids=lambda d: census_file(*d).stem)
def test_large_files_agree_with_a_range_re_census(deck):
    _large_file_agrees_with_a_range_re_census(deck)


def _large_file_agrees_with_a_range_re_census(deck):
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
    with pytest.raises(ValueError, match="`summary` must be a census"):
        exact_row(bs.summarize(10, rules=rules, seed=1, n_jobs=1))
    share = exact_loop_share([census(rules, n_jobs=1)])
    assert share["loop_share"].iloc[0] == row["loop_share"] and share["design"].iloc[0] == "census"


def test_readme_numbers_come_from_the_atlas():
    """Every number of README's census section is a fact of the committed censuses (or a deck's counts)."""
    import re
    from pathlib import Path

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Exact answers: every deal of a small deck", 1)[1].split("\n## ", 1)[0]
    half = deck_markdown(2, (18, 2, 2, 2, 2))  # the half deck's row, generated from atlas.csv
    assert half in section
    prose = " ".join(re.sub(r"```.*?```|`[^`]*`", " ", section.replace(half, " "), flags=re.S).split())
    italian = load_summary(census_file(2, (14, 2, 2, 2, 0), "trick"))
    empty = load_summary(census_file(2, (14, 2, 2, 2, 0), "empty"))
    lengths, counts = empty.frequencies("cards", ("win", "loop", "cutoff"))
    _, cycles = loop_cycles(italian)
    two = [d for d in ATLAS_DECKS if d[0] == 2 and len(set(d[1][1:])) == 1]  # the standard family
    facts = {italian.n_games, int(italian.outcomes[1]), int(lengths[np.argmax(counts)]), int(counts.max()),
             int(cycles["tricks"][0]), int(cycles["cards"][0]), len(ON_FILE),
             max(c[0] for _, c, _ in two if c[1] == 1), max(c[0] for _, c, _ in two if c[1] == 2 and c[0] != 18),
             bs.n_deals(bs.Rules(deck=bs.Deck(18, 2, 2, 2, 2))), 95, 2, 8}  # §2, 95%, 08_exact
    runtimes = pd.read_csv(atlas_dir() / "runtimes.csv")
    runs = runtimes[runtimes["file"] == "2p-18-2-2-2-2.json"].set_index("machine")
    for machine in ("quiet", "shared"):  # minutes, to one decimal, in the order wall, CPU
        wall, cpu = (round(runs.loc[machine, c] / 60, 1) for c in ("wall_seconds", "cpu_seconds"))
        assert f"{wall} minutes wall and {cpu} CPU-minutes" in prose
        facts |= {wall, cpu}
    facts |= {int(runs.loc["quiet", "jobs"]), 18}
    assert (runs["deals"] == bs.n_deals(bs.Rules(deck=bs.Deck(18, 2, 2, 2, 2)))).all()
    assert runs.loc["quiet", "wall_seconds"] <= 30 * 60  # issue #22: the half deck within 30 minutes
    assert load_summary(census_file(2, (18, 2, 2, 2, 2), "trick")).outcomes[1] == 0 and "none of them loops" in prose
    assert len(cycles) == 1 and "a single cycle" in prose and bool(cycles["half_swap"][0])
    # three and four players: how far each family goes, and what of the family up to a billion deals is left
    many = [(p, c) for p, c, _ in ATLAS_DECKS if p > 2]
    top_one, top_two = (max(c[0] for p, c in many if c[1] == j) for j in (1, 2))
    assert all((p, (k, j, j, j, j)) in many for p in (3, 4) for j, top in ((1, top_one), (2, top_two))
               for k in range(0 if j == 1 else 2, top + 1))
    facts |= {top_one, top_one + 4, top_two, 3, 4}  # 60 number cards and four penalty cards: 64
    left = [k for k in range(top_two + 1, 15) if bs.n_deals(atlas_rules(3, (k, 2, 2, 2, 2), "trick")) <= 10**9]
    assert bs.n_deals(atlas_rules(3, (15, 2, 2, 2, 2), "trick")) > 10**9 and top_one == 60  # 64 cards: the kernels' limit
    if left:
        sizes = [bs.n_deals(atlas_rules(3, (k, 2, 2, 2, 2), "trick")) for k in left]
        sep = " and " if len(left) == 2 else " to "
        assert f"{left[0]}{sep}{left[-1]} number cards ({sizes[0]:,}{sep}{sizes[-1]:,} deals" in prose
        facts |= {left[0], left[-1], sizes[0], sizes[-1]}
    # past the billion: the two-player decks with two of each beyond it
    past = sorted(c[0] for _, c, _ in two if c[1] == 2 and bs.n_deals(atlas_rules(2, c, "trick")) > 10**9)
    ends = [bs.n_deals(atlas_rules(2, (k, 2, 2, 2, 2), "trick")) for k in (past[0], past[-1])]
    assert past == list(range(past[0], past[-1] + 1)) and past[-1] == max(c[0] for _, c, _ in two if c[1] == 2)
    assert (f"two players with {past[0]} to {past[-1]} number cards ({ends[0]:,} to {ends[1]:,} deals) and three "
            f"and four players with {top_two})") in prose
    facts |= {past[0], past[-1], *ends}
    # the finding: loops of three and four players are two-player cycles (tested deck by deck below)
    loops = {p: int(load_summary(census_file(p, (8, 2, 2, 2, 2), "trick")).outcomes[1]) for p in (2, 3, 4)}
    n8 = bs.n_deals(atlas_rules(2, (8, 2, 2, 2, 2), "trick"))
    assert (f"{loops[2]:,} of the {n8:,} deals of 8 number cards for two players, {loops[3]:,} for three and "
            f"{loops[4]:,} for four") in prose
    facts |= {*loops.values(), n8}
    looping = [k for k in range(2, top_two + 1)
               if any(load_summary(census_file(p, (k, 2, 2, 2, 2), "trick")).outcomes[1] for p in (2, 3, 4))]
    # the last run of decks where no deal loops for two, three or four players, and the deck after it
    again = max(looping)
    quiet = again - 1
    while quiet - 1 >= 2 and quiet - 1 not in looping:
        quiet -= 1
    assert quiet < again - 1
    assert f"With {quiet} to {again - 1} number cards no deal loops, for two, three or four players." in prose
    facts |= {quiet, again - 1}

    def cycles_said(s):  # '2 cycles of 11 tricks (78 cards)': one length of cycle in the deck
        _, table = loop_cycles(s)
        assert table["tricks"].nunique() == 1 and table["cards"].nunique() == 1
        facts.update({len(table), int(table["tricks"][0]), int(table["cards"][0])})
        return len(table), int(table["tricks"][0]), int(table["cards"][0])

    at = {p: load_summary(census_file(p, (again, 2, 2, 2, 2), "trick")) for p in (2, 3, 4)}
    k, t, c = cycles_said(at[2])
    assert (f"With {again} number cards, deals loop again: {int(at[2].outcomes[1])} of its {at[2].n_games:,} deals "
            f"for two players, {int(at[3].outcomes[1])} for three and {int(at[4].outcomes[1])} for four, all in the "
            f"{k} cycles of the two-player game, {t} tricks ({c} cards) each") in prose
    facts |= {again, *(int(s.outcomes[1]) for s in at.values()), at[2].n_games}
    # #52 item 6: what the atlas counts for three and four players (its `cycles` column): the same
    # two-player cycles, told apart by the pair of seats still in the game, every pair of seats
    table = pd.read_csv(atlas_dir() / "atlas.csv")
    counted = {p: int(table[(table["players"] == p) & (table["deck"] == f"{again}/2/2/2/2")
                            & (table["end"] == "trick")]["cycles"].iloc[0]) for p in (3, 4)}
    pairs = {p: p * (p - 1) // 2 for p in (3, 4)}
    for p in (3, 4):
        view = seats_in_view(at[p], at[2])
        assert len(view) == counted[p] == k * pairs[p] and view["in_fewer"].all() and (view["seats_in"] == 2).all()
        first = loop_cycles(at[p])[0].drop_duplicates("cycle")  # a deal reaching each cycle
        seats = {cycle_states(bs.deal_at(int(d.rank), at[p].rules), at[p].rules, int(d.loop_start_tricks),
                              int(d.loop_tricks))[0][1] for d in first.itertuples()}
        assert len(seats) == pairs[p]  # every pair of seats plays them
    assert (f"The atlas counts {counted[3]} and {counted[4]} distinct cycles for three and four players: a cycle there "
            "is also told apart by the seats still in the game, and the same "
            f"{k} cycles are played by each of the {pairs[3]} and {pairs[4]} pairs of seats.") in prose
    facts |= {*counted.values(), *pairs.values()}
    # two players alone beyond it: which decks loop, then the run that does not
    alone = {k: load_summary(census_file(2, (k, 2, 2, 2, 2), "trick")) for k in past if k > top_two}
    looped = [k for k, s in alone.items() if s.outcomes[1]]
    assert len(looped) >= 2 and looped[0] == top_two + 1
    said = [cycles_said(alone[k]) for k in looped]

    def cycles_of(k, t, c):
        return f"{k} cycle{'s' if k != 1 else ''} of {t} tricks, {c} cards"

    def quiet_decks(lo, hi):  # the decks lo..hi, none of whose deals loops: ", with .. not (.. deals)"
        sizes = [alone[k].n_games for k in (lo, hi)]
        facts.update({lo, hi, *sizes})
        if lo == hi:
            return f", with {lo} not ({sizes[0]:,} deals)"
        sep = " and " if hi - lo == 1 else " to "
        return f", with {lo}{sep}{hi} not ({sizes[0]:,}{sep}{sizes[1]:,} deals)"

    first = alone[looped[0]]
    sentence = (f"Two players with {looped[0]} number cards loop too ({int(first.outcomes[1])} deals, "
                f"{cycles_of(*said[0])}), with {looped[0] + 1} to {looped[1] - 1} not (18 is the half deck)")
    facts |= {looped[0], int(first.outcomes[1]), looped[0] + 1, looped[1] - 1}
    for i in range(1, len(looped)):
        if i > 1:  # the decks between two that loop (issue #52 item 7: 21 and 22)
            sentence += quiet_decks(looped[i - 1] + 1, looped[i] - 1)
        last = alone[looped[i]]
        sentence += (f", and with {looped[i]} again ({int(last.outcomes[1])} of its {last.n_games:,} deals, "
                     f"{cycles_of(*said[i])})")
        facts |= {looped[i], int(last.outcomes[1]), last.n_games}
    after = [k for k in past if k > looped[-1]]  # the decks past the last that loops, if any on file
    if after:
        sentence += quiet_decks(after[0], after[-1])
    assert sentence + "." in prose, sentence
    assert looped[0] < 18 < looped[1] and not any(alone[k].outcomes[1] for k in range(looped[0] + 1, looped[1]))
    quoted = {float(x.replace(",", "")) for x in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?!\w)", prose)}
    assert quoted <= {float(f) for f in facts}, sorted(quoted - {float(f) for f in facts})
    assert "(True, 3488400, 16)" in section and italian.exact


def test_the_small_deck_figure_reads_the_exact_shares_where_a_census_exists():
    """`report.figures.small_deck_table`: a deck of the figure with a census on file gets its exact
    share (loops / deals, no interval, design 'census'); the others keep the random games' share."""
    from beggarstats.report.atlas import FIGURE_DECKS
    from beggarstats.report.figures import small_deck_table, small_decks

    decks = small_decks()
    on_file = {c for p, c, end in ATLAS_DECKS if p == 2 and end == "trick"}
    assert {d.counts for _, _, d in decks} - on_file <= {(19, 3, 2, 2, 2), (18, 2, 2, 2, 2)}  # too large, or running
    assert all(d in ATLAS_DECKS for d in FIGURE_DECKS)
    games = pd.DataFrame({"outcome": ["loop", "win", "win", "win"]})  # a stand-in Monte Carlo run: 1 loop in 4
    files = {census_file(2, d.counts, "trick") for _, _, d in decks}
    atlas = {s.rules: s for s in (load_summary(f) for f in files if f.exists())}
    table = small_deck_table([(f, s, d, games) for f, s, d in decks], exact=atlas.values())
    assert len(table) == len(decks)
    for r in table.itertuples():
        s = atlas.get(bs.Rules(deck=r.deck))
        if s is None:
            assert r.design == "sample" and r.rate == 0.25 and r.low < 0.25 < r.high and r.n == 4
        else:
            assert r.design == "census" and r.low == r.rate == r.high == s.outcomes[1] / s.n_games
            assert (r.n, r.loops) == (s.n_games, int(s.outcomes[1]))
    two_j = table[table["family"] == "2 J"].set_index("size")
    assert (two_j.loc[18, "loops"], two_j.loc[18, "n"]) == (49, 153) and two_j.loc[16, "rate"] == 0
    assert small_deck_table([decks[0] + (games,)], exact=[])["design"].tolist() == ["sample"]


def test_the_small_deck_explanation_in_figures_md_is_the_censuses():
    """docs/FIGURES.md's paragraph on the small-deck figure: every number in it is a fact of the
    committed censuses of the figure's decks, and its claims about cycles hold."""
    import re
    from pathlib import Path

    from beggarstats.engine.cycles import cycle_states
    from beggarstats.report.figures import sizes, small_decks
    from beggarstats.report.defaults import DEFAULT_GAMES

    text = (Path(__file__).resolve().parents[2] / "docs" / "FIGURES.md").read_text()
    para = text.split("<!-- census:begin small_deck_cycles -->", 1)[1].split("<!-- census:end small_deck_cycles -->")[0]
    assert "<!-- census:begin small_deck_cycles -->" in text.split("* **Small decks**", 1)[1].split("\n* ", 1)[0]
    prose = " ".join(re.sub(r"`[^`]*`", " ", para).split())
    facts = {2, 3, 6, 95, 100, sizes(DEFAULT_GAMES)["small"]}  # 2 players, thirds, multiple of 6, 95%, the random deals
    census_of = {}
    for family, size, deck in small_decks():
        path = census_file(2, deck.counts, "trick")
        facts.add(size)
        if path.exists():
            census_of[family, size] = load_summary(path)
        else:
            facts.add(bs.n_deals(bs.Rules(deck=deck)))
    assert census_of.keys() >= {(f, s) for f, s, _ in small_decks() if f != small_decks()[0][0]}
    found = {key: loop_cycles(s) for key, s in census_of.items()}
    cycles = {key: table for key, (_, table) in found.items()}
    for family in ("2 J", "1 J + 1 Q"):
        mine = {size: s for (f, size), s in census_of.items() if f == family}
        counts = [len(cycles[family, size]) for size in mine]
        reached = [int(d) for size in mine for d in cycles[family, size]["deals"]]
        facts |= {min(s.n_games for s in mine.values()), max(s.n_games for s in mine.values()), min(counts),
                  max(counts), min(reached), max(reached)}
        zero = sorted(size for size, s in mine.items() if s.outcomes[1] == 0)
        assert ("at " + ", ".join(map(str, zero[:-1])) + f" and {zero[-1]} cards") in prose
        # the 2-trick cycles: at 12, 18 and 24 cards only, with hands of 2/3 and 1/3 of the deck
        two = {}
        for size, s in mine.items():
            deals, table = found[family, size]
            for c in table[table["tricks"] == 2].itertuples():
                row = deals[deals["rank"] == c.first_rank].iloc[0]
                states = cycle_states(bs.deal_at(c.first_rank, s.rules), s.rules, int(row.loop_start_tricks), 2)
                two.setdefault(size, set()).update(tuple(sorted(map(len, st[2]))) for st in states)
        assert two == {n: {(n // 3, 2 * n // 3)} for n in (12, 18, 24)}, two
        facts |= {k for hands in two.values() for pair in hands for k in pair}
    assert "at 12, 18 and 24 cards and at no" in prose and "(8 and 4, 12 and 6, 16 and 8 cards)" in prose
    s18, c18 = census_of["2 J", 18], cycles["2 J", 18]
    facts |= {int(s18.outcomes[1]), s18.n_games, len(c18), *map(int, c18["tricks"])}
    assert (f"{int(s18.outcomes[1])} of the {s18.n_games} deals of the 18-card deck with two Jacks "
            f"({s18.outcomes[1] / s18.n_games:.3%})") in prose
    facts.add(round(100 * s18.outcomes[1] / s18.n_games, 3))
    standard = small_decks()[0][0]
    looping = {size: s for (f, size), s in census_of.items() if f == standard and s.outcomes[1]}
    assert sorted(looping) == [18, 20]
    for size, s in looping.items():
        facts |= {int(s.outcomes[1]), s.n_games, len(cycles[standard, size]), *map(int, cycles[standard, size]["tricks"])}
    quoted = {float(x.replace(",", "")) for x in re.findall(r"(?<![\w.])\d[\d,]*(?:\.\d+)?(?![\w])", prose)}
    assert quoted <= {float(f) for f in facts}, sorted(quoted - {float(f) for f in facts})


def test_the_half_deck_file_agrees_with_a_re_census_of_ranks_in_its_middle():
    """The standard half deck (3,936,933,000 deals, committed data): a census of a few thousand ranks
    in the middle, field by field against the same deals played one by one, and against the file (its
    loops there, and its longest deals: any deal of the range at least as long as the file's shortest
    kept one is among them, and the longest on file plays that long)."""
    rules = atlas_rules(2, (18, 2, 2, 2, 2), "trick")
    on_file = load_summary(census_file(2, (18, 2, 2, 2, 2), "trick"))
    lo = bs.n_deals(rules) // 2 - 1500
    hi = lo + 3000
    part = census(rules, start=lo, stop=hi, n_jobs=1)
    one_by_one = play_ranks(rules, lo, hi)
    assert part.n_games == hi - lo and part.ranges == ((lo, hi),)
    assert part.outcomes.tolist() == np.bincount(one_by_one["outcome"], minlength=3).tolist()
    won = one_by_one["outcome"] == 0
    assert part.wins.tolist() == np.bincount(one_by_one["winner"][won], minlength=2).tolist()
    for measure in ("cards", "tricks"):
        x, c = part.frequencies(measure, ("win",))
        values, counts = np.unique(one_by_one[measure][won], return_counts=True)
        assert x.tolist() == values.tolist() and c.tolist() == counts.tolist()
    inside = (on_file.loops["game"] >= lo) & (on_file.loops["game"] < hi)
    assert part.loops["game"].tolist() == on_file.loops["game"][inside].tolist() == []
    kept = dict(zip(on_file.longest["game"].tolist(), on_file.longest["cards"].tolist()))
    for rank, cards in zip(part.longest["game"].tolist(), part.longest["cards"].tolist()):
        if cards > min(kept.values()):
            assert kept[rank] == cards
    r = int(on_file.longest["game"][0])
    assert play_ranks(rules, r, r + 1)["cards"][0] == on_file.longest["cards"][0]


def test_build_atlas_runs_the_smallest_missing_census_first_and_records_the_large_ones(tmp_path, monkeypatch, capsys):
    """`build_atlas` on a stand-in atlas: the censuses not on file run in order of deal count, the table
    keeps the order of ATLAS_DECKS, a file already there is not recomputed, and each census of at least
    RECORDED_DEALS deals gets a runtimes.csv row (wall and CPU seconds, jobs, machine 'shared')."""
    import beggarstats.report.atlas as atlas

    decks = ((3, (2, 1, 1, 1, 1), "trick"), (2, (1, 1, 1, 1, 1), "trick"), (2, (3, 1, 1, 0, 0), "trick"))
    monkeypatch.setattr(atlas, "ATLAS_DECKS", decks)
    monkeypatch.setattr(atlas, "RECORDED_DEALS", 100)
    census(atlas_rules(*decks[2]), n_jobs=1).save(census_file(*decks[2], root=tmp_path))
    atlas.build_atlas(tmp_path, n_jobs=1)
    ran = [line.split(":")[0] for line in capsys.readouterr().err.splitlines() if line.endswith("s CPU")]
    assert ran == ["2p-1-1-1-1-1.json", "3p-2-1-1-1-1.json"]  # 120 deals before 360; the file on disk kept
    assert [bs.n_deals(atlas_rules(*d)) for d in decks] == [360, 120, 20]
    table = pd.read_csv(tmp_path / "atlas.csv")
    assert list(zip(table["players"], table["numbers"])) == [(3, 2), (2, 1), (2, 3)]
    runtimes = pd.read_csv(tmp_path / "runtimes.csv")
    assert list(runtimes.columns) == list(atlas.RUNTIME_COLUMNS)
    assert runtimes["file"].tolist() == ran and runtimes["deals"].tolist() == [120, 360]
    assert (runtimes["machine"] == "shared").all() and (runtimes["jobs"] == 1).all()
    assert (runtimes["wall_seconds"] >= 0).all() and (runtimes["cpu_seconds"] >= 0).all()
    assert not list(tmp_path.glob(".store-*"))  # each census's store is removed once its file is written
    with pytest.raises(ValueError, match="machine"):
        atlas.record_runtime(dict(runtimes.iloc[0], machine="idle"), tmp_path)
    atlas.record_runtime(dict(runtimes.iloc[0], machine="quiet", wall_seconds=1.5), tmp_path)
    atlas.record_runtime(dict(runtimes.iloc[0], machine="quiet", wall_seconds=2.5), tmp_path)  # replaces its row
    again = pd.read_csv(tmp_path / "runtimes.csv")
    assert again[again["machine"] == "quiet"]["wall_seconds"].tolist() == [2.5] and len(again) == 3


def test_runtimes_cover_every_large_census_of_the_atlas():
    """data/census/runtimes.csv: a row for every census of the atlas with at least 10^8 deals, its deal
    count the census's, and the half deck both on the shared machine and on a quiet one."""
    from beggarstats.report.atlas import RUNTIME_COLUMNS

    runtimes = pd.read_csv(atlas_dir() / "runtimes.csv")
    assert list(runtimes.columns) == list(RUNTIME_COLUMNS)
    assert not runtimes.duplicated(["file", "machine"]).any()
    large = {census_file(*d).name: bs.n_deals(atlas_rules(*d)) for d in ATLAS_DECKS
             if bs.n_deals(atlas_rules(*d)) >= 10**8}
    assert set(large) <= set(runtimes["file"])
    for r in runtimes.itertuples():
        assert r.file in {census_file(*d).name for d in ATLAS_DECKS}
        assert r.deals == bs.n_deals(atlas_rules(*ATLAS_DECKS[[census_file(*d).name for d in ATLAS_DECKS].index(r.file)]))
        assert 0 < r.cpu_seconds <= r.jobs * r.wall_seconds * 1.05 and r.machine in ("quiet", "shared")
    half = runtimes[runtimes["file"] == "2p-18-2-2-2-2.json"]
    assert sorted(half["machine"]) == ["quiet", "shared"]


def test_seats_in_view_finds_a_cycle_of_fewer_players_or_says_it_is_not_one():
    """`run.cycles.seats_in_view` on the 3-player census of 6/2/2/2/2 (108 cycles): against the 2-player
    census of the same deck every cycle is two players left and one of its cycles; against a census of
    only its first 1,000 ranks (no loop) none is; another deck is refused."""
    from beggarstats.run.cycles import seats_in_view

    three, two = (load_summary(census_file(p, (6, 2, 2, 2, 2), "trick")) for p in (3, 2))
    view = seats_in_view(three, two)
    assert len(view) == len(loop_cycles(three)[1]) == 108 and view["deals"].sum() == three.outcomes[1]
    assert (view["seats_in"] == 2).all() and view["in_fewer"].all()
    assert set(view["tricks"]) <= set(loop_cycles(two)[1]["tricks"])
    none = census(two.rules, stop=1000, n_jobs=1)
    assert none.outcomes[1] == 0 and not seats_in_view(three, none)["in_fewer"].any()
    with pytest.raises(ValueError, match="fewer players"):
        seats_in_view(three, load_summary(census_file(2, (7, 2, 2, 2, 2), "trick")))
    with pytest.raises(ValueError, match="`summary` and `fewer` must be two censuses"):
        seats_in_view(three, bs.summarize(10, rules=two.rules, seed=1, n_jobs=1))


MANY = [(p, c) for p, c, end in ON_FILE if p > 2 and c[1:] == (2, 2, 2, 2)]  # all of them (first test)


# The decks of two of each penalty card whose three- or four-player game loops (6 to 11 and 15 number cards)
LOOPING_MANY = sorted({c for p, c in MANY if load_summary(census_file(p, c, "trick")).outcomes[1]})


@pytest.mark.slow  # two decks' cycles walked, 3 and 4 players: about 12 CPU-s
def test_every_loop_of_three_or_four_players_is_a_two_player_cycle(sample_rng):
    """The finding of README's census section: with three or four players and two of each penalty card,
    every never-ending deal is two players looping after the others are out, in a cycle of the
    two-player game of the same deck. Walking every looping deal of all seven decks took 39 CPU-s (a
    quarter of a millisecond a deal, in Python); each run walks two decks drawn afresh, both player counts
    and every cycle of each, so over runs every deck is walked."""
    from beggarstats.run.cycles import seats_in_view

    for i in sorted(sample_rng.choice(len(LOOPING_MANY), 2, replace=False)):
        counts = LOOPING_MANY[i]
        fewer = load_summary(census_file(2, counts, "trick"))
        for players in (3, 4):
            summary = load_summary(census_file(players, counts, "trick"))
            if summary.outcomes[1]:
                view = seats_in_view(summary, fewer)
                assert (view["seats_in"] == 2).all() and view["in_fewer"].all(), (players, counts)


def test_three_and_four_players_loop_only_where_two_do():
    """With two of each penalty card, a 3- or 4-player deck has never-ending deals only if the same deck
    has some for two players (the loops are two-player cycles), for every deck of the atlas."""
    two = {c: load_summary(census_file(2, c, "trick")).outcomes[1] for p, c, _ in ATLAS_DECKS
           if p == 2 and c[1:] == (2, 2, 2, 2)}
    for players, counts in MANY:
        if load_summary(census_file(players, counts, "trick")).outcomes[1]:
            assert two[counts] > 0, (players, counts)
