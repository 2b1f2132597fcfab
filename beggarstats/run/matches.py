"""Matches: several rounds at one table, the deal rotating clockwise after every round (docs/MATCHES.md).

Semantics (also in ``docs/MATCHES.md``):

* **Seats** are physical seats round the table, 0 … n−1; seat 0 sits left of the first dealer and
  leads round 0. The deal rotates clockwise after **every dealt round** — a round replayed because it
  had no winner included (the cards were dealt and played; the next dealer deals again). So in dealt
  round ``r`` (0-based) physical seat ``r mod n`` leads, and the engine's seat ``e`` (the engine
  always has seat 0 leading) is physical seat ``(e + r) mod n``.
* A round **without a winner** is a loop or cut-off game whose ``unfinished`` rule names nobody.
  With ``replay_unfinished=True`` (default) it is replayed: a fresh deal, and it does not count
  towards the format. With ``replay_unfinished=False`` it counts as a round nobody won.
  Either way it is in ``rounds`` and ``unfinished_rounds``.
* **Formats.** ``first_to_K``: the first seat with K round wins wins the match.
  ``best_of_N``: at most N counted rounds; the match stops as soon as one seat has more wins than
  any other seat could still reach, and after N counted rounds the seat with most wins wins — a tie
  at the top is a **draw** (no winner). With 2 players and replays (the default) ``best_of_N`` is
  exactly ``first_to_{N//2+1}``: best of 3 = first to 2 round wins. With 3+ players a best of 3 can
  end 1-1-1 (a draw); use ``first_to_2`` for "play on until someone has two".
  For ``first_to_K`` the replay option changes nothing but the bookkeeping (every round is dealt
  afresh either way).
* A match still undecided after ``max_rounds`` dealt rounds is ``unfinished`` (``finished=False``).
* **Seeding.** Dealt round ``r`` of match ``m`` is game ``m * ROUND_STRIDE + r`` of the table seeded
  ``match_table_seed(seed)`` (a splitmix64 scramble of ``seed``, so a match study never shares deals
  with a ``simulate()`` table of the same seed). A fixed stride, not ``max_rounds``, so changing
  ``max_rounds`` leaves every match that finishes within both limits unchanged. Every match is thus
  fixed by ``seed`` alone, whatever ``n_jobs`` or ``chunk_size``; `round_deal` re-creates any deal.
"""

from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

import numpy as np
import pandas as pd

from ..game.checks import check_flag, check_seed, whole
from .arguments import check_run
from .device import Device, choose_device
from ..engine.deals import random_deal
from ..engine.reference import play_hands
from .limits import check_fits
from .parallel import run_chunks
from ..engine.rng import GameStream, mix64
from .seeds import fresh_seed
from ..game.rules import RULES_VERSION, Rules, check_rules
from .tables import MATCH_OUTCOMES, OUTCOMES, MatchesFrameBuilder, empty_rounds, rounds_frame

if TYPE_CHECKING:
    from ..game.hints import Progress, RulesLike

__all__ = [
    "simulate_matches", "play_match", "MatchFormat", "match_table_seed", "round_deal", "check_max_rounds",
    "ROUND_STRIDE", "MATCH_OUTCOMES", "CHUNK_MATCHES", "peak_bytes_per_match",
]

ROUND_STRIDE = 2**16          # game id = match * ROUND_STRIDE + dealt round
MAX_MATCHES = 2**47           # so that every game id fits an int64
_SALT = 0x6D61746368657321    # b"matches!": the match table is not the simulate() table
_RUNNING = -1
# Matches per task at most, by default: round r of a task is one engine call of up to this many
# games (long enough to hide the call), and the tasks in flight stay a few MB beside the frame.
CHUNK_MATCHES = 2**14
# Peak bytes per match, checked against the available memory before anything is played. The
# frame holds 39 + 4 per seat (47 with 2 players), built in place (tables.MatchesFrameBuilder);
# benchmarks/memory.py measured the peak with 2 players and n_jobs=2 (issue #21) at 45.7 per match
# for 4x10^6 matches and 51.4-56.6 for 10^6 (the chunks in flight weigh more in a smaller run),
# where the frames of concatenated tallies had peaked at 174.7 and 197.2. The estimate, 44 + 4 per
# seat (52 with 2 players), is that of a large run, where a refusal matters.
_PEAK_BYTES_PER_MATCH = 44
_PEAK_BYTES_PER_MATCH_SEAT = 4
_PEAK_BYTES_PER_ROUND_ROW = 120  # return_rounds: a few rounds per match


