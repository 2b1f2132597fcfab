"""The record's odds in words, from the findings rows: the runs on file first (`data/frontier`,
`report.record_frontier`), the committed CPU runs beside them. Part of `findings_prose`'s blocks.

One event throughout: a game longer than the record. A tail model "passes" where none of its
out-of-sample tests rejects at `analysis.tail.PASS_LEVEL` (README.md's rule); where none passes, no
curve fit is quoted as the record's odds.
"""

from __future__ import annotations

import re

from .findings import fmt, fmt_p

__all__ = ["join", "record_words", "passes"]


def join(items) -> str:
    """'a', 'a and b', 'a, b and c'."""
    items = [str(i) for i in items]
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def passes(r, model: str, p: int, prefix: str = "frontier_prediction_") -> bool | None:
    """Whether a tail model ('constant' or 'loglinear') passes every out-of-sample test of its rows
    (``prefix``: 'frontier_prediction_' or the CPU run's 'scale_prediction_'; not rejected at
    `PASS_LEVEL`); None where there are none."""
    from ..analysis.tail import PASS_LEVEL

    keys = [k for k in r.keys(f"{prefix}{model}_") if k.endswith(f"_p{p}")]
    return None if not keys else not any(r.row(k)["p_value"] < PASS_LEVEL for k in keys)


def _worst(r, model: str, p: int, prefix: str) -> str:
    """The lowest p of a model's out-of-sample tests, with where its fit band ended."""
    keys = [k for k in r.keys(f"{prefix}{model}_") if k.endswith(f"_p{p}")]
    k = min(keys, key=lambda k: r.row(k)["p_value"])
    upto = re.search(r"_(\d+)_p\d$", k).group(1)
    return f"fitted up to {int(upto):,} cards: p {fmt_p(r.row(k)['p_value'])}"


def _missed(r, model: str, p: int, prefix: str) -> tuple[str, str]:
    """(seen, expected) games beyond the predicted band of a model's worst out-of-sample test."""
    keys = [k for k in r.keys(f"{prefix}{model}_") if k.endswith(f"_p{p}")]
    k = min(keys, key=lambda k: r.row(k)["p_value"])
    return re.search(r"; ([\d,]+) longer, ([\d,.]+) expected\)", r.row(k)["finding"]).groups()


def _verdict(r, model: str, p: int, prefix: str) -> str:
    ok = passes(r, model, p, prefix)
    return "passes" if ok else f"fails ({_worst(r, model, p, prefix)})"


def _cuts(r, p: int) -> list[tuple[int, str]]:
    """(cut, key) of the frontier's geometric fits beyond fixed cuts, in order."""
    found = [(int(m.group(1)), k) for k in r.keys("frontier_record_cut")
             if (m := re.fullmatch(rf"frontier_record_cut(\d+)_p{p}", k))]
    return sorted(found)


def _beyond(r, key: str) -> str:
    return re.search(r"\(([\d,]+) games beyond", r.row(key)["finding"]).group(1)


