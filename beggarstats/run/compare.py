"""`compare(rules_a, rules_b, n_games, seed=...)`: the same deals under two rules, paired, in
constant memory.

Game g of a table is fixed by (seed, g) alone, so two rules that deal alike (same players, deck
and jokers) deal the same cards to game g. `compare` plays each chunk of game ids under both
rules side by side next to the kernels and keeps only integer sums of the per-game differences
of length (cards of rules_a minus cards of rules_b, over the games both finished): the number of
pairs, the sum, the sum of squares and the sum of cubes. Integer sums add up exactly in any order, so the result is
the same for any ``n_jobs``, backend or chunking, and memory stays constant however many games.
The statistics of the mean difference (`PairedMoments`) follow from those numbers; the third
moment says how skewed the differences are, and so how many pairs the t interval needs
(`t_sample_size`): `PairedMoments.interval` refuses fewer.

Moments know which games they hold (``ranges`` of game ids, the ``seed`` and both rules), so ``+``
adds only what makes one sample: the same rules a and b, seed and `RULES_VERSION`, and games that
no summand already holds (a pilot and its extension; never the same pairs twice).
"""

from __future__ import annotations

import functools
import json
import math
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from ..game.rules import RULES_VERSION, Rules, check_rules, same_games_as_now
from ..game.checks import check_level, positive
from .arguments import check_run
from .device import choose_device
from .parallel import run_chunks
from .seeds import fresh_seed
from .store_files import read_checked

if TYPE_CHECKING:
    from ..game.hints import PathLike, Progress, RulesLike

__all__ = ["compare", "PairedMoments", "load_moments", "t_sample_size", "len_deck", "games_unchanged", "same_deals",
           "paired_moments"]


def t_sample_size(skewness) -> float:
    """The smallest sample from which the t interval of a mean covers close to its level, for data
    of the given ``skewness`` (the third standardized moment, g1): 28 + 25 g1^2, the rule of Sugden,
    Smith and Jones (2000, "Cochran's rule for simple random sampling", JRSS B 62, 787-793), which
    sharpens Cochran's n > 25 g1^2. For the length differences of end=empty against the standard
    game (2 players, g1 = -34.1: 29,100 pairs) the t interval covered 91.2% of 1,000 samples of 5,000
    pairs and, at 30,000 pairs, the share docs/FIGURES.md gives (a 10^7-pair truth), with its misses
    mostly above the truth: right two-sided, not one-sided."""
    return 28 + 25 * float(skewness) ** 2


