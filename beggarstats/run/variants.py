"""Variants against base rules, paired, as one family: what `beggarstats compare` and
`data/compare_variants.py` share.

A variant is written as rule options over the base rules, the names and values of `Rules`
(`game.rules.rule_options`, the list the command line's flags come from): ``jokers=2``,
``end=empty``, several joined by ``+`` (``jokers=1+joker_mode=beggar``); a flag alone turns it on
(``shuffle_pile``), and a value alone stands for the one option that has it (``ccw`` is
``direction=ccw``, ``passes_on`` is ``exhausted_tribute=passes_on``). Each variant is played
against the base on the same deals (`run.compare.compare`: paired, constant memory); `plan_pairs`
sizes a run from a pilot for a target detectable effect, and `variant_rows` makes the table: the
change in mean length (paired t) and in seat 0's win rate (Tango's score interval), with Holm's
adjustment over every row (`statsmodels.stats.multitest.multipletests`) and the smallest effect
each row detects at 80% power at the level of Holm's strictest step, alpha / m (labelled so).
"""

from __future__ import annotations

import math

from ..game.rules import Rules, check_rules, rule_options
from .compare import PairedMoments, compare

__all__ = ["parse_variant", "parse_variants", "variant_label", "plan_pairs", "compare_to_detect", "variant_rows",
           "STANDARD_VARIANTS", "POWER", "ALPHA"]

POWER, ALPHA = 0.8, 0.05

# Every variant of the rules, as `beggarstats compare --variants` writes it (issue #38's list).
STANDARD_VARIANTS = ("shuffle_pile", "shuffle_on_loop", "jokers=1", "jokers=2", "jokers=1+joker_mode=beggar",
                     "end=empty", "end=unable", "passes_on", "ccw", "leader=next")

_FLAG_WORDS = {"true": True, "on": True, "yes": True, "1": True, "false": False, "off": False, "no": False, "0": False}


def _value(opt, text: str, spec: str):
    if opt.kind == "flag":
        if text.lower() not in _FLAG_WORDS:
            raise ValueError(f"--variants: variant {spec!r}: {opt.name} takes on or off, but {text!r} was passed")
        return _FLAG_WORDS[text.lower()]
    if opt.kind == "int":
        if text.lower() == "none" and opt.optional:
            return None
        try:
            v = int(text)
        except ValueError:
            raise ValueError(f"--variants: variant {spec!r}: {opt.name} takes a whole number from {opt.low} to "
                             f"{opt.high}, but {text!r} was passed") \
                from None
        if not opt.low <= v <= opt.high:
            raise ValueError(f"--variants: variant {spec!r}: {opt.name} takes a whole number from {opt.low} to "
                             f"{opt.high}, but {v} was passed")
        return v
    if text not in opt.choices:
        raise ValueError(f"--variants: variant {spec!r}: {opt.name} must be one of {list(opt.choices)}, but {text!r} "
                         f"was passed")
    return text


def parse_variant(spec: str, base: Rules) -> Rules:
    """The rules of the variant ``spec`` over ``base`` (see the module's docstring). A Beggar or
    super joker mode asked for without jokers over a base without them gets one joker."""
    options = {o.name: o for o in rule_options() if o.name != "players"}
    changes = {}
    for part in str(spec).split("+"):
        part = part.strip()
        if not part:
            raise ValueError(f"--variants: variant {spec!r} has an empty part (two '+' in a row, or one at an end)")
        if "=" in part:
            name, text = (x.strip() for x in part.split("=", 1))
            name = name.replace("-", "_")
            if name not in options:
                raise ValueError(f"--variants: variant {spec!r}: {name!r} is not a rule option (one of {sorted(options)})")
            changes[name] = _value(options[name], text, spec)
            continue
        flag = part.replace("-", "_")
        if flag in options and options[flag].kind == "flag":
            changes[flag] = True
            continue
        owners = [o for o in options.values() if o.kind == "choice" and part in o.choices]
        if len(owners) != 1:
            raise ValueError(f"--variants: variant {spec!r}: {part!r} is no rule flag nor a value of exactly one option; "
                             "write name=value (e.g. end=empty)")
        changes[owners[0].name] = part
    if "joker_mode" in changes and "jokers" not in changes and base.jokers == 0:
        changes["jokers"] = 1
    values = base.to_dict()
    values.update(changes)
    rules = check_rules(values)
    if rules == base:
        raise ValueError(f"--variants: variant {spec!r} is the base rules themselves")
    return rules


