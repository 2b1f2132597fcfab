"""The findings table: one row per published number, with its 95% interval, sample size and, for
the findings that test something, the p-value and its Holm adjustment over the whole family.

Rows are built from the outputs of `beggarstats.analysis` (never recomputed here) and written as
CSV (full precision) and Markdown (rounded for reading). Each row has a stable ``key`` by which
the prose (`beggarstats.report.findings_prose`) looks its numbers up.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
from statsmodels.stats.multitest import multipletests

from ..run.outputs import write_text

__all__ = ["COLUMNS", "ALPHA", "finding", "findings_frame", "adjust", "to_markdown", "write_findings", "read_findings",
           "fmt", "fmt_p"]

COLUMNS = ("finding", "estimate", "low", "high", "n_games", "unit", "key", "design", "null", "p_value",
           "p_holm", "holm_reject")
ALPHA = 0.05  # family-wise error rate of the Holm adjustment

# How each unit is shown: shares and rates as percentages, the rest as plain numbers.
_UNITS = {
    "share": lambda v: f"{100 * v:.3f}%" if v == 0 or v >= 1e-4 else f"{100 * v:.1e}%",
    "pp": lambda v: f"{100 * v:+.3f} pp",
    "cards": lambda v: f"{v:.2f}",
    "cards diff": lambda v: f"{v:+.3f}",
    "per card": lambda v: f"{v:.5f}",
    "odds ratio": lambda v: f"{v:.3f}",
    "chi2": lambda v: f"{v:.1f}",
    "games": lambda v: f"{v:,.0f}",
    "deals": lambda v: f"{v:.3g}",
    "cards, max": lambda v: f"{v:,.0f}",
}


def finding(name: str, estimate, low, high, n_games, unit: str, *, key: str, null=np.nan, p_value=np.nan,
            design: str = "") -> dict:
    """One row: ``n_games`` is the number of games (or decided games, or pairs) the estimate rests on;
    ``null`` is the value a test compared against and ``p_value`` its two-sided p-value (NaN when
    the finding tests nothing); ``design`` says 'paired' or 'independent' for comparisons."""
    return dict(finding=name, estimate=float(estimate), low=float(low), high=float(high), n_games=int(n_games),
                unit=unit, key=key, design=design, null=float(null), p_value=float(p_value))


def adjust(table: pd.DataFrame, *, alpha: float = ALPHA) -> pd.DataFrame:
    """Holm-adjusted p-values (`statsmodels.stats.multitest.multipletests`) over every row with a
    p-value: ``p_holm`` and ``holm_reject`` (the null is rejected at family-wise level ``alpha``)."""
    table = table.copy()
    tested = table["p_value"].notna().to_numpy()
    table["p_holm"] = np.nan
    table["holm_reject"] = pd.array([pd.NA] * len(table), dtype="boolean")
    if tested.any():
        reject, p_holm, _, _ = multipletests(table.loc[tested, "p_value"].to_numpy(float), alpha=alpha, method="holm")
        table.loc[tested, "p_holm"] = p_holm
        table.loc[tested, "holm_reject"] = reject
    return table


def findings_frame(rows, *, alpha: float = ALPHA) -> pd.DataFrame:
    table = pd.DataFrame(list(rows), columns=[c for c in COLUMNS if c not in ("p_holm", "holm_reject")])
    if not table["key"].is_unique:
        raise ValueError(f"Finding keys must be unique; repeated: {sorted(table['key'][table['key'].duplicated()])}")
    return adjust(table, alpha=alpha)[list(COLUMNS)]


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


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub Markdown table: finding | estimate | 95% interval | games | p | Holm p (✓: rejected)."""
    lines = ["| finding | estimate | 95% interval | games | p | Holm p |", "|---|---:|---:|---:|---:|---:|"]
    for row in table.itertuples(index=False):
        holm = fmt_p(row.p_holm)
        if holm != "–":
            holm += " ✓" if bool(row.holm_reject) else " ·"
        lines.append(f"| {row.finding} | {fmt(row.estimate, row.unit)} | {_interval(row)} | {row.n_games:,} | "
                     f"{fmt_p(row.p_value)} | {holm} |")
    return "\n".join(lines) + "\n"


def read_findings(path) -> pd.DataFrame:
    """A findings.csv as written by `write_findings` (``holm_reject`` back to a nullable boolean)."""
    table = pd.read_csv(path, keep_default_na=False, na_values=[""])
    table["design"] = table["design"].fillna("")
    table["holm_reject"] = table["holm_reject"].astype("boolean")
    return table


def write_findings(table: pd.DataFrame, out) -> tuple[Path, Path]:
    """Write ``findings.csv`` and ``findings.md`` into the directory ``out``."""
    out = Path(out)
    csv, md = out / "findings.csv", out / "findings.md"
    write_text(csv, table.to_csv(index=False))  # atomically: a kill leaves the old file or the new one
    write_text(md, to_markdown(table))
    return csv, md
