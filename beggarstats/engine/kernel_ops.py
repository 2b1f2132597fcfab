"""Bit operations shared by the bit-plane kernels."""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core.extending import intrinsic

from .kernel_cache import install as _install_kernel_cache

__all__ = ["cttz", "popcount"]

_install_kernel_cache()  # compiled kernels go to the per-user cache (kernel_cache.py)


@intrinsic
def cttz(typingctx, x):
    """Count trailing zeros of a uint64 (64 for 0): one instruction (tzcnt/bsf)."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.cttz(args[0], ir.Constant(ir.IntType(1), 0))

    return sig, codegen


@intrinsic
def popcount(typingctx, x):
    """The number of set bits of a uint64: one instruction (popcnt) where the CPU has it."""
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])

    return sig, codegen
