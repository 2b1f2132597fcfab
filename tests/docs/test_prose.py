"""Numbers in prose cannot go stale: README.md's findings section and docs/FIGURES.md quote only
what figures/findings.csv says, through generated blocks, and hold no other numbers."""

from __future__ import annotations

import re
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from beggarstats.analysis.variants import detectable_effect
from beggarstats.report.findings import finding, findings_frame, read_findings
from beggarstats.report.findings_prose import BLOCKS, block_pattern, render_blocks, stale_blocks, update_prose

ROOT = Path(__file__).resolve().parents[2]

# Numbers the hand-written text may hold: player and seat counts, the confidence level, the
# comeback threshold's quarter, and the years in the names of the two record deals.
ALLOWED = {"0", "1", "2", "3", "4", "5", "6", "95", "25", "2022", "2024"}


@pytest.fixture(scope="module")
def table():
    return read_findings(ROOT / "figures" / "findings.csv")


def test_generated_blocks_match_the_committed_findings(table):
    assert stale_blocks(table, ROOT) == []


def _hand_written(text: str) -> str:
    """The text outside generated blocks, fenced code, inline code and link targets."""
    text = re.sub(r"<!-- findings:begin (\w+) -->.*?<!-- findings:end \1 -->", " ", text, flags=re.S)
    # text checked number by number against the committed censuses (tests/report/test_atlas.py)
    text = re.sub(r"<!-- census:begin (\w+) -->.*?<!-- census:end \1 -->", " ", text, flags=re.S)
    text = re.sub(r"```.*?```", " ", text, flags=re.S)
    text = re.sub(r"`[^`]*`", " ", text)
    text = re.sub(r"\]\([^)]*\)", "]", text)
    return text


def _findings_section(readme: str) -> str:
    return readme.split("### What the figures say", 1)[1].split("\n## ", 1)[0]


@pytest.mark.parametrize("rel", list(BLOCKS))
def test_no_number_outside_the_generated_blocks(rel):
    text = (ROOT / rel).read_text()
    if rel == "README.md":
        text = _findings_section(text)
    numbers = re.findall(r"(?<![\w.])\d[\d,.]*\d|(?<![\w.])\d(?![\w])", _hand_written(text))
    assert sorted(set(numbers) - ALLOWED) == []


def test_the_scan_catches_a_typed_number():
    typed = "Seat 0 wins 49.77% of games <!-- findings:begin x -->12.5<!-- findings:end x --> and `3.14`."
    assert re.findall(r"(?<![\w.])\d[\d,.]*\d|(?<![\w.])\d(?![\w])", _hand_written(typed)) == ["0", "49.77"]


