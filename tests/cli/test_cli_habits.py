"""One set of command-line habits (issue #23, item 7): progress on by default on a terminal and
``--no-progress`` everywhere, one ``--jobs`` default, every flag's default in ``--help``,
``--version``, a light ``figures --help``, ``--out`` that never replaces a file silently, win rates
in percent. Only the summary-store check plays games (50)."""

from __future__ import annotations

import argparse
import io
import json
import os
import subprocess
import sys

import pandas as pd
import pytest

import beggarstats
from beggarstats.cli import COMMANDS, build_parser, main
from beggarstats.cli.options import JOBS_DEFAULT, percent, progress_wanted
from beggarstats.cli.simulate import seat_lines

BATCH = ("simulate", "summarize", "matches", "figures")


def _sub(command: str):
    parser = build_parser(command)
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return sub.choices[command]


def _args(command: str, *argv: str):
    return build_parser(command).parse_args([command, *argv])


class _Stream(io.StringIO):
    def __init__(self, tty: bool):
        super().__init__()
        self.tty = tty

    def isatty(self):
        return self.tty


@pytest.mark.parametrize("command", BATCH)
def test_progress_is_on_on_a_terminal_and_every_command_takes_no_progress(command):
    default = _args(command)
    assert progress_wanted(default, _Stream(True)) and not progress_wanted(default, _Stream(False))
    assert not progress_wanted(_args(command, "--no-progress"), _Stream(True))
    assert progress_wanted(_args(command, "--progress"), _Stream(False))


@pytest.mark.parametrize("command", BATCH)
def test_one_default_for_jobs(command):
    assert _args(command).jobs == JOBS_DEFAULT


@pytest.mark.parametrize("command", [c for c in COMMANDS if c != "store"])
def test_every_flag_prints_its_default_in_help(command):
    missing = [a.option_strings[0] for a in _sub(command)._actions
               if a.option_strings and a.dest != "help" and a.help != argparse.SUPPRESS
               and "default" not in (a.help or "")]
    assert not missing, f"beggarstats {command}: no default in the help of {missing}"


def test_version(capsys):
    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"beggarstats {beggarstats.__version__}"


