"""The tail chain (run/tail_chain.py, analysis/chain.py): its arithmetic by hand, its measurement."""

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.analysis.chain import TailChain, chain_markdown, mixing_test
from beggarstats.analysis.summaries import RECORD_CARDS
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import (ABSORBED, chain_cells, chain_cost, chain_states, load_cells, mixing_sample,
                                         save_cells, state_codes)

ROOT = Path(__file__).resolve().parents[2]


def _one_state_chain():
    """One state: 90 of 100 deals come back to it after 10 cards, 10 end after 5 cards."""
    return TailChain(rules=bs.Rules(), seed=0, horizon=10, n_deals=100, states=((1, 1),), start=0,
                     frm=np.array([0, 0]), to=np.array([0, ABSORBED]), cards=np.array([10, 5]),
                     count=np.array([90, 10]))


def test_decay_rate_and_survival_by_hand():
    ch = _one_state_chain()
    # rho(M(r)) = 0.9 exp(10 r) = 1
    assert ch.decay_rate(replicates=20)["rate"] == pytest.approx(np.log(1 / 0.9) / 10, rel=1e-9)
    # a game lasts 10 k + 5 cards with probability 0.9**k * 0.1: at least 25 cards iff k >= 2
    sv = ch.survival([0, 5, 6, 25, 26, 35], replicates=20)
    assert sv["survival"].tolist() == pytest.approx([1, 1, 0.9, 0.81, 0.729, 0.729])
    assert (sv["low"] <= sv["survival"] + 1e-12).all() and (sv["survival"] <= sv["high"] + 1e-12).all()
    assert ch.quasi_stationary()["share"].tolist() == pytest.approx([1.0])


def test_states_and_codes():
    assert len(chain_states(52, 2)) == 51
    assert len(chain_states(52, 3)) == 1326
    assert chain_states(4, 3) == ((1, 1, 2), (1, 2, 1), (2, 1, 1), (1, 3), (2, 2), (3, 1))
    # a seat out drops out of the state: (3, 0, 2) is the two-player state (3, 2)
    assert state_codes([[3, 0, 2], [3, 2, 0]], 6).tolist() == [3 + 2 * 6, 3 + 2 * 6]


@pytest.mark.slow
def test_measured_the_same_whatever_n_jobs():
    rules = bs.Rules(deck=bs.Deck(numbers=10, jacks=1, queens=1, kings=1, aces=1))
    a = chain_cells(rules, seed=4, n_deals=300, horizon=8, n_jobs=1)
    b = chain_cells(rules, seed=4, n_deals=300, horizon=8, n_jobs=2)
    for key in ("frm", "to", "cards", "count"):
        assert np.array_equal(getattr(a, key), getattr(b, key))
    assert np.bincount(a.frm, weights=a.count).tolist() == [300] * len(a.states)
    part = chain_cells(rules, seed=4, n_deals=300, horizon=8, n_jobs=1, states=[3])
    keep = a.frm == 3
    assert np.array_equal(part.cards, a.cards[keep]) and np.array_equal(part.count, a.count[keep])


@pytest.mark.slow
def test_first_step_is_the_census():
    """Up to the horizon the chain plays nothing but random standard deals, so its survival there is
    the census's exact survival (within sampling error of its deals)."""
    census = load_summary(ROOT / "data/census/2p-24-1-1-1-1.json")
    x, c = census.frequencies("cards", ("win", "loop", "cutoff"))
    ch = bs.tail_chain(census.rules, seed=2, n_deals=20_000, horizon=60, n_jobs=1)
    assert ch.states[ch.start] == (14, 14)
    sv = ch.survival([30, 45, 60], replicates=50)
    exact = np.array([c[x >= L].sum() / census.n_games for L in (30, 45, 60)])
    se = np.sqrt(exact * (1 - exact) / 20_000)
    assert np.all(np.abs(sv["survival"] - exact) < 4 * se + 1e-9)


