"""The tail chain for 3-6 players (analysis/chain_players.py, data/tail/results-players.json): its
extension beyond the cards it is run by hand, the refusal of five and six players with their cost,
the committed results against what they come from, and the page generated from them."""

import json
import re
from math import comb
from pathlib import Path

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.analysis.chain import TailChain
from beggarstats.analysis.chain_players import curve_fit_odds, odds_markdown, players_markdown, twice_longest
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import (ABSORBED, BYTES_PER_CELL, CPU_PER_CARD, MAX_STATES, chain_cells, chain_cost,
                                         load_cells)

ROOT = Path(__file__).resolve().parents[2]
RESULTS = ROOT / "data/tail/results-players.json"


def _results():
    return json.loads(RESULTS.read_text())


def _one_state_chain():
    """One state: 90 of 100 deals come back to it after 10 cards, 10 end after 5 cards."""
    return TailChain(rules=bs.Rules(), seed=0, horizon=10, n_deals=100, states=((1, 1),), start=0,
                     frm=np.array([0, 0]), to=np.array([0, ABSORBED]), cards=np.array([10, 5]),
                     count=np.array([90, 10]))


def test_extension_by_hand():
    """Run to 15 cards (S = 0.9: the first return), then the chain's own rate log(1/0.9)/10: at 25, 35
    and 45 cards 0.9**2, 0.9**3, 0.9**4, as the chain run card by card gives."""
    ch = _one_state_chain()
    sv = ch.survival([5, 25, 35, 45], replicates=10, exact_to=15)
    assert sv["survival"].tolist() == pytest.approx([1.0, 0.81, 0.729, 0.6561], rel=1e-9)
    assert ch.survival([25, 35, 45], replicates=10)["survival"].tolist() == pytest.approx([0.81, 0.729, 0.6561])
    with pytest.raises(ValueError, match="`exact_to`"):
        ch.survival([25], exact_to=0)


def test_extension_matches_the_chain_on_the_committed_two_player_chain():
    """The two-player chain of horizon 100 run card by card to 3,000 and 4,000 cards against its
    extension from 1,500 cards: the split has settled, so they agree closely."""
    ch = TailChain.from_cells(load_cells(ROOT / "data/tail/chain-p2-h100.npz"))
    exact = ch._survival_curve(ch.count, [3000, 4000])
    ext = ch._survival_curve(ch.count, [3000, 4000], 1500, ch._point_rate())
    assert ext == pytest.approx(exact, rel=0.01)


def test_committed_extensions_had_settled():
    for key, row in _results()["settling"].items():
        assert row["extended"] == pytest.approx(row["exact"], rel=0.02), key


def test_five_and_six_players_are_refused_with_their_cost():
    five = sum(comb(51, m - 1) for m in range(2, 6))
    six = five + comb(51, 5)
    assert (five, six) == (272_051, 2_621_111)
    for players, states in ((5, five), (6, six)):
        cost = chain_cost(bs.Rules(players=players), n_deals=300, horizon=100)
        assert cost["states"] == states and cost["deals"] == 300 * states and cost["cards"] == 300 * states * 100
        assert cost["cpu_hours"] == pytest.approx(300 * states * 100 * CPU_PER_CARD / 3600)
        assert cost["memory_gb"] == pytest.approx(300 * states * BYTES_PER_CELL / 1e9)
        with pytest.raises(ValueError, match=rf"{states:,} states.*CPU-hours.*GB"):
            chain_cells(bs.Rules(players=players), seed=1, n_deals=300, horizon=100)
    assert chain_cost(bs.Rules(players=4), n_deals=1, horizon=1)["states"] <= MAX_STATES


def test_cost_constants_are_the_measured_ones():
    """CPU_PER_CARD is the four-player chain's CPU time over the cards it played (within a factor of
    two: CPU time on a shared machine), and BYTES_PER_CELL covers its peak memory per cell."""
    res = _results()
    for h, d in res["digests"]["4"].items():
        measured = res["cpu"]["4"][h] / d["cards_played"]
        assert measured / 2 <= CPU_PER_CARD <= measured * 2
        assert res["peak_rss_mb"]["4"][h] * 1e6 / d["cells"] <= BYTES_PER_CELL * 2


