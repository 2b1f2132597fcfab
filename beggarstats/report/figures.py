"""`make_figures()`: every published figure and the findings table, from cached or fresh runs.

The runs go through `simulate(..., store=...)`, so a second call loads the parquet store
(``<per-user cache>/runs/<key>`` by default) instead of playing the games again. Sample sizes scale with one
number, ``games`` (the 2-player standard run); see `sizes`. Statistics come from
`beggarstats.analysis`, drawings from `beggarstats.plots`; this module only wires them together.
"""

from __future__ import annotations

import numbers
import textwrap
from importlib import metadata
from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from .. import analysis as an
from .. import plots
from ..game.decks import Deck
from .committed_rows import committed_rows, scale_rows  # noqa: F401 (scale_rows: read here by tests/run/test_summary.py)
from .findings import finding, findings_frame, write_findings
from .findings_prose import update_prose
from ..run.play import play
from ..run.arguments import check_run
from ..run.limits import check_fits
from ..run.outputs import replacing, write_text
from ..run.records import load_records
from ..game.rules import RULES_VERSION, Rules
from ..run.run_cache import cached_simulate
from ..run.simulate import PEAK_BYTES_PER_GAME
from ..run.store import default_path, store_key
from .defaults import DEFAULT_GAMES, DEFAULT_SEED  # also read by `beggarstats figures --help`

__all__ = ["make_figures", "FigureOut", "provenance", "sizes", "small_decks", "small_deck_table", "FIGURES", "DEFAULT_GAMES", "DEFAULT_SEED"]

DPI = 110
FOOTNOTE_SIZE = 8  # points: the provenance line at the bottom of every figure, legible at the saved size
ROOT = Path(__file__).resolve().parents[2]
PLAYERS = (2, 3, 4, 5, 6)

FIGURES = {
    "length_distribution.png": "distribution of game length (cards), 2-6 players",
    "survival.png": "Kaplan-Meier survival of game length, 2-6 players: the bulk (linear scale) and the whole range (log scale)",
    "tail_hazard.png": "end rate per card in 100-card bands of length, with intervals, 2-6 players",
    "seat_win_rates.png": "win rate of every seat minus 1/n, with its dealt hand size, 2-6 players",
    "first_player_advantage.png": "seat 0's win rate minus 1/n by player count",
    "variant_effects.png": "every variant against the standard game on the same deals, 2-6 players (committed paired runs)",
    "hand_strength.png": "observed win share by aces and by tribute total dealt, against a logistic in each with its test",
    "comebacks.png": "share of games won by a player once down to a quarter of their hand",
    "record_timeline.png": "the two hands stacked trick by trick in the longest known game (Nessler 2022), with its facts",
    "never_ending_cycle.png": "the cycle of the first known never-ending deal (Casella 2024)",
    "small_deck_loops.png": "share of random deals that loop on small decks",
}
LENGTH_BIN = 10         # cards per bin of the length histogram (edges on multiples of it)
LENGTH_CUT = 1500       # the histogram's x axis ends here; the games beyond are counted in the findings
HAZARD_BAND = 100       # cards per band of the tail hazard
HAZARD_MIN_EVENTS = 1000  # bands go on while this many games end beyond the next edge
HAND_MIN_SEATS = 200    # observed win shares are drawn only for hands dealt to at least this many seats
SMALL_SIZES = tuple(range(8, 29, 2))
# Small decks: the standard mix of penalty cards scaled down (about 16/52 of the deck, J Q K A in
# turn), and two fixed poor mixes, 2 Jacks or a Jack and a Queen, padded with number cards.
SMALL_FAMILIES = ("J Q K A, 16/52 of the deck", "2 J", "1 J + 1 Q")
SMALL_LABEL_BELOW = 1e-3  # exact loop shares below this (and above 0) have their value written beside the marker


INCOMPLETE = "INCOMPLETE"  # in the output folder while a run writes into it