@dataclass(frozen=True)
class PairedMoments:
    """Paired moments of the per-game length difference ``d = cards(rules_a) - cards(rules_b)``.

    ``pairs`` games finished (outcome 'win') under both rules; ``sum_d``, ``sum_d2`` and ``sum_d3``
    are the exact sums of d, d^2 and d^3 over them (cards, cards^2, cards^3; ``sum_d3`` is None in
    a file saved before it was kept); ``games`` were played under each rule,
    ``unfinished`` of them lacked a finish under one rule or both. ``rules_a`` / ``rules_b`` are
    `Rules.to_dict` dictionaries. ``seat0_a_only`` / ``seat0_b_only``: of the ``pairs``, the deals
    seat 0 won under rules_a only / rules_b only (the discordant pairs of seat 0's win rate; None
    in a file saved before they were kept). ``sum_e``, ``sum_e2``: sums of e and e^2 for
    e = N_b cards(rules_a) - N_a cards(rules_b), N_a and N_b the cards dealt under each rule: e /
    (N_a N_b) is the difference in cards played per card dealt (`per_card_dealt`), which takes the
    extra cards of a joker deal out of the comparison. ``ranges``: the game ids played, half-open
    ``(lo, hi)`` ranges, sorted and joined; None in a file saved before they were kept, and such
    moments are not added to others (whether they share games is unknown).

    ``m1 + m2`` adds the moments of disjoint games of one comparison (the same rules_a, rules_b,
    seed and rules_version: a pilot and its extension); anything else is refused by name.
    """

    rules_a: dict
    rules_b: dict
    seed: int
    games: int
    pairs: int
    sum_d: int
    sum_d2: int
    unfinished: int
    rules_version: int = RULES_VERSION
    sum_d3: int | None = None
    seat0_a_only: int | None = None
    seat0_b_only: int | None = None
    sum_e: int | None = None
    sum_e2: int | None = None
    ranges: tuple | None = None

    def __post_init__(self) -> None:
        if self.ranges is not None:  # from a file: lists of lists; kept as a tuple of (lo, hi)
            object.__setattr__(self, "ranges", _check_ranges(self.ranges, self.games))

    def __add__(self, other: object) -> "PairedMoments":
        if not isinstance(other, PairedMoments):
            return NotImplemented
        ranges = _addable(self, other)

        def both(name):
            x, y = getattr(self, name), getattr(other, name)
            return None if x is None or y is None else x + y
        return PairedMoments(self.rules_a, self.rules_b, self.seed, self.games + other.games, self.pairs + other.pairs,
                             self.sum_d + other.sum_d, self.sum_d2 + other.sum_d2,
                             self.unfinished + other.unfinished, self.rules_version, both("sum_d3"),
                             both("seat0_a_only"), both("seat0_b_only"), both("sum_e"), both("sum_e2"), ranges)

    def __radd__(self, other: object) -> "PairedMoments":
        if isinstance(other, int) and not isinstance(other, bool) and other == 0:  # sum(moments)
            return self
        return NotImplemented

    @property
    def mean(self) -> float:
        """Mean difference in cards per game (rules_a minus rules_b)."""
        return self.sum_d / self.pairs

    @property
    def sd(self) -> float:
        """Standard deviation of the per-game difference (cards, n - 1 in the denominator), from the
        exact sums: (sum d^2 - (sum d)^2 / n) / (n - 1), in integer arithmetic until the division."""
        n = self.pairs
        return math.sqrt((self.sum_d2 * n - self.sum_d ** 2) / (n * (n - 1)))

    @property
    def se(self) -> float:
        return self.sd / math.sqrt(self.pairs)

    @property
    def skewness(self) -> float:
        """Skewness g1 = m3 / m2^1.5 of the per-game difference (central moments with n in the
        denominator, as `scipy.stats.skew`), from the exact sums; NaN without ``sum_d3`` or spread."""
        n = self.pairs
        if self.sum_d3 is None or n < 2:
            return float("nan")
        mean = self.sum_d / n
        m2 = self.sum_d2 / n - mean**2
        m3 = self.sum_d3 / n - 3 * mean * self.sum_d2 / n + 2 * mean**3
        return m3 / m2**1.5 if m2 > 0 else float("nan")

    @property
    def t_pairs_needed(self) -> float:
        """Pairs from which the t interval covers at this skewness (`t_sample_size`)."""
        return t_sample_size(self.skewness)

    def _check_t(self):
        if self.sum_d3 is None:
            raise ValueError("These moments lack the sum of cubes, so the skewness that decides whether the t "
                             "interval covers is unknown: run compare() again.")  # names: the moments (self), saved without this sum
        if self.pairs < self.t_pairs_needed:
            raise ValueError(f"{self.pairs:,} pairs are fewer than the {self.t_pairs_needed:,.0f} the t interval needs "
                             f"at this skewness ({self.skewness:.1f}; 28 + 25 g1^2, Sugden, Smith & Jones 2000): "
                             "play more pairs.")  # names: the moments (self), too few pairs

    def interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """The paired t interval of the mean difference (`scipy.stats.t` quantile, n - 1 df). A
        ValueError when the pairs are fewer than `t_pairs_needed`, where it would not cover."""
        from scipy import stats

        confidence = check_level(confidence)
        self._check_t()
        q = float(stats.t.ppf(0.5 + confidence / 2, self.pairs - 1))
        return self.mean - q * self.se, self.mean + q * self.se

    def p_value(self) -> float:
        """Two-sided paired t test of no difference (as `scipy.stats.ttest_rel` on the pairs); refused
        below `t_pairs_needed` pairs, as `interval` is."""
        from scipy import stats

        self._check_t()
        return float(2 * stats.t.sf(abs(self.mean / self.se), self.pairs - 1)) if self.se > 0 else \
            (1.0 if self.mean == 0 else 0.0)

    def detectable(self, power: float = 0.8, alpha: float = 0.05) -> float:
        """Smallest true mean difference (cards) this many pairs detect with probability ``power``
        in a two-sided test at level ``alpha`` (statsmodels `TTestPower`, one-sample t on the
        differences, times their sd)."""
        from statsmodels.stats.power import TTestPower

        power, alpha = check_level(power, name="power"), check_level(alpha, name="alpha")
        return float(TTestPower().solve_power(nobs=self.pairs, alpha=alpha, power=power)) * self.sd

    def equivalence(self, margin: float) -> float:
        """p-value of the two one-sided tests (TOST) that the mean difference lies within
        +-``margin`` cards: the larger of the two one-sided paired t p-values, as statsmodels'
        `ttost_paired` computes them from the pairs (which `compare` does not keep); refused below
        `t_pairs_needed` pairs."""
        from scipy import stats

        margin = positive("margin", margin)
        self._check_t()
        df = self.pairs - 1
        low = stats.t.sf((self.mean + margin) / self.se, df)
        high = stats.t.cdf((self.mean - margin) / self.se, df)
        return float(max(low, high))

    # -- seat 0's win rate: paired proportions (`run.paired_props`) -------------------------
    def _check_seat0(self):
        if self.seat0_a_only is None or self.seat0_b_only is None:
            raise ValueError("These moments lack seat 0's discordant pairs (saved before they were kept): "
                             "run compare() again.")  # names: the moments (self), saved without these pairs

    @property
    def seat0_diff(self) -> float:
        """Seat 0's win rate under rules_a minus under rules_b, over the pairs (a proportion)."""
        self._check_seat0()
        return (self.seat0_a_only - self.seat0_b_only) / self.pairs

    def seat0_interval(self, confidence: float = 0.95) -> tuple[float, float]:
        """Tango's score interval of `seat0_diff`, made for paired proportions
        (`run.paired_props.tango_interval`)."""
        from .paired_props import tango_interval

        self._check_seat0()
        return tango_interval(self.seat0_a_only, self.seat0_b_only, self.pairs, confidence=confidence)

    def seat0_p_value(self) -> float:
        """Two-sided p-value of no difference in seat 0's win rate: McNemar's test without continuity
        correction, the score test Tango's interval inverts."""
        from .paired_props import paired_proportion_test

        self._check_seat0()
        return paired_proportion_test(self.seat0_a_only, self.seat0_b_only)

    def seat0_detectable(self, power: float = 0.8, alpha: float = 0.05) -> float:
        """Smallest difference in seat 0's win rate (a proportion) this many pairs detect with
        probability ``power`` at two-sided level ``alpha``, at the observed discordant share."""
        from .paired_props import paired_detectable

        self._check_seat0()
        return paired_detectable(self.seat0_a_only, self.seat0_b_only, self.pairs, alpha=alpha, power=power)

    def per_card_dealt(self, confidence: float = 0.95) -> tuple[float, float, float]:
        """The difference in cards played per card dealt, cards(rules_a) / N_a - cards(rules_b) /
        N_b, with its paired t interval: (estimate, low, high). For a joker variant against the
        standard game it asks whether the jokers shorten the game beyond dealing more cards."""
        from scipy import stats

        if self.sum_e is None or self.sum_e2 is None:
            raise ValueError("These moments lack the per-card sums (saved before they were kept): run compare() again.")  # names: the moments (self), saved without these sums
        n = self.pairs
        scale = len_deck(self.rules_a) * len_deck(self.rules_b)
        sd = math.sqrt((self.sum_e2 * n - self.sum_e ** 2) / (n * (n - 1))) / scale
        mean = self.sum_e / n / scale
        q = float(stats.t.ppf(0.5 + check_level(confidence) / 2, n - 1)) * sd / math.sqrt(n)
        return mean, mean - q, mean + q

    def to_dict(self) -> dict:
        return asdict(self)

    def save(self, path: PathLike) -> Path:
        path = Path(path)
        path.write_text(json.dumps(self.to_dict(), indent=1, sort_keys=True) + "\n")
        return path


