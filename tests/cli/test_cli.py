"""The command line as a user meets it (issue #13, item 5): every rough edge found, with a test."""

import importlib
import io
import json
import re
import subprocess
import sys

import pytest

from beggarstats.cli import build_parser, main
from beggarstats.cli.play import EXAMPLE

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
simulate_module = importlib.import_module("beggarstats.run.simulate")


def test_the_play_help_example_plays(capsys):
    assert main(["play", "--help"]) == 0
    line = next(x for x in capsys.readouterr().out.splitlines() if "beggarstats play --deck any" in x)
    assert line.split() == ["beggarstats", "play", "--deck", "any", EXAMPLE]
    assert main(["play", "--deck", "any", EXAMPLE.strip("'")]) == 0
    assert "seat 0 wins after 9 cards and 1 trick" in capsys.readouterr().out


def test_a_short_deal_without_deck_any_says_how(capsys):
    assert main(["play", EXAMPLE.strip("'")]) == 2
    err = capsys.readouterr().err
    assert "of the standard deck" in err and "--deck any" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", [["simulate"], ["matches", "--matches", "5"]])
@pytest.mark.parametrize("players", ["1", "13"])
def test_players_outside_the_api_range_exit_2(command, players, capsys):
    assert main([*command, "--players", players]) == 2  # the API's range, 2-12 (Rules(players=...))
    assert f"argument --players: must be a whole number from 2 to 12, but {players} was passed" in capsys.readouterr().err


