"""The record's odds from the largest runs on file, with the committed CPU runs' figures beside.

`data/frontier/summary-pN.json` is the committed CPU run of N players (`data/summary-pN.json`)
continued on a GPU with the same seed and rules (`report.frontier`): 9.33e10 two-player games against
the CPU run's 10^9, and 1.2e9 to 1.7e9 for 3-6 players against 10^8. `frontier_record` gives, per
player count, `analysis.tail.record_odds` of both runs (the geometric tails fitted beyond each cut of
`report.frontier.FRONTIER_CUTS` and the log-linear hazard, each with its sampling interval, and each
model's out-of-sample tests, fitted up to the splits of `report.frontier.frontier_splits`; a model
passes where none of them rejects at `analysis.tail.PASS_LEVEL`), and `chain_frontier` the
penalty-card chain's survival check against the frontier's two-player counts
(`analysis.chain_record.recheck`: the chain as committed, the counts 93 times more). `frontier_rows` makes them rows of the findings table (what the prose quotes) and
`record_markdown` the record table of README.md (tests/analysis/test_record_odds.py holds it to this code;
``python -m beggarstats.report.record_frontier`` writes it).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import numpy as np

from .frontier import FRONTIER_CUTS, frontier_splits, frontier_summaries

__all__ = ["frontier_record", "chain_frontier", "frontier_rows", "record_markdown", "update_readme", "BEGIN", "END"]


@functools.lru_cache(maxsize=4)
def _record(folder: str, stamp: tuple) -> dict:
    """`frontier_record` for one state of the files (``stamp``: their sizes and times)."""
    from ..analysis.tail import record_odds

    out = {}
    for players, (s, base) in frontier_summaries(Path(folder)).items():
        out[players] = dict(frontier=record_odds(s, splits=frontier_splits(s), thresholds=FRONTIER_CUTS),
                            cpu=record_odds(base, thresholds=FRONTIER_CUTS), summary=s, base=base)
    return out


def _stamp(folder: Path) -> tuple:
    files = sorted(folder.glob("summary-p*.json")) + sorted(folder.parent.glob("summary-p*.json"))
    return tuple((str(f), f.stat().st_size, f.stat().st_mtime_ns) for f in files)


def frontier_record(folder) -> dict:
    """{players: dict(frontier=`record_odds` of the frontier run, cpu=`record_odds` of the CPU run
    it continues, summary=, base=)} for every ``folder/summary-p*.json`` (``folder``: data/frontier);
    {} where there is none. Computed once per state of the files (a few seconds)."""
    folder = Path(folder)
    return _record(str(folder), _stamp(folder)) if folder.is_dir() else {}


def chain_frontier(data) -> dict | None:
    """The penalty-card chain's survival check (``data/tail/results-cards.json``) made again against
    the two-player frontier run (`analysis.chain_record.recheck`), or None where either is missing."""
    from ..analysis.chain_record import recheck
    from ..run.summary import load_summary

    data = Path(data)
    path, run = data / "tail" / "results-cards.json", data / "frontier" / "summary-p2.json"
    if not (path.is_file() and run.is_file()):
        return None
    res = json.loads(path.read_text())
    return None if not res.get("survival") else recheck(res["survival"], res["games"], load_summary(run))


def frontier_rows(data) -> list[dict]:
    """The findings rows of the frontier runs under ``data`` (the repository's data/): per player
    count the record's distance beyond the longest game seen, the geometric fits by cut and the
    log-linear hazard (each with the out-of-sample verdict of its model), the out-of-sample tests
    (goodness-of-fit rows, outside the Holm family), and for two players the chain's check against
    the frontier's counts and its record odds with that check's allowance. None without data/frontier."""
    from ..analysis.summaries import RECORD_CARDS
    from ..analysis.tail import TAIL_MODELS
    from .findings import finding

    rows, said = [], {True: "passes", False: "fails"}
    odds = f"on file (data/frontier): random deals to expect one longer than {RECORD_CARDS:,} cards"
    for p, rec in frontier_record(Path(data) / "frontier").items():
        o = rec["frontier"]
        games, verdicts = o["games"], {m: said[o["passes"][m]] for m in TAIL_MODELS}
        rows.append(finding(f"on file (data/frontier): cards by which the record ({RECORD_CARDS:,}) is longer than the "
                            f"longest of the {games:,} games ({o['longest']:,} cards), {p} players: the record odds "
                            "are an extrapolation that far", o["beyond"], np.nan, np.nan, games, "cards, max",
                            key=f"frontier_record_beyond_p{p}"))
        geo = o["fits"][o["fits"]["model"] == "geometric"]
        for u, r in zip(FRONTIER_CUTS, geo.itertuples()):
            first = "the longest 1%; " if u is None else ""
            rows.append(finding(f"{odds}, {p} players: geometric tail fitted beyond {r.threshold:,.0f} cards ({first}"
                                f"{r.games:,} games beyond; the constant hazard {verdicts[TAIL_MODELS[0]]} its "
                                "out-of-sample test; interval: sampling only)", r.deals, r.deals_low, r.deals_high,
                                games, "deals", key=f"frontier_record_cut{u or 'top1'}_p{p}"))
        r = o["fits"][o["fits"]["model"] == "log-linear hazard"].iloc[0]
        rows.append(finding(f"{odds}, {p} players: log-linear hazard fitted beyond {r['threshold']:,.0f} cards, which "
                            f"{verdicts[TAIL_MODELS[1]]} its out-of-sample test (interval: sampling only)",
                            r["deals"], r["deals_low"], r["deals_high"], games, "deals",
                            key=f"frontier_record_loglinear_p{p}"))
        for t in o["tests"].itertuples():
            short = "constant" if t.model == TAIL_MODELS[0] else "loglinear"
            rows.append(finding(f"on file (data/frontier): tail fitted on {t.fit_from:,.0f}-{t.fit_to:,.0f} cards only "
                                f"({t.model}), {p} players: G of the {t.at_risk:,} games longer than {t.fit_to:,.0f} "
                                f"against its prediction for {t.fit_to:,.0f}-{t.predict_to:,.0f} cards and beyond "
                                f"({t.dof} df; {t.ended:,} ended there, {t.expected:,.1f} expected; {t.beyond:,} "
                                f"longer, {t.expected_beyond:,.1f} expected)", t.deviance, np.nan, np.nan, t.at_risk,
                                "chi2", key=f"frontier_prediction_{short}_{t.fit_to:.0f}_p{p}", p_value=t.p_value,
                                test="fit"))
    return rows + _chain_rows(data)


def _chain_rows(data) -> list[dict]:
    """The chain's check against the two-player games on file and its odds with that allowance."""
    from .findings import finding

    chain = chain_frontier(data)
    if chain is None:
        return []
    games, horizon = chain["games"], chain["horizon"]
    rows = [finding(f"penalty-card chain (horizon {horizon:,}) against the {games:,} two-player games on file "
                    f"(data/frontier): games longer than {k['cards']:,} cards, seen over expected ({k['seen']:,} seen, "
                    f"{k['expected']:,.1f} expected; interval: the count's exact Poisson range over the chain's 95% "
                    "interval)", k["ratio"], k["ratio_low"], k["ratio_high"], games, "ratio",
                    key=f"frontier_chain_check{k['cards']}_p2") for k in chain["checks"]]
    checks = ", ".join(f"{k['cards']:,}" for k in chain["checks"])
    (lo, hi), (alo, ahi) = chain["allowance"], chain["with_allowance"]
    rows.append(finding(f"penalty-card chain (horizon {horizon:,}), 2 players: random deals to expect one longer than "
                        f"{chain['record']:,} cards, with the misspecification allowance of its survival against the "
                        f"{games:,} games on file at {checks} cards (x{lo:.2f} to x{hi:.2f})", 1 / chain["probability"],
                        1 / ahi, 1 / alo, games, "deals", key="frontier_chain_record_p2"))
    return rows


def _deals(r) -> str:
    if not np.isfinite(r.deals_low):
        return f"{r.deals:.2g} (no interval)" if np.isfinite(r.deals) else "–"
    return f"{r.deals:.2g} [{r.deals_low:.2g}, {r.deals_high:.2g}]"


def record_markdown(data) -> str:
    """README.md's record table: for every player count of ``data``/frontier, how far the record lies
    beyond the longest game on file, then the geometric fits by cut and the log-linear hazard with
    their models' out-of-sample verdicts, each beside the same fit of the committed CPU run; then the
    penalty-card chain's check against both runs and its record odds with each check's allowance."""
    from ..analysis.summaries import RECORD_CARDS
    from ..analysis.tail import TAIL_MODELS, model_verdict

    lines = [f"| players | games on file: longest (cards) | the record ({RECORD_CARDS:,}) beyond it | tail model | "
             "fitted beyond (cards) | games beyond | out of sample, on file | random deals to expect one longer than "
             "the record, on file (95%: sampling only) | the same fit of the committed CPU run: games beyond, random "
             "deals, out of sample |",
             "|---:|---:|---:|---|---:|---:|---|---:|---:|"]
    for p, rec in frontier_record(Path(data) / "frontier").items():
        o, cpu = rec["frontier"], rec["cpu"]
        for i, (r, c) in enumerate(zip(o["fits"].itertuples(), cpu["fits"].itertuples())):
            model = TAIL_MODELS[0] if r.model == "geometric" else r.model
            far = f"{o['beyond']:,} cards ({o['record'] / o['longest']:.2f}x)"
            head = f"| {p} | {o['games']:,}: {o['longest']:,} | {far} |" if i == 0 else "| | | |"
            name = "geometric (constant hazard)" if r.model == "geometric" else r.model
            beside = f"{c.games:,}, {_deals(c)}" if c.games else "no game beyond"
            lines.append(f"{head} {name} | {r.threshold:,.0f} | {r.games:,} | {model_verdict(o, model)} | "
                         f"{_deals(r)} | {beside}, {model_verdict(cpu, model)} |")
    chain = chain_frontier(data)
    return "\n".join(lines if chain is None else lines + _chain_markdown(chain, data))


def _chain_markdown(chain: dict, data) -> list[str]:
    """The chain's check against the runs on file and the committed CPU run, and its odds with each."""
    from ..analysis.summaries import RECORD_CARDS

    cpu = json.loads((Path(data) / "tail" / "results-cards.json").read_text())
    base = cpu["survival"]

    def ratio(k):
        return f"{k['ratio']:.3f} [{k['ratio_low']:.3f}, {k['ratio_high']:.3f}]"

    lines = ["", f"| penalty-card chain (horizon {chain['horizon']:,}): games longer than (cards) | on file: seen | "
             "expected | seen / expected (95%) | the committed CPU run: seen | expected | seen / expected (95%) |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for k, b in zip(chain["checks"], base["checks"]):
        lines.append(f"| {k['cards']:,} | {k['seen']:,} | {k['expected']:,.1f} | {ratio(k)} | {b['seen']:,} | "
                     f"{b['expected']:,.1f} | {ratio(b)} |")
    p, (lo, hi) = chain["probability"], chain["sampling"]
    lines += ["", f"| penalty-card chain, two players | random deals to expect one longer than {RECORD_CARDS:,} cards "
              "(95%) |", "|---|---:|",
              f"| its bootstrap alone ({chain['replicates']} draws, sampling only) | {1 / p:.3g} [{1 / hi:.3g}, "
              f"{1 / lo:.3g}] |"]
    for what, run, games in (("on file", chain, chain["games"]), ("of the committed CPU run", base, cpu["games"])):
        (a, b), (alo, ahi) = run["allowance"], run["with_allowance"]
        lines.append(f"| with the allowance of its check against the {games:,} games {what} (x{a:.2f} to x{b:.2f}) | "
                     f"{1 / p:.3g} [{1 / ahi:.3g}, {1 / alo:.3g}] |")
    return lines


BEGIN = ("<!-- record on file: generated by report.record_frontier.record_markdown, checked by "
         "tests/analysis/test_record_odds.py -->")
END = "<!-- end record on file -->"


def update_readme(root) -> bool:
    """Write `record_markdown` of ``root``/data between `BEGIN` and `END` of ``root``/README.md;
    True where the file changed."""
    from ..run.outputs import write_text

    path = Path(root) / "README.md"
    text = path.read_text()
    if BEGIN not in text or END not in text:
        raise ValueError(f"{path} has no block `{BEGIN}` ... `{END}`.")
    head, rest = text.split(BEGIN, 1)
    new = head + BEGIN + "\n" + record_markdown(Path(root) / "data") + "\n" + END + rest.split(END, 1)[1]
    if new != text:
        write_text(path, new)
    return new != text


if __name__ == "__main__":  # pragma: no cover
    update_readme(Path(__file__).resolve().parents[2])
