"""The prose that quotes the findings, generated from the findings table so it cannot go stale.

README.md and docs/FIGURES.md hold blocks between ``<!-- findings:begin NAME -->`` and
``<!-- findings:end NAME -->``. `render_blocks` writes every block from a findings table (the
numbers and the wording that depends on them: "detected" only where the Holm-adjusted test
rejects); `update_prose` puts them into the files (`beggarstats figures` does so when it writes
the repository's ``figures/``); `stale_blocks` lists the blocks that differ from what the table
gives, which the test suite requires to be none.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from .findings import ALPHA, detectable_text, family_level, fmt, fmt_p, level_text, to_markdown
from .record_prose import join as _join, record_words
from ..run.outputs import write_text

__all__ = ["BLOCKS", "render_blocks", "update_prose", "stale_blocks", "block_pattern"]

# file -> block names it must contain
BLOCKS = {"README.md": ("readme",), "docs/FIGURES.md": ("sizes", "table", "seats", "variants", "reading")}


def block_pattern(name: str) -> re.Pattern:
    return re.compile(rf"(<!-- findings:begin {re.escape(name)} -->\n)(.*?)(<!-- findings:end {re.escape(name)} -->)",
                      re.S)


class _Rows:
    """Look-up of findings by key, formatted as the prose shows them."""

    def __init__(self, table: pd.DataFrame):
        self.t = table.set_index("key", drop=False)

    def __contains__(self, key):
        return key in self.t.index

    def row(self, key):
        return self.t.loc[key]

    def keys(self, prefix):
        return [k for k in self.t.index if k.startswith(prefix)]

    def est(self, key):
        r = self.row(key)
        return fmt(r["estimate"], r["unit"])

    def ci(self, key):
        r = self.row(key)
        return f"[{fmt(r['low'], r['unit'])}, {fmt(r['high'], r['unit'])}]"

    def both(self, key):
        return f"{self.est(key)} {self.ci(key)}"

    def n(self, key):
        return f"{int(self.row(key)['n_games']):,}"

    def count(self, key):
        return f"{int(self.row(key)['estimate']):,}"

    def holm(self, key):
        r = self.row(key)
        return f"Holm p {fmt_p(r['p_holm'])}"

    def rejected(self, key) -> bool:
        v = self.row(key)["holm_reject"]
        return bool(v) if not pd.isna(v) else False

    def p(self, key):
        return f"p {fmt_p(self.row(key)['p_value'])}"

    def fit_rejected(self, key) -> bool:
        """A goodness-of-fit test (outside the Holm family) rejects the model at level `ALPHA`."""
        return bool(self.row(key)["p_value"] < ALPHA)

    def mark(self, key):
        """'✓' when the Holm-adjusted test rejects, '·' when it does not."""
        return "✓" if self.rejected(key) else "·"

    @property
    def family(self) -> int:
        """The size of the Holm family (the tests of an effect), said once and used everywhere."""
        return family_level(self.t)[0]

    @property
    def level(self) -> str:
        """Holm's strictest level, the level of every detectable effect: '0.05/118'."""
        return level_text(self.family, ALPHA)

    def detectable(self, key) -> str:
        """The smallest effect the row's test detects at 80% power at `level`: '±0.434 pp'."""
        r = self.row(key)
        return detectable_text(r["detectable"], r["unit"])

    def missed(self, key) -> str:
        """What a test that did not reject could have missed, with its level: '±0.434 pp at 0.05/118'."""
        return f"{self.detectable(key)} at {self.level}"


def _players(r: _Rows, prefix: str):
    return [int(k.removeprefix(prefix).removesuffix("p")) for k in r.keys(prefix)]


