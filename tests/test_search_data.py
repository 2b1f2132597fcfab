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

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "data" / "search"
DOC = ROOT / "docs" / "search.md"
# numbers the hand-written text of docs/search.md may hold besides the published figures
# (data/search/published.csv): player counts, the number, the record's year
ALLOWED = {"0", "1", "2", "3", "4", "5", "6", "26", "2022"}


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
    assert set(bench.BLOCK.findall(text)) == {"runs", "two", "known", "gains", "hour"}


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


@pytest.mark.parametrize("quick", [pytest.param(True), pytest.param(False, marks=pytest.mark.slow)])
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
