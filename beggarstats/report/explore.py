"""The live explorer of notebooks/00_explorer: widgets over `simulate` and `replay`.

Two panels, each a plain class holding its ipywidgets, so that a test can set widget values and
read what the panel computed without a browser:

* `Explorer`: the rules (players, deck, every option and variant), sample size and seed. Every change
  re-runs the sample and shows the length distribution, the survival curve, every seat's win rate
  with its Wilson interval, and the comparison with the standard game at the same player count.
  Rules that keep the deck and jokers deal the very same games from the same seed (game g is fixed
  by (seed, g)), so that comparison is *paired*, deal by deal (`paired_comparison`); a different
  deck deals other games and the comparison is between independent samples (`compare_variants`).
* `Replayer`: one deal, pasted or picked as (seed, game), stepped through trick by trick with every
  seat's card count and the pile; a loop is drawn with its cycle.

The panels compute in `update()` / `load()` and keep the results as attributes (``tables``,
``figure``, ``result``, ``trick``); the widgets only display them. ipywidgets and matplotlib are
imported when a panel is built, so importing this module pulls in neither.
"""

from __future__ import annotations

import time

import numpy as np
import pandas as pd
from scipy import stats

from .. import analysis as an
from ..game.cards import KIND_NAMES, DealError
from ..game.decks import Deck
from ..run.play import play
from ..engine.rng import GameStream
from ..game.rules import Rules
from ..run.simulate import replay, simulate

__all__ = ["build_rules", "shares_deals", "paired_comparison", "compare_with_standard", "Explorer",
           "Replayer", "SHUFFLES", "DECKS"]

SHUFFLES = ("none", "shuffle_pile", "shuffle_on_loop")
DECKS = ("standard", "italian", "custom")
_SYMBOL = "-" + "".join(KIND_NAMES[1:])  # tribute -> card symbol: - J Q K A X


def build_rules(*, players=2, deck="standard", custom_deck="10/2/0/0/0", jokers=0, joker_mode="super",
                end="trick", exhausted_tribute="claimant", direction="cw", shuffle="none", max_cards=0,
                unfinished="none") -> Rules:
    """The `Rules` of the explorer's controls.

    ``deck`` is 'standard', 'italian' or 'custom' (then ``custom_deck`` gives the counts of number
    cards, Jacks, Queens, Kings and Aces as 'n/j/q/k/a'); ``shuffle`` is one of `SHUFFLES` (the two
    shuffle variants exclude each other); ``max_cards`` 0 means no cut-off. Invalid values raise
    ValueError naming the control.
    """
    if deck == "custom":
        parts = str(custom_deck).replace(" ", "").split("/")
        if len(parts) != 5 or not all(p.isdigit() for p in parts):
            raise ValueError(f"The value for `custom_deck` must be five whole numbers n/j/q/k/a "
                             f"(number cards, Jacks, Queens, Kings, Aces), but {custom_deck!r} was passed.")
        deck = Deck.from_counts([int(p) for p in parts])
    if shuffle not in SHUFFLES:
        raise ValueError(f"The value for `shuffle` must be one of {list(SHUFFLES)}, but {shuffle!r} was passed.")
    if max_cards is None or max_cards == 0:
        max_cards = None
    return Rules(players=players, deck=deck, jokers=jokers, joker_mode=joker_mode, end=end,
                 exhausted_tribute=exhausted_tribute, direction=direction,
                 shuffle_pile=shuffle == "shuffle_pile", shuffle_on_loop=shuffle == "shuffle_on_loop",
                 max_cards=max_cards, unfinished=unfinished)


def shares_deals(rules: Rules, other: Rules) -> bool:
    """True when both rules deal game g of a seed identically: same players, deck and jokers."""
    return rules.players == other.players and rules.counts == other.counts


def _t_row(metric, x, y, confidence):
    """Paired t interval (scipy.stats.ttest_rel) of mean(x - y)."""
    n = x.size
    row = dict(metric=metric, design="paired", n=n, value=x.mean() if n else np.nan,
               baseline_value=y.mean() if n else np.nan)
    if n < 2:
        return dict(row, estimate=np.nan, low=np.nan, high=np.nan, p_value=np.nan)
    d = x - y
    if not np.any(d != d[0]):  # every pair differs by the same amount: no spread, the interval is a point
        est = float(d[0])
        return dict(row, estimate=est, low=est, high=est, p_value=1.0 if est == 0 else 0.0)
    res = stats.ttest_rel(x, y)
    ci = res.confidence_interval(confidence)
    return dict(row, estimate=float(d.mean()), low=float(ci.low), high=float(ci.high), p_value=float(res.pvalue))