def _toy_table(seat0=0.4977, p_seat0=1e-12):
    """A complete findings table with made-up values (every key the prose reads)."""
    rows = [finding("2-player first-player (seat 0) win rate", seat0, seat0 - 0.0005, seat0 + 0.0005, 4_000_000,
                    "share", key="seat0_rate_2p", null=0.5, p_value=p_seat0),
            finding("finished games longer than the cut", 12, np.nan, np.nan, 6_000_000, "games",
                    key="length_beyond_cut")]
    for p in (2, 3):
        rows += [finding(f"mean length (cards), {p} players", 250.0 + p, 249.0 + p, 251.0 + p, 1000, "cards",
                         key=f"mean_length_{p}p"),
                 finding(f"tail rate, {p} players", 0.0048, 0.0047, 0.0049, 1000, "per card", key=f"tail_rate_{p}p"),
                 finding(f"tail constancy, {p} players", 109.0, np.nan, np.nan, 1000, "chi2",
                         key=f"tail_constancy_{p}p", p_value=1e-9 if p == 2 else 0.4, test="fit"),
                 finding(f"loop share, {p} players", 0.0, 0.0, 1e-6, 1000, "share", key=f"loop_standard_{p}p"),
                 finding(f"comebacks, {p} players", 0.1 + p / 100, 0.09, 0.13, 1000, "share", key=f"comeback_{p}p")]
    rows += [finding("win rate - 1/n, seat 0 of 3 players (18 cards dealt)", 0.0105, 0.009, 0.012, 500, "pp",
                     key="seat_0_of_3p", null=0, p_value=1e-20)]
    rows += [finding("band 0", 0.00486, 0.00485, 0.00487, 100, "per card", key="hazard_2p_band0"),
             finding("band 1", 0.00490, 0.00480, 0.00500, 100, "per card", key="hazard_2p_band1")]
    for rules, design, est, p in (("end=unable", "paired", 0.57, 1e-4), ("shuffle_pile", "paired", 0.1, 0.8)):
        rows += [finding(f"variant effect on mean length (cards): {rules}, 3 players (paired; paired t)", est,
                         est - 0.3, est + 0.3, 1000, "cards diff", key=f"variant_len:{rules}:3p", null=0, p_value=p,
                         design=design, se=0.1),
                 finding(f"variant effect on seat 0's win rate: {rules}, 3 players (paired; Tango score)", 0.001,
                         -0.001, 0.003, 1000, "pp", key=f"variant_seat0:{rules}:3p", null=0, p_value=0.3,
                         design=design, se=0.001)]
    rows += [finding("variant effect on mean length (cards): ccw, 2 players (paired; identical in every pair: exact, "
                     "no test)", 0.0, 0.0, 0.0, 1000, "cards diff", key="variant_len:ccw:2p", null=0, design="paired",
                     test="identical", interval="identical in every pair")]
    rows += [finding("odds aces", 1.11, 1.10, 1.12, 1000, "odds ratio", key="odds_aces_2p", null=1, p_value=1e-30),
             finding("odds tribute", 1.09, 1.08, 1.10, 1000, "odds ratio", key="odds_tribute_total_2p", null=1,
                     p_value=1e-30),
             finding("logistic in aces fit", 0.5, np.nan, np.nan, 1000, "chi2", key="odds_aces_2p_fit", p_value=0.45,
                     test="fit"),
             finding("logistic in tribute fit", 28.4, np.nan, np.nan, 1000, "chi2", key="odds_tribute_total_2p_fit",
                     p_value=0.019, test="fit"),
             finding("seat model, 2-6 players: deviance (13 df; largest |Pearson residual| 9.2)", 300.0, np.nan,
                     np.nan, 1000, "chi2", key="seat_model_fit", p_value=1e-12, test="fit"),
             finding("seat model seat", 1.02, 1.01, 1.03, 1000, "odds ratio", key="seat_model_seat"),
             finding("seat model card", 1.01, 0.99, 1.03, 1000, "odds ratio", key="seat_model_extra_card"),
             finding("win rate of seat 2 minus seat 1, 3 players (same hand)", 0.004, 0.003, 0.005, 500, "pp",
                     key="step_2_of_3p", null=0, p_value=1e-9),
             finding("win rate of seat 1 minus seat 0, 3 players (one card fewer)", -0.01, -0.012, -0.008, 500, "pp",
                     key="step_1_of_3p", null=0, p_value=1e-12),
             finding("win rate of seat 1 minus seat 0, 4 players (same hand)", 0.001, -0.001, 0.003, 500, "pp",
                     key="step_1_of_4p", null=0, p_value=0.5, se=0.0005),
             finding("equal-hand steps between adjacent seats, 3-6 players: Cochran's Q of one constant step over the "
                     "2 steps (1 df; each count's steps with their multinomial covariance)", 9.0, np.nan, np.nan,
                     1000, "chi2", key="heterogeneity_steps", p_value=0.0027, test="fit"),
             finding("loop share small", 0.2, 0.19, 0.21, 100, "share", key="loop_small:2 J:24")]
    rows += [finding(name, v, np.nan, np.nan, v, "games", key=key) for name, v, key in (
        ("seed", 2026, "run_seed"), ("2p", 4_000_000, "run_main2"), ("3-6p", 500_000, "run_main"),
        ("seats", 250_000, "run_seats"), ("small", 100_000, "run_small"),
        ("distinct", 12_200_000, "run_distinct"), ("played", 13_550_000, "run_played"))]
    return findings_frame(rows)