# -- formats -------------------------------------------------------------------------------------
@dataclass(frozen=True)
class MatchFormat:
    """``best_of_N`` or ``first_to_K`` (see the module docstring for the exact rules)."""

    kind: str
    n: int

    _PATTERN = re.compile(r"(best_of|first_to)_([0-9]+)")

    @classmethod
    def parse(cls, value) -> "MatchFormat":
        if isinstance(value, MatchFormat):
            return value
        m = cls._PATTERN.fullmatch(value) if isinstance(value, str) else None
        if m is None or int(m.group(2)) < 1:
            raise ValueError(
                "The value for `format` must be 'best_of_N' or 'first_to_K' with N, K whole numbers "
                f">= 1 (e.g. 'best_of_3', 'first_to_3'), but {value!r} was passed."
            )
        return cls(m.group(1), int(m.group(2)))

    @property
    def name(self) -> str:
        return f"{self.kind}_{self.n}"

    @property
    def target(self) -> int:
        """Round wins that always decide the match (a majority of N for best_of_N)."""
        return self.n // 2 + 1 if self.kind == "best_of" else self.n

    @property
    def cap(self) -> int | None:
        """Most counted rounds (None: no limit)."""
        return self.n if self.kind == "best_of" else None


# -- seeding -------------------------------------------------------------------------------------
def match_table_seed(seed: int) -> int:
    """The table seed whose games are the rounds of the matches of ``seed`` (63 bits)."""
    return mix64(check_seed(seed) ^ _SALT) >> 1


def round_deal(seed: int, match: int, round: int, rules: Rules | None = None):
    """The deal (engine seats: seat 0 leads) of dealt round ``round`` of match ``match``, and its
    stream, as `random_deal` returns them. Engine seat e is physical seat (e + round) mod n."""
    rules = rules or Rules()
    return random_deal(match_table_seed(seed), match * ROUND_STRIDE + round, rules)


# -- the engines ---------------------------------------------------------------------------------
def _play_games_reference(rules: Rules, seed: int, games: np.ndarray) -> dict[str, np.ndarray]:
    """`play_games` on the reference engine (same figures for the keys used here)."""
    k = len(games)
    out = {"winner": np.full(k, -1, np.int8), "cards": np.zeros(k, np.uint32),
           "tricks": np.zeros(k, np.uint32), "outcome": np.zeros(k, np.uint8)}
    for i, g in enumerate(games):
        deal, stream = random_deal(seed, int(g), rules)
        res = play_hands(deal, rules, rng=stream)
        out["winner"][i] = -1 if res.winner is None else res.winner
        out["cards"][i], out["tricks"][i] = res.cards, res.tricks
        out["outcome"][i] = OUTCOMES.index(res.outcome)
    return out


def _engine(name: str | None, device: Device, rules: Rules) -> tuple[str, Callable]:
    """The engine's name (the frame's ``engine``) and its batch function: the compiled engine on
    ``device``, or, with the deprecated ``engine='reference'``, the readable one."""
    if name is None:
        return "fast", device.engine(rules)
    if name not in ("auto", "fast", "reference"):
        raise ValueError(f"The value for `engine` must be one of ['auto', 'fast', 'reference'], but {name!r} was passed.")
    if name != "reference":
        warnings.warn("`engine` is deprecated and will be removed: the compiled engine always plays, on `device` "
                      "('cpu', the default, or 'cuda'); leave `engine` out.", FutureWarning, stacklevel=3)
        return "fast", device.engine(rules)
    warnings.warn("`engine='reference'` is deprecated and will be removed: it plays the same matches as the compiled "
                  "engine, slowly; `play_match` plays any match on the reference engine from its deals (`round_deal`).",
                  FutureWarning, stacklevel=3)
    if device.gpu:
        raise ValueError(f"`engine='reference'` plays on the CPU, not on `device={device.name!r}`: leave `engine` out.")
    return "reference", _play_games_reference


