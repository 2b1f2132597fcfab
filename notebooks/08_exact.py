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
# # 08 — Exact answers: every deal of a small deck played once
#
# Only the kinds of the cards matter, so a small deck has few enough distinct deals to play every
# one of them (`bs.census`, docs/RULES.md §2 "deals as numbers"). This notebook reads the exact atlas
# committed in `data/census/`, checks it against the published counts for the Italian half deck,
# lists its never-ending deals as cycles, and holds the package's own Monte Carlo intervals to the
# exact values.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The games of each Monte Carlo sample in the coverage section are N_GAMES // 200; SAMPLES is the number
# of samples, CYCLE_DECKS the number of looping decks (the smallest) whose cycles are seen on the seats
# left in. Override N_GAMES with the environment variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run
# every notebook on a small sample, and set the other two smaller as papermill sets a parameter).
N_GAMES = 200_000
SAMPLES = 200
CYCLE_DECKS = 2
N_GAMES = notebook_games(N_GAMES)

# %%
import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
import seaborn as sns
from IPython.display import Markdown

import beggarstats as bs
from beggarstats.analysis.coverage import interval_coverage
from beggarstats.analysis.exact import exact_loop_share
from beggarstats.report.atlas import census_file, deck_markdown, load_atlas
from beggarstats.run.census import census
from beggarstats.run.committed_data import data_path
from beggarstats.run.cycles import loop_cycles
from beggarstats.run.summary import load_summary

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 24)
atlas = pd.read_csv(data_path("census", "atlas.csv"))
censuses = load_atlas()
atlas[["players", "deck", "deals", "loops", "cycles", "seat0_share", "mean_cards", "sd_cards", "max_cards",
       "longest_rank"]]

# %% [markdown]
# ## The published checks: the Italian half deck
#
# Gentilini counted the deals of the Italian half deck (number cards and two each of J, Q, K,
# no Aces) for two players, how many never end, and, under the "empty" end convention, the most
# frequent length.

# %%
italian = load_summary(census_file(2, (14, 2, 2, 2, 0), "trick"))
empty = load_summary(census_file(2, (14, 2, 2, 2, 0), "empty"))
lengths, counts = empty.frequencies("cards", ("win", "loop", "cutoff"))
Markdown(f"""**Reading.** The census plays all {italian.n_games:,} deals of the Italian half deck; exactly
{italian.outcomes[1]} of them never end. Under `end="empty"` the most frequent length is
{lengths[np.argmax(counts)]} cards, reached by {counts.max():,} deals. Both are Gentilini's published
figures (`tests/run/test_census.py` checks them with a fresh census).""")

# %%
deals, cycles = loop_cycles(italian)
display(deals)
cycles

# %%
c = cycles.iloc[0]
Markdown(f"""**Reading.** The {len(deals)} never-ending deals fall into {len(cycles)} distinct
cycle{'s' if len(cycles) != 1 else ''}. The first has a period of {c.tricks} tricks ({c.cards} cards) and
is reached by {c.deals} deals; {'after half a period the seats have exchanged their hands' if c.half_swap
else 'it is not a seat swap'}.""")

# %% [markdown]
# ## The atlas: how often small decks never end, exactly

# %%
share = exact_loop_share(censuses)
share["family"] = [f"{'one' if s.rules.deck.jacks == 1 else 'two'} of each penalty card"
                   for s in censuses]
share = share[share["deck"].str.endswith(("/1/1/1/1", "/2/2/2/2"))]
fig, ax = plt.subplots(figsize=(9, 4))
# one marker per deck, not joined: each size is its own deck, and the share jumps between them
sns.scatterplot(data=share.assign(percent=100 * share["loop_share"]), x="n_cards", y="percent", hue="family",
                style="players", ax=ax)
sns.move_legend(ax, "upper left", bbox_to_anchor=(1.02, 1))
ax.set(xlabel="cards in the deck", ylabel="deals that never end (%, exact)",
       title="Never-ending deals by deck size: every deal played once (one marker per deck)")
fig.tight_layout();

