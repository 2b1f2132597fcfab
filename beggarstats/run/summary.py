"""`summarize()`: any number of random games reduced, chunk by chunk, to a fixed-size `Summary`.

`simulate()` keeps one row per game (about 27 bytes each: 10^9 games are 26.5 GB). Most questions
about length, seats and rare events need far less: `summarize` plays the same games (game ``g`` is
fixed by ``(seed, g)``, exactly as in `simulate`) and reduces every chunk with numpy right after the
kernel, inside the joblib task, so that only the chunk's aggregate crosses thread, process or Dask
worker boundaries. What it keeps:

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
chunking. ``store=`` makes a long run resumable: the aggregate of the finished chunks is saved to
one small JSON file, atomically, every few seconds and when the run stops.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import pandas as pd

from ..game.checks import check_seed, whole
from .arguments import check_run
from .device import choose_device
from .limits import MAX_GAME_ID
from .outputs import check_output_dir, write_text
from .id_ranges import subtract_ranges
from .game_lists import GAME_COLUMNS, LOOP_COLUMNS
from .game_lists import concat as _concat
from .game_lists import records as _records
from .game_lists import top as _top
from .store import Store, StoreError
from .store_files import read_checked
from .summary_fields import GAME_COLUMNS, LOOP_COLUMNS, check_fields
from .store_lock import unwritable, write_lock
from ..engine.fast import OUTCOME_CODES
from .parallel import run_chunks
from .seeds import fresh_seed
from ..game.rules import RULES_VERSION, Rules, check_rules, same_games_as_now
from .simulate import run_seed, simulate_to_store

if TYPE_CHECKING:
    from ..game.hints import PathLike, Progress, RulesLike

__all__ = ["Summary", "summarize", "summarize_store", "store_and_summarize", "load_summary", "summarize_chunk",
           "summarize_chunk_gpu", "resume_summary",
           "DEFAULT_CAP", "DEFAULT_TOP", "DEFAULT_CHECKPOINT", "SUMMARY_FILE"]

DEFAULT_CAP = 2**15  # cards: histograms are exact up to here (the record game has 8,344)
DEFAULT_TOP = 100  # longest finished games kept
SUMMARY_FILE = "summary.json"  # the checkpoint inside a store directory
SUMMARY_LOCK = ".summary.lock"  # held by the run writing it
DEFAULT_CHECKPOINT = 10.0  # seconds between saves of a running summary
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
            differs = _differs(self._config(), other._config())
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


# -- the reduction next to the kernel -------------------------------------------------------------
def summarize_chunk(lo, hi, *, engine, rules, seed, cap, top) -> Summary:
    """Play games lo..hi-1 and reduce them to a Summary (runs on a worker: only this crosses back)."""
    return _reduce(engine(rules, seed, np.arange(lo, hi, dtype=np.int64)), lo, hi, rules=rules, seed=seed, cap=cap,
                   top=top)


def summarize_chunk_gpu(lo, hi, *, rules, seed, cap, top) -> Summary:
    """`summarize_chunk` on an NVIDIA GPU: the same Summary (`run.summary_gpu`; a range whose lists
    do not fit is played row by row on the GPU and reduced here as on the CPU)."""
    from ..engine.gpu import LAUNCH_GAMES, play_games_cuda
    from .summary_gpu import chunk_fields

    fields = chunk_fields(lo, hi, rules=rules, seed=seed, cap=cap, top=top)
    if fields is not None:
        return Summary(rules=rules, seed=seed, cap=cap, top=top, ranges=((lo, hi),), **fields)
    parts = [summarize_chunk(a, min(a + LAUNCH_GAMES, hi), engine=play_games_cuda, rules=rules, seed=seed, cap=cap,
                             top=top) for a in range(lo, hi, LAUNCH_GAMES)]
    return sum(parts[1:], parts[0])


def _reduce(a: dict, lo: int, hi: int, *, rules, seed, cap, top) -> Summary:
    """The Summary of games lo..hi-1 from their arrays (``engine.fast.play_games``' names)."""
    cards, tricks, out, winner = a["cards"], a["tricks"], a["outcome"], a["winner"]
    # (Comparisons and counts rather than bincount of the small-int arrays: several times faster.)
    looped, cutoff = np.count_nonzero(out == 1), np.count_nonzero(out == 2)
    outcomes = np.array([out.size - looped - cutoff, looped, cutoff], np.int64)
    wins = np.array([np.count_nonzero(winner == seat) for seat in range(rules.players)], np.int64)
    within = cards <= cap
    all_within = bool(within.all())
    hist_c, hist_t = [], []
    for o in range(3):
        if outcomes[o] == 0:
            hist_c.append(np.zeros(0, np.int64))
            hist_t.append(np.zeros(0, np.int64))
        elif outcomes[o] == out.size and all_within:  # the usual case: no masks needed
            hist_c.append(np.bincount(cards).astype(np.int64))
            hist_t.append(np.bincount(tricks).astype(np.int64))
        else:
            m = within & (out == o)
            hist_c.append(np.bincount(cards[m]).astype(np.int64))
            hist_t.append(np.bincount(tricks[m]).astype(np.int64))

    def pick(mask, columns):
        idx = np.flatnonzero(mask)
        cols = {"game": idx + lo, "outcome": out[idx], "winner": winner[idx], "cards": cards[idx],
                "tricks": tricks[idx]}
        for c in columns[len(GAME_COLUMNS):]:
            cols[c] = a[c][idx]
        return {c: np.asarray(cols[c], np.int64) for c in columns}

    # Longest finished games: the top-th largest length read off the histogram (finished games
    # beyond the cap are longer than any in it), then the candidates at or above it in exact order.
    finished = out == 0
    if top and outcomes[0] > top:
        beyond = int(np.count_nonzero(finished & ~within)) if not all_within else 0
        if beyond >= top:
            bar = cap + 1
        else:
            at_least = np.cumsum(hist_c[0][::-1])[::-1] + beyond  # finished games with >= v cards
            bar = int(np.flatnonzero(at_least >= top)[-1])
        longest = _top(pick(finished & (cards >= bar), GAME_COLUMNS), top)
    else:
        longest = _top(pick(finished, GAME_COLUMNS), top)
    return Summary(rules=rules, seed=seed, cap=cap, top=top, ranges=((lo, hi),), outcomes=outcomes, wins=wins,
                   cards=hist_c, tricks=hist_t,
                   over_cap=pick(~within, GAME_COLUMNS) if not all_within else _records(GAME_COLUMNS),
                   loops=pick(a["looped"], LOOP_COLUMNS), longest=longest)


def _arrays_of_table(table) -> dict:
    """The engine's arrays of one stored chunk (a games table of `beggarstats.run.tables`)."""
    from .tables import LOOP_COLUMNS as STORED_LOOP_COLUMNS

    a = {c: np.asarray(table.column(c).to_numpy(zero_copy_only=False), np.int64) for c in MEASURES}
    names = table.column("outcome").to_pandas().astype(str).to_numpy()
    a["outcome"] = np.select([names == o for o in OUTCOME_CODES], range(len(OUTCOME_CODES)), -1)
    a["winner"] = np.asarray(table.column("winner").fill_null(-1).to_numpy(zero_copy_only=False), np.int64)
    a["looped"] = np.asarray(table.column("loop_tricks").is_valid().to_numpy(zero_copy_only=False), bool)
    for c in STORED_LOOP_COLUMNS:
        a[c] = np.asarray(table.column(c).fill_null(0).to_numpy(zero_copy_only=False), np.int64)
    return a


def summarize_store(store, *, start: int | None = None, stop: int | None = None, cap=DEFAULT_CAP,
                    top=DEFAULT_TOP) -> Summary:
    """The `Summary` of the games a parquet store holds (start..stop-1, default all), read one
    chunk at a time: memory is that of one chunk, whatever the size of the run.

    Equal to ``summarize`` of the same games (same rules, seed, ``cap`` and ``top``).
    """
    st = store if isinstance(store, Store) else Store.at(store)
    cap, top = whole("cap", cap, 1), whole("top", top, 0)
    lo_all = 0 if start is None else start
    hi_all = MAX_GAME_ID + 1 if stop is None else stop
    return _read_back(st, [(lo, hi) for lo, hi, _ in st.chunks()], lo_all, hi_all,
                      Summary(rules=st.rules, seed=st.seed, cap=cap, top=top))


def _read_back(st: Store, chunks, lo_all: int, hi_all: int, total: Summary) -> Summary:
    """``total`` plus the games lo_all..hi_all-1 of the store's chunks ``chunks`` ((lo, hi) pairs),
    read one chunk at a time."""
    columns = list(MEASURES) + ["outcome", "winner", *LOOP_COLUMNS[len(GAME_COLUMNS):]]
    for lo, hi in chunks:
        a, b = max(lo, lo_all), min(hi, hi_all)
        if a < b:
            table = st.read(start=a, stop=b, columns=columns)
            total = total + _reduce(_arrays_of_table(table), a, b, rules=total.rules, seed=total.seed,
                                    cap=total.cap, top=total.top)
    return total


def store_and_summarize(n_games, rules=None, *, store, seed=None, n_jobs=None, chunk_size=None, progress=False,
                        per_seat=False, start=0, cap=DEFAULT_CAP, top=DEFAULT_TOP) -> tuple[Store, Summary, int]:
    """`simulate_to_store` and the `Summary` of games ``start .. start+n_games-1``, in constant memory.

    Each chunk this call plays is reduced to a Summary on its worker, next to its tables, and added
    up as it is written (`simulate_to_store`'s ``reduce``/``collect``): nothing played is read back.
    The chunks a resumed run finds already stored are read back one at a time (memory: one chunk),
    so the summary is always that of every game asked for, loaded and played. It equals
    ``summarize(n_games, rules=rules, seed=seed, start=start, cap=cap, top=top)``.
    benchmarks/memory.py measured its peak (n_jobs=2, above the warmed-up process) at 73, 78 and
    65 MB for 10^6, 4x10^6 and 1.6x10^7 games: the chunks in flight, not the games of the run.

    Returns
    -------
    (Store, Summary, int)
        The store, the summary, and how many of the games this call played (the rest were loaded).
    """
    cap, top = whole("cap", cap, 1), whole("top", top, 0)
    rules = check_rules(rules)
    seed = run_seed(check_seed(seed), store)  # as simulate_to_store chooses it
    run = {"total": Summary(rules=rules, seed=seed, cap=cap, top=top)}
    played = set()  # the chunks played: (lo, hi), a few bytes each

    def collect(lo, hi, part):  # added up at once: memory stays that of one Summary
        run["total"] = run["total"] + part
        played.add((lo, hi))

    st = simulate_to_store(n_games, rules=rules, seed=seed, n_jobs=n_jobs, chunk_size=chunk_size, progress=progress,
                           store=store, per_seat=per_seat, start=start,
                           reduce=functools.partial(_reduce, rules=rules, seed=seed, cap=cap, top=top),
                           collect=collect)
    stop = start + n_games
    total = run["total"]
    loaded = [(lo, hi) for lo, hi, _ in st.chunks() if (lo, hi) not in played]
    total = _read_back(st, loaded, start, stop, total)
    if n_games and total.ranges != ((start, stop),):
        raise StoreError(f"The store {str(st.path)!r} did not hold games {start:,}..{stop - 1:,} exactly once "
                         f"after the run (it held {list(total.ranges)[:5]}); run `beggarstats store verify "
                         f"{st.path} --repair`, then the same command again.")
    return st, total, sum(hi - lo for lo, hi in played)


def _store_file(store) -> Path:
    if isinstance(store, (str, os.PathLike)) and not isinstance(store, bool):
        return check_output_dir(store, writable=False) / SUMMARY_FILE
    raise ValueError(f"The value for `store` must be a directory path or None, but {store!r} was passed.")


def summarize(n_games: int, rules: RulesLike = None, *, seed: int | None = None, n_jobs: int | None = None,
              start: int = 0, progress: Progress = False, store: PathLike | None = None,
              chunk_size: int | None = None, cap: int = DEFAULT_CAP, top: int = DEFAULT_TOP,
              checkpoint: float | None = None, device: str = "cpu") -> Summary:
    """Play games ``start .. start+n_games-1`` and return their `Summary`, in constant memory.

    The games are exactly those of ``simulate(n_games, rules=rules, seed=seed, start=start)``; the
    summary equals the aggregate of that frame, whatever ``n_jobs``, backend or ``chunk_size``.

    Parameters
    ----------
    n_games : int
    rules : Rules, optional
        Default ``Rules()`` (2 players, standard deck).
    seed : int, optional
        Fixes the table; None draws fresh entropy (kept in ``.seed``), or with ``store`` reuses the
        seed of the run saved there.
    n_jobs : int, optional
        Parallel workers (scikit-learn's convention: None is 1 unless a ``joblib.parallel_config`` context
        says otherwise, -1 all cores); a ``joblib.parallel_config(backend=...)``
        context (loky, dask) takes over from outside, as in `simulate`.
    start : int
        First game id.
    progress : {False, True, 'notebook'}
        A tqdm progress bar.
    store : path, optional
        A directory: the summary of the finished chunks is saved there (``summary.json``)
        atomically every ``checkpoint`` seconds and when the run stops (also on Ctrl-C); the same
        call resumes, playing only the game ids not yet summarised. A directory holding another
        run (rules, seed, cap, top or rules version) is refused.
    chunk_size : int, optional
        Games per task (default as `simulate`: up to 2^16). Results do not depend on it.
    cap : int
        Lengths up to ``cap`` cards are counted in histograms, longer games listed (default 2^15).
    top : int
        Longest finished games kept (default 100).
    checkpoint : float, optional
        Seconds between saves to ``store`` (default `DEFAULT_CHECKPOINT`, 10).
    device : {'cpu', 'cuda'}
        'cuda' plays the games on an NVIDIA GPU (the ``cuda`` extra; decks of at most 64 cards):
        the same Summary, field for field, as on the CPU (`run.summary_gpu`); ``n_jobs`` is then
        not used.

    Returns
    -------
    Summary
    """
    device = choose_device(device)
    n_games, start, seed, n_jobs, chunk_size = check_run(n_games, start=start, seed=seed, n_jobs=n_jobs,
                                                         chunk_size=chunk_size, device=device)
    cap = whole("cap", cap, 1)
    top = whole("top", top, 0)
    rules = check_rules(rules)
    checkpoint = DEFAULT_CHECKPOINT if checkpoint is None else checkpoint
    if isinstance(checkpoint, bool) or not isinstance(checkpoint, (int, float)) or not checkpoint >= 0:
        raise ValueError(f"The value for `checkpoint` must be a number of seconds >= 0, but {checkpoint!r} was passed.")
    path = None if store is None else _store_file(store)
    saved = _saved(path)
    if seed is None and saved is not None:
        seed = saved.seed
    if seed is None and path is not None:
        seed = Store.seed_in(path.parent)  # a parquet store's directory: the same table as its games
    if seed is None:
        seed = fresh_seed()
    config = Summary(rules=rules, seed=seed, cap=cap, top=top)
    _same_run(saved, config, path)  # another run's directory is refused before anything is played
    if device.gpu:  # a range a launch, reduced on the GPU
        from .summary_gpu import GPU_CHUNK

        work = functools.partial(summarize_chunk_gpu, rules=rules, seed=seed, cap=cap, top=top)
        workers = dict(n_jobs=1, chunk_size=chunk_size or GPU_CHUNK)
    else:
        work = functools.partial(summarize_chunk, engine=device.engine(), rules=rules, seed=seed, cap=cap, top=top)
        workers = dict(n_jobs=n_jobs, chunk_size=chunk_size)
    return resume_summary(config, store, start, start + n_games, work, checkpoint=checkpoint, progress=progress,
                          n_total=n_games, desc="summarize", **workers)


def resume_summary(config: Summary, store, start: int, stop: int, work, **drive) -> Summary:
    """The run ``config`` describes over ids ``start..stop-1``: what the summary store ``store``
    (a directory or None) holds of it, plus the ids it lacks played by ``work(lo, hi) -> Summary``
    through `_drive` (``drive``: its options), under the store's one-writer lock (`summarize` and
    `run.census.census`)."""
    path = None if store is None else _store_file(store)
    total = _within(_same_run(_saved(path), config, path), start, stop)  # refused before a game is played
    if not subtract_ranges([(start, stop)], total.ranges):
        return _restrict(total, start, stop)  # nothing to play (the directory may be read-only)
    if path is None:
        return _restrict(_drive(work, total, subtract_ranges([(start, stop)], total.ranges), path=None, **drive), start, stop)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise unwritable(path.parent, exc) from None
    with write_lock(path.parent, SUMMARY_LOCK, "summary store"):  # one writer: a second run is refused
        total = _within(_same_run(_saved(path), config, path), start, stop)  # as saved by a run that held the lock
        total.save(path)  # fails now, not after the run, if the file cannot be written
        total = _drive(work, total, subtract_ranges([(start, stop)], total.ranges), path=path, **drive)
    return _restrict(total, start, stop)


def _saved(path: Path | None) -> Summary | None:
    """The summary saved at ``path`` (None if there is none; a damaged one is an error naming it)."""
    if path is None or not (path.exists() or path.is_symlink()):
        return None
    return load_summary(path)


def _same_run(saved: Summary | None, config: Summary, path: Path | None) -> Summary:
    """``saved`` if it is of the run ``config`` describes, ``config`` (empty) if there is none."""
    if saved is None:
        return config
    if saved._config() != config._config():
        differs = _differs(saved._config(), config._config())
        raise ValueError(f"The `store` directory {str(path.parent)!r} holds another run (its {', '.join(differs)} "
                         f"{'differs' if len(differs) == 1 else 'differ'}); pass another directory or the same settings.")
    return saved


def _drive(work, total: Summary, todo, *, path, checkpoint, n_jobs, chunk_size, progress, n_total, desc,
           unit="game", largest=None) -> Summary:
    """Run ``work(lo, hi) -> Summary`` over the ranges ``todo`` through `run_chunks`, adding each part
    to ``total`` as it finishes and saving the sum to ``path`` (if any) every ``checkpoint`` seconds
    and when the run stops, also on Ctrl-C."""
    run = {"total": total, "last_save": time.monotonic(), "dirty": False}

    def add(lo, hi, part):
        run["total"] = run["total"] + part
        run["dirty"] = True
        if path is not None and time.monotonic() - run["last_save"] >= checkpoint:
            run["total"].save(path)
            run["last_save"], run["dirty"] = time.monotonic(), False

    sizes = {} if largest is None else {"largest": largest}
    try:
        run_chunks(work, todo, sink=add, n_jobs=n_jobs, chunk_size=chunk_size, progress=progress, total=n_total,
                   desc=desc, unit=unit, **sizes)
    finally:
        if path is not None and run["dirty"]:
            run["total"].save(path)  # everything finished so far, also after Ctrl-C
    return run["total"]


def _within(total: Summary, start: int, stop: int) -> Summary:
    """``total`` if it holds no id outside start..stop-1: a store holding others would be refused by
    `_restrict` only after the run, so it is refused before."""
    if not subtract_ranges(list(total.ranges), [(start, stop)]):
        return total
    _refuse_range(total, start, stop)


def _differs(a: dict, b: dict) -> list[str]:
    """The keys of two runs' configurations whose values differ (a key only one has, such as a census's
    ``exact``, differs too)."""
    return [k for k in sorted(set(a) | set(b)) if a.get(k) != b.get(k)] or ["configurations"]


def _restrict(total: Summary, start: int, stop: int) -> Summary:
    """``total`` if it covers exactly start..stop-1; a store holding more cannot be cut apart."""
    if total.ranges == ((start, stop),) or (start == stop and not total.ranges):
        return total
    _refuse_range(total, start, stop)


def _refuse_range(total: Summary, start: int, stop: int):
    raise ValueError(f"The `store` holds games {list(total.ranges)}, not just ids {start}..{stop - 1}; a summary "
                     f"cannot be split, so ask for all of them (or use another directory).")
