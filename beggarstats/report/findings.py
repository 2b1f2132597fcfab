"""The findings table: one row per published number, with its 95% interval, sample size and, for
the findings that test something, the p-value and, for tests of an effect, its Holm adjustment
over the family of effects. A goodness-of-fit test (``test='fit'``: does one tail rate fit every
band, does a pooled model fit the counts) keeps its own p-value and stays out of the family: not
rejecting is its claim, and Holm would only make that claim easier to reach. A comparison whose
pairs never differ (``test='identical'``) is an exact statement of the sample, not a test: no
p-value, outside the family.

Every test of an effect states the smallest effect it detects with 80% power (``detectable``) at
one level for the whole family (``level``): Holm's strictest, ``ALPHA`` / m for the m tests of the
family. A test that does not reject was tested by Holm at some step ``ALPHA`` / (m - i + 1) that
depends on where the other p-values fall; ``ALPHA`` / m is the level at which Holm rejects a test
whatever the other tests give, so an effect of the detectable size is found with 80% power by this
family's procedure in every case, and the number is a property of the design alone, the same for
every row and in every run of the same design.

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
           "fmt", "fmt_p", "round_numbers", "POWER", "family_level", "level_text", "rows_of",
           "detectable_text"]

COLUMNS = ("finding", "estimate", "low", "high", "n_games", "unit", "key", "design", "test", "null", "p_value",
           "p_holm", "holm_reject", "se", "detectable", "level", "interval")
ALPHA = 0.05  # family-wise error rate of the Holm adjustment
POWER = 0.8   # the power of every detectable effect
DIGITS = 6    # significant digits of every number in the table (findings.csv)
# what a row tests: nothing, an effect (Holm family), a model's fit, or nothing because the sample's
# pairs never differ (an exact statement, outside the family)
TESTS = ("", "effect", "fit", "identical")
_NUMBERS = ("estimate", "low", "high", "null", "p_value", "p_holm", "se", "detectable", "level")
_ADDED = ("p_holm", "holm_reject", "detectable", "level")  # the columns `adjust` fills in

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
    "ratio": lambda v: f"{v:.3f}",
}


def finding(name: str, estimate, low, high, n_games, unit: str, *, key: str, null=np.nan, p_value=np.nan,
            design: str = "", test: str | None = None, se=np.nan, interval: str = "") -> dict:
    """One row: ``n_games`` is the number of games (or decided games, or pairs) the estimate rests on;
    ``null`` is the value a test compared against and ``p_value`` its two-sided p-value (NaN when
    the finding tests nothing); ``design`` says 'paired' or 'independent' for comparisons;
    ``test`` is 'effect' (the default for a row with a p-value: it enters the Holm family), 'fit'
    (a goodness-of-fit test: its p-value is reported unadjusted) or 'identical' (no pair of the
    sample differs: an exact statement, no p-value, outside the family); ``se`` is the standard
    error (in the row's unit) of the estimate an effect test rests on, from which `adjust` gives the
    smallest effect it detects at 80% power at the family's level, so that a "not detected" says how
    large an effect it could have missed; ``interval`` names the interval of a comparison ('paired
    t', 'Tango score', 'Wilson', ...)."""
    p_value = float(p_value)
    if test not in (None, "effect", "fit", "identical"):
        raise ValueError(f"The value for `test` must be 'effect', 'fit' or 'identical', but {test!r} was passed "
                         f"for {key!r}.")
    if test == "identical" and not math.isnan(p_value):
        raise ValueError(f"The value for `p_value` must be NaN for an identical row (an exact statement, not a test), "
                         f"but {p_value!r} was passed for {key!r}.")
    if test != "identical":
        test = "" if math.isnan(p_value) else (test or "effect")  # no p-value (too few games): nothing tested
    return dict(finding=name, estimate=float(estimate), low=float(low), high=float(high), n_games=int(n_games),
                unit=unit, key=key, design=design, test=test, null=float(null), p_value=p_value, se=float(se),
                interval=str(interval))


def round_numbers(values, digits: int = DIGITS) -> np.ndarray:
    """``values`` rounded to ``digits`` significant digits (the nearest float to the rounded decimal,
    so it prints as that decimal); whole numbers below 10^15 (counts of games, seeds) stay exact,
    NaN and inf stay as they are."""
    def one(v):
        if not math.isfinite(v) or (v == round(v) and abs(v) < 1e15):
            return v
        return float(f"{v:.{digits}g}")

    return np.array([one(float(v)) for v in np.asarray(values, dtype=float).ravel()], dtype=float)


def family_level(table: pd.DataFrame, *, alpha: float = ALPHA) -> tuple[int, float]:
    """(m, alpha / m): the size of the Holm family of ``table`` (its rows with ``test == 'effect'``)
    and Holm's strictest level, the level of every detectable effect."""
    m = int((table["test"] == "effect").sum())
    return m, (alpha / m if m else math.nan)


def adjust(table: pd.DataFrame, *, alpha: float = ALPHA) -> pd.DataFrame:
    """Holm-adjusted p-values (`statsmodels.stats.multitest.multipletests`) over every row that
    tests an effect (``test == 'effect'``): ``p_holm`` and ``holm_reject`` (the null is rejected at
    family-wise level ``alpha``), and for each such row with a standard error ``se`` the smallest
    effect it detects at 80% power, two-sided at ``level`` = alpha / m (`family_level`; the normal
    power calculation, `analysis.variants.detectable_effect`). Other rows keep these NaN. A row
    whose pairs never differ cannot enter the family: ValueError."""
    from ..analysis.variants import detectable_effect

    table = table.copy()
    tested = (table["test"] == "effect").to_numpy()
    same = tested & table["interval"].astype(str).str.contains("identical", regex=False).to_numpy()
    if same.any():
        raise ValueError(f"The value for `table` has rows identical in every pair inside the Holm family "
                         f"({sorted(table.loc[same, 'key'])}): they are exact statements, pass test='identical'.")
    table["p_holm"] = np.nan
    table["holm_reject"] = pd.array([pd.NA] * len(table), dtype="boolean")
    table["detectable"] = np.nan
    table["level"] = np.nan
    if tested.any():
        _, level = family_level(table, alpha=alpha)
        reject, p_holm, _, _ = multipletests(table.loc[tested, "p_value"].to_numpy(float), alpha=alpha, method="holm")
        table.loc[tested, "p_holm"] = p_holm
        table.loc[tested, "holm_reject"] = reject
        table.loc[tested, "level"] = level
        table.loc[tested, "detectable"] = detectable_effect(table.loc[tested, "se"].to_numpy(float), alpha=level,
                                                            power=POWER)
    return table


def findings_frame(rows, *, alpha: float = ALPHA) -> pd.DataFrame:
    """The table of ``rows`` (from `finding`), Holm-adjusted (`adjust`) and rounded to `DIGITS`
    significant digits: what `write_findings` writes and `read_findings` gives back."""
    given = [c for c in COLUMNS if c not in _ADDED]
    table = pd.DataFrame(list(rows), columns=given)[given]
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


def detectable_text(value, unit: str) -> str:
    """A detectable effect as the tables and the prose show it: '±0.434 pp' (a share's in
    percentage points: it is a difference of shares)."""
    return "±" + fmt(value, "pp" if unit == "share" else unit).lstrip("+")


def _detectable(row) -> str:
    return "–" if math.isnan(row.detectable) else detectable_text(row.detectable, row.unit)


def level_text(m: int, alpha: float = ALPHA) -> str:
    """Holm's strictest level as the prose says it: '0.05/118'."""
    return f"{alpha:g}/{m}"


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub Markdown table: finding | estimate | 95% interval | games | p | Holm p (✓: rejected) |
    detectable (the smallest effect found at 80% power at Holm's strictest level, named once in the
    header: one level for the whole family)."""
    m, _ = family_level(table)
    lines = [f"| finding | estimate | 95% interval | games | p | Holm p (✓ rejected, · not; family of {m} tests) | "
             f"detectable at 80% power, two-sided at Holm's strictest level {level_text(m)} |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    for row in table.itertuples(index=False):
        holm = fmt_p(row.p_holm)
        if holm != "–":
            holm += " ✓" if bool(row.holm_reject) else " ·"
        elif row.test == "identical":
            holm = "identical: no test"
        lines.append(f"| {row.finding} | {fmt(row.estimate, row.unit)} | {_interval(row)} | {row.n_games:,} | "
                     f"{fmt_p(row.p_value)} | {holm} | {_detectable(row)} |")
    return "\n".join(lines) + "\n"


def rows_of(table: pd.DataFrame) -> list[dict]:
    """The rows of a findings table as `finding` gives them (without the columns `adjust` fills in),
    to be put together again with `findings_frame`."""
    cols = [c for c in COLUMNS if c not in _ADDED]
    rows = [dict(zip(cols, vals)) for vals in table[cols].itertuples(index=False)]
    for r in rows:
        r["n_games"] = int(r["n_games"])
    return rows


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
    for c in ("se", "detectable", "level"):  # written before these were columns
        if c not in table.columns:
            table[c] = np.nan
    table["interval"] = table["interval"].astype(object).fillna("") if "interval" in table.columns else ""
    return table


def write_findings(table: pd.DataFrame, out) -> tuple[Path, Path]:
    """Write ``findings.csv`` and ``findings.md`` into the directory ``out``."""
    out = Path(out)
    csv, md = out / "findings.csv", out / "findings.md"
    write_text(csv, table.to_csv(index=False))  # atomically: a kill leaves the old file or the new one
    write_text(md, to_markdown(table))
    return csv, md
