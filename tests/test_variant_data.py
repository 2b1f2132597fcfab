"""The variant answer (issue #38, item 3): the figure's data, findings.csv, the README, docs/FIGURES.md
and notebook 03 say the same thing on every variant and player count, from the committed paired runs."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.report.findings import read_findings
from beggarstats.report.findings_prose import _Rows, variant_frame
from beggarstats.report.variant_data import (figure_frame, joker_sentence, rule_sentence, shuffle_sentences,
                                             variant_table)
from beggarstats.run.variants import STANDARD_VARIANTS

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def table():
    return variant_table(ROOT / "data")


@pytest.fixture(scope="module")
def findings():
    return read_findings(ROOT / "figures" / "findings.csv")


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
    for c in ("estimate", "low", "high", "detectable"):
        np.testing.assert_allclose(drawn[c].to_numpy(float), want[c].to_numpy(float), rtol=1e-5, equal_nan=True)
    assert drawn["verdict"].tolist() == want["verdict"].tolist()


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
        assert f"at 0.05/{r.family}" in row["finding"], key  # the level of the detectable effect is named
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
    import nbformat  # here, not at collection: its import is about 3 s (tests/test_notebooks.py)

    nb = nbformat.read(ROOT / "notebooks" / "03_variants.ipynb", as_version=4)
    markdown = [o["data"]["text/markdown"] for c in nb.cells if c.cell_type == "code" for o in c.outputs
                if "text/markdown" in o.get("data", {})]
    reading = next(m for m in markdown if "Does shuffling the won pile" in m)
    for sentence in from_table:
        assert sentence in reading, sentence
    figures_md = (ROOT / "docs" / "FIGURES.md").read_text()
    for r in table[table["metric"] == "mean_length_diff"].itertuples(index=False):
        assert f"| {r.label} | {r.players} | {r.pairs:,} |" in figures_md, (r.variant, r.players)


def test_every_not_detected_row_has_its_detectable_effect(findings):
    rows = findings[findings["key"].str.startswith(("variant_len:", "variant_seat0:"))]
    missed = rows[(rows["holm_reject"] == False) & ~rows["finding"].str.contains("identical in every pair")]  # noqa: E712
    assert missed["detectable"].notna().all() and (missed["detectable"] > 0).all()


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
