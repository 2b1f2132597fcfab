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
# # 04 — Records and never-ending deals
#
# The curated record table (`beggarstats/data/records.csv`) replayed by the reference engine; the
# longest known game trick by trick; the cycle of the first known never-ending deal; and how often
# random deals loop when the deck is small.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# The 2-player sample size; every small deck below gets a tenth of it. Override with the environment
# variable BEGGARSTATS_NOTEBOOK_GAMES (the tests run every notebook on a small sample).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import matplotlib.pyplot as plt
import pandas as pd
from IPython.display import Markdown

from beggarstats import Rules, play
from beggarstats import analysis as an
from beggarstats import plots
from beggarstats.report.figures import small_decks
from beggarstats.run.records import load_records, replay_records
from beggarstats.run.simulate import simulate

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)

# %%
table = pd.DataFrame([{"name": r["name"], "match": r["match"], **{f"published {k}": v for k, v in r["published"].items()},
                       "cards": r["computed"]["cards"], "tricks": r["computed"]["tricks"],
                       "outcome": r["computed"]["outcome"]} for r in replay_records()])
table

# %%
Markdown(f"{'Every' if table['match'].all() else 'Not every'} published figure is reproduced "
         f"(`match` is True on {int(table['match'].sum())} of {len(table)} rows).")

# %%
deals = {r["name"]: r["deal"] for r in load_records()}
wins = table[table.outcome == "win"]
longest = wins.loc[wins.cards.idxmax()]
game = play(deals[longest["name"]], trace=True)
fig = plots.card_count_timeline(game, x="tricks")
fig.axes[0].set_title(f"{longest['name']}: {longest.cards} cards, {longest.tricks} tricks");

# %%
sizes = pd.DataFrame([t.hand_sizes for t in game.trace])
lead_changes = int((sizes[0] > sizes[1]).astype(int).diff().abs().sum())
Markdown(f"""**Reading.** The longest known game, {longest['name']}, is a long tug of war: the lead in cards
changes hands {lead_changes} times over {game.tricks} tricks before seat {game.winner} wins; seat 0 holds
between {sizes[0].min()} and {sizes[0].max()} cards along the way.""")

# %%
loops = table[table.outcome == "loop"]
first_loop = loops.iloc[0]["name"]
cycle = play(deals[first_loop], trace=True)
fig = plots.loop_cycle(cycle, x="tricks")

# %%
plots.loop_cycle(cycle, x="cards");

# %%
Markdown(f"""**Reading.** {first_loop}: after {cycle.loop_start_tricks} tricks ({cycle.loop_start_cards} cards) the deal
enters a cycle of {cycle.loop_tricks} tricks ({cycle.loop_cards} cards), and the state after trick
{cycle.loop_start_tricks + cycle.loop_tricks} ({cycle.loop_start_cards + cycle.loop_cards} cards) equals the state after
trick {cycle.loop_start_tricks}: the game never ends.""")

# %% [markdown]
# ## How often do random deals loop?
#
# Under the standard rules, essentially never in a feasible sample (notebook 01 counts them). On small
# decks it is another story — but it depends on the mix of penalty cards and on the deck size in an
# irregular way. Three families: the standard mix scaled down (the standard deck's share of penalty
# cards, J Q K A in turn), exactly two Jacks, and one Jack plus one Queen, padded with number cards.

# %%
rows = []
for family, size, deck in small_decks():
    g = simulate(max(N_GAMES // 10, 500), rules=Rules(deck=deck), seed=SEED, n_jobs=N_JOBS)
    k = int((g.outcome == "loop").sum())
    low, high = an.wilson_interval(k, len(g))
    rows.append(dict(family=family, size=size, deck=deck.label(), games=len(g), loop_share=k / len(g),
                     low=low, high=high))
small = pd.DataFrame(rows)
small.pivot(index="size", columns="family", values="loop_share").round(4)

# %%
fig, ax = plt.subplots(figsize=(7, 4))
for family, part in small.groupby("family", sort=False):
    ax.errorbar(part["size"], 100 * part["loop_share"], fmt="o-", capsize=3, label=family,
                yerr=[100 * (part["loop_share"] - part["low"]), 100 * (part["high"] - part["loop_share"])])
ax.set_xlabel("cards in the deck"); ax.set_ylabel("deals that loop (%)"); ax.legend();

# %%
def pct(x):
    return f"{100 * x:.1f}%" if x >= 0.001 or x == 0 else f"{100 * x:.3f}%"
def family_text(family):
    part = small[small.family == family].sort_values("loop_share", ascending=False)
    top = part.iloc[0]
    if top.loop_share == 0:
        return f"*{family}*: no deal looped at any size (upper bounds at most {100 * part.high.max():.2f}%)"
    never = sorted(part[part.loop_share == 0]["size"])
    return (f"*{family}*: most at {top['size']} cards ({pct(top.loop_share)} [{pct(top.low)}, {pct(top.high)}])"
            + (f", none at {', '.join(map(str, never))} cards" if never else ""))
top = small.loc[small.loop_share.idxmax()]
Markdown(f"""**Reading ({int(small.games.iloc[0]):,} random deals per deck, 95% Wilson intervals).** """
         + "; ".join(family_text(f) for f in small.family.unique()) + f""". Over all the decks tried, the
{top['size']}-card deck with {top.family} loops most often: {pct(top.loop_share)} of its deals.
The share does not fall steadily with the deck size: it jumps between neighbouring sizes, as the table shows.""")