# -- scoring (shared by play_match and simulate_matches) -----------------------------------------
class _Tally:
    """Scores of many matches at once; `record` takes one dealt round of some of them."""

    def __init__(self, n_matches: int, players: int, fmt: MatchFormat, replay: bool):
        self.players, self.fmt, self.replay = players, fmt, replay
        self.wins = np.zeros((n_matches, players), np.int32)
        self.rounds = np.zeros(n_matches, np.int32)      # dealt rounds, replays included
        self.counted = np.zeros(n_matches, np.int32)     # rounds that count towards the format
        self.unfinished = np.zeros(n_matches, np.int32)  # dealt rounds without a winner
        self.cards = np.zeros(n_matches, np.int64)
        self.tricks = np.zeros(n_matches, np.int64)
        self.result = np.full(n_matches, _RUNNING, np.int8)  # index into MATCH_OUTCOMES
        self.winner = np.full(n_matches, -1, np.int8)

    def record(self, idx: np.ndarray, r: int, engine_winner: np.ndarray, cards, tricks) -> np.ndarray:
        """Score dealt round ``r`` of the running matches ``idx`` (engine seats); returns the
        physical winner of each round (-1: none)."""
        ew = np.asarray(engine_winner, np.int64)
        seat = np.where(ew >= 0, (ew + r) % self.players, -1)
        won = seat >= 0
        self.rounds[idx] += 1
        self.cards[idx] += np.asarray(cards, np.int64)
        self.tricks[idx] += np.asarray(tricks, np.int64)
        self.unfinished[idx] += ~won
        self.counted[idx] += won | (not self.replay)
        self.wins[idx[won], seat[won]] += 1  # idx holds each match once
        self._decide(idx)
        return seat

    def _decide(self, idx: np.ndarray) -> None:
        w = self.wins[idx]
        top = w.max(axis=1)
        if self.fmt.kind == "first_to":
            won, drawn = top >= self.fmt.target, np.zeros(len(idx), bool)
        else:
            left = self.fmt.cap - self.counted[idx]
            second = np.partition(w, -2, axis=1)[:, -2]
            won = top > second + left      # nobody can catch up any more
            drawn = ~won & (left <= 0)
        self.winner[idx[won]] = w[won].argmax(axis=1)
        self.result[idx[won]] = MATCH_OUTCOMES.index("win")
        self.result[idx[drawn]] = MATCH_OUTCOMES.index("draw")

    def running(self, idx: np.ndarray) -> np.ndarray:
        return idx[self.result[idx] == _RUNNING]

    def give_up(self, idx: np.ndarray) -> None:
        self.result[idx] = MATCH_OUTCOMES.index("unfinished")


# -- one match from given deals -----------------------------------------------------------------
def play_match(deals: Iterable, rules: Rules | None = None, *, format="best_of_3", replay_unfinished: bool = True,
               max_rounds: int = 1000, any_deck: bool = False, seed: int = 0) -> dict:
    """Play one match on the reference engine from a sequence of deals, one per dealt round.

    Parameters
    ----------
    deals : iterable of deals
        The deal of dealt round 0, 1, … in **engine** seat order (deal notation or hands): its seat 0
        leads, i.e. it is physical seat ``r mod n`` in round ``r``. Only as many are read as rounds
        are played; running out before the match is decided is a ``ValueError``.
    rules, any_deck
        As for `beggarstats.run.play`.
    format, replay_unfinished, max_rounds
        As for `simulate_matches`.
    seed : int
        Shuffle variants draw from ``GameStream(seed, r)`` in round ``r``.

    Returns
    -------
    dict
        ``outcome`` ('win', 'draw', 'unfinished'), ``winner`` (physical seat or None), ``rounds``,
        ``unfinished_rounds``, ``wins`` (round wins per physical seat), ``cards``, ``tricks`` and
        ``history``: one dict per dealt round with ``round``, ``leader``, ``outcome``, ``winner``
        (physical seat or None), ``engine_winner``, ``counted``, ``cards``, ``tricks``.
    """
    from .play import play  # the validating entry point (parses and checks each deal)

    fmt = MatchFormat.parse(format)
    max_rounds = check_max_rounds(max_rounds, fmt)
    tally, history, players = None, [], None
    it = iter(deals)
    idx = np.zeros(1, np.int64)
    for r in range(max_rounds):
        try:
            deal = next(it)
        except StopIteration:
            raise ValueError(f"The value for `deals` ran out after {r} rounds, before the match was decided: pass "
                             f"more deals.") from None
        res = play(deal, rules, any_deck=any_deck, rng=GameStream(seed, r))
        n = len(res.final_hand_sizes)
        if tally is None:
            players, tally = n, _Tally(1, n, fmt, bool(replay_unfinished))
        elif n != players:
            raise ValueError(f"round {r}: the deal has {n} hands but the match has {players} players")
        ew = -1 if res.winner is None else res.winner
        seat = int(tally.record(idx, r, np.array([ew]), [res.cards], [res.tricks])[0])
        history.append({
            "round": r, "leader": r % players, "outcome": res.outcome,
            "winner": None if seat < 0 else seat, "engine_winner": res.winner,
            "counted": bool(seat >= 0 or not replay_unfinished), "cards": res.cards, "tricks": res.tricks,
        })
        if tally.result[0] != _RUNNING:
            break
    else:
        tally.give_up(idx)
    return {
        "outcome": MATCH_OUTCOMES[tally.result[0]],
        "winner": None if tally.winner[0] < 0 else int(tally.winner[0]),
        "rounds": int(tally.rounds[0]), "unfinished_rounds": int(tally.unfinished[0]),
        "wins": tuple(int(x) for x in tally.wins[0]),
        "cards": int(tally.cards[0]), "tricks": int(tally.tricks[0]), "history": history,
    }


