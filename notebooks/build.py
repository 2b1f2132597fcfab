"""Write notebooks 01-05 (run: python notebooks/build.py). Notebook 06 has its own builder.

The notebooks are committed without outputs; every one reads its sample size from the environment
variable BEGGARSTATS_NOTEBOOK_GAMES (tests run them with a few thousand games).
"""

from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).parent

PARAMS = """import os

# Parameters: the 2-player sample size (other runs are fractions of it). Set
# BEGGARSTATS_NOTEBOOK_GAMES to run quickly; `beggarstats figures` uses 4_000_000.
N_GAMES = int(os.environ.get("BEGGARSTATS_NOTEBOOK_GAMES", {default}))
SEED = 2026
N_JOBS = -1  # all cores"""

SETUP = """import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from beggarstats import Deck, Rules
from beggarstats import analysis as an
from beggarstats import plots
from beggarstats.simulate import simulate

pd.set_option("display.width", 160)
pd.set_option("display.max_columns", 20)"""

FULL_RUN = ("The numbers quoted in the text are from the full run of `beggarstats figures` (4 M two-player "
            "games, see `docs/FIGURES.md` and `figures/findings.md`); the cells print the estimates of "
            "*this* run, whose intervals are wider when `N_GAMES` is smaller.")


def notebook(cells, default=1_000_000):
    nb = new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    first, rest = cells[0], cells[1:]
    nb.cells = [first, new_code_cell(PARAMS.format(default=f"{default:_}")), new_code_cell(SETUP)] + rest
    for i, cell in enumerate(nb.cells):
        cell["id"] = f"cell-{i:02d}"  # stable ids: rebuilding leaves unchanged notebooks unchanged
    return nb


md, code = new_markdown_cell, new_code_cell

game_length = notebook([
    md("""# 01 — How long is a game of Beggar-My-Neighbour?

Random deals under the standard rules (docs/RULES.md), 2 to 6 players. Length is counted in **cards
played onto the pile** (and in tricks). Three questions: what is the typical length, how long is the
tail, and does the tail decay geometrically — a constant chance per card that the game ends?

""" + FULL_RUN),
    code("""PLAYERS = range(2, 7)
games = pd.concat([simulate(N_GAMES if p == 2 else N_GAMES // 4, rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS)
                   for p in PLAYERS], ignore_index=True)
games.groupby("players", observed=True)["outcome"].value_counts().unstack()"""),
    md("""## Typical length

`length_summary` gives the mean with a 95% t interval and quantiles, over finished games (a loop's
count is where it was found and is not a length). No game looped in the full run: under the standard
rules never-ending deals exist (notebook 04) but are far too rare to meet by chance."""),
    code("""an.length_summary(games, by="players").round(2)"""),
    code("""an.length_summary(games, measure="tricks", by="players").round(2)"""),
    code("""fig = plots.plot_lengths(games, hue="players")
fig.axes[0].set_xlim(0, np.quantile(games["cards"], 0.995));"""),
    md("""**Reading.** In the full run a 2-player game lasts on average 254.6 cards (95% interval
254.4-254.8) or 35 tricks; each extra player adds length with shrinking steps: 332, 373, 397 and
414 cards for 3-6 players (intervals about ±0.6 card). The distribution is strongly right-skewed:
the 2-player median is 192 cards, 1% of games run past 997 cards (five times the median), and the
longest of 4 M random games took 3112 cards — far from the record deal's 8344."""),
    md("""## The tail: survival and its decay rate

Kaplan-Meier survival P(length > x) with Greenwood bands; loops and cut-offs (none here) would be
censored. On a log scale a geometric tail is a straight line."""),
    code("""plots.plot_survival(games, hue="players");"""),
    code("""an.tail_rate(games, by="players")"""),
    md("""**Reading.** Beyond the median the curves are close to straight on the log scale: past that
point a game ends with a roughly constant probability per card — the `rate` column (maximum
likelihood, censoring-aware, 95% Wald interval). Full run: 0.00486 per card with 2 players
(0.00485-0.00487), 0.0046-0.0047 with 3-6; so a game that has gone long lasts on average about
another 205-215 cards, whatever its length so far, and the survivors halve every ~140-150 cards
(`half_life`). The slope estimate (`method='slope'`) is the classic picture but its interval is too
narrow:"""),
    code("""an.tail_rate(games, by="players", method="slope")"""),
])

