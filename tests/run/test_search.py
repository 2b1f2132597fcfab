"""The search for long deals (run/search.py, engine/backward.py): tricks run backwards exactly,
searches reproducible by seed, every deal returned replays to its length, bad parameters refused."""

from __future__ import annotations

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.analysis.longest import expected_longest
from beggarstats.analysis.summaries import tail_rate
from beggarstats.engine.backward import as_deal, main_path, predecessors, step
from beggarstats.engine.rank import hand_sizes
from beggarstats.engine.deals import random_deal
from beggarstats.game.cards import format_deal
from beggarstats.run.summary import load_summary
from pathlib import Path

DATA = Path(__file__).resolve().parents[2] / "data"


def _hands(seed, game, rules):
    hands, _ = random_deal(seed, game, rules)
    return tuple(tuple(int(c) for c in h) for h in hands)


@pytest.mark.parametrize("rules", [bs.Rules(), bs.Rules(players=3), bs.Rules(players=4, direction="ccw"),
                                   bs.Rules(end="empty")], ids=["p2", "p3", "p4-ccw", "p2-empty"])
def test_every_predecessor_plays_one_trick_into_the_state(rules):
    ccw = rules.direction == "ccw"
    checked = 0
    for game in range(6):
        for hands, leader, _ in main_path(_hands(7, game, rules), ccw=ccw)[1:40]:
            for before, first, cards in predecessors(hands, leader, ccw=ccw, keep_taker=rules.end == "empty"):
                assert sum(map(len, before)) == rules.n_cards and min(map(len, before)) > 0
                assert step(before, first, ccw=ccw) == (hands, leader, cards)
                if rules.end == "empty":  # the taker keeps a card of their own through the trick
                    assert len(hands[leader]) > cards
                checked += 1
    assert checked > 30


def test_the_state_before_a_trick_is_among_its_predecessors():
    # the deal's own path: state k-1 is one of the predecessors of state k
    path = main_path(_hands(7, 3, bs.Rules()))
    assert len(path) > 5
    for (h0, l0, c0), (h1, l1, c1) in zip(path, path[1:]):
        assert (h0, l0, c1 - c0) in predecessors(h1, l1)


def test_main_path_follows_the_reference_game():
    rules = bs.Rules(players=3)
    hands = _hands(7, 11, rules)
    path = main_path(hands)
    trace = bs.play(format_deal(hands), rules, trace=True).trace
    for (h, leader, cards), trick in zip(path[1:], trace):
        assert tuple(map(len, h)) == trick.hand_sizes and leader == trick.taker
    assert path[-1][2] == sum(t.cards for t in trace[: len(path) - 1])


def test_as_deal_turns_the_leader_to_seat_0():
    sizes = hand_sizes(bs.Rules(players=3))
    assert sizes == (18, 17, 17)
    h = ((0,) * 17, (1,) * 18, (2,) * 17)
    assert as_deal(h, 1, sizes) == ((1,) * 18, (2,) * 17, (0,) * 17)
    assert as_deal(h, 0, sizes) is None


def _kernel_state(hands):
    n, width = len(hands), sum(map(len, hands))
    h = np.zeros((n, width), np.int8)
    for s, x in enumerate(hands):
        h[s, : len(x)] = x
    return h, np.array([len(x) for x in hands], np.int64)


@pytest.mark.parametrize("rules", [bs.Rules(), bs.Rules(players=3), bs.Rules(players=4, direction="ccw"),
                                   bs.Rules(end="empty")], ids=["p2", "p3", "p4-ccw", "p2-empty"])
def test_the_compiled_predecessors_are_the_python_ones(rules):
    from beggarstats.engine.backward_kernel import predecessor_list

    ccw, keep = rules.direction == "ccw", rules.end == "empty"
    compared = found = 0
    for game in range(8):
        path = main_path(_hands(11, game, rules), ccw=ccw)
        states = [(h, ld) for h, ld, _ in path[1:60]]
        # and states found backwards, which are not states of a random game
        states += [(b, f) for h, ld in states[:20] for b, f, _ in predecessors(h, ld, ccw=ccw, keep_taker=keep)]
        for hands, leader in states:
            h, ln = _kernel_state(hands)
            n, width = h.shape
            oh, oln = np.zeros((width * n, n, width), np.int8), np.zeros((width * n, n), np.int64)
            olead, ok = np.zeros(width * n, np.int64), np.zeros(width * n, np.int64)
            cnt = predecessor_list(h, ln, leader, ccw, keep, oh, oln, olead, ok)
            got = [(tuple(tuple(int(c) for c in oh[j, s, : oln[j, s]]) for s in range(n)), int(olead[j]), int(ok[j]))
                   for j in range(cnt)]
            assert got == predecessors(hands, leader, ccw=ccw, keep_taker=keep)
            compared += 1
            found += cnt
    assert compared > 200 and found > 50


