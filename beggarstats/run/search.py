"""`search_long()`: a search for long deals, by random deals at full engine speed or backwards from them.

Two strategies, both reproducible by ``seed`` for a given budget of random deals (``deals``), with a
CPU-time budget (``seconds``) on top:

* ``'random'``: random deals ``0 .. deals-1`` of the table ``seed``, played by `summarize` in rounds
  (the same games, in constant memory), keeping the longest;
* ``'backward'``: the same random deals, and every one that lasts at least ``min_cards`` cards is
  *extended backwards*. Each trick-boundary state of its game is an uneven deal; the states one
  trick before it are found by running the trick backwards (`engine.backward.predecessors`), and
  so on, depth first, for up to ``nodes`` states per deal (compiled: `engine.backward_kernel`, the
  same states in the same order). A state whose hand sizes are those of
  the round deal is a standard deal (seats turned so that its leader is seat 0) whose game runs
  into the long one: it lasts the cards played back to it plus what the long game had left. A
  game forgets any change within one pass through the hands (issue #26: swapping two cards of a
  long deal loses its length), but a state found backwards keeps the whole of the long game's
  future.

Every deal returned is replayed by the reference engine (`play`) and reported as it plays.
"""

from __future__ import annotations

import functools
import time
from typing import TYPE_CHECKING

import joblib
import pandas as pd

from ..engine.backward import check_backward_rules
from ..engine.backward_kernel import extend_deal_hands
from ..engine.rank import hand_sizes
from ..engine.deals import random_deal
from ..game.cards import format_deal
from ..game.checks import MAX_NODES, check_n_jobs, check_seed, whole
from ..game.rules import check_rules, random_options
from .device import choose_device
from .limits import MAX_GAME_ID, duration
from .parallel import run_chunks
from .play import play
from .progress import progress_bar
from .summarize import summarize
from .summary import Summary

if TYPE_CHECKING:
    from ..game.hints import Progress, RulesLike

__all__ = ["search_long", "STRATEGIES", "ROUND", "COLUMNS", "MAX_DEALS"]

STRATEGIES = ("random", "backward")
ROUND = 2**22  # random deals per round: the CPU budget is checked between rounds
COLUMNS = ("deal", "players", "rules", "outcome", "winner", "cards", "tricks", "loop_start_cards", "loop_cards",
           "strategy", "how", "game", "boundary", "tricks_back", "cpu_seconds", "deals_tried")
TOP_EXTENDED = 1 << 14  # longest games kept per round of a backward search (all must reach min_cards)


MAX_SECONDS = 365 * 86400  # a budget past a year is no budget (and inf or 1e30 none at all)
# The most random deals a search plays without a time budget unless asked (`max_deals`), as `census`
# refuses a census past its `MAX_DEALS`: about 3 hours a core, and a larger one is refused with its time.
MAX_DEALS = 10**10
_SAMPLE = 2**14  # random deals timed for the estimate of a refused search


def _check_seconds(seconds, name="seconds"):
    if seconds is None:
        return None
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) or not 0 < seconds <= MAX_SECONDS:
        raise ValueError(f"The value for `{name}` must be a number of {'CPU ' if name == 'seconds' else ''}seconds "
                         f"> 0 (at most {MAX_SECONDS:,}, a year) or None, "
                         f"but {seconds!r} was passed.")
    return float(seconds)