@pytest.mark.parametrize("kwargs, message", [
    (dict(seed=-1), "`seed`"),
    (dict(seed=1, n_deals=0), "`n_deals`"),
    (dict(seed=1, horizon=0), "`horizon`"),
    (dict(seed=1, rules=bs.Rules(players=5)), "states"),
    (dict(seed=1, rules="standard"), "`rules`"),
])
def test_bad_arguments_are_refused_by_name(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        chain_cells(**kwargs)


@pytest.mark.slow
def test_census_deck_long_games_outlast_the_chain():
    """Validation on a census deck (docs/tail.md): beyond the first transitions the chain's survival
    falls below the exact survival of every deal, well outside its interval - small decks do not
    mix given the hand sizes alone."""
    census = load_summary(ROOT / "data/census/2p-24-1-1-1-1.json")
    x, c = census.frequencies("cards", ("win", "loop", "cutoff"))
    ch = bs.tail_chain(census.rules, seed=2, n_deals=2_000, horizon=30, n_jobs=1)
    sv = ch.survival([200, 300], replicates=20)
    exact = np.array([c[x >= L].sum() / census.n_games for L in (200, 300)])
    assert np.all(sv["high"] < exact / 2)


def _committed(h):
    return load_cells(ROOT / f"data/tail/chain-p2-h{h}.npz")


@pytest.mark.slow
def test_committed_cells_are_their_recomputation():
    cells = _committed(100)
    assert (cells.n_deals, cells.horizon, cells.seed, cells.rules) == (100_000, 100, 2026, bs.Rules())
    assert cells.states[cells.start] == (26, 26)
    again = chain_cells(cells.rules, seed=cells.seed, n_deals=cells.n_deals, horizon=cells.horizon, n_jobs=1,
                        states=[0, 25])
    for k in (0, 25):
        keep = cells.frm == k
        assert np.array_equal(again.to[again.frm == k], cells.to[keep])
        assert np.array_equal(again.cards[again.frm == k], cells.cards[keep])
        assert np.array_equal(again.count[again.frm == k], cells.count[keep])


def test_damaged_cells_are_refused(tmp_path):
    cells = _committed(100)
    path = save_cells(cells, tmp_path / "c.npz")
    assert np.array_equal(load_cells(path).count, cells.count)
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    path.write_bytes(bytes(data))
    with pytest.raises(ValueError, match="damaged"):
        load_cells(path)


def test_results_are_the_committed_chains():
    """data/tail/results.json (quoted by docs/tail.md) against the committed cells and the 10^9-game
    summary: the point rates recomputed, and the verdict: the chain disagrees with the run at every
    horizon, so it gives no record odds."""
    res = json.loads((ROOT / "data/tail/results.json").read_text())
    summary = load_summary(ROOT / "data/summary-p2.json")
    x, c = summary.frequencies("cards", ("win", "loop", "cutoff"))
    for h, row in res["horizons"].items():
        ch = TailChain.from_cells(_committed(int(h)))
        assert ch._rate(ch.count) == pytest.approx(row["rate"][0], rel=1e-9)
        for check in row["checks"]:
            assert check["seen"] == c[x >= check["cards"]].sum()
        assert row["agrees"] == (row["rate"][1] <= res["observed_rate"][2] and res["observed_rate"][1] <= row["rate"][2]
                                 and all(k["within"] for k in row["checks"]))
        assert not row["record_ok"]
    rates = [res["horizons"][h]["rate"][0] for h in ("100", "300", "1000")]
    assert rates[0] > rates[1] > rates[2] > res["observed_rate"][2]  # longer horizons come closer, from above


def _mixing_table():
    sample = pd.read_csv(ROOT / "data/tail/mixing.csv.gz")
    return sample, mixing_test(sample, TailChain.from_cells(_committed(1000)))


def test_tail_page_is_generated_from_the_data():
    """docs/tail.md: its tables are `chain_markdown` of the committed data, and the numbers of its
    prose are the code's (the parameters of the mixing sample, the state counts, the record)."""
    import inspect

    text = (ROOT / "docs/tail.md").read_text()
    block = re.search(r"<!-- tail:begin -->\n(.*?)\n<!-- tail:end -->", text, flags=re.S).group(1)
    res = json.loads((ROOT / "data/tail/results.json").read_text())
    assert block == chain_markdown(res, _mixing_table()[1])
    prose = re.sub(r"<!-- tail(-players)?:begin -->.*?<!-- tail(-players)?:end -->", " ", text, flags=re.S)
    prose = re.sub(r"<!-- tailcards:begin -->.*?<!-- tailcards:end -->", " ", prose, flags=re.S)  # test_chain_cards.py
    prose = re.sub(r"`[^`]*`", " ", prose)
    defaults = {k: v.default for k, v in inspect.signature(mixing_sample).parameters.items()}
    allowed = {f"{len(chain_states(52, 3)):,}", f"{len(chain_states(52, 4)):,}", f"{defaults['first']:,}",
               str(defaults["every"]), str(defaults["tail_gap"]), f"{RECORD_CARDS:,}", "2", "3", "4", "5", "6",
               "1", "0"}
    # the three-to-six-player section (tests/analysis/test_chain_players.py checks its tables)
    allowed |= {f"{chain_cost(bs.Rules(players=p), n_deals=1, horizon=1)['states']:,}" for p in (5, 6)}
    assert set(re.findall(r"\d[\d,.]*\d|\d", prose)) <= allowed


def test_mixing_test_finds_what_the_page_says():
    sample, table = _mixing_table()
    assert table["p_holm"].iloc[:2].min() > 0.05            # one trick ahead: not told apart
    assert table["p_holm"].iloc[2] < 0.05                     # the split: told apart
    assert (table["mde"] > 0).all() and (table["mde"] < 0.2).all()


@pytest.mark.slow
def test_mixing_sample_is_its_recomputation():
    sample, _ = _mixing_table()
    summary = load_summary(ROOT / "data/summary-p2.json")
    again = mixing_sample(summary, seed=2026, points=2)
    real = sample[sample["source"] == "long game"].reset_index(drop=True)
    got = again[again["source"] == "long game"].reset_index(drop=True)
    pd.testing.assert_frame_equal(got, real, check_dtype=False)
    rand = sample[sample["source"] == "random deal"].iloc[:100].reset_index(drop=True)
    pd.testing.assert_frame_equal(again[again["source"] == "random deal"].reset_index(drop=True), rand,
                                  check_dtype=False)
