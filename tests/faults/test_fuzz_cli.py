"""Every sub-command fuzzed through `beggarstats.cli.main` in-process (issue #40, items 5 and 8; `compare`
and any sub-command added later are in the pool through `COMMANDS`), and the atlas runner
(``python -m beggarstats.report.atlas``, issue #51) through its `main`:
random flags and values (huge, negative, NaN, empty, text, devices and impossible paths) must end
with exit status 0 or 2 and, on 2, one line on stderr: never a traceback, never a hang. Values that
would start a long run (a large --games, `figures` with sane flags) are not generated: the fuzz
tests refusals and small runs, seeded, so a failure repeats: the quick tier's cases are drawn from
the session's BEGGARSTATS_TEST_SEED (printed in the header and with a failure), the slow tier's from
a fixed seed."""

from __future__ import annotations

import argparse
import contextlib
import io
import os
import random
import threading

import pytest

from beggarstats.cli import COMMANDS, build_parser, main

QUICK_CASES = 160  # in the quick tier (about 3 s), drawn afresh each run from the session's seed (tests/conftest.py)
SLOW_CASES = 1200

NUMBERS = ["0", "1", "2", "3", "-1", "-7", "1e30", "9223372036854775808", "18446744073709551616", "nan", "inf",
           "", "x", "1.5", "1_0", "2**63", " "]
COUNTS = ["14,1,1,1,1", "2,1,1,0,0", "9223372036854775808,1,1,1,1", "1,2", "a,b,c,d,e", "0,0,0,0,0",
          "3,1,1,1,1", "-1,1,1,1,1", "", "20,2,2,2,2", "1e3,0,0,0,0"]
DEALS = ["-K-Q/--A-", "K/-1", "", "/", "XXXX/----", "-" * 26 + "/" + "-" * 26, "JQKA/----", "??", "-/-/-/-/-/-/-/-/-/-/-/-/-/-"]
# flags whose sane values would start a long run: only small or refused values are drawn
SMALL = {"games": ["1", "7", "60"], "matches": ["1", "5"], "deals": ["1", "3"], "seconds": ["0", "0.2"],
         "stop": ["0", "1", "30"], "start": ["0", "5"], "max_rounds": ["1", "3"], "nodes": ["1", "50"],
         "max_deals": ["1", "100"]}


def _paths(tmp):
    (tmp / "file.json").write_text("{}")
    (tmp / "dir").mkdir(exist_ok=True)
    return [str(tmp / "new"), str(tmp / "file.json"), str(tmp / "dir"), "/dev/null/x", "", "/dev/null",
            str(tmp / "new.parquet"), str(tmp / "out.json"), "/proc/x", str(tmp / "dir" / "deep" / "out.json")]


def _actions(parser: argparse.ArgumentParser):
    return [a for a in parser._actions if a.option_strings and a.dest not in ("help", "version")]


def _sub(parser, name):
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return action.choices[name]
    raise KeyError(name)


def _value(rng, action, paths):
    name = action.dest
    if name == "device":  # never a GPU run: none here, and numba's simulator (tests/gpu/test_gpu.py) is slow
        return rng.choice(["cpu", "bogus", ""])
    if action.choices:
        return rng.choice(list(action.choices) + ["bogus", ""])
    if name in ("out", "store"):
        return rng.choice(paths)
    if name == "counts":
        return rng.choice(COUNTS)
    if name == "deal":
        return rng.choice(DEALS)
    if name in SMALL and rng.random() < 0.6:
        return rng.choice(SMALL[name])
    value = rng.choice(NUMBERS)
    if name in SMALL and value in ("9223372036854775808", "18446744073709551616", "1e30", "inf"):
        value = rng.choice(["-1", "x", "nan", "1.5"])  # a huge count is tested by the refusals, not run
    return value