def _python_extend(hands, cards, sizes, nodes, ccw=False, keep_taker=False):
    """The backward search as run/search.py ran it in Python: the reference for the kernel."""
    path = main_path(hands, 0, ccw=ccw)
    used, best = 0, (cards, None)
    for b, (h, lead, at) in enumerate(path):
        before = path[b - 1][:2] if b else None
        stack = [(p, pl, c, 1) for p, pl, c in reversed(predecessors(h, lead, ccw=ccw, keep_taker=keep_taker))
                 if (p, pl) != before]
        used += 1
        while stack and used < nodes:
            p, pl, back, depth = stack.pop()
            deal = as_deal(p, pl, sizes)
            if deal is not None and cards - at + back > best[0]:
                best = (cards - at + back, deal, b, depth, back)
            used += 1
            stack.extend((q, ql, back + c, depth + 1) for q, ql, c in
                         reversed(predecessors(p, pl, ccw=ccw, keep_taker=keep_taker)))
        if used >= nodes:
            break
    return best, used, len(path)


@pytest.mark.parametrize("rules, nodes", [(bs.Rules(), 3000), (bs.Rules(players=3), 2000),
                                          (bs.Rules(players=4, direction="ccw"), 2000), (bs.Rules(end="empty"), 3000)],
                         ids=["p2", "p3", "p4-ccw", "p2-empty"])
def test_the_compiled_search_examines_the_python_states(rules, nodes):
    from beggarstats.engine.backward_kernel import extend_deal_hands

    ccw, keep, sizes = rules.direction == "ccw", rules.end == "empty", hand_sizes(rules)
    longer = 0
    for game in range(6):  # every one state by state against the Python search: about 0.2 s of CPU a game
        hands = _hands(3, game, rules)
        r = bs.play(format_deal(hands), rules)
        if r.outcome != "win":
            continue
        (cards, deal, *where), used, boundaries = _python_extend(hands, r.cards, sizes, nodes, ccw, keep)
        got = extend_deal_hands(hands, r.cards, sizes, nodes, ccw=ccw, keep_taker=keep)
        assert (got["cards"], got["deal"], got["states"], got["boundaries"]) == (cards, deal, used, boundaries)
        assert not got["overflow"]
        if deal is not None:
            assert [got["boundary"], got["depth"], got["back"]] == where
            assert bs.play(format_deal(deal), rules).cards == cards > r.cards
            longer += 1
    assert longer >= 2


def _plain(df):
    return df.drop(columns=["cpu_seconds"]).reset_index(drop=True)


def test_search_is_reproducible_and_every_deal_replays():
    kw = dict(seed=5, deals=20_000, strategy="backward", min_cards=1800, nodes=300, top=3)
    a = bs.search_long(**kw)
    b = bs.search_long(n_jobs=2, **kw)
    assert a.attrs["extended"] > 0 and a.attrs["states"] > 0 and a.attrs["stopped"] == "deals"
    assert (a["strategy"] == "backward").any()
    assert _plain(a).equals(_plain(b))
    for row in a.itertuples():
        r = bs.play(row.deal)
        assert (r.outcome, r.cards, r.tricks, r.winner) == (row.outcome, row.cards, row.tricks, row.winner)
    assert list(a["cards"]) == sorted(a["cards"], reverse=True)
    # the random search plays the same deals: its longest is the longest random deal, which the
    # backward search extends
    rnd = bs.search_long(seed=5, deals=20_000, strategy="random", top=3)
    assert (rnd["strategy"] == "random").all() and rnd.attrs["states"] == 0
    assert a["cards"].iloc[0] >= rnd["cards"].iloc[0]
    assert rnd["game"].iloc[0] in set(a["game"])


def test_backward_search_lengthens_the_longest_committed_deal():
    # the longest of the 10^9 committed deals (4,481 cards): a deal 23 tricks before its third
    # trick boundary runs into it and lasts 4,845 cards
    df = bs.search_long(summary=load_summary(DATA / "summary-p2.json"), min_cards=4400, nodes=4000, top=1)
    best = df.iloc[0]
    assert (best["strategy"], best["game"], best["boundary"], best["cards"]) == ("backward", 610645057, 3, 4845)
    assert bs.play(best["deal"]).cards == 4845 > 4481


def test_whole_trees_from_every_game_of_a_summary():
    # min_cards=1: all 20 longest games of the summary run back, through their whole ancestor trees,
    # which hold the deal a budget of 4,000 states found (above), so at least as long a deal
    df = bs.search_long(summary=load_summary(DATA / "summary-p2.json"), min_cards=1, nodes=10**6, top=20)
    assert df.attrs["extended"] == 20 and len(df) == 20
    assert df["cards"].iloc[0] >= 4845 and (df["cards"] >= df["game"].map(_summary_cards())).all()


def _summary_cards():
    s = load_summary(DATA / "summary-p2.json")
    return dict(zip(s.longest["game"].tolist(), s.longest["cards"].tolist()))


def test_a_cpu_budget_stops_the_search():
    df = bs.search_long(seed=1, seconds=1e-9, strategy="random")
    assert df.attrs["stopped"] == "seconds" and df.attrs["deals"] == 0 and len(df) == 0


