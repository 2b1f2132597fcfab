"""The findings table: one row per published number, with its 95% interval and sample size.

Rows are built from the outputs of `beggarstats.analysis` (never recomputed here) and written as
CSV (full precision) and Markdown (rounded for reading).
"""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

__all__ = ["COLUMNS", "finding", "findings_frame", "to_markdown", "write_findings"]

COLUMNS = ("finding", "estimate", "low", "high", "n_games", "unit")

# How each unit is shown in Markdown: shares as percentages, the rest as plain numbers.
_UNITS = {
    "share": lambda v: f"{100 * v:.3f}%" if v == 0 or v >= 1e-4 else f"{100 * v:.1e}%",
    "pp": lambda v: f"{100 * v:+.3f} pp",
    "cards": lambda v: f"{v:.2f}",
    "per card": lambda v: f"{v:.5f}",
    "odds ratio": lambda v: f"{v:.3f}",
}


def finding(name: str, estimate, low, high, n_games, unit: str) -> dict:
    """One row: ``n_games`` is the number of games (or decided games) the estimate rests on."""
    return dict(finding=name, estimate=float(estimate), low=float(low), high=float(high),
                n_games=int(n_games), unit=unit)


def findings_frame(rows) -> pd.DataFrame:
    return pd.DataFrame(list(rows), columns=list(COLUMNS))


def _fmt(value: float, unit: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "–"
    return _UNITS.get(unit, lambda v: f"{v:.4g}")(value)


def to_markdown(table: pd.DataFrame) -> str:
    """A GitHub Markdown table: finding | estimate | 95% interval | games."""
    lines = ["| finding | estimate | 95% interval | games |", "|---|---:|---:|---:|"]
    for row in table.itertuples(index=False):
        interval = f"[{_fmt(row.low, row.unit)}, {_fmt(row.high, row.unit)}]"
        lines.append(f"| {row.finding} | {_fmt(row.estimate, row.unit)} | {interval} | {row.n_games:,} |")
    return "\n".join(lines) + "\n"


def write_findings(table: pd.DataFrame, out) -> tuple[Path, Path]:
    """Write ``findings.csv`` and ``findings.md`` into the directory ``out``."""
    out = Path(out)
    csv, md = out / "findings.csv", out / "findings.md"
    table.to_csv(csv, index=False)
    md.write_text(to_markdown(table))
    return csv, md