def paired_comparison(games: pd.DataFrame, baseline: pd.DataFrame, *, measure: str = "cards",
                      confidence: float = 0.95) -> pd.DataFrame:
    """Variant against baseline on the same deals (same seed, same game ids, same deck).

    Rows ``mean_length_diff`` (paired t interval of the difference in ``measure`` over the deals
    that both rules finished) and ``seat0_win_diff`` (paired t interval of the difference of the
    indicators "seat 0 won", over the deals both rules decided; for 0/1 pairs it is the Wald interval
    of a difference of paired proportions), with ``estimate, low, high, p_value, n`` (pairs used),
    ``value, baseline_value``.
    """
    for name, frame in (("games", games), ("baseline", baseline)):
        for col in ("game", "outcome", "winner", measure):
            if col not in frame.columns:
                raise ValueError(f"`{name}` has no column {col!r}.")
    a = games.set_index("game")
    b = baseline.set_index("game")
    if len(a) != len(b) or not a.index.equals(b.index):
        raise ValueError("`games` and `baseline` must hold the same game ids (the same deals) for a paired comparison.")
    finished = (a["outcome"].astype(str) == "win").to_numpy() & (b["outcome"].astype(str) == "win").to_numpy()
    x = a[measure].to_numpy(dtype=float)[finished]
    y = b[measure].to_numpy(dtype=float)[finished]
    wa = pd.to_numeric(a["winner"]).to_numpy(dtype=float)
    wb = pd.to_numeric(b["winner"]).to_numpy(dtype=float)
    decided = ~np.isnan(wa) & ~np.isnan(wb)
    rows = [_t_row("mean_length_diff", x, y, confidence),
            _t_row("seat0_win_diff", (wa[decided] == 0).astype(float), (wb[decided] == 0).astype(float), confidence)]
    return pd.DataFrame(rows)[["metric", "design", "estimate", "low", "high", "p_value", "n", "value", "baseline_value"]]


def compare_with_standard(games: pd.DataFrame, baseline: pd.DataFrame, rules: Rules, base: Rules,
                          *, confidence: float = 0.95) -> pd.DataFrame:
    """The explorer's comparison, by `beggarstats.analysis.compare_variants`: paired when the two
    samples share their deals (`shares_deals`), else independent (Welch interval of the mean
    difference, Newcombe interval of the difference in seat 0's win rate).
    """
    paired = shares_deals(rules, base)
    both = pd.concat([_slim(games).assign(rules="variant"), _slim(baseline).assign(rules="standard")],
                     ignore_index=True)
    table = an.compare_variants(both, baseline="standard", by=None, confidence=confidence,
                                design="paired" if paired else "independent")
    table = table[table["metric"].isin(["mean_length_diff", "seat0_win_diff"])]
    return table[["metric", "design", "estimate", "low", "high", "p_value", "n", "value", "baseline_value"]] \
        .reset_index(drop=True)


def _slim(games: pd.DataFrame, measure: str = "cards") -> pd.DataFrame:
    """The columns the comparisons and the survival curve read, as plain numpy columns (much faster to
    group and scan than the compact Arrow-backed columns of `simulate`)."""
    outcome = games["outcome"]
    if isinstance(outcome.dtype, pd.CategoricalDtype):  # decode the few categories, not every row
        outcome = np.asarray(outcome.cat.categories.astype(object))[outcome.cat.codes.to_numpy()]
    else:
        outcome = outcome.astype(str).to_numpy(object)
    return pd.DataFrame({
        "game": games["game"].to_numpy(dtype=np.int64),
        "outcome": outcome,
        "winner": pd.to_numeric(games["winner"]).to_numpy(dtype=float, na_value=np.nan),
        measure: games[measure].to_numpy(dtype=float),
    })


def _widgets():
    import ipywidgets

    return ipywidgets