def test_wording_follows_the_holm_verdict():
    blocks = render_blocks(_toy_table())
    reading = blocks["reading"]
    assert "wins slightly less than half the games, 49.770%" in reading
    assert "one rate does not fit every 100-card band (χ² = 109.0" in reading
    assert "end=unable: 3p +0.570 [+0.270, +0.870]" in reading
    # one level for every "not detected": Holm's strictest over the family (here 11 tests), named each time
    level = detectable_effect(1.0, alpha=0.05 / 11)
    assert ("With 3 players: no detectable change (+0.100 cards [-0.200, +0.400], 1,000 pairs; Holm p 1: it could "
            f"miss a change below ±{0.1 * level:.2f} cards at 80% power at Holm's strictest level 0.05/11).") in reading
    assert "ccw: 3p" not in reading and "identical" in blocks["variants"]
    # the pooled seat model only beside its fit, which rejects it here; the within-n steps with Holm
    assert "multinomial (softmax) logit" in reading
    assert "does not fit the wins per player count and seat: G² 300.0 on 13 df" in reading
    # one constant step: its heterogeneity test over the equal-hand steps, not a hand-picked pair
    assert "The 2 equal-hand steps are not one constant: Cochran's Q 9.0 on 1 df (p 0.0027" in reading
    assert "intervals do not overlap" not in reading
    assert "are not tested" in reading and "raises the odds" not in reading
    assert "3p seat 1→2 +0.400 pp ✓" in reading and "3p seat 0→1 -1.000 pp ✓" in reading
    # a step not detected says what it could have missed, at the family's level
    assert f"4p seat 0→1 +0.100 pp · (detectable ±{100 * 0.0005 * level:.3f} pp at 0.05/11)" in reading
    # an odds ratio per tribute point is an average where the logistic's own test rejects it
    assert "by 1.110 [1.100, 1.120] (the logistic passes its goodness-of-fit test, p 0.45)" in reading
    assert ("by 1.090 [1.080, 1.100] on average (the logistic is rejected by its goodness-of-fit test, p 0.019;"
            in reading)
    # goodness-of-fit tests stay out of the Holm family: the effects' adjustment ignores them
    table = _toy_table()
    fits = table[table["test"] == "fit"]
    assert len(fits) == 6 and fits["p_holm"].isna().all() and fits["holm_reject"].isna().all()
    effects = table[table["test"] == "effect"]
    assert effects["p_holm"].notna().all()
    from statsmodels.stats.multitest import multipletests
    np.testing.assert_allclose(effects["p_holm"], multipletests(effects["p_value"], method="holm")[1], rtol=1e-5)
    from beggarstats.report.findings_prose import _article
    assert "(a 24-card deck whose penalty cards are 2 J)" in reading
    assert [_article(n) for n in (8, 11, 18, 24, 28)] == ["an", "an", "an", "a", "a"]
    readme = blocks["readme"]
    assert "12,200,000 distinct games, 13,550,000 played" in readme and readme.count("12,200,000") == 1
    assert "6 goodness-of-fit tests with their own p-values, outside the family" in readme
    assert "11 of them tests of an effect, one family" in readme and "at Holm's strictest level 0.05/11" in readme
    assert "1 comparisons identical in every pair of their run, exact statements outside it" in readme
    fair = render_blocks(_toy_table(seat0=0.4999, p_seat0=0.6))["reading"]
    assert "not distinguishable from half" in fair and "slightly less" not in fair