seat_advantage = notebook([
    md("""# 02 — Is the deal fair between seats?

Seat 0 leads the first trick. Does leading help? We estimate every seat's win rate with a Wilson
interval, test it against 1/n (binomial, and a chi-square across seats), and report seat 0's edge.

How many games are needed? A Wilson half-width of 0.05 percentage points at p ≈ 0.5 needs
n ≈ (1.96 · 0.5 / 0.0005)² ≈ 3.8 M games — the size of the full run.

""" + FULL_RUN),
    code("""PLAYERS = range(2, 7)
games = pd.concat([simulate(N_GAMES if p == 2 else N_GAMES // 4, rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS)
                   for p in PLAYERS], ignore_index=True)
rates = an.seat_win_rates(games, by="players")
rates.round(5)"""),
    code("""plots.plot_seat_win_rates(rates);"""),
    code("""an.seat_fairness_test(games, by="players")"""),
    code("""adv = an.first_player_advantage(games, by="players")
adv.assign(**{c: 100 * adv[c] for c in ("rate", "advantage", "low", "high")}).round(3)  # percent"""),
    code("""# Half-width of the 2-player interval in percentage points, and the games it rests on.
two = rates[(rates.players == 2) & (rates.seat == 0)].iloc[0]
print(f"seat 0 of 2: {100 * two.rate:.3f}% [{100 * two.low:.3f}%, {100 * two.high:.3f}%], "
      f"half-width {100 * (two.high - two.low) / 2:.3f} pp over {two.games:,} games")"""),
    md("""**Reading.** With 2 players the full run (4 M games) gives seat 0 — the player who leads —
a win rate of 49.773% (95% Wilson interval 49.724%-49.822%, half-width 0.049 percentage points). The
interval excludes 50%: leading is a small but real *disadvantage* of about a quarter of a percentage
point, far too small to matter at the table. With more players (500 000 games each) seat 0's edge
over 1/n is +1.05 pp with 3 players, -0.34 pp with 4, +0.64 pp with 5 and +0.03 pp (not
distinguishable from 0) with 6. The odd counts stand out: with 3 or 5 players the deal gives the
first seats one card more (docs/RULES.md §2), which helps them. Read the per-seat `p_value`s with care: five
player counts and up to six seats make many tests."""),
])

