"""`beggarstats compare`: the base rules against rule variants on the same deals, paired, as one family."""

from __future__ import annotations

import argparse
import json
import math
import re

from .options import (add_jobs_option, add_progress_option, add_rule_options, check_run_options, positive_number,
                      progress_wanted, rules_from_args, whole_number)

__all__ = ["HELP", "add_parser", "run", "parse_players", "format_p", "table_text"]

HELP = "compare rule variants with the base rules on the same deals (paired, Holm)"

PILOT = 20_000


def parse_players(text: str) -> list[int]:
    """``--players``: '2-6', '3', or '2,4,6' -> the player counts, each from 2 to 12."""
    from ..game.rules import MAX_PLAYERS

    out = []
    for part in str(text).split(","):
        m = re.fullmatch(r"\s*(\d+)\s*(?:-\s*(\d+)\s*)?", part)
        if not m:
            raise argparse.ArgumentTypeError(f"must be player counts such as 2-6, 3 or 2,4,6, but {text!r} was passed")
        lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
        if not 2 <= lo <= hi <= MAX_PLAYERS:
            raise argparse.ArgumentTypeError(f"must be player counts from 2 to {MAX_PLAYERS}, low to high, "
                                             f"but {part.strip()!r} was passed")
        out += [p for p in range(lo, hi + 1) if p not in out]
    return out


def add_parser(subparsers) -> argparse.ArgumentParser:
    from ..run.variants import MAX_PAIRS, STANDARD_VARIANTS

    p = subparsers.add_parser(
        "compare", help=HELP,
        description="Play each variant and the base rules on the same deals (game g of the table is the same "
                    "deal; jokers are slipped into it) and print, per variant and player count, the change in "
                    "mean length (paired t) and in seat 0's win rate (Tango's score interval), p-values with "
                    "Holm's adjustment over every row, and the smallest effect each row detects at Holm's "
                    "strictest level.")
    p.add_argument("--variants", default=",".join(STANDARD_VARIANTS),
                   help="comma-separated variants, each rule options over the base: name=value (end=empty, "
                        "jokers=2), several joined by + (jokers=1+joker_mode=beggar), a flag alone (shuffle_pile) "
                        "or a value of one option alone (ccw, passes_on) (default: every variant)")
    p.add_argument("--players", type=parse_players, default=[2], metavar="2-6",
                   help="player counts: 2-6, 3 or 2,4,6 (default 2)")
    p.add_argument("--games", type=whole_number, default=None,
                   help="deals per variant and player count (default: sized by --detect from a pilot)")
    p.add_argument("--detect", type=positive_number("a number of cards"), default=0.3, metavar="CARDS",
                   help="without --games: size each run from its pilot to detect this change in mean length at "
                        "80%% power at Holm's strictest level, and extend it until its own sd and skewness agree "
                        "(default 0.3)")
    p.add_argument("--max-games", type=whole_number, default=None,
                   help="without --games: at most this many deals per row; the run stops there (default: a plan "
                        f"of more than {MAX_PAIRS:.0e} deals a row is refused with its time, and a run extended "
                        "that far stops there)")
    p.add_argument("--pilot", type=whole_number, default=PILOT,
                   help=f"without --games: pilot deals per row, reused by the run (default {PILOT})")
    p.add_argument("--seed", type=whole_number, default=None, help="table seed (default: fresh entropy, printed)")
    add_jobs_option(p)
    p.add_argument("--json", action="store_true", help="print the rows as JSON instead of a table (default off)")
    add_progress_option(p)
    add_rule_options(p, players=False)
    return p


def format_p(p: float) -> str:
    """A p-value as printed: three decimals down to 0.001, scientific below, never '0.000'."""
    if p is None or not math.isfinite(p):
        return "-"
    if p >= 0.001:
        return f"{p:.3f}"
    if p == 0:
        return "<1e-300"  # below what a double holds
    return f"{p:.1e}"


