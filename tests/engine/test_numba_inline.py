"""`engine.numba_inline`: numba's inliner copying a helper once a call site, with the same output."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import types

import pytest

# helpers inlined into helpers inlined into a caller, several call sites each: the shape of the engine's
# `passes.trick_pair` -> `kernel_two.trick_two` -> `rulebook` chain, small
_NESTED = '''
from numba import njit

@njit(inline="always")
def leaf(a, b):
    if a > b:
        a -= b
    else:
        b -= a
    for k in range(3):
        a = (a * 31 + k) % 1000003
    return a, b

@njit(inline="always")
def mid(a, b):
    a, b = leaf(a, b)
    a, b = leaf(b, a)
    if a & 1:
        a, b = leaf(a, b)
    return a + b

def top(n, out):
    s = 0
    for i in range(n):
        s += mid(i, s) + mid(s, i)
    out[0] = s
'''

_RUN = '''
import json, sys, types
from numba.core import ir
copies = [0]
deepcopy = ir.Var.__deepcopy__
def counted(self, memo):
    copies[0] += 1
    return deepcopy(self, memo)
ir.Var.__deepcopy__ = counted
target, patch = sys.argv[1], sys.argv[2] == "1"
if target == "cuda":
    ir.Var.__deepcopy__ = deepcopy  # (the CUDA target's own IR classes)
    from numba.cuda.core import ir as cir
    cdeep = cir.Var.__deepcopy__
    def ccounted(self, memo):
        copies[0] += 1
        return cdeep(self, memo)
    cir.Var.__deepcopy__ = ccounted
if patch:
    from beggarstats.engine.numba_inline import install, installed
    if target == "cuda":
        from numba import cuda
    assert install(target) and installed(target)
ns = {}
exec(compile(sys.stdin.read(), "nested.py", "exec"), ns)
if target == "cpu":
    import numpy as np
    from numba import njit
    top = njit(ns["top"])
    out = np.zeros(1, np.int64)
    top(50, out)
    code = top.inspect_llvm(top.signatures[0])
else:
    from numba import cuda, types as nt
    import numba.cuda.dispatcher as dispatcher
    dispatcher.get_current_device = lambda: types.SimpleNamespace(compute_capability=(9, 0))
    code, _ = cuda.compile_ptx(ns["top"], (nt.int64, nt.int64[::1]), cc=(9, 0))
print(json.dumps({"code": code, "copies": copies[0]}))
'''


def _compile(target: str, patch: bool) -> dict:
    env = {**os.environ, "NUMBA_ENABLE_CUDASIM": "0"}
    out = subprocess.run([sys.executable, "-c", _RUN, target, "1" if patch else "0"], input=_NESTED, env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("target", ["cpu", "cuda"])
def test_the_same_code_as_numbas_own_inliner_from_fewer_copies(target):
    """Compiled in fresh processes with numba's inliner as it comes and with `install`'s: the same LLVM IR
    (CPU) or PTX (the CUDA target, sm_90), made with fewer copies of the helpers' variables."""
    own, one_memo = _compile(target, False), _compile(target, True)
    assert one_memo["code"] == own["code"]
    assert len(own["code"]) > 1000
    assert one_memo["copies"] * 2 < own["copies"], (one_memo["copies"], own["copies"])


def test_the_engine_installs_it_for_the_cpu():
    from beggarstats.engine import passes  # noqa: F401 (any module of kernels)
    from beggarstats.engine.numba_inline import install, installed

    assert installed("cpu")
    import numba.core.inline_closurecall as icc

    wrapped = icc.InlineWorker.inline_ir
    assert install("cpu") and icc.InlineWorker.inline_ir is wrapped  # idempotent: wrapped once


def test_an_inliner_it_was_not_written_for_is_left_as_it_is(monkeypatch):
    """A numba whose inliner differs (here: one that copies with something else) keeps its own."""
    from beggarstats.engine import numba_inline

    def inline_ir(self, caller_ir, block, i, callee_ir, callee_freevars, arg_typs=None):
        return callee_ir.copy()

    worker = type("InlineWorker", (), {"inline_ir": inline_ir})
    fake = types.ModuleType("numba.core.inline_closurecall")
    fake.InlineWorker, fake.copy = worker, __import__("copy")
    monkeypatch.setitem(sys.modules, "numba.core.inline_closurecall", fake)
    assert not numba_inline.install("cpu")
    assert worker.inline_ir is inline_ir and not numba_inline.installed("cpu")


def test_each_thread_copies_with_its_own_memo():
    """Two threads inlining at once (a CPU and a CUDA compile hold different locks) never share a memo:
    one thread's call ending in the middle of the other's leaves the other's copies one memo's."""
    import threading

    import numba.core.inline_closurecall as icc

    from beggarstats.engine import numba_inline

    assert numba_inline.install("cpu")
    both_copied, a_done, copies = threading.Barrier(2), threading.Event(), {}

    def inline_ir(self, name):  # as numba's inline_ir uses the module's `copy`: blocks copied one by one
        block = [name]
        first = icc.copy.deepcopy(block)
        both_copied.wait()
        if name == "b":
            a_done.wait()
        copies[name] = (first, icc.copy.deepcopy(block))  # one memo within a call: the same copy again

    wrapped = numba_inline._one_memo(inline_ir)
    threads = {n: threading.Thread(target=wrapped, args=(None, n)) for n in ("a", "b")}
    for t in threads.values():
        t.start()
    threads["a"].join()
    a_done.set()
    threads["b"].join()
    assert copies["a"][0] == ["a"] and copies["b"][0] == ["b"]
    assert all(first is again for first, again in copies.values()), copies