def search_long(rules: RulesLike = None, *, seed: int | None = None, deals: int | None = None,
                seconds: float | None = None, strategy: str = "backward", min_cards: int = 3000,
                nodes: int = 1_000_000, top: int = 10, n_jobs: int | None = None, progress: Progress = False,
                summary: Summary | None = None, wall_seconds: float | None = None,
                device: str = "cpu", max_deals: int | None = None) -> pd.DataFrame:
    """Search for long deals; return the longest found, each replayable with `beggarstats.play`.

    Parameters
    ----------
    rules : Rules, optional
        Default ``Rules()``. 2 or more players, any deterministic option; ``'backward'`` also needs
        ``leader='taker'`` (with 3+ players), no Beggar jokers and no ``max_cards``; the shuffle
        variants are refused (a deal has no single length under them).
    seed : int
        The table of the random deals (0 .. 2**64-1). With ``deals`` it fixes the result. Required
        unless ``summary`` is given.
    deals : int, optional
        Random deals to try (game ids ``0 .. deals-1``): the deterministic budget. None: as many as
        ``seconds`` allows (the result's ``attrs['deals']`` then says how many, to reproduce it).
    seconds : float, optional
        CPU-time budget in seconds (this process, its threads included), checked between rounds of
        `ROUND` deals and between groups of ``n_jobs`` extended deals: the search stops once it is spent. At least
        one of ``deals`` and ``seconds`` must be given.
    wall_seconds : float, optional
        A wall-clock budget as well, checked at the same places (a shared machine: the CPU budget
        may not be spent by a deadline); a search stopped by it says ``stopped='wall'``.
    strategy : {'backward', 'random'}
    min_cards : int
        ``'backward'``: the random deals lasting at least this many cards are extended backwards.
    nodes : int
        ``'backward'``: states examined backwards per extended deal (the default is more than the whole
        ancestor tree of every long two-player game measured: docs/search.md).
    top : int
        Longest deals returned (loops met are returned as well, whatever their length).
    n_jobs : int, optional
        Workers (scikit-learn's convention: None is 1 unless a ``joblib.parallel_config`` context says
        otherwise, -1 all cores; threads) for the random deals, and for the long games run backwards, each on
        its
        own (the kernel releases the GIL): the result does not depend on it.
    progress : {False, True, 'notebook'}
        A progress bar over the random deals.
    device : {'cpu', 'cuda'}
        Where the random deals are played: 'cuda' on an NVIDIA GPU (`summarize`'s ``device``), the
        same deals found, in the same rounds; the backward stage and the replays stay on the CPU.
        ``seconds`` counts this process's CPU time, not the GPU's: give ``wall_seconds`` with it.
    max_deals : int, optional
        A search of more ``deals`` than this with neither ``seconds`` nor ``wall_seconds`` (no stated
        end but the deals) is refused before it starts, with the time it would take at a speed
        measured here on a few thousand deals (the random deals alone: the backward stage adds to
        it). Default None: `MAX_DEALS`.
    summary : Summary, optional
        Search from the longest games of a `summarize` run (e.g. ``load_summary(
        'data/summary-p2.json')``) instead of playing random deals: its rules and seed are used
        (give neither ``rules`` nor ``seed`` nor ``deals``), ``cpu_seconds`` count from the start
        of this call, not the run that made the summary.

    Returns
    -------
    pandas.DataFrame
        One row per deal, longest first: ``deal`` (the notation of `play`), ``players``, ``rules``,
        ``outcome``, ``winner`` (nullable), ``cards``, ``tricks``, ``loop_start_cards``,
        ``loop_cards`` (nullable), ``strategy`` and ``how`` (how it was found), ``game`` (the
        random deal it came from), ``boundary`` (the trick boundary of that game it was extended
        from) and ``tricks_back`` (tricks played back from there; both 0 for a random deal),
        ``cpu_seconds`` (CPU time of the search when found), ``deals_tried`` (random deals played by
        then). ``attrs``: rules, seed, strategy, deals (random deals tried), states (examined
        backwards), extended (deals extended), cpu_seconds, wall_seconds, stopped ('deals',
        'seconds' or 'wall'), random_longest and random_longest_game (the longest of the random deals
        themselves, what the random strategy finds in the same deals).
    """
    if summary is not None:
        if not isinstance(summary, Summary) or summary.exact:
            raise ValueError(f"The value for `summary` must be a Summary of random deals (from `summarize`) or None, "
                             f"but {type(summary).__name__} was passed.")
        if rules is not None or seed is not None or deals is not None:
            raise ValueError("With `summary`, give none of `rules`, `seed` and `deals`: the summary's own are used.")
        rules, seed = summary.rules, summary.seed
    device = choose_device(device)
    rules = check_rules(rules)
    seed = check_seed(seed, none=False)
    deals = whole("deals", deals, 1, MAX_GAME_ID, none=True)
    seconds = _check_seconds(seconds)
    wall_seconds = _check_seconds(wall_seconds, "wall_seconds")
    if deals is None and seconds is None and summary is None:
        raise ValueError("Give a budget: `deals` (random deals to try, reproducible) and/or `seconds` (CPU seconds).")
    if strategy not in STRATEGIES:
        raise ValueError(f"The value for `strategy` must be one of {list(STRATEGIES)}, but {strategy!r} was passed.")
    if random_options(rules):  # declared in game/rules.py (RANDOM_VALUES), as the census's refusal
        named = " and ".join(f"`{r}`" for r in random_options(rules))
        raise ValueError(f"The search needs deterministic rules: {named} draw random numbers during play and give a "
                         f"deal no single length.")
    if strategy == "backward":
        check_backward_rules(rules)
    min_cards = whole("min_cards", min_cards, 1, 2**31)  # cards of a game: far past any
    nodes = whole("nodes", nodes, 1, MAX_NODES)
    top = whole("top", top, 1)
    n_jobs = check_n_jobs(n_jobs)
    max_deals = MAX_DEALS if max_deals is None else whole("max_deals", max_deals, 1, MAX_GAME_ID)
    if deals is not None and deals > max_deals and seconds is None and wall_seconds is None:
        rate = _rate(rules, seed, n_jobs, device)
        raise ValueError(f"A search of {deals:,} random deals ({deals:.3g}) is more than `max_deals` = {max_deals:,}: "
                         f"about {duration(deals / rate)} at the {rate:,.0f} deals/s "
                         f"{'of the fastest GPU run' if device.gpu else 'measured here'}, the backward stage "
                         f"aside. Pass a larger `max_deals`, fewer `deals`, or a time budget (`seconds`).")
    bar = progress_bar(progress, deals or 0, unit="deal", desc=f"search ({strategy})")
    search = _Search(rules, seed, strategy, min_cards, nodes, top, seconds, wall_seconds, device)
    try:
        if summary is not None:
            search.tried = summary.n_games
            search.from_summary(summary, n_jobs)
        else:
            search.run(deals, n_jobs, bar)
    finally:
        if bar is not None:
            bar.close()
    return search.frame()