def incomplete_text(store) -> str:
    """What `INCOMPLETE` says, true to ``store`` (`make_figures`'): only a cached run leaves games to load."""
    again = ("with the same --games, --seed and --cache: the games already played are loaded from the run cache"
             if store is not False and store is not None else
             "every game is played again: this run kept no run cache (`--cache` loads a run's games the next time)")
    return ("A `beggarstats figures` run into this folder started and did not finish: the files here may mix two "
            f"runs. Run it again to finish ({again}).\n")


def sizes(games: int) -> dict[str, int]:
    """Games per run: ``games`` for 2 players; fractions of it (at least 100) for the rest. The
    variants are not run here: their figure and rows come from the committed paired runs
    (`report.variant_data`)."""
    return {"main2": games, "main": max(games // 8, 100),
            "seats": max(games // 16, 100), "small": max(games // 40, 100)}


def small_decks() -> list[tuple[str, int, Deck]]:
    """(family, size, deck) for every family of `SMALL_FAMILIES` and size of `SMALL_SIZES`."""
    out = []
    for family in SMALL_FAMILIES:
        for size in SMALL_SIZES:
            if family.startswith("J Q K A"):
                penalty = round(size * 16 / 52)
                counts = [penalty // 4 + (i < penalty % 4) for i in range(4)]
            else:
                counts = [2, 0, 0, 0] if family == "2 J" else [1, 1, 0, 0]
            out.append((family, size, Deck(size - sum(counts), *counts)))
    return out


class _Runner:
    """`simulate` with the store configured once; counts games played and loaded from the cache."""

    def __init__(self, seed, n_jobs, store):
        self.seed, self.n_jobs, self.store = seed, n_jobs, store
        self.played = self.loaded = 0     # this call: games played, and loaded from the store
        self.total = 0                    # games of every run, the per-seat replays included
        self.games: dict[str, int] = {}   # distinct games by rules: a per-seat run replays the same games

    @property
    def distinct(self) -> int:
        return sum(self.games.values())

    def _where(self, rules, per_seat):
        if self.store is None or self.store is False:
            return None
        if self.store is True:
            return default_path(rules, self.seed, per_seat)
        return Path(self.store) / store_key(rules, self.seed, per_seat)

    def __call__(self, rules, n, per_seat=False):  # a damaged cache entry is mended, never loaded (run.run_cache)
        result, played = cached_simulate(n, rules=rules, seed=self.seed, n_jobs=self.n_jobs, per_seat=per_seat,
                                         store=self._where(rules, per_seat))
        self.played += played
        self.loaded += n - played
        self.total += n
        key = store_key(rules, self.seed, False)
        self.games[key] = max(self.games.get(key, 0), n)
        return result


def _share(k: int, n: int) -> tuple[float, float, float]:
    """k/n with its Wilson interval."""
    return (k / n, *an.wilson_interval(k, n))


def _version() -> str:
    """The installed package's version (the one `beggarstats.__version__` states)."""
    try:
        return metadata.version("beggarstats")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


class FigureOut:
    """Where the figures go, and what every figure says about the runs behind it."""

    def __init__(self, folder: Path, seed: int):
        self.folder, self.seed = Path(folder), seed

    def save(self, fig, name: str, games, rules: str, *, seeded: bool = True):
        """Write ``fig`` as ``name`` with its `provenance` drawn at the bottom edge and in the PNG's
        metadata (``Description``; ``Software``, ``Source``). ``seeded=False``: the figure draws no
        random game (a published deal replayed), so its line names no seed."""
        line = provenance(games, self.seed if seeded else None, rules)
        # below everything drawn (the saved area grows to hold it), wrapped to the figure's width at
        # about 16 characters an inch of FOOTNOTE_SIZE-point text
        fig.text(0.005, -0.01, textwrap.fill(line, width=int(fig.get_figwidth() * 16)), fontsize=FOOTNOTE_SIZE,
                 color="0.3", ha="left", va="top")
        with replacing(self.folder / name) as tmp:  # atomically: a kill leaves the old figure or the new one
            fig.savefig(tmp, dpi=DPI, bbox_inches="tight", format=Path(name).suffix.lstrip(".") or "png",
                        metadata={"Description": line, "Software": f"beggarstats {_version()}",
                                  "Source": f"beggarstats figures (seed {self.seed})"})
        plt.close(fig)


def provenance(games, seed: int | None, rules: str) -> str:
    """The line every figure carries: the games it rests on (a number, or a text such as
    '4,000,000 + 4 x 500,000'; a text naming a deal is kept as it is), the seed (None: no random
    game was drawn, said so), the rules, `RULES_VERSION` and the package version."""
    if isinstance(games, numbers.Integral):
        games = f"{games:,} game" + ("" if games == 1 else "s")
    else:
        games = str(games)
        games += "" if "games" in games or "deal" in games else " games"
    drawn = f"seed {seed}" if seed is not None else "no random draw (no seed)"
    return f"{games}, {drawn}, rules: {rules}; RULES_VERSION {RULES_VERSION}, beggarstats {_version()}"


def _games_by_players(frame) -> str:
    """'4,000,000 (2p) + 500,000 each (3-6p)'-style count of a stacked table of runs."""
    counts = frame.groupby("players", observed=True).size()
    parts = [f"{v:,} ({p}p)" for p, v in counts.items()]
    return " + ".join(parts)


def _seat_games(seats) -> str:
    return _games_by_players(seats.drop_duplicates(["players", "game"]))


def _se(low, high) -> float:
    """The standard error of an estimate whose 95% interval is [low, high], read back from the half
    width (the findings turn it into the effect detectable at the family's level)."""
    return float((high - low) / (2 * an.intervals.z_value(0.95)))


def check_figures(games, seed, n_jobs):
    check_run(games, seed=seed, n_jobs=n_jobs, low=1, names={"n": "games"})  # the bounds of every batch run
    check_fits(games, PEAK_BYTES_PER_GAME, "games of the 2-player run",
               f"pass a smaller `games` (the default is {DEFAULT_GAMES:,}).")
    if seed is None:  # n_jobs=None is the default of every batch function (one core): check_run bounds the rest
        raise ValueError("The value for `seed` must be a whole number (the figures are reproducible), but None "
                         "was passed.")


class _Steps:
    """A tqdm bar counting the games of every run (or nothing); the step in hand is its postfix.
    Counting games, not steps, keeps the rate and the time left sane: the runs differ in size by
    orders of magnitude, and the analysis steps between them play nothing."""

    def __init__(self, progress, total):
        from ..run.progress import progress_bar

        self.bar = progress_bar(bool(progress), total, desc="figures")

    def __call__(self, label, games=0):
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=False)
            self.bar.update(games)

    def doing(self, label):
        """Say what runs now (an analysis step plays no games, so the count stands still)."""
        if self.bar is not None:
            self.bar.set_postfix_str(label, refresh=True)

    def close(self):
        if self.bar is not None:
            self.bar.close()


def _lengths(main, out, rows):
    fig = plots.plot_lengths(main, hue="players", binwidth=LENGTH_BIN, cut=LENGTH_CUT)
    fig.axes[0].set_title(f"Game length, standard rules (finished games, {LENGTH_BIN}-card bins)")
    out.save(fig, "length_distribution.png", _games_by_players(main), "standard, 2-6 players")
    fig = plots.plot_survival_panels(main, hue="players", marks=_survival_marks(main))
    fig.suptitle("Kaplan-Meier survival of game length (95% log-log bands): 3-6 players apart in the bulk (left); "
                 "in the far tail their bands overlap (right)")
    out.save(fig, "survival.png", _games_by_players(main), "standard, 2-6 players")
    cards = main["cards"].to_numpy(float)
    shown = main["outcome"].astype(str).to_numpy() == "win"
    beyond = int(np.sum(shown & (cards > LENGTH_CUT)))
    rows.append(finding(f"finished games longer than the length figure's cut ({LENGTH_CUT} cards), 2-6 players",
                        beyond, np.nan, np.nan, int(shown.sum()), "games", key="length_beyond_cut"))
    for r in an.length_summary(main, by="players").itertuples():
        rows.append(finding(f"mean length (cards), {r.players} players", r.mean, r.mean_low, r.mean_high, r.n, "cards",
                            key=f"mean_length_{r.players}p"))
    bands = an.hazard_bands(main, by="players", width=HAZARD_BAND, min_events=HAZARD_MIN_EVENTS)
    tests = an.tail_constancy_test(main, by="players", width=HAZARD_BAND, min_events=HAZARD_MIN_EVENTS)
    changing = set(tests.loc[tests["p_value"] < 0.05, "players"])
    for r in an.tail_rate(main, by="players").itertuples():
        n = int((main["players"] == r.players).sum())
        # where one rate is rejected the fitted rate is an average of a hazard that changes with length
        what = ("average end rate per card of a changing hazard (beyond the median; one rate rejected)"
                if r.players in changing else "tail decay rate per card (beyond the median)")
        rows.append(finding(f"{what}, {r.players} players",
                            r.rate, r.rate_low, r.rate_high, n, "per card", key=f"tail_rate_{r.players}p"))
    for r in tests.itertuples():
        n = int((main["players"] == r.players).sum())
        rows.append(finding(f"tail: likelihood-ratio chi2 of one end rate in all {r.bands} bands of {HAZARD_BAND} "
                            f"cards from {r.threshold:.0f} cards ({r.dof} df), {r.players} players",
                            r.chi2, np.nan, np.nan, n, "chi2", key=f"tail_constancy_{r.players}p",
                            p_value=r.p_value, test="fit"))
    two = bands[bands["players"] == 2]
    for i, r in enumerate(two.itertuples()):
        upper = "on" if np.isinf(r.band_high) else f"{r.band_high:.0f}"
        rows.append(finding(f"end rate per card from {r.band_low:.0f} to {upper} cards, 2 players", r.rate,
                            r.low, r.high, r.games, "per card", key=f"hazard_2p_band{i}"))
    fig = plots.plot_hazard_panels(bands, tests, title=f"End rate per card in {HAZARD_BAND}-card bands beyond the "
                                   "median length (95% intervals)")
    out.save(fig, "tail_hazard.png", _games_by_players(main), "standard, 2-6 players")
    for p, sub in main.groupby("players", observed=True):
        rate, low, high = _share(int((sub["outcome"] == "loop").sum()), len(sub))
        rows.append(finding(f"loop share, standard deck, {p} players (95% Wilson interval)", rate, low, high, len(sub),
                            "share", key=f"loop_standard_{p}p", interval="Wilson"))


def _survival_marks(main) -> dict:
    """The survival figure's marks: the longest finished game of the figure's runs, and the record."""
    from ..analysis.summaries import RECORD_CARDS

    won = main[main["outcome"].astype(str) == "win"]
    longest = int(won["cards"].max())
    players = ", ".join(f"{p}" for p in won.loc[won["cards"] == longest, "players"].unique())
    return {f"longest game of these runs ({longest:,} cards, {players} players)": longest,
            f"the record, {RECORD_CARDS:,} cards": RECORD_CARDS}


def _seats(main, out, rows):
    rates = an.seat_win_rates(main, by="players", n_cards=52)
    fig = plots.plot_seat_advantage(rates)
    fig.suptitle("Win rate of every seat minus 1/n (95% Wilson intervals; filled markers: seats dealt the extra card)")
    out.save(fig, "seat_win_rates.png", _games_by_players(main), "standard, 2-6 players")
    fig = plots.plot_first_player_advantage(an.first_player_advantage(main, by="players"))
    fig.axes[0].set_title("First-player advantage (95% Wilson intervals)")
    out.save(fig, "first_player_advantage.png", _games_by_players(main), "standard, 2-6 players")
    two = rates[(rates["players"] == 2) & (rates["seat"] == 0)].iloc[0]
    rows.insert(0, finding("2-player first-player (seat 0) win rate", two.rate, two.low, two.high, two.games, "share",
                           key="seat0_rate_2p", null=0.5, p_value=two.p_value, se=_se(two.low, two.high)))
    for r in rates[rates["players"] > 2].itertuples():
        rows.append(finding(f"win rate - 1/n, seat {r.seat} of {r.players} players ({r.hand_size} cards dealt)",
                            r.rate - r.expected, r.low - r.expected, r.high - r.expected, r.games, "pp",
                            key=f"seat_{r.seat}_of_{r.players}p", null=0.0, p_value=r.p_value, se=_se(r.low, r.high)))
    for r in an.seat_contrasts(main, by="players", n_cards=52).itertuples():
        if r.players < 3:
            continue  # two players: the seat 0 row says it all
        hand = "same hand" if r.hand == "same" else "one card fewer"
        rows.append(finding(f"win rate of seat {r.seat} minus seat {r.seat - 1}, {r.players} players ({hand})",
                            r.estimate, r.low, r.high, r.games, "pp", key=f"step_{r.seat}_of_{r.players}p",
                            null=0.0, p_value=r.p_value, se=_se(r.low, r.high)))
    rows.append(step_heterogeneity_row(main))


def step_heterogeneity_row(main) -> dict:
    """Cochran's Q of one constant step over the equal-hand steps of 3-6 players
    (`analysis.step_heterogeneity`): a test of the model "one constant step", like the seat model's
    fit, so its own p-value, outside the Holm family."""
    het = an.step_heterogeneity(main[main["players"] > 2], by="players", n_cards=52)
    return finding(f"equal-hand steps between adjacent seats, 3-6 players: Cochran's Q of one constant step over "
                   f"the {het['steps']} steps ({het['dof']} df; each count's steps with their multinomial covariance)",
                   het["q"], np.nan, np.nan, het["games"], "chi2", key="heterogeneity_steps", p_value=het["p_value"],
                   test="fit")


def _variants(out, rows, findings=None):
    """The variant rows, then (given the ``findings`` table) the figure with its family's verdicts,
    from the committed paired runs (`report.variant_data`: every variant against the standard game)."""
    from . import variant_data as vd

    table = vd.variant_table(findings=findings)
    if findings is None:
        rows.extend(vd.variant_findings(table))
    else:
        vd.save_variant_figure(table, out)


def _hands(seats, out, rows):
    fig = plots.plot_hand_strength_check(seats, panels=("aces", "tribute_total"), min_seats=HAND_MIN_SEATS)
    fig.suptitle("Win probability by the dealt hand: the observed share (dots with 95% Wilson intervals, where at least "
                 f"{HAND_MIN_SEATS} seats had that hand)\nagainst a logistic in one predictor (dashed, 95% band "
                 "clustered by game), which the dots bend away from where its test rejects it\n"
                 "open dots: every seat lost (no penalty card, no pile to take), left out of the fit")
    out.save(fig, "hand_strength.png", _seat_games(seats), "standard, 2-6 players, one row per seat")
    for predictor, label in (("aces", "per ace dealt"), ("tribute_total", "per tribute point dealt")):
        tests = fig.tests[predictor].set_index("players")  # the figure's test of the same logistic
        test = tests.loc[2] if 2 in tests.index else None  # None: too few seats a hand (a small run)
        rows += [] if test is None else [finding(f"logistic in {predictor} alone, 2 players: goodness of fit against one win share per "
                            f"value (clustered Wald chi2, {int(test['dof'])} df; largest gap "
                            f"{100 * test['max_gap']:.1f} points)", test["chi2"], np.nan, np.nan, test["games"],
                            "chi2", key=f"odds_{predictor}_2p_fit", p_value=test["p_value"], test="fit")]
        fit = an.hand_strength(seats[seats["players"] == 2], predictors=(predictor,), by="players")
        r = fit[(fit["players"] == 2) & (fit["term"] == predictor)].iloc[0]
        rows.append(finding(f"odds ratio of winning {label}, 2 players", r["odds_ratio"], np.exp(r["low"]),
                            np.exp(r["high"]), r["games"], "odds ratio", key=f"odds_{predictor}_2p", null=1.0,
                            p_value=r["p_value"]))
    rows.extend(seat_model_rows(seats))
    back = an.comebacks(seats, interpolate=True)  # exactly a quarter of every hand size: like with like
    fig = plots.plot_comebacks(back, hue=None)
    fig.axes[0].set_title("Comebacks: winner once down to a quarter of their dealt hand\n"
                          "(interpolated between whole cards, the same share at every table size; 95% t intervals)")
    out.save(fig, "comebacks.png", _seat_games(seats), "standard, 2-6 players, one row per seat")
    for r in back.itertuples():
        rows.append(finding(f"comeback rate (winner once <= 25% of hand), {r.players} players",
                            r.rate, r.low, r.high, r.games, "share", key=f"comeback_{r.players}p"))


def seat_model_rows(seats) -> list[dict]:
    """The pooled seat model (`analysis.seat_position_model`, a multinomial logit) as rows: its fit
    (G^2 against the saturated model) and its two odds ratios."""
    model = an.seat_position_model(seats)
    fit = model.iloc[0]
    rows = [finding(f"seat model, 2-6 players (multinomial logit, one winner per game): G² against the saturated "
                    f"model of the wins per player count and seat ({fit['dof']} df; largest |Pearson residual| "
                    f"{fit['max_abs_residual']:.1f})", fit["deviance"], np.nan, np.nan, fit["games"], "chi2",
                    key="seat_model_fit", p_value=fit["gof_p_value"], test="fit")]
    for r in model.itertuples():
        label = "one seat later in the order of play" if r.term == "seat" else "one card more dealt (same player count)"
        # the pooled terms test nothing of their own: they mean what they say only where the fit holds
        rows.append(finding(f"seat model, 2-6 players (multinomial logit, pooled; see its fit): odds ratio of winning "
                            f"for {label}", r.odds_ratio, r.odds_low, r.odds_high, r.games, "odds ratio",
                            key=f"seat_model_{r.term}"))
    return rows


def _records(out):
    by_name = {r["name"]: r for r in load_records()}
    record = play(by_name["Nessler 2022"]["deal"], trace=True)
    fig = plots.plot_record_timeline(record)
    fig.axes[0].set_title(f"Nessler 2022, the longest known game: {record.cards:,} cards, {record.tricks:,} tricks "
                          "(hands stacked: together they hold the deck)")
    out.save(fig, "record_timeline.png", "the published Nessler 2022 deal, played once", "standard, 2 players",
             seeded=False)
    fig = plots.loop_cycle(play(by_name["Casella 2024"]["deal"], trace=True))
    fig.axes[0].set_title("Casella 2024, never ends: " + fig.axes[0].get_title())
    out.save(fig, "never_ending_cycle.png", "the published Casella 2024 deal, played once", "standard, 2 players",
             seeded=False)


def small_deck_table(results, exact=None) -> pd.DataFrame:
    """The data of the small-deck figure, one row per deck: ``family``, ``size``, ``rate`` (share of
    deals that loop), ``low``, ``high``, ``n`` (deals), ``loops``, ``deck``, ``design``, from
    (family, size, deck, games) tuples of Monte Carlo runs. The figure, the findings rows and the
    prose all read this table and nothing else.

    Where ``exact`` (censuses; default: the exact atlas's files of these decks, `report.atlas.census_file`) holds the
    2-player census of a deck's rules, its row is exact (`analysis.exact.exact_loop_share`): every
    distinct deal played once, equally likely in a random deal, so ``rate`` is loops / deals with no
    sampling interval (``low == high == rate``), ``n`` the distinct deals and ``design`` 'census'.
    The other rows are the share of the random deals of ``games`` with its Wilson interval,
    ``design`` 'sample'."""
    from ..analysis.exact import exact_loop_share

    if exact is None:  # the atlas's censuses of these decks alone, not the whole atlas
        from ..run.summary import load_summary
        from .atlas import census_file

        files = (census_file(2, deck.counts, "trick") for _, _, deck, _ in results)
        exact = [load_summary(f) for f in files if f.exists()]
    censuses = {s.rules: s for s in exact}
    table = []
    for family, size, deck, games in results:
        s = censuses.get(Rules(deck=deck))
        if s is not None:
            row = exact_loop_share([s]).iloc[0]
            rate = float(row["loop_share"])
            table.append(dict(family=family, size=size, rate=rate, low=rate, high=rate, n=int(row["deals"]),
                              loops=int(row["loops"]), deck=deck, design="census"))
            continue
        loops = int((games["outcome"] == "loop").sum())
        rate, low, high = _share(loops, len(games))
        table.append(dict(family=family, size=size, rate=rate, low=low, high=high, n=len(games), loops=loops,
                          deck=deck, design="sample"))
    return pd.DataFrame(table)


def _sampled_said(sampled) -> str:
    """The small-deck title's words for its sampled decks: deals, loops seen and the 95% Wilson
    interval's upper end, which on the figure may be shorter than its caps are wide."""
    n = int(sampled["n"].iloc[0])
    loops = ", ".join(f"{int(k):,}" for k in sampled["loops"])
    highs = ", ".join(f"{100 * h:.2g}%" for h in sampled["high"])
    return (f"{n:,} random deals ({loops} looped), 95% Wilson interval (capped bar) up to {highs}"
            if len(sampled) <= 2 else f"{n:,} random deals each, 95% Wilson interval")


def _small_decks(results, out, rows, exact=None):
    table = small_deck_table(results, exact)
    # a symmetric log axis: the J Q K A decks loop in a few deals per million, which a linear axis drew at 0
    fig = plots.plot_loop_shares(table, hue="family", legend_title="penalty cards in the deck", scale="symlog",
                                 label_below=SMALL_LABEL_BELOW)
    sampled = table[table["design"] == "sample"]
    fig.axes[0].set_title("Never-ending deals on small decks, 2 players (one marker per deck, not a curve)\n"
                          + ("filled: exact, every deal played once\nopen: " if len(sampled) < len(table) else "")
                          + (_sampled_said(sampled) if len(sampled) else "exact: every deal played once"))
    n_exact = int((table["design"] == "census").sum())
    out.save(fig, "small_deck_loops.png", f"{n_exact} decks exact (every deal once) + {len(sampled)} x "
             f"{len(results[0][3]):,} random games", "2 players, the small decks of the plot")
    for r in table.itertuples():  # every plotted deck, so the prose reads what the figure shows
        exact_row = r.design == "census"
        rows.append(finding(f"loop share, {r.size}-card deck {r.deck.label().removeprefix('deck ')} "
                            f"(penalty: {r.family}), 2 players" + (", exact (every deal)" if exact_row else
                                                                   ", random deals (95% Wilson interval)"),
                            r.rate, r.low, r.high, r.n, "share", key=f"loop_small:{r.family}:{r.size}",
                            design="census" if exact_row else "", interval="" if exact_row else "Wilson"))


def make_figures(out="figures", *, games=None, seed=DEFAULT_SEED, n_jobs=None, store=True,
                 progress=False, prose=None) -> pd.DataFrame:
    """Write every figure of `FIGURES` and the findings table into ``out``.

    Parameters
    ----------
    out : path
        Output directory (created if needed).
    games : int, optional
        2-player standard games (default `DEFAULT_GAMES`); the other runs scale with it (`sizes`).
    seed : int
        Seed of every run; a run is fixed by (rules, seed).
    n_jobs : int, optional
        Workers for `simulate` (scikit-learn's convention: None is 1 unless a ``joblib.parallel_config``
        context says otherwise, -1 all cores).
    store : True, False or path
        True caches runs in ``<per-user cache>/runs/<key>``; a path caches them in ``<path>/<key>``; False
        plays every game in memory.
    progress : bool
        A tqdm bar over the steps (default off, as in every batch function; the command line's
        ``--progress`` is on on a terminal).
    prose : bool, optional
        Rewrite the generated blocks of README.md and docs/FIGURES.md from the new table
        (`beggarstats.report.findings_prose.update_prose`). Default: only when ``out`` is the
        repository's own ``figures/`` directory.

    Returns
    -------
    DataFrame
        The findings table (`beggarstats.report.findings.COLUMNS`); ``attrs`` hold ``games_played`` and
        ``games_loaded`` (from the cache) and the ``sizes`` used.
    """
    games = DEFAULT_GAMES if games is None else games
    check_figures(games, seed, n_jobs)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    n = sizes(games)
    run = _Runner(seed, n_jobs, store)
    decks = small_decks()
    total = n["main2"] + n["main"] * (len(PLAYERS) - 1) + n["seats"] * len(PLAYERS) + n["small"] * len(decks)
    step = _Steps(progress, total=total)
    rows: list[dict] = []
    marker = write_text(out / INCOMPLETE, incomplete_text(store))  # removed once every file is written
    with plots.theme():
        table = _make(out, n, seed, run, decks, step, rows, prose)
    marker.unlink()
    return table


def _make(out, n, seed, run, decks, step, rows, prose) -> pd.DataFrame:
    figs = FigureOut(out, seed)
    try:
        main = {}
        for p in PLAYERS:
            main[p] = run(Rules(players=p), n["main2"] if p == 2 else n["main"])
            step(f"{p} players", len(main[p]))
        games_all = pd.concat(main.values(), ignore_index=True)
        step.doing("lengths, survival and tail: fitting")
        _lengths(games_all, figs, rows)
        step("lengths")
        step.doing("seat win rates and steps")
        _seats(games_all, figs, rows)
        step("seats")
        del games_all, main
        step.doing("variants: the committed paired runs")
        _variants(figs, rows)
        step("variants")
        seats = []
        for p in PLAYERS:
            seats.append(run(Rules(players=p), n["seats"], per_seat=True)[1])
            step(f"{p} players, per seat", n["seats"])
        step.doing("hand strength and seat models: fitting (no games played)")
        _hands(pd.concat(seats, ignore_index=True), figs, rows)
        step("hands")
        _records(figs)
        step("records")
        small = []
        for family, size, deck in decks:
            small.append((family, size, deck, run(Rules(deck=deck), n["small"])))
            step(f"{size}-card deck", n["small"])
        step.doing("small decks")
        _small_decks(small, figs, rows)
        step("small decks")
        rows.extend(_run_rows(run, n, seed, len(decks)))
        rows.extend(committed_rows())
        table = findings_frame(rows)
        _variants(figs, rows, findings=table)
        table.attrs.update(games_played=run.played, games_loaded=run.loaded, sizes=n, seed=seed)
        write_findings(table, out)
        if prose or (prose is None and out.resolve() == (ROOT / "figures").resolve()):
            update_prose(table, ROOT)
        step("findings")
    finally:
        step.close()
    return table


def _run_rows(run, n, seed, n_decks) -> list[dict]:
    """The design of the run as rows of the findings table, so that the prose quotes it from there."""
    def count(name, value, key):
        return finding(name, value, np.nan, np.nan, value, "games", key=key)

    return [count("seed of every run", seed, "run_seed"),
            count("standard games, 2 players", n["main2"], "run_main2"),
            count("standard games, 3-6 players (each)", n["main"], "run_main"),
            count("games per per-seat run (replays of the first standard games, 2-6 players)", n["seats"], "run_seats"),
            count(f"games per small deck ({n_decks} decks)", n["small"], "run_small"),
            count("distinct games simulated (per-seat replays and repeated decks counted once)", run.distinct,
                  "run_distinct"),
            count("games played in all runs (per-seat replays and repeated decks counted each time)", run.total,
                  "run_played")]
