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
# # 01 — How long is a game of Beggar-My-Neighbour?
#
# Random deals under the standard rules (`docs/RULES.md`), 2 to 6 players. Length is counted in **cards
# played onto the pile** (and in tricks). Three questions: what is the typical length, how long is the
# tail, and does the tail decay geometrically — a constant chance per card that the game ends?
#
# Every number in the text below is computed from this run (the cell above it), so it agrees with the
# tables whatever the sample size. `beggarstats figures` makes the same estimates from a larger run
# (`figures/findings.md`).

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The 2-player sample size (other player counts get a quarter of it). Override with the environment
# variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run every notebook on a small sample).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown

from beggarstats import Rules
from beggarstats import analysis as an
from beggarstats import plots
from beggarstats.run.simulate import simulate

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)

# %%
PLAYERS = range(2, 7)
games = pd.concat([simulate(N_GAMES if p == 2 else N_GAMES // 4, rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS)
                   for p in PLAYERS], ignore_index=True)
outcomes = games.groupby("players", observed=True)["outcome"].value_counts().unstack()
outcomes

# %% [markdown]
# ## Typical length
#
# `length_summary` gives the mean with a 95% t interval and quantiles, over finished games (a loop's
# count is where it was found and is not a length).

# %%
summary = an.length_summary(games, by="players")
summary.round(2)

# %%
an.length_summary(games, measure="tricks", by="players").round(2)

# %%
fig = plots.plot_lengths(games, hue="players")
fig.axes[0].set_xlim(0, np.quantile(games["cards"], 0.995));

# %%
s = summary.set_index("players")
two = s.loc[2]
tricks2 = an.length_summary(games, measure="tricks", by="players").set_index("players").loc[2, "mean"]
loops = int((games["outcome"] == "loop").sum())
steps = np.diff(s.loc[list(PLAYERS), "mean"].to_numpy())
growth = ("each extra player adds length with shrinking steps" if (steps > 0).all() and (np.diff(steps) < 0).all()
          else "each extra player adds length" if (steps > 0).all() else "with more players")
never = ("under the standard rules never-ending deals exist but are far too rare to meet by chance" if loops == 0
         else "never-ending deals do occur under the standard rules, if rarely")
Markdown(f"""**Reading.** In this run ({int(two.games):,} games) a 2-player game lasts on average {two["mean"]:.1f} cards
(95% interval {two.mean_low:.1f}–{two.mean_high:.1f}) or {tricks2:.0f} tricks; {growth}:
{", ".join(f"{s.loc[p, 'mean']:.0f}" for p in PLAYERS if p > 2)} cards for 3–6 players
({", ".join(f"±{(s.loc[p, 'mean_high'] - s.loc[p, 'mean_low']) / 2:.1f}" for p in PLAYERS if p > 2)} cards). The
distribution is strongly right-skewed: the 2-player median is {two.q50:.0f} cards, 1% of games run past
{two.q99:.0f} cards ({two.q99 / two.q50:.1f} times the median), and the longest game of the sample took
{two["max"]:.0f} cards — far from the longest known game (notebook 04). {loops:,} of {len(games):,} games
looped: {never}.""")

# %% [markdown]
# ## The tail: survival and its decay rate
#
# Kaplan-Meier survival P(length > x) with Greenwood bands; loops and cut-offs would be censored. On a
# log scale a geometric tail is a straight line.

# %%
plots.plot_survival(games, hue="players");

# %%
tail = an.tail_rate(games, by="players")
tail

# %%
t = tail.set_index("players")
Markdown(f"""**Reading.** Beyond the median the curves are close to straight on the log scale: past that point
a game ends with a roughly constant probability per card — the `rate` column (maximum likelihood,
censoring-aware, 95% Wald interval). Here: {t.loc[2, 'rate']:.5f} per card with 2 players
({t.loc[2, 'rate_low']:.5f}–{t.loc[2, 'rate_high']:.5f}), {t.rate.iloc[1:].min():.4f}–{t.rate.iloc[1:].max():.4f}
with 3–6; so a game that has gone long lasts on average about another {1 / t.rate.max():.0f}–{1 / t.rate.min():.0f}
cards, whatever its length so far, and the survivors halve every {t.half_life.min():.0f}–{t.half_life.max():.0f}
cards (`half_life`). The slope estimate (`method='slope'`) is the classic picture but its interval is too
narrow:""")

# %%
an.tail_rate(games, by="players", method="slope")
