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
# # 06 — Matches: how long, and does seat 0 keep its edge?
#
# A **match** is several rounds at one table; the deal rotates clockwise after every round, so the
# first leader moves one seat on (choices in `docs/MATCHES.md`). Seat 0 sits left of the
# first dealer and leads the first round. In a single game the leader has a measurable edge or
# handicap (notebook 02); the rotation spreads the lead round the table, but seat 0 still leads the
# first round and — for a short match — more rounds than the others. Does that leave seat 0 an edge
# over a *whole* match?
#
# Formats: `first_to_2` (= `best_of_3` with two players) and `first_to_3` (= `best_of_5` with two
# players), for 2-6 players, standard rules; rounds without a winner (loops) are replayed. `best_of_3`
# with three or more players can end in a draw; its draw rate is shown at the end. Every number in the text is
# computed from this run, and whether an edge is called real depends on this run's p-values.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The common sample-size variable of the notebooks; this one plays N_GAMES // 20 matches per player
# count and format. Override with the environment variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run
# every notebook on a small sample).
N_GAMES = 200_000
SEED = 2024
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import matplotlib.pyplot as plt
import pandas as pd
import seaborn as sns
from IPython.display import Markdown
from statsmodels.stats.multitest import multipletests

from beggarstats.analysis.intervals import z_value
from beggarstats.analysis.match_stats import first_leader_edge, leader_round_rates, match_seat_rates, match_summary
from beggarstats.analysis.variants import detectable_effect
from beggarstats.run.matches import simulate_matches
from beggarstats.game.rules import Rules

pd.set_option("display.width", 200)
pd.set_option("display.max_columns", 30)