def _check_ranges(ranges, games: int) -> tuple:
    """``ranges`` as sorted, disjoint ``(lo, hi)`` pairs of ints holding ``games`` ids in all."""
    try:
        out = tuple((int(lo), int(hi)) for lo, hi in ranges)
    except (TypeError, ValueError):
        raise ValueError(f"The value for `ranges` must be (lo, hi) pairs of game ids, but {ranges!r} was passed.") from None
    held = sum(hi - lo for lo, hi in out)
    if any(not 0 <= lo < hi for lo, hi in out) or any(a[1] > b[0] for a, b in zip(out, out[1:])) or held != games:
        raise ValueError(f"The value for `ranges` must be sorted, disjoint (lo, hi) ranges of ids >= 0 holding the "
                         f"{games:,} `games`, but {list(out)!r} was passed.")
    return out


def _rule_changes(a: dict, b: dict) -> str:
    """The options in which two `Rules.to_dict` dictionaries differ: 'players 2 and 3, end ...'."""
    return ", ".join(f"{k} {a.get(k)!r} and {b.get(k)!r}" for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k))


def _addable(x: PairedMoments, y: PairedMoments) -> tuple:
    """The id ranges of ``x + y``, or the reason the two are not one sample (as `Summary` ``+``)."""
    if x.rules_a != x.rules_b and (x.rules_a, x.rules_b) == (y.rules_b, y.rules_a):
        raise ValueError("Cannot add these comparisons: one is rules_a minus rules_b, the other the same rules "
                         "swapped (b minus a), so their differences have opposite signs.")  # names: the two moments added
    differs = []
    for name in ("rules_a", "rules_b"):
        if getattr(x, name) != getattr(y, name):
            differs.append(f"{name} ({_rule_changes(getattr(x, name), getattr(y, name))})")
    for name in ("seed", "rules_version"):
        if getattr(x, name) != getattr(y, name):
            differs.append(f"{name} ({getattr(x, name)} and {getattr(y, name)})")
    if differs:
        raise ValueError(f"Cannot add comparisons of different runs: their {'; '.join(differs)} "
                         f"{'differs' if len(differs) == 1 else 'differ'}.")  # names: the two moments added, by what differs
    unknown = [side for side, m in (("first", x), ("second", y)) if m.ranges is None]
    if unknown:
        which = "both lack their" if len(unknown) == 2 else f"the {unknown[0]} lacks its"
        raise ValueError(f"Cannot add these comparisons: {which} game ids (saved before they were kept), so whether "
                         "the two share games is unknown: run compare() again for those games.")  # names: the moments added, by their place in the sum
    out = []
    for lo, hi in sorted(x.ranges + y.ranges):
        if out and lo < out[-1][1]:
            raise ValueError(f"Cannot add comparisons that share games: ids {lo:,}..{min(hi, out[-1][1]) - 1:,} are in "
                             "both (the same pairs counted twice would shrink the standard error).")  # names: the moments added, by their shared ids
        if out and lo == out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


