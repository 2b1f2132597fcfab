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
# said in red and clears the results below, so that no stale answer stays on screen.
#
# The comparison follows the package's own design. Game *g* of a table is dealt from (seed, *g*) alone,
# and jokers are slipped into the deal without them, so every rule option but the deck (jokers
# included) plays **the very same deals** as the standard game: the explorer compares them paired,
# deal by deal, by the same reduction and rows as `bs.compare` and `beggarstats compare` (paired t
# interval of the length difference, none where the pairs are fewer than the differences' skewness
# needs; Tango's score interval of seat 0's win rate; Holm over the two rows; for jokers also the
# cards played per card dealt). Only another deck deals other games: then the samples are independent
# (Welch and Newcombe intervals), and the comparison says so.
#
# The second part replays one deal: paste a deal, or pick a seed and a game of any table, and step
# through it trick by trick. The widgets need a running kernel: *Run All* (JupyterLab: `jupyter lab
# notebooks/`; without JupyterLab, `beggarstats explore` serves the explorer as a page of its own).
# Until then each panel shows a picture of itself as the notebook was saved, which says so. The cells
# after each panel show, without running anything, what it displays for one choice: they compute it
# with a panel of their own, so that the live panels stay as they start (standard rules; no deal
# replayed yet).

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The common sample-size variable of the notebooks; the explorer starts with half of it (its own
# `games` box changes it). Override with the environment variable BEGGARSTATS_NOTEBOOK_GAMES (the
# tests run every notebook on a small sample).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
from IPython.display import Markdown, display

from beggarstats.report.explore import Explorer, Replayer
from beggarstats.report.explore_compare import holm_level

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


def finding(r, scale=1, unit=" cards"):
    if r.interval == "too skewed for the t interval":
        return f"no interval: the t interval needs {r.pairs_needed:,.0f} pairs at this skewness"
    said = f"95% paired interval {scale * r.low:+.2f} to {scale * r.high:+.2f}{unit}, Holm p {r.p_holm:.2g}: {r.verdict}"
    if r.verdict == "not detected":  # what the test could miss, at the level it was held to
        said += (f"; it could miss a change below ±{scale * r.detectable:.2g}{unit} at 80% power, at Holm's strictest "
                 f"level, 5% over the two rows ({holm_level(r.level)})")
    return said


Markdown(f"""**Reading.** On the same {int(m.n):,} deals, finished under both rules, shuffling the pile changes
the mean length by {m.estimate:+.1f} cards ({finding(m)}), and seat 0's win rate by {100 * w.estimate:+.2f}
percentage points ({finding(w, 100, " pp")}): the numbers `bs.compare` gives for the same seed and size.
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
