"""The README's quick start is what CI runs."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _quick_start_commands():
    text = (ROOT / "README.md").read_text()
    block = text.split("## Quick start", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    return [line.strip() for line in block.strip().splitlines()]


def test_quick_start_is_two_commands():
    commands = _quick_start_commands()
    assert len(commands) == 2
    assert commands[0].startswith("python -m pip install . && beggarstats ")


def test_ci_runs_the_readme_test_command():
    ci = (ROOT / ".ci" / "run").read_text()
    assert _quick_start_commands()[1] in ci.splitlines()


def test_the_browser_tests_are_left_out_of_the_quick_start_and_run_by_ci():
    import re
    import tomllib

    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert "-m 'not browser'" in options["addopts"]
    assert any(m.startswith("browser:") for m in options["markers"])
    assert "pytest.mark.browser" in (ROOT / "tests" / "report" / "test_browser.py").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert "python -m pytest -m browser" in ci
    assert ci.index("python -m pytest -m browser") > ci.index(_quick_start_commands()[1])
    assert re.search(r"apt-get install .*chromium", "\n".join(ci))


def test_the_speed_prose_quotes_the_speed_table_beside_it():
    """The ratios the Speed section states in words are the table's own, rounded."""
    import re

    text = (ROOT / "README.md").read_text().split("## Speed", 1)[1].split("## Layout", 1)[0]
    table, prose = text.split("```", 2)[1], text.split("```", 2)[2]
    cpu = float(re.search(r"in CPU time .*: ([0-9.]+)x", table).group(1))
    end_to_end = float(re.search(r"simulate\(\) end-to-end, n_jobs=1\s+[0-9,]+\s+([0-9.]+)x", table).group(1))
    parallel = float(re.search(r"simulate\(\) n_jobs=2\s+[0-9,]+\s+([0-9.]+)x", table).group(1))
    prose = " ".join(prose.split())
    assert f"runs at about {cpu:.2f}x" in prose
    assert f"keeps {end_to_end:.2f}x of the bare engine and scales {parallel:.1f}x on two cores" in prose
    sim = re.search(r"simulate\(n_jobs=1\) in CPU time: [0-9,]+ games/s, ([0-9.]+)x bmn.c .*; ([0-9.]+)x the reference",
                    table)
    assert f"at {float(sim.group(1)):.2f}x `bmn.c` and {float(sim.group(2)):.2f}x the reference C" in prose
    missed = [float(r) for r in re.findall(r"^beggarstats .* ([0-9.]+)x +MISS$", table, re.M)]
    line = re.search(r"other rows cards/s >= ([0-9.]+)x our 2p", table).group(1)
    assert f"The {len(missed)} rows marked MISS" in prose
    assert f"line of {line}x the 2-player cards/s ({min(missed):.2f}-{max(missed):.2f}x)" in prose


def test_the_quick_tier_command_runs_on_the_test_extras():
    """The README's quick-tier command leaves out the slow tests, and the plugin its `-n` needs is
    installed by the test extras of the quick start."""
    text = (ROOT / "README.md").read_text()
    block = text.split("the quick tier", 1)[1].split("```bash", 1)[1].split("```", 1)[0]
    (command,) = block.strip().splitlines()
    assert command.startswith('python -m pytest -m "not slow"')
    _check_workers(command)


