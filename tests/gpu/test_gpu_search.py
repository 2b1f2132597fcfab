"""`search_long(device="cuda")`: the random stage on the GPU (under numba's CUDA simulator, as
tests/gpu/test_gpu.py), the same deals found, in the same rounds, as on the CPU."""

from __future__ import annotations

import os

import pytest

os.environ.setdefault("NUMBA_ENABLE_CUDASIM", "1")

import beggarstats as bs  # noqa: E402

pytestmark = pytest.mark.usefixtures("warm_kernels")

_CLOCKS = ("cpu_seconds", "wall_seconds")


def _same(gpu, cpu):
    assert gpu.drop(columns=["cpu_seconds"]).equals(cpu.drop(columns=["cpu_seconds"]))
    assert {k: v for k, v in gpu.attrs.items() if k not in _CLOCKS} == {
        k: v for k, v in cpu.attrs.items() if k not in _CLOCKS}


@pytest.mark.parametrize("kw", [
    pytest.param(dict(seed=5, deals=3000, strategy="random", top=3), id="random"),
    pytest.param(dict(seed=5, deals=3000, strategy="backward", min_cards=1200, nodes=300, top=3), id="backward",
                 marks=pytest.mark.slow),
    pytest.param(dict(rules=bs.Rules(players=3), seed=9, deals=2000, strategy="random", top=4), id="3p random",
                 marks=pytest.mark.slow),
])
def test_search_with_the_random_stage_on_the_gpu_is_the_cpu_search(kw, monkeypatch):
    from beggarstats.run import search

    monkeypatch.setattr(search, "ROUND", 1000)  # several rounds, as a long search has
    gpu = bs.search_long(device="cuda", **kw)
    cpu = bs.search_long(**kw)
    _same(gpu, cpu)
    assert gpu.attrs["deals"] == kw["deals"]
    if kw["strategy"] == "backward":
        assert gpu.attrs["extended"] > 0 and (gpu["strategy"] == "backward").any()


def test_search_device_is_checked():
    with pytest.raises(ValueError, match="`device` must be one of 'cpu', 'cuda'"):
        bs.search_long(seed=1, deals=10, device="gpu")


def test_the_command_searches_on_the_gpu(capsys):
    from beggarstats.cli import main

    assert main(["search", "--seed", "5", "--deals", "3000", "--strategy", "random", "--top", "3",
                 "--device", "cuda"]) == 0
    out = capsys.readouterr().out
    cpu = bs.search_long(seed=5, deals=3000, strategy="random", top=3)
    assert all(deal in out for deal in cpu["deal"])