def test_findings_keep_six_significant_digits_so_a_rerun_writes_the_same_file(tmp_path):
    from beggarstats.report.findings import write_findings

    rows = [finding("a rate", 0.0048591234567, 0.00485, 0.00487, 4_000_001, "per card", key="a"),
            finding("a count", 12_200_001, np.nan, np.nan, 12_200_001, "games", key="b"),
            finding("tiny", 2.851234567e-18, 2.79e-18, 2.92e-18, 10, "share", key="c", null=0.0, p_value=0.0123456789)]
    first = findings_frame(rows)
    assert first.loc[0, "estimate"] == 0.00485912 and first.loc[1, "estimate"] == 12_200_001  # counts stay exact
    assert first.loc[2, "p_value"] == 0.0123457
    write_findings(first, tmp_path)
    once = (tmp_path / "findings.csv").read_bytes()
    # the same run with the last digits of its float sums in another order: the same bytes
    rows[0]["estimate"] *= 1 + 3e-15
    rows[2]["p_value"] *= 1 - 2e-15
    write_findings(findings_frame(rows), tmp_path)
    assert (tmp_path / "findings.csv").read_bytes() == once
    with warnings.catch_warnings():  # no design and no test in any row: read without a pandas warning
        warnings.simplefilter("error")
        pd_read = read_findings(tmp_path / "findings.csv")
    assert pd_read.loc[0, "estimate"] == 0.00485912 and "0.00485912," in once.decode()
    assert list(pd_read["design"]) == ["", "", ""] and pd_read.loc[2, "test"] == "effect"


def test_update_prose_rewrites_only_the_blocks_and_then_nothing_is_stale(tmp_path):
    for rel, names in BLOCKS.items():
        path = tmp_path / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("intro\n" + "".join(f"<!-- findings:begin {n} -->\nold 1.23\n<!-- findings:end {n} -->\n"
                                            for n in names) + "outro\n")
    table = _toy_table()
    assert len(stale_blocks(table, tmp_path)) == sum(len(n) for n in BLOCKS.values())
    update_prose(table, tmp_path)
    assert stale_blocks(table, tmp_path) == []
    text = (tmp_path / "README.md").read_text()
    assert text.startswith("intro\n") and text.endswith("outro\n") and "old 1.23" not in text
    assert block_pattern("readme").search(text).group(2) == render_blocks(table)["readme"]
    (tmp_path / "README.md").write_text("no markers\n")
    with pytest.raises(ValueError, match="has no block `<!-- findings:begin readme -->`"):
        update_prose(table, tmp_path)


def test_holm_adjustment_is_statsmodels(table):
    from statsmodels.stats.multitest import multipletests

    tested = table[table["test"] == "effect"]
    reject, p_holm, _, _ = multipletests(tested["p_value"], alpha=0.05, method="holm")
    np.testing.assert_allclose(tested["p_holm"], p_holm, rtol=1e-5)  # the table keeps 6 significant digits
    assert (tested["holm_reject"].astype(bool) == reject).all()
    assert table.loc[table["p_value"].isna(), "holm_reject"].isna().all()
    assert table["key"].is_unique