def _cells(r) -> list[str]:
    scale, unit = (100, " pp") if r["unit"] == "proportion" else (1, "")
    if math.isfinite(r["low"]):
        ci = f"{scale * r['estimate']:+.3f} [{scale * r['low']:+.3f}, {scale * r['high']:+.3f}]{unit}"
    else:
        ci = f"{scale * r['estimate']:+.3f}{unit} (no interval)"
    det = f"{scale * r['detectable']:.3f}{unit}" if math.isfinite(r["detectable"]) else "-"
    return [r["label"], f"{r['players']}p", f"{r['pairs']:,}", ci, r["interval"], format_p(r["p_value"]),
            format_p(r["p_holm"]), r["verdict"], det]


# (header, alignment) of each column of the printout, the cells of `_cells`
_COLUMNS = (("variant", "<"), ("players", ">"), ("pairs", ">"), ("estimate [95% interval]", "<"), ("interval", "<"),
            ("p", ">"), ("Holm p", ">"), ("verdict", "<"), ("detectable", ">"))


def _table(rows, columns=_COLUMNS, cells=_cells) -> list[str]:
    """A header row and one line per row, each column as wide as its widest cell."""
    body = [cells(r) for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in body)) for i, (h, _) in enumerate(columns)]

    def line(values):
        return "  ".join(f"{v:{a}{w}}" for v, (_, a), w in zip(values, columns, widths)).rstrip()
    return [line([h for h, _ in columns])] + [line(c) for c in body]


def _per_card_cells(r) -> list[str]:
    return [r["label"], f"{r['players']}p", f"{r['per_card']:+.4f} [{r['per_card_low']:+.4f}, {r['per_card_high']:+.4f}]"]


def table_text(rows, *, seed, base_name) -> str:
    """The printout of `beggarstats compare` for the rows of `run.variants.variant_rows`."""
    if not rows:
        return "no rows"
    fam, level = rows[0]["family"], rows[0]["detectable_level"]
    out = [f"seed {seed}, base rules {base_name}; each variant on the same deals (paired); Holm over {fam} rows "
           f"at 5%; detectable: 80% power at Holm's strictest level 0.05/{fam} = {level:.1e}"]
    for metric, title in (("mean_length_diff", "change in mean length (cards; variant minus base)"),
                          ("seat0_win_diff", "change in seat 0's win rate (percentage points)")):
        part = [r for r in rows if r["metric"] == metric]
        if part:
            out += ["", title] + _table(part)
    per = [r for r in rows if "per_card" in r]
    if per:
        out += ["", "jokers per card dealt (cards played per card dealt, variant minus base; paired t)"]
        out += _table(per, (("variant", "<"), ("players", ">"), ("estimate [95% interval]", "<")), _per_card_cells)
    return "\n".join(out)


def run(args) -> int:
    try:
        return _run(args)
    except ValueError as exc:  # name the flags, not the Python parameters of run.variants
        message = str(exc)
        for name, flag in (("target", "--detect"), ("max_pairs", "--max-games"), ("pilot", "--pilot")):
            message = message.replace(f"`{name}`", flag)
        raise ValueError(message) from None


