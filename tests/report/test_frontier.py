"""The long runs made on a GPU (data/frontier/) and what the docs say of them and of the GPU's speed.

The runs are committed data (the GPU is not here): each must hold the CPU run it continues, the
games the GPU added must be distributed as the CPU's, and its longest games must replay on the CPU
to the lengths it lists. docs/gpu.md's block is regenerated and compared; the numbers of
benchmarks/README.md's GPU section are recomputed from benchmarks/gpu-h200.log.
"""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

import beggarstats as bs
from beggarstats.report.frontier import BEGIN, END, frontier_markdown, frontier_summaries

ROOT = Path(__file__).resolve().parents[2]
LOG = (ROOT / "benchmarks" / "gpu-h200.log").read_text()


@pytest.fixture(scope="module")
def runs():
    return frontier_summaries()


def test_each_run_holds_the_cpu_run_it_continues(runs):
    assert sorted(runs) == [2, 3, 4, 5, 6]
    for players, (s, base) in runs.items():
        assert (s.rules, s.seed, s.cap, s.top, s.rules_version) == (base.rules, base.seed, base.cap, base.top,
                                                                    base.rules_version)
        assert s.ranges == ((0, s.n_games),) and s.n_games > 10 * base.n_games
        for mine, theirs in zip(s.cards + s.tricks, base.cards + base.tricks):
            assert mine.size >= theirs.size and np.all(mine[: theirs.size] >= theirs)
        assert np.all(s.wins >= base.wins) and s.outcomes.sum() == s.n_games


def test_the_gpu_games_are_distributed_as_the_cpu_games(runs):
    """The lengths the GPU added against the CPU run's, in 25-card bins (chi-square homogeneity)."""
    for players, (s, base) in runs.items():
        cpu = base.cards[0]
        gpu = s.cards[0][: max(cpu.size, s.cards[0].size)].copy()
        gpu[: cpu.size] -= cpu
        edges = np.r_[np.arange(0, 2000, 25), 10**6]
        binned = [np.add.reduceat(np.pad(h, (0, max(0, edges[-2] + 1 - h.size))), edges[:-1]) for h in (cpu, gpu)]
        table = np.array(binned)
        table = table[:, table.min(axis=0) >= 5]
        p = stats.chi2_contingency(table)[1]
        assert p > 1e-4, (players, p)


def test_the_longest_games_replay_on_the_cpu(runs):
    for players in (2, 4):
        s = runs[players][0]
        for game, cards, tricks, winner in list(zip(s.longest["game"], s.longest["cards"], s.longest["tricks"],
                                                    s.longest["winner"]))[:2]:
            _, r = bs.replay(s.seed, int(game), s.rules, trace=False)
            assert (r.cards, r.tricks, r.winner) == (cards, tricks, winner)


def test_the_doc_block_is_generated_from_the_runs():
    text = (ROOT / "docs" / "gpu.md").read_text()
    block = text[text.index(BEGIN): text.index(END) + len(END)]
    assert block == frontier_markdown()


def test_every_out_of_sample_test_on_the_page_has_the_readme_verdict():
    """#52 item 4: each test of docs/gpu.md's table says whether it rejects at README.md's level, and
    each model's verdict is the rule applied to its tests (it fails where one of them rejects)."""
    from beggarstats.analysis.tail import PASS_LEVEL

    text = (ROOT / "docs" / "gpu.md").read_text()
    block = text[text.index(BEGIN): text.index(END)]
    tests = [row for row in block.splitlines() if re.match(r"\| [\d,]+-[\d,]+ \| (constant|log-linear) hazard", row)]
    assert len(tests) >= 8
    failing = set()
    for row in tests:
        cells = [c.strip() for c in row.strip("|").split("|")]
        p, verdict = float(cells[-2]), cells[-1]
        assert verdict == (f"rejected: the {cells[1]} fails" if p < PASS_LEVEL else "not rejected"), row
        failing |= {cells[1]} if p < PASS_LEVEL else set()
    assert failing == {"constant hazard", "log-linear hazard"}  # p 0.038 and 0.042 at 9.3e10 games: both fail
    models = [row for row in block.splitlines() if re.match(r"\| (geometric|log-linear hazard) \| [\d,]+ \|", row)]
    assert models and all(row.rstrip(" |").split("| ")[-1].startswith("fails (fitted up to 2,500 cards: p 0.038")
                          for row in models)
    assert f"rejects at {PASS_LEVEL:g}" in block and "README.md's rule" in block


def _frontier_rates():
    runs = {int(p): (int(n.replace(",", "")), int(t)) for p, n, t in
            re.findall(r"^(\d) players: ([\d,]+) games \(ids [\d,]+ on\) in (\d+) s", LOG, re.M)}
    return {p: n / t for p, (n, t) in runs.items()}, runs


def test_the_benchmark_prose_is_the_log(runs):
    readme = (ROOT / "benchmarks" / "README.md").read_text()
    section = readme[readme.index("## `gpu.py`"): readme.index("## The other benchmarks")]
    table = section[section.index("```\n") + 4: section.index("\n```")]
    assert table in LOG  # the table is the log's, verbatim
    rate, n = _frontier_rates()
    cpu = float(re.search(r"^2p standard\s+cpu\s+[\d,]+\s+[\d.]+\s+([\d.e+]+)", LOG, re.M).group(1))

    def mean_cards(p):
        h = runs[p][0].cards[0]
        return (h * np.arange(h.size)).sum() / h.sum()

    def e(x):  # 3.0e8, as the prose writes it
        return f"{x:.1e}".replace("e+0", "e")

    share = [rate[p] * mean_cards(p) / (rate[2] * mean_cards(2)) for p in (3, 4, 5, 6)]
    said = [f"{e(rate[2])} two-player games a second ({n[2][0]:,} games in\n{n[2][1]} s)",
            f"{rate[2] / cpu:.0f} times the CPU's 16 cores",
            ", ".join(e(rate[p]) for p in (3, 4, 5)) + f" and {e(rate[6])} games a second",
            f"({min(share):.2f} to {max(share):.2f} of it in the long runs"]
    for phrase in said:
        assert phrase in section, phrase
    assert "identical on every check" in LOG and "DIFF" not in LOG
