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
# # 07 — At scale: a billion deals in a few kilobytes
#
# `beggarstats.summarize` plays random games chunk by chunk and keeps only fixed-size aggregates:
# outcome counts, wins per seat, the exact length distribution (histograms up to a cap, the few longer
# games one by one), every loop, and the longest games by id. This notebook reads the summaries
# committed in `data/` and installed with the package (made with `beggarstats summarize`, commands in
# `docs/scaling.md`; `beggarstats.run.committed_data` finds them) instead of
# replaying them, and asks the questions only scale answers: how often does a random deal never end,
# how fast does the tail of game length thin out, and how many random deals would one have to play to
# expect a game longer than the longest known game (the record of the records table, printed below)?
#
# Every number below is computed from the committed summaries when the notebook runs.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# Parameters: the committed summaries are read, not recomputed. N_GAMES sizes the small live run at
# the end (set BEGGARSTATS_NOTEBOOK_GAMES to run quickly).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

import beggarstats as bs
from beggarstats.analysis import summaries as sa
from beggarstats.run.committed_data import data_paths
from beggarstats.run.summarize import summarize
from beggarstats.run.summary import load_summary

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)
pd.set_option("display.max_colwidth", 70)

LONGEST = max((r for r in bs.load_records() if r["outcome"] == "win" and r["deck"] == "standard"),
              key=lambda r: r["cards"])
RECORD = int(LONGEST["cards"])  # cards: the longest known game
print(f"the record: {LONGEST['name']}, {RECORD:,} cards")
loaded = [(load_summary(path), path) for path in data_paths("summary-p*.json")]
summaries = {s.rules.players: s for s, _ in loaded}
big = summaries[2]
for s, path in loaded:
    print(s, f"- {path.stat().st_size / 1024:.0f} KB on disk")

# %% [markdown]
# ## Outcomes and lengths
#
# The length statistics come from the exact frequency table, so they are the statistics of all the
# games, not of a sample of them (finished games only: a loop has no length).

# %%
pd.concat([sa.length_summary(s) for s in summaries.values()], ignore_index=True)

# %% [markdown]
# Seat win rates, each tested against a fair 1/n; the tests form one family (every seat of every
# player count), so `p_holm` adjusts them together (Holm).

# %%
from statsmodels.stats.multitest import multipletests

seats = pd.concat([sa.seat_win_rates(s) for s in summaries.values()], ignore_index=True)
seats["p_holm"] = multipletests(seats["p_value"], method="holm")[1]
seats

# %% [markdown]
# ## Never-ending deals
#
# The first never-ending standard two-player deal was found only recently, by a search (notebook 04 replays it). Among random
# deals, the share that loops is estimated with its exact (Clopper-Pearson) 95% interval; when no loop
# is seen, the upper end is the largest share still consistent with having seen none.

# %%
loops = pd.concat([sa.loop_share(s) for s in summaries.values()], ignore_index=True)
loops

# %%
from IPython.display import Markdown

Markdown(f"**Reading.** Among {big.n_games:,} random two-player deals {int(loops.loc[0, 'loops'])} looped: the share "
         f"is at most {loops.loc[0, 'high']:.2e} (the upper end of the two-sided 95% Clopper-Pearson interval, exact), i.e. at most one deal in {1 / loops.loc[0, 'high']:,.0f}.")

# %% [markdown]
# ## The tail of game length
#
# For two players, past the median length, the data are consistent with one end rate per card (the
# constancy test of `figures/findings.md`): the Kaplan-Meier survival curve is then a straight line on
# a log scale (a geometric tail). The rate is fitted by maximum likelihood
# on the longest games (beyond the quantile `start=0.99` of length); the table puts the fitted tail beside the counts seen
# longer than each length. The fit uses every game beyond its threshold, those counts included, so the table checks the
# fit; it is not a prediction of games the fit did not see.

# %%
km = sa.kaplan_meier(big)
tail = sa.tail_rate(big, start=0.99).iloc[0]
fig, ax = plt.subplots(figsize=(7, 4))
ax.step(km["length"], km["survival"], where="post", label="Kaplan-Meier, all games")
x = np.linspace(tail["threshold"], RECORD, 200)
ax.plot(x, tail["survival_at_threshold"] * (1 - tail["rate"]) ** (x - tail["threshold"]), "--",
        label=f"geometric tail, {tail['rate']:.5f} per card")
ax.axvline(RECORD, color="grey", lw=0.8)
ax.annotate("record", (RECORD, 1e-3), rotation=90, ha="right", color="grey")
ax.set_yscale("log")
ax.set_xlabel("cards played")
ax.set_ylabel("P(game lasts longer)")
ax.set_title(f"{big.n_games:,} two-player deals")
ax.legend();

# %%
checks = sa.tail_extrapolation(big, sa.TAIL_CHECKS, start=0.99)
checks[["length", "seen", "expected", "probability", "deals_to_exceed", "deals_low", "deals_high"]]