def _run(args) -> int:
    import time

    from ..run.compare import compare
    from ..run.seeds import fresh_seed
    from ..run.variants import MAX_PAIRS, compare_to_detect, parse_variants, plan_pairs, variant_rows, variant_spec

    if args.games is not None:
        check_run_options(args, "games")
        if args.games < 2:
            raise ValueError(f"--games must be at least 2 (pairs), but {args.games} was passed")
    for name in ("pilot", "max_games"):
        v = getattr(args, name)
        if v is not None and v < 2:
            raise ValueError(f"--{name.replace('_', '-')} must be at least 2, but {v} was passed")
    if args.games is None and args.max_games is not None and args.max_games < args.pilot:
        raise ValueError(f"--max-games ({args.max_games:,}) must be at least --pilot ({args.pilot:,})")
    seed = fresh_seed() if args.seed is None else args.seed
    bases = {p: rules_from_args(args, players=p) for p in args.players}
    jobs = [(spec, variant, bases[p]) for p in args.players for spec, variant in parse_variants(args.variants, bases[p])]
    family = 2 * len(jobs)
    progress = progress_wanted(args)
    say = (lambda text: None) if args.json else print
    said = set()
    for spec, variant, base in jobs:
        if spec not in said and variant.jokers != base.jokers and "jokers" not in spec:  # parse_variant added one
            said.add(spec)
            say(f"variant {spec!r} plays {variant_spec(variant, base)} (a joker mode without jokers gets one joker)")
    results = []
    if args.games is not None:
        for spec, variant, base in jobs:
            results.append((spec, compare(variant, base, args.games, seed=seed, n_jobs=args.jobs, progress=progress)))
    else:
        plans, pilot_seconds = [], 0.0
        for spec, variant, base in jobs:
            plan = plan_pairs(base, variant, target=args.detect, family=family, seed=seed, pilot=args.pilot,
                              max_pairs=args.max_games, n_jobs=args.jobs)
            plans.append((spec, variant, base, plan))
            pilot_seconds += plan[2]
        rate = len(jobs) * args.pilot / max(pilot_seconds, 1e-9)  # pairs a second in the pilot
        more = sum(plan[0] - args.pilot for *_, plan in plans)
        say(f"pilot: {args.pilot:,} deals a row; to detect {args.detect:g} cards at Holm's level: "
            + ", ".join(f"{spec} {base.players}p {plan[0]:,}" for spec, _, base, plan in plans)
            + f" deals; {more:,} more deals a rule take about {_duration(more / rate)} at the pilots' pace")
        cap = MAX_PAIRS if args.max_games is None else args.max_games
        started = time.perf_counter()
        for spec, variant, base, plan in plans:
            steps = []
            m = compare_to_detect(base, variant, target=args.detect, family=family, seed=seed, pilot=args.pilot,
                                  max_pairs=args.max_games, n_jobs=args.jobs, plan=plan, progress=progress,
                                  saved=steps.append)
            note = _after_plan(f"{spec} {base.players}p", plan, steps, m, args.detect, family, cap)
            if note:
                say(note)
            results.append((spec, m))
        say(f"ran in {_duration(time.perf_counter() - started)}")
    rows = variant_rows(results)
    if args.json:
        base = bases[args.players[0]].to_dict()
        base.pop("players")
        print(json.dumps(dict(seed=seed, base=base, players=args.players, rows=_nan_to_none(rows)), default=_plain,
                         allow_nan=False, indent=1, sort_keys=True))
    else:
        print(table_text(rows, seed=seed, base_name=bases[args.players[0]].name))
    return 0


def _short(m, target, family, floor) -> dict:
    """The rules the run ``m`` falls short of, each with its numbers: 'sd' (it detects less than
    ``target`` cards at Holm's strictest level) and 'skewness' (fewer pairs than the t interval needs
    at its skewness, or than ``floor``, the pilot's need)."""
    from ..run.variants import ALPHA, POWER

    out = {}
    if m.pairs >= 2 and m.sd > 0:
        reach = m.detectable(power=POWER, alpha=ALPHA / family)
        if reach > target:
            out["sd"] = f"it detects {reach:.3g} cards, not {target:g}"
        need = max(floor, m.t_pairs_needed if math.isfinite(m.skewness) else 0.0)
        if m.pairs < need:
            out["skewness"] = (f"its {m.pairs:,} pairs are fewer than the {need:,.0f} the t interval needs at its "
                               f"skewness {m.skewness:.1f}")
    return out


def _after_plan(row, plan, steps, m, target, family, cap):
    """What the run ``m`` of a row did beyond its plan (``steps``: the moments after each step), in a
    line; None when it played its plan and met its rules."""
    planned, pilot, _ = plan
    floor = pilot.t_pairs_needed if pilot.pairs >= 2 and math.isfinite(pilot.skewness) else 0.0
    left = _short(m, target, family, floor)
    if left and m.games >= cap:
        return f"{row}: stopped at {cap:,} deals (--max-games): " + "; ".join(left.values())
    if m.games > planned:
        why = {k for s in steps[:-1] for k in _short(s, target, family, floor)}
        return (f"{row}: extended past its plan of {planned:,} to {m.games:,} deals: the run's own "
                f"{' and '.join(sorted(why))} asked for more")
    return None


def _duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _plain(x):
    try:
        return x.item()
    except AttributeError:
        return str(x)


def _nan_to_none(rows):
    return [{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()} for r in rows]