def test_small_deck_prose_says_exact_where_a_census_gave_the_share():
    """Rows of the small-deck figure from a census (design 'census', no interval) read as exact; a
    deck left to random deals keeps its upper bound."""
    rows = [r for r in _toy_table().to_dict("records") if not r["key"].startswith("loop_small:")]
    rows = [finding(r["finding"], r["estimate"], r["low"], r["high"], r["n_games"], r["unit"], key=r["key"],
                    null=r["null"], p_value=r["p_value"], design=r["design"] if isinstance(r["design"], str) else "",
                    test=r["test"] or None, se=r["se"], interval=r["interval"]) for r in rows]
    shares = [(8, 0.0, "census", 28), (10, 9 / 45, "census", 45), (16, 0.0, "census", 120),
              (18, 49 / 153, "census", 153), (28, 0.0, "", 100_000)]
    rows += [finding(f"loop share {size}", v, v if d else 0.0, v if d else 3.8e-5, n, "share",
                     key=f"loop_small:2 J:{size}", design=d) for size, v, d, n in shares]
    reading = render_blocks(findings_frame(rows))["reading"]
    assert "(every plotted size, exact where every deal was played once, otherwise 100,000 random deals)" in reading
    assert "up to 32.026% of the deals (an 18-card deck whose penalty cards are 2 J)" in reading
    assert ("no deal loops at 8, 16 and 28 cards (exactly; at 28 cards, from random deals: upper end of the 95% Wilson interval 3.8e-05), "
            "while the other sizes loop in 20.000% to 32.026%") in reading
    assert "differ (exactly, or beyond their 95% intervals)" in reading and "Monte Carlo shares" not in reading


# -- #52 items 1 and 2: one level for every "not detected", the family counted once ---------------

def _family(table):
    effects = table[table["test"] == "effect"]
    return len(effects), 0.05 / len(effects)


def test_every_not_rejected_test_carries_its_level_matched_detectable_effect(table):
    """Every test of an effect that Holm does not reject has the smallest effect it detects at 80%
    power at one level, Holm's strictest over the whole family (0.05 / m), recomputed here from its
    standard error: a detectable effect at unadjusted 5% (the seat steps before) or at another
    family's level (the variant rows' 0.05/100 before) fails."""
    m, level = _family(table)
    effects = table[table["test"] == "effect"]
    missed = effects[~effects["holm_reject"].astype(bool)]
    assert len(missed) and missed["se"].notna().all() and (missed["detectable"] > 0).all()
    assert np.allclose(effects["level"], level, rtol=1e-5)
    np.testing.assert_allclose(missed["detectable"], detectable_effect(missed["se"].to_numpy(float), alpha=level),
                               rtol=1e-5)
    # the old levels give other numbers: the check has teeth
    assert not np.allclose(missed["detectable"], detectable_effect(missed["se"].to_numpy(float)), rtol=1e-3)
    assert not np.allclose(missed["detectable"], detectable_effect(missed["se"].to_numpy(float), alpha=0.05 / 100),
                           rtol=1e-3)
    assert table.loc[table["test"] != "effect", ["detectable", "level"]].isna().all().all()


def test_no_identical_row_inside_the_family(table):
    """The rows whose pairs never differ are exact statements: outside the Holm family, said as
    identical. findings_frame refuses one inside it."""
    same = table[table["finding"].str.contains("identical in every pair")]
    assert len(same) and (same["test"] == "identical").all() and same["p_value"].isna().all()
    assert not (table.loc[table["test"] == "effect", "interval"].astype(str).str.contains("identical")).any()
    with pytest.raises(ValueError, match="identical in every pair inside the Holm family"):
        findings_frame([finding("a variant row", 0.0, 0.0, 0.0, 100, "cards diff", key="v", null=0, p_value=1.0,
                                interval="identical in every pair")])
    with pytest.raises(ValueError, match="must be NaN for an identical row"):
        finding("a variant row", 0.0, 0.0, 0.0, 100, "cards diff", key="v", p_value=1.0, test="identical")


NOT_DETECTED = re.compile(r"not detected|not distinguishable|no detectable|could not detect|n\.d\.")


