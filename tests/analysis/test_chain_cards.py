"""The tail chain on hand sizes and penalty cards (engine/uneven_kinds.py, run/tail_chain_cards.py,
analysis/chain_cards.py): the dealer against the reference engine, the states and start weights by
hand, the validations on census decks, the committed standard-deck cells and docs/tail.md's tables."""

import json
import re
from math import comb
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import beggarstats as bs
from beggarstats.analysis.chain import mixing_test
from beggarstats.analysis.chain_cards import CardsChain, cards_markdown
from beggarstats.report.record_frontier import chain_frontier
from beggarstats.engine.reference import play_hands, trick_states
from beggarstats.engine.uneven_kinds import kinds_deal, kinds_steps
from beggarstats.run.summary import load_summary
from beggarstats.run.tail_chain import load_cells
from beggarstats.run.tail_chain_cards import card_chain_cells, card_codes, card_start_weights, card_states, moves_only

ROOT = Path(__file__).resolve().parents[2]
SMALL = bs.Rules(deck=bs.Deck(numbers=10, jacks=1, queens=1, kings=1, aces=1))


def _kinds_of(hand):
    return [sum(1 for c in hand if c == t) for t in range(1, 6)]


def test_deal_has_the_sizes_and_the_penalty_cards():
    rules = bs.Rules()
    kinds = [[1, 4, 0, 2], [3, 0, 4, 2]]
    hands, _ = kinds_deal(3, 11, rules, [9, 43], kinds, 1)
    assert [len(h) for h in hands] == [9, 43]
    assert [_kinds_of(h)[:4] for h in hands] == kinds
    assert sorted(hands[0] + hands[1]) == sorted(rules.deck_cards().tolist())
    assert kinds_deal(3, 11, rules, [9, 43], kinds, 1)[0] == hands
    assert kinds_deal(3, 12, rules, [9, 43], kinds, 1)[0] != hands
    # every order of a hand comes out: the aces' places in a 7-card hand over many games
    firsts = {kinds_deal(1, g, rules, [7, 45], [[0, 0, 0, 1], [4, 4, 4, 3]])[0][0].index(4) for g in range(200)}
    assert firsts == set(range(7))


def _reference_step(seed, game, rules, sizes, kinds, leader, horizon):
    """(over, cards, next leader, held, kinds held) by seat of the deal, from the reference engine."""
    hands, stream = kinds_deal(seed, game, rules, sizes, kinds, leader)
    n = rules.players
    play = hands[leader:] + hands[:leader]
    r = play_hands(play, rules, rng=stream, trace=True)
    played = tricks = 0
    for trick in r.trace:
        played += trick.cards
        tricks += 1
        if played >= horizon:
            break
    if played < horizon or r.outcome == "win" and tricks == len(r.trace):
        return True, r.cards, None, None, None
    [(lead, _, held)], _ = trick_states(play, rules, tricks, 0)
    by_seat = [held[(s - leader) % n] for s in range(n)]
    return (False, played, (lead + leader) % n, [len(h) for h in by_seat], [_kinds_of(h) for h in by_seat])


@pytest.mark.parametrize("rules, sizes, kinds, leader, horizon", [
    (bs.Rules(), (9, 43), [[1, 4, 0, 2], [3, 0, 4, 2]], 1, 150),
    (bs.Rules(), (40, 12), [[4, 1, 2, 2], [0, 3, 2, 2]], 0, 300),
    (SMALL, (5, 9), [[1, 0, 1, 0], [0, 1, 0, 1]], 1, 20),
    (bs.Rules(players=3, jokers=1), (20, 3, 30), [[2, 1, 1, 2, 0], [0, 1, 0, 0, 1], [2, 2, 3, 2, 0]], 2, 100),
])
def test_steps_are_the_reference_games(rules, sizes, kinds, leader, horizon):
    res = kinds_steps(rules, 5, np.arange(40), sizes, kinds, leader, horizon)
    seen = set()
    for g in range(40):
        over, cards, lead, held, kk = _reference_step(5, g, rules, sizes, kinds, leader, horizon)
        seen.add(over)
        assert (bool(res["over"][g]), int(res["cards"][g])) == (over, cards), g
        if not over:
            assert res["leader"][g] == lead, g
            assert res["held"][g].tolist() == held, g
            assert res["kinds"][g].tolist() == kk, g
    assert seen == {True, False}  # both kinds of stop were checked


def test_reproducible_whatever_the_chunking():
    kinds = [[2, 2, 2, 2], [2, 2, 2, 2]]
    whole = kinds_steps(bs.Rules(), 2, np.arange(50), (30, 22), kinds, 1, 200)
    part = kinds_steps(bs.Rules(), 2, np.array([49, 3, 20]), (30, 22), kinds, 1, 200)
    for key in ("cards", "over", "leader", "held", "kinds"):
        assert np.array_equal(part[key], whole[key][[49, 3, 20]])


