"""Variants against base rules, paired, as one family: what `beggarstats compare` and
`data/compare_variants.py` share.

A variant is written as rule options over the base rules, the names and values of `Rules`
(`game.rules.rule_options`, the list the command line's flags come from): ``jokers=2``,
``end=empty``, several joined by ``+`` (``jokers=1+joker_mode=beggar``); a flag alone turns it on
(``shuffle_pile``), and a value alone stands for the one option that has it (``ccw`` is
``direction=ccw``, ``passes_on`` is ``exhausted_tribute=passes_on``). Each variant is played
against the base on the same deals (`run.compare.compare`: paired, constant memory); `plan_pairs`
sizes a run from a pilot for a target detectable effect, `compare_to_detect` plays and extends it
until the run itself detects the target and holds the t interval's skewness rule (a plan past
`MAX_PAIRS` deals a row is refused with its time unless ``max_pairs`` raises it), and
`variant_rows` makes the table: the
change in mean length (paired t) and in seat 0's win rate (Tango's score interval), with Holm's
adjustment over every row (`statsmodels.stats.multitest.multipletests`) and the smallest effect
each row detects at 80% power at the level of Holm's strictest step, alpha / m (labelled so).
"""

from __future__ import annotations

import math
import numbers
import sys
from dataclasses import replace

from ..game.rules import Rules, check_rules, rule_options
from .compare import PairedMoments, compare

__all__ = ["parse_variant", "parse_variants", "variant_spec", "variant_label", "plan_pairs", "compare_to_detect",
           "variant_rows", "STANDARD_VARIANTS", "POWER", "ALPHA", "MAX_PAIRS"]

POWER, ALPHA = 0.8, 0.05
# Deals a row plays without being asked for (``max_pairs=``, --max-games): a plan past it is refused
# with its time at the pilot's pace, and a run extended to it stops there.
MAX_PAIRS = 10**9
TIMED_DEALS = 2**13  # deals timed for the estimate of a refused plan

# Every variant of the rules, as `beggarstats compare --variants` writes it (issue #38's list).
STANDARD_VARIANTS = ("shuffle_pile", "shuffle_on_loop", "jokers=1", "jokers=2", "jokers=1+joker_mode=beggar",
                     "end=empty", "end=unable", "passes_on", "ccw", "leader=next")

_FLAG_WORDS = {"true": True, "on": True, "yes": True, "1": True, "false": False, "off": False, "no": False, "0": False}


