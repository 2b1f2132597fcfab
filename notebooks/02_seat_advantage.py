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
# # 02 — Is the deal fair between seats?
#
# Seat 0 leads the first trick. Does leading help? We estimate every seat's win rate with a Wilson
# interval, test it against 1/n (binomial, and a chi-square across seats), and report seat 0's edge.
# The sample size decides what can be seen: the cell below says how small an edge this run can
# resolve. Every number in the text is computed from this run.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The 2-player sample size (other player counts get a quarter of it). Override with the environment
# variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run every notebook on a small sample).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import pandas as pd
from IPython.display import Markdown
from statsmodels.stats.multitest import multipletests

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
rates = an.seat_win_rates(games, by="players")
rates.round(5)

# %%
plots.plot_seat_win_rates(rates);

# %%
an.seat_fairness_test(games, by="players")

# %% [markdown]
# Seat 0's edge over its fair share 1/n, in percentage points, for each player count. These are five
# tests of one question, so the p-values are adjusted (Holm) before calling any edge real, and an edge
# not detected says what it could miss: the smallest edge its test detects with the power of
# `beggarstats.report.findings.POWER` at Holm's strictest level, the family-wise level over the five
# tests (`detectable`, from the standard error behind the Wilson interval; the reading names it).

# %%
adv = an.first_player_advantage(games, by="players")
adv["p_holm"] = multipletests(adv["p_value"], method="holm")[1]
LEVEL = 0.05 / len(adv)  # Holm's strictest level: Holm rejects at it whatever the other tests give
adv["detectable"] = an.variants.detectable_effect((adv["high"] - adv["low"]) / (2 * an.intervals.z_value(0.95)),
                                                  alpha=LEVEL)
adv.assign(**{c: 100 * adv[c] for c in ("rate", "advantage", "low", "high", "detectable")}).round(3)  # percent

# %%
two = rates[(rates.players == 2) & (rates.seat == 0)].iloc[0]
half = 100 * (two.high - two.low) / 2
a2 = adv.set_index("players")
def edge(p):
    r = a2.loc[p]
    verdict = ("an edge" if r.p_holm < 0.05 and r.advantage > 0 else "a handicap" if r.p_holm < 0.05 else
               f"not distinguishable from 0: it could miss ±{100 * r.detectable:.2f} pp at 80% power at 0.05/{len(adv)}")
    return f"{100 * r.advantage:+.2f} pp with {p} players ({verdict}, Holm p = {r.p_holm:.3g})"
where = "excludes" if not (two.low <= 0.5 <= two.high) else "includes"
lead = ("leading is a small but real *disadvantage*" if two.high < 0.5 else
        "leading is a small but real *advantage*" if two.low > 0.5 else
        "this run cannot tell leading from not leading")
Markdown(f"""**Reading.** With 2 players this run ({int(two.games):,} decided games) gives seat 0 — the player
who leads — a win rate of {100 * two.rate:.3f}% (95% Wilson interval {100 * two.low:.3f}%–{100 * two.high:.3f}%,
half-width {half:.3f} percentage points). The interval {where} 50%: {lead}. With more players
({N_GAMES // 4:,} games each) seat 0's edge over 1/n is {"; ".join(edge(p) for p in PLAYERS if p > 2)}.
With {", ".join(str(p) for p in PLAYERS if 52 % p)} players the deck does not divide evenly and the deal gives the first
seats one card more (`docs/RULES.md`, "Seats and the deal"), which can help them. Read the per-seat `p_value`s of the first table with care: five player counts and up to six
seats make many tests.""")
