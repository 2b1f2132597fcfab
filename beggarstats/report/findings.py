"""The findings table: one row per published number, with its 95% interval, sample size and, for
the findings that test something, the p-value and, for tests of an effect, its Holm adjustment
over the family of effects. A goodness-of-fit test (``test='fit'``: does one tail rate fit every
band, does a pooled model fit the counts) keeps its own p-value and stays out of the family: not
rejecting is its claim, and Holm would only make that claim easier to reach.

Rows are built from the outputs of `beggarstats.analysis` (never recomputed here), every number
rounded to `DIGITS` significant digits (so a re-run writes the same bytes: the last digits of a
float sum depend on the order the chunks finished), and written as CSV and Markdown (rounded
further for reading). Each row has a stable ``key`` by which
the prose (`beggarstats.report.findings_prose`) looks its numbers up.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests

from ..run.outputs import write_text

__all__ = ["COLUMNS", "ALPHA", "DIGITS", "TESTS", "finding", "findings_frame", "adjust", "to_markdown", "write_findings", "read_findings",
           "fmt", "fmt_p", "round_numbers"]

COLUMNS = ("finding", "estimate", "low", "high", "n_games", "unit", "key", "design", "test", "null", "p_value",
           "p_holm", "holm_reject", "detectable", "interval")
ALPHA = 0.05  # family-wise error rate of the Holm adjustment
DIGITS = 6    # significant digits of every number in the table (findings.csv)
TESTS = ("", "effect", "fit")  # what a row's p-value tests: nothing, an effect (Holm family), a model's fit
_NUMBERS = ("estimate", "low", "high", "null", "p_value", "p_holm", "detectable")

# How each unit is shown: shares and rates as percentages, the rest as plain numbers.
_UNITS = {
    # tiny shares as plain numbers: "2.9e-16%" beside 2.85e-18 invites a hundredfold misreading
    "share": lambda v: f"{100 * v:.3f}%" if v == 0 or abs(v) >= 1e-4 else f"{v:.3g}",
    "pp": lambda v: f"{100 * v:+.3f} pp",
    "cards": lambda v: f"{v:.2f}",
    "cards diff": lambda v: f"{v:+.3f}",
    "per card": lambda v: f"{v:.5f}",
    "per card diff": lambda v: f"{v:+.4f}",
    "odds ratio": lambda v: f"{v:.3f}",
    "chi2": lambda v: f"{v:.1f}",
    "games": lambda v: f"{v:,.0f}",
    "deals": lambda v: f"{v:.3g}",
    "cards, max": lambda v: f"{v:,.0f}",
}


def finding(name: str, estimate, low, high, n_games, unit: str, *, key: str, null=np.nan, p_value=np.nan,
            design: str = "", test: str | None = None, detectable=np.nan, interval: str = "") -> dict:
    """One row: ``n_games`` is the number of games (or decided games, or pairs) the estimate rests on;
    ``null`` is the value a test compared against and ``p_value`` its two-sided p-value (NaN when
    the finding tests nothing); ``design`` says 'paired' or 'independent' for comparisons;
    ``test`` is 'effect' (the default for a row with a p-value: it enters the Holm family) or
    'fit' (a goodness-of-fit test: its p-value is reported unadjusted); ``detectable`` is the
    smallest effect (in the row's unit) the test detects at 80% power, two-sided 5%, so that a
    "not detected" says how large an effect it could have missed; ``interval`` names the interval
    of a comparison ('paired t', 'BCa bootstrap', 'identical in every game', ...: the ``interval``
    column of `analysis.compare_variants`)."""
    p_value = float(p_value)
    if test not in (None, "effect", "fit"):
        raise ValueError(f"The value for `test` must be 'effect' or 'fit', but {test!r} was passed for {key!r}.")
    test = "" if math.isnan(p_value) else (test or "effect")  # no p-value (too few games): nothing tested
    return dict(finding=name, estimate=float(estimate), low=float(low), high=float(high), n_games=int(n_games),
                unit=unit, key=key, design=design, test=test, null=float(null), p_value=p_value,
                detectable=float(detectable), interval=str(interval))


def round_numbers(values, digits: int = DIGITS) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits (the nearest float to the rounded decimal,
    so it prints as that decimal); whole numbers below 10^15 (counts of games, seeds) stay exact,
    NaN and inf stay as they are."""
    def one(v):
        if not math.isfinite(v) or (v == round(v) and abs(v) < 1e15):
            return v
        return float(f"{v:.{digits}g}")

    return np.array([one(float(v)) for v in np.asarray(values, dtype=float).ravel()], dtype=float)


def adjust(table: pd.DataFrame, *, alpha: float = ALPHA) -> pd.DataFrame:
    """Holm-adjusted p-values (`statsmodels.stats.multitest.multipletests`) over every row that
    tests an effect (``test == 'effect'``): ``p_holm`` and ``holm_reject`` (the null is rejected at
    family-wise level ``alpha``). Goodness-of-fit rows keep ``p_holm`` NaN."""
    table = table.copy()
    tested = (table["test"] == "effect").to_numpy()
    table["p_holm"] = np.nan
    table["holm_reject"] = pd.array([pd.NA] * len(table), dtype="boolean")
    if tested.any():
        reject, p_holm, _, _ = multipletests(table.loc[tested, "p_value"].to_numpy(float), alpha=alpha, method="holm")
        table.loc[tested, "p_holm"] = p_holm
        table.loc[tested, "holm_reject"] = reject
    return table


def findings_frame(rows, *, alpha: float = ALPHA) -> pd.DataFrame:
    """The table of ``rows`` (from `finding`), Holm-adjusted (`adjust`) and rounded to `DIGITS`
    significant digits: what `write_findings` writes and `read_findings` gives back."""
    table = pd.DataFrame(list(rows), columns=[c for c in COLUMNS if c not in ("p_holm", "holm_reject")])
    table = table[[c for c in COLUMNS if c not in ("p_holm", "holm_reject")]]
    if not table["key"].is_unique:
        raise ValueError(f"The value for `rows` must have unique finding keys, but these repeat: "
                         f"{sorted(table['key'][table['key'].duplicated()])}.")
    table = adjust(table, alpha=alpha)[list(COLUMNS)]
    for c in _NUMBERS:
        table[c] = round_numbers(table[c])
    return table


def fmt(value, unit: str) -> str:
    """A number as the prose and the Markdown table show it."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return _UNITS.get(unit, lambda v: f"{v:.4g}")(float(value))


def fmt_p(p) -> str:
    if p is None or (isinstance(p, float) and math.isnan(p)):
        return "–"
    return "< 1e-10" if p < 1e-10 else f"{p:.2g}"


def _interval(row) -> str:
    if math.isnan(row.low) and math.isnan(row.high):
        return "–"
    return f"[{fmt(row.low, row.unit)}, {fmt(row.high, row.unit)}]"


def _detectable(row) -> str:
    if math.isnan(row.detectable):
        return "–"
    return "±" + fmt(row.detectable, row.unit).lstrip("+")


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub Markdown table: finding | estimate | 95% interval | games | p | Holm p (✓: rejected) |
    detectable (the smallest effect found at 80% power)."""
    lines = ["| finding | estimate | 95% interval | games | p | Holm p | detectable at 80% power (two-sided 5%, unless "
             "the finding names its level) |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for row in table.itertuples(index=False):
        holm = fmt_p(row.p_holm)
        if holm != "–":
            holm += " ✓" if bool(row.holm_reject) else " ·"
        lines.append(f"| {row.finding} | {fmt(row.estimate, row.unit)} | {_interval(row)} | {row.n_games:,} | "
                     f"{fmt_p(row.p_value)} | {holm} | {_detectable(row)} |")
    return "\n".join(lines) + "\n"


def read_findings(path) -> pd.DataFrame:
    """A findings.csv as written by `write_findings` (``holm_reject`` back to a nullable boolean)."""
    table = pd.read_csv(path, keep_default_na=False, na_values=[""])
    # a text column with no value at all is read as float NaN: made text before it is filled (filling
    # a float column with "" is deprecated in pandas and will raise)
    table["design"] = table["design"].astype(object).fillna("")
    if "test" not in table.columns:  # a table written before goodness-of-fit rows were told apart
        table.insert(COLUMNS.index("test"), "test", np.where(table["p_value"].notna(), "effect", ""))
    table["test"] = table["test"].astype(object).fillna("")
    table["holm_reject"] = table["holm_reject"].astype("boolean")
    if "detectable" not in table.columns:  # written before the detectable effect was a column
        table["detectable"] = np.nan
    table["interval"] = table["interval"].astype(object).fillna("") if "interval" in table.columns else ""
    return table


def write_findings(table: pd.DataFrame, out) -> tuple[Path, Path]:
    """Write ``findings.csv`` and ``findings.md`` into the directory ``out``."""
    out = Path(out)
    csv, md = out / "findings.csv", out / "findings.md"
    write_text(csv, table.to_csv(index=False))  # atomically: a kill leaves the old file or the new one
    write_text(md, to_markdown(table))
    return csv, md