def record_words(r) -> list[str]:
    """The record's odds as the data allow, in this order: how far beyond the longest game on file
    the extrapolation runs, the fits by cut with their sampling intervals, the models' out-of-sample
    verdicts, the chain's check against the games on file and its odds, the committed CPU run's
    figures beside, then 3-6 players. Nothing where the findings hold no frontier rows."""
    k = "frontier_record_beyond_p2"
    if k not in r:
        return []
    row = r.row(k)
    games = r.n(k)
    longest = re.search(r"\(([\d,]+) cards\), 2 players", row["finding"]).group(1)
    record = re.search(r"the record \(([\d,]+)\)", row["finding"]).group(1)
    cuts = _cuts(r, 2)
    first = re.search(r"beyond ([\d,]+) cards", r.row("frontier_record_cuttop1_p2")["finding"]).group(1)
    text = (f"The record game ({record} cards, and beating it means lasting longer) is {r.count(k)} cards longer than "
            f"the longest of the {games} two-player deals on file ({longest} cards; `data/frontier`, the committed "
            "CPU run continued on a GPU): its odds are an extrapolation that far. Geometric tails fitted beyond "
            f"{first} (the longest 1%), {join(f'{u:,}' for u, _ in cuts)} cards expect one random deal in "
            f"{r.both('frontier_record_cuttop1_p2')}, {join(r.both(c) for _, c in cuts)} to beat it "
            f"({join(_beyond(r, c) for _, c in cuts)} games beyond {join(f'{u:,}' for u, _ in cuts)} cards; each "
            "interval is that fit's sampling error only, and widens as the cut leaves fewer games).")
    pre = "frontier_prediction_"
    constant, loglinear = passes(r, "constant", 2, pre), passes(r, "loglinear", 2, pre)
    text += (" Out of sample (fitted up to a length, the next 1,000 cards predicted; a model passes where none of "
             f"its tests rejects at 5%) the constant hazard {_verdict(r, 'constant', 2, pre)} and the log-linear "
             f"hazard, one in {r.both('frontier_record_loglinear_p2')} by its fit, {_verdict(r, 'loglinear', 2, pre)}")
    if not (constant or loglinear):
        seen, expected = _missed(r, "constant", 2, pre)
        text += (f": with this many games neither curve holds beyond its fit band (the worst prediction: {seen} games "
                 f"longer than its band against {expected} expected), so no curve fit gives the record's odds.")
    else:
        text += "."
    checks = [c for c in r.keys("frontier_chain_check") if c.endswith("_p2")]
    if checks and "frontier_chain_record_p2" in r:
        lengths = [format(int(re.search(r"check(\d+)_", c).group(1)), ",") for c in checks]
        ratios = [f"{r.row(c)['estimate']:.3f}" for c in checks]
        text += (" A second, mechanism-based estimate, the tail chain on hand sizes and penalty cards (docs/tail.md), "
                 f"expects {join(ratios)} times the games seen longer than {join(lengths)} cards on file (seen over "
                 f"expected), and gives one in {r.both('chain_record_p2')} from its bootstrap alone and "
                 f"{r.ci('frontier_chain_record_p2')} with the allowance that this check asks for.")
    text += _cpu_words(r)
    return [text + _others(r)]


def _cpu_words(r) -> str:
    """The committed CPU run's figures, beside those on file."""
    k = "scale_record_beyond_p2"
    if k not in r:
        return ""
    cuts = sorted((int(m.group(1)), c) for c in r.keys("scale_record_cut")
                  if (m := re.fullmatch(r"scale_record_cut(\d+)_p2", c)))
    longest = re.search(r"\(([\d,]+) cards\), 2 players", r.row(k)["finding"]).group(1)
    pre = "scale_prediction_"
    text = (f" Beside them, the committed CPU run of {r.n(k)} games (longest {longest} cards) gives one in "
            f"{r.both('scale_deals_p2')} beyond the longest 1% and {join(r.both(c) for _, c in cuts)} beyond "
            f"{join(f'{u:,}' for u, _ in cuts)} cards; there the constant hazard {_verdict(r, 'constant', 2, pre)} "
            f"and the log-linear hazard {_verdict(r, 'loglinear', 2, pre)} out of sample")
    if "chain_record_allowance_p2" in r:
        row = r.row("chain_record_allowance_p2")
        factors = re.search(r"\((x[\d.]+ to x[\d.]+)\)", row["finding"]).group(1)
        text += (f", and the chain's check against it widens the chain's odds to {r.ci('chain_record_allowance_p2')} "
                 f"({factors})")
    return text + "."


def _others(r) -> str:
    """3-6 players: the distance beyond the longest game on file and the span of the fits by cut."""
    others = sorted(int(c.removeprefix("frontier_record_beyond_p")) for c in r.keys("frontier_record_beyond_p"))[1:]
    if not others:
        return ""
    spans = []
    for p in others:
        keys = [c for _, c in _cuts(r, p)]
        low = min(r.row(c)["low"] for c in keys)
        high = max(r.row(c)["high"] for c in keys)
        spans.append(f"{p} players [{fmt(low, 'deals')}, {fmt(high, 'deals')}]")
    cuts = join(f"{u:,}" for u, _ in _cuts(r, others[0]))
    text = (f" With {join(others)} players ({join(r.n(f'frontier_record_beyond_p{p}') for p in others)} games on file) "
            f"the record lies {join(r.count(f'frontier_record_beyond_p{p}') for p in others)} cards beyond the longest "
            f"game seen, and the geometric fits beyond {cuts} cards span, interval to interval: {', '.join(spans)} "
            "deals: no one number says more than that.")
    failed = {m: [p for p in others if passes(r, m, p) is False] for m in ("constant", "loglinear")}
    for m, name in (("constant", "constant hazard"), ("loglinear", "log-linear hazard")):
        if failed[m]:
            text += f" The {name} fails its out-of-sample test with {join(failed[m])} players and gives them no odds."
    return text
