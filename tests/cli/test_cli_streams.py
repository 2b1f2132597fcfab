"""Every sub-command started with a standard stream closed (issue #51 item 5): standard output closed
(``>&-``) is one line on stderr and exit status 2 before anything runs (it was an AttributeError at the
final flush, after the whole run printed into nothing); standard error closed (``2>&-``) never sends
what would be said there into the output."""

import os
import subprocess
import sys

import pytest

from beggarstats.cli import COMMANDS

# arguments each sub-command parses (what they ask for is checked when it runs, after the streams)
ARGS = {"play": ["-K-Q/--A-"], "store": ["verify", "."], "search": ["--seed", "1"]}


def _run(argv, closed: int, cwd):
    return subprocess.run([sys.executable, "-m", "beggarstats", *argv], capture_output=True, text=True, cwd=cwd,
                          timeout=120, preexec_fn=lambda: os.close(closed))


def test_every_command_is_covered():
    assert set(ARGS) <= set(COMMANDS) and len(COMMANDS) >= 10


@pytest.mark.parametrize("command", COMMANDS)
def test_standard_output_closed_is_one_line(command, tmp_path):
    done = _run([command, *ARGS.get(command, [])], 1, tmp_path)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (f"beggarstats {command}: error: standard output is closed (>&-), so nothing could be "
                           f"printed: redirect it to a file, or to /dev/null to discard it\n")
    assert os.listdir(tmp_path) == []  # nothing ran: `figures` wrote no figures/, `store verify` nothing


def test_standard_error_closed_keeps_the_output_clean(tmp_path):
    refused = _run(["simulate", "--games", "-1"], 2, tmp_path)
    assert refused.returncode == 2 and refused.stdout == ""  # the error went nowhere, not into the output
    played = _run(["play", "-K-Q/--A-", "--deck", "any"], 2, tmp_path)
    assert played.returncode == 0 and played.stdout.startswith("deal     -K-Q/--A-")
