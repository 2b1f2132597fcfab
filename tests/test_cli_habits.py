"""One set of command-line habits (issue #23, item 7): progress on by default on a terminal and
``--no-progress`` everywhere, one ``--jobs`` default, every flag's default in ``--help``,
``--version``, a light ``figures --help``, ``--out`` that never replaces a file silently, win rates
in percent. None of these plays a game."""

from __future__ import annotations

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
               if a.option_strings and a.dest != "help" and "default" not in (a.help or "")]
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
