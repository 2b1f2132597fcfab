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
# # 09 — The tail from the game's own mechanism
#
# Every trick boundary of a game is a deal: uneven hands and a leader. If a long game's cards at a
# boundary are as good as shuffled given the hand sizes, the tail of game length is the decay of a
# chain on the hand sizes, measured from random uneven deals without a single long game
# (`bs.tail_chain`, docs/tail.md). This notebook reads the chains committed in `data/tail/`
# (`python data/tail/make_chain.py`), holds them to the billion-game run of `data/summary-p2.json`,
# to the census decks and to the longest games themselves, and measures a small chain live.

# %% tags=["parameters"]
from beggarstats.report.notebook_parameters import notebook_games

# Parameters: the committed chains are read, not recomputed. N_GAMES is the number of random uneven
# deals of the small live chain at the end (set BEGGARSTATS_NOTEBOOK_GAMES to run quickly).
N_GAMES = 200_000
SEED = 2026
N_JOBS = -1  # all cores
N_GAMES = notebook_games(N_GAMES)

# %%
import json

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd
from IPython.display import Markdown, display

import beggarstats as bs
from beggarstats.analysis.chain import TailChain, chain_markdown, mixing_test
from beggarstats.run.committed_data import data_path
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import load_cells

results = json.loads(data_path("tail", "results.json").read_text())
chains = {int(h): TailChain.from_cells(load_cells(data_path("tail", f"chain-p2-h{h}.npz"))) for h in results["horizons"]}
sample = pd.read_csv(data_path("tail", "mixing.csv.gz"))
mixing = mixing_test(sample, chains[max(chains)])
big = load_summary(data_path("summary-p2.json"))
print(big)

# %% [markdown]
# ## The chain against the run, the census decks and the long games
#
# The decay rate per card at each horizon beside the run's geometric tail; the games the chain
# expects at long lengths beside those seen; the census decks, where every deal's survival is exact;
# the record odds, each row saying what it is; and the tests of the mixing assumption on the longest
# games of the run (Holm-adjusted, with the difference each could detect).

# %%
display(Markdown(chain_markdown(results, mixing)))

# %% [markdown]
# ## Survival: the chain against the run
#
# The share of standard two-player deals still on after each length: the run's exact counts and the
# chain at each horizon (log scale). The chain falls faster than the run, the more so the shorter its
# horizon.

# %%
x, c = big.frequencies("cards", ("win", "loop", "cutoff"))
lengths = np.arange(0, 4001, 100)
seen = np.array([c[x >= L].sum() for L in lengths]) / big.n_games
fig, ax = plt.subplots(figsize=(7, 4))
ax.semilogy(lengths[seen > 0], seen[seen > 0], "k-", lw=2, label=f"run of {big.n_games:,} games")
for h, ch in chains.items():
    ax.semilogy(lengths, ch._survival_curve(ch.count, lengths), "--", label=f"chain, horizon {h:,} cards")
ax.set_xlabel("cards")
ax.set_ylabel("P(length >= cards)")
ax.legend()
plt.show()

# %% [markdown]
# ## The quasi-stationary split
#
# Where long games spend their trick boundaries according to the chain (the leader's cards), beside
# the splits met in the longest games of the run.

# %%
qsd = chains[max(chains)].quasi_stationary()
real = sample.loc[sample["source"] == "long game", "leader_cards"]
fig, ax = plt.subplots(figsize=(7, 4))
ax.bar(qsd["leader_cards"], qsd["share"], color="0.7", label="chain's quasi-stationary split")
counts = real.value_counts(normalize=True).sort_index()
ax.plot(counts.index, counts.to_numpy(), "o", color="C3", label=f"{len(real):,} points of the longest games")
ax.set_xlabel("the leader's cards at a trick boundary")
ax.set_ylabel("share")
ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.15), ncol=2)
plt.show()

# %% [markdown]
# ## Three to six players
#
# The chains for three and four players (`python data/tail/make_chain_players.py`,
# `data/tail/results-players.json`) held to their runs of `data/summary-p3.json` and `-p4.json` and to
# census decks of three and four players; five and six players are not measured (their cost is in
# docs/tail.md). Then the odds of a game at least twice the longest seen, for three to six players, each row
# saying what it is: the curve-fit extrapolation with the range of the tail models, and the chain only
# where it agrees with its run.

# %%
from beggarstats.analysis.chain_players import odds_markdown, players_markdown

players = json.loads(data_path("tail", "results-players.json").read_text())
display(Markdown(players_markdown(players)))
display(Markdown(odds_markdown(players)))
agree = [f"{p} players, horizon {h}" for p, e in players["players"].items() if "chain" in e
         for h, row in e["chain"]["horizons"].items() if row["agrees"]]
display(Markdown("Chains that agree with their run: " + (", ".join(agree) if agree else
                 "none, so no odds come from a chain for any player count.")))

