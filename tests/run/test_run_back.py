"""`run_back(deal)` and `beggarstats search --deal`: the deals whose games run into a given one."""

from __future__ import annotations

import pytest

import beggarstats as bs
from beggarstats.cli import main
from beggarstats.engine.backward import loop_ancestors, loop_path, main_path, predecessors, step

RECORDS = {r["name"]: r for r in bs.load_records()}
LOOP = RECORDS["Casella 2024"]["deal"]


def test_a_deal_that_ends_gives_the_longest_deal_running_into_it():
    mann, anderson = RECORDS["Mann and Wu 2007"], RECORDS["Anderson 2013"]
    df = bs.run_back(mann["deal"])
    assert len(df) == 1
    row = df.iloc[0]
    # Anderson's deal plays the 2007 deal after 9 tricks: its game is the 2007 game with those in front
    assert (row["deal"], row["cards"], row["outcome"]) == (anderson["deal"], anderson["cards"], "win")
    assert row["cards"] == mann["cards"] + row["cards_back"] and row["boundary"] == 0
    trace = bs.play(anderson["deal"], trace=True).trace
    assert sum(t.cards for t in trace[: row["tricks_back"]]) == row["cards_back"]
    assert df.attrs["outcome"] == "win" and df.attrs["cards"] == mann["cards"] and not df.attrs["stopped"]


def test_a_deal_with_no_longer_ancestor_gives_none():
    df = bs.run_back(RECORDS["Nessler 2022"]["deal"])
    assert df.empty and df.attrs["states"] > 50_000 and not df.attrs["stopped"]


def test_an_uneven_deal_is_run_back_to_the_standard_deal_it_came_from():
    # the state after 3 tricks of Anderson's game, seats turned so that its leader is seat 0
    anderson = RECORDS["Anderson 2013"]
    hands, lead, at = main_path(bs.parse_deal(anderson["deal"]))[3]
    turned = tuple(hands[(lead + s) % 2] for s in range(2))
    assert len(turned[0]) != 26
    df = bs.run_back(turned)
    assert bs.play(turned).cards == anderson["cards"] - at
    assert (df["deal"].iloc[0], df["cards"].iloc[0]) == (anderson["deal"], anderson["cards"])


@pytest.mark.parametrize("rules, seed, game, cards, longest", [
    (bs.Rules(players=3), 26, 7811621, 3889, 4009),  # the longest three-player deal of docs/search.md
    (bs.Rules(players=4, direction="ccw"), 5, 0, 535, 566),
])
def test_more_players_and_either_direction(rules, seed, game, cards, longest):
    from beggarstats.engine.deals import random_deal

    deal = bs.format_deal(random_deal(seed, game, rules)[0])
    df = bs.run_back(deal, rules)
    assert bs.play(deal, rules).cards == cards and len(df) == 1
    assert df["cards"].iloc[0] == longest == bs.play(df["deal"].iloc[0], rules).cards
    assert df["players"].iloc[0] == rules.players


def test_a_deal_that_never_ends_gives_every_deal_running_into_its_loop():
    df = bs.run_back(LOOP)
    assert df.attrs["outcome"] == "loop" and not df.attrs["stopped"]
    assert len(df) == len(set(df["deal"])) >= 20 and LOOP not in set(df["deal"])
    assert (df["outcome"] == "loop").all() and (df["loop_cards"] == RECORDS["Casella 2024"]["loop_cards"]).all()
    assert (df["cards_back"] > 0).all() and (df["tricks_back"] > 0).all()


def test_the_loop_search_leaves_the_loop_out_and_every_state_it_finds_plays_into_the_game():
    hands = bs.parse_deal(LOOP)
    path, start = loop_path(hands, 0)
    assert start == RECORDS["Casella 2024"]["loop_start_tricks"] and len(path) - start == 62
    nxt = step(*path[-1][:2])
    assert nxt[:2] == path[start][:2]  # the state after the last is the first of the cycle
    found, used, stopped = loop_ancestors(hands, 0, (26, 26), nodes=10**6)
    assert not stopped and used > len(path)
    for deal, b, depth, back in found:
        # each found deal (seats turned: its leader at seat 0) plays forward into the game's state b
        # (seats turned likewise) in `depth` tricks of `back` cards, and meets no state of the game before
        state, cards = (deal, 0), 0
        for _ in range(depth):
            assert _turned(*state) not in {_turned(h, ld) for h, ld, _ in path}
            h, ld, c = step(*state)
            state, cards = (h, ld), cards + c
        assert _turned(*state) == _turned(*path[b][:2]) and cards == back


def _turned(hands, leader):
    """A state seen from its leader: the hands from the leader's seat on."""
    return tuple(hands[(leader + s) % len(hands)] for s in range(len(hands)))


def test_a_budget_of_states_stops_the_loop_search():
    df = bs.run_back(LOOP, nodes=200)
    assert df.attrs["stopped"] and df.attrs["states"] == 200 and len(df) < len(bs.run_back(LOOP))


def test_every_state_of_the_cycle_has_exactly_one_predecessor_on_it():
    # the state before it on the cycle; the search leaves it out, and every other predecessor is off the cycle
    hands = bs.parse_deal(LOOP)
    path, start = loop_path(hands, 0)
    cycle = {(h, ld) for h, ld, _ in path[start:]}
    for h, ld, _ in path[start:]:
        on = [(p, pl) for p, pl, _ in predecessors(h, ld) if (p, pl) in cycle]
        assert len(on) == 1


@pytest.mark.parametrize("kw, words", [
    (dict(deal="QA---/-J--K"), "missing"),
    (dict(deal=RECORDS["Nessler 2022"]["deal"], rules=bs.Rules(max_cards=100)), "max_cards"),
    (dict(deal=RECORDS["Nessler 2022"]["deal"], rules=bs.Rules(jokers=1, joker_mode="beggar")), "Beggar"),
    (dict(deal=RECORDS["Nessler 2022"]["deal"], nodes=0), "nodes"),
])
def test_bad_input_is_refused_by_name(kw, words):
    with pytest.raises(ValueError, match=words):
        bs.run_back(**kw)


def test_the_command_runs_a_deal_back(capsys):
    assert main(["search", "--deal", RECORDS["Mann and Wu 2007"]["deal"]]) == 0
    out = capsys.readouterr().out
    assert "ends after 7157 cards" in out and RECORDS["Anderson 2013"]["deal"] in out
    assert "9 tricks (68 cards) back from trick boundary 0" in out
    assert main(["search", "--deal", LOOP, "--top", "2"]) == 0
    out = capsys.readouterr().out
    assert "never ends (a loop of 440 cards)" in out and out.count("loop of 440 cards from card") == 2
    assert "more (--top)" in out


@pytest.mark.parametrize("argv, flag", [
    (["search", "--deal", LOOP, "--seed", "3"], "--seed"),
    (["search", "--deal", LOOP, "--strategy", "random"], "--strategy random"),
    (["search"], "--seed is required"),
    (["search", "--deal", LOOP[:-1]], "missing"),
])
def test_the_command_refuses_a_deal_with_search_options(argv, flag, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert flag in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
