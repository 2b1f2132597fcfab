"""Every GPU kernel compiled to PTX for sm_90 by numba's real CUDA target, and ptxas's report of each read
(`ptx_kernels.py`, in processes of their own with ``NUMBA_ENABLE_CUDASIM=0``): no GPU is needed. The
simulator's tests (tests/gpu, `test_gpu_isolated`) check what the kernels compute; these check that the
GPU compiler takes them, and what they cost a thread. They run among the suite's own tests, each group on a
worker of its own (tests/conftest.py starts them first), instead of after the simulator's tests in their
one process."""

from __future__ import annotations

import pytest


def _ptx_groups():
    """Every version of `passes.VERSIONS` the GPU compiles (`gpu_kernels.PASSES`, read from the table: a
    row added there is compiled here) and the census's kernels, in two processes (the device functions
    compiled once for the kernels of a process): the two-player ones, and the multi-player ones at three
    players for 'multi' and six for the others (the kernels of a version differ by the table's size only
    in the sizes of their loops)."""
    from beggarstats.engine.passes import VERSIONS

    two = [f"{name}:2" for name, v in VERSIONS.items() if "gpu" in v.callers and v.players == 2]
    multi = [f"{name}:{3 if name == 'multi' else 6}" for name, v in VERSIONS.items()
             if "gpu" in v.callers and v.players == 3]
    return [two + ["census:2"], multi + ["census:6"]]


# PTX for the real target is the slow tier's: the quick tier plays the same kernels in the simulator
@pytest.mark.parametrize("kinds", [pytest.param(g, id="+".join(g), marks=pytest.mark.slow) for g in _ptx_groups()])
def test_kernels_compile_to_ptx_for_hopper(kinds):
    """numba types and compiles every kernel of every version, both ways of sharing out the games and the
    deal of the refill kernels, for the GPU (the simulator does not): PTX for sm_90, which ptxas (run by
    nvJitLink) compiles for sm_90 without spilling a register, each kernel's local memory read
    (`check_local_memory`)."""
    from ptx_kernels import report

    out = report(kinds)
    names = [k["kernel"] for k in out]
    for spec in kinds:
        kind, n = spec.split(":")
        made = ("deal", "refill") if kind == "census" else ("refill rows", "refill summary", "fixed rows",
                                                              "fixed summary")
        assert all(f"{kind} {n} {m}" in names or f"{kind} {m} {n}" in names for m in made), (spec, names)
        assert f"deal {n}" in names or kind == "census", (spec, names)
    check_local_memory(out)


# A thread's local memory, which ptxas reports as its stack frame (issue #54 item 2): the fixed kernels (a game a
# thread, dealt in the thread) keep the multi-player pass's table (`kernel_multi.Table`, sized for
# `gpu_kernels.SEATS` seats: the hands' three planes and length, the ring of seats, the per-seat figures, the
# snapshot), the stream and the shuffled deck of the deal in it
TABLE_BYTES = 8 * 3 * 6 + 8 * 6 + 8 * 4 * 6 + 8 * 3 * 6 + 8 * (1 + 4 * 6) + 8 * 4


def check_local_memory(out):
    """What ptxas says of each kernel: no kernel spills a register; the refill kernels - the product's, for
    2-6 players, the census's too - use no local memory at all: the game in registers (for 3-6 players the
    table as tuples and packed words, `gpu_refill._TABLE_TYPES`), the deal made before (`gpu_refill`); the
    others no more than the multi-player table, the stream and the shuffled deck of the deal (64 bytes)."""
    for k in out:
        assert k["spill_stores"] == 0 and k["spill_loads"] == 0, k
        if "refill" in k["kernel"]:
            assert k["stack"] == 0, k
        else:
            assert 0 < k["stack"] <= TABLE_BYTES + 64, k