def test_figures_help_imports_no_figure_code():
    """`figures --help` took 10.7 s importing the figure code for two defaults."""
    child = ("import sys, json; from beggarstats.cli import main; code = main(['figures', '--help']); "
             "print(json.dumps({'code': code, 'heavy': sorted(m for m in ('numpy', 'pandas', 'matplotlib', "
             "'numba', 'beggarstats.report.figures') if m in sys.modules)}))")
    done = subprocess.run([sys.executable, "-c", child], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got == {"code": 0, "heavy": []}
    assert "(default 4,000,000)" in done.stdout and "(default 2026)" in done.stdout


@pytest.mark.parametrize("command, name", [("simulate", "games.parquet"), ("summarize", "summary.json")])
def test_out_refuses_to_replace_a_file_without_force(command, name, tmp_path, capsys):
    out = tmp_path / name
    out.write_text("mine")
    assert main([command, "--games", "10", "--seed", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "--force" in err and str(out) in err and out.read_text() == "mine"


def test_win_rates_print_in_percent():
    seats = pd.DataFrame({"seat": [0, 1], "rate": [0.49773, 0.50227], "low": [0.49724, 0.50178],
                          "high": [0.49822, 0.50276], "wins": [1, 3], "games": [4, 4]})
    lines = seat_lines(seats)
    assert lines[1] == "  seat 0: 49.77% [49.72%, 49.82%]  (1 win)"
    assert lines[2] == "  seat 1: 50.23% [50.18%, 50.28%]  (3 wins)"
    assert percent(0.5) == "50.00%"


def test_no_winner_is_said_not_printed_as_nan():
    seats = pd.DataFrame({"seat": [0, 1], "rate": [float("nan")] * 2, "low": [float("nan")] * 2,
                          "high": [float("nan")] * 2, "wins": [0, 0], "games": [0, 0]})
    assert seat_lines(seats) == ["seat win rates: none, no game had a winner"]


def test_play_says_the_players_are_the_hands(capsys):
    assert main(["play", "--players", "3", "K/-/--"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("beggarstats play: error: --players") and "hands of the deal" in err and err.count("\n") == 1


def test_one_card_is_not_one_cards():
    from beggarstats.cli.play import describe

    cut = describe(bs_play("-----/-Q--", max_cards=1))
    assert "cut off after 1 card (0 tricks)" in cut


def bs_play(deal, **rules):
    from beggarstats import Rules, play

    return play(deal, Rules(**rules), any_deck=True)


def test_rule_flags_give_back_the_rules():
    from beggarstats.cli.options import rule_flags, rules_from_args
    from beggarstats.game.rules import Rules

    rules = Rules(players=3, end="unable", jokers=1, shuffle_pile=True, deck="italian", max_cards=500, leader="next")
    flags = rule_flags(rules)
    assert rules_from_args(build_parser("simulate").parse_args(["simulate", *flags])) == rules
    assert rule_flags(Rules()) == []


@pytest.mark.usefixtures("warm_kernels")  # plays 50 games
def test_store_verify_on_a_summary_store_says_what_it_is(tmp_path, capsys):
    from beggarstats.run.summarize import summarize

    summarize(50, seed=3, n_jobs=1, store=tmp_path / "s")
    assert main(["store", "verify", str(tmp_path / "s")]) == 0
    out = capsys.readouterr().out
    assert "a summary store" in out and "summarize --store" in out and "50 games" in out


@pytest.mark.usefixtures("warm_kernels")  # plays 600 games
def test_after_repair_the_advice_is_the_exact_command_to_run(tmp_path, capsys):
    import shlex

    import beggarstats as bs

    store = tmp_path / "run"
    bs.simulate_to_store(600, seed=6, store=store, chunk_size=200, rules=bs.Rules(players=3, end="unable"))
    victim = sorted(store.glob("games-*.parquet"))[1]
    victim.write_bytes(victim.read_bytes()[:50])
    capsys.readouterr()
    assert main(["store", "verify", str(store), "--repair"]) == 1
    out = capsys.readouterr().out
    (command,) = [line.strip() for line in out.splitlines() if line.strip().startswith("beggarstats simulate")]
    argv = shlex.split(command)[1:]
    assert "--players" in argv and "--end" in argv and "--seed" in argv
    assert main([*argv, "--no-progress"]) == 0  # the command, as printed, fills the store again
    assert main(["store", "verify", str(store)]) == 0
    expected = bs.simulate(600, seed=6, rules=bs.Rules(players=3, end="unable"))
    pd.testing.assert_frame_equal(bs.load(store), expected)


def test_messages_name_flags_not_python_parameters():
    from beggarstats.cli import flag_message

    parser = _sub("simulate")
    said = flag_message("pass another directory or the same rules, seed and per_seat.", parser)
    assert said == "pass another directory or the same rules, seed and --per-seat."
    assert flag_message("The value for `max_cards` must be at least 1", parser) == "--max-cards must be at least 1"
    assert flag_message("a store without per_seat: no seat rows", parser) == "a store without --per-seat: no seat rows"


def test_a_parameter_given_a_value_is_the_flag_with_that_value():
    """The API says `device='cuda'` (and "use device='cpu'"); the command line names its flag the way it
    is typed, in every command that has it (the device's checks, the GPU's refusals of a deck)."""
    from beggarstats.cli import flag_message

    parser = _sub("summarize")
    assert flag_message("`device='cuda'` found no usable NVIDIA GPU (no device, or no driver): run on a machine "
                        "with one, or use device='cpu'.", parser) == (
        "--device cuda found no usable NVIDIA GPU (no device, or no driver): run on a machine with one, or use "
        "--device cpu.")
    # a value as passed, a call in the text and a name the command has no flag for stay as they are
    for text in ("variant 'shuffle_pile=maybe': bad", "summarize(device='cuda') keeps it", "rules='standard'"):
        assert flag_message(text, parser) == text


@pytest.mark.usefixtures("warm_kernels")  # plays 500 games
def test_a_resumed_store_run_says_how_many_games_it_loaded_and_played(tmp_path, capsys):
    store = str(tmp_path / "run")
    assert main(["simulate", "--games", "300", "--seed", "4", "--store", store, "--no-progress"]) == 0
    assert "(0 games loaded, 300 played)" in capsys.readouterr().out
    assert main(["simulate", "--games", "500", "--seed", "4", "--store", store, "--no-progress"]) == 0
    assert "(300 games loaded, 200 played)" in capsys.readouterr().out


@pytest.mark.usefixtures("warm_kernels")  # plays 40 matches
def test_match_win_rates_print_in_percent(capsys):
    assert main(["matches", "--matches", "40", "--seed", "1", "--no-progress", "--jobs", "1"]) == 0
    seats = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  seat ")]
    assert len(seats) == 2 and all(line.count("%") == 4 and "fair 50.00%" in line for line in seats)