def _not_detected_said_without_level(text: str, m: int, level_text: str) -> list[str]:
    """Every "not detected" of ``text`` (and every '·' row of a table) that does not carry a
    detectable effect (±) with the family's level (0.05/m) in its sentence, parenthesis or table
    (whose header names the level)."""
    bad = []
    for para in re.split(r"\n\s*\n", text):
        lines = para.splitlines()
        if lines and lines[0].startswith("|"):  # a table: the header names the level, each · row has its ±
            if "·" in para and level_text not in lines[0]:
                bad.append(lines[0])
            for row in lines[2:]:
                cells = [c.strip() for c in row.strip("|").split("|")]
                if any(c.endswith(" ·") for c in cells) and not any(c.startswith("±") for c in cells):
                    bad.append(row)
            continue
        for hit in NOT_DETECTED.finditer(para):
            window = para[hit.start(): hit.start() + 200]
            window = window[: max(window.find(")"), window.find(";"), 0) + 1] if ")" in window else window
            if "±" not in window or level_text not in window:
                bad.append(para[max(0, hit.start() - 40): hit.start() + 120])
        for hit in re.finditer(r" · \(", para):
            if level_text not in para[hit.start(): hit.start() + 60]:
                bad.append(para[max(0, hit.start() - 40): hit.start() + 80])
        if re.search(r" ·[,;.]", para):
            bad.append(para[: 120])
    return bad


def test_every_not_detected_in_the_prose_names_its_detectable_effect_and_level(table):
    m, _ = _family(table)
    level_text = f"0.05/{m}"
    readme = _findings_section((ROOT / "README.md").read_text())
    blocks = render_blocks(table)
    # docs/FIGURES.md's findings are its generated blocks (its hand-written text states the rule itself)
    texts = {"README.md findings": readme, "figures/findings.md": (ROOT / "figures" / "findings.md").read_text()}
    texts.update({f"block {k}": v for k, v in blocks.items()})
    for name, text in texts.items():
        assert _not_detected_said_without_level(text, m, level_text) == [], name
    # the check catches the old wording: a step at unadjusted 5%, a variant at 0.05/100, a bare ·
    old = ("4p seat 0→1 +0.156 pp · (detectable ±0.279 pp), 4p not detected (±0.29); ccw: 3p not detected "
           "(±0.30 at 0.05/100)")
    assert len(_not_detected_said_without_level(old, m, level_text)) == 3
    table_old = "| finding | Holm p | detectable |\n|---|---:|---:|\n| a step | 1 · | – |"
    assert len(_not_detected_said_without_level(table_old, m, level_text)) == 2


def test_the_notebooks_say_what_a_not_detected_could_miss():
    """The notebooks' markdown, generated when they run: every "not detected" of their sources comes
    with what the test could miss at 80% power, at a level it names."""
    for path in sorted((ROOT / "notebooks").glob("*.py")):
        text = re.sub(r"^#.*$", "", path.read_text(), flags=re.M)  # the code that writes the markdown, not comments
        for hit in NOT_DETECTED.finditer(text):
            window = text[max(0, hit.start() - 160): hit.start() + 260]  # the statement around it
            assert "miss" in window and "80% power" in window and ("0.05/" in window or "5%" in window), \
                (path.name, text[hit.start() - 60: hit.start() + 160])


def test_the_family_is_counted_once_and_the_same_everywhere(table):
    """#52 item 2: one family size, said once in the README and named by every table's level;
    nothing quotes another family (the runs' own 100 variant rows) and no per-row interval is said
    to be 'after Holm'."""
    m, level = _family(table)
    readme = (ROOT / "README.md").read_text()
    section = _findings_section(readme)
    assert section.count(f"{m} of them tests of an effect, one family") == 1
    figures_md = (ROOT / "docs" / "FIGURES.md").read_text()
    for text in (section, figures_md, (ROOT / "figures" / "findings.md").read_text()):
        assert "0.05/100" not in text and "over the 100 variant rows" not in text
        levels = set(re.findall(r"0\.05/(\d+)", text))
        assert levels == {str(m)}, levels
        assert not re.search(r"after Holm[^.;]{0,40}\[", text)  # "after Holm" before a per-row 95% interval
    drawn = pd.read_csv(ROOT / "figures" / "variant_effects.csv")
    assert np.allclose(drawn["level"].dropna(), level, rtol=1e-5)