def games_unchanged(m: PairedMoments) -> bool:
    """Whether the games behind ``m`` are still the games of this `RULES_VERSION`: saved under it,
    or under version 2 with no jokers on either side (version 3 changed only the joker deals)."""
    return same_games_as_now(m.rules_version, m.rules_a, m.rules_b)


def len_deck(rules) -> int:
    """Cards dealt under ``rules`` (a `Rules` or its dict), jokers included."""
    return int(check_rules(rules).deck_cards().size)


def load_moments(path) -> PairedMoments:
    """A `PairedMoments` saved by `PairedMoments.save`; a file that is not one is refused."""
    path = Path(path)
    try:
        data = json.loads(read_checked(path, 2**20, "saved comparison").decode())
        if not isinstance(data, dict):
            raise ValueError("not a JSON object")  # internal: caught below and said with the path
        ranges = data.pop("ranges", None)
        moments = PairedMoments(**data)
    except (OSError, ValueError, TypeError) as err:
        raise ValueError(f"The value for `path` {str(path)!r} is not a saved comparison ({err}).") from None
    if moments.pairs < 0 or moments.sum_d2 < 0 or moments.pairs > moments.games:
        raise ValueError(f"The value for `path` {str(path)!r} is damaged: its counts contradict each other.")
    if ranges is not None:
        try:
            moments = replace(moments, ranges=ranges)
        except ValueError:
            raise ValueError(f"The value for `path` {str(path)!r} is damaged: its game ids do not hold its "
                             f"{moments.games:,} games.") from None
    return moments


def same_deals(a: Rules, b: Rules) -> bool:
    """Game g is the same deal under both (jokers apart: a joker deal is the deal without them
    with the jokers slipped in, docs/RULES.md section 7): the pairs `compare` accepts."""
    return a.players == b.players and a.deck == b.deck


def _check_pairs(rules_a: Rules, rules_b: Rules) -> None:
    if not same_deals(rules_a, rules_b):
        raise ValueError("The values for `rules_a` and `rules_b` must deal alike (the same players and deck) "
                         f"to be paired, but {rules_a.name!r} and {rules_b.name!r} were passed.")


def paired_moments(a, b, rules_a: Rules, rules_b: Rules, *, seed: int, ids) -> PairedMoments:
    """The `PairedMoments` of games already played under both rules (the explorer's two samples),
    by the reduction `compare` applies to each chunk: ``a`` and ``b`` hold the engine's arrays
    ``outcome`` (0: finished), ``cards`` and ``winner`` of the game ids ``ids``, in the same order
    (kept as the moments' ``ranges``, so that ``+`` knows which games they hold)."""
    _check_pairs(rules_a, rules_b)
    pairs, sum_d, sum_d2, unfinished, sum_d3, a_only, b_only, sum_e, sum_e2 = _pair_sums(a, b, rules_a, rules_b)
    return PairedMoments(rules_a.to_dict(), rules_b.to_dict(), seed, len(a["outcome"]), pairs, sum_d, sum_d2,
                         unfinished, sum_d3=sum_d3, seat0_a_only=a_only, seat0_b_only=b_only, sum_e=sum_e,
                         sum_e2=sum_e2, ranges=_id_runs(ids))


