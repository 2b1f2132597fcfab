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
# # 03 — Variants: what do the house rules change?
#
# Every variant is compared with the standard game at the same player count, 2-6 players: the change
# in mean length and in seat 0's win rate. Game *g* of every table is dealt from (seed, g) alone, so a
# variant plays **the same deals** as the standard game; jokers are slipped into the standard deal
# (docs/RULES.md, random streams), so they too are compared deal by deal (paired). The answer comes from
# the committed paired runs (`data/compare_variants.py`), the same table
# as the figure, findings.csv and the README (`beggarstats.report.variant_data.variant_table` with the
# verdicts of `figures/findings.csv`): paired t for the length, Tango's score interval for seat 0's win
# rate, Holm over the one family of the findings (every test of an effect there; a row whose pairs never
# differ is an exact statement, "identical in every pair", outside it), and for each row the smallest
# change it could detect with the power of `beggarstats.report.findings.POWER` at that family's
# strictest level (column `level`: the family-wise level over the family's size).
# `beggarstats compare --players 2-6` reruns it at any size. The later sections play small samples.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The 2-player sample size; every variant here gets a quarter of it. Override with the environment
# variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run every notebook on a small sample).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import numpy as np
import pandas as pd
from IPython.display import Markdown

from beggarstats import Deck, Rules
from beggarstats import analysis as an
from beggarstats import plots
from beggarstats.report.findings import read_findings
from beggarstats.report.variant_data import (draw_variant_figure, joker_sentence, rule_sentence, shuffle_sentences,
                                             variant_table)
from beggarstats.run.committed_data import findings_path
from beggarstats.run.simulate import simulate

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)

# %%
# the committed paired runs (data/, installed with the package), with the verdicts of the findings' Holm
# family (figures/findings.csv, installed with them)
effects = variant_table(findings=read_findings(findings_path()))
columns = ["variant", "players", "pairs", "estimate", "low", "high", "p_value", "p_holm", "verdict", "detectable",
           "level"]
effects[effects.metric == "mean_length_diff"][columns + ["per_card"]].round(4)

# %%
with plots.theme():
    draw_variant_figure(effects);

# %%
effects[effects.metric == "seat0_win_diff"][columns + ["discordant"]].round(5)

# %%
Markdown("**Reading (the committed paired runs).** Does shuffling the won pile speed the game up, as the rule "
         "text says? " + " ".join(shuffle_sentences(effects)) + " " + joker_sentence(effects) + " "
         + rule_sentence(effects))

# %% [markdown]
# ## End conventions, deal by deal
#
# The end conventions keep the deck, so each deal can be followed under `trick` and under the other
# convention. The contract says the counts differ by at most a couple of cards; here is the whole
# distribution of the difference (the outer columns collect everything beyond).

# %%
n = max(N_GAMES // 4, 200)
standard = {p: simulate(n, rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS) for p in (2, 3)}
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
