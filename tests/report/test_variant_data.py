"""The variant answer (issue #38, item 3): the figure's data, findings.csv, the README, docs/FIGURES.md
and notebook 03 say the same thing on every variant and player count, from the committed paired runs."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.report.findings import family_level, read_findings
from beggarstats.report.findings_prose import _Rows, variant_frame
from beggarstats.report.variant_data import (figure_frame, finding_key, joker_sentence, rule_sentence,
                                             shuffle_sentences, variant_table)
from beggarstats.run.variants import STANDARD_VARIANTS

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def findings():
    return read_findings(ROOT / "figures" / "findings.csv")


@pytest.fixture(scope="module")
def table(findings):
    """The committed runs with the verdicts of the findings' one Holm family."""
    return variant_table(ROOT / "data", findings=findings)


def test_every_variant_and_player_count_is_in_the_committed_runs(table):
    have = set(zip(table["variant"], table["players"]))
    assert have == {(v, p) for v in STANDARD_VARIANTS for p in (2, 3, 4, 5, 6)}
    assert (table["design"] == "paired").all()
    # no superseded run: one row per variant, player count and metric, the shuffle from its large run
    assert not table.duplicated(["variant", "players", "metric"]).any()
    shuffle = table[(table["variant"] == "shuffle_pile") & (table["metric"] == "mean_length_diff")]
    assert (shuffle["pairs"] >= 6_000_000).all()


def test_the_figure_plots_the_table(table):
    drawn = pd.read_csv(ROOT / "figures" / "variant_effects.csv")
    want = figure_frame(table)
    assert list(drawn.columns) == list(want.columns) and len(drawn) == len(want)
    for c in ("estimate", "low", "high", "detectable", "level"):
        np.testing.assert_allclose(drawn[c].to_numpy(float), want[c].to_numpy(float), rtol=1e-5, equal_nan=True)
    assert drawn["verdict"].tolist() == want["verdict"].tolist()


def test_the_figure_says_the_findings_verdicts(table, findings):
    """#52 items 1-2: the figure's filled and open markers are the findings' Holm verdicts (one family),
    its detectable effects are at that family's level, and its crosses are the rows outside it."""
    f = findings.set_index("key")
    runs_alone = variant_table(ROOT / "data")
    for r in table.itertuples(index=False):
        row = f.loc[finding_key(r)]
        if r.verdict == "identical in every pair":
            assert row["test"] == "identical" and np.isnan(row["p_value"]) and np.isnan(row["detectable"])
        elif r.verdict in ("detected", "not detected"):
            assert (r.verdict == "detected") == bool(row["holm_reject"]) and r.level == row["level"]
    assert (table["family"] == family_level(findings)[0]).all()
    assert set(runs_alone["family"]) == {len(runs_alone)}  # the runs alone: Holm over their own rows (compare's)


def test_findings_hold_every_row_of_the_table(table, findings):
    f = findings.set_index("key")
    for r in table.itertuples(index=False):
        key = f"variant_{'len' if r.metric == 'mean_length_diff' else 'seat0'}:{r.variant}:{r.players}p"
        row = f.loc[key]
        assert row["n_games"] == r.pairs and row["design"] == "paired", key
        assert row["estimate"] == pytest.approx(r.estimate, rel=1e-5, abs=1e-12), key
        if np.isfinite(r.low):
            assert (row["low"], row["high"]) == pytest.approx((r.low, r.high), rel=1e-5, abs=1e-12), key
        if np.isfinite(r.detectable):
            assert row["detectable"] == pytest.approx(r.detectable, rel=1e-5), key
            assert row["level"] == pytest.approx(0.05 / r.family, rel=1e-5), key  # the level of the detectable effect
    # every row of the findings that is a variant row comes from the table: nothing superseded is left
    keys = [k for k in f.index if k.startswith(("variant_len:", "variant_seat0:", "shuffle_answer_"))]
    assert len(keys) == len(table)


