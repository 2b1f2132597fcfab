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
# # 05 — Does a strong hand win? And how often do players come back?
#
# Per-seat rows (`per_seat=True`) record what each seat was dealt (`aces`, `tribute_total` = sum of
# the tributes of its penalty cards) and the fewest cards it ever held at a trick boundary
# (`min_cards`). A logistic regression of winning on the dealt hand gives the odds ratio per Ace or
# per tribute point; a **comeback** is a game won by a player once down to at most a quarter of their
# dealt hand (see `beggarstats.analysis.comebacks` for why it is measured from the winner's side).
# Every number in the text is computed from this run.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The 2-player sample size; every player count here gets a quarter of it. Override with the
# environment variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run every notebook on a small sample).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import matplotlib.pyplot as plt
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
n = max(N_GAMES // 4, 500)
seats = pd.concat([simulate(n, rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS, per_seat=True)[1]
                   for p in PLAYERS], ignore_index=True)
fits = an.hand_strength(seats, predictors=("aces",), by="players")
fits[fits.term == "aces"].round(4)

# %%
fits2 = an.hand_strength(seats, by="players")  # tribute_total and aces together
fits2[fits2.term != "const"].round(4)

# %%
fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
plots.plot_hand_strength(seats, vary="aces", predictors=("aces",), ax=a)
plots.plot_hand_strength(seats, vary="tribute_total", predictors=("tribute_total",), ax=b);

# %%
import numpy as np

def odds(frame, players, term):
    r = frame[(frame.players == players) & (frame.term == term)].iloc[0]
    return f"{r.odds_ratio:.3f} ({np.exp(r.low):.3f}–{np.exp(r.high):.3f})"
tribute = an.hand_strength(seats, predictors=("tribute_total",), by="players")
two = seats[seats.players == 2]
no_ace = two[two.aces == 0]
both = fits2[(fits2.players == 2) & (fits2.term == "aces")].iloc[0]
# one test at its own level (two-sided 5%): the smallest Ace coefficient it detects at 80% power, as an odds ratio
missed = np.exp(an.variants.detectable_effect(both.se))
sign = ("negative" if both.high < 0 else "positive" if both.low > 0 else
        f"not distinguishable from zero (it could miss an odds ratio within {1 / missed:.3f} to {missed:.3f} per Ace at "
        "80% power, two-sided 5%)")
slopes = fits[fits.term == "aces"].set_index("players")["odds_ratio"]
Markdown(f"""**Reading ({n:,} games per player count, 95% Wald intervals).** With 2 players each Ace dealt
multiplies the odds of winning by {odds(fits, 2, "aces")}, each tribute point by {odds(tribute, 2, "tribute_total")};
a 2-player hand with no Ace still wins {100 * no_ace.won.mean():.1f}% of the time. Fitted together, the Ace
coefficient is {sign} (odds ratio {both.odds_ratio:.3f}): for a given tribute total, having it in Aces
rather than in more, smaller penalty cards {"is worse — more penalty cards give more chances to counter" if both.high < 0 else "makes no difference this run tells apart (what it could miss: the odds ratios above)" if both.low <= 0 else "is better"}.
The odds ratio per Ace for 3–6 players: {", ".join(f"{slopes[p]:.3f}" for p in PLAYERS if p > 2)}
(hands are smaller and the cards circulate many times before anyone is out).""")

# %%
back = an.comebacks(seats)
back.round(4)

# %%
plots.plot_comebacks(back, hue=None);

# %%
zero = an.comebacks(seats, cards=0)  # the winner once held no cards at all at a trick boundary
zero.round(4)

# %%
b = back.set_index("players")
Markdown(f"""**Reading.** Comebacks are not rare: the winner had once been down to a quarter of their dealt hand
in {100 * b.loc[2, 'rate']:.1f}% of 2-player games ({100 * b.loc[2, 'low']:.1f}–{100 * b.loc[2, 'high']:.1f}%), and in
{", ".join(f"{100 * b.loc[p, 'rate']:.1f}%" for p in PLAYERS if p > 2)} of games with 3–6 players. Under the `trick`
convention a player with an empty hand at a trick boundary is out, so no winner can have had no cards
there: the `cards=0` rate is {"exactly 0 for every player count, as it must be" if (zero.comebacks == 0).all()
else "not 0 — which would be a bug"}.""")