N_MATCHES = max(N_GAMES // 20, 100)
PLAYERS = range(2, 7)
FORMATS = ("first_to_2", "first_to_3")
frames, round_frames = [], []
for fmt in FORMATS:
    for p in PLAYERS:
        df, rounds = simulate_matches(N_MATCHES, rules=Rules(players=p), format=fmt, seed=SEED,
                                      n_jobs=N_JOBS, return_rounds=True)
        frames.append(df)
        round_frames.append(rounds.assign(players=p, format=fmt))
matches = pd.concat(frames, ignore_index=True)
rounds = pd.concat(round_frames, ignore_index=True)
matches.groupby(["format", "players"]).size().unstack()

# %% [markdown]
# ## How long does a match last?
#
# `rounds` counts dealt rounds, replays included; `cards` is the total of cards played over the whole
# match. Intervals are 95% t intervals of the mean.

# %%
length = match_summary(matches, by=("players", "format"))
length[["format", "players", "matches", "rounds_mean", "rounds_low", "rounds_high", "rounds_median",
        "rounds_p90", "rounds_max", "unfinished_rounds", "cards_mean", "cards_low", "cards_high"]].round(3)

# %%
fig, axes = plt.subplots(1, 2, figsize=(11, 4))
# its 95% intervals are bootstrapped: seeded, the same picture every run
sns.pointplot(data=matches, x="players", y="rounds", hue="format", errorbar=("ci", 95), seed=SEED, ax=axes[0])
axes[0].set(ylabel="dealt rounds per match (mean, 95% CI)")
sns.boxplot(data=matches, x="players", y="cards", hue="format", showfliers=False, ax=axes[1])
axes[1].set(ylabel="cards played per match")
fig.tight_layout()

# %%
ln = length.set_index(["format", "players"])
def means(fmt):
    return ", ".join(f"{ln.loc[(fmt, p), 'rounds_mean']:.2f}" for p in PLAYERS)
half = ((ln.rounds_high - ln.rounds_low) / 2).max()
replays = int(ln.unfinished_rounds.sum())
Markdown(f"""**Reading ({N_MATCHES:,} matches per row).** Mean dealt rounds for 2–6 players (95% intervals within
±{half:.2f}): first to 2 — {means("first_to_2")}; first to 3 — {means("first_to_3")}. Cards per match range from
{ln.cards_mean.min():,.0f} (2 players, first to 2) to {ln.cards_mean.max():,.0f} (6 players, first to 3).
{"No round looped in any of the " + f"{len(rounds):,}" + " rounds played, so the replay rule never fired."
 if replays == 0 else f"{replays} rounds looped and were replayed."}""")

# %% [markdown]
# ## Does seat 0 keep an edge over a whole match?
#
# Match-win rate of every physical seat among matches with a winner, with 95% Wilson intervals; the
# dashed line is the fair share 1/n. `first_leader_edge` gives seat 0's rate minus 1/n with its
# interval and a two-sided binomial test; the p-values of all its rows (every player count and format)
# are adjusted together (Holm).

# %%
rates = match_seat_rates(matches, by=("players", "format"))
g = sns.FacetGrid(rates, col="format", height=3.6, aspect=1.4)
def _seats(data, **kw):
    ax = plt.gca()
    for p, sub in data.groupby("players"):
        ax.errorbar(sub["seat"] + (p - 4) * 0.06, sub["rate"], yerr=[sub["rate"] - sub["low"], sub["high"] - sub["rate"]],
                    fmt="o", ms=4, capsize=2, label=f"{p} players")
        ax.hlines(1 / p, -0.3, p - 0.7, linestyles="dashed", lw=0.8, color="grey")
g.map_dataframe(_seats)
g.set_axis_labels("physical seat (seat 0 leads round 1)", "match-win rate (95% Wilson)")
g.axes.flat[-1].legend(fontsize=8)
edge = first_leader_edge(matches, by=("players", "format"))
edge["p_holm"] = multipletests(edge["p_value"], method="holm")[1]
# the smallest edge each row detects at 80% power at Holm's strictest level (0.05 over the rows)
edge["detectable"] = detectable_effect((edge["high"] - edge["low"]) / (2 * z_value(0.95)), alpha=0.05 / len(edge))
edge[["format", "players", "games", "rate", "expected", "advantage", "low", "high", "p_value", "p_holm"]].round(4)

# %%
real = edge[edge.p_holm < 0.05]
raw = edge[(edge.p_value < 0.05) & (edge.p_holm >= 0.05)]
def rows(frame):
    return "; ".join(f"{r.players} players, {r.format}: {r.advantage:+.4f} [{r.low:+.4f}, {r.high:+.4f}], p = {r.p_value:.2g}"
                     for r in frame.itertuples())
Markdown((f"**Seat 0 over a whole match.** After the Holm adjustment over the {len(edge)} rows, "
          + (f"seat 0's match-win rate differs from 1/n in: {rows(real)}." if len(real) else
             "no row shows seat 0 winning more or less often than 1/n: this run supports no match edge.")
          + (f" Where no edge is detected, the run could miss an edge of up to ±{edge.loc[edge.p_holm >= 0.05, 'detectable'].max():.4f} "
             f"at 80% power at Holm's strictest level 0.05/{len(edge)}." if (edge.p_holm >= 0.05).any() else "")
          + (f" Unadjusted, {rows(raw)} would pass p < 0.05 — not enough among {len(edge)} comparisons." if len(raw) else "")
          + " The two formats share deals (round r of match m is the same deal in both), so their rows are not independent."))

# %% [markdown]
# ### The same question one round at a time
#
# In every round the *leader* of that round has the single-game first-player edge or handicap. The
# rotation hands the lead on, so over a match each seat gets it in turn — seat 0 first. The table
# shows how often the round's leader wins a round (95% Wilson). The formats share deals, so one
# format's rounds are used: `first_to_3` plays a superset of the rounds of `first_to_2`.

# %%
lead = leader_round_rates(rounds[rounds["format"] == FORMATS[-1]], by=("players",))
lead.round(4)

# %%
def leader(r):  # each row's own 95% interval, so each row's own level: two-sided 5%
    missed = detectable_effect((r.high - r.low) / (2 * z_value(0.95)))
    where = ("above" if r.low > r.expected else "below" if r.high < r.expected else
             f"it could miss ±{missed:.4f} at 80% power, two-sided 5%: not distinguishable from")
    return f"{r.players} players {r.rate:.4f} [{r.low:.4f}, {r.high:.4f}] ({where} the fair {r.expected:.4f})"
Markdown("**Reading.** Round leaders win: " + "; ".join(leader(r) for r in lead.itertuples()) + ". "
         "With 3 players the leader of a round is also the one seat dealt an extra card (a 52-card deck), so lead "
         "and extra card cannot be told apart.")

# %% [markdown]
# ## `best_of_3` with three or more players can be a draw
#
# `best_of_3` means at most three counted rounds: with three or more players one round to each of three
# seats is a draw (no winner). For "play on until someone has two rounds" use `first_to_2` (above).

# %%
bo3 = pd.concat([simulate_matches(N_MATCHES, rules=Rules(players=p), format="best_of_3", seed=SEED, n_jobs=N_JOBS)
                 for p in PLAYERS], ignore_index=True)
draws = match_summary(bo3, by=("players",))[["players", "matches", "won", "drawn", "rounds_mean"]].assign(
    draw_rate=lambda d: (d["drawn"] / d["matches"]).round(4))
draws

# %% [markdown]
# Who wins those short matches? With three or more players the three rounds of `best_of_3` do not go
# round the table evenly — and neither do the deals' extra cards: when the player count does not divide
# the deck, the first seats after the dealer get one card more, and the deal rotates.

# %%
bo3_rates = match_seat_rates(bo3, by=("players",))
bo3_rates.pivot(index="seat", columns="players", values="rate").round(4)

# %%
d = draws.set_index("players")
off = bo3_rates[(bo3_rates.high < bo3_rates.expected) | (bo3_rates.low > bo3_rates.expected)]
Markdown(f"""**Reading.** Draws in best of 3: {", ".join(f"{100 * d.loc[p, 'draw_rate']:.0f}% ({p} players)" for p in PLAYERS if p > 2)}.
Among decided matches, the seats whose 95% interval excludes the fair share 1/n are: {
"; ".join(f"{r.players} players, seat {r.seat}: {r.rate:.3f} [{r.low:.3f}, {r.high:.3f}] (fair {r.expected:.3f})" for r in off.itertuples())
or "none"} — {len(off)} of {len(bo3_rates)} seat rates, each tested once without adjustment, so read single
rows with care. {"In the first-to-K matches above, long enough for the deal to go round, no seat-0 edge survived the adjustment."
if real.empty else ""}""")
