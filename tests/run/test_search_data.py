"""The committed search results (data/search/, written by benchmarks/search.py): every deal replays
to its committed figures, the runs agree with their deals, and docs/search.md quotes them."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pandas as pd
import pytest

import beggarstats as bs
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data" / "search"
DOC = ROOT / "docs" / "search.md"
# numbers the hand-written text of docs/search.md may hold besides the published figures
# (data/search/published.csv): player counts, the number, the years of the record and of the loop's paper
ALLOWED = {"0", "1", "2", "3", "4", "5", "6", "26", "2022", "2024"}


def _bench():
    return load_script("benchmarks/search.py")


@pytest.fixture(scope="module")
def runs():
    return json.loads((DATA / "runs.json").read_text())


@pytest.fixture(scope="module")
def deals():
    return pd.read_csv(DATA / "longest.csv", keep_default_na=False, na_values=[""])


def test_every_run_agrees_with_its_deals(runs, deals):
    assert set(deals["run"]) == set(runs)
    for name, r in runs.items():
        mine = deals[deals["run"] == name]
        wins = mine[mine["outcome"] == "win"]
        assert (mine["players"] == r["players"]).all()
        assert set(mine["strategy"]) <= ({"random"} if r["strategy"] == "random" else {"random", "backward"})
        assert r["longest"] == wins["cards"].max() and r["longest_deal"] == wins["deal"].iloc[0]
        assert r["loops"] == (mine["outcome"] == "loop").sum()
        assert r["longest_cpu_seconds"] <= r["cpu_seconds"] + 1
        if r["strategy"] == "random":
            assert r["states"] == 0 and (mine["tricks_back"] == 0).all()


def test_the_top_deal_of_each_run_replays(runs):
    for r in runs.values():
        if r["players"] == 2:  # the two-player ones: the longest and most quoted
            assert bs.play(r["longest_deal"]).cards == r["longest"]


@pytest.mark.slow
def test_every_committed_deal_replays_to_its_figures(deals):
    for row in deals.itertuples():
        g = bs.play(row.deal, bs.Rules(players=row.players))
        winner = None if pd.isna(row.winner) else int(row.winner)
        assert (g.outcome, g.cards, g.tricks, g.winner) == (row.outcome, row.cards, row.tricks, winner), row.deal


@pytest.mark.slow  # about 3 CPU s: the five committed summaries read and their tails fitted
def test_the_docs_quote_the_committed_data():
    bench = _bench()
    text = DOC.read_text()
    assert bench.fill_blocks(text, bench.blocks(DATA)) == text, "run: python benchmarks/search.py --docs docs/search.md --out data/search"
    assert set(bench.BLOCK.findall(text)) == {"runs", "two", "known", "gains", "hour", "records",
                                              "never"}


def test_no_number_outside_the_generated_blocks():
    published = list(csv.DictReader((DATA / "published.csv").open()))
    allowed = ALLOWED | {f"{int(p['cards']):,}" for p in published}
    text = _bench().BLOCK.sub(" ", DOC.read_text())
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    numbers = re.findall(r"(?<![\w.#])\d[\d,.]*\d|(?<![\w.#])\d(?![\w])", text)
    assert sorted(set(numbers) - allowed) == []
    record = next(r for r in bs.load_records() if r["name"] == "Nessler 2022")
    assert int(next(p for p in published if p["name"] == "Nessler 2022")["cards"]) == record["cards"]


def test_the_gain_figures_are_those_of_their_games():
    gains = load_script("benchmarks/search_gains.py")
    df = pd.read_csv(DATA / "gains.csv", keep_default_na=False)
    committed = json.loads((DATA / "gains.json").read_text())
    fig = gains.figures(df)
    for key in ("games", "K", "K_low", "K_high", "gain_quantiles", "share_longer", "spearman", "states_median",
                "states_max", "overflow"):
        assert fig[key] == pytest.approx(committed[key]), key
    assert (df["found"] == df["cards"] + df["gain"]).all() and (df["cards"] >= committed["min_cards"]).all()
    # every tree searched to its end: none reached the budget of states
    assert (df["states"] < committed["nodes"]).all() and committed["overflow"] == 0


@pytest.mark.parametrize("quick", [pytest.param(True, marks=pytest.mark.share_of("test_the_deals_found_backwards_replay[False]")),
                                   pytest.param(False, marks=pytest.mark.slow)])
def test_the_deals_found_backwards_replay(quick):
    df = pd.read_csv(DATA / "gains.csv", keep_default_na=False)
    found = df[df["gain"] > 0].sort_values("gain", ascending=False)
    for row in (found.head(5) if quick else found).itertuples():
        assert bs.play(row.deal).cards == row.found
    # and the games they came from are the random deals of the table, that long
    from beggarstats.engine.deals import random_deal

    committed = json.loads((DATA / "gains.json").read_text())
    for row in df.head(5).itertuples():
        assert bs.play(bs.format_deal(random_deal(committed["seed"], row.game, bs.Rules())[0])).cards == row.cards


@pytest.fixture(scope="module")
def records_back():
    back = pd.read_csv(DATA / "records_back.csv", keep_default_na=False, na_values=[""])
    for c in ("loop_cards", "longest"):
        back[c] = back[c].astype("Int64")
    return back, pd.read_csv(DATA / "never_ending.csv")


def test_the_published_deals_run_back_as_committed(records_back):
    back, loops = records_back
    again_back, again_loops = _bench().records_back()
    pd.testing.assert_frame_equal(again_back, back, check_dtype=False)
    pd.testing.assert_frame_equal(again_loops, loops, check_dtype=False)
    assert set(back["name"]) == {r["name"] for r in bs.load_records() if r["deck"] == "standard"}
    for r in back[back["longest"].notna()].itertuples():
        assert r.longest > r.cards and bs.play(r.longest_deal).cards == r.longest


def test_a_later_record_is_rebuilt_from_earlier_ones(records_back):
    back, _ = records_back
    anderson = next(r for r in bs.load_records() if r["name"] == "Anderson 2013")
    rebuilt = back[back["longest_deal"] == anderson["deal"]]
    assert set(rebuilt["name"]) == {"Mann and Wu 2007", "Nessler 2012"}
    assert (rebuilt["longest"] == anderson["cards"]).all()


def _cycle(deal):
    """The states of the loop a deal's game enters, each seen from its leader (seats turned)."""
    from beggarstats.engine.backward import loop_path

    path, start = loop_path(bs.parse_deal(deal), 0)
    assert start >= 0
    return {tuple(h[(lead + s) % len(h)] for s in range(len(h))) for h, lead, _ in path[start:]}


def test_the_loop_is_reached_by_as_many_deals_as_published(records_back):
    back, loops = records_back
    casella = next(r for r in bs.load_records() if r["outcome"] == "loop")
    published = next(p for p in csv.DictReader((DATA / "published.csv").open()) if p["name"] == "Casella et al. 2024")
    assert len(set(loops["deal"]) | {casella["deal"]}) == int(published["cards"]) == len(loops) + 1
    cycle = _cycle(casella["deal"])
    assert len(cycle) == casella["loop_tricks"]
    for r in loops.itertuples():
        g = bs.play(r.deal)
        assert (g.outcome, g.cards, g.loop_start_cards, g.loop_cards) == ("loop", r.cards, r.loop_start_cards,
                                                                          casella["loop_cards"])
        assert _cycle(r.deal) == cycle, r.deal  # the very states of the published cycle