# %%
top = share.loc[share["loop_share"].idxmax()]
none = share[share["loops"] == 0]
Markdown(f"""**Reading.** Every point is a census, not an estimate. The largest share of never-ending
deals is {top.loop_share:.3%} ({top.loops:,} of {top.deals:,} deals) for the {top.deck} deck with
{top.players} players; {len(none)} of the {len(share)} decks have no never-ending deal at all.""")

# %%
two = atlas[(atlas.players == 2) & (atlas.jacks == 1) & (atlas.queens == 1) & (atlas.kings == 1) & (atlas.aces == 1)]
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(two.numbers + 4, two.seat0_share, marker="o")
ax.axhline(0.5, color="grey", lw=0.8)
ax.set(xlabel="cards in the deck (one of each penalty card)", ylabel="seat 0's exact win share",
       title="Two players: the exact advantage of leading");

# %%
some = two[two.numbers >= 1]
odd, even = some[(some.numbers + 4) % 2 == 1], some[(some.numbers + 4) % 2 == 0]
Markdown(f"""**Reading.** With one of each penalty card (and at least one number card), seat 0's exact share
of the decided deals swings with the parity of the deck: with an odd number of cards seat 0 is dealt the
extra card and wins between {odd.seat0_share.min():.4f} and {odd.seat0_share.max():.4f}; with an even
number, between {even.seat0_share.min():.4f} and {even.seat0_share.max():.4f}. The swing narrows as the
deck grows: at the largest deck of each parity the shares are {odd.seat0_share.iloc[-1]:.4f} and
{even.seat0_share.iloc[-1]:.4f}.""")

# %% [markdown]
# ## Three and four players, two of each penalty card
#
# The family of the standard half deck dealt to three and four players: how often a deal never ends,
# beside two players with the same deck, and what the never-ending deals do once they loop. Each cycle
# is seen on the seats still in the game and compared with the cycles of the two-player game of the
# same deck (`seats_in_view`; `tests/report/test_atlas.py` does it for every deck, this cell for the smallest
# decks that loop).

# %%
from beggarstats.run.cycles import seats_in_view

many = atlas[(atlas.players > 2) & (atlas.jacks == 2) & (atlas.queens == 2) & (atlas.kings == 2) & (atlas.aces == 2)]
family = atlas[(atlas.jacks == 2) & (atlas.queens == 2) & (atlas.kings == 2) & (atlas.aces == 2)
               & (atlas.numbers <= many.numbers.max())]
fig, ax = plt.subplots(figsize=(7, 4))
sns.lineplot(data=family.assign(loops_per_million=1e6 * family.loop_share, players=family.players.astype(str)),
             x="numbers", y="loops_per_million", hue="players", style="players", markers=True, ax=ax)
ax.set(xlabel="number cards (and two each of J, Q, K, A)", ylabel="never-ending deals per million (exact)",
       title="Two of each penalty card: never-ending deals by players")
ax.xaxis.set_major_locator(plt.MaxNLocator(integer=True));
family.pivot(index="numbers", columns="players", values="loops")

# %%
looping = sorted(many[many.loops > 0].numbers.unique())[:CYCLE_DECKS]
views = {(p, k): seats_in_view(load_summary(census_file(p, (k, 2, 2, 2, 2), "trick")),
                               load_summary(census_file(2, (k, 2, 2, 2, 2), "trick")))
         for p in (3, 4) for k in looping}
seen = pd.concat([v.assign(players=p, numbers=k) for (p, k), v in views.items()])
seen.groupby(["players", "numbers"]).agg(cycles=("cycle", "size"), deals=("deals", "sum"),
                                         seats_in=("seats_in", "max"), two_player_cycle=("in_fewer", "all"))