def test_a_wall_clock_budget_stops_the_search():
    df = bs.search_long(seed=1, seconds=100.0, wall_seconds=1e-9, strategy="backward")
    assert df.attrs["stopped"] == "wall" and df.attrs["deals"] == 0 and len(df) == 0
    with pytest.raises(ValueError, match="`wall_seconds`"):
        bs.search_long(seed=1, deals=10, wall_seconds=0)


def test_the_random_deals_own_longest_is_reported():
    kw = dict(seed=5, deals=20_000, top=2)
    back = bs.search_long(strategy="backward", min_cards=1800, nodes=10**5, **kw)
    rnd = bs.search_long(strategy="random", **kw)
    assert (back.attrs["random_longest"], back.attrs["random_longest_game"]) == (rnd["cards"].iloc[0],
                                                                                rnd["game"].iloc[0])
    # the whole ancestor trees: more states than a small budget, and at least as long a deal
    small = bs.search_long(strategy="backward", min_cards=1800, nodes=300, **kw)
    assert back.attrs["states"] > small.attrs["states"] and back["cards"].iloc[0] >= small["cards"].iloc[0]


@pytest.mark.parametrize("kw, words", [
    (dict(), "seed"),
    (dict(seed=1), "budget"),
    (dict(seed=1, deals=0), "`deals`"),
    (dict(seed=-1, deals=10), "`seed`"),
    (dict(seed=1, seconds=-1), "`seconds`"),
    (dict(seed=1, seconds=True), "`seconds`"),
    (dict(seed=1, deals=10, strategy="swap"), "`strategy`"),
    (dict(seed=1, deals=10, nodes=0), "`nodes`"),
    (dict(seed=1, deals=10, top=0), "`top`"),
    (dict(seed=1, deals=10, n_jobs=0), "n_jobs"),
    (dict(seed=1, deals=10, rules=bs.Rules(shuffle_pile=True)), "shuffle_pile"),
    (dict(seed=1, deals=10, rules=bs.Rules(max_cards=100)), "max_cards"),
    (dict(seed=1, deals=10, rules=bs.Rules(jokers=1, joker_mode="beggar")), "Beggar"),
    (dict(seed=1, deals=10, rules=bs.Rules(players=3, leader="next")), "leader"),
    (dict(summary="data/summary-p2.json"), "`summary`"),
])
def test_bad_parameters_are_refused(kw, words):
    with pytest.raises(ValueError, match=words):
        bs.search_long(**kw)


def test_summary_excludes_seed_and_rules():
    s = load_summary(DATA / "summary-p3.json")
    with pytest.raises(ValueError, match="none of"):
        bs.search_long(summary=s, seed=1)


def test_expected_longest_is_the_gumbel_law_of_the_tail():
    s = load_summary(DATA / "summary-p2.json")
    t = tail_rate(s, start=0.99).iloc[0]
    b = -np.log1p(-t["rate"])
    e = expected_longest(s, [1e9, 4e9]).set_index("deals")
    # by hand: P(max <= x) = exp(-n S(u) (1 - p)^(x - u)) = 1/2 at the median
    for n in (1e9, 4e9):
        assert e.loc[n, "median"] == pytest.approx(t["threshold"] + np.log(n * t["survival_at_threshold"] / np.log(2)) / b)
        assert e.loc[n, "mean"] == pytest.approx(e.loc[n, "median"] + (np.euler_gamma + np.log(np.log(2))) / b)
    # four times the deals: the longest grows by ln 4 / b cards (about 285)
    assert e.loc[4e9, "mean"] - e.loc[1e9, "mean"] == pytest.approx(np.log(4) / b)
    assert e.loc[1e9, "low"] < 4481 < e.loc[1e9, "high"]  # the committed run's own longest
    with pytest.raises(ValueError, match="n_deals"):
        expected_longest(s, 0)


def test_the_command_prints_the_deals_found(capsys):
    from beggarstats.cli import main

    argv = ["search", "--seed", "5", "--deals", "20000", "--min-cards", "1800", "--nodes", "300", "--top", "2",
            "--jobs", "1"]
    assert main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    df = bs.search_long(seed=5, deals=20_000, min_cards=1800, nodes=300, top=2)
    assert out[0].startswith("20,000 random deals, ") and len(out) == 1 + 2 * len(df)
    for k, row in enumerate(df.itertuples()):
        assert out[1 + 2 * k].split() == [str(row.cards), "cards", str(row.tricks), "tricks", "seat", str(row.winner),
                                          "wins", row.deal]


@pytest.mark.parametrize("argv, flag", [(["--seed", "5", "--deals", "0"], "--deals"),
                                        (["--seed", "5"], "--deals"),
                                        (["--deals", "5"], "--seed"),
                                        (["--seed", "5", "--seconds", "0"], "--seconds"),
                                        (["--seed", "5", "--deals", "9", "--max-cards", "90"], "--max-cards")])
def test_the_command_refuses_bad_options(argv, flag, capsys):
    from beggarstats.cli import main

    assert main(["search", *argv]) == 2
    err = capsys.readouterr().err
    assert flag in err and err.count("\n") == 1