class Explorer:
    """Rules, sample size and seed as widgets; every change re-runs and redraws.

    ``Explorer(games=100_000, seed=2026)``; show it with ``display(explorer.widget)``. After each
    `update` the results are in ``rules``, ``base`` (the standard game at the same player count),
    ``games`` and ``baseline`` (the two samples), ``tables`` (dict: 'lengths', 'seats',
    'comparison'), ``figure`` (length distribution and survival), ``elapsed`` (seconds) and
    ``error`` (the message of invalid controls, else None).
    """

    def __init__(self, *, games: int = 100_000, seed: int = 2026, n_jobs: int = -1, auto: bool = True):
        w = _widgets()
        style = {"description_width": "initial"}
        self.n_jobs = n_jobs
        self.controls = {
            "players": w.IntSlider(value=2, min=2, max=6, description="players", continuous_update=False),
            "deck": w.Dropdown(options=DECKS, value="standard", description="deck"),
            "custom_deck": w.Text(value="10/2/0/0/0", description="custom n/J/Q/K/A", style=style,
                                  continuous_update=False),
            "jokers": w.IntSlider(value=0, min=0, max=2, description="jokers", continuous_update=False),
            "joker_mode": w.Dropdown(options=("super", "beggar"), description="joker mode", style=style),
            "end": w.Dropdown(options=("trick", "empty", "unable"), description="end"),
            "exhausted_tribute": w.Dropdown(options=("claimant", "passes_on"), description="exhausted tribute",
                                            style=style),
            "direction": w.Dropdown(options=("cw", "ccw"), description="direction"),
            "shuffle": w.Dropdown(options=SHUFFLES, description="shuffle"),
            "max_cards": w.BoundedIntText(value=0, min=0, max=10**7, description="cut-off (0: none)", style=style),
            "unfinished": w.Dropdown(options=("none", "most_cards"), description="unfinished"),
            "games": w.BoundedIntText(value=games, min=100, max=10**7, step=10_000, description="games"),
            "seed": w.BoundedIntText(value=seed, min=0, max=2**63 - 1, description="seed"),
        }
        self.status = w.HTML()
        self.plot_out, self.seats_out, self.compare_out = w.Output(), w.Output(), w.Output()
        self.rules = self.base = self.games = self.baseline = self.figure = self.error = None
        self.tables: dict[str, pd.DataFrame] = {}
        self.elapsed = None
        self.updates = 0
        self._base_cache: dict = {}
        c = self.controls
        self.widget = w.VBox([
            w.HBox([w.VBox([c["players"], c["deck"], c["custom_deck"], c["jokers"], c["joker_mode"]]),
                    w.VBox([c["end"], c["exhausted_tribute"], c["direction"], c["shuffle"]]),
                    w.VBox([c["max_cards"], c["unfinished"], c["games"], c["seed"]])]),
            self.status, self.plot_out, w.HBox([self.seats_out, self.compare_out]),
        ])
        self.auto = auto
        for control in self.controls.values():
            control.observe(self._changed, names="value")
        if auto:
            self.update()

    # -- values ---------------------------------------------------------------------------------
    def values(self) -> dict:
        return {name: control.value for name, control in self.controls.items()}

    def set(self, **values) -> None:
        """Set several controls and update once (a test or a notebook cell drives the panel)."""
        auto, self.auto = self.auto, False
        try:
            for name, value in values.items():
                if name not in self.controls:
                    raise ValueError(f"No control named {name!r}; the controls are {list(self.controls)}.")
                self.controls[name].value = value
        finally:
            self.auto = auto
        self.update()

    def _changed(self, change) -> None:
        if self.auto:
            self.update()

    # -- compute --------------------------------------------------------------------------------
    @staticmethod
    def _summaries(games: pd.DataFrame, label: str) -> dict:
        """What the panel shows of one sample: plain columns, length summary, Kaplan-Meier table."""
        slim = _slim(games).assign(sample=label)
        return {"slim": slim, "lengths": an.length_summary(slim, by="sample"),
                "km": an.kaplan_meier(slim, by="sample")}

    def _baseline(self, base: Rules, n: int, seed: int) -> tuple[pd.DataFrame, dict]:
        """The standard game's sample and summaries, kept while players, games and seed stay."""
        key = (base, n, seed)
        if key not in self._base_cache:
            games = simulate(n, rules=base, seed=seed, n_jobs=self.n_jobs)
            self._base_cache = {key: (games, self._summaries(games, "standard game"))}
        return self._base_cache[key]

    def update(self) -> None:
        """Re-run both samples from the controls and redraw (errors go to ``error`` and the status line)."""
        start = time.perf_counter()
        values = self.values()
        n, seed = values.pop("games"), values.pop("seed")
        try:
            rules = build_rules(**values)
        except ValueError as exc:
            self.error = str(exc)
            self.status.value = f"<b style='color:#b00'>{_escape(self.error)}</b>"
            return
        self.error = None
        base = Rules(players=rules.players)
        games = simulate(n, rules=rules, seed=seed, n_jobs=self.n_jobs)
        samples = [self._summaries(games, "chosen rules")]
        baseline = games
        if rules != base:
            baseline, standard = self._baseline(base, n, seed)
            samples.append(standard)
        lengths = pd.concat([s["lengths"] for s in samples], ignore_index=True)
        seats = an.seat_win_rates(games.assign(rules=rules.name), by="players")
        comparison = compare_with_standard(games, baseline, rules, base) if rules != base else pd.DataFrame()
        self.rules, self.base, self.games, self.baseline = rules, base, games, baseline
        self.tables = {"lengths": lengths, "seats": seats, "comparison": comparison}
        self._draw(samples)
        self.elapsed = time.perf_counter() - start
        self.updates += 1
        outcomes = games["outcome"].astype(str).value_counts()
        self.status.value = _escape(
            f"{rules.players} players, {rules.name}: {n:,} games (seed {seed}) — "
            + ", ".join(f"{k} {outcomes.get(k, 0):,}" for k in ("win", "loop", "cutoff"))
            + f" — {self.elapsed:.2f} s")

    def _draw(self, samples: list[dict]) -> None:
        import matplotlib.pyplot as plt
        from matplotlib import ticker

        from .. import plots

        if self.figure is not None:
            plt.close(self.figure)
        # fixed margins and plain log-axis labels: a constrained layout and mathtext tick labels
        # took most of the time of showing the figure
        fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.6))
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.9, wspace=0.25)
        finished = [s["slim"].loc[s["slim"]["outcome"] == "win", "cards"].to_numpy() for s in samples]
        if sum(f.size for f in finished):
            # the histogram drawn with numpy: seaborn's histplot takes most of a second on 200,000 rows
            top = float(np.quantile(np.concatenate(finished), 0.99))
            edges = np.linspace(0, top, 61)
            for colour, s, cards in zip(("C0", "C1"), samples, finished):
                density, _ = np.histogram(cards, bins=edges)
                a.stairs(density / max(cards.size, 1) / np.diff(edges), edges, color=colour,
                         label=s["slim"]["sample"].iloc[0])
            a.set_xlim(0, top)
            a.set_xlabel("game length (cards)")
            a.set_ylabel("density")
            a.legend()
            plots.plot_survival(pd.concat([s["km"] for s in samples], ignore_index=True), hue="sample", ax=b)
            b.yaxis.set_minor_locator(ticker.NullLocator())
            b.yaxis.set_major_formatter(ticker.FuncFormatter(lambda v, _: f"{v:g}"))
        a.set_title("length distribution (finished games)")
        b.set_title("survival: share of games longer than x")
        self.figure = fig
        plt.close(fig)  # shown through the Output widget only, not twice by the inline backend
        self._show()

    def _show(self) -> None:
        from IPython import get_ipython
        from IPython.display import display

        if get_ipython() is None:  # no kernel (a script or a test): the results stay in the attributes
            return

        seats = self.tables["seats"][["seat", "wins", "games", "rate", "low", "high", "p_value"]]
        for out, items in ((self.plot_out, [self.figure]),
                           (self.seats_out, [_caption("win rate by seat (95% Wilson; p: binomial test against 1/n)"),
                                             seats.round(4)]),
                           (self.compare_out, [_caption(self.comparison_caption()), self.tables["comparison"].round(4)])):
            out.clear_output(wait=True)
            with out:
                for item in items:
                    display(item)

    def comparison_caption(self) -> str:
        if self.rules is None:
            return ""
        if self.rules == self.base:
            return "these are the standard rules: nothing to compare"
        if shares_deals(self.rules, self.base):
            return ("against the standard game on the same deals (paired t intervals, 95%): "
                    "chosen minus standard")
        return ("against the standard game (other deck, so other deals: Welch and Newcombe intervals, 95%): "
                "chosen minus standard")