@pytest.mark.parametrize("kinds, message", [
    ([[1, 1, 1, 1], [3, 3, 3, 2]], r"`kinds` must share out"),
    ([[9, 0, 0, 0, 0], [-5, 4, 4, 4, 0]], r"`kinds\[1\]\[0\]`"),
    ([[4, 4, 0, 0], [0, 0, 4, 4]], r"`kinds\[0\]` holds 8 penalty cards"),
    ([[1, 1, 1], [3, 3, 3]], r"`kinds` must be 2 rows"),
    (5, r"`kinds` must be 2 rows"),
])
def test_bad_kinds_are_refused_by_name(kinds, message):
    with pytest.raises((ValueError, TypeError), match=message):
        kinds_deal(1, 0, bs.Rules(), (5, 47), kinds)


def test_states_and_start_weights_by_hand():
    states = card_states(SMALL)
    # the leader holds c of 14 cards and a subset of the 4 penalty cards; both hands hold a card
    # p = 0..4 penalty cards: the leader holds 1..10, 1..11, 2..12, 3..13, 4..13 cards
    assert len(states) == 10 + 4 * 11 + 6 * 11 + 4 * 11 + 10
    assert len(card_states(bs.Rules())) == sum(
        1 for j in range(5) for q in range(5) for k in range(5) for a in range(5)
        for c in range(1, 52) if j + q + k + a <= c and 16 - (j + q + k + a) <= 52 - c)
    codes = card_codes(states, SMALL)
    assert np.all(np.diff(codes) > 0)
    w = card_start_weights(SMALL, states)
    assert w.sum() == pytest.approx(1.0)
    # the leader's 7 of 14 cards hold the jack alone: C(10, 6) / C(14, 7)
    assert w[states.index((7, 1, 0, 0, 0))] == pytest.approx(comb(10, 6) / comb(14, 7))
    assert all(s[0] == 7 for s, x in zip(states, w) if x > 0)


def test_measured_the_same_whatever_n_jobs():
    a = card_chain_cells(SMALL, seed=4, n_deals=50, horizon=8, n_jobs=1)
    b = card_chain_cells(SMALL, seed=4, n_deals=50, horizon=8, n_jobs=2)
    for key in ("frm", "to", "cards", "count"):
        assert np.array_equal(getattr(a, key), getattr(b, key))
    assert np.bincount(a.frm, weights=a.count).tolist() == [50] * len(a.states)
    part = card_chain_cells(SMALL, seed=4, n_deals=50, horizon=8, n_jobs=1, states=[3, 100])
    for k in (3, 100):
        keep, got = a.frm == k, part.frm == k
        assert np.array_equal(part.to[got], a.to[keep]) and np.array_equal(part.count[got], a.count[keep])


