"""What numba's compile costs with its own inliner and with `engine.numba_inline`'s (one memo a call site).

    python benchmarks/compile_time.py                  # both rows, once each way
    python benchmarks/compile_time.py --rows gpu --repeat 3

Every measurement runs in a fresh process (CPU seconds of that process and its children):

* ``cpu``: the kernels a first run compiles (`engine.fast.KERNELS` and the census's,
  `run.warmup.warm_up` on one process) into an empty kernel cache;
* ``gpu``: the two-player standard version's refill rows kernel (`engine.gpu_refill`, the costliest
  kind) compiled to PTX for sm_90 by numba's real CUDA target (no GPU needed; needs the ``cuda`` extra).

"numba's" runs with `numba_inline.install` made a no-op before the engine is imported, "one memo" as
the package runs. The code compiled is the same either way (tests/engine/test_numba_inline.py).
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_CHILD = r"""
import sys, types
if sys.argv[2] == "numba":
    import beggarstats.engine.numba_inline as m
    m.install = lambda target="cpu": False
if sys.argv[1] == "cpu":
    from beggarstats.engine.fast import KERNELS
    from beggarstats.run.warmup import CENSUS_KERNELS, warm_up
    warm_up(tuple(KERNELS) + tuple(CENSUS_KERNELS), n_jobs=1, stream=open("/dev/null", "w"))
else:
    sys.path.insert(0, sys.argv[3])
    import ptx_kernels
    from numba import cuda
    import numba.cuda.dispatcher as dispatcher
    dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=(9, 0))
    name, kernel, sig = [k for k in ptx_kernels._kernels("two:2", {2}) if k[0] == "two 2 refill rows"][0]
    from beggarstats.engine.numba_inline import installed
    assert installed("cuda") == (sys.argv[2] == "one memo")
    cuda.compile_ptx(kernel.py_func, sig, cc=(9, 0))
"""


def _cpu_seconds(row: str, way: str) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "BEGGARSTATS_CACHE_DIR": cache, "NUMBA_ENABLE_CUDASIM": "0"}
        subprocess.run([sys.executable, "-c", _CHILD, row, way, os.path.join(ROOT, "tests", "engine")], env=env,
                       check=True, cwd=ROOT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rows", default="cpu,gpu", help="cpu, gpu or both (comma-separated)")
    p.add_argument("--repeat", type=int, default=1, help="measurements each way, alternating")
    args = p.parse_args(argv)
    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    print(f"{'row':<5} {'numba inliner CPU-s':>20} {'one memo CPU-s':>15} {'ratio':>6}")
    for row in rows:
        own, one = [], []
        for _ in range(args.repeat):  # alternating, so a change of load falls on both
            own.append(_cpu_seconds(row, "numba"))
            one.append(_cpu_seconds(row, "one memo"))
        a, b = min(own), min(one)
        print(f"{row:<5} {a:>20.1f} {b:>15.1f} {b / a:>6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