def _escape(text: str) -> str:
    import html

    return html.escape(text)


def _caption(text: str):
    from IPython.display import Markdown

    return Markdown(f"**{text}**")


def pile_text(plays) -> str:
    """The cards of a trick in order, as 'seat:card' ('-' number card, J Q K A, X joker)."""
    return " ".join(f"{seat}:{_SYMBOL[card]}" for seat, card in plays)


class Replayer:
    """One deal trick by trick: paste a deal or pick (seed, game); the rules come from ``rules``
    (a `Rules` or a callable returning one, e.g. ``lambda: explorer.rules``).

    After `load` the game is in ``result`` (a traced GameResult) and ``deal``; `show` (the trick
    slider) fills ``trick`` (a dict: trick number, leader, pile, taker, every seat's card count) and
    ``figure`` (hand sizes up to that trick; the cycle shaded when the game loops).
    """

    def __init__(self, rules=None, *, seed: int = 2026, game: int = 0, deal: str = ""):
        w = _widgets()
        style = {"description_width": "initial"}
        self._rules = rules
        self.source = w.ToggleButtons(options=("seed and game", "deal"), value="deal" if deal else "seed and game",
                                      description="replay")
        self.seed = w.BoundedIntText(value=seed, min=0, max=2**63 - 1, description="seed")
        self.game = w.BoundedIntText(value=game, min=0, max=2**63 - 1, description="game")
        self.deal_text = w.Textarea(value=deal, description="deal", placeholder="---K--Q-/--A--J-- (seat 0 first)",
                                    layout=w.Layout(width="90%"))
        self.any_deck = w.Checkbox(value=False, description="any deck (the deal's own cards)", style=style)
        self.load_button = w.Button(description="play")
        self.step = w.IntSlider(value=0, min=0, max=0, description="trick", continuous_update=False,
                                layout=w.Layout(width="90%"))
        self.status, self.trick_html = w.HTML(), w.HTML()
        self.plot_out = w.Output()
        self.result = self.deal = self.trick = self.figure = self.error = None
        self.load_button.on_click(lambda _: self.load())
        self._quiet = False
        self.step.observe(lambda change: None if self._quiet else self.show(change["new"]), names="value")
        self.widget = w.VBox([self.source, w.HBox([self.seed, self.game]), self.deal_text, self.any_deck,
                              self.load_button, self.status, self.step, self.trick_html, self.plot_out])

    def rules(self) -> Rules:
        rules = self._rules() if callable(self._rules) else self._rules
        return rules if rules is not None else Rules()

    def load(self) -> None:
        """Play the chosen deal with the reference engine (tracing every trick) and show its first trick."""
        self.error = None
        try:
            rules = self.rules()
            if self.source.value == "deal":
                # the shuffle variants draw from the stream of (seed, game), as in a simulated table
                result = play(self.deal_text.value.strip(), rules, any_deck=self.any_deck.value,
                              rng=GameStream(self.seed.value, self.game.value), trace=True)
                deal = result.deal
            else:
                deal, result = replay(self.seed.value, self.game.value, rules)
        except (DealError, ValueError) as exc:
            self.error = str(exc)
            self.status.value = f"<b style='color:#b00'>{_escape(self.error)}</b>"
            return
        self.result, self.deal = result, deal
        if result.outcome == "loop":
            what = (f"loops: after {result.loop_start_tricks} tricks ({result.loop_start_cards} cards) it enters a "
                    f"cycle of {result.loop_tricks} tricks ({result.loop_cards} cards)")
        elif result.outcome == "win":
            what = f"seat {result.winner} wins after {result.cards} cards and {result.tricks} tricks"
        else:
            what = f"cut off after {result.cards} cards and {result.tricks} tricks"
        self.status.value = f"<code>{_escape(deal)}</code><br>{_escape(what)}"
        self._quiet = True  # moving the slider's bounds must not draw a trick of the new game half set up
        try:
            self.step.max = max(len(result.trace), 1)
            self.step.min = 1
            self.step.value = 1
        finally:
            self._quiet = False
        self.show(self.step.value)

    def show(self, trick: int) -> None:
        """Show the state after trick ``trick`` (1 = the first trick)."""
        import matplotlib.pyplot as plt
        from IPython import get_ipython
        from IPython.display import display

        from ..plots import card_count_timeline, loop_cycle

        result = self.result
        if result is None or not result.trace:
            return
        trick = int(min(max(trick, 1), len(result.trace)))
        t = result.trace[trick - 1]
        self.trick = dict(trick=trick, leader=t.leader, pile=pile_text(t.plays), cards=t.cards, taker=t.taker,
                          hand_sizes=tuple(t.hand_sizes))
        sizes = ", ".join(f"seat {s}: {k}" for s, k in enumerate(t.hand_sizes))
        taker = f"seat {t.taker} takes the pile of {t.cards} cards" if t.taker is not None else "cut off"
        self.trick_html.value = (f"trick {trick} of {len(result.trace)}: seat {t.leader} leads; pile "
                                 f"<code>{_escape(self.trick['pile'])}</code>; {taker}<br>cards in hand: {sizes}")
        if self.figure is not None:
            plt.close(self.figure)
        if result.outcome == "loop":
            fig = loop_cycle(result)
        else:
            fig = card_count_timeline(result)
        fig.axes[0].axvline(trick, color="red", linewidth=1)
        self.figure = fig
        plt.close(fig)
        if get_ipython() is None:
            return
        self.plot_out.clear_output(wait=True)
        with self.plot_out:
            display(fig)
