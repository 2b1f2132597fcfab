# ---
# jupyter:
#   jupytext:
#     formats: ipynb,py:percent
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#       jupytext_version: 1.19.6
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 03 — Variants: what do the house rules change?
#
# Every variant is compared with the standard game at the same player count: difference in mean
# length and difference in seat 0's win rate. Game *g* of every table is dealt from (seed, g) alone,
# so a variant that keeps the deck and adds no jokers plays **the same deals** as the standard game:
# those comparisons are paired, deal by deal (`beggarstats.report.explore.compare_with_standard`): the paired t
# interval where the pairs are enough for the skewness of their differences (`run.compare.t_sample_size`), else a
# BCa bootstrap; the `interval` column says which (docs/FIGURES.md has the rule and its measured coverage).
# The jokers and the Italian deck (no Aces) deal other games, so theirs are comparisons of independent
# samples (`compare_variants`: Welch and Newcombe intervals). Variants: shuffle the pile, shuffle once
# a loop is seen, one or two super jokers, the Beggar joker, the end conventions (`empty`, `unable`),
# the Italian deck; with three players also the exhausted-tribute rule (`passes_on`) and
# counter-clockwise play. The variants are a family of comparisons, so their p-values are adjusted together (Holm).

# %% tags=["parameters"]
import os

# The 2-player sample size; every variant here gets a quarter of it. Override with the environment
# variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run every notebook on a small sample).
N_GAMES = int(os.environ.get("BEGGARSTATS_NOTEBOOK_GAMES", 200_000))
SEED = 2026
N_JOBS = -1  # all cores
print(f"N_GAMES = {N_GAMES:_}")

# %%
import numpy as np
import pandas as pd
from IPython.display import Markdown
from statsmodels.stats.multitest import multipletests

from beggarstats import Deck, Rules
from beggarstats import analysis as an
from beggarstats import plots
from beggarstats.report.explore import compare_with_standard
from beggarstats.run.simulate import simulate

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)

# %%
two = [Rules(shuffle_pile=True), Rules(shuffle_on_loop=True), Rules(jokers=1), Rules(jokers=2),
       Rules(jokers=1, joker_mode="beggar"), Rules(end="empty"), Rules(end="unable"), Rules(deck="italian")]
three = [Rules(players=3, exhausted_tribute="passes_on"), Rules(players=3, direction="ccw"),
         Rules(players=3, end="empty"), Rules(players=3, end="unable")]