def _argv(rng, command, paths):
    parser = _sub(build_parser(command), command)
    argv = [command]
    if command == "store":
        argv.append(rng.choice(["verify", "bogus"]))
        argv.append(rng.choice(paths))
        if rng.random() < 0.5:
            argv.append("--repair")
        return argv
    for action in rng.sample(_actions(parser), k=min(len(_actions(parser)), rng.randint(0, 4))):
        flag = rng.choice(action.option_strings)
        if action.nargs == 0:
            argv.append(flag)
        else:
            argv += [flag, _value(rng, action, paths)]
    if command == "play":
        argv += rng.sample(DEALS, k=rng.randint(0, 2))
    if command == "figures":  # never a real figures run (the last --games wins)
        argv += ["--games", rng.choice(["0", "-1", "x", "nan", "9223372036854775808"])]
    if command == "compare":  # never the pilot that sizes a run (a minute or more; tests/cli/test_cli_compare.py)
        argv += ["--games", rng.choice(["0", "-1", "x", "60"])]
    if command == "explore":  # never a server, which runs until Ctrl-C (tests/report/test_browser.py starts one)
        argv += ["--games", rng.choice(["0", "-1", "x", "99"])]
    if command == "matches":  # never 10,000 matches (a small --max-cards replays every round: 15 s)
        argv += ["--matches", rng.choice(["0", "-1", "x", "5"])]
    if command == "census" and "--counts" not in argv and rng.random() < 0.7:
        argv += ["--counts", rng.choice(["2,1,1,0,0", "3,1,1,1,1", "4,1,1,1,0"])]
    if "--chunk-size" in argv and command in ("simulate", "summarize"):  # chunks of 1 game: 10^4 tasks, 3-12 s
        argv += ["--games", rng.choice(SMALL["games"])]
    if command == "census" and "20,2,2,2,2" in argv:  # 7.8x10^9 deals, under the refusal: 20 min or more
        argv += ["--stop", "30"]
    return argv


def _run(argv, timeout=120):
    """main(argv) in a thread: (exit status, stdout, stderr), or fail on a hang or a traceback."""
    box = {}

    def target():
        out, err = io.StringIO(), io.StringIO()
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                box["code"] = main(argv)
        except BaseException as exc:  # noqa: BLE001 - reported as the failure it is
            box["exc"] = exc
        box["out"], box["err"] = out.getvalue(), err.getvalue()

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"beggarstats {' '.join(argv)!r} still running after {timeout} s"
    assert "exc" not in box, f"beggarstats {argv!r} raised {type(box['exc']).__name__}: {box['exc']}"
    return box["code"], box["out"], box["err"]


def _fuzz(tmp_path, n, seed):
    rng = random.Random(seed)
    paths = _paths(tmp_path)
    counts = {"cases": 0, "exit 0": 0, "exit 2": 0}
    for i in range(n):
        command = COMMANDS[i % len(COMMANDS)]
        argv = _argv(rng, command, paths)
        code, _, err = _run(argv)
        assert code in (0, 1, 2), (argv, code, err)  # 1: `store verify` found problems (documented)
        assert "Traceback" not in err and "Error:" not in err.replace("error:", ""), (argv, err)
        if code == 2:
            lines = [x for x in err.splitlines() if x.strip() and "Warning" not in x and "warnings.warn" not in x]
            assert lines and lines[-1].startswith("beggarstats"), (argv, err)
        counts["cases"] += 1
        counts[f"exit {code}"] = counts.get(f"exit {code}", 0) + 1
    print(f"\nCLI fuzz (seed {seed}): {counts}")
    return counts


@pytest.fixture(autouse=True)
def _elsewhere(tmp_path, monkeypatch):
    """Every fuzzed command runs in a scratch directory: `figures` without --out writes figures/ in
    the working directory, which must never be the checkout's (it once rewrote its figures)."""
    monkeypatch.chdir(tmp_path)


def test_fuzz_every_subcommand_quick(tmp_path, sample_rng):
    counts = _fuzz(tmp_path, QUICK_CASES, seed=int(sample_rng.integers(2**32)))
    assert counts["cases"] == QUICK_CASES and counts["exit 2"] > QUICK_CASES // 4


@pytest.mark.slow
def test_fuzz_every_subcommand_slow(tmp_path):
    counts = _fuzz(tmp_path, SLOW_CASES, seed=4040)
    assert counts["cases"] == SLOW_CASES


@pytest.mark.parametrize("argv, says", [
    (["play", "--rank", "73439", "--counts", "9223372036854775808,1,1,1,1"], "The number cards of --counts"),
    (["figures", "--out", "/dev/null/x"], "--out"),
    (["simulate", "--games", "10", "--store", ""], "--store"),
    (["summarize", "--games", "9223372036854775808"], "--games"),
])
def test_the_reported_tracebacks_are_one_line(argv, says):
    code, _, err = _run(argv)
    assert code == 2 and says in err and err.count("\n") == 1 and "Traceback" not in err