# %% [markdown]
# ## Fitted on one band, predicted on the next
#
# A real out-of-sample check: `tail_prediction` fits the tail on the band from its start (the KM quantile
# `start=0.99`) up to a split only (a game longer than the split counts as still going there; nothing it
# did later enters the fit), with one end rate per card and with a log-linear hazard (a rate that drifts
# with length), and predicts how the games still going at the split end over the next band
# (`predict_to=m + 1000` for each split m of `PREDICTION_SPLITS`) and beyond, in cells of `width` cards.
# The G statistic of the seen against the predicted counts is chi-square with `cells - 1` degrees of
# freedom: nothing of the predicted band was fitted.

# %%
from beggarstats.analysis import tail as tail_analysis

predictions = pd.concat([tail_analysis.tail_prediction(big, fit_to=m, predict_to=m + 1000)
                         for m in tail_analysis.PREDICTION_SPLITS], ignore_index=True)
predictions[["model", "fit_from", "fit_to", "predict_to", "at_risk", "ended", "expected", "beyond", "expected_beyond",
             "deviance", "dof", "p_value"]]

# %%
worst = predictions.loc[predictions["p_value"].idxmin()]
Markdown(f"**Reading.** The smallest p-value of the {len(predictions)} predictions is {worst['p_value']:.2f} "
         f"({worst['model']}, fitted on {worst['fit_from']:,.0f}-{worst['fit_to']:,.0f} cards): "
         + ("none is rejected at the 5% level, so within the lengths seen the tail fitted on shorter games "
            "predicts the longer ones." if worst["p_value"] > 0.05 else "a prediction is rejected at the 5% level."))

# %% [markdown]
# ## The record, as the data allow
#
# Beating the record means lasting longer than it: P(length > the record). Beyond the longest game seen
# the data cannot tell apart tail models that predict the games seen equally well. `record_odds`
# says, in order: how far the extrapolation runs beyond the longest game seen, the geometric tails
# fitted beyond each cut (with the games beyond it and that one fit's sampling interval), and
# whether each model passes the out-of-sample test above.

# %%
from beggarstats.analysis.tail import record_odds

odds = record_odds(big)
models = odds["fits"]
models

# %%
geo = models[models["model"] == "geometric"]
hazard = models[models["model"] == "log-linear hazard"].iloc[0]
cuts = "; ".join(f"beyond {r.threshold:,.0f} cards ({r.games:,} games) {r.deals:.2e} [{r.deals_low:.2e}, "
                 f"{r.deals_high:.2e}]" for r in geo.itertuples())
Markdown(f"**Reading.** The record ({odds['record']:,} cards) lies {odds['beyond']:,} cards beyond the longest game "
         f"seen ({odds['longest']:,} cards): every number for it is an extrapolation that far. Random deals to "
         f"expect one longer, by the geometric tail fitted {cuts}: each interval is that fit's sampling error only, "
         f"and it widens as the cut leaves fewer games. The log-linear hazard "
         f"{'passes' if hazard['passes'] else 'fails'} its out-of-sample test and gives {hazard['deals']:.2e} "
         f"[{hazard['deals_low']:.2e}, {hazard['deals_high']:.2e}]. No one row is the answer: the fits agree where "
         f"many games lie beyond the cut and leave the odds open where few do.")

# %% [markdown]
# ## The findings table rows

# %%
findings = pd.concat([sa.scale_findings(s) for s in summaries.values()], ignore_index=True)
findings

# %% [markdown]
# ## The longest games found
#
# Each is replayable from (seed, game). The reference engine (pure Python, independent of the numba
# kernels that produced the summary) replays the longest few here; the tests replay all of them.

# %%
longest = big.to_frame("longest")
replayed = []
for game in longest["game"].head(3):
    deal, r = bs.replay(big.seed, int(game), big.rules, trace=False)
    replayed.append(dict(game=int(game), deal=deal, outcome=r.outcome, winner=r.winner, cards=r.cards, tricks=r.tricks))
pd.DataFrame(replayed).merge(longest[["game", "cards", "tricks"]], on="game", suffixes=("", "_summary"))

# %%
pd.concat([s.to_frame("longest").head(3) for s in summaries.values()], ignore_index=True)

# %% [markdown]
# ## Your own run
#
# Summaries of disjoint ranges of game ids add up exactly, whatever the number of workers or the
# chunking: two halves give the summary of the whole.

# %%
whole = summarize(N_GAMES, seed=SEED, n_jobs=N_JOBS)
halves = summarize(N_GAMES // 2, seed=SEED, n_jobs=N_JOBS) + summarize(
    N_GAMES - N_GAMES // 2, seed=SEED, start=N_GAMES // 2, n_jobs=N_JOBS)
print(whole, "\nthe two halves add up to it:", halves == whole)
whole.to_frame("outcomes")
