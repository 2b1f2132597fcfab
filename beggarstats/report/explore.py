"""The live explorer of notebooks/00_explorer and of `beggarstats explore`: widgets over `simulate`
and `replay`.

Two panels, each a plain class holding its ipywidgets, so that a test can set widget values and
read what the panel computed without a browser:

* `Explorer`: one control per option of `Rules` (`report.explore_controls`), the sample size and
  the seed. Every change re-runs the sample and shows the length distribution, the survival curve,
  every seat's win rate with its Wilson interval, and the comparison with the standard game at the
  same player count (`report.explore_compare`): game g is fixed by (seed, g), and jokers are
  slipped into the same deals, so every rule option but the deck is compared *paired*, deal by
  deal, as `bs.compare` compares it; another deck deals other games, compared as independent
  samples.
* `Replayer`: one deal, pasted or picked as (seed, game), stepped through trick by trick with every
  seat's card count and the pile; a loop is drawn with its cycle.

The panels compute in `update()` / `load()` and keep the results as attributes (``tables``,
``figure``, ``result``, ``trick``, ``shown``); the widgets only display them. A bad value is said
in the status line in words, nothing is run, and the previous results are cleared so that they
cannot be read as the answer. ipywidgets and matplotlib are imported when a panel is built, so
importing this module pulls in neither.

Shown as a cell's result (``explorer``, not ``explorer.widget``), a panel's output carries the live
widget and a picture of what it shows (`report.explore_snapshot`), which JupyterLab shows where it
does not trust the output. ``panel=False`` builds a panel whose controls are plain values (no
widget, nothing displayed): a notebook cell computes one choice with it without touching the live
panel or adding widget models to the notebook's saved state.
"""

from __future__ import annotations

import math
import time

import numpy as np
import pandas as pd

from .. import analysis as an
from ..game.cards import KIND_NAMES, DealError
from ..game.rules import Rules, rule_options
from ..run.play import play
from ..engine.rng import GameStream
from ..run.simulate import replay, simulate
from .explore_compare import (comparison_caption, compare_with_standard, readable_comparison, readable_seats,
                              shares_deals, slim)
from .explore_controls import (DECKS, GAMES_RANGE, SEED_RANGE, add_classes, build_rules, check_sample, control,
                               widgets)
from .explore_snapshot import SNAPSHOT_NOTE, bundle, caption, escape, item_html, plain_text, png_html, snapshot

__all__ = ["build_rules", "shares_deals", "compare_with_standard", "readable_seats", "readable_comparison",
           "check_sample", "Explorer", "Replayer", "DECKS", "GAMES_RANGE", "SEED_RANGE", "pile_text"]

_SYMBOL = "-" + "".join(KIND_NAMES[1:])  # tribute -> card symbol: - J Q K A X