def test_a_census_of_an_empty_range_prints_instead_of_dividing_by_zero():
    code, out, err = _run(["census", "--counts", "14,1,1,1,1", "--stop", "0"])
    assert code == 0 and "0 deals (an empty range of ranks)" in out and not err


# -- the atlas runner (python -m beggarstats.report.atlas), issue #51 ------------------------------
ATLAS_TINY = ((2, (1, 1, 1, 1, 1), "trick"), (2, (3, 1, 1, 0, 0), "trick"))  # 120 and 20 deals


def _atlas_roots(tmp):
    """Folders for --root: new, empty, a file, impossible, and ones holding a census file that is cut
    short, a pipe or a folder."""
    from beggarstats.report.atlas import census_file

    roots = [str(tmp / "atlas-new"), str(tmp / "file.json"), "/proc/x", "/dev/null/x", "", str(tmp / "dir")]
    for damage in ("cut", "fifo", "folder"):
        root = tmp / f"atlas-{damage}"
        root.mkdir(exist_ok=True)
        path = census_file(*ATLAS_TINY[0], root=root)
        if not os.path.lexists(path):
            {"cut": lambda: path.write_text('{"format": 1, "sha256": "'),
             "fifo": lambda: os.mkfifo(path), "folder": path.mkdir}[damage]()
        roots.append(str(root))
    return roots


def _atlas_run(argv, timeout=120):
    """report.atlas.main(argv) in a thread, as `_run` runs the CLI's."""
    from beggarstats.report import atlas

    box = {}

    def target():
        err = io.StringIO()
        try:
            with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
                box["code"] = atlas.main(argv)
        except BaseException as exc:  # noqa: BLE001 - reported as the failure it is
            box["exc"] = exc
        box["err"] = err.getvalue()

    t = threading.Thread(target=target, daemon=True)
    t.start()
    t.join(timeout)
    assert not t.is_alive(), f"the atlas runner {argv!r} still running after {timeout} s"
    assert "exc" not in box, f"the atlas runner {argv!r} raised {type(box['exc']).__name__}: {box['exc']}"
    return box["code"], box["err"]


def _fuzz_atlas(tmp_path, monkeypatch, n, seed):
    from beggarstats.report import atlas

    monkeypatch.setattr(atlas, "ATLAS_DECKS", ATLAS_TINY)
    monkeypatch.setattr(atlas, "source_data_folder", lambda writer: tmp_path / "atlas-default")  # never the repository's data/census
    rng = random.Random(seed)
    roots = _atlas_roots(tmp_path)
    counts = {"cases": 0}
    for _ in range(n):
        argv = []
        for flag in rng.sample(["--jobs", "--max-deals", "--root", "--progress", "--bogus"], k=rng.randint(0, 3)):
            if flag in ("--progress", "--bogus"):
                argv.append(flag)
            else:
                argv += [flag, rng.choice(roots) if flag == "--root" else rng.choice(NUMBERS + ["1", "2", "200"])]
        code, err = _atlas_run(argv)
        assert code in (0, 2), (argv, code, err)
        assert "Traceback" not in err and "Error:" not in err.replace("error:", ""), (argv, err)
        if code == 2:
            lines = [x for x in err.splitlines() if x.strip()]
            assert lines[-1].startswith(f"{atlas.PROG}: error: "), (argv, err)
        counts["cases"] += 1
        counts[f"exit {code}"] = counts.get(f"exit {code}", 0) + 1
    print(f"\natlas runner fuzz (seed {seed}): {counts}")
    return counts


def test_fuzz_the_atlas_runner_quick(tmp_path, monkeypatch, sample_rng):
    counts = _fuzz_atlas(tmp_path, monkeypatch, 40, seed=int(sample_rng.integers(2**32)))
    assert counts["cases"] == 40 and counts.get("exit 2", 0) > 10


@pytest.mark.slow
def test_fuzz_the_atlas_runner_slow(tmp_path, monkeypatch):
    counts = _fuzz_atlas(tmp_path, monkeypatch, 300, seed=5151)
    assert counts["cases"] == 300 and counts.get("exit 0", 0) > 0
