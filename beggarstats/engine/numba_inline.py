"""numba's inliner, made to copy a function once a call site instead of once a block of it.

The engine's helpers are ``inline="always"``: numba pastes each into its caller at the level of its own
IR, before typing (`passes`, `kernel_two`, `kernel_multi`, `rulebook`...). To paste a helper it copies
the helper's IR twice (`InlineWorker.inline_ir`'s ``copy_ir``), one ``copy.deepcopy`` a block; every
block's variables point to the function's one scope, which holds every variable of the function, so
each block's copy copies the whole scope again: a helper of B blocks and V variables costs B x V, and a
helper that has its own helpers inlined is large in both. Known upstream (numba/numba#8989,
NVIDIA/numba-cuda#688, whose open pull request numba-cuda#689 removes one of the two copies).

`install` gives each call of ``inline_ir`` one memo for all the copies it makes, so an object shared
by the blocks (the scope, a variable used in two blocks) is copied once and shared by the copies as it
was by the originals - what ``copy.deepcopy(blocks)`` would do. Nothing else changes: the same IR comes
out, so the same machine code (tests/engine/test_numba_inline.py compares it with numba's own, and
tests/engine/test_gpu_ptx.py's compiles run with it). What it saves: benchmarks/compile_time.py, its table
in benchmarks/README.md ("The first compile").

A numba whose inliner is not the one this was written for (no ``inline_ir``, or a module whose
``copy`` is not the standard library's) is left as it is: slower to compile, never wrong.
"""

from __future__ import annotations

import copy
import functools
import sys
import threading

__all__ = ["install", "installed"]

_MODULES = {"cpu": "numba.core.inline_closurecall", "cuda": "numba.cuda.core.inline_closurecall"}


class _OneMemo:
    """Stands in for the ``copy`` module in numba's inliner: ``deepcopy`` with the memo of the
    ``inline_ir`` call under way in this thread (the CPU's and the CUDA target's compiles each hold a
    lock of their own, so two threads may inline at once, one for each)."""

    local = threading.local()

    @staticmethod
    def deepcopy(x, memo=None):
        return copy.deepcopy(x, getattr(_OneMemo.local, "memo", None) if memo is None else memo)


def _one_memo(inline_ir):
    @functools.wraps(inline_ir)
    def wrapped(self, *args, **kwargs):
        local = _OneMemo.local
        saved, local.memo = getattr(local, "memo", None), {}
        try:
            return inline_ir(self, *args, **kwargs)
        finally:
            local.memo = saved

    wrapped.__beggarstats_one_memo__ = True
    return wrapped


def _copies_blocks(inline_ir) -> bool:
    """Whether ``inline_ir`` is the one this module was written for: a nested ``copy_ir`` that
    deep-copies blocks through the module's ``copy``."""
    def names(code):  # the names a code object and the ones nested in it (a comprehension) use
        return set(code.co_names).union(*(names(c) for c in code.co_consts if hasattr(c, "co_names")))

    nested = [c for c in inline_ir.__code__.co_consts if hasattr(c, "co_names")]
    return any(c.co_name == "copy_ir" and {"copy", "deepcopy"} <= names(c) for c in nested)


def install(target: str = "cpu") -> bool:
    """One memo a call site in the inliner of numba's ``target`` ('cpu' or 'cuda'; the CUDA one only
    if numba-cuda is imported already). Idempotent; False where that inliner is not the expected one
    (left as it is) or not imported."""
    name = _MODULES[target]
    if target == "cuda" and name not in sys.modules:
        return False
    if target == "cpu":
        import numba.core.inline_closurecall  # noqa: F401 (numba's own import, done on first compile)
    module = sys.modules[name]
    worker = getattr(module, "InlineWorker", None)
    inline_ir = getattr(worker, "inline_ir", None)
    if inline_ir is None:
        return False
    if getattr(inline_ir, "__beggarstats_one_memo__", False):
        return True
    if getattr(module, "copy", None) is not copy or not _copies_blocks(inline_ir):
        return False
    module.copy = _OneMemo
    worker.inline_ir = _one_memo(inline_ir)
    return True


def installed(target: str = "cpu") -> bool:
    """Whether `install` is in place for ``target``."""
    module = sys.modules.get(_MODULES[target])
    worker = getattr(module, "InlineWorker", None)
    return bool(getattr(getattr(worker, "inline_ir", None), "__beggarstats_one_memo__", False))
