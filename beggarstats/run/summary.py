"""`Summary`: any number of random games of one table as fixed-size aggregates, and its file.

`simulate()` keeps one row per game (about 27 bytes each: 10^9 games are 26.5 GB). Most questions
about length, seats and rare events need far less; a Summary keeps:

* games per outcome (win / loop / cutoff) and wins per seat;
* for each outcome, the exact frequency of every length in cards and in tricks up to ``cap`` cards;
  the few games longer than ``cap`` are kept one by one (id, outcome, winner, cards, tricks), so the
  length distribution stays exact;
* every game whose trick-boundary state repeated (a loop), with its id and loop figures;
* the ``top`` longest finished games, by id (ties: lower id first), replayable with
  ``beggarstats.replay(seed, game, rules)``.

Memory is fixed by ``cap`` (two rows of at most ``cap + 1`` counts per outcome) and ``top``; only the
loops and the games beyond ``cap`` are listed one by one, and both are rare (none at all among
10^9 standard two-player deals; see docs/scaling.md).

Summaries of disjoint ranges of game ids add up (``a + b``); addition is exact integer arithmetic,
so it is associative and commutative and a summary does not depend on ``n_jobs``, the backend or the
chunking. `Summary.save` writes one small JSON file with its checksum, atomically; `load_summary`
reads it back and refuses a damaged one. `run.summary_chunks` makes a Summary of a range of games,
`run.summarize` drives a run of them (`summarize`, resumable in a store directory).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..engine.fast import OUTCOME_CODES
from ..game.rules import RULES_VERSION, Rules, same_games_as_now
from .game_lists import concat as _concat
from .game_lists import records as _records
from .game_lists import top as _top
from .limits import MAX_GAME_ID
from .outputs import write_text
from .store import StoreError
from .store_files import read_checked
from .summary_fields import GAME_COLUMNS, LOOP_COLUMNS, check_fields

if TYPE_CHECKING:
    from ..game.hints import PathLike

__all__ = ["Summary", "load_summary", "run_differences", "DEFAULT_CAP", "DEFAULT_TOP", "SUMMARY_FILE",
           "SUMMARY_LOCK", "MEASURES", "GAME_COLUMNS", "LOOP_COLUMNS"]

DEFAULT_CAP = 2**15  # cards: histograms are exact up to here (the record game has 8,344)
DEFAULT_TOP = 100  # longest finished games kept
SUMMARY_FILE = "summary.json"  # the checkpoint inside a store directory
SUMMARY_LOCK = ".summary.lock"  # held by the run writing it
FORMAT = 1

MEASURES = ("cards", "tricks")


def _add_counts(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    if a.size < b.size:
        a, b = b, a
    out = a.copy()
    out[: b.size] += b
    return out


def _merge_ranges(ranges) -> tuple:
    """Sorted, coalesced (lo, hi) ranges; overlapping ranges are an error (games counted twice)."""
    out = []
    for lo, hi in sorted((int(lo), int(hi)) for lo, hi in ranges if hi > lo):
        if out and lo < out[-1][1]:
            raise ValueError(f"Cannot add summaries that share games: ids {lo}..{min(hi, out[-1][1]) - 1} "
                             f"are in both.")  # names: the two summaries added, by their shared ids
        if out and lo == out[-1][1]:
            out[-1] = (out[-1][0], hi)
        else:
            out.append((lo, hi))
    return tuple(out)


@dataclass(eq=False)
class Summary:
    """Fixed-size aggregates of a set of random games of one table ``(rules, seed)``.

    Build with `summarize`; add summaries of disjoint game ranges with ``+``; read with
    `to_frame` (tidy tables) or the functions of `beggarstats.analysis.summaries`.

    Attributes
    ----------
    rules : Rules
    seed : int
    rules_version : int
    cap : int
        Lengths up to ``cap`` cards are counted in ``cards`` / ``tricks``; longer games are listed
        in ``over_cap``.
    top : int
        How many longest finished games ``longest`` keeps.
    ranges : tuple of (lo, hi)
        The game ids summarised (half-open, sorted, coalesced).
    outcomes : int64[3]
        Games per outcome, in the order of ``OUTCOME_CODES`` (win, loop, cutoff).
    wins : int64[players]
        Games won by each seat.
    cards, tricks : list of 3 int64 arrays
        Per outcome, ``cards[o][x]`` games of that outcome lasted exactly ``x`` cards (only games of
        at most ``cap`` cards); trailing zeros are trimmed.
    over_cap, loops, longest : dict of column -> int64 array
        Games longer than ``cap`` cards (sorted by id); games whose state repeated (sorted by id,
        with the loop figures); the ``top`` longest finished games (longest first).
    exact : bool
        True for a census (`beggarstats.census`): every distinct deal once, the ids are deal ranks
        (`beggarstats.deal_at`), ``seed`` is 0 and every count is exact, not a sample.
    """

    rules: Rules
    seed: int
    rules_version: int = RULES_VERSION
    cap: int = DEFAULT_CAP
    top: int = DEFAULT_TOP
    ranges: tuple = ()
    outcomes: np.ndarray = field(default_factory=lambda: np.zeros(3, np.int64))
    wins: np.ndarray | None = None
    cards: list = field(default_factory=lambda: [np.zeros(0, np.int64) for _ in OUTCOME_CODES])
    tricks: list = field(default_factory=lambda: [np.zeros(0, np.int64) for _ in OUTCOME_CODES])
    over_cap: dict = field(default_factory=lambda: _records(GAME_COLUMNS))
    loops: dict = field(default_factory=lambda: _records(LOOP_COLUMNS))
    longest: dict = field(default_factory=lambda: _records(GAME_COLUMNS))
    exact: bool = False  # a census (run/census.py): the ids are deal ranks, every deal once

    def __post_init__(self) -> None:
        check_fields(self)  # each field's kind and shape, naming it
        bad = _invariants(self, complete=False)
        if bad:
            raise ValueError(f"The counts of a Summary must agree with each other and with its ranges, but "
                             f"{'; '.join(bad)}.")  # names: each entry of `bad` names the field

    # -- size and identity ---------------------------------------------------------------------
    @property
    def n_games(self) -> int:
        return int(sum(hi - lo for lo, hi in self.ranges))

    def _config(self) -> dict:
        return {"rules": self.rules.to_dict(), "seed": int(self.seed), "rules_version": int(self.rules_version),
                "cap": int(self.cap), "top": int(self.top), **({"exact": True} if self.exact else {})}

    def __repr__(self) -> str:
        counts = ", ".join(f"{o} {int(c):,}" for o, c in zip(OUTCOME_CODES, self.outcomes))
        return (f"Summary({self.n_games:,} games of rules {self.rules.name!r}, {self.rules.players} players, "
                f"seed {self.seed}: {counts})")

    # -- merging -------------------------------------------------------------------------------
    def __add__(self, other: "Summary") -> "Summary":
        if not isinstance(other, Summary):
            return NotImplemented
        if (self.rules, self.seed, self.rules_version, self.cap, self.top, self.exact) != (
                other.rules, other.seed, other.rules_version, other.cap, other.top, other.exact):
            differs = run_differences(self, other) or ["configurations"]
            raise ValueError(f"Cannot add summaries of different runs (their {', '.join(differs)} "
                             f"{'differs' if len(differs) == 1 else 'differ'}).")  # names: the two summaries added, by the keys that differ
        return Summary(
            rules=self.rules, seed=self.seed, rules_version=self.rules_version, cap=self.cap, top=self.top,
            ranges=_merge_ranges(self.ranges + other.ranges),
            outcomes=self.outcomes + other.outcomes, wins=self.wins + other.wins,
            cards=[_add_counts(a, b) for a, b in zip(self.cards, other.cards)],
            tricks=[_add_counts(a, b) for a, b in zip(self.tricks, other.tricks)],
            over_cap=_concat(self.over_cap, other.over_cap), loops=_concat(self.loops, other.loops),
            longest=_top(_concat(self.longest, other.longest), self.top), exact=self.exact)

    def __radd__(self, other: object) -> Summary:
        if other == 0:  # sum(summaries)
            return self
        return NotImplemented

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Summary):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    # -- exact length distribution -------------------------------------------------------------
    def frequencies(self, measure: str = "cards",
                    outcomes: str | Iterable[str] = ("win",)) -> tuple[np.ndarray, np.ndarray]:
        """The exact length distribution: (distinct lengths, games at each), ascending.

        Combines the histogram (games up to ``cap`` cards) with the games listed beyond it.
        """
        if measure not in MEASURES:
            raise ValueError(f"The value for `measure` must be one of {list(MEASURES)}, but {measure!r} was passed.")
        outcomes = (outcomes,) if isinstance(outcomes, str) else tuple(outcomes)
        bad = [o for o in outcomes if o not in OUTCOME_CODES]
        if bad:
            raise ValueError(f"The value for `outcomes` must hold only {list(OUTCOME_CODES)}, but {bad!r} was passed.")
        hist = np.zeros(0, np.int64)
        for o in outcomes:
            hist = _add_counts(hist, getattr(self, measure)[OUTCOME_CODES.index(o)])
        codes = [OUTCOME_CODES.index(o) for o in outcomes]
        extra = self.over_cap[measure][np.isin(self.over_cap["outcome"], codes)]
        values, counts = np.unique(extra, return_counts=True)
        if values.size and values[0] < hist.size:
            hist = _add_counts(hist, np.bincount(extra))
            values, counts = np.zeros(0, np.int64), np.zeros(0, np.int64)
        lengths = np.flatnonzero(hist)
        return np.concatenate([lengths, values]).astype(np.int64), np.concatenate([hist[lengths], counts]).astype(np.int64)

    # -- tidy tables ---------------------------------------------------------------------------
    def to_frame(self, table: str = "lengths") -> pd.DataFrame:
        """One tidy table of the summary.

        Parameters
        ----------
        table : {'outcomes', 'seats', 'lengths', 'loops', 'longest', 'over_cap'}
            ``outcomes``: one row per outcome (``games``, ``share``); ``seats``: one row per seat
            (``wins``, ``games`` with a winner); ``lengths``: one row per (outcome, measure, length)
            seen, with ``games`` - the exact distribution; ``loops``, ``longest``, ``over_cap``: one row
            per listed game (``outcome`` as a category, ``winner`` nullable).
            Every table starts with ``players`` and ``rules`` (the rules' name).
        """
        key = {"players": self.rules.players, "rules": self.rules.name}
        n = self.n_games
        if table == "outcomes":
            df = pd.DataFrame({"outcome": list(OUTCOME_CODES), "games": self.outcomes.astype(np.int64)})
            df["share"] = df["games"] / n if n else np.nan
        elif table == "seats":
            df = pd.DataFrame({"seat": np.arange(self.rules.players), "wins": self.wins.astype(np.int64),
                               "games": int(self.wins.sum())})
        elif table == "lengths":
            parts = []
            for o in OUTCOME_CODES:
                for m in MEASURES:
                    x, c = self.frequencies(m, (o,))
                    parts.append(pd.DataFrame({"outcome": o, "measure": m, "length": x, "games": c}))
            df = pd.concat(parts, ignore_index=True)
            df["outcome"] = pd.Categorical(df["outcome"], categories=list(OUTCOME_CODES))
        elif table in ("loops", "longest", "over_cap"):
            df = pd.DataFrame(getattr(self, table))
            df["outcome"] = pd.Categorical.from_codes(df["outcome"].astype(int), categories=list(OUTCOME_CODES))
            df["winner"] = df["winner"].where(df["winner"] >= 0).astype("Int8")
        else:
            raise ValueError("The value for `table` must be one of ['outcomes', 'seats', 'lengths', 'loops', "
                             f"'longest', 'over_cap'], but {table!r} was passed.")
        for i, (k, v) in enumerate(key.items()):
            df.insert(i, k, v)
        return df

    # -- files ---------------------------------------------------------------------------------
    def to_dict(self) -> dict:
        """A JSON-ready dict (histograms sparse: lengths and counts)."""
        def sparse(h):
            nz = np.flatnonzero(h)
            return [nz.tolist(), h[nz].tolist()]

        return {**self._config(), "ranges": [list(r) for r in self.ranges],
                "outcomes": self.outcomes.tolist(), "wins": self.wins.tolist(),
                "cards": {o: sparse(h) for o, h in zip(OUTCOME_CODES, self.cards)},
                "tricks": {o: sparse(h) for o, h in zip(OUTCOME_CODES, self.tricks)},
                **{name: {c: v.tolist() for c, v in getattr(self, name).items()}
                   for name in ("over_cap", "loops", "longest")}}

    @classmethod
    def from_dict(cls, d: dict) -> "Summary":
        def dense(pair):
            idx, counts = (np.asarray(v, np.int64) for v in pair)
            h = np.zeros(int(idx.max()) + 1 if idx.size else 0, np.int64)
            h[idx] = counts
            return h

        def records(rec, columns):
            return {c: np.asarray(rec[c], np.int64) for c in columns}

        return cls(rules=Rules.from_dict(d["rules"]), seed=int(d["seed"]), rules_version=int(d["rules_version"]),
                   cap=int(d["cap"]), top=int(d["top"]), ranges=tuple(tuple(r) for r in d["ranges"]),
                   outcomes=np.asarray(d["outcomes"], np.int64), wins=np.asarray(d["wins"], np.int64),
                   cards=[dense(d["cards"][o]) for o in OUTCOME_CODES],
                   tricks=[dense(d["tricks"][o]) for o in OUTCOME_CODES],
                   over_cap=records(d["over_cap"], GAME_COLUMNS), loops=records(d["loops"], LOOP_COLUMNS),
                   longest=records(d["longest"], GAME_COLUMNS), exact=bool(d.get("exact", False)))

    def save(self, path: PathLike) -> Path:
        """Write the summary as JSON with a SHA-256 checksum, atomically (temporary file, then
        `os.replace`): the file is either the old or the new summary, never half of one. An
        OSError (a full disk) names the file and what to do."""
        path = Path(path)
        body = json.dumps(self.to_dict(), sort_keys=True, separators=(",", ":"))
        text = json.dumps({"format": FORMAT, "sha256": hashlib.sha256(body.encode()).hexdigest(),
                           "summary": json.loads(body)}, sort_keys=True, separators=(",", ":"))
        write_text(path, text + "\n", what="summary file")  # a temporary name, then os.replace
        return path


MAX_SUMMARY_BYTES = 2**31  # a summary.json is kilobytes (its loops and games past the cap are rare)


def _damaged(path: Path, why: str) -> StoreError:
    return StoreError(f"The summary file {str(path)!r} is damaged ({why}); restore it from a copy, or delete it "
                      f"to start over.")


def _invariants(s: Summary, complete: bool = True) -> list[str]:
    """What is inconsistent in a summary (empty: its counts agree with each other and its ranges).
    Without ``complete`` (a Summary being made, perhaps by hand for a worked example): only what no
    summary can be, not whether its histograms, loop list, longest games and wins account for every
    game (a file read back is checked ``complete``)."""
    bad = []
    n = s.n_games
    if any(not 0 <= lo < hi <= MAX_GAME_ID + 1 for lo, hi in s.ranges) or \
            list(s.ranges) != sorted(s.ranges) or any(a[1] > b[0] for a, b in zip(s.ranges, s.ranges[1:])):
        bad.append(f"its ranges {list(s.ranges)[:5]} are not sorted, disjoint ranges of game ids")
    if not 0 <= s.seed < 2**64 or s.cap < 1 or s.top < 0:
        bad.append("its seed, cap or top is out of range")
    if s.outcomes.shape != (3,) or s.wins.shape != (s.rules.players,):
        return bad + [f"it has {s.outcomes.size} outcome counts (3 expected) and {s.wins.size} seats' wins "
                      f"({s.rules.players} expected)"]
    counts = [s.outcomes, s.wins, *s.cards, *s.tricks]
    if any((c < 0).any() for c in counts):
        bad.append("it holds negative counts")
    if int(s.outcomes.sum()) != n:
        bad.append(f"its outcomes sum to {int(s.outcomes.sum()):,} games, but its ranges hold {n:,}")
    for name, rec, columns in (("over_cap", s.over_cap, GAME_COLUMNS), ("loops", s.loops, LOOP_COLUMNS),
                               ("longest", s.longest, GAME_COLUMNS)):
        sizes = {rec[c].size for c in columns}
        if len(sizes) != 1:
            bad.append(f"the columns of its {name} list differ in length")
            continue
        games, out = rec["game"], rec["outcome"]
        inside = np.zeros(games.size, bool)
        for lo, hi in s.ranges:
            inside |= (games >= lo) & (games < hi)
        if not inside.all() or ((out < 0) | (out > 2)).any():
            bad.append(f"its {name} list names games or outcomes outside the summary")
        if name != "longest" and (np.diff(games) <= 0).any():
            bad.append(f"its {name} list is not sorted by game id")
    if not complete and int(s.wins.sum()) > n:
        bad.append(f"its seats' wins sum to {int(s.wins.sum()):,}, more than its {n:,} games")
    for o, code in enumerate(OUTCOME_CODES):
        listed = int(np.count_nonzero(s.over_cap["outcome"] == o))
        for measure in MEASURES:
            hist = getattr(s, measure)[o]
            if int(hist.sum()) + listed != s.outcomes[o] and (complete or int(hist.sum()) + listed > s.outcomes[o]):
                bad.append(f"its {measure} histogram of {code} games counts {int(hist.sum()) + listed:,} games "
                           f"(with those past the cap), but its outcomes say {int(s.outcomes[o]):,}")
        if s.cards[o].size > s.cap + 1:
            bad.append(f"its cards histogram of {code} games goes past its cap of {s.cap:,} cards")
    if s.over_cap["cards"].size and (s.over_cap["cards"] <= s.cap).any():
        bad.append(f"its over_cap list holds games of at most {s.cap:,} cards")
    if not complete:
        return bad
    if int(np.count_nonzero(s.loops["outcome"] == 1)) != s.outcomes[1]:
        bad.append(f"its loops list holds {int(np.count_nonzero(s.loops['outcome'] == 1)):,} loop games, but its "
                   f"outcomes say {int(s.outcomes[1]):,}")
    if s.longest["game"].size != min(s.top, int(s.outcomes[0])) or (s.longest["outcome"] != 0).any():
        bad.append(f"its list of the longest finished games holds {s.longest['game'].size:,}, not "
                   f"min(top, finished games) = {min(s.top, int(s.outcomes[0])):,}")
    won = int(s.wins.sum())
    if s.rules.unfinished == "none" and won != s.outcomes[0] or not s.outcomes[0] <= won <= n:
        bad.append(f"its seats' wins sum to {won:,}, but it has {int(s.outcomes[0]):,} finished games"
                   + ("" if s.rules.unfinished == "none" else f" of {n:,}"))
    return bad


def load_summary(path) -> Summary:
    """Read a summary written by `Summary.save`.

    A damaged or altered file is refused, naming it: bad JSON, a checksum that does not match, a
    missing key, counts that disagree with each other or with the ranges of game ids (outcomes
    summing to the games of the ranges, each histogram to its outcome, the wins to the finished
    games, the lists to the counts), or a path that is not a regular file.
    """
    path = Path(path)
    if not os.path.lexists(path):
        raise StoreError(f"The summary file {str(path)!r} does not exist.")  # names: the file by its path
    data = read_checked(path, MAX_SUMMARY_BYTES, "summary file")  # a pipe or /dev/zero is never read
    try:
        envelope = json.loads(data.decode())
        body = json.dumps(envelope["summary"], sort_keys=True, separators=(",", ":"))
        ok = envelope.get("format") == FORMAT and hashlib.sha256(body.encode()).hexdigest() == envelope["sha256"]
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError, UnicodeDecodeError):
        ok = False
    if not ok:
        raise _damaged(path, "bad JSON or checksum")
    try:
        summary = Summary.from_dict(envelope["summary"])
    except KeyError as exc:
        raise _damaged(path, f"it lacks the key {exc.args[0]!r}") from None
    except ValueError as exc:  # the constructor's checks (`summary_fields`, `_invariants`)
        raise _damaged(path, f"a value of the wrong kind: {exc}" if "counts of a Summary" not in str(exc)
                       else str(exc)) from None
    except (TypeError, AttributeError, IndexError, OverflowError) as exc:
        raise _damaged(path, f"a value of the wrong kind: {exc}") from None
    bad = _invariants(summary)
    if bad:
        raise _damaged(path, "; ".join(bad))
    if summary.rules_version != RULES_VERSION and same_games_as_now(summary.rules_version, summary.rules):
        summary.rules_version = RULES_VERSION
    return summary


def run_differences(a: Summary, b: Summary) -> list[str]:
    """The settings of the run in which two summaries differ (``rules``, ``seed``, ``rules_version``,
    ``cap``, ``top``, a census's ``exact``: a key only one has differs too); empty for one run."""
    ca, cb = a._config(), b._config()
    return [k for k in sorted(set(ca) | set(cb)) if ca.get(k) != cb.get(k)]
