"""The full suite's time and where it goes (issue #53 item 7: at most 6 minutes on two quiet cores,
from a fresh clone and an empty kernel cache).

    python benchmarks/suite_profile.py run --install      # clone HEAD, install it here, time the suite
    python benchmarks/suite_profile.py run --checkout DIR  # time the suite of a checkout installed here
    python benchmarks/suite_profile.py table suite.xml     # the profile of a run's JUnit XML

``run`` times the README's second command as ``.ci/run`` runs it (``python -m pytest -n auto --dist
loadgroup`` in the checkout, with this interpreter) with an empty kernel cache (a fresh
``BEGGARSTATS_CACHE_DIR``, so the kernels' compile is counted) and a fixed ``BEGGARSTATS_TEST_SEED``
(the sampled tests' draw), and prints the wall time, the CPU time of pytest and everything it waited
for (``getrusage(RUSAGE_CHILDREN)``: the xdist workers, the notebooks' kernels, the CLI's child
processes, and the orphans it adopts: joblib's worker processes, where the kernels' warm-up
compiles, are never waited for by the pytest worker that started them), the load average before
and after, and then the table. ``--install`` first clones this repository's HEAD into a temporary folder and runs ``pip install ".[test]"`` there, not counted (as in
the README); without it the checkout's package must already be installed in this environment
(non-editable, as a user has it). Run it from a virtual environment of its own.

``table`` reads the JUnit XML of a run (``--junitxml``): tests/conftest.py adds each test's CPU time
(setup, call and teardown; a session fixture, the kernels' warm-up among them, is charged to the
first test of the worker that asks for it), its worker and its start. It prints the xdist workers'
balance (tests, busy time, when each started its first and ended its last test), the files by CPU
time and the slowest tests by wall time with their CPU time. A test whose CPU time is well under its
wall time waited: for a lock, a child process it did not wait for, or the other core.
"""

from __future__ import annotations

import argparse
import collections
import os
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# The README's second quick-start command (tests/docs/test_readme.py holds the README to .ci/run)
COMMAND = ["-m", "pytest", "-n", "auto", "--dist", "loadgroup"]


