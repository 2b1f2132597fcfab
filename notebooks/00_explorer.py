# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.7
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 00 — Explorer: choose the rules, see the games
#
# Pick the number of players (2-6), the deck, every rule option and variant (one control per option of
# `Rules`), the sample size and the seed: every change plays the sample again (the status line says
# *running* meanwhile) and shows the distribution of game length, the survival curve, every seat's win
# rate with its 95% Wilson interval, and the comparison with the standard game at the same player
# count. A value the explorer cannot run (a deck it cannot deal, more games than its box allows) is
# said in red and clears the results below, so that no stale answer stays on screen. Game *g* of a table is dealt from (seed, g) alone, so rules that keep the
# deck play **the very same deals** as the standard game (jokers are slipped into them), and the
# comparison is paired, deal by deal (paired intervals); another deck deals other games, and the comparison is
# then between independent samples (Welch and Newcombe intervals).
#
# The second part replays one deal: paste a deal, or pick a seed and a game of any table, and step
# through it trick by trick. The widgets need a running kernel (JupyterLab: `jupyter lab notebooks/`);
# until then each panel shows a picture of itself as it was saved. The cells after each panel show,
# without running anything, what it displays for one choice: they compute it with a panel of their
# own, so that the live panels stay as they start (standard rules; no deal replayed yet).

# %% tags=["parameters"]
import os

# The common sample-size variable of the notebooks; the explorer starts with half of it (its own
# `games` box changes it). Override with the environment variable BEGGARSTATS_NOTEBOOK_GAMES (the
# tests run every notebook on a small sample).
N_GAMES = int(os.environ.get("BEGGARSTATS_NOTEBOOK_GAMES", 200_000))
SEED = 2026
N_JOBS = -1  # all cores
print(f"N_GAMES = {N_GAMES:_}")

# %%
from IPython.display import Markdown, display

from beggarstats.analysis.intervals import z_value
from beggarstats.analysis.variants import detectable_effect
from beggarstats.report.explore import Explorer, Replayer

explorer = Explorer(games=N_GAMES // 2, seed=SEED, n_jobs=N_JOBS)
explorer  # the live panel, and a picture of it for a reader who has not run the notebook

# %% [markdown]
# ## One choice, shown without running: the pile shuffled after every trick
#
# What the panel shows with `shuffle_pile` ticked (every pile is shuffled before its taker puts it
# under their hand), computed by a panel without widgets (`panel=False`). The deals are those of the
# standard game, so the comparison is paired.

# %%
example = Explorer(games=N_GAMES // 2, seed=SEED, n_jobs=N_JOBS, panel=False, auto=False)
example.set(shuffle_pile=True)
display(example.figure)
for item in example.shown["seats"] + example.shown["comparison"]:
    display(item)

# %%
c = example.tables["comparison"].set_index("metric")
m, w = c.loc["mean_length_diff"], c.loc["seat0_win_diff"]
def verdict(r, scale, unit):  # one comparison, so its own level: two-sided 5%
    if r.low <= 0 <= r.high:  # the standard error behind the 95% interval, at 80% power
        missed = scale * detectable_effect((r.high - r.low) / (2 * z_value(0.95)))
        return f"not detected: it could miss a change below ±{missed:.2g}{unit} at 80% power, two-sided 5%"
    return "a detectable difference"
Markdown(f"""**Reading.** On the same {int(m.n):,} finished deals, shuffling the pile changes the mean length by
{m.estimate:+.1f} cards (95% paired interval {m.low:+.1f} to {m.high:+.1f}: {verdict(m, 1, " cards")}), and seat
0's win rate by {100 * w.estimate:+.2f} percentage points ({100 * w.low:+.2f} to {100 * w.high:+.2f}:
{verdict(w, 100, " pp")}).
This update ({example.controls["games"].value:,} games of each, {example.rules.players} players) took
{example.elapsed:.1f} s.""")

# %% [markdown]
# ## Replay one deal
#
# Choose *seed and game* (the rules are the explorer's) or *deal* and paste one (seat 0 first, top card
# first, hands joined by `/`), then press *play*; the slider steps through the tricks: who led, the
# cards of the pile in order (`seat:card`), who took it, and every seat's card count afterwards. A deal
# that never ends is drawn up to its first repeated state, with the cycle shaded.

# %%
replayer = Replayer(lambda: explorer.rules, seed=SEED, game=0)
replayer

# %% [markdown]
# For example the first known never-ending deal of the record table, under the standard rules, at the
# first trick of its cycle (again by a panel of its own):

# %%
from beggarstats import Rules, load_records

loop = next(r for r in load_records() if r["outcome"] == "loop")
replay_example = Replayer(Rules(), deal=loop["deal"], panel=False)
replay_example.load()
replay_example.show(replay_example.result.loop_start_tricks + 1)
display(Markdown(replay_example.status.value + "<br>" + replay_example.trick_html.value))
replay_example.figure