def parse_variants(text: str, base: Rules) -> list[tuple[str, Rules]]:
    """``--variants a,b,...``: (spec, rules) per variant, in order, each refused with the reason."""
    specs = [s.strip() for s in str(text).split(",") if s.strip()]
    if not specs:
        raise ValueError("--variants names no variant")
    return [(s, parse_variant(s, base)) for s in specs]


def variant_label(spec: str) -> str:
    """A reader's name for a variant spec: 'jokers=1+joker_mode=beggar' -> '1 Beggar joker'."""
    named = {"jokers=1": "1 super joker", "jokers=2": "2 super jokers", "jokers=1+joker_mode=beggar": "1 Beggar joker",
             "jokers=2+joker_mode=beggar": "2 Beggar jokers", "passes_on": "passes_on", "ccw": "ccw"}
    return named.get(spec, spec)


def plan_pairs(base: Rules, variant: Rules, *, target: float, family: int, seed: int, pilot: int = 20_000,
               max_pairs: int | None = None, n_jobs=None):
    """Pairs for ``variant`` against ``base`` to detect a mean length difference of ``target``
    cards at 80% power at Holm's strictest level (alpha / ``family``), from a pilot of ``pilot``
    pairs (games 0 .. pilot-1, reused by the run): (pairs, pilot moments, pilot seconds). Never
    fewer than the pilot nor than the t interval needs at the pilot's skewness; at most
    ``max_pairs``."""
    import time

    from statsmodels.stats.power import TTestPower

    started = time.perf_counter()
    m = compare(variant, base, pilot, seed=seed, n_jobs=n_jobs)
    seconds = time.perf_counter() - started
    alpha = ALPHA / family
    if m.pairs < 2 or m.sd == 0:
        n = pilot
    else:
        # (z_{1-alpha/2} + z_power) sd / target, with the t quantiles of TTestPower at large n
        k = float(TTestPower().solve_power(nobs=10**6, alpha=alpha, power=POWER)) * math.sqrt(10**6)
        n = math.ceil((k * m.sd / target) ** 2)
        skew = m.skewness
        if math.isfinite(skew):
            n = max(n, math.ceil(m.t_pairs_needed))
        n = max(n, pilot)
    if max_pairs is not None:
        n = max(pilot, min(n, max_pairs))
    return n, m, seconds


def compare_to_detect(base: Rules, variant: Rules, *, target: float, family: int, seed: int, pilot: int = 20_000,
                      max_pairs: int | None = None, prior: PairedMoments | None = None, saved=None,
                      n_jobs=None) -> PairedMoments:
    """Paired moments of ``variant`` against ``base`` on games 0, 1, ... until the run detects a
    mean length difference of ``target`` cards at 80% power at Holm's strictest level (alpha /
    ``family``): first the pairs `plan_pairs` sizes from its pilot, then, while the run's own sd
    says it detects less, (detectable / target)^2 times its games and 2% more; at most
    ``max_pairs`` games. The steps depend on the games only, so the same arguments give the same
    moments however often the run was interrupted: ``prior`` (moments of games 0 .. prior.games-1
    under the same rules and seed, e.g. the last file written) is continued, not replayed, and
    ``saved(moments)`` is called after every step."""
    n, m, _ = plan_pairs(base, variant, target=target, family=family, seed=seed, pilot=pilot,
                         max_pairs=max_pairs, n_jobs=n_jobs)
    if (prior is not None and prior.games >= m.games and prior.seed == seed and prior.rules_version == m.rules_version
            and prior.rules_a == m.rules_a and prior.rules_b == m.rules_b):
        m = prior
    cap = math.inf if max_pairs is None else max_pairs
    level = ALPHA / family
    while True:
        if m.games < n:
            m = m + compare(variant, base, n - m.games, seed=seed, start=m.games, n_jobs=n_jobs)
            if saved is not None:
                saved(m)
        if m.pairs < 2 or m.sd == 0 or m.games >= cap:
            return m
        reach = m.detectable(power=POWER, alpha=level)
        if reach <= target:
            return m
        n = int(min(cap, math.ceil(m.games * (reach / target) ** 2 * 1.02)))


def _valid_t(m: PairedMoments) -> bool:
    return m.sum_d3 is not None and m.pairs >= 2 and m.sd > 0 and m.pairs >= m.t_pairs_needed


