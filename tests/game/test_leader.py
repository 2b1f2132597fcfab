"""The `leader` option end to end: Rules, the command line and a batch run.

Its rule is traced by hand in tests/engine/test_conformance.py (cases leader-taker / leader-next) and
held to the reference on random deals in tests/engine/test_differential.py.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

import beggarstats as bs
from beggarstats.game.rules import Rules

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "beggarstats", *args], capture_output=True, text=True)


def test_rules_check_and_name_it():
    assert Rules().leader == "taker"
    assert Rules(players=3, leader="next").name == "leader=next"
    with pytest.raises(ValueError, match="`leader`"):
        Rules(leader="winner")
    assert Rules.from_dict(Rules(leader="next").to_dict()).leader == "next"


def test_cli_play_takes_leader():
    # the hand-traced deal of tests/engine/test_conformance.py: 9 cards when the taker leads, 8 when the
    # player after the last payer does
    taker = _cli("play", "J-/--/Q-", "--deck", "any")
    nxt = _cli("play", "J-/--/Q-", "--deck", "any", "--leader", "next")
    assert taker.returncode == nxt.returncode == 0
    assert "after 9 cards and 3 tricks" in taker.stdout
    assert "after 8 cards and 3 tricks" in nxt.stdout


def test_cli_refuses_an_unknown_leader_naming_the_flag():
    done = _cli("play", "J-/--/Q-", "--deck", "any", "--leader", "winner")
    assert done.returncode == 2
    assert "--leader" in done.stderr and "Traceback" not in done.stderr


def test_simulate_with_leader_next_matches_the_reference():
    rules = Rules(players=4, leader="next")
    games = bs.simulate(300, rules=rules, seed=5)
    for g in (0, 17, 299):
        _, r = bs.replay(5, g, rules)
        assert int(games.loc[g, "cards"]) == r.cards
        assert (-1 if r.winner is None else r.winner) == int(games.loc[g, "winner"])