def test_the_quick_tier_times_are_the_benchmarks():
    """The README's quick-tier times are benchmarks/quick_tier.log's rows (benchmarks/quick_tier.py),
    and the log's command is the README's."""
    import re

    text = " ".join((ROOT / "README.md").read_text().split())
    log = (ROOT / "benchmarks" / "quick_tier.log").read_text()
    runs = log.split("$ ")[1:]
    on, off = ([tuple(float(x.replace(",", "")) for x in (m[1], m[2], m[3])) + (m[4],) for m in
                re.finditer(r"^ +\d+ +[0-9.]+ +([0-9,]+) +([0-9.]+) +([0-9.]+) +(\w+)", block, re.M)]
               for block in runs)
    assert "PYTHONDONTWRITEBYTECODE=1" in runs[1].splitlines()[0] and "bytecode cache on" in runs[0]
    assert all(r[3] == "met" for r in on + off)
    walls, cpus, tests = sorted(r[1] for r in on), sorted(r[2] for r in on), {r[0] for r in on}
    assert len(on) == 3 and len(tests) == 1
    assert (f"{int(tests.pop()):,} tests, {walls[0]:.1f}-{walls[-1]:.1f} s wall (median {walls[1]:.1f} s) and "
            f"{cpus[0]:.0f}-{cpus[-1]:.0f} CPU-seconds (median {cpus[1]:.0f})") in text
    assert f"one run took {off[0][1]:.1f} s and {off[0][2]:.0f} CPU-seconds" in text
    readme = (ROOT / "README.md").read_text()
    block = readme.split("the quick tier", 1)[1].split("```bash", 1)[1].split("```", 1)[0].strip()
    timed = log.split("quick tier: ", 1)[1].split(";")[0]  # the command the benchmark ran
    assert timed == "-m pytest " + block.split("python -m pytest ", 1)[1].replace('"', "") + " -q -p no:cacheprovider"


def test_the_quick_start_test_command_runs_on_the_test_extras():
    """The whole suite (CI's command) runs on worker processes too: the plugin comes with the test
    extras it installs, and the notebook tests stay on one worker."""
    command = _quick_start_commands()[1]
    assert command.startswith('python -m pip install ".[test]" && python -m pytest')
    assert _check_workers(command), command


def _check_workers(command):
    """If ``command`` runs pytest on worker processes: pytest-xdist is a test extra and the tests kept
    on one worker (xdist_group) stay together (--dist loadgroup). Returns whether it does."""
    import re
    import tomllib

    if not re.search(r"(^| )(-n|--numprocesses)\b", command):
        return False
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    assert any(re.match(r"pytest-xdist\b", e) for e in extras), extras
    grouped = [p.name for p in (ROOT / "tests").rglob("test_*.py")
               if re.search(r"^pytestmark = pytest\.mark\.xdist_group\(", p.read_text(), re.M)]
    assert grouped, "no test is kept on one worker: the notebook tests should be"
    assert "--dist loadgroup" in command, grouped
    return True


FIRST_STEPS = "## First steps in a notebook"
FIRST_CALLS = {"simulate", "length_summary", "kaplan_meier", "first_player_advantage", "compare", "plot_survival"}


def test_the_first_steps_run_and_answer_each_question(warm_kernels, monkeypatch, tmp_path):
    """#50 item 6: a notebook user's first lines, calls and not names: a frame of games, the length
    summary and survival, seat advantage, a paired comparison and one figure. Every line of the
    README's block runs; each bare expression (what a notebook cell shows) answers with a non-empty
    table, the comparison's numbers or a figure."""
    import ast

    import matplotlib
    import matplotlib.pyplot as plt
    import pandas as pd

    text = (ROOT / "README.md").read_text()
    block = text.split(FIRST_STEPS, 1)[1].split("```python", 1)[1].split("```", 1)[0]
    tree = ast.parse(block)
    called = {n.func.attr for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)}
    assert FIRST_CALLS <= called, sorted(FIRST_CALLS - called)
    assert text.index(FIRST_STEPS) < text.index("## Play a deal")  # right after the quick start
    monkeypatch.chdir(tmp_path)
    matplotlib.use("Agg")
    scope: dict = {}
    shown = []
    try:
        for statement in tree.body:
            if isinstance(statement, ast.Expr):
                shown.append(eval(compile(ast.Expression(statement.value), "README", "eval"), scope))
            else:
                exec(compile(ast.Module([statement], []), "README", "exec"), scope)
        assert len(scope["games"]) == 10_000 and not list(tmp_path.iterdir())  # nothing written
        tables, (mean, (low, high), p), figure = shown[:3], shown[3], shown[4]
        assert all(isinstance(t, pd.DataFrame) and len(t) for t in tables)
        assert low < mean < high and 0 <= p <= 1
        assert isinstance(figure, matplotlib.figure.Figure) and figure.axes
    finally:
        plt.close("all")