def test_results_are_their_sources():
    """Each player count's curve fit recomputed from its summary; the games seen; the verdict of each
    chain; and no odds from a chain that disagrees with its run."""
    res = _results()
    assert sorted(res["players"]) == ["3", "4", "5", "6"]
    for p, entry in res["players"].items():
        summary = load_summary(ROOT / f"data/summary-p{p}.json")
        cf = entry["curve_fit_odds"]
        assert cf["length"] == twice_longest(summary) == 2 * summary.longest["cards"][0]
        again = curve_fit_odds(summary, cf["length"])
        assert again["geometric"] == pytest.approx(cf["geometric"], rel=1e-9)
        assert again["range"] == pytest.approx(cf["range"], rel=1e-9)
        assert cf["range"][0] <= cf["geometric"][1] and cf["geometric"][2] <= cf["range"][1]
        ch = entry.get("chain")
        assert (ch is not None) == (p in ("3", "4"))
        if ch is None:
            assert p in res["refused"]
            continue
        x, c = summary.frequencies("cards", ("win", "loop", "cutoff"))
        obs = ch["observed_rate"]
        for row in ch["horizons"].values():
            for k in row["checks"]:
                assert k["seen"] == c[x >= k["cards"]].sum()
            r = row["rate"]
            assert r[1] <= r[0] <= r[2]
            assert row["agrees"] == (r[1] <= obs[2] and obs[1] <= r[2] and all(k["within"] for k in row["checks"]))
            assert row["record_ok"] == row["agrees"]


def test_committed_chains_are_their_recomputation():
    """The cells the json keeps for a few states of each chain, measured again."""
    res = _results()
    for p, by_h in res["digests"].items():
        n_deals = res["players"][p]["chain"]["horizons"][next(iter(by_h))]["n_deals"]
        for h, d in by_h.items():
            states = [int(s) for s in d["states"]][:1 if p == "4" else 2]
            again = chain_cells(bs.Rules(players=int(p)), seed=res["seed"], n_deals=n_deals, horizon=int(h),
                                n_jobs=1, states=states)
            for s in states:
                keep = again.frm == s
                want = d["states"][str(s)]
                assert again.to[keep].tolist() == want["to"]
                assert again.cards[keep].tolist() == want["cards"]
                assert again.count[keep].tolist() == want["count"]
                assert sum(want["count"]) == n_deals


def test_tail_page_holds_the_generated_tables():
    text = (ROOT / "docs/tail.md").read_text()
    block = re.search(r"<!-- tail-players:begin -->\n(.*?)\n<!-- tail-players:end -->", text, flags=re.S).group(1)
    res = _results()
    assert block == players_markdown(res) + "\n\n" + odds_markdown(res)


def test_the_verdicts_the_page_states():
    """docs/tail.md: every three- and four-player chain decays faster than its run, beyond both
    intervals, so none gives odds; on every census deck the chain falls below the exact survival at
    the longest length compared."""
    res = _results()
    for p in ("3", "4"):
        ch = res["players"][p]["chain"]
        for row in ch["horizons"].values():
            assert row["rate"][1] > ch["observed_rate"][2]
            assert not row["agrees"] and not row["record_ok"]
    for row in res["census"].values():
        assert row["checks"][-1]["high"] < row["checks"][-1]["exact"]
    table = odds_markdown(res)
    assert "its survival (bootstrap interval)" not in table


def test_committed_cost_is_chain_cost():
    """The cost table of docs/tail.md is `chain_cost` at the four-player chain's deals per state and
    horizon (data/tail/make_chain_players.py --refused rewrites it after a change of the constants)."""
    res = _results()
    four = res["players"]["4"]["chain"]["horizons"]
    (h, row), = four.items()
    for p, cost in res["refused"].items():
        assert cost == pytest.approx(chain_cost(bs.Rules(players=int(p)), n_deals=row["n_deals"], horizon=int(h)))