def variant_rows(results, *, alpha: float = ALPHA, confidence: float = 0.95) -> list[dict]:
    """One row per (variant, players, metric) of ``results`` [(spec, PairedMoments)]: the change in
    mean length (cards, paired t) and in seat 0's win rate (a proportion, Tango's score interval),
    with p-values, Holm's adjustment over every row, and the detectable effect at Holm's strictest
    level (alpha / m, 80% power; column ``detectable_level``).

    ``verdict``: 'detected' / 'not detected' (Holm at 5%), 'identical in every pair' (p = 1: no
    pair differs, as 2-player games under ccw, passes_on or leader=next, and shuffle_on_loop on the
    deals both rules finish; a length row then has no detectable effect, a seat-0 row the one of a
    single discordant pair), or 'no test (too skewed)'. A length row with fewer pairs than the t interval needs at its
    skewness gives its estimate without interval or p-value ('too skewed for the t interval')."""
    from statsmodels.stats.multitest import multipletests

    rows = []
    for spec, m in results:
        players = int(m.rules_a["players"])
        base = dict(variant=spec, label=variant_label(spec), players=players, pairs=m.pairs, games=m.games,
                    seed=m.seed, design="paired")
        if m.pairs == 0:  # no deal finished under both rules (a cut-off before any game ends)
            interval, est, low, high, p = "no pair finished under both rules", math.nan, math.nan, math.nan, math.nan
        elif m.pairs >= 2 and m.sd == 0:
            interval, est, low, high, p = "identical in every pair", m.mean, m.mean, m.mean, 1.0
        elif _valid_t(m):
            interval, est, (low, high), p = "paired t", m.mean, m.interval(confidence), m.p_value()
        else:
            interval, est, low, high, p = "too skewed for the t interval", m.mean, math.nan, math.nan, math.nan
        row = dict(base, metric="mean_length_diff", unit="cards", estimate=est, low=low, high=high, p_value=p,
                   interval=interval, sd=m.sd if m.pairs >= 2 else math.nan)
        if m.sum_e is not None and m.pairs >= 2 and m.rules_a.get("jokers") != m.rules_b.get("jokers"):
            row["per_card"], row["per_card_low"], row["per_card_high"] = m.per_card_dealt(confidence)
        rows.append(row)
        if m.seat0_a_only is not None and m.pairs > 0:
            low, high = m.seat0_interval(confidence)
            rows.append(dict(base, metric="seat0_win_diff", unit="proportion", estimate=m.seat0_diff, low=low,
                             high=high, p_value=m.seat0_p_value(), interval="Tango score",
                             discordant=m.seat0_a_only + m.seat0_b_only))
    tested = [i for i, r in enumerate(rows) if math.isfinite(r["p_value"])]
    family = max(len(rows), 1)
    level = alpha / family
    if tested:
        reject, p_holm, _, _ = multipletests([rows[i]["p_value"] for i in tested], alpha=alpha, method="holm")
        for i, rej, ph in zip(tested, reject, p_holm):
            rows[i]["p_holm"], rows[i]["holm_reject"] = float(ph), bool(rej)
    for r in rows:
        r.setdefault("p_holm", math.nan)
        r.setdefault("holm_reject", False)
        r["verdict"] = ("no test (no pair finished)" if r["pairs"] == 0
                        else "identical in every pair" if r["interval"] == "identical in every pair"
                        or (r["metric"] == "seat0_win_diff" and r["discordant"] == 0)
                        else "no test (too skewed)" if not math.isfinite(r["p_value"])
                        else "detected" if r["holm_reject"] else "not detected")
        r["family"] = family
        r["detectable_level"] = level
    _add_detectable(rows, level)
    return rows


def _add_detectable(rows, level):
    """Each row's smallest effect detected at 80% power at two-sided ``level``: the one-sample t
    power of statsmodels for the length (times the sd of the differences), McNemar's normal
    approximation at the observed discordant share for seat 0 (`paired_props.paired_detectable`)."""
    from statsmodels.stats.power import TTestPower

    from .paired_props import paired_detectable

    for r in rows:
        if r["pairs"] < 2:
            r["detectable"] = math.nan
            continue
        if r["metric"] == "mean_length_diff":
            if not r["sd"] > 0:  # identical in every pair: no spread to size a test by
                r["detectable"] = math.nan
                continue
            r["detectable"] = float(TTestPower().solve_power(nobs=r["pairs"], alpha=level, power=POWER)) * r["sd"]
        else:
            r["detectable"] = paired_detectable(r["discordant"], 0, r["pairs"], alpha=level, power=POWER)