def _id_runs(ids) -> tuple:
    """Game ids as half-open runs of consecutive ids (a repeated id gives overlapping runs, which
    `PairedMoments` refuses)."""
    ids = np.sort(np.asarray(ids, dtype=np.int64))
    if ids.size == 0:
        return ()
    cut = np.flatnonzero(np.diff(ids) != 1)
    return tuple(zip(ids[np.r_[0, cut + 1]].tolist(), (ids[np.r_[cut, ids.size - 1]] + 1).tolist()))


def _compare_chunk(lo, hi, *, engine, rules_a, rules_b, seed):
    """Play games lo..hi-1 under both rules; only nine integers cross back from the worker."""
    ids = np.arange(lo, hi, dtype=np.int64)
    return _pair_sums(engine(rules_a, seed, ids), engine(rules_b, seed, ids), rules_a, rules_b)


def _pair_sums(a, b, rules_a, rules_b):
    """The nine integer sums `compare` keeps of the same games played under both rules."""
    both = (np.asarray(a["outcome"]) == 0) & (np.asarray(b["outcome"]) == 0)
    d = a["cards"][both].astype(np.int64) - b["cards"][both].astype(np.int64)
    wa, wb = a["winner"][both] == 0, b["winner"][both] == 0
    e = len_deck(rules_b) * a["cards"][both].astype(np.int64) - len_deck(rules_a) * b["cards"][both].astype(np.int64)
    return (int(both.sum()), int(d.sum()), int(np.dot(d, d)), int(both.size - both.sum()), int(np.dot(d * d, d)),
            int(np.sum(wa & ~wb)), int(np.sum(~wa & wb)), int(e.sum()), int(np.dot(e, e)))


def compare(rules_a: RulesLike, rules_b: RulesLike, n_games: int, *, seed: int | None = None,
            n_jobs: int | None = None, start: int = 0, chunk_size: int | None = None, progress: Progress = False,
            device: str = "cpu") -> PairedMoments:
    """Play games ``start .. start+n_games-1`` under ``rules_a`` and ``rules_b`` and return the
    paired moments of their length difference, in constant memory.

    Parameters
    ----------
    rules_a, rules_b : Rules
        Two rules that deal alike (same ``players`` and ``deck``), so game g is the same deal
        under both (with jokers: the same deal with the jokers slipped in); otherwise a ValueError.
    n_games : int
        Deals played under each rule.
    seed : int, optional
        The table (None: fresh entropy, kept in ``.seed``).
    n_jobs : int, optional
        Parallel workers (scikit-learn's convention: None is 1 unless a ``joblib.parallel_config`` context
        says otherwise, -1 all cores). The result does not depend on it, nor on ``chunk_size``.
    progress : {False, True, 'notebook'}
        A tqdm bar counting deals.
    device : {'cpu', 'cuda'}
        'cuda' plays the games on an NVIDIA GPU (the ``cuda`` extra): the same moments.

    Returns
    -------
    PairedMoments
    """
    device = choose_device(device)
    n_games, start, seed, n_jobs, chunk_size = check_run(n_games, start=start, seed=seed, n_jobs=n_jobs,
                                                         chunk_size=chunk_size, low=2, plays=2, device=device)
    for name, value in (("rules_a", rules_a), ("rules_b", rules_b)):
        if not isinstance(value, (Rules, dict)):
            raise ValueError(f"The value for `{name}` must be a Rules or a dict from Rules.to_dict(), "
                             f"but {value!r} was passed.")
    rules_a, rules_b = check_rules(rules_a), check_rules(rules_b)
    _check_pairs(rules_a, rules_b)
    seed = fresh_seed() if seed is None else seed
    total = [0] * 9

    def add(lo, hi, part):
        for i, v in enumerate(part):
            total[i] += v

    engine = device.engine(rules_a, rules_b)  # a deck the device cannot play is refused before a game
    work = functools.partial(_compare_chunk, engine=engine, rules_a=rules_a, rules_b=rules_b, seed=seed)
    run_chunks(work, [(start, start + n_games)], sink=add, n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
               total=n_games, desc="compare")
    pairs, sum_d, sum_d2, unfinished, sum_d3, a_only, b_only, sum_e, sum_e2 = total
    return PairedMoments(rules_a.to_dict(), rules_b.to_dict(), seed, n_games, pairs, sum_d, sum_d2, unfinished,
                         sum_d3=sum_d3, seat0_a_only=a_only, seat0_b_only=b_only, sum_e=sum_e, sum_e2=sum_e2,
                         ranges=((start, start + n_games),))