# -- many random matches -------------------------------------------------------------------------
def check_max_rounds(max_rounds, fmt: MatchFormat) -> int:
    if fmt.target > ROUND_STRIDE:  # no max_rounds can be enough: the format is what is wrong
        raise ValueError(
            f"The value for `format` needs {fmt.target} round wins, but a match has at most {ROUND_STRIDE} "
            f"rounds: use first_to_K with K from 1 to {ROUND_STRIDE} (best_of_N: N up to {2 * ROUND_STRIDE - 1}), "
            f"but {fmt.name!r} was passed."
        )
    ok = isinstance(max_rounds, (int, np.integer)) and not isinstance(max_rounds, bool)
    if not ok or not fmt.target <= max_rounds <= ROUND_STRIDE:
        raise ValueError(
            f"The value for `max_rounds` must be a whole number from {fmt.target} (the wins {fmt.name} needs) "
            f"to {ROUND_STRIDE}, but {max_rounds!r} was passed."
        )
    return int(max_rounds)


def _run_chunk(start: int, stop: int, *, rules: Rules, fmt: MatchFormat, table_seed: int, replay: bool,
               max_rounds: int, play_games: Callable, keep_rounds: bool):
    """Matches ``start … stop-1``: dealt round r of every running match in one engine call.
    Returns their tally and, with ``keep_rounds``, the frames of their dealt rounds."""
    matches = np.arange(start, stop, dtype=np.int64)
    tally = _Tally(len(matches), rules.players, fmt, replay)
    running = np.arange(len(matches))
    log = []
    for r in range(max_rounds):
        if running.size == 0:
            break
        games = matches[running] * ROUND_STRIDE + r
        res = play_games(rules, table_seed, games)
        seat = tally.record(running, r, res["winner"], res["cards"], res["tricks"])
        if keep_rounds:
            log.append(rounds_frame(matches[running], r, games, r % rules.players, res["outcome"], seat,
                                    (seat >= 0) | (not replay), res["cards"], res["tricks"]))
        running = tally.running(running)
    tally.give_up(running)
    return tally, log


def peak_bytes_per_match(rules: Rules, format="best_of_3", return_rounds: bool = False) -> int:
    """The estimated peak memory of `simulate_matches` per match (bytes), as benchmarks/memory.py
    measures it (see the constants above): the frame and, with ``return_rounds``, its rounds."""
    fmt = MatchFormat.parse(format)
    per_match = _PEAK_BYTES_PER_MATCH + _PEAK_BYTES_PER_MATCH_SEAT * rules.players
    if return_rounds:
        per_match += _PEAK_BYTES_PER_ROUND_ROW * (fmt.cap or rules.players * fmt.target)
    return per_match