variants = notebook([
    md("""# 03 — Variants: what do the house rules change?

Every variant is compared with the standard game at the same player count (`compare_variants`):
difference in mean length (Welch interval), ratio of means, and difference in seat 0's win rate
(Newcombe interval). Variants: shuffle the pile, shuffle once a loop is seen, one or two super
jokers, the Beggar joker, the exhausted-tribute rule (`passes_on`, matters with 3+ players), the end
conventions (`empty`, `unable`), counter-clockwise play (matters with 3+ players) and the Italian
40-card deck.

""" + FULL_RUN),
    code("""two = [Rules(), Rules(shuffle_pile=True), Rules(shuffle_on_loop=True), Rules(jokers=1), Rules(jokers=2),
       Rules(jokers=1, joker_mode="beggar"), Rules(end="empty"), Rules(end="unable"), Rules(deck="italian")]
three = [Rules(players=3), Rules(players=3, exhausted_tribute="passes_on"), Rules(players=3, direction="ccw"),
         Rules(players=3, end="empty"), Rules(players=3, end="unable")]
n = max(N_GAMES // 4, 200)
frames = [simulate(n, rules=r, seed=SEED, n_jobs=N_JOBS) for r in two + three]
names = sorted({c for f in frames for c in f["rules"].cat.categories})
games = pd.concat([f.assign(rules=f["rules"].cat.set_categories(names)) for f in frames], ignore_index=True)
effects = an.compare_variants(games, by="players")
effects[effects.metric == "mean_length_diff"].round(3)"""),
    code("""plots.plot_variant_effects(effects[effects.metric.isin(["mean_length_diff", "seat0_win_diff"])]);"""),
    code("""effects[effects.metric == "seat0_win_diff"].round(4)"""),
    md("""**Reading (full run: 250 000 games per variant against 4 M standard 2-player games, or
500 000 standard 3-player games).** The deck changes the length most: the Italian deck (40 cards, no
Aces) shortens a 2-player game by 64 cards (-64.9 to -63.6), the Beggar joker by 37, one super joker
by 9 and two by 18. The `passes_on` tribute rule shortens 3-player games by about 5 cards. Shuffling
the pile (+0.3, interval -0.6 to +1.1), counter-clockwise play and the `unable` end convention make
no detectable difference; `end=empty` saves about a card. `shuffle_on_loop` cannot differ from the
standard game unless a loop occurs, and with the standard deck loops are too rare to meet — its
interval straddles zero, as it must. Three Beggar-joker games looped. See `figures/findings.md`."""),
    md("""## End conventions, game by game

Game *g* of every table is dealt from (seed, g) alone, so the same ids are the same deals across
rules that keep the deck. The end conventions therefore can be compared **deal by deal**; the
contract says counts differ by 0-2 cards."""),
    code("""rows = []
for players in (2, 3):
    base = simulate(n, rules=Rules(players=players), seed=SEED, n_jobs=N_JOBS)
    for end in ("empty", "unable"):
        other = simulate(n, rules=Rules(players=players, end=end), seed=SEED, n_jobs=N_JOBS)
        diff = other["cards"].astype(int).to_numpy() - base["cards"].astype(int).to_numpy()
        same = int((other["winner"].astype(float) == base["winner"].astype(float)).sum())
        within = int((np.abs(diff) <= 2).sum())
        low, high = an.mean_interval(diff)
        rows.append(dict(players=players, end=end, deals=len(diff), mean_diff=diff.mean(), mean_low=low, mean_high=high,
                         within_2_cards=within / len(diff), same_winner=same / len(diff),
                         **{f"diff {k}": v for k, v in pd.Series(np.clip(diff, -3, 3)).value_counts(normalize=True).sort_index().items()}))
pd.DataFrame(rows).round(4)  # diff -3 / 3: three or more cards fewer / more"""),
    code("""# The shares with their Wilson intervals
for r in rows:
    for col in ("within_2_cards", "same_winner"):
        k = round(r[col] * r["deals"])
        low, high = an.wilson_interval(k, r["deals"])
        print(f"{r['players']} players, end={r['end']:6s} {col:15s} {100 * r[col]:7.3f}% [{100 * low:.3f}%, {100 * high:.3f}%]")"""),
    md("""**Reading.** With 2 players, `unable` against `trick` is exactly what the contract says: the
same game, 0 or 1 card longer, the same winner in every deal. `empty` against `trick` usually
differs by 0-2 cards too, but not always (about 0.8% of deals by 3 or more cards, and about 0.1% have
another winner, in a 200 000-deal check): under `trick` a player who plays their last card as a
penalty card can still take the pile when the opponent fails to answer it, and play goes on; under
`empty` the game ends the moment that card is played. With 3 players the conventions change *who
plays next* once someone runs out, so about 9% of deals diverge by 3 or more cards and about 3% have
another winner — yet the mean length barely moves. The contract's "0-2 cards" holds for the records it
was written about (2 players), not for every deal and player count."""),
    md("""## Shuffle on loop where loops happen

On a 12-card deck with two Jacks many random deals loop (notebook 04). There `shuffle_on_loop` turns
every loop into a finished game:"""),
    code("""small = Deck(10, 2, 0, 0, 0)
for rules in (Rules(deck=small), Rules(deck=small, shuffle_on_loop=True)):
    g = simulate(n, rules=rules, seed=SEED, n_jobs=N_JOBS)
    loops = int((g.outcome == "loop").sum())
    low, high = an.wilson_interval(loops, len(g))
    print(f"{rules.name:35s} loops {100 * loops / len(g):6.2f}% [{100 * low:.2f}%, {100 * high:.2f}%], "
          f"mean length {g.cards.mean():.1f} cards")"""),
])

records = notebook([
    md("""# 04 — Records and never-ending deals

The curated record table (`beggarstats/data/records.csv`) replayed by the reference engine; the
longest known game (R. Nessler, 2022) trick by trick; the cycle of the first known never-ending deal
(B. Casella, 2024); and how often random deals loop when the deck is small."""),
    code("""from beggarstats.records import load_records, replay_records

table = pd.DataFrame([{"name": r["name"], "match": r["match"], **{f"published {k}": v for k, v in r["published"].items()},
                       "cards": r["computed"]["cards"], "tricks": r["computed"]["tricks"],
                       "outcome": r["computed"]["outcome"]} for r in replay_records()])
table"""),
    md("""Every published figure is reproduced (`match` is True on every row)."""),
    code("""deals = {r["name"]: r["deal"] for r in load_records()}
fig = plots.card_count_timeline(deals["Nessler 2022"], x="tricks")
fig.axes[0].set_title("Nessler 2022: 8344 cards, 1164 tricks");"""),
    md("""**Reading.** The longest known game is a long tug of war: the hand sizes swing back and
forth across 26 many times before seat 1 wins; no seat is close to losing for most of the game."""),
    code("""fig = plots.loop_cycle(deals["Casella 2024"], x="tricks")"""),
    code("""plots.loop_cycle(deals["Casella 2024"], x="cards");"""),
    md("""**Reading.** After 4 tricks (34 cards) the deal enters a cycle of 62 tricks (440 cards) and
the state after trick 66 (474 cards) equals the state after trick 4: the game never ends."""),
    md("""## How often do random deals loop?

Under the standard rules, essentially never in a feasible sample (the full run found none in 4 M
two-player games). On small decks it is another story — but it depends on the mix of penalty cards
and on the deck size in an irregular way. Three families: the standard mix scaled down (about 16/52
of the deck penalty cards, J Q K A in turn), exactly 2 Jacks, and one Jack plus one Queen, padded
with number cards."""),
    code("""from beggarstats.figures import small_decks

rows = []
for family, size, deck in small_decks():
    g = simulate(max(N_GAMES // 10, 500), rules=Rules(deck=deck), seed=SEED, n_jobs=N_JOBS)
    loops = int((g.outcome == "loop").sum())
    low, high = an.wilson_interval(loops, len(g))
    rows.append(dict(family=family, size=size, deck=deck.label(), games=len(g), loop_share=loops / len(g),
                     low=low, high=high))
loops = pd.DataFrame(rows)
loops.pivot(index="size", columns="family", values="loop_share").round(4)"""),
    code("""fig, ax = plt.subplots(figsize=(7, 4))
for family, part in loops.groupby("family", sort=False):
    ax.errorbar(part["size"], 100 * part["loop_share"], fmt="o-", capsize=3, label=family,
                yerr=[100 * (part["loop_share"] - part["low"]), 100 * (part["high"] - part["loop_share"])])
ax.set_xlabel("cards in the deck"); ax.set_ylabel("deals that loop (%)"); ax.legend();"""),
    md("""**Reading.** With the standard mix scaled down, loops stay rare at every size tried. With
few penalty cards they are common — but only at some deck sizes: in the full run decks of 12 and 24
cards loop often (one deal in five or ten) while 16- and 20-card decks with the same penalty cards
almost never do. The exact shares and intervals are in `figures/findings.md`."""),
])

