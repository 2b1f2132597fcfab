"""Can a failed or interrupted parallel run leave numba or the process broken? (issue #21, item 6)

    python tools/thread_faults.py                # 40 faults in one process, then the real thread limit
    python tools/thread_faults.py --rounds 200 --seed 7

A fuzzing process that had gone through ``n_jobs=66210`` (threads that could not start) later died
with a segfault that did not reproduce. This script tries to make one process crash or go wrong
the same way. A child process (``python -X faulthandler``, so a crash prints where it happened)
plays reference runs, then, round after round, one of these faults followed by the same reference
runs, which must be exact, with no thread left behind:

* ``sigint``: Ctrl-C (SIGINT) at a random moment of a two-thread `summarize`, `simulate` or
  `simulate_matches`, while the worker threads are inside the numba kernels;
* ``worker-error``: an exception raised on a worker thread in the middle of a run into a store
  (`simulate_to_store`'s ``reduce``), so joblib abandons the other tasks;
* ``no-thread``: starting a thread fails after 0-6 threads, as when the system's limit is reached
  (``threading.Thread.start`` raises CPython's "can't start new thread"), with 4-16 workers asked;
* ``loky-sigint`` (every fifth round): Ctrl-C in a run on joblib's process backend (loky), whose
  workers are torn down, then a threads run and another loky run.

Then, unless ``--no-limit``, a second child meets the system's own limits: it sets
``RLIMIT_AS`` to the address space it has plus 20 MiB (so the stack of the third new thread cannot
be mapped) and, unless it is root (whom the limit does not bind), ``RLIMIT_NPROC`` to the threads it
has plus two, asks for 8 workers each time, lifts the limit and checks the reference runs again. The last line printed is JSON: the faults tried, the rounds whose later runs
were not exact or left threads behind, the exit status of each child (negative: killed by that
signal, -11 a segfault). Exit status 0 when nothing went wrong.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CHILD = r"""
import json, os, random, signal, sys, tempfile, threading, time
import joblib
import beggarstats as bs
from beggarstats.run.parallel import ThreadLimit

rounds, seed = int(sys.argv[1]), int(sys.argv[2])
rng = random.Random(seed)
ref = bs.summarize(20_000, seed=3, n_jobs=2)
ref_games = bs.simulate(3_000, seed=4, n_jobs=2)
ref_matches = bs.simulate_matches(500, seed=5, n_jobs=2)
for _ in range(100):  # the pool of the last run ends its threads just after the run returns
    if threading.active_count() == 1:
        break
    time.sleep(0.05)
base = threading.active_count()


def exact():
    return (bs.summarize(20_000, seed=3, n_jobs=2) == ref and bs.simulate(3_000, seed=4, n_jobs=2).equals(ref_games)
            and bs.simulate_matches(500, seed=5, n_jobs=2).equals(ref_matches))


LOKY = ("ExecutorManagerThread", "QueueFeederThread")  # loky's reusable executor: kept for the next run
loky_threads = []


def ours():
    # threads beyond the start, loky's reusable executor (two threads, kept on purpose) apart
    names = [t.name for t in threading.enumerate()]
    loky_threads.append(sum(n in LOKY for n in names))
    return len(names) - loky_threads[-1] - base


def settle():
    # threads of an abandoned run finish the kernel call they are in: give them a moment
    for _ in range(100):
        if ours() <= 0:
            break
        time.sleep(0.05)
    return ours()


def interrupted(run):
    timer = threading.Timer(rng.uniform(0.05, 0.5), lambda: os.kill(os.getpid(), signal.SIGINT))
    try:
        timer.start()
        run()
        timer.cancel()
        timer.join()
        time.sleep(0.05)  # a signal sent just before the cancel is raised here
        return "finished first"
    except KeyboardInterrupt:
        timer.join()
        return "interrupted"


def sigint():
    runs = [lambda: bs.summarize(5_000_000, seed=9, n_jobs=2, chunk_size=20_000),
            lambda: bs.simulate(3_000_000, seed=9, n_jobs=2, chunk_size=20_000),
            lambda: bs.simulate_matches(2_000_000, seed=9, n_jobs=2, chunk_size=5_000)]
    return interrupted(rng.choice(runs))


def worker_error():
    at = rng.randrange(1, 8)
    seen = []

    def reduce(arrays, lo, hi):
        seen.append(lo)
        if len(seen) == at:
            raise RuntimeError("fault on a worker")
        return None

    with tempfile.TemporaryDirectory() as tmp:
        try:
            bs.simulate_to_store(200_000, seed=9, n_jobs=2, chunk_size=10_000, store=tmp, reduce=reduce,
                                 collect=lambda lo, hi, value: None)
        except RuntimeError as exc:
            return "raised" if str(exc) == "fault on a worker" else f"other error: {exc}"
    return "not raised"