def read_junit(path: Path) -> tuple[dict, list[dict]]:
    """The session (start, wall time, counts) and one row per test case of a JUnit XML report."""
    root = ET.parse(path).getroot()
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    session = {"start": datetime.fromisoformat(suite.get("timestamp")).timestamp(),
               "wall": float(suite.get("time")),
               **{k: int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped")}}
    rows = []
    for case in suite.iter("testcase"):
        props = {p.get("name"): p.get("value") for p in case.iter("property")}
        outcome = ("skipped" if case.find("skipped") is not None else
                   "failed" if case.find("failure") is not None or case.find("error") is not None else "passed")
        rows.append({"id": f"{case.get('classname')}::{case.get('name')}",
                     "file": case.get("classname").rsplit(".", 1)[0] if "." in case.get("classname") else case.get("classname"),
                     "wall": float(case.get("time") or 0), "cpu": float(props.get("cpu_s", "nan")),
                     "start": float(props.get("start", "nan")), "worker": props.get("worker", "?"),
                     "outcome": outcome})
    return session, rows


def _module(classname: str) -> str:
    """tests.run.test_store.TestX -> tests/run/test_store.py (a class name is left out)."""
    parts = classname.split(".")
    while parts and not parts[-1].startswith("test_"):
        parts.pop()
    return "/".join(parts) + ".py" if parts else classname


def table(path: Path, top: int = 30) -> str:
    session, rows = read_junit(path)
    out = []
    cpu_total = sum(r["cpu"] for r in rows if r["cpu"] == r["cpu"])
    out.append(f"{session['tests']} tests ({session['failures']} failed, {session['errors']} errors, "
               f"{session['skipped']} skipped), session {session['wall']:.1f} s; the tests' own CPU time "
               f"{cpu_total:.1f} s")
    out.append("")
    out.append("worker   tests   busy s    CPU s   first start s   last end s")
    for worker in sorted({r["worker"] for r in rows}):
        mine = [r for r in rows if r["worker"] == worker and r["start"] == r["start"]]
        if not mine:
            continue
        first = min(r["start"] for r in mine) - session["start"]
        last = max(r["start"] + r["wall"] for r in mine) - session["start"]
        out.append(f"{worker:<8} {len(mine):>5} {sum(r['wall'] for r in mine):>8.1f} "
                   f"{sum(r['cpu'] for r in mine):>8.1f} {first:>15.1f} {last:>12.1f}")
    out.append("")
    files = collections.defaultdict(lambda: [0, 0.0, 0.0])
    for r in rows:
        f = files[_module(r["id"].split("::")[0])]
        f[0] += 1
        f[1] += r["wall"]
        f[2] += r["cpu"] if r["cpu"] == r["cpu"] else 0.0
    out.append(f"{'file':<44} {'tests':>5} {'wall s':>8} {'CPU s':>8}")
    for name, (n, wall, cpu) in sorted(files.items(), key=lambda kv: -kv[1][2])[:top]:
        out.append(f"{name:<44} {n:>5} {wall:>8.1f} {cpu:>8.1f}")
    out.append("")
    out.append(f"{'rank':>4} {'wall s':>7} {'CPU s':>7} {'worker':<6}  test")
    for i, r in enumerate(sorted(rows, key=lambda r: -r["wall"])[:top], 1):
        test = _module(r["id"].split("::")[0]) + "::" + r["id"].split("::", 1)[1]
        out.append(f"{i:>4} {r['wall']:>7.1f} {r['cpu']:>7.1f} {r['worker']:<6}  {test}")
    return "\n".join(out)


def _adopt_orphans() -> None:
    """Make this process the reaper of every orphan it leaves: joblib's worker processes (the kernels'
    warm-up compiles in them) outlive the pytest worker that started them and are never waited for by
    it, so their CPU time would be missing from ``RUSAGE_CHILDREN`` (Linux ``PR_SET_CHILD_SUBREAPER``)."""
    import ctypes

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(36, 1, 0, 0, 0) != 0:  # PR_SET_CHILD_SUBREAPER
        print("could not become the orphans' reaper: CPU time of orphaned processes is not counted", file=sys.stderr)


def _reap(timeout: float = 300.0) -> int:
    """Wait for every orphan adopted (see `_adopt_orphans`); returns how many were still running at the end."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return 0
        if pid == 0:
            if time.monotonic() > deadline:
                return sum(1 for stat in Path("/proc").glob("[0-9]*/stat")
                           if _parent(stat) == os.getpid())
            time.sleep(0.2)


def _parent(stat: Path) -> int:
    try:
        return int(stat.read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return -1


def run(checkout: Path, xml: Path, seed: int, cache: Path | None = None) -> int:
    given = cache is not None
    cache = cache or Path(tempfile.mkdtemp(prefix="beggarstats-empty-cache-"))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env.update(BEGGARSTATS_CACHE_DIR=str(cache), BEGGARSTATS_TEST_SEED=str(seed), MPLBACKEND="Agg")
    command = [sys.executable, *COMMAND, f"--junitxml={xml}"]
    load = os.getloadavg()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=checkout, env=env)
    wall = time.perf_counter() - start
    left = _reap()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    print()
    print(f"{' '.join(['python', *COMMAND])} in {checkout}, seed {seed}, kernel cache {cache} "
          f"({'given' if given else 'empty'}), "
          f"{os.cpu_count()} cores")
    print(f"load average before {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}, after "
          + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    print(f"wall {wall:.1f} s, CPU {cpu:.1f} s (pytest and every process it started, orphans included), "
          f"exit {done.returncode}" + (f"; {left} orphans still running after 300 s" if left else ""))
    print()
    print(table(xml))
    return done.returncode


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="what", required=True)
    r = sub.add_parser("run", help="time the README's full-suite command from an empty kernel cache")
    r.add_argument("--checkout", type=Path, help="a checkout whose package is installed here (default: "
                   "a fresh clone of this repository's HEAD, with --install)")
    r.add_argument("--install", action="store_true", help='clone HEAD and pip install ".[test]" from it first')
    r.add_argument("--xml", type=Path, default=Path("suite.xml"), help="the JUnit XML to write")
    r.add_argument("--seed", type=int, default=1, help="BEGGARSTATS_TEST_SEED (default 1)")
    r.add_argument("--cache", type=Path, help="a kernel cache to use (default: a new, empty one, so the "
                   "kernels' compile is counted; a warm one shows what the tests cost beside the compile)")
    t = sub.add_parser("table", help="the profile of a JUnit XML written by a run")
    t.add_argument("xml", type=Path)
    t.add_argument("--top", type=int, default=30)
    args = ap.parse_args(argv)
    if args.what == "table":
        print(table(args.xml, args.top))
        return 0
    checkout = args.checkout
    if checkout is None:
        if not args.install:
            ap.error("without --checkout, --install clones HEAD and installs it here")
        checkout = Path(tempfile.mkdtemp(prefix="beggarstats-clone-")) / "beggarstats"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(checkout)], check=True)
    if args.install:
        subprocess.run([sys.executable, "-m", "pip", "install", "-q", ".[test]"], cwd=checkout, check=True)
    _adopt_orphans()
    return run(checkout.resolve(), args.xml.resolve(), args.seed, args.cache)


if __name__ == "__main__":
    sys.exit(main())