def simulate_matches(n_matches: int, rules: RulesLike = None, *, format: str = "best_of_3", seed: int | None = None,
                     n_jobs: int | None = None, replay_unfinished: bool = True, max_rounds: int = 1000,
                     chunk_size: int | None = None, progress: Progress = False, return_rounds: bool = False,
                     device: str = "cpu", engine: str | None = None) -> pd.DataFrame | tuple[pd.DataFrame, pd.DataFrame]:
    """Play ``n_matches`` random matches at one table; one row per match.

    Parameters
    ----------
    n_matches : int
        Matches to play; they are numbered 0 … n_matches−1.
    rules : Rules, optional
        The rules of every round (default: the standard 2-player game).
    format : str
        ``'best_of_N'`` or ``'first_to_K'`` (see the module docstring; best of 3 with 2 players =
        first to 2 round wins).
    seed : int, optional
        Fixes every match whatever ``n_jobs`` and ``chunk_size``. None draws fresh entropy,
        recorded in ``df.attrs['seed']``.
    n_jobs : int, optional
        joblib workers (``prefer="threads"``: the kernels release the GIL). None → 1 unless a
        ``joblib.parallel_config`` says otherwise; −1 → all cores.
    replay_unfinished : bool
        Replay a round without a winner (True) or count it as a round nobody won (False).
    max_rounds : int
        Dealt rounds (replays included) after which an undecided match is given up as
        ``unfinished``; at most ``ROUND_STRIDE``.
    chunk_size : int, optional
        Matches per joblib task (default as `beggarstats.run.parallel.chunks`: a quarter of what is left
        per worker, at least 1000 matches and at most `CHUNK_MATCHES`; at most
        `limits.MAX_CHUNK_SIZE` if given).
        Within a task, round r of all running matches is one engine call.
    progress : bool or 'notebook'
        A tqdm bar over matches.
    return_rounds : bool
        Also return one row per dealt round (``match, round, game, leader, outcome, winner, counted,
        cards, tricks``; seats physical, ``game`` the id in the table ``match_table_seed(seed)``).
    device : {'cpu', 'cuda'}
        'cuda' plays the rounds on an NVIDIA GPU (the ``cuda`` extra; decks of at most 64 cards): the
        same matches.
    engine : {'auto', 'fast', 'reference'}, optional
        Deprecated (a FutureWarning): 'auto' and 'fast' are the compiled engine, which plays without
        it; 'reference' plays the same matches on the readable engine, slowly (`play_match` plays one
        match on it).

    Returns
    -------
    pandas.DataFrame (and the rounds DataFrame if ``return_rounds``)
        ``match``; ``players``; ``rules`` (``Rules.name``) and ``format`` (categories of one
        label); ``outcome`` ('win', 'draw', 'unfinished'); ``winner`` (physical seat, Int8, NA for a draw or an unfinished match);
        ``finished`` (not unfinished); ``rounds`` (dealt rounds, replays included);
        ``unfinished_rounds`` (dealt rounds nobody won); ``wins_seat0`` … (round wins per physical
        seat); ``cards``, ``tricks`` (totals over all dealt rounds, in cards played and piles taken).
        ``attrs``: rules (dict), seed, table_seed, format, replay_unfinished, max_rounds,
        round_stride, engine, rules_version.
    """
    device = choose_device(device)
    rules = check_rules(rules)
    n_matches = whole("n_matches", n_matches, 0, MAX_MATCHES)
    _, _, seed, n_jobs, chunk_size = check_run(n_matches, seed=seed, n_jobs=n_jobs, chunk_size=chunk_size,
                                               names={"n": "n_matches"})
    replay_unfinished = check_flag("replay_unfinished", replay_unfinished)
    return_rounds = check_flag("return_rounds", return_rounds)
    fmt = MatchFormat.parse(format)
    max_rounds = check_max_rounds(max_rounds, fmt)
    check_fits(n_matches, peak_bytes_per_match(rules, fmt, return_rounds), "matches", "ask for fewer matches per call.")
    seed = fresh_seed() if seed is None else seed
    table_seed = match_table_seed(seed)
    engine_name, play_games = _engine(engine, device, rules)
    replay = bool(replay_unfinished)

    work = functools.partial(_run_chunk, rules=rules, fmt=fmt, table_seed=table_seed, replay=replay,
                             max_rounds=max_rounds, play_games=play_games, keep_rounds=return_rounds)
    # The frame's columns are allocated once and each chunk's tally is put in place as it
    # finishes (then dropped): the peak is the frame plus the chunks in flight.
    frame = MatchesFrameBuilder(n_matches, rules.players)
    logs = {}

    def keep(lo, hi, part):
        tally, log = part
        frame.add(lo, wins=tally.wins, rounds=tally.rounds, unfinished=tally.unfinished, cards=tally.cards,
                  tricks=tally.tricks, result=tally.result, winner=tally.winner)
        if return_rounds:
            logs[lo] = log

    run_chunks(work, [(0, n_matches)] if n_matches else [], sink=keep, n_jobs=n_jobs, chunk_size=chunk_size,
               progress=progress, unit="match", desc="matches", largest=CHUNK_MATCHES, smallest=1000)
    df = frame.frame(rules=rules.name, format=fmt.name)
    df.attrs.update({
        "rules": rules.to_dict(), "seed": seed, "table_seed": table_seed, "format": fmt.name,
        "replay_unfinished": replay, "max_rounds": max_rounds, "round_stride": ROUND_STRIDE,
        "engine": engine_name, "rules_version": RULES_VERSION,
    })
    if not return_rounds:
        return df
    logs = [f for lo in sorted(logs) for f in logs[lo]]
    rounds = (pd.concat(logs, ignore_index=True).sort_values(["match", "round"], ignore_index=True)
              if logs else empty_rounds())
    rounds.attrs = dict(df.attrs)
    return df, rounds
