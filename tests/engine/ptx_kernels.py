"""Compile GPU kernels to PTX for sm_90 with no GPU, and read ptxas's report of each (run as a script by
tests/engine/test_gpu_ptx.py, with ``NUMBA_ENABLE_CUDASIM=0``).

    python tests/engine/ptx_kernels.py KIND:N ...      # the kernels of a version of passes.VERSIONS
    python tests/engine/ptx_kernels.py census:N ...    # the census's deal and refill kernels

Prints one JSON line a kernel: its name, the PTX's length, and what ptxas reports for it (registers,
stack frame bytes - a thread's local memory - and spill stores and loads). ptxas is run by nvJitLink
(`cuda.bindings.nvjitlink`, the CUDA 13 library numba-cuda links with), which compiles PTX to a cubin
for sm_90 without a GPU or a driver; the CUDA toolkit's own ptxas binary is not installed by the
``cuda`` extra.
"""

from __future__ import annotations

import json
import re
import sys
import types

SM = (9, 0)


def ptxas(ptx: str) -> dict:
    """ptxas's report of the one kernel in ``ptx`` (nvJitLink, ``-verbose``, sm_90)."""
    from cuda.bindings import nvjitlink

    handle = nvjitlink.create(2, [f"-arch=sm_{SM[0]}{SM[1]}", "-verbose"])
    try:
        data = ptx.encode()
        nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), "kernel.ptx")
        nvjitlink.complete(handle)
        log = bytearray(nvjitlink.get_info_log_size(handle))
        nvjitlink.get_info_log(handle, log)
    finally:
        nvjitlink.destroy(handle)
    text = bytes(log).decode(errors="replace")
    frame = re.search(r"(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", text)
    regs = re.search(r"Used (\d+) registers", text)
    if not frame or not regs:
        raise RuntimeError(f"no ptxas report in nvJitLink's log:\n{text}")
    return {"registers": int(regs.group(1)), "stack": int(frame.group(1)), "spill_stores": int(frame.group(2)),
            "spill_loads": int(frame.group(3))}


def _kernels(spec: str, dealt: set):
    """(name, Python function, signature) of every kernel of ``spec`` ('KIND:N' or 'census:N'); the deal
    kernel of a table size once (``dealt``: the sizes whose deal kernel was given already)."""
    from numba import types as nt

    from beggarstats.engine import gpu_census, gpu_kernels, gpu_refill

    u64, i64, b = nt.uint64, nt.int64, nt.boolean
    counts = (i64, i64, u64[::1], u64[::1], u64[::1], i64[:, :, ::1], i64[::1])  # cap .. n_listed
    dp = u64[:, ::1]
    kind, n = spec.split(":")
    n = int(n)
    if kind == "census":
        yield (f"census deal {n}", gpu_census.deal_kernel(n),
               (i64[::1], i64, i64[::1], i64, i64, i64, dp))
        yield f"census refill {n}", gpu_census.census_kernel(n), (dp, i64[::1], i64[::1], i64, i64, *counts)
        return
    rows = (nt.uint32[:, ::1], nt.int8[:, ::1], i64[:, :, ::1])
    if n not in dealt:
        dealt.add(n)
        yield f"deal {n}", gpu_refill.deal_kernel(n), (nt.int8[::1], u64, i64[::1], i64, i64, dp, i64[:, :, ::1], b)
    yield (f"{kind} {n} refill rows", gpu_refill.refill_rows_kernel(kind, n),
           (dp, i64[::1], i64[::1], i64, *rows, b, nt.uint8[::1]))
    yield f"{kind} {n} refill summary", gpu_refill.refill_summary_kernel(kind, n), (dp, i64[::1], i64[::1], i64, i64,
                                                                                   *counts)
    yield (f"{kind} {n} fixed rows", gpu_kernels.rows_kernel(kind, n),
           (nt.int8[::1], i64[::1], u64, i64[::1], *rows, i64[:, :, ::1], b, nt.uint8[::1]))
    yield (f"{kind} {n} fixed summary", gpu_kernels.summary_kernel(kind, n),
           (nt.int8[::1], i64[::1], u64, i64, i64, *counts))


def report(specs) -> list[dict]:
    """This script's report of the kernels of ``specs``, run in a process of its own (numba's real CUDA
    target, not the simulator the GPU tests run under)."""
    import os
    import subprocess
    from pathlib import Path

    out = subprocess.run([sys.executable, str(Path(__file__)), *specs], capture_output=True, text=True, timeout=1500,
                         env={**os.environ, "NUMBA_ENABLE_CUDASIM": "0"})
    if out.returncode != 0:
        raise AssertionError(out.stderr[-3000:])
    return [json.loads(line) for line in out.stdout.splitlines()]


def main(specs) -> int:
    from numba import cuda
    import numba.cuda.dispatcher as dispatcher

    # numba-cuda 0.30 asks the current device for its compute capability when it compiles a device
    # function, even for compile_ptx with cc given: answer for the H100 and H200 (9.0), as no GPU is here
    dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=SM)
    dealt = set()
    for spec in specs:
        for name, kernel, sig in _kernels(spec, dealt):
            ptx, _ = cuda.compile_ptx(kernel.py_func, sig, cc=SM)
            assert f".target sm_{SM[0]}{SM[1]}" in ptx and ".visible .entry" in ptx, name
            print(json.dumps({"kernel": name, "ptx": len(ptx), **ptxas(ptx)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