def _rate(rules, seed, n_jobs, device) -> float:
    """Random deals a second of a search's rounds (`summarize`) on the workers of ``n_jobs``, measured on
    `_SAMPLE` deals once the kernels are compiled; on the GPU, the fastest speed measured there."""
    if device.gpu:
        return device.games_per_second(n_jobs)
    summarize(64, rules=rules, seed=seed, n_jobs=1)  # compiled (or loaded) before the clock starts
    t0 = time.perf_counter()
    summarize(_SAMPLE, rules=rules, seed=seed, start=64, n_jobs=1)
    return _SAMPLE / max(time.perf_counter() - t0, 1e-9) * max(1, joblib.effective_n_jobs(n_jobs))


def _extend_range(lo, hi, *, todo, sizes, nodes, ccw, keep_taker):
    """Run back the long games ``todo[lo:hi]`` (game, hands, cards): a task of `run_chunks`."""
    return [extend_deal_hands(hands, cards, sizes=sizes, nodes=nodes, ccw=ccw, keep_taker=keep_taker)
            for _, hands, cards in todo[lo:hi]]


class _Search:
    """The state of one search: the best deals so far, the budget spent."""

    def __init__(self, rules, seed, strategy, min_cards, nodes, top, seconds, wall_seconds=None, device="cpu"):
        self.rules, self.seed, self.strategy, self.device = rules, seed, strategy, device
        self.min_cards, self.nodes, self.top, self.seconds = min_cards, nodes, top, seconds
        self.wall_seconds, self.out_by = wall_seconds, "seconds"
        self.random_longest, self.random_longest_game = 0, -1
        self.sizes = hand_sizes(rules)
        self.ccw = rules.direction == "ccw"
        self.keep_taker = rules.end == "empty"
        self.best = {}  # random deal -> the longest deal of its family
        self.loops = []
        self.tried = 0
        self.states = 0
        self.extended = 0
        self.stopped = "deals"
        self.cpu0, self.wall0 = time.process_time(), time.perf_counter()

    def cpu(self) -> float:
        return time.process_time() - self.cpu0

    def out_of_time(self) -> bool:
        if self.seconds is not None and self.cpu() >= self.seconds:
            return True
        if self.wall_seconds is not None and time.perf_counter() - self.wall0 >= self.wall_seconds:
            self.out_by = "wall"
            return True
        return False

    def stop(self):
        self.stopped = self.out_by

    # -- the random deals ------------------------------------------------------------------------
    def run(self, deals, n_jobs, bar):
        lo = 0
        while deals is None or lo < deals:
            if self.out_of_time():
                self.stop()
                return
            hi = lo + ROUND if deals is None else min(deals, lo + ROUND)
            s = summarize(hi - lo, rules=self.rules, seed=self.seed, start=lo, n_jobs=n_jobs, top=self._round_top(),
                          device=self.device)
            self.tried = hi
            if bar is not None:
                bar.update(hi - lo)
            self._round(s, n_jobs)
            self._prune()
            lo = hi
            if self.stopped != "deals":
                return

    def _round_top(self):
        # every game of the round that is extended must be among its longest
        return max(self.top, 256) if self.strategy == "random" else max(self.top, TOP_EXTENDED)

    def from_summary(self, s, n_jobs=1):
        self._round(s, n_jobs, own=False)
        self._prune()

    def _round(self, s, n_jobs, own=True):
        """Keep the longest games of round ``s`` and extend those of ``min_cards`` or more (``own``: a
        round of this search, which must have kept all of them; else a summary's longest)."""
        for k in range(len(s.loops["game"])):
            g = int(s.loops["game"][k])
            self._keep(self._random_hands(g), "random", f"random deal {g} of seed {self.seed} (a loop)", g, 0, 0,
                       None, loop=True)
        longest = s.longest
        todo = []
        for k in range(len(longest["game"])):
            g, cards = int(longest["game"][k]), int(longest["cards"][k])
            if (cards, -g) > (self.random_longest, -self.random_longest_game):
                self.random_longest, self.random_longest_game = cards, g
            extend = self.strategy == "backward" and cards >= self.min_cards
            if k >= self.top and not extend:
                break  # not among the longest families: pruned at once
            hands = self._random_hands(g)
            self._keep(hands, "random", f"random deal {g} of seed {self.seed}", g, 0, 0, cards)
            if extend:
                todo.append((g, hands, cards))
        if (own and self.strategy == "backward" and len(longest["game"]) == s.top and s.top < s.outcomes[0]
                and int(longest["cards"][-1]) >= self.min_cards):
            raise RuntimeError(f"more than {s.top} games of a round last {self.min_cards} cards or more: "
                               f"raise `min_cards`")
        self._extend_all(todo, n_jobs)

    def _extend_all(self, todo, n_jobs):
        """Extend the deals of ``todo`` (game, hands, cards), ``n_jobs`` at a time on joblib's workers
        (the kernel runs without the GIL), kept in their order whatever ``n_jobs``; the clock is read
        between groups."""
        workers = max(1, joblib.effective_n_jobs(n_jobs))
        for lo in range(0, len(todo), workers):
            if self.out_of_time():
                self.stop()
                return
            group = todo[lo: lo + workers]
            found = [None] * len(group)
            work = functools.partial(_extend_range, todo=group, sizes=self.sizes, nodes=self.nodes, ccw=self.ccw,
                                     keep_taker=self.keep_taker)
            run_chunks(work, [(0, len(group))], sink=lambda a, b, res: found.__setitem__(slice(a, b), res),
                       n_jobs=n_jobs, chunk_size=1)
            for (g, _, cards), f in zip(group, found):
                self._kept(g, cards, f)

    def _random_hands(self, game):
        return random_deal(self.seed, game, self.rules)[0]

    # -- backwards from a long deal ----------------------------------------------------------------
    def _kept(self, game, cards, found):
        self.extended += 1
        self.states += found["states"]
        if found["deal"] is not None:
            self._keep(found["deal"], "backward", f"{found['depth']} tricks ({found['back']} cards) back from trick "
                       f"boundary {found['boundary']} of random deal {game} of seed {self.seed}", game,
                       found["boundary"], found["depth"], found["cards"])

    # -- the deals kept -------------------------------------------------------------------------
    def _keep(self, hands, strategy, how, game, boundary, back, cards, loop=False):
        """Keep a deal met: every loop, and for each random deal (a family: it and the deals found
        backwards from it) the longest, while it is among the ``top`` longest families."""
        deal = format_deal(hands)
        row = {"deal": deal, "strategy": strategy, "how": how, "game": game, "boundary": boundary,
               "tricks_back": back, "cpu_seconds": round(self.cpu(), 3), "deals_tried": self.tried,
               "expected": cards}
        if loop:
            if deal not in {r["deal"] for r in self.loops}:
                self.loops.append(row)
            return
        if game not in self.best or cards > self.best[game]["expected"]:
            self.best[game] = row

    def _prune(self):
        """The ``top`` longest families (ties: the lower random deal)."""
        rows = sorted(self.best.values(), key=lambda r: (-r["expected"], r["game"]))
        self.best = {r["game"]: r for r in rows[: self.top]}

    def frame(self) -> pd.DataFrame:
        self._prune()
        rows = list(self.best.values()) + self.loops
        out = []
        for row in rows:
            r = play(row["deal"], self.rules)
            if row["expected"] is not None and (r.outcome != "win" or r.cards != row["expected"]):
                raise RuntimeError(f"deal {row['deal']} ({row['how']}) plays {r.outcome} after {r.cards} cards, "
                                   f"not the {row['expected']} cards the search expected: a bug, please report it")
            out.append({"deal": row["deal"], "players": self.rules.players, "rules": self.rules.name,
                        "outcome": r.outcome, "winner": r.winner, "cards": r.cards, "tricks": r.tricks,
                        "loop_start_cards": r.loop_start_cards, "loop_cards": r.loop_cards,
                        **{k: row[k] for k in COLUMNS[9:]}})
        df = pd.DataFrame(out, columns=list(COLUMNS))
        for c in ("winner", "loop_start_cards", "loop_cards"):
            df[c] = df[c].astype("Int64")
        df = df.sort_values(["cards", "game"], ascending=[False, True], kind="stable").reset_index(drop=True)
        df.attrs.update({"rules": self.rules.to_dict(), "seed": self.seed, "strategy": self.strategy,
                         "deals": self.tried, "min_cards": self.min_cards, "nodes": self.nodes,
                         "states": self.states, "extended": self.extended, "cpu_seconds": round(self.cpu(), 3),
                         "wall_seconds": round(time.perf_counter() - self.wall0, 3), "stopped": self.stopped,
                         "random_longest": self.random_longest, "random_longest_game": self.random_longest_game})
        return df