# %% [markdown]
# ## A richer state: hand sizes and the penalty cards each hand holds
#
# The chain on hand sizes forgets which cards each hand holds. The chain of `bs.tail_chain_cards`
# keeps the penalty cards of each hand as well (`python data/tail/make_chain_cards.py`,
# `data/tail/results-cards.json`). On the census decks its survival is held to the exact one beside
# the hand-size chain's; on the standard deck its decay rate is held to the run's.

# %%
from beggarstats.analysis.chain_cards import cards_markdown

cards = json.loads(data_path("tail", "results-cards.json").read_text())
display(Markdown(cards_markdown(cards, results)))

# %% [markdown]
# ## The search for long deals
#
# The hand-size chains disagree with their runs and give no record odds; the penalty-card chain, held
# to the run by its survival at long lengths, gives a second, mechanism-based estimate beside the
# curve fits, with the allowance its own check asks for (above). What can also be done is to look
# for long deals: `bs.search_long` plays random deals at full engine speed and runs the longest games
# backwards, through the trick-boundary states that lead into them, to the deals that play into them
# (docs/search.md). The runs committed in `data/search/` (`python benchmarks/search.py`), each beside
# the longest that as many random deals give by the tail of the committed run of its player count.

# %%
from beggarstats.analysis.longest import expected_longest

runs = pd.DataFrame.from_dict(json.loads(data_path("search", "runs.json").read_text()), orient="index")
tails = {p: load_summary(data_path(f"summary-p{p}.json")) for p in sorted(runs["players"].unique())}
expected = pd.concat([expected_longest(tails[r.players], r.deals) for r in runs.itertuples()], ignore_index=True)
table = runs[["players", "strategy", "deals", "states", "longest", "cpu_seconds", "stopped"]].copy()
table["random deals would give (5%, mean, 95%)"] = [f"{lo:,.0f}, {m:,.0f}, {hi:,.0f}" for lo, m, hi in
                                                    zip(expected["low"], expected["mean"], expected["high"])]
table

# %% [markdown]
# The longest deal known for each player count, every one replayed here by the reference engine
# (`bs.play`): a deal of this table plays exactly as many cards as it says.

# %%
found = pd.read_csv(data_path("search", "longest.csv"), keep_default_na=False, na_values=[""])
best = (found[found["outcome"] == "win"].sort_values("cards", ascending=False, kind="stable")
        .groupby("players").head(1).sort_values("players"))
best["replayed"] = [bs.play(deal).cards for deal in best["deal"]]
assert (best["replayed"] == best["cards"]).all()
best[["players", "cards", "replayed", "how", "run", "deal"]]

# %% [markdown]
# ## The published deals run back
#
# `bs.run_back(deal)` runs one deal's game back: the longest deal whose game runs into it, or, for a
# deal that never ends, every deal that runs into its loop (docs/search.md). Here on every published
# deal of the standard deck, live, each deal found replayed by the reference engine.

# %%
rows, loops = [], None
for r in bs.load_records():
    if r["deck"] != "standard":
        continue
    back = bs.run_back(r["deal"])
    ends = r["outcome"] == "win"
    top = back.iloc[0] if ends and len(back) else None  # the longest deal found, for a game that ends
    rows.append({"published deal": r["name"], "cards": f"{r['cards']:,}" if ends else "never ends",
                 "states run back": back.attrs["states"], "deals found": len(back),
                 "longest found": "" if top is None else f"{top['cards']:,}",
                 "how": "" if top is None else top["how"], "deal found": "" if top is None else top["deal"]})
    if not ends:
        loops = back
        assert all(bs.play(d).outcome == "loop" for d in back["deal"])
display(pd.DataFrame(rows))
published = pd.read_csv(data_path("search", "published.csv")).set_index("name")
assert len(loops) + 1 == published.loc["Casella et al. 2024", "cards"]
display(Markdown(f"The deal that never ends has {len(loops):,} other deals running into its loop of "
                 f"{int(loops['loop_cards'].iloc[0]):,} cards: {len(loops) + 1:,} with it, the count its published "
                 f"account gives ({published.loc['Casella et al. 2024', 'source']})."))

# %% [markdown]
# ## A small chain, live
#
# The same measurement with `N_GAMES` random uneven deals in all (spread over the states) at the
# shortest horizon, beside the committed one.

# %%
h = min(chains)
live = bs.tail_chain(seed=SEED, n_deals=max(1, N_GAMES // len(chains[h].states)), horizon=h, n_jobs=N_JOBS)
rate = live.decay_rate(replicates=50)
committed = results["horizons"][str(h)]["rate"]
display(Markdown(f"Live chain, {live.n_deals:,} deals per state, horizon {h:,} cards: decay rate "
                 f"{rate['rate']:.5f} per card (95% interval {rate['low']:.5f} to {rate['high']:.5f}); "
                 f"committed chain of {chains[h].n_deals:,} deals per state: {committed[0]:.5f}."))