def _value(opt, text: str, spec: str):
    if opt.kind == "flag":
        if text.lower() not in _FLAG_WORDS:
            raise ValueError(f"--variants: variant {spec!r}: {opt.name!r} takes on or off, but {text!r} was passed")
        return _FLAG_WORDS[text.lower()]
    if opt.kind == "int":
        if text.lower() == "none" and opt.optional:
            return None
        try:
            v = int(text)
        except ValueError:
            raise ValueError(f"--variants: variant {spec!r}: {opt.name!r} takes a whole number from {opt.low} to "
                             f"{opt.high}, but {text!r} was passed") \
                from None
        if not opt.low <= v <= opt.high:
            raise ValueError(f"--variants: variant {spec!r}: {opt.name!r} takes a whole number from {opt.low} to "
                             f"{opt.high}, but {v} was passed")
        return v
    if text not in opt.choices:
        raise ValueError(f"--variants: variant {spec!r}: {opt.name!r} must be one of {list(opt.choices)}, but {text!r} "
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
    if rules.deck != base.deck:
        raise ValueError(f"--variants: variant {spec!r} changes the deck, so it deals other cards than the base rules "
                         "and cannot be paired with them; compare decks as independent samples "
                         "(bs.analysis.compare_variants on a table of each)")
    return rules


def parse_variants(text: str, base: Rules) -> list[tuple[str, Rules]]:
    """``--variants a,b,...``: (spec, rules) per variant, in order, each refused with the reason."""
    specs = [s.strip() for s in str(text).split(",") if s.strip()]
    if not specs:
        raise ValueError("--variants names no variant")
    return [(s, parse_variant(s, base)) for s in specs]


def variant_spec(variant: Rules | dict, base: Rules | dict) -> str:
    """The spec of every option in which ``variant`` differs from ``base`` (two `Rules` or their
    dicts), in the order of `rule_options`: what a spec such as 'beggar' plays
    ('jokers=1+joker_mode=beggar')."""
    a, b = check_rules(variant).to_dict(), check_rules(base).to_dict()
    parts = []
    for o in rule_options():
        v = a[o.name]
        if v == b[o.name]:
            continue
        parts.append((o.name if v else f"{o.name}=off") if o.kind == "flag" else f"{o.name}={'none' if v is None else v}")
    return "+".join(parts)


_LABELS = {"jokers=1": "1 super joker", "jokers=2": "2 super jokers", "jokers=1+joker_mode=beggar": "1 Beggar joker",
           "jokers=2+joker_mode=beggar": "2 Beggar jokers", "exhausted_tribute=passes_on": "passes_on",
           "direction=ccw": "ccw", "passes_on": "passes_on", "ccw": "ccw"}


def variant_label(spec: str, moments: PairedMoments | None = None) -> str:
    """A reader's name for a variant: 'jokers=1+joker_mode=beggar' -> '1 Beggar joker'. With the
    ``moments`` of the variant (rules_a) against the base (rules_b), the name of what was played,
    whatever the spec's spelling ('beggar' -> '1 Beggar joker')."""
    if moments is not None:
        spec = variant_spec(moments.rules_a, moments.rules_b)
    return _LABELS.get(spec, spec)


def _check_plan(target, family, pilot, max_pairs) -> tuple:
    """The sizing arguments of `plan_pairs`, checked by name: (target, family, pilot, max_pairs)."""
    from ..game.checks import whole
    from .limits import MAX_GAME_ID

    if isinstance(target, bool) or not isinstance(target, numbers.Real) or not 0 < target < math.inf:
        raise ValueError(f"The value for `target` must be a number of cards > 0, but {target!r} was passed.")
    family, pilot = whole("family", family, 1), whole("pilot", pilot, 2)
    if max_pairs is not None:
        max_pairs = whole("max_pairs", max_pairs, 2, MAX_GAME_ID)
        if max_pairs < pilot:
            raise ValueError(f"The value for `max_pairs` ({max_pairs:,}) must be at least `pilot` ({pilot:,}).")
    return float(target), family, pilot, max_pairs


def _t_rule_pairs(m: PairedMoments, floor: float = 0.0) -> float:
    """Pairs the t interval needs: the larger of ``floor`` and its rule at ``m``'s skewness (none
    where the skewness is unknown: no spread, or moments saved without the sum of cubes)."""
    return max(floor, m.t_pairs_needed if math.isfinite(m.skewness) else 0.0)


def _next_games(m: PairedMoments, *, target: float, level: float, floor: float) -> float | None:
    """Games the run needs after ``m`` (a float, inf past any count), or None when ``m`` is enough:
    its own sd detects ``target`` at 80% power at ``level``, and its pairs reach the t rule at its
    own skewness and at the pilot's (``floor`` pairs). Each step asks 2% more than it computes, so
    a run never creeps; the steps depend on the games alone, so a resumed run takes the same ones."""
    if m.pairs < 2 or m.sd == 0:  # no pair, or identical in every pair: nothing to size a test by
        return None
    n = 0.0
    reach = m.detectable(power=POWER, alpha=level)
    if reach > target:
        ratio = reach / target
        n = m.games * ratio * ratio * 1.02  # a product overflows to inf, never raises
    need = _t_rule_pairs(m, floor)
    if m.pairs < need:  # in deals at the run's share of finished pairs
        n = max(n, need * m.games / m.pairs * 1.02)
    return max(n, m.games + 1.0) if n else None


def plan_pairs(base: Rules, variant: Rules, *, target: float, family: int, seed: int, pilot: int = 20_000,
               max_pairs: int | None = None, n_jobs=None):
    """Deals for ``variant`` against ``base`` to detect a mean length difference of ``target``
    cards at 80% power at Holm's strictest level (alpha / ``family``), from a pilot of ``pilot``
    pairs (games 0 .. pilot-1, reused by the run): (deals, pilot moments, pilot seconds). Never
    fewer than the pilot, nor than the deals whose finished pairs the t interval needs at the
    pilot's skewness.

    ``max_pairs``: at most this many deals (the run stops there). Left out, a plan of more than
    `MAX_PAIRS` deals is refused (a ValueError) with its time at a speed measured on a few thousand
    deals past the pilot."""
    import time

    from statsmodels.stats.power import TTestPower

    from .arguments import check_run_time

    target, family, pilot, max_pairs = _check_plan(target, family, pilot, max_pairs)
    started = time.perf_counter()
    m = compare(variant, base, pilot, seed=seed, n_jobs=n_jobs)
    seconds = time.perf_counter() - started
    alpha = ALPHA / family
    n = float(pilot)
    if m.pairs >= 2 and m.sd > 0:
        # (z_{1-alpha/2} + z_power) sd / target, with the t quantiles of TTestPower at large n
        k = float(TTestPower().solve_power(nobs=10**6, alpha=alpha, power=POWER)) * math.sqrt(10**6)
        ratio = k * m.sd / target
        n = max(ratio * ratio, _t_rule_pairs(m) * m.games / m.pairs, n)  # a product overflows to inf, never raises
    if n > (MAX_PAIRS if max_pairs is None else max_pairs):
        if max_pairs is None:
            raise ValueError(_refusal(base, variant, n, m, target=target, family=family, seed=seed, n_jobs=n_jobs))
        n = float(max_pairs)
        check_run_time(max_pairs, n_jobs, plays=2, name="max_pairs")  # a cap that cannot finish either
    return math.ceil(n), m, seconds


def _refusal(base, variant, n, m, *, target, family, seed, n_jobs) -> str:
    """Why a plan of ``n`` deals is refused, with its time at a speed measured on `TIMED_DEALS` deals
    past the pilot (the pilot's own time holds the start-up of the engine)."""
    import time

    from .limits import duration

    started = time.perf_counter()
    compare(variant, base, TIMED_DEALS, seed=seed, start=m.games, n_jobs=n_jobs)
    rate = TIMED_DEALS / max(time.perf_counter() - started, 1e-9)
    need, time_ = ((f"about {n:.3g}", f"about {duration(n / rate)}") if math.isfinite(n)
                   else (f"more than {sys.float_info.max:.2g}", "for ever"))
    return (f"{variant.name!r} against {base.name!r} with {base.players} players needs {need} deals to detect "
            f"{target:g} cards at 80% power at {ALPHA:g}/{family} (the pilot's sd is {m.sd:.3g} cards), more than the "
            f"{MAX_PAIRS:,} a row plays unless asked (`max_pairs`): {time_} at the {rate:,.0f} deals a second "
            "measured here. Pass a larger `target`, or `max_pairs` to play up to that many deals a row.")


def compare_to_detect(base: Rules, variant: Rules, *, target: float, family: int, seed: int, pilot: int = 20_000,
                      max_pairs: int | None = None, prior: PairedMoments | None = None, saved=None,
                      n_jobs=None, plan: tuple | None = None, progress=False) -> PairedMoments:
    """Paired moments of ``variant`` against ``base`` on games 0, 1, ... until the run detects a
    mean length difference of ``target`` cards at 80% power at Holm's strictest level (alpha /
    ``family``) and its pairs are as many as the t interval needs at the run's own skewness (and at
    the pilot's): first the deals `plan_pairs` sizes from its pilot, then, while the run's own sd
    says it detects less, (detectable / target)^2 times its deals, and while its pairs are fewer
    than the t rule asks at its skewness, the deals that give them; each step 2% more. At most
    ``max_pairs`` deals (left out: `MAX_PAIRS`, and a plan past it is refused by `plan_pairs`);
    a run stopped there may fall short of either rule, which its moments show
    (`PairedMoments.detectable`, `PairedMoments.t_pairs_needed`).

    The steps depend on the games only, so the same arguments give the same moments however often
    the run was interrupted: ``prior`` (moments of games 0 .. prior.games-1 under the same rules and
    seed, e.g. the last file written; one saved without its game ids is taken to be those games)
    is continued, not replayed, and ``saved(moments)`` is called after every step. ``plan``: the
    result of `plan_pairs` for these arguments, so its pilot is not played again."""
    from .arguments import check_run_time

    if plan is None:
        plan = plan_pairs(base, variant, target=target, family=family, seed=seed, pilot=pilot,
                          max_pairs=max_pairs, n_jobs=n_jobs)
    target, family, pilot, max_pairs = _check_plan(target, family, pilot, max_pairs)
    n, m, _ = plan
    first = m
    if (prior is not None and prior.games >= m.games and prior.seed == m.seed and prior.rules_version == m.rules_version
            and prior.rules_a == m.rules_a and prior.rules_b == m.rules_b
            and prior.ranges in (None, ((0, prior.games),))):
        m = prior if prior.ranges is not None else replace(prior, ranges=((0, prior.games),))
    cap = MAX_PAIRS if max_pairs is None else max_pairs
    level = ALPHA / family
    floor = first.t_pairs_needed if first.pairs >= 2 and math.isfinite(first.skewness) else 0.0
    while True:
        if m.games < n:
            check_run_time(n - m.games, n_jobs, plays=2, name="max_pairs")  # an extension that cannot finish
            m = m + compare(variant, base, n - m.games, seed=seed, start=m.games, n_jobs=n_jobs, progress=progress)
            if saved is not None:
                saved(m)
        more = _next_games(m, target=target, level=level, floor=floor)
        if more is None or m.games >= cap:
            return m
        n = int(min(cap, math.ceil(more)))


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
        base = dict(variant=spec, label=variant_label(spec, m), players=players, pairs=m.pairs, games=m.games,
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
