"""Redraw the variant figure and rewrite the variant rows of the findings and the prose from the
committed paired runs (`report.variant_data`), without the rest of `beggarstats figures`.

    python -m beggarstats.report.variant_refresh
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from ..run.committed_data import InstalledCopy, source_data_folder
from .variant_data import VARIANT_KEYS, save_variant_figure, variant_findings, variant_table

__all__ = ["regenerate"]


def regenerate(root=None, *, prose: bool = True) -> pd.DataFrame:
    """Write ``figures/variant_effects.png`` (and ``.csv``), replace the variant rows and the
    shuffle's equivalence rows of ``figures/findings.csv`` (and .md; Holm again over the whole table) and rewrite the prose
    blocks, from the committed runs, without the full `beggarstats figures` run. ``root``: the
    repository (default: the source tree the package runs from; an installed copy is refused)."""
    from .. import plots
    from .committed_rows import shuffle_rows
    from .figures import FigureOut
    from .findings import findings_frame, read_findings, rows_of, write_findings
    from .findings_prose import update_prose

    root = source_data_folder("python -m beggarstats.report.variant_refresh").parent if root is None else Path(root)
    table = variant_table(root / "data")
    out = root / "figures"
    old = read_findings(out / "findings.csv")
    rows = rows_of(old[~old["key"].str.startswith(VARIANT_KEYS + ("shuffle_answer_",))])
    at = next((i for i, r in enumerate(rows) if str(r["key"]).startswith("odds_")), len(rows))
    rows = rows[:at] + variant_findings(table) + rows[at:]
    tost = [i for i, r in enumerate(rows) if str(r["key"]).startswith("shuffle_equivalence_")]
    at = tost[0] if tost else len(rows)
    rows = [r for r in rows[:at] if not str(r["key"]).startswith("shuffle_equivalence_")] + shuffle_rows(root / "data") \
        + [r for r in rows[at:] if not str(r["key"]).startswith("shuffle_equivalence_")]
    findings = findings_frame(rows)
    table = variant_table(root / "data", findings=findings)  # the figure's verdicts are the findings' family's
    with plots.theme():
        save_variant_figure(table, FigureOut(out, int(table["seed"].iloc[0])))
    write_findings(findings, out)
    if prose:
        update_prose(findings, root)
    return table


if __name__ == "__main__":  # pragma: no cover
    import sys

    try:
        regenerate()
    except InstalledCopy as exc:  # its data/ is not what a commit holds
        print(exc, file=sys.stderr)
        raise SystemExit(2) from None