class Explorer:
    """Rules, sample size and seed as widgets; every change re-runs and redraws.

    ``Explorer(games=100_000, seed=2026)``; show it with ``display(explorer)`` (the widget and its
    picture). The controls (``controls``, by name) are one per option of `rule_options` plus
    ``custom_deck``, ``games`` and ``seed``. After each `update` the results are in ``rules``, ``base`` (the standard game at
    the same player count), ``games`` and ``baseline`` (the two samples), ``tables`` (dict:
    'lengths', 'seats', 'comparison'), ``figure`` (length distribution and survival), ``shown``
    (what the panel displays: the readable tables), ``elapsed`` (seconds) and ``error`` (the
    message of invalid controls, else None; then the results are cleared).

    ``panel=False``: the controls are plain values, set with `set`, and nothing is displayed (a cell
    that shows one choice computes it so, leaving the reader's live panel as it is). ``auto=False``:
    no update until `set` or `update` (a panel built to be set at once does not play its first
    sample for nothing).
    """

    def __init__(self, *, games: int = 100_000, seed: int = 2026, n_jobs: int | None = None, auto: bool = True,
                 panel: bool = True):
        self.panel = panel
        w = widgets(panel)
        style = {"description_width": "initial"}
        self.n_jobs = n_jobs
        self.options = rule_options()
        rule_controls = {o.name: control(w, o) for o in self.options}
        self.controls = dict(rule_controls)
        self.controls["custom_deck"] = w.Text(value="10/2/0/0/0", description="custom deck n/J/Q/K/A", style=style,
                                              continuous_update=False)
        low, high = GAMES_RANGE
        self.controls["games"] = w.IntText(value=games, description=f"games ({low:,}-{high:,})", style=style,
                                           continuous_update=False)
        self.controls["seed"] = w.IntText(value=seed, description="seed", style=style, continuous_update=False)
        self.status = w.HTML()
        scroll = w.Layout(overflow="auto", max_width="100%")
        self.plot_out, self.seats_out, self.compare_out = w.Output(layout=scroll), w.Output(layout=scroll), \
            w.Output(layout=scroll)
        self.rules = self.base = self.games = self.baseline = self.figure = self.error = None
        self.tables: dict[str, pd.DataFrame] = {}
        self.shown: dict[str, list] = {}
        self.elapsed = None
        self.updates = 0
        self._base_cache: dict = {}
        c = self.controls
        boxes = [c[o.name] for o in self.options if o.kind in ("choice", "deck")] + [c["custom_deck"]]
        others = [c[o.name] for o in self.options if o.kind not in ("choice", "deck")]
        self.widget = w.VBox([
            w.HBox([w.VBox(boxes[:len(boxes) // 2 + 1]), w.VBox(boxes[len(boxes) // 2 + 1:]),
                    w.VBox(others + [c["games"], c["seed"]])]),
            self.status, self.plot_out, self.seats_out, self.compare_out,
        ])
        add_classes(self.widget, "bs-explorer", self.status, "bs-status", self.plot_out, "bs-plot", self.seats_out,
                    "bs-seats", self.compare_out, "bs-comparison",
                    *[x for name, box in self.controls.items() for x in (box, f"bs-control-{name}")])
        self.auto = auto
        for box in self.controls.values():
            box.observe(self._changed, names="value")
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
                    raise ValueError(f"The keyword `{name}` names no control; the controls are {list(self.controls)}.")
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
        plain = slim(games).assign(sample=label)
        return {"slim": plain, "lengths": an.length_summary(plain, by="sample"),
                "km": an.kaplan_meier(plain, by="sample")}

    def _baseline(self, base: Rules, n: int, seed: int) -> tuple[pd.DataFrame, dict]:
        """The standard game's sample and summaries, kept while players, games and seed stay."""
        key = (base, n, seed)
        if key not in self._base_cache:
            games = simulate(n, rules=base, seed=seed, n_jobs=self.n_jobs)
            self._base_cache = {key: (games, self._summaries(games, "standard game"))}
        return self._base_cache[key]

    def _fail(self, message: str) -> None:
        """Say what is wrong and clear every result: a stale answer must not stay on screen."""
        self.error = message
        self.rules = self.base = self.games = self.baseline = None
        if self.figure is not None:
            import matplotlib.pyplot as plt

            plt.close(self.figure)
        self.figure = None
        self.tables, self.shown = {}, {}
        self.status.value = f"<b style='color:#b00'>{escape(message)}</b>"
        self._show()

    def update(self) -> None:
        """Re-run both samples from the controls and redraw (errors go to ``error`` and the status
        line, and clear the previous results)."""
        start = time.perf_counter()
        values = self.values()
        n, seed, custom = values.pop("games"), values.pop("seed"), values.pop("custom_deck")
        try:
            n, seed = check_sample(n, seed)
            rules = build_rules(custom_deck=custom, **values)
        except ValueError as exc:
            self._fail(str(exc))
            return
        self.error = None
        base = Rules(players=rules.players)
        samples = n if rules == base or (base, n, seed) in self._base_cache else 2 * n
        self.status.value = (f"<b>running {samples:,} games</b> ({rules.players} players, {escape(rules.name)}, "
                             f"seed {seed}) …")
        games = simulate(n, rules=rules, seed=seed, n_jobs=self.n_jobs)
        summaries = [self._summaries(games, "chosen rules")]
        baseline = games
        if rules != base:
            baseline, standard = self._baseline(base, n, seed)
            summaries.append(standard)
        lengths = pd.concat([s["lengths"] for s in summaries], ignore_index=True)
        seats = an.seat_win_rates(games.assign(rules=rules.name), by="players")
        comparison = compare_with_standard(games, baseline, rules, base) if rules != base else pd.DataFrame()
        self.rules, self.base, self.games, self.baseline = rules, base, games, baseline
        self.tables = {"lengths": lengths, "seats": seats, "comparison": comparison}
        self._draw(summaries)
        self.shown = {
            "seats": [caption("win rate by seat (95% Wilson interval; p: binomial test against 1/n)"),
                      readable_seats(seats)],
            "comparison": [caption(self.comparison_caption())]
                          + ([readable_comparison(comparison)] if not comparison.empty else []),
        }
        self._show()
        self.elapsed = time.perf_counter() - start
        self.updates += 1
        outcomes = games["outcome"].astype(str).value_counts()
        self.status.value = escape(
            f"{rules.players} players, {rules.name}: {n:,} games (seed {seed}) — "
            + ", ".join(f"{k} {outcomes.get(k, 0):,}" for k in ("win", "loop", "cutoff"))
            + f" — {self.elapsed:.2f} s")

    def _draw(self, summaries: list[dict]) -> None:
        import matplotlib.pyplot as plt
        from matplotlib import ticker

        from .. import plots

        if self.figure is not None:
            plt.close(self.figure)
        # fixed margins: a constrained layout took much of the time of showing the figure
        fig, (a, b) = plt.subplots(1, 2, figsize=(11, 3.6))
        fig.subplots_adjust(left=0.07, right=0.98, bottom=0.14, top=0.9, wspace=0.25)
        slim = pd.concat([s["slim"] for s in summaries], ignore_index=True)
        finished = slim.loc[slim["outcome"] == "win", "cards"].to_numpy()
        if finished.size:
            plots.plot_lengths(slim, hue="sample", ax=a, cut=math.ceil(np.quantile(finished, 0.99)))
            plots.plot_survival(pd.concat([s["km"] for s in summaries], ignore_index=True), hue="sample", ax=b)
            b.yaxis.set_minor_locator(ticker.NullLocator())  # one label per power of ten, all in percent
        a.set_title("length distribution (finished games)")
        b.set_title("survival: share of games longer than x")
        self.figure = fig
        plt.close(fig)  # shown through the Output widget only, not twice by the inline backend

    def _show(self) -> None:
        from IPython import get_ipython
        from IPython.display import HTML, display

        if get_ipython() is None or not self.panel:  # no kernel (a script or a test), or no panel: the
            return  # results stay in the attributes
        for out, items in ((self.plot_out, [self.figure] if self.figure is not None else []),
                           (self.seats_out, self.shown.get("seats", [])),
                           (self.compare_out, self.shown.get("comparison", []))):
            out.clear_output(wait=bool(items))
            with out:
                for item in items:  # tables without the row numbers, which only repeat the seat
                    display(HTML(item.to_html(index=False)) if isinstance(item, pd.DataFrame) else item)

    def comparison_caption(self) -> str:
        return comparison_caption(self.rules, self.base)

    def snapshot_html(self) -> str:
        """What the panel shows now, as static HTML: the status line, the figure (PNG) and the tables,
        under a line saying that the controls need a running kernel."""
        parts = [SNAPSHOT_NOTE.format(what="explorer")] if self.panel else []
        parts.append(f"<p class='bs-snapshot-status'>{self.status.value}</p>")
        if self.figure is not None:
            parts.append(png_html(self.figure))
        parts += [item_html(item) for key in ("seats", "comparison") for item in self.shown.get(key, [])]
        return snapshot(parts, "bs-explorer-snapshot")

    def __repr__(self) -> str:
        return f"Explorer: {plain_text(self.status.value)}"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        """The live panel (a widget view) with its picture as ``text/html`` beside it: JupyterLab draws
        the widget in a trusted notebook and the picture in one it does not trust, where the widget's
        text would be all a reader sees."""
        return bundle(self, include=include, exclude=exclude)


def pile_text(plays) -> str:
    """The cards of a trick in order, as 'seat:card' ('-' number card, J Q K A, X joker)."""
    return " ".join(f"{seat}:{_SYMBOL[card]}" for seat, card in plays)


class Replayer:
    """One deal trick by trick: paste a deal or pick (seed, game); the rules come from ``rules``
    (a `Rules` or a callable returning one, e.g. ``lambda: explorer.rules``).

    After `load` the game is in ``result`` (a traced GameResult) and ``deal``; `show` (the trick
    slider) fills ``trick`` (a dict: trick number, leader, pile, taker, every seat's card count) and
    ``figure`` (hand sizes up to that trick; the cycle shaded when the game loops).
    ``panel=False``: plain controls and nothing displayed, as for `Explorer`.
    """

    def __init__(self, rules=None, *, seed: int = 2026, game: int = 0, deal: str = "", panel: bool = True):
        self.panel = panel
        w = widgets(panel)
        style = {"description_width": "initial"}
        self._rules = rules
        self.source = w.ToggleButtons(options=("seed and game", "deal"), value="deal" if deal else "seed and game",
                                      description="replay")
        self.seed = w.IntText(value=seed, description="seed")  # out of range: refused in words by replay
        self.game = w.IntText(value=game, description="game")
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
        add_classes(self.widget, "bs-replayer", self.source, "bs-replay-source", self.seed, "bs-replay-seed", self.game,
                    "bs-replay-game", self.deal_text, "bs-replay-deal", self.load_button, "bs-replay-play", self.status,
                    "bs-replay-status", self.step, "bs-replay-step", self.trick_html, "bs-replay-trick", self.plot_out,
                    "bs-replay-plot")

    def rules(self) -> Rules:
        """The rules to play by: ``rules`` given, its value when callable, the standard rules for None."""
        if callable(self._rules):
            rules = self._rules()
            if rules is None:
                raise ValueError("The explorer's controls hold no valid rules (its status line says why): "
                                 "fix them to replay under its rules.")  # names: the explorer's controls (its status line says which)
            return rules
        return self._rules if self._rules is not None else Rules()

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
            self._fail(str(exc))
            return
        self.result, self.deal = result, deal
        if result.outcome == "loop":
            what = (f"loops: after {result.loop_start_tricks} tricks ({result.loop_start_cards} cards) it enters a "
                    f"cycle of {result.loop_tricks} tricks ({result.loop_cards} cards)")
        elif result.outcome == "win":
            what = f"seat {result.winner} wins after {result.cards} cards and {result.tricks} tricks"
        else:
            what = f"cut off after {result.cards} cards and {result.tricks} tricks"
        self.status.value = f"<code>{escape(deal)}</code><br>{escape(what)}"
        self._quiet = True  # moving the slider's bounds must not draw a trick of the new game half set up
        try:
            self.step.max = max(len(result.trace), 1)
            self.step.min = 1
            self.step.value = 1
        finally:
            self._quiet = False
        self.show(self.step.value)

    def _fail(self, message: str) -> None:
        """Say what is wrong and clear the previous game: its tricks must not stay on screen."""
        import matplotlib.pyplot as plt
        from IPython import get_ipython

        self.error = message
        if self.figure is not None:
            plt.close(self.figure)
        self.result = self.deal = self.trick = self.figure = None
        self.status.value = f"<b style='color:#b00'>{escape(message)}</b>"
        self.trick_html.value = ""
        self._quiet = True
        try:
            self.step.min = 0
            self.step.value = 0
            self.step.max = 0
        finally:
            self._quiet = False
        if get_ipython() is not None and self.panel:
            self.plot_out.clear_output()

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
                                 f"<code>{escape(self.trick['pile'])}</code>; {taker}<br>cards in hand: {sizes}")
        if self.figure is not None:
            plt.close(self.figure)
        if result.outcome == "loop":
            fig = loop_cycle(result)
        else:
            fig = card_count_timeline(result)
        fig.axes[0].axvline(trick, color="red", linewidth=1)
        self.figure = fig
        plt.close(fig)
        if get_ipython() is None or not self.panel:
            return
        self.plot_out.clear_output(wait=True)
        with self.plot_out:
            display(fig)

    def snapshot_html(self) -> str:
        """What the panel shows now, as static HTML: the deal and its outcome, the trick, the figure;
        before any game is played, what the controls hold."""
        parts = [SNAPSHOT_NOTE.format(what="replayer")] if self.panel else []
        if self.result is None and not self.status.value:
            chosen = ("the pasted deal" if self.source.value == "deal"
                      else f"game {self.game.value} of seed {self.seed.value}")
            parts.append(f"<p class='bs-snapshot-status'>{escape(f'replay: {chosen}; no game played yet')}</p>")
        else:
            parts.append(f"<p class='bs-snapshot-status'>{self.status.value}</p>")
            if self.trick_html.value:
                parts.append(f"<p>{self.trick_html.value}</p>")
            if self.figure is not None:
                parts.append(png_html(self.figure))
        return snapshot(parts, "bs-replayer-snapshot")

    def __repr__(self) -> str:
        shown = plain_text(self.status.value) or f"game {self.game.value} of seed {self.seed.value}, not played yet"
        return f"Replayer: {shown}"

    def _repr_mimebundle_(self, include=None, exclude=None) -> dict:
        """The live panel with its picture beside it, as `Explorer._repr_mimebundle_`."""
        return bundle(self, include=include, exclude=exclude)