def test_readme_docs_and_notebook_say_the_same(table, findings):
    from_table = shuffle_sentences(table) + [joker_sentence(table), rule_sentence(table)]
    from_findings = variant_frame(_Rows(findings))
    assert shuffle_sentences(from_findings) + [joker_sentence(from_findings), rule_sentence(from_findings)] == from_table
    readme = (ROOT / "README.md").read_text()
    assert len(shuffle_sentences(table)) == 5  # one sentence a player count
    for sentence in from_table:
        assert sentence in readme, sentence
    import nbformat  # here, not at collection: its import is about 3 s (tests/report/test_notebooks.py)

    nb = nbformat.read(ROOT / "notebooks" / "03_variants.ipynb", as_version=4)
    markdown = [o["data"]["text/markdown"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if "text/markdown" in o.get("data", {})]
    reading = next(m for m in markdown if "Does shuffling the won pile" in m)
    for sentence in from_table:
        assert sentence in reading, sentence
    figures_md = (ROOT / "docs" / "FIGURES.md").read_text()
    for r in table[table["metric"] == "mean_length_diff"].itertuples(index=False):
        assert f"| {r.label} | {r.players} | {r.pairs:,} |" in figures_md, (r.variant, r.players)


def test_every_not_detected_row_has_its_detectable_effect(findings, table):
    rows = findings[findings["key"].str.startswith(("variant_len:", "variant_seat0:"))]
    missed = rows[(rows["holm_reject"] == False) & (rows["test"] == "effect")]  # noqa: E712
    assert len(missed) and missed["detectable"].notna().all() and (missed["detectable"] > 0).all()
    assert np.allclose(missed["level"], family_level(findings)[1], rtol=1e-5)
    # the identical rows are exact statements outside the family: no p-value, no detectable effect
    same = rows[rows["finding"].str.contains("identical in every pair")]
    assert len(same) == (table["verdict"] == "identical in every pair").sum() > 0  # 17 in the committed runs
    assert (same["test"] == "identical").all() and same["p_value"].isna().all() and same["detectable"].isna().all()


def test_seat0_coverage_in_the_docs_is_the_committed_one():
    """#39 item 3: Tango's interval covers the seat-0 difference where few winners change, each side
    of every row is counted, and the docs quote the committed measurement."""
    import re

    from _scripts import load_script
    from statsmodels.stats.proportion import proportion_confint

    script = load_script("data/seat0_coverage.py")
    cov = json.loads((ROOT / "data" / "seat0-coverage.json").read_text())
    doc = (ROOT / "docs" / "FIGURES.md").read_text()
    block = re.search(r"<!-- findings:begin seat0_coverage -->\n(.*?)\n<!-- findings:end seat0_coverage -->", doc,
                      re.S).group(1)
    assert block == script.coverage_text(cov)
    for r in cov["rows"]:
        assert r["samples"] >= 1000 and r["covered"] + r["below"] + r["above"] == r["samples"]
        if r["interval"] == "Tango score":  # covers at least close to its level (Clopper-Pearson upper end)
            assert proportion_confint(r["covered"], r["samples"], method="beta")[1] >= 0.94, r


def test_tango_covers_the_few_discordant_regime_exactly():
    """#52 item 6: between the committed rows (a fraction of a discordant pair at 300 pairs of end=empty,
    hundreds for the joker) lies a regime of 1 to 40 expected discordant pairs, where Tango's exact
    coverage is at least 93% at every split of the changed winners tried; two cases recomputed here,
    and the exact sum checked against a brute-force enumeration of a tiny case."""
    from itertools import product

    from _scripts import load_script

    from beggarstats.run.paired_props import tango_interval

    script = load_script("data/seat0_coverage.py")
    few = json.loads((ROOT / "data" / "seat0-coverage.json").read_text())["few_discordant"]
    rows = few["rows"]
    assert sorted({r["expected_discordant"] for r in rows}) == list(range(1, 41))
    assert {r["split"] for r in rows if not r["own"]} == {0.75, 0.9, 1.0} and sum(r["own"] for r in rows) == 40
    assert all(r["covered"] >= 0.93 and abs(r["covered"] + r["below"] + r["above"] - 1) < 1e-6 for r in rows)
    for lam, split in ((4, 1.0), (1, None)):
        row = next(r for r in rows if r["expected_discordant"] == lam and (r["own"] if split is None else
                                                                          r["split"] == split and not r["own"]))
        q = few["own_split"] if split is None else split
        got = script.exact_coverage(row["pairs"], few["discordant_share"] * q, few["discordant_share"] * (1 - q))
        assert got["covered"] == pytest.approx(row["covered"], abs=1e-7) and got["below"] == pytest.approx(row["below"],
                                                                                                          abs=1e-7)
    # the exact sum against every outcome of 6 pairs, each (first only, second only, neither) enumerated
    pb, pc, n = 0.2, 0.1, 6
    want = 0.0
    for pairs in product((0, 1, 2), repeat=n):
        b, c = pairs.count(0), pairs.count(1)
        low, high = tango_interval(b, c, n)
        want += (pb ** b) * (pc ** c) * ((1 - pb - pc) ** (n - b - c)) * (low <= pb - pc <= high)
    assert script.exact_coverage(n, pb, pc)["covered"] == pytest.approx(want, abs=1e-12)
