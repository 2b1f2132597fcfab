"""benchmarks/side_by_side.py's verdict: the pairs of old and new runs read as paired data, each row's
geometric mean new/old bounded from below at 95% against the gate."""

from __future__ import annotations

import math

import pytest

from _scripts import load_script

side = load_script("benchmarks/side_by_side.py")


def test_a_row_is_within_the_gate_when_its_lower_bound_is():
    """Worked by hand: ratios 0.98, 1.00, 1.02 have logarithms -0.0202027, 0, 0.0198026, mean
    -0.0001334, sample sd 0.0200030, standard error 0.0115487; Student's t at 95% one-sided on 2
    degrees of freedom is 2.9199856, so the lower bound is exp(-0.0001334 - 0.0337219) = 0.966711."""
    geo, low, verdict = side.gate_row([0.98, 1.00, 1.02], 0.95)
    assert geo == pytest.approx(math.exp(-0.0001334), abs=1e-6)
    assert low == pytest.approx(0.966711, abs=2e-6)
    assert verdict == "within"
    assert side.gate_row([0.98, 1.00, 1.02], 0.97)[2] == "undecided"  # the median 1.00 alone would pass


def test_a_row_clearly_below_the_gate_is_slower_and_too_few_pairs_are_refused():
    assert side.gate_row([0.90, 0.91, 0.92, 0.905], 0.97)[2] == "slower"
    assert side.gate_row([0.995, 1.0, 1.005, 0.998, 1.002], 0.97)[2] == "within"
    with pytest.raises(ValueError, match="`ratios` must hold at least three pairs"):
        side.gate_row([1.0, 1.0], 0.97)


def test_a_gate_outside_zero_to_one_exits_2(tmp_path, capsys):
    (tmp_path / "beggarstats").mkdir()
    assert side.main([str(tmp_path), "--gate", "1.5"]) == 2
    assert "--gate must be in (0, 1]" in capsys.readouterr().err
