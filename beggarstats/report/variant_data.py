"""The variant answer, 2-6 players, from the committed paired runs: one table for the figure, the
findings rows, the README, docs/FIGURES.md and notebook 03.

The runs are ``data/compare-variants-p{2..6}.json`` (every variant but shuffle_pile) and
``data/compare-shuffle-p{2..6}.json`` (shuffle_pile), both written by `data/compare_variants.py`, each
row sized to detect 0.3 cards at Holm's strictest level; each holds paired moments of `run.compare.compare` on the same deals as
the standard game (jokers are slipped into the standard deal, docs/RULES.md section 7).
`variant_table` turns them into rows with `run.variants.variant_rows` (paired t for the length,
Tango's score interval for seat 0) and, given the findings table, takes the verdicts from it: Holm
over the one family of the findings (the variant rows with every other test of an effect; the rows
identical in every pair are exact statements, outside it) and the detectable effects at that
family's strictest level (`report.findings.adjust`). Everything else here reads that one table.

    python -m beggarstats.report.variant_refresh    # figure, findings rows and prose from the data
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from ..run.committed_data import MissingData, data_paths
from ..run.compare import PairedMoments, games_unchanged, load_moments
from ..run.variants import STANDARD_VARIANTS, variant_rows

__all__ = ["variant_results", "variant_table", "variant_findings", "shuffle_sentences", "joker_sentence", "rule_sentence",
           "draw_variant_figure", "save_variant_figure", "figure_frame", "finding_key", "level_of", "VARIANT_KEYS"]

VARIANT_KEYS = ("variant_len:", "variant_seat0:", "variant_percard:")  # the findings rows this module owns


def variant_results(folder) -> list[tuple[str, PairedMoments]]:
    """(variant spec, moments) of every committed run in ``folder``, by player count, in the order
    of `STANDARD_VARIANTS`; a run of games that changed since it was made is refused, and a folder
    without runs is `run.committed_data.MissingData` (never an empty table)."""
    folder = Path(folder)
    if not any(folder.glob("compare-*-p*.json")):
        raise MissingData(f"The committed paired runs (compare-variants-p*.json, compare-shuffle-p*.json) are missing "
                          f"from {folder}: they ship with beggarstats in data/ (`python data/compare_variants.py` "
                          "makes them again in a clone).")
    found = {}
    for path in sorted(folder.glob("compare-variants-p*.json")):
        doc = json.loads(path.read_text())
        for item in doc["results"]:
            m = PairedMoments(**item["moments"])
            found[(int(m.rules_a["players"]), item["variant"])] = m
    for path in sorted(folder.glob("compare-shuffle-p*.json")):
        m = load_moments(path)
        found[(int(m.rules_a["players"]), "shuffle_pile")] = m
    for (p, spec), m in found.items():
        if not games_unchanged(m):
            raise ValueError(f"The committed run of {spec} with {p} players was made under RULES_VERSION "
                             f"{m.rules_version}, whose games differ: run data/compare_variants.py again.")  # names: the committed file by its variant
    order = {s: i for i, s in enumerate(STANDARD_VARIANTS)}
    keys = sorted(found, key=lambda k: (k[0], order.get(k[1], len(order)), k[1]))
    return [(spec, found[(p, spec)]) for p, spec in keys]


def variant_table(folder=None, *, findings: pd.DataFrame | None = None) -> pd.DataFrame:
    """The rows of `run.variants.variant_rows` over every committed run in ``folder`` (default: the
    committed data, `run.committed_data`), with ``se`` (the standard error each test rests on).
    Given ``findings`` (the findings table these rows are part of, e.g.
    `report.findings.read_findings` of figures/findings.csv), its verdicts replace those of the
    runs alone: ``p_holm``, ``holm_reject``, ``verdict``, ``detectable`` and its ``level``, and
    ``family`` (the size of the findings' Holm family); without it they are the runs' own (Holm over
    the variant rows alone, `compare`'s family)."""
    from .findings import round_numbers

    if folder is None:  # the committed runs: a missing one is the rule's sentence (`run.committed_data`)
        folder = data_paths("compare-variants-p*.json", made_by="python data/compare_variants.py")[0].parent
    table = pd.DataFrame(variant_rows(variant_results(folder)))
    if not table.empty:
        seat = table["metric"] == "seat0_win_diff"
        discordant = table.get("discordant", pd.Series(np.nan, index=table.index)).clip(lower=1)
        table["se"] = np.where(seat, np.sqrt(discordant) / table["pairs"], table["sd"] / np.sqrt(table["pairs"]))
        table["level"] = table["detectable_level"]
    if findings is not None and not table.empty:
        table = _with_findings(table, findings)
    for c in ("estimate", "low", "high", "p_value", "p_holm", "detectable", "per_card", "per_card_low", "per_card_high"):
        if c in table.columns:  # as findings.csv keeps them, so the prose reads the same digits from either
            table[c] = round_numbers(table[c])
    return table


def finding_key(r) -> str:
    """The findings key of a row of `variant_table`."""
    short = "len" if r.metric == "mean_length_diff" else "seat0"
    return f"variant_{short}:{r.variant}:{r.players}p"


def _with_findings(table: pd.DataFrame, findings: pd.DataFrame) -> pd.DataFrame:
    from .findings import family_level

    f = findings.set_index("key")
    keys = [finding_key(r) for r in table.itertuples(index=False)]
    missing = [k for k in keys if k not in f.index]
    if missing:
        raise ValueError(f"The value for `findings` lacks the variant rows {missing[:3]}...: not the findings of these "
                         "runs (run `beggarstats figures` or `python -m beggarstats.report.variant_refresh`).")
    rows = f.loc[keys]
    table = table.copy()
    table["p_holm"] = rows["p_holm"].to_numpy(float)
    table["holm_reject"] = rows["holm_reject"].fillna(False).to_numpy(bool)
    table["detectable"] = rows["detectable"].to_numpy(float)
    table["level"] = rows["level"].to_numpy(float)
    table["family"] = family_level(findings)[0]
    table["family_of"] = "findings"
    table["detectable_level"] = table["level"]
    tested = table["verdict"].isin(["detected", "not detected"])
    table.loc[tested, "verdict"] = np.where(table.loc[tested, "holm_reject"], "detected", "not detected")
    return table


def _name(r) -> str:
    what = {"mean_length_diff": "variant effect on mean length (cards)",
            "seat0_win_diff": "variant effect on seat 0's win rate"}[r.metric]
    how = r.interval if r.verdict != "identical in every pair" else "identical in every pair: exact, no test"
    return f"{what}: {r.label}, {r.players} players (paired, the same deals, seed {r.seed}; {how})"


def variant_findings(table: pd.DataFrame) -> list[dict]:
    """The findings rows of ``table``: keys ``variant_len:<variant>:<n>p``, ``variant_seat0:<variant>:<n>p`` and,
    for the joker variants, ``variant_percard:<variant>:<n>p`` (cards played per card dealt)."""
    from .findings import finding

    rows = []
    for r in table.itertuples(index=False):
        unit = "cards diff" if r.metric == "mean_length_diff" else "pp"
        low, high = (r.low, r.high) if math.isfinite(r.low) else (np.nan, np.nan)
        same = r.verdict == "identical in every pair"  # an exact statement of the sample, outside the Holm family
        rows.append(finding(_name(r), r.estimate, low, high, r.pairs, unit, key=finding_key(r), null=0.0,
                            p_value=np.nan if same else r.p_value, design="paired", test="identical" if same else None,
                            se=np.nan if same else r.se, interval=r.interval))
        if r.metric == "mean_length_diff" and "per_card" in table.columns and math.isfinite(getattr(r, "per_card")):
            rows.append(finding(f"variant effect on cards played per card dealt: {r.label}, {r.players} players "
                                "(paired; the extra cards of the jokers taken out)", r.per_card, r.per_card_low,
                                r.per_card_high, r.pairs, "per card diff", key=f"variant_percard:{r.variant}:{r.players}p",
                                design="paired", interval="paired t"))
    return rows


def _cards(v) -> str:
    return f"{v:+.3f}"


def _same(r) -> bool:
    """A row whose pairs never differ (the table's ``verdict``, or the findings' ``identical``)."""
    return bool(getattr(r, "identical", False)) or getattr(r, "verdict", "") == "identical in every pair"


def _lengths(v: pd.DataFrame) -> pd.DataFrame:
    return v[v["metric"] == "mean_length_diff"].sort_values("players", kind="stable")


def level_of(r) -> str:
    """The level of a row's detectable effect as the prose says it: Holm's strictest, '0.05/118'."""
    from .findings import ALPHA, level_text

    return level_text(int(r.family), ALPHA)


def shuffle_sentences(v: pd.DataFrame) -> list[str]:
    """One sentence per player count answering the rule text's "shuffling speeds the game up", from
    the variant rows ``v`` (`variant_table`, or the findings' `findings_prose.variant_frame`)."""
    out = []
    for r in _lengths(v[v["variant"] == "shuffle_pile"]).itertuples(index=False):
        ci = f"{_cards(r.estimate)} cards [{_cards(r.low)}, {_cards(r.high)}], {r.pairs:,} pairs"
        if r.holm_reject and r.estimate < 0:
            verdict = f"yes, shuffling the won pile shortens the game ({ci}; Holm p {_p(r.p_holm)}, detected)"
        elif r.holm_reject:
            verdict = f"no, shuffling the won pile lengthens the game slightly ({ci}; Holm p {_p(r.p_holm)}, detected)"
        else:
            verdict = (f"no detectable change ({ci}; Holm p {_p(r.p_holm)}: it could miss a change below "
                       f"±{r.detectable:.2f} cards at 80% power at Holm's strictest level {level_of(r)})")
        out.append(f"With {r.players} players: {verdict}.")
    return out


def joker_sentence(v: pd.DataFrame) -> str:
    """How the jokers change the length, per game and per card dealt, over the player counts."""
    t = _lengths(v[v["variant"].str.startswith("jokers")])
    if t.empty:
        return ""
    parts = []
    for _, g in t.groupby("variant", sort=False):
        parts.append(f"{g['label'].iloc[0]} {g['estimate'].max():+.1f} to {g['estimate'].min():+.1f} cards a game, "
                     f"{g['per_card'].max():+.3f} to {g['per_card'].min():+.3f} cards played per card dealt")
    shorter = bool(t["holm_reject"].all() and (t["estimate"] < 0).all() and (t["per_card_high"] < 0).all())
    verb = "shorten" if bool(t["holm_reject"].all() and (t["estimate"] < 0).all()) else "change"
    return (f"Jokers, slipped into the same deals, {verb} the game with {t['players'].min()}-{t['players'].max()} "
            "players (" + "; ".join(parts) + ")" + (": per card dealt too, so not only by dealing more cards."
                                                    if shorter else "."))


def rule_sentence(v: pd.DataFrame) -> str:
    """The other variants (neither shuffle_pile nor jokers), one clause each over the player counts."""
    t = _lengths(v[~v["variant"].str.startswith("jokers") & (v["variant"] != "shuffle_pile")])
    parts = []
    for _, g in t.groupby("variant", sort=False):
        items = []
        for r in g.itertuples(index=False):
            if _same(r):
                items.append(f"{r.players}p identical")
            elif not math.isfinite(r.low):
                items.append(f"{r.players}p {_cards(r.estimate)} (no interval)")
            elif r.holm_reject:
                items.append(f"{r.players}p {_cards(r.estimate)} [{_cards(r.low)}, {_cards(r.high)}]")
            else:
                items.append(f"{r.players}p not detected (±{r.detectable:.2f} at {level_of(r)})")
        parts.append(f"{g['label'].iloc[0]}: " + ", ".join(items))
    if not parts:
        return ""
    return ("Change in mean length (cards) of the other variants, with 95% intervals where Holm's test rejects "
            f"(not detected (±d at {level_of(next(t.itertuples(index=False)))}): d is the smallest change the run "
            "could find at 80% power at Holm's strictest level; identical: no pair of the run differs, an exact "
            "statement): " + "; ".join(parts) + ".")


def _p(p) -> str:
    from .findings import fmt_p

    return fmt_p(p)


def figure_frame(table: pd.DataFrame) -> pd.DataFrame:
    """What the figure plots, one row per (variant, players, metric): the numbers a test holds to
    findings.csv, the README and notebook 03 (written beside the PNG as variant_effects.csv)."""
    cols = ["variant", "label", "players", "metric", "estimate", "low", "high", "verdict", "detectable", "level",
            "pairs"]
    return table[cols].reset_index(drop=True)


def draw_variant_figure(table: pd.DataFrame):
    """`plots.plot_variant_grid` of ``table`` with its title (which names the Holm family its
    verdicts come from)."""
    from .. import plots

    fig = plots.plot_variant_grid(figure_frame(table))
    whose = "the findings'" if "family_of" in table else "these runs'"
    fig.suptitle("Each variant against the standard game on the same deals, 2-6 players (95% intervals)\n"
                 f"detected: rejected by Holm's test over {whose} {int(table['family'].iloc[0])} tests of an effect")
    return fig


def save_variant_figure(table: pd.DataFrame, out) -> None:
    """The figure into ``out`` (a `report.figures.FigureOut`), with the numbers it plots beside it as
    ``variant_effects.csv``."""
    lo, hi = int(table["pairs"].min()), int(table["pairs"].max())
    out.save(draw_variant_figure(table), "variant_effects.png", f"{lo:,} to {hi:,} pairs a row (paired games)",
             "standard and each variant, 2-6 players")
    figure_frame(table).to_csv(out.folder / "variant_effects.csv", index=False, float_format="%.6g")

