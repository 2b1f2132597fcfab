"""Cached kernels compiled from other sources are thrown away (numba alone would keep them when
only an inlined helper's file changed)."""

from beggarstats.kernel_cache import refresh


def _tree(tmp_path):
    (tmp_path / "engine" / "__pycache__").mkdir(parents=True)
    (tmp_path / "rng.py").write_text("x = 1\n")
    (tmp_path / "deals.py").write_text("y = 1\n")
    (tmp_path / "engine" / "kernel_two.py").write_text("z = 1\n")
    return tmp_path / "engine" / "__pycache__"


def test_stale_cache_files_go_when_a_source_changes(tmp_path):
    cache = _tree(tmp_path)
    (cache / "kernel_bits.play-1.py311.nbi").write_text("old")
    refresh(tmp_path)
    assert not list(cache.glob("*.nbi"))  # no stamp yet: unknown origin, thrown away
    (cache / "kernel_bits.play-1.py311.nbi").write_text("new")
    (cache / "kernel_bits.play-1.py311.1.nbc").write_text("new")
    refresh(tmp_path)
    assert len(list(cache.glob("*.nb[ic]"))) == 2  # same sources: kept
    (tmp_path / "engine" / "kernel_two.py").write_text("z = 2\n")  # an inlined helper changes
    refresh(tmp_path)
    assert not list(cache.glob("*.nb[ic]"))


def test_other_files_are_left_alone(tmp_path):
    cache = _tree(tmp_path)
    (cache / "kernel_two.cpython-311.pyc").write_text("bytecode")
    refresh(tmp_path)
    assert (cache / "kernel_two.cpython-311.pyc").exists()