def no_thread():
    allowed, jobs = rng.randrange(0, 7), rng.choice([4, 8, 16])
    real, started = threading.Thread.start, []

    def start(self):
        if len(started) >= allowed:
            raise RuntimeError("can't start new thread")
        started.append(self)
        return real(self)

    threading.Thread.start = start
    try:
        bs.summarize(200_000, seed=9, n_jobs=jobs)
        return "ran"
    except ThreadLimit:
        return "ThreadLimit"
    except BaseException as exc:
        return f"other error: {type(exc).__name__}: {exc}"
    finally:
        threading.Thread.start = real


def loky_sigint():
    with joblib.parallel_config(backend="loky", n_jobs=2):
        said = interrupted(lambda: bs.summarize(5_000_000, seed=9, chunk_size=20_000, n_jobs=None))
    with joblib.parallel_config(backend="loky", n_jobs=2):
        again = bs.summarize(20_000, seed=3, n_jobs=None) == ref
    return said + ("" if again else ", the next loky run not exact")


faults = {"sigint": sigint, "worker-error": worker_error, "no-thread": no_thread, "loky-sigint": loky_sigint}
tried, bad = {}, []
for i in range(rounds):
    name = "loky-sigint" if i % 5 == 4 else ["sigint", "worker-error", "no-thread"][i % 5 % 3]
    said = faults[name]()
    left = settle()
    ok = exact()
    after = settle()
    tried.setdefault(name, {}).setdefault(said, 0)
    tried[name][said] += 1
    if not ok or left > 0 or after > 0 or said.startswith("other") or "not" in said:
        bad.append({"round": i, "fault": name, "said": said, "exact": ok, "threads left": left,
                    "threads": sorted(t.name for t in threading.enumerate())})
print(json.dumps({"rounds": rounds, "tried": tried, "bad": bad, "most loky threads": max(loky_threads)}))
"""

_LIMIT = r"""
import json, os, resource, threading
import beggarstats as bs
from beggarstats.run.parallel import ThreadLimit

ref = bs.summarize(20_000, seed=3, n_jobs=2)
base = threading.active_count()


def status(key):
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith(key + ":"))


# RLIMIT_NPROC: the threads this process has plus two (root is not bound by it); RLIMIT_AS: the
# address space it has plus 20 MiB, so the stack of the third new thread cannot be mapped
limits = {"RLIMIT_AS": lambda: status("VmSize") * 1024 + 20 * 2**20}
if os.geteuid() != 0:
    limits["RLIMIT_NPROC"] = lambda: status("Threads") + 2
out = {}
for name, value in limits.items():
    which = getattr(resource, name)
    soft, hard = resource.getrlimit(which)
    resource.setrlimit(which, (value(), hard))
    try:
        bs.summarize(200_000, seed=9, n_jobs=8)
        said = "ran"
    except ThreadLimit:
        said = "ThreadLimit"
    except BaseException as exc:
        said = f"other error: {type(exc).__name__}: {exc}"
    resource.setrlimit(which, (soft, hard))
    out[name] = {"said": said, "threads left": threading.active_count() - base,
                 "exact": bs.summarize(20_000, seed=3, n_jobs=8) == ref}
print(json.dumps(out))
"""


def _env(**extra) -> dict:
    return {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""), **extra}


def _last_json(done: subprocess.CompletedProcess) -> dict | None:
    lines = done.stdout.strip().splitlines()
    try:
        return json.loads(lines[-1]) if lines else None
    except json.JSONDecodeError:
        return None


def fuzz(rounds: int, seed: int, timeout: float = 3600) -> dict:
    """Run the faults in one child process; its exit status and its report."""
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", _CHILD, str(rounds), str(seed)], cwd=ROOT,
                          env=_env(), capture_output=True, text=True, timeout=timeout)
    return {"status": done.returncode, "report": _last_json(done), "stderr": done.stderr[-2000:]}


def real_limit(timeout: float = 600) -> dict:
    """The system's own limits in a child: a thread refused by the address-space limit and, when
    this is not root (whom RLIMIT_NPROC does not bind), by the limit on processes; its exit status
    and its report."""
    done = subprocess.run([sys.executable, "-X", "faulthandler", "-c", _LIMIT], cwd=ROOT, env=_env(),
                          capture_output=True, text=True, timeout=timeout)
    return {"status": done.returncode, "report": _last_json(done), "stderr": done.stderr[-2000:]}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=40, help="faults in the one process (default 40)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random choices (default 1)")
    ap.add_argument("--no-limit", action="store_true", help="skip the child that meets the real thread limit")
    args = ap.parse_args(argv)
    out = {"fuzz": fuzz(args.rounds, args.seed)}
    if not args.no_limit:
        out["limit"] = real_limit()
    good = all(r["status"] == 0 and r["report"] is not None for r in out.values())
    # loky keeps one executor (a manager and a feeder thread) for the next run: never more
    good = good and not out["fuzz"]["report"]["bad"] and out["fuzz"]["report"]["most loky threads"] <= 2
    if "limit" in out and good:
        good = all(r["said"] == "ThreadLimit" and r["threads left"] <= 0 and r["exact"]
                   for r in out["limit"]["report"].values())
    for r in out.values():
        if r["status"] == 0:
            r.pop("stderr")
    print(json.dumps(out))
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(main())