@pytest.mark.parametrize("argv, flag, parameter", [
    (["simulate", "--games", "10", "--max-cards", "0"], "--max-cards", "max_cards"),
    (["simulate", "--games", "10", "--jokers", "3"], "--jokers", "`jokers`"),
    (["matches", "--matches", "5", "--max-rounds", "1"], "--max-rounds", "max_rounds"),
    (["play", "--max-cards", "-4", RECORD], "--max-cards", "max_cards"),
])
def test_errors_name_the_flag_not_the_python_parameter(argv, flag, parameter, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert flag in err and parameter not in err and err.count("\n") == 1


@pytest.mark.parametrize("text, value", [("1e6", 10**6), ("1_000_000", 10**6), ("2.5e3", 2500),
                                         ("1000000", 10**6), ("3.0", 3)])
def test_counts_accept_float_and_underscore_notation(text, value):
    args = build_parser("simulate").parse_args(["simulate", "--games", text, "--chunk-size", text])
    assert args.games == value and args.chunk_size == value


@pytest.mark.parametrize("text", ["1.5", "1e-3", "ten", "1e30"])
def test_counts_refuse_what_is_not_a_whole_number(text, capsys):
    assert main(["simulate", "--games", text]) == 2
    err = capsys.readouterr().err
    assert "argument --games:" in err and text in err


def test_a_closed_pipe_ends_quietly():
    proc = subprocess.Popen([sys.executable, "-m", "beggarstats", "play", "--trace", RECORD],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout.readline().startswith(b"deal")
    proc.stdout.close()  # `| head -1`: the reader goes away; the trace is far longer than a pipe holds
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141  # as a Unix tool killed by SIGPIPE
    assert err == ""


def test_simulate_out_is_checked_before_any_game(tmp_path, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(simulate_module, "simulate", lambda *a, **k: calls.append(a))
    for out, message in [(tmp_path / "missing" / "g.parquet", "does not exist"),
                         (tmp_path, "must name a .parquet file")]:
        assert main(["simulate", "--games", "1e6", "--out", str(out)]) == 2
        err = capsys.readouterr().err
        assert "--out" in err and message in err
    (tmp_path / "dir.parquet").mkdir()
    assert main(["simulate", "--games", "10", "--out", str(tmp_path / "dir.parquet")]) == 2
    assert "is a directory" in capsys.readouterr().err
    assert calls == []


def test_play_stdin_reports_every_bad_line_and_plays_the_rest(monkeypatch, capsys):
    lines = ["K/-", "K/-Z", "", "# a comment", "Q/--", "K"]
    monkeypatch.setattr(sys, "stdin", io.StringIO("\n".join(lines) + "\n"))
    assert main(["play", "--json", "--deck", "any", "-"]) == 2
    out, err = capsys.readouterr()
    assert [json.loads(x)["deal"] for x in out.splitlines()] == ["K/-", "Q/--"]
    errors = err.splitlines()
    assert errors[0].startswith("beggarstats play: error: stdin line 2: hand 1, position 2")
    assert errors[1].startswith("beggarstats play: error: stdin line 6: a deal needs at least 2 hands")
    assert errors[2] == "beggarstats play: 2 bad deals skipped" and len(errors) == 3


def test_play_stdin_closed_is_an_error_not_a_traceback():
    done = subprocess.run(f"{sys.executable} -m beggarstats play - <&-", shell=True, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 2
    assert done.stderr == "beggarstats play: error: stdin is closed: there are no deals to read from '-'\n"


def test_a_store_of_another_run_says_what_differs(tmp_path, capsys):
    argv = ["simulate", "--games", "20", "--store", str(tmp_path / "run")]
    assert main([*argv, "--seed", "1"]) == 0
    capsys.readouterr()
    assert main([*argv, "--seed", "2"]) == 2
    err = capsys.readouterr().err
    assert "holds another run (other seed)" in err and "differ)" not in err


@pytest.mark.parametrize("fmt, bound", [("first_to_1000000000", "K from 1 to 65536"),
                                        ("best_of_200000", "K from 1 to 65536")])
def test_a_format_beyond_the_round_limit_says_the_real_range(fmt, bound, capsys):
    assert main(["matches", "--matches", "5", "--format", fmt]) == 2
    err = capsys.readouterr().err
    assert bound in err and "from 1000000000 to" not in err and err.count("\n") == 1


def test_figures_announces_the_compile_before_it_starts(monkeypatch, capsys):
    from beggarstats.run.warmup import warm_up
    from beggarstats.engine import fast

    compiled = []
    monkeypatch.setattr(fast, "kernels_ready", lambda kernel: False)
    monkeypatch.setattr(fast, "compile_kernels", compiled.append)
    warm_up("two")
    err = capsys.readouterr().err.splitlines()
    assert re.fullmatch(r"compiling the game kernels \(one time, about \d+ CPU-seconds on \d+ process(es)?: \d+ s "
                        r"on a quiet machine, longer on a busy one\)", err[0])
    assert err[1].startswith("compiled the game kernels in") and compiled == ["two"]
    monkeypatch.setattr(fast, "kernels_ready", lambda kernel: True)
    assert warm_up("two") == 0.0 and capsys.readouterr().err == ""


def test_warm_up_compiles_only_what_is_missing_and_says_so_once(monkeypatch, capsys):
    from beggarstats.engine import fast
    from beggarstats.run.warmup import COMPILE_SECONDS, warm_up

    compiled = []
    monkeypatch.setattr(fast, "kernels_ready", lambda kernel: kernel == "two")
    monkeypatch.setattr(fast, "compile_kernels", compiled.append)
    warm_up(("two", "exact"))
    err = capsys.readouterr().err.splitlines()
    assert compiled == ["exact"] and len(err) == 2
    assert err[0].startswith(f"compiling the game kernels (one time, about {COMPILE_SECONDS['exact']} CPU-seconds")


def test_warm_up_compiles_several_kernels_side_by_side_then_loads_them(monkeypatch, capsys):
    """Two missing kernels on two workers: each compiles in a worker process (the slowest first),
    then this process loads both; the notice expects the longer one, not the sum."""
    import joblib

    from beggarstats.engine import fast
    from beggarstats.run import warmup

    apart, loaded = [], []

    class Parallel:  # joblib's, recording the tasks and the backend instead of starting processes
        def __init__(self, n_jobs):
            apart.append(("workers", n_jobs))

        def __call__(self, tasks):
            return [apart.append(args[0]) for _, args, _ in tasks]

    monkeypatch.setattr(joblib, "Parallel", Parallel)
    monkeypatch.setattr(joblib, "cpu_count", lambda: 2)
    monkeypatch.setattr(fast, "kernels_ready", lambda kernel: False)
    monkeypatch.setattr(fast, "compile_kernels", loaded.append)
    warmup.warm_up(("two", "multi"))
    assert apart[0] == ("workers", 2) and apart[1:] == ["multi", "two"] and sorted(loaded) == ["multi", "two"]
    err = capsys.readouterr().err.splitlines()
    cpu = warmup.COMPILE_SECONDS['multi'] + warmup.COMPILE_SECONDS['two']  # CPU: the sum; wall: the longer
    # (one kernel a process: no helper shared)
    assert err[0] == (f"compiling the game kernels (one time, about {cpu} CPU-seconds on 2 processes: "
                      f"{warmup.COMPILE_SECONDS['multi']} s on a quiet machine, longer on a busy one)")
    apart.clear()
    warmup.warm_up(("two", "multi"), n_jobs=1)  # one worker: compiled here, one after the other
    assert apart == [] and loaded[2:] == ["multi", "two"]


def test_warm_up_compiles_here_when_no_worker_process_can_start(monkeypatch, capsys):
    import joblib

    from beggarstats.engine import fast
    from beggarstats.run import warmup

    def broken(n_jobs):
        raise OSError("no processes here")

    loaded = []
    monkeypatch.setattr(joblib, "Parallel", broken)
    monkeypatch.setattr(joblib, "cpu_count", lambda: 2)
    monkeypatch.setattr(fast, "kernels_ready", lambda kernel: False)
    monkeypatch.setattr(fast, "compile_kernels", loaded.append)
    assert warmup.warm_up(("two", "exact")) >= 0 and sorted(loaded) == ["exact", "two"]
    assert capsys.readouterr().err.startswith("compiling the game kernels")


def test_the_expected_compile_time_fills_the_workers_longest_first(monkeypatch):
    from beggarstats.run import warmup

    monkeypatch.setattr(warmup, "COMPILE_SECONDS", {"two": 10, "multi": 30, "exact": 15, "general": 12})
    assert warmup.expected_seconds(("two", "multi", "exact"), 1) == 55
    assert warmup.expected_seconds(("two", "multi", "exact"), 2) == 30  # multi | exact + two
    assert warmup.expected_seconds(("two", "exact", "general"), 2) == 22  # exact + ... | general + two
    assert warmup.expected_seconds(("two",), 4) == 10


def test_the_exact_driver_is_its_own_entry_compiled_by_a_cut_off_game():
    from beggarstats.engine import batch, fast

    fast.compile_kernels("exact")
    assert fast.kernels_ready("exact") and batch.replay_bits.signatures


def test_compiling_a_fast_pass_plays_a_game_it_finishes(monkeypatch):
    """So a worker compiling 'two' or 'multi' compiles that entry and not the exact driver too."""
    from beggarstats.engine import batch, fast

    handed_back = []
    monkeypatch.setattr(batch, "replay_bits", lambda *args: handed_back.append(args))
    for kernel in fast.FAST_PASSES:
        fast.compile_kernels(kernel)
    assert handed_back == []


def test_a_run_needs_the_fast_pass_of_its_table_size():
    import beggarstats as bs
    from beggarstats.engine import fast

    assert fast.kernels_for(bs.Rules()) == ("two",)
    assert fast.kernels_for(bs.Rules(players=5, jokers=2)) == ("multi",)
    assert fast.kernels_for(bs.Rules(players=4, deck=bs.Deck(80, 4, 4, 4, 4))) == ("general",)
    # the common options compile one version of the pass; any other option its `_rules` twin
    for common in (bs.Rules(shuffle_on_loop=True), bs.Rules(jokers=1), bs.Rules(deck="italian")):
        assert fast.kernels_for(common) == ("two",)
    for common in (bs.Rules(players=3, leader="next"), bs.Rules(players=4, direction="ccw"),
                   bs.Rules(players=3, exhausted_tribute="passes_on")):
        assert fast.kernels_for(common) == ("multi",)
    for other in (dict(shuffle_pile=True), dict(end="empty"), dict(end="unable"), dict(max_cards=500),
                  dict(jokers=1, joker_mode="beggar")):
        assert fast.kernels_for(bs.Rules(players=4, **other)) == ("multi_rules",)
    # two players: end='empty' alone and Beggar jokers alone have passes of their own, the rest `two_rules`
    assert fast.kernels_for(bs.Rules(end="empty")) == ("two_empty",)
    assert fast.kernels_for(bs.Rules(jokers=1, joker_mode="beggar")) == ("two_beggar",)
    assert fast.kernels_for(bs.Rules(jokers=2, joker_mode="beggar", deck="italian")) == ("two_beggar",)
    for other in (dict(shuffle_pile=True), dict(end="unable"), dict(max_cards=500), dict(end="empty", max_cards=500),
                  dict(end="empty", jokers=1, joker_mode="beggar"), dict(end="empty", shuffle_pile=True),
                  dict(jokers=1, joker_mode="beggar", shuffle_pile=True)):
        assert fast.kernels_for(bs.Rules(**other)) == ("two_rules",)
    with pytest.raises(ValueError, match="`kernel` must be one of 'two', 'two_rules', 'two_empty', 'two_beggar', "
                                         "'multi', 'multi_rules', 'exact', "
                                         "'general'"):
        fast.compile_kernels("bits")


def test_figures_keeps_a_run_cache_only_when_asked():
    parse = build_parser("figures").parse_args
    assert parse(["figures"]).cache is False and parse(["figures", "--no-cache"]).cache is False
    assert parse(["figures", "--cache"]).cache is True


def test_simulate_with_a_progress_bar_compiles_first_with_a_word(monkeypatch, capsys):
    """From Python too, progress=True compiles before the bar starts (no silent pause inside the
    first chunk, no absurd rate); without a bar nothing is said."""
    import beggarstats as bs
    from beggarstats.engine import fast

    order = []
    monkeypatch.setattr(fast, "kernels_ready", lambda kernel: False)
    monkeypatch.setattr(fast, "compile_kernels", lambda kernel: order.append(("compile", kernel)))
    bs.simulate(50, rules=bs.Rules(players=3), seed=1, n_jobs=1, progress=True)
    err = capsys.readouterr().err
    assert order == [("compile", "multi")]
    assert err.index("compiling the game kernels") < err.index("simulate")
    bs.simulate(50, seed=1, n_jobs=1)
    assert len(order) == 1 and "compiling" not in capsys.readouterr().err
