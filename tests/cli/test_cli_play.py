"""`beggarstats play` and `beggarstats records` as a user meets them."""

import io
import json
import subprocess
import sys

import pytest

from beggarstats.cli import main

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
NEVER_ENDING = "---K---Q-KQAJ-----AAJ--J--/----------Q----KQ-J-----KA"
KEYS = ["deal", "outcome", "winner", "cards", "tricks",
        "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards"]


def test_play_prints_the_spec_figures(capsys):
    assert main(["play", RECORD, NEVER_ENDING]) == 0
    out = capsys.readouterr().out
    assert "seat 1 wins after 8344 cards and 1164 tricks" in out
    assert "the first repeated state comes after 66 tricks (474 cards)" in out
    assert "enters its cycle after 4 tricks (34 cards); the cycle is 62 tricks (440 cards) long" in out


def test_play_json_one_object_per_deal(capsys):
    assert main(["play", "--json", RECORD, NEVER_ENDING]) == 0
    lines = capsys.readouterr().out.splitlines()
    objs = [json.loads(line) for line in lines]
    assert [list(o) for o in objs] == [KEYS, KEYS]
    assert (objs[0]["winner"], objs[0]["cards"], objs[0]["tricks"], objs[0]["loop_tricks"]) == (1, 8344, 1164, None)
    assert (objs[1]["outcome"], objs[1]["loop_start_cards"], objs[1]["loop_cards"]) == ("loop", 34, 440)


def test_play_reads_deals_from_stdin(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"# records\n{RECORD}\n\n{NEVER_ENDING}\n"))
    assert main(["play", "--json", "-"]) == 0
    assert [json.loads(x)["cards"] for x in capsys.readouterr().out.splitlines()] == [8344, 474]


def test_play_trace_lists_the_tricks(capsys):
    assert main(["play", "--trace", "--deck", "any", "QA---/-J--K"]) == 0
    out = capsys.readouterr().out
    assert "0:Q 1:- 1:J 0:A 1:- 1:- 1:K 0:- 0:- 0:-" in out
    assert "[0, 10]" in out


def test_play_rule_options_reach_the_engine(capsys):
    assert main(["play", "--json", "--deck", "any", "--end", "unable", "K/---"]) == 0
    assert json.loads(capsys.readouterr().out)["cards"] == 5


def test_play_command_calls_the_public_play(capsys, monkeypatch):
    """The command parses, calls `beggarstats.run.play.play` and prints: it does not rebuild it."""
    import importlib

    play_module = importlib.import_module("beggarstats.run.play")  # the module, not the function `bs.play`
    calls = []
    real = play_module.play

    def spy(deal, rules=None, **kw):
        calls.append((deal.strip(), rules.end, kw))  # (the command guards a leading '-' from argparse)
        return real(deal, rules, **kw)

    monkeypatch.setattr(play_module, "play", spy)
    assert main(["play", "--json", "--deck", "any", "--end", "unable", "--seed", "3", "K/---", RECORD]) == 0
    from beggarstats import Rules

    unable = Rules(end="unable")
    expected = [real(deal, unable, any_deck=True).cards for deal in ("K/---", RECORD)]
    assert [json.loads(x)["cards"] for x in capsys.readouterr().out.splitlines()] == expected
    assert expected[0] == 5  # test_play_rule_options_reach_the_engine
    assert calls == [("K/---", "unable", {"any_deck": True, "rng": 3, "trace": False}),
                     (RECORD, "unable", {"any_deck": True, "rng": 3, "trace": False})]


def test_a_shuffled_deal_plays_as_the_api_plays_it(capsys):
    """--seed S is the stream of game 0 of S, as `play(..., rng=S)` (or GameStream(S, 0)) gives it."""
    from beggarstats import Rules, play
    from beggarstats.engine.rng import GameStream

    rules = Rules(shuffle_pile=True)
    want = [play(RECORD, rules, rng=GameStream(seed, 0)).summary() for seed in (1, 2)]
    assert want[0] != want[1]  # the seed matters
    for seed, expected in zip((1, 2), want):
        assert play(RECORD, rules, rng=seed).summary() == expected
        assert main(["play", "--json", "--shuffle-pile", "--seed", str(seed), RECORD]) == 0
        assert json.loads(capsys.readouterr().out) == expected
    assert play(NEVER_ENDING, rng=5).summary() == play(NEVER_ENDING).summary()  # no shuffle: the seed is unused
    with pytest.raises(ValueError, match="`rng` must be a whole number from 0 to 2\\*\\*64 - 1"):
        play(NEVER_ENDING, rules, rng=-1)


@pytest.mark.parametrize("argv, message", [
    (["play", "--Z/--"], "hand 0, position 3: unknown card symbol 'Z'"),
    (["play", "----"], "a deal needs at least 2 hands"),
    (["play", RECORD + "A"], "hand 1, position 27: one Ace too many"),
    (["play", "--max-cards", "0", RECORD], "--max-cards: must be a whole number from 1"),
    (["play", "--jokers", "5", RECORD], "--jokers: must be a whole number from 0 to 2"),
    (["play", RECORD, "--K/-"], "deal 2: the deal is missing"),
    # #50: a '/' too many gave a 3-player game with an empty hand, exit 0
    (["play", RECORD + "/"], "hand 2 is empty (a '/' too many at the end?): dealing the standard deck gives each of "
                             "the 3 players a card"),
    (["play", "/" + RECORD], "hand 0 is empty (a '/' too many at the start?)"),
    (["play", RECORD.replace("/", "//")], "hand 1 is empty (two '/' in a row?)"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_an_empty_hand_is_refused_in_a_deal_of_the_deck_and_played_in_one_of_any_cards():
    from beggarstats import DealError, play

    for deal in (RECORD + "/", RECORD.replace("/", "//"), [[0] * 36 + [1, 2, 3, 4] * 4, []]):  # text or values
        with pytest.raises(DealError, match=r"^hand [12] is empty .*only a deal of any cards \(any_deck=True\)"):
            play(deal)
    built = play(RECORD + "/", any_deck=True)  # docs/RULES.md §1: a position built by hand
    assert len(built.place) == 3 and built.out_order[0] == (2,)  # the empty hand is out at the first trick
    assert play("--J/", any_deck=True).winner == 0


def test_bad_option_value_exits_2(capsys):
    assert main(["play", "--end", "never", RECORD]) == 2
    assert "invalid choice: 'never'" in capsys.readouterr().err


def test_records_match_their_published_figures(capsys):
    assert main(["records"]) == 0
    out = capsys.readouterr().out
    assert "Nessler 2022" in out and "8344/8344" in out and "1164/1164" in out
    assert "62t 440c" in out and "MISMATCH" not in out
    assert "10 of 10 records match" in out


def test_installed_command_runs():
    done = subprocess.run([sys.executable, "-m", "beggarstats", "play", "--json", RECORD],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and json.loads(done.stdout)["tricks"] == 1164
