"""What each field of a `run.summary.Summary` must be, checked when one is made (issue #40, item 3).

A Summary is made by `summarize`, `census`, ``+`` and `load_summary`, and by hand: every field is
checked for its kind and shape here (`check_fields`), and `summary._invariants` then checks that
the counts agree with each other and with the ranges, so that a Summary with negative counts, a
histogram of floats or a list of the wrong columns is refused, naming the field, instead of
answering questions with numbers.
"""

from __future__ import annotations

import numbers

import numpy as np

from ..game.checks import check_flag, check_seed, whole
from ..game.rules import require_rules
from .limits import MAX_GAME_ID

__all__ = ["GAME_COLUMNS", "LOOP_COLUMNS", "check_fields", "counts"]

#: Columns of the per-game lists (all int64; -1 = no winner).
GAME_COLUMNS = ("game", "outcome", "winner", "cards", "tricks")
LOOP_COLUMNS = GAME_COLUMNS + ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")
_N_OUTCOMES = 3


def counts(name: str, value, size: int | None = None, what: str = "counts") -> np.ndarray:
    """``value`` as a 1-D int64 array (of ``size`` entries when given): whole numbers only (an empty
    list is one), never floats, text or values past int64."""
    try:
        a = np.asarray(value)
    except (ValueError, TypeError, OverflowError):
        a = None
    ok = a is not None and a.ndim == 1 and (a.dtype.kind in "iu" or a.size == 0 and a.dtype.kind == "f")
    if ok and a.dtype.kind == "u" and a.size:
        ok = int(a.max()) <= np.iinfo(np.int64).max
    if not ok:
        raise ValueError(f"The value for `{name}` must be a list of whole numbers"
                         f"{'' if size is None else f' ({size} of them)'} that fit int64, but {value!r} was passed.")
    if size is not None and a.size != size:
        raise ValueError(f"The value for `{name}` must hold {size} {what}, but {a.size} were passed.")
    return a.astype(np.int64)


def _ranges(value) -> tuple:
    bad = ValueError(f"The value for `ranges` must be pairs (lo, hi) of game ids, 0 <= lo < hi <= 2**63, but "
                     f"{value!r} was passed.")
    try:
        pairs = tuple(tuple(r) for r in value)
    except TypeError:
        raise bad from None
    for pair in pairs:
        if len(pair) != 2 or not all(isinstance(v, numbers.Integral) and not isinstance(v, (bool, np.bool_))
                                     for v in pair) or not 0 <= pair[0] < pair[1] <= MAX_GAME_ID + 1:
            raise bad
    return tuple((int(lo), int(hi)) for lo, hi in pairs)


def _histograms(name: str, value) -> list:
    if not isinstance(value, (list, tuple)) or len(value) != _N_OUTCOMES:
        raise ValueError(f"The value for `{name}` must be a list of {_N_OUTCOMES} histograms (win, loop, cutoff), "
                         f"but {value!r:.80} was passed.")
    return [counts(f"{name}[{o}]", h) for o, h in enumerate(value)]


def _records(name: str, value, columns) -> dict:
    if not isinstance(value, dict) or set(value) != set(columns):
        got = sorted(value) if isinstance(value, dict) else value
        raise ValueError(f"The value for `{name}` must be a dict of the columns {list(columns)}, but {got!r:.80} "
                         f"was passed.")
    return {c: counts(f"{name}[{c!r}]", value[c]) for c in columns}


def check_fields(s) -> None:
    """Check and normalise every field of Summary ``s`` in place (ints as int, counts as int64)."""
    s.rules = require_rules(s.rules)
    s.seed = check_seed(s.seed, none=False)
    s.rules_version = whole("rules_version", s.rules_version, 1)
    s.cap = whole("cap", s.cap, 1, 2**31)
    s.top = whole("top", s.top, 0, 2**31)
    s.ranges = _ranges(s.ranges)
    s.outcomes = counts("outcomes", s.outcomes, _N_OUTCOMES)
    s.wins = np.zeros(s.rules.players, np.int64) if s.wins is None else counts("wins", s.wins, s.rules.players,
                                                                                  "counts (one per seat: the rules have that many seats)")
    s.cards, s.tricks = _histograms("cards", s.cards), _histograms("tricks", s.tricks)
    s.over_cap = _records("over_cap", s.over_cap, GAME_COLUMNS)
    s.loops = _records("loops", s.loops, LOOP_COLUMNS)
    s.longest = _records("longest", s.longest, GAME_COLUMNS)
    s.exact = check_flag("exact", s.exact)