# %%
by_k = family.pivot(index="numbers", columns="players", values="loops")
only_two = [k for k in by_k.index if by_k.loc[k, 2] > 0 or (by_k.loc[k, [3, 4]] == 0).all()]  # no loop without two
ratio = (by_k[[3, 4]].div(by_k[2], axis=0))[by_k[2] > 0]
Markdown(f"""**Reading.** With two of each penalty card, three and four players have between {ratio.min().min():.2f} and
{ratio.max().max():.2f} times as many never-ending deals as two players with the same deck (where two players have any):
{", ".join(f"{by_k.loc[k, 3]:,} and {by_k.loc[k, 4]:,} deals for three and four players against {by_k.loc[k, 2]:,} for two with {k} number cards" for k in by_k.index if by_k.loc[k].max() > 0)}.
In the decks of {" and ".join(map(str, looping))} number cards, every one of the {len(seen):,} distinct cycles of three and four
players has {"exactly two" if (seen.seats_in == 2).all() else "more than two"} players left in the game, and
{"every one" if seen.in_fewer.all() else "not every one"} of them, seen on those two, is a cycle of the two-player game of the same
deck: there a deal of three or four players never ends only by leaving two players in a two-player loop.
{"Every" if len(only_two) == len(by_k) else "Not every"} deck of the atlas that loops
with three or four players loops with two.""")

# %% [markdown]
# ## The standard half deck
#
# The standard half deck (two each of J, Q, K, A, padded with number cards to half the standard deck)
# for two players: the first exact table of it, from the census in `data/census/`
# (`data/census/runtimes.csv` holds the time it took, on a quiet machine and on a shared one).

# %%
half = load_summary(census_file(2, (18, 2, 2, 2, 2), "trick"))
runtimes = pd.read_csv(data_path("census", "runtimes.csv"))
runs = runtimes[runtimes.file == census_file(2, (18, 2, 2, 2, 2), "trick").name].set_index("machine")
quiet, shared = runs.loc["quiet"], runs.loc["shared"]
Markdown(deck_markdown(2, (18, 2, 2, 2, 2)) + f"""

**Reading.** All {half.n_games:,} deals of the standard half deck were played once: in
{quiet.wall_seconds / 60:.1f} minutes wall ({quiet.cpu_seconds / 60:.1f} CPU-minutes, {quiet.jobs} threads) on this
2-core machine started with nothing else running (package installs shared its first minutes), and in {shared.wall_seconds / 60:.1f} minutes wall
({shared.cpu_seconds / 60:.1f} CPU-minutes) while other work shared it; {half.n_games / quiet.cpu_seconds / 1e6:.2f}
million deals per CPU-second.
{"None of them loops: the half deck has no cycle." if half.outcomes[1] == 0 else f"{int(half.outcomes[1]):,} of them never end."}
The longest lasts {int(half.longest["cards"][0]):,} cards (rank {int(half.longest["game"][0]):,}:
`{bs.format_deal(bs.deal_at(int(half.longest["game"][0]), half.rules))}`).""")

# %% [markdown]
# ## The Monte Carlo held to the truth
#
# Independent samples of random games from a deck whose census is known; on each, the package's own
# 95% intervals (Wilson for a seat's win rate, t for the mean length, Clopper-Pearson for the loop
# share, the Poisson GLM for the tail's end rate beyond the median length, the log-log band of the
# survival curve at three lengths, and the paired t interval of the mean length difference between
# `end="trick"` and `end="empty"` on the same deals); how often each contains the exact value, with a
# Clopper-Pearson interval on that coverage.

# %%
truth = load_summary(census_file(2, (7, 2, 2, 2, 2), "trick"))
coverage = interval_coverage(truth, samples=SAMPLES, games=max(50, N_GAMES // 200),
                             variant=truth.rules.replace(end="empty"))
coverage

# %%
inside = coverage[(coverage.low <= 0.95) & (0.95 <= coverage.high)]
Markdown(f"""**Reading.** Over {SAMPLES} samples of {max(50, N_GAMES // 200):,} games of the {truth.rules.deck.label()}
deck, the coverage of the nominal 95% intervals is """
         + ", ".join(f"{r.coverage:.1%} [{r.low:.1%}, {r.high:.1%}] for the {r.quantity}"
                     if r.samples else f"none counted for the {r.quantity} (every sample had fewer pairs than the "
                     "t interval needs at its skewness, and the package refuses the interval there)"
                     for r in coverage.itertuples())
         + f"; the nominal level lies inside the interval for {len(inside)} of the {len(coverage)} quantities. "
         "The loop share's Clopper-Pearson interval is exact, hence conservative: it covers at least the nominal "
         "level by construction, the more so for a rare event; a coverage interval lying wholly above the nominal "
         "level marks an interval that is wider than it needs to be, one wholly below it an interval too narrow.")