def _readme(r: _Rows) -> str:
    lines = [
        f"`beggarstats figures` (seed {int(r.row('run_seed')['estimate'])}; {_games(r)}) writes every figure "
        "and the findings table into `figures/`; each is explained in "
        "[docs/FIGURES.md](docs/FIGURES.md), which also has the full table "
        f"({len(r.t)} rows, {_tests(r)}). Every variant is compared with the standard game on the same deals "
        "(paired; jokers are slipped into the standard deal), from the committed runs of `data/compare_variants.py`, "
        "which `beggarstats compare` repeats at any size.",
        "",
        f"Key rows of `figures/findings.md` (95% intervals; ✓: rejected by the Holm-adjusted test at family-wise "
        f"{ALPHA:g} over the {r.family} tests of the family, ·: not rejected, with the smallest effect the test "
        f"detects at 80% power at Holm's strictest level {r.level}):",
        "",
        f"| finding | estimate | 95% interval | games | Holm p | not rejected: detectable at {r.level} |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    keys = ["seat0_rate_2p"] + [f"seat_0_of_{p}p" for p in (3, 4, 5, 6)]
    keys += [k for k in r.keys("step_") if "(same hand)" in r.row(k)["finding"]]
    keys += ["heterogeneity_steps", "seat_model_fit", "seat_model_seat", "seat_model_extra_card", "tail_rate_2p",
             "tail_constancy_2p"]
    keys += ["odds_aces_2p", "comeback_2p"]
    for k in [k for k in keys if k in r]:
        row = r.row(k)
        ci = "–" if pd.isna(row["low"]) else r.ci(k)
        if row["test"] == "fit":
            holm = f"fit test: p {fmt_p(row['p_value'])}, not adjusted"
        else:
            holm = "–" if pd.isna(row["p_holm"]) else f"{fmt_p(row['p_holm'])} {r.mark(k)}"
        missed = r.detectable(k) if row["test"] == "effect" and not r.rejected(k) else "–"
        lines.append(f"| {row['finding']} | {r.est(k)} | {ci} | {r.n(k)} | {holm} | {missed} |")
    lines += ["", "In words: " + " ".join(_words(r))]
    return "\n".join(lines) + "\n"


def _games(r: _Rows) -> str:
    """The one statement of how many games the figures rest on: distinct, and played."""
    text = f"{r.count('run_distinct')} distinct games"
    if "run_played" in r:
        text += f", {r.count('run_played')} played"
    return text + (f": the per-seat runs replay the first {r.count('run_seats')} standard games of each player count, "
                   "and two families share their smallest deck")


def _tests(r: _Rows) -> str:
    fits = int((r.t["test"] == "fit").sum())
    same = int((r.t["test"] == "identical").sum())
    text = (f"{r.family} of them tests of an effect, one family with Holm-adjusted p-values and every detectable "
            f"effect at Holm's strictest level {r.level}")
    if fits:
        text += f", {fits} goodness-of-fit tests with their own p-values, outside the family"
    if same:
        text += f", {same} comparisons identical in every pair of their run, exact statements outside it"
    return text


def _seat_words(r: _Rows) -> list[str]:
    out = []
    k = "seat0_rate_2p"
    if r.rejected(k):
        side = "slightly less" if r.row(k)["estimate"] < 0.5 else "slightly more"
        out.append(f"with two players the leader (seat 0) wins {side} than half the games, {r.both(k)} ({r.holm(k)}).")
    else:
        out.append(f"with two players the leader (seat 0) wins {r.both(k)}, not distinguishable from half "
                   f"({r.holm(k)}; detectable {r.missed(k)}).")
    seats = [r.row(k) for k in r.keys("seat_") if "_of_" in k]
    widest = max(seats, key=lambda x: abs(x["estimate"])) if seats else None
    if widest is not None:
        seat, players, cards = re.search(r"seat (\d+) of (\d) players \((\d+) cards", widest["finding"]).groups()
        out.append(f"With 3-6 players the seats' win rates lie up to {fmt(abs(widest['estimate']), 'pp').lstrip('+')} "
                   f"from 1/n (seat {seat} of {players} players, dealt {cards} cards; see the seat figure).")
    out += _step_words(r)
    k = "seat_model_fit"
    if k in r:
        fit = r.row(k)
        dof, resid = re.search(r"\((\d+) df; largest \|Pearson residual\| ([\d.]+)\)", fit["finding"]).groups()
        terms = (f"one seat later {r.both('seat_model_seat')}, the extra card of an uneven deal "
                 f"{r.both('seat_model_extra_card')}")
        model = ("One multinomial (softmax) logit of the winner among the seats of each game, 2-6 players together "
                 "(one step per seat later in the order of play and one term for the extra card, the same at every "
                 "table size; the seats' chances add up to one in every game)")
        if r.fit_rejected(k):
            out.append(f"{model} does not fit the wins per player count and seat: G² {r.est(k)} on {dof} df against "
                       f"the saturated model ({r.p(k)}; largest |Pearson residual| {resid}). Its odds ratios ({terms}) "
                       "are averages over steps that differ from seat to seat and table to table, not the effect of a "
                       "seat or of a card, and are not tested.")
        else:
            out.append(f"{model} is not rejected by the wins per player count and seat (G² {r.est(k)} on {dof} df, "
                       f"{r.p(k)}; largest |Pearson residual| {resid}); its odds ratios: {terms}.")
    return out


def _step_words(r: _Rows) -> list[str]:
    """The within-player-count steps from one seat to the next, equal hands and the extra card apart."""
    keys = [k for k in r.keys("step_") if re.fullmatch(r"step_\d+_of_\dp", k)]
    if not keys:
        return []
    same = [k for k in keys if "(same hand)" in r.row(k)["finding"]]
    fewer = [k for k in keys if k not in same]

    def name(k):
        seat, players = re.fullmatch(r"step_(\d+)_of_(\d)p", k).groups()
        text = f"{players}p seat {int(seat) - 1}→{seat} {r.est(k)} {r.mark(k)}"
        row = r.row(k)
        if not r.rejected(k):
            text += f" (detectable {r.missed(k)})"
        return text

    text = ("Within one player count, the step from one seat to the next (win rate of the later seat minus the "
            "earlier, the same games; ✓: Holm-rejected, ·: not, with the step it could detect at 80% power at "
            "Holm's strictest level): between seats dealt the same hand, where only the position differs, "
            f"{', '.join(name(k) for k in same)}")
    if fewer:
        text += (f"; where the later seat holds one card fewer, {', '.join(name(k) for k in fewer)}")
    k = "heterogeneity_steps"
    if k in r:
        q = r.row(k)
        steps, dof = re.search(r"over the (\d+) steps \((\d+) df", q["finding"]).groups()
        if r.fit_rejected(k):
            text += (f". The {steps} equal-hand steps are not one constant: Cochran's Q {r.est(k)} on {dof} df "
                     f"({r.p(k)}; each player count's steps with their multinomial covariance), so no single "
                     "per-seat step describes position")
        else:
            text += (f". One constant step for the {steps} equal-hand steps is not rejected: Cochran's Q {r.est(k)} "
                     f"on {dof} df ({r.p(k)})")
    return [text + "."]


def _tail_words(r: _Rows) -> list[str]:
    bands = [r.row(k) for k in r.keys("hazard_2p_band")]
    low = min(b["estimate"] for b in bands)
    high = max(b["estimate"] for b in bands)
    k = "tail_constancy_2p"
    text = (f"Beyond the median length a 2-player game ends at about {r.est('tail_rate_2p')} per card played "
            f"{r.ci('tail_rate_2p')}; ")
    if r.fit_rejected(k):
        text += (f"but one rate does not fit every 100-card band (χ² = {r.est(k)}, {r.p(k)}): band by band "
                 f"it lies between {fmt(low, 'per card')} and {fmt(high, 'per card')}, so the tail is close to "
                 "geometric without being exactly so.")
    else:
        text += (f"one rate for every 100-card band is not rejected (χ² = {r.est(k)}, {r.p(k)}; band rates "
                 f"{fmt(low, 'per card')}–{fmt(high, 'per card')}): the data are consistent with a geometric tail "
                 "from the median on.")
    others = [p for p in _players(r, "tail_constancy_") if p != 2]
    rejected = [p for p in others if r.fit_rejected(f"tail_constancy_{p}p")]
    kept = [p for p in others if not r.fit_rejected(f"tail_constancy_{p}p")]
    if rejected:
        stats = "χ² = " + _join([r.est(f"tail_constancy_{p}p") for p in rejected])
        worst = max(r.row(f"tail_constancy_{p}p")["p_value"] for p in rejected)
        text += (f" With {_join(rejected)} players one rate is rejected ({stats}; largest p {fmt_p(worst)}): "
                 "their tails are not geometric from the median on (see the tail figure).")
    if kept:
        text += f" With {_join(kept)} players one rate is not rejected."
    return [text]


def _article(number) -> str:
    """'an' before a number read with a vowel sound (8, 11, 18, 80-89, ...), else 'a'."""
    text = str(number)
    return "an" if text.startswith("8") or text in ("11", "18") else "a"


def variant_frame(r: _Rows) -> pd.DataFrame:
    """The variant rows of the findings (keys ``variant_len:<variant>:<n>p``, ``variant_seat0:...``,
    ``variant_percard:...``) as the columns of `report.variant_data`'s table, so the prose and the
    notebook phrase them with the same functions."""
    out = []
    for k in r.keys("variant_len:") + r.keys("variant_seat0:"):
        short, spec, players = k.split(":")
        row = r.row(k)
        rec = dict(variant=spec, players=int(players.removesuffix("p")),
                   metric="mean_length_diff" if short == "variant_len" else "seat0_win_diff",
                   label=re.search(r": (.+?), \d players \(", row["finding"]).group(1),
                   estimate=row["estimate"], low=row["low"], high=row["high"], pairs=int(row["n_games"]),
                   p_value=row["p_value"], p_holm=row["p_holm"], holm_reject=r.rejected(k),
                   detectable=row["detectable"], level=row["level"], family=r.family,
                   identical=row["test"] == "identical")
        per = f"variant_percard:{spec}:{players}"
        if short == "variant_len" and per in r:
            rec.update(per_card=r.row(per)["estimate"], per_card_low=r.row(per)["low"], per_card_high=r.row(per)["high"])
        out.append(rec)
    return pd.DataFrame(out)


def _variant_words(r: _Rows) -> list[str]:
    from .variant_data import joker_sentence, rule_sentence, shuffle_sentences

    v = variant_frame(r)
    if v.empty:
        return []
    words = ["Does shuffling the won pile speed the game up, as the rule text says? The same deals played both "
             "ways (paired):"] + shuffle_sentences(v)
    return words + [w for w in (joker_sentence(v), rule_sentence(v)) if w]


def _loop_words(r: _Rows) -> list[str]:
    std = [r.row(k) for k in r.keys("loop_standard_")]
    games = sum(int(x["n_games"]) for x in std)
    loops = sum(round(x["estimate"] * x["n_games"]) for x in std)
    if loops == 0:
        text = (f"No random standard deal looped in {games:,} games (2 players: upper end of the 95% Wilson interval "
                f"{fmt(r.row('loop_standard_2p')['high'], 'share')}).")
    else:
        text = f"{loops} of {games:,} random standard deals looped."
    small = [r.row(k) for k in r.keys("loop_small:")]
    exact = any(x["design"] == "census" for x in small)  # a census of the deck: exact, no interval
    if small:
        top = max(small, key=lambda x: x["estimate"])
        _, family, size = top["key"].split(":")
        sampled_n = [int(x["n_games"]) for x in small if x["design"] != "census"]
        how = (f"{r.n(top['key'])} random deals each" if not exact else "every deal played once" if not sampled_n
               else f"exact where every deal was played once, otherwise {max(sampled_n):,} random deals")
        text += (f" Small decks (every plotted size, {how}) loop far more often: up to "
                 f"{fmt(top['estimate'], 'share')} of {'the' if exact else 'random'} deals ({_article(size)} "
                 f"{size}-card deck whose penalty cards are {family}).")
        families = dict.fromkeys(k.split(":")[1] for k in r.keys("loop_small:"))
        for family in families:
            rows = [r.row(k) for k in r.keys(f"loop_small:{family}:")]
            zero = [int(x["key"].split(":")[2]) for x in rows if x["estimate"] == 0]
            some = [x for x in rows if x["estimate"] > 0]
            if zero and some:
                lo, hi = min(some, key=lambda x: x["estimate"]), max(some, key=lambda x: x["estimate"])
                bounds = [x["high"] for x in rows if x["estimate"] == 0 and x["design"] != "census"]
                sampled = [int(x["key"].split(":")[2]) for x in rows if x["estimate"] == 0 and x["design"] != "census"]
                if not exact:
                    note = f"upper ends of the 95% Wilson intervals up to {fmt(max(bounds), 'share')}"
                elif bounds:
                    note = (f"exactly; at {_join(sampled)} cards, from random deals: upper end of the 95% Wilson interval "
                            f"{fmt(max(bounds), 'share')}")
                else:
                    note = "exactly"
                text += (f" Penalty cards {family}: no deal {'loops' if exact else 'looped'} at {_join(zero)} cards "
                         f"({note}), while the other sizes loop in {fmt(lo['estimate'], 'share')} to "
                         f"{fmt(hi['estimate'], 'share')}.")
        jumps = 0
        for family in families:
            rows = sorted((r.row(k) for k in r.keys(f"loop_small:{family}:")), key=lambda x: int(x["key"].split(":")[2]))
            jumps += sum(a["high"] < b["low"] or b["high"] < a["low"] for a, b in zip(rows, rows[1:]))
        if jumps and exact:
            text += (f" The share does not change smoothly with the size of the deck, not even where the penalty cards "
                     f"stay the same (2 J, 1 J + 1 Q): {jumps} pairs of neighbouring plotted sizes differ (exactly, or "
                     "beyond their 95% intervals), so the figure marks each deck without joining them; docs/FIGURES.md "
                     "explains the pattern from the cycles each deck has.")
        elif jumps:
            text += (f" The share does not change smoothly with the size of the deck, not even where the penalty cards "
                     f"stay the same (2 J, 1 J + 1 Q): {jumps} pairs of neighbouring plotted sizes have 95% intervals "
                     "that do not overlap, so the figure marks each deck without joining them. These Monte Carlo "
                     "shares show the pattern; they do not explain it, and an exact count over every deal of each "
                     "small deck is what can.")
    return [text]


def _words(r: _Rows) -> list[str]:
    words = _seat_words(r)
    means = " / ".join(f"{r.row(f'mean_length_{p}p')['estimate']:.1f}" for p in _players(r, "mean_length_"))
    values = [r.row(f"mean_length_{p}p")["estimate"] for p in _players(r, "mean_length_")]
    verb = "grows" if all(a < b for a, b in zip(values, values[1:])) else "changes"
    words.append(f"Mean length {verb} with the number of players: {means} cards for "
                 f"{_join(_players(r, 'mean_length_'))} players.")
    words += _tail_words(r) + record_words(r) + _variant_words(r) + _loop_words(r)
    return words


def _sizes(r: _Rows) -> str:
    lines = ["| run | games |", "|---|---:|"]
    for k in [k for k in ("run_main2", "run_main", "run_seats", "run_small", "run_distinct",
                          "run_played") if k in r]:
        lines.append(f"| {r.row(k)['finding']} | {r.count(k)} |")
    k = "seat0_rate_2p"
    half = (r.row(k)["high"] - r.row(k)["low"]) / 2
    lines += ["", f"Seed {int(r.row('run_seed')['estimate'])}. The {r.n(k)} two-player games put the "
              f"first-player win rate within ±{100 * half:.3f} percentage points (Wilson, 95%)."]
    return "\n".join(lines) + "\n"


def _seats(r: _Rows) -> str:
    def holm(k):
        missed = "–" if r.rejected(k) else r.detectable(k)
        return f"{fmt_p(r.row(k)['p_holm'])} {r.mark(k)} | {missed} |"

    det = f"not rejected: detectable at {r.level}"
    lines = [f"| players | seat | cards dealt | win rate − 1/n | 95% interval | Holm p | {det} |",
             "|---:|---:|---:|---:|---:|---:|---:|"]
    for k in [k for k in r.keys("seat_") if re.fullmatch(r"seat_\d+_of_\dp", k)]:
        seat, players = re.fullmatch(r"seat_(\d+)_of_(\d)p", k).groups()
        cards = re.search(r"\((\d+) cards dealt\)", r.row(k)["finding"]).group(1)
        lines.append(f"| {players} | {seat} | {cards} | {r.est(k)} | {r.ci(k)} | {holm(k)}")
    steps = [k for k in r.keys("step_") if re.fullmatch(r"step_\d+_of_\dp", k)]
    if steps:
        lines += ["", "| players | seats | hands | win rate of the later seat − the earlier | 95% interval | "
                  f"Holm p | {det} |", "|---:|---:|---|---:|---:|---:|---:|"]
        for k in steps:
            seat, players = re.fullmatch(r"step_(\d+)_of_(\d)p", k).groups()
            hands = "same" if "(same hand)" in r.row(k)["finding"] else "later seat one card fewer"
            lines.append(f"| {players} | {int(seat) - 1} → {seat} | {hands} | {r.est(k)} | {r.ci(k)} | {holm(k)}")
    return "\n".join(lines) + "\n"


def _variants(r: _Rows) -> str:
    v = variant_frame(r)
    lines = ["Every variant against the standard game on the same deals (paired; `data/compare_variants.py`). "
             f"Length: paired t; seat 0: Tango's score interval; Holm over the family of the findings' {r.family} "
             "tests (✓ rejected, · not); detectable: the smallest change found at 80% power at Holm's strictest "
             f"level {r.level}; identical: no pair of the run differs, an exact statement outside the family.", "",
             f"| variant | players | pairs | mean length (cards) | Holm p | detectable at {r.level} | seat 0 win "
             f"rate | Holm p | detectable at {r.level} |", "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for k in r.keys("variant_len:"):
        _, spec, players = k.split(":")
        s = f"variant_seat0:{spec}:{players}"
        row = r.row(k)
        det = "–" if pd.isna(row["detectable"]) else f"±{row['detectable']:.3f}"
        if row["test"] == "identical":
            length, holm = "identical in every pair", "no test"
        else:
            length = r.both(k) if not pd.isna(row["low"]) else f"{r.est(k)} (no interval)"
            holm = f"{fmt_p(row['p_holm'])} {r.mark(k)}"
        if s in r and r.row(s)["test"] == "identical":
            seat = f"identical in every pair {r.ci(s)} | no test | –"
        elif s in r:
            srow = r.row(s)
            seat = (f"{r.both(s)} | {fmt_p(srow['p_holm'])} {r.mark(s)} | "
                    f"±{fmt(srow['detectable'], 'pp').lstrip('+')}")
        else:
            seat = "not kept in this run | – | –"
        lines.append(f"| {row['finding'].split(': ', 1)[1].split(', ')[0]} | {players.removesuffix('p')} | {r.n(k)} | "
                     f"{length} | {holm} | {det} | {seat} |")
    per = r.keys("variant_percard:")
    if per:
        lines += ["", "| jokers | players | cards played per card dealt, variant − standard | 95% interval |",
                  "|---|---:|---:|---:|"]
        for k in per:
            _, spec, players = k.split(":")
            name = r.row(k)["finding"].split(": ", 1)[1].split(", ")[0]
            lines.append(f"| {name} | {players.removesuffix('p')} | {r.est(k)} | {r.ci(k)} |")
    return "\n".join(lines) + "\n"


def _reading(r: _Rows) -> str:
    bullets = [f"* {w[0].upper()}{w[1:]}" for w in _words(r)]
    def fits(key):
        fit = f"odds_{key}_2p_fit"
        if fit not in r:  # too few seats a hand for the test (a small run)
            return "its goodness of fit not tested"
        return (f"the logistic {'is rejected by' if r.fit_rejected(fit) else 'passes'} its goodness-of-fit test, "
                f"{r.p(fit)}")

    bullets.append(f"* **Hand strength** (2 players, logistic, clustered by game): each Ace dealt multiplies the "
                   f"odds of winning by {r.both('odds_aces_2p')} ({fits('aces')}), each tribute point by "
                   f"{r.both('odds_tribute_total_2p')} on average ({fits('tribute_total')}; the win share by tribute "
                   "points is drawn in `figures/hand_strength.png`).")
    rates = [r.row(k) for k in r.keys("comeback_")]
    lo, hi = min(rates, key=lambda x: x["estimate"]), max(rates, key=lambda x: x["estimate"])
    bullets.append(f"* **Comebacks** (winner once at ≤ 25% of their dealt hand, counted at exactly a quarter of "
                   f"every hand size by interpolating between whole cards, so the player counts compare like with "
                   f"like): from {fmt(lo['estimate'], 'share')} "
                   f"({lo['finding'].rsplit(', ', 1)[1]}) to {fmt(hi['estimate'], 'share')} "
                   f"({hi['finding'].rsplit(', ', 1)[1]}) of decided games.")
    bullets.append(f"* The length histogram ends at its cut; {r.count('length_beyond_cut')} of "
                   f"{r.n('length_beyond_cut')} finished standard games are longer (the survival figure shows them).")
    return "\n".join(bullets) + "\n"


def render_blocks(table: pd.DataFrame) -> dict[str, str]:
    """Every generated block by name, from a findings table."""
    r = _Rows(table)
    return {"readme": _readme(r), "sizes": _sizes(r), "table": to_markdown(table), "seats": _seats(r),
            "variants": _variants(r), "reading": _reading(r)}


def _replace(text: str, name: str, body: str, path) -> str:
    pattern = block_pattern(name)
    if not pattern.search(text):
        raise ValueError(f"{path} has no block `<!-- findings:begin {name} -->` ... `<!-- findings:end {name} -->`.")
    return pattern.sub(lambda m: m.group(1) + body + m.group(3), text, count=1)


def update_prose(table: pd.DataFrame, root) -> list[Path]:
    """Rewrite every block of `BLOCKS` under ``root`` from ``table``; returns the files written."""
    blocks, written = render_blocks(table), []
    for rel, names in BLOCKS.items():
        path = Path(root) / rel
        text = path.read_text()
        new = text
        for name in names:
            new = _replace(new, name, blocks[name], path)
        if new != text:
            write_text(path, new)  # atomically (a temporary name, then os.replace)
        written.append(path)
    return written


def stale_blocks(table: pd.DataFrame, root) -> list[str]:
    """'file: block' for every block whose text differs from what ``table`` gives (or is missing)."""
    blocks, stale = render_blocks(table), []
    for rel, names in BLOCKS.items():
        text = (Path(root) / rel).read_text()
        for name in names:
            m = block_pattern(name).search(text)
            if m is None or m.group(2) != blocks[name]:
                stale.append(f"{rel}: {name}")
    return stale