n = max(N_GAMES // 4, 200)
standard = {p: simulate(n, rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS) for p in (2, 3)}
parts = []
for rules in two + three:
    base = Rules(players=rules.players)
    table = compare_with_standard(simulate(n, rules=rules, seed=SEED, n_jobs=N_JOBS), standard[rules.players], rules, base)
    parts.append(table.assign(players=rules.players, rules=rules.name))
effects = pd.concat(parts, ignore_index=True)
effects["p_holm"] = multipletests(effects["p_value"].fillna(1.0), method="holm")[1]
effects = effects[["players", "rules", "metric", "design", "interval", "estimate", "low", "high", "p_value", "p_holm", "n",
                   "value", "baseline_value"]]
effects[effects.metric == "mean_length_diff"].round(3)

# %%
plots.plot_variant_effects(effects);

# %%
effects[effects.metric == "seat0_win_diff"].round(4)

# %%
L = effects[effects.metric == "mean_length_diff"].set_index(["players", "rules"])
real = L[L.p_holm < 0.05].sort_values("estimate")
none = L[L.p_holm >= 0.05]
def effect(key):
    r = L.loc[key]
    return f"{key[1]} ({key[0]} players) {r.estimate:+.1f} cards [{r.low:+.1f}, {r.high:+.1f}]"
W = effects[(effects.metric == "seat0_win_diff") & (effects.p_holm < 0.05)]
loc = standard[2]
Markdown(f"""**Reading ({n:,} games per variant and per standard game).** Against a standard game of
{L.baseline_value.iloc[0]:.1f} cards (2 players), the variants that change the mean length detectably
(Holm-adjusted p < 0.05) are, from the shortest: {"; ".join(effect(k) for k in real.index) or "none"}.
No detectable difference for {", ".join(f"{k[1]} ({k[0]} players)" for k in none.index) or "none"}.
`shuffle_on_loop` cannot differ from the standard game unless a loop occurs{
", and no standard deal looped here: its paired difference is exactly zero on every deal" if L.loc[(2, "shuffle_on_loop"), "estimate"] == 0
else ""}.
{"No variant changes seat 0's win rate detectably." if W.empty else
 "Seat 0's win rate changes detectably under " + ", ".join(f"{r.rules} ({r.estimate:+.3f})" for r in W.itertuples()) + "."}""")

# %% [markdown]
# ## End conventions, deal by deal
#
# The end conventions keep the deck, so each deal can be followed under `trick` and under the other
# convention. The contract says the counts differ by at most a couple of cards; here is the whole
# distribution of the difference (the outer columns collect everything beyond).

# %%
rows = []
for players in (2, 3):
    base = standard[players]
    for end in ("empty", "unable"):
        other = simulate(n, rules=Rules(players=players, end=end), seed=SEED, n_jobs=N_JOBS)
        diff = other["cards"].astype(int).to_numpy() - base["cards"].astype(int).to_numpy()
        bins = pd.cut(diff, [-np.inf, -3, -2, -1, 0, 1, 2, np.inf], right=False,
                      labels=["≤ −3", "−2", "−1", "0", "+1", "+2", "≥ +3"])
        rows.append(dict(players=players, end=end, deals=len(diff), mean_diff=diff.mean(),
                         within_2_cards=float(np.mean(np.abs(diff) <= 2)),
                         same_winner=float(np.mean(other["winner"].astype(float).to_numpy()
                                                   == base["winner"].astype(float).to_numpy())),
                         **pd.Series(bins).value_counts(normalize=True).sort_index().to_dict()))
ends = pd.DataFrame(rows)
ends.round(4)

# %%
def share(k, n):
    low, high = an.wilson_interval(k, n)
    return f"{100 * k / n:.2f}% [{100 * low:.2f}%, {100 * high:.2f}%]"
E = ends.set_index(["players", "end"])
def line(p, e):
    r = E.loc[(p, e)]
    far = round((1 - r.within_2_cards) * r.deals)
    other = round((1 - r.same_winner) * r.deals)
    return (f"with {p} players `end={e}` differs from `trick` by more than two cards in {share(far, int(r.deals))} of "
            f"deals and has another winner in {share(other, int(r.deals))}")
text = "; ".join(line(p, e) for p, e in E.index)
Markdown("**Reading (95% Wilson intervals).** " + text[0].upper() + text[1:] + ". " +
         """Under `trick` a player who plays their last card as a penalty card can still take the pile when the
opponent fails to answer it, and play goes on; under `empty` the game ends the moment that card is played.
With 3 players the conventions also change *who plays next* once someone runs out. The contract's
"a couple of cards" holds deal by deal only where the shares above are zero.""")

# %% [markdown]
# ## Shuffle on loop where loops happen
#
# On a small deck with two Jacks among number cards many random deals loop (notebook 04). There
# `shuffle_on_loop` turns every loop into a finished game:

# %%
small = Deck(10, 2, 0, 0, 0)
rows = []
for rules in (Rules(deck=small), Rules(deck=small, shuffle_on_loop=True)):
    g = simulate(n, rules=rules, seed=SEED, n_jobs=N_JOBS)
    loops = int((g.outcome == "loop").sum())
    low, high = an.wilson_interval(loops, len(g))
    rows.append(dict(rules=rules.name, games=len(g), loop_share=loops / len(g), low=low, high=high,
                     mean_cards_finished=g.cards[g.outcome == "win"].mean()))
pd.DataFrame(rows).round(4)