hands = notebook([
    md("""# 05 — Does a strong hand win? And how often do players come back?

Per-seat rows (`per_seat=True`) record what each seat was dealt (`aces`, `tribute_total` = sum of
the tributes of its penalty cards) and the fewest cards it ever held at a trick boundary
(`min_cards`). A logistic regression of winning on the dealt hand gives the odds ratio per Ace or
per tribute point; a **comeback** is a game won by a player once down to at most a quarter of their
dealt hand (see `beggarstats.analysis.comebacks` for why it is measured from the winner's side).

""" + FULL_RUN),
    code("""PLAYERS = range(2, 7)
seats = pd.concat([simulate(max(N_GAMES // 4, 500), rules=Rules(players=p), seed=SEED, n_jobs=N_JOBS, per_seat=True)[1]
                   for p in PLAYERS], ignore_index=True)
fits = an.hand_strength(seats, predictors=("aces",), by="players")
fits[fits.term == "aces"].round(4)"""),
    code("""fits2 = an.hand_strength(seats, by="players")  # tribute_total and aces together
fits2[fits2.term != "const"].round(4)"""),
    code("""fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4), sharey=True)
plots.plot_hand_strength(seats, vary="aces", predictors=("aces",), ax=a)
plots.plot_hand_strength(seats, vary="tribute_total", predictors=("tribute_total",), ax=b);"""),
    md("""**Reading.** A stronger hand helps, but modestly. Full run, 2 players (250 000 games): each
Ace dealt multiplies the odds of winning by 1.109 (1.103-1.116), each tribute point by 1.086
(1.085-1.088), so the strongest hands win far more often than the weakest, yet a hand with no
Ace still wins about 45% of decided games. Fitted together, the Ace coefficient turns *negative*
(odds ratio about 0.69): for a given tribute total, having it in Aces rather than in more, smaller
penalty cards is worse — more penalty cards give more chances to counter. With more players the
curves flatten: hands are smaller and the cards circulate many times before anyone is out."""),
    code("""back = an.comebacks(seats)
back.round(4)"""),
    code("""plots.plot_comebacks(back, hue=None);"""),
    code("""an.comebacks(seats, cards=0).round(4)  # the winner once held no cards at all at a trick boundary"""),
    md("""**Reading.** Comebacks are not rare: in the full run (250 000 games per player count) the
winner had once been down to a quarter of their dealt hand in 10.0% of 2-player games (9.9-10.1%),
12.5% with 3, 13.6% with 4, 9.9% with 5 and 13.2% with 6 players. Under the `trick` convention a
player with an empty hand at a trick boundary is out, so no winner ever had 0 cards there: the
`cards=0` rate is exactly 0, as it must be."""),
], default=1_000_000)

NOTEBOOKS = {
    "01_game_length.ipynb": game_length,
    "02_seat_advantage.ipynb": seat_advantage,
    "03_variants.ipynb": variants,
    "04_records_and_loops.ipynb": records,
    "05_hand_strength.ipynb": hands,
}

if __name__ == "__main__":
    for name, nb in NOTEBOOKS.items():
        nbformat.validate(nb)
        nbformat.write(nb, HERE / name)
        print("written", HERE / name)