@pytest.mark.parametrize("kwargs, message", [
    (dict(seed=-1), "`seed`"),
    (dict(seed=1, n_deals=0), "`n_deals`"),
    (dict(seed=1, horizon=0), "`horizon`"),
    (dict(seed=1, rules=bs.Rules(players=3)), "two players"),
    (dict(seed=1, rules="standard"), "`rules`"),
])
def test_bad_arguments_are_refused_by_name(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        card_chain_cells(**kwargs)


def test_first_step_is_the_census():
    """Up to the horizon the chain plays random standard deals (each split of the penalty cards
    with its hypergeometric weight), so its survival there is the census's exact survival."""
    census = load_summary(ROOT / "data/census/2p-24-1-1-1-1.json")
    x, c = census.frequencies("cards", ("win", "loop", "cutoff"))
    ch = bs.tail_chain_cards(census.rules, seed=2, n_deals=1_000, horizon=60, n_jobs=1)
    sv = ch.survival([30, 45, 60], replicates=10)
    exact = np.array([c[x >= L].sum() / census.n_games for L in (30, 45, 60)])
    # the 16 states of the even split hold 1,000 deals each; weighted, about 3,000 deals' worth
    se = np.sqrt(exact * (1 - exact) / 3_000)
    assert np.all(np.abs(sv["survival"] - exact) < 4 * se)


def test_census_deck_penalty_cards_bring_the_chain_closer():
    """Validation on a census deck (docs/tail.md): with the penalty cards in the state the chain's
    survival comes within a factor of about two of the exact survival of every deal (the hand-size
    chain falls short by a factor of 59 at 400 cards), but still falls below it, outside its interval."""
    census = load_summary(ROOT / "data/census/2p-24-1-1-1-1.json")
    x, c = census.frequencies("cards", ("win", "loop", "cutoff"))
    ch = bs.tail_chain_cards(census.rules, seed=2, n_deals=1_000, horizon=30, n_jobs=1)
    sv = ch.survival([200, 400], replicates=10)
    exact = np.array([c[x >= L].sum() / census.n_games for L in (200, 400)])
    assert np.all(sv["high"] < exact)
    assert np.all(sv["low"] > exact / 4)


def _results():
    return (json.loads((ROOT / "data/tail/results-cards.json").read_text()),
            json.loads((ROOT / "data/tail/results.json").read_text()))


def test_census_results_are_the_census():
    cards, _ = _results()
    for deck, row in cards["census"].items():
        census = load_summary(ROOT / f"data/census/{deck}.json")
        x, c = census.frequencies("cards", ("win", "loop", "cutoff"))
        for h, pair in row.items():
            for name in ("cards", "sizes"):
                for k in pair[name]["checks"]:
                    assert k["exact"] == pytest.approx(c[x >= k["cards"]].sum() / census.n_games, rel=1e-12)
                    assert k["within"] == (k["low"] <= k["exact"] <= k["high"])
            assert pair["cards"]["states"] == len(card_states(census.rules))


def test_tail_page_section_is_generated_from_the_data():
    text = (ROOT / "docs/tail.md").read_text()
    block = re.search(r"<!-- tailcards:begin -->\n(.*?)\n<!-- tailcards:end -->", text, flags=re.S).group(1)
    cards, sizes = _results()
    sample = pd.read_csv(ROOT / "data/tail/mixing.csv.gz")
    chain = CardsChain.from_cells(_committed(int(next(iter(cards["horizons"])))))
    assert block == cards_markdown(cards, sizes, mixing_test(sample, chain), frontier=chain_frontier(ROOT / "data"))
    section = text[text.index("## The chain on hand sizes and penalty cards"):]
    prose = re.sub(r"<!-- tailcards:begin -->.*?<!-- tailcards:end -->", " ", section, flags=re.S)
    assert not re.findall(r"\d", re.sub(r"`[^`]*`", " ", prose))  # every number of the section is generated


def _committed(h):
    return load_cells(ROOT / f"data/tail/chain-cards-p2-h{h}-moves.npz")


def test_standard_results_are_the_committed_chain():
    """data/tail/results-cards.json against the committed moves of the standard-deck chain and the
    10^9-game summary: the point rate recomputed (it needs the moves on only), the run's rate, and
    the verdict: no record odds from a chain not shown to agree with the run."""
    from beggarstats.analysis.summaries import tail_rate

    cards, sizes = _results()
    summary = load_summary(ROOT / "data/summary-p2.json")
    observed = tail_rate(summary, start=0.99).iloc[0]
    assert cards["observed_rate"] == pytest.approx([observed["rate"], observed["rate_low"], observed["rate_high"]])
    assert cards["observed_rate"] == pytest.approx(sizes["observed_rate"])
    assert cards["horizons"]
    for h, row in cards["horizons"].items():
        cells = _committed(int(h))
        assert (cells.horizon, cells.seed, cells.rules, cells.n_deals) == (int(h), 2026, bs.Rules(), row["n_deals"])
        ch = CardsChain.from_cells(cells)
        assert ch.n_states == row["states"] == len(card_states(bs.Rules()))
        assert np.bincount(ch.frm, weights=ch.count).tolist() == [row["n_deals"]] * ch.n_states
        assert ch._rate(ch.count) == pytest.approx(row["rate"][0], rel=1e-9)
        obs = cards["observed_rate"]
        if cards["replicates"]["rate"] == 0:  # the point rate alone: no interval, no verdict
            assert row["rate"][1:] == [None, None] and row["overlaps"] is None
        else:
            assert row["rate"][1] < row["rate"][0] < row["rate"][2]
            assert row["overlaps"] == (row["rate"][1] <= obs[2] and obs[1] <= row["rate"][2])
        assert not row.get("record_ok")  # the counts were not checked: no record odds either way
        with pytest.raises(ValueError, match="moves on"):
            ch.survival([100])


def test_committed_moves_are_their_recomputation():
    cards, _ = _results()
    h = next(iter(cards["horizons"]))
    cells = _committed(int(h))
    for k in (0, cells.start):
        again = moves_only(card_chain_cells(cells.rules, seed=cells.seed, n_deals=cells.n_deals,
                                            horizon=cells.horizon, n_jobs=1, states=[k]))
        keep = cells.frm == k
        for key in ("to", "cards", "count"):
            assert np.array_equal(getattr(again, key), getattr(cells, key)[keep]), (k, key)
