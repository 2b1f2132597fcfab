"""The findings rows of the committed runs: the large runs' tail and record odds, the penalty-card
chain's record odds and the shuffle's equivalence test, read from ``data/`` (`run.committed_data`).

`committed_rows` is what `beggarstats figures` adds to the rows of the games it plays; each reader
also takes a folder (the tests give theirs).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

from ..game.rules import Rules
from ..run.committed_data import data_folder, data_path, data_paths
from .findings import finding
from .record_frontier import frontier_rows

__all__ = ["committed_rows", "scale_rows", "chain_rows", "shuffle_rows", "RECORD_CUTS_SAID", "SHUFFLE_MARGIN"]


def committed_rows() -> list[dict]:
    """The rows of every committed run the findings table quotes, from the committed data; a missing
    file is `run.committed_data.MissingData` (one sentence naming it), never rows silently left out."""
    data_paths("summary-p*.json", made_by="beggarstats summarize")
    data_path("tail", "results-cards.json", made_by="python data/tail/make_chain_cards.py --survival")
    data_paths("compare-shuffle-p*.json", made_by="python data/compare_variants.py")
    data_paths("frontier/*.json", made_by="the GPU runs of data/frontier (docs/gpu.md)")
    folder = data_folder()
    return scale_rows(folder) + chain_rows(folder) + frontier_rows(folder) + shuffle_rows(folder)


# The units of `summary_analysis.scale_findings`' rows, in the order it returns them.
_SCALE_UNITS = {"loop": "share", "rate": "per card", "prob": "share", "deals": "deals", "longest": "cards, max"}


def scale_rows(folder: Path) -> list[dict]:
    """The findings of the committed large runs (``summary-p*.json`` in ``folder``: 10^9 two-player
    and 10^8 3-6 player deals, made by `beggarstats summarize`) as rows of the findings table; none
    where the folder has no summaries. They test nothing, so they stay outside the Holm family."""
    rows = []
    for path in sorted(Path(folder).glob("summary-p*.json")):
        info = path.stat()  # a file as it was read before: its rows again (seconds of model fits each)
        rows.extend(dict(row) for row in _scale_rows_of(str(path), info.st_mtime_ns, info.st_size))
    return rows


@functools.lru_cache(maxsize=32)
def _scale_rows_of(path: str, mtime_ns: int, size: int) -> tuple[dict, ...]:
    """`scale_rows` of one summary file, computed once per state of the file (``mtime_ns``, ``size``)."""
    from ..analysis import summaries as sa
    from ..run.summary import load_summary

    s = load_summary(path)
    rows = []
    for kind, row in zip(_SCALE_UNITS, sa.scale_findings(s).itertuples()):
        name = f"at scale: {row.finding}" + (f" (seed {s.seed}, {row.method.split(', ')[-1]})" if kind == "longest" else "")
        if kind in ("prob", "deals"):  # one fit of several: its interval is its sampling error, not the model's
            name += ": geometric tail beyond the longest 1% (interval: sampling only)"
        rows.append(finding(name, row.estimate, row.low, row.high, row.games, _SCALE_UNITS[kind],
                            key=f"scale_{kind}_p{s.rules.players}"))
    rows.extend(_record_rows(s))
    rows.extend(_prediction_rows(s))
    return tuple(rows)


RECORD_CUTS_SAID = (2500, 3000, 3500)  # cards: the cuts whose fits the record's odds quote beside the longest 1%'s


def _record_rows(s) -> list[dict]:
    """The record's odds as the data allow (`analysis.tail.record_odds`), in the order they are said:
    how far the record lies beyond the longest game seen, the geometric fits by cut with their
    sampling intervals, and the log-linear hazard with its out-of-sample verdict. Beating the record
    is lasting longer than it, P(length > 8,344), everywhere."""
    from ..analysis import summaries as sa
    from ..analysis.tail import record_odds

    odds, p = record_odds(s), s.rules.players
    rows = [finding(f"at scale: cards by which the record ({odds['record']:,}) is longer than the longest of the "
                    f"{odds['games']:,} games seen ({odds['longest']:,} cards), {p} players: the record odds are an "
                    "extrapolation that far", odds["beyond"], np.nan, np.nan, odds["games"], "cards, max",
                    key=f"scale_record_beyond_p{p}")]
    fits = odds["fits"]
    for u in RECORD_CUTS_SAID:
        r = fits[(fits["model"] == "geometric") & (fits["threshold"] == u)].iloc[0]
        rows.append(finding(f"at scale: random deals to expect one longer than {sa.RECORD_CARDS:,} cards, {p} players: "
                            f"geometric tail fitted beyond {u:,} cards ({int(r['games']):,} games beyond; interval: "
                            "sampling only)", r["deals"], r["deals_low"], r["deals_high"], odds["games"], "deals",
                            key=f"scale_record_cut{u}_p{p}"))
    r = fits[fits["model"] == "log-linear hazard"].iloc[0]
    verdict = "passes" if r["passes"] else "fails"
    rows.append(finding(f"at scale: random deals to expect one longer than {sa.RECORD_CARDS:,} cards, {p} players: "
                        f"log-linear hazard fitted beyond {r['threshold']:,.0f} cards, which {verdict} its "
                        "out-of-sample test (interval: sampling only)", r["deals"], r["deals_low"], r["deals_high"],
                        odds["games"], "deals", key=f"scale_record_loglinear_p{p}"))
    return rows


def chain_rows(folder: Path) -> list[dict]:
    """The penalty-card chain's record odds (``tail/results-cards.json`` in ``folder``, from
    ``data/tail/make_chain_cards.py --survival``: `analysis.chain_record.record_check`): P(length > record) with its
    sampling interval, and with the allowance of its check against the CPU run. None without the file or its part."""
    import json

    path = Path(folder) / "tail" / "results-cards.json"
    if not path.is_file():
        return []
    res = json.loads(path.read_text()).get("survival")
    if not res:
        return []
    games = json.loads(path.read_text())["games"]
    checks = ", ".join(f"{c['cards']:,}" for c in res["checks"])
    p, (lo, hi), (alo, ahi) = res["probability"], res["sampling"], res["with_allowance"]
    return [finding(f"penalty-card chain (horizon {res['horizon']:,}), 2 players: random deals to expect one longer than "
                    f"{res['record']:,} cards (interval: {res['replicates']} bootstrap draws, sampling only)", 1 / p,
                    1 / hi, 1 / lo, games, "deals", key="chain_record_p2"),
            finding(f"penalty-card chain (horizon {res['horizon']:,}), 2 players: random deals to expect one longer than "
                    f"{res['record']:,} cards, with the misspecification allowance of its survival against the {games:,} "
                    f"games of the CPU run at {checks} cards (x{res['allowance'][0]:.2f} to x{res['allowance'][1]:.2f})",
                    1 / p, 1 / ahi, 1 / alo, games, "deals", key="chain_record_allowance_p2")]


def _prediction_rows(s) -> list[dict]:
    """The tail's out-of-sample check (`analysis.tail.tail_prediction`) of one large run: fitted on
    the band from the longest 1% up to each split only, its prediction for the next 1,000 cards and
    beyond against the games seen there (a goodness-of-fit test, outside the Holm family)."""
    from ..analysis.tail import PREDICTION_SPLITS, tail_prediction

    rows, p = [], s.rules.players
    for m in PREDICTION_SPLITS:
        for r in tail_prediction(s, fit_to=m, predict_to=m + 1000).itertuples():
            short = "constant" if r.model == "constant hazard" else "loglinear"
            rows.append(finding(f"at scale: tail fitted on {r.fit_from:,.0f}-{m:,} cards only ({r.model}), {p} players: "
                                f"G of the {r.at_risk:,} games longer than {m:,} against its prediction for "
                                f"{m:,}-{m + 1000:,} cards and beyond ({r.dof} df; {r.ended:,} ended there, "
                                f"{r.expected:,.1f} expected)", r.deviance, np.nan, np.nan, r.at_risk, "chi2",
                                key=f"scale_prediction_{short}_{m}_p{p}", p_value=r.p_value, test="fit"))
    return rows


SHUFFLE_MARGIN = 1.0  # cards: the equivalence margin of the shuffle question ("no practical effect")


def shuffle_rows(folder: Path) -> list[dict]:
    """The equivalence half of "does shuffling the won pile speed the game up?": one row per
    player count with the TOST p-value against +-`SHUFFLE_MARGIN` cards, from the committed paired
    comparisons ``compare-shuffle-p*.json`` in ``folder`` (written by ``data/compare_variants.py``).
    Their difference rows are the shuffle_pile rows of the variants (`report.variant_data`). The
    TOST rests on the paired t interval's two one-sided tails: the shuffle's per-deal differences
    are close to symmetric (skewness +0.02 to +0.04), where the t interval's one-sided errors hold."""
    from ..run.compare import load_moments

    rows = []
    for path in sorted(Path(folder).glob("compare-shuffle-p*.json")):
        m = load_moments(path)
        p = Rules.from_dict(m.rules_b).players
        rows.append(finding(f"shuffle_pile: equivalence within ±{SHUFFLE_MARGIN:g} card of the standard game (TOST "
                            f"p; skewness of the differences {m.skewness:+.2f}), {p} players",
                            m.equivalence(SHUFFLE_MARGIN), np.nan, np.nan, m.pairs, "p",
                            key=f"shuffle_equivalence_{p}p"))
    return rows
