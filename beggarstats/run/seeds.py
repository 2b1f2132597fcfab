"""Fresh seeds for runs asked for with ``seed=None``."""

from __future__ import annotations

import numpy as np

__all__ = ["fresh_seed"]


def fresh_seed() -> int:
    """Fresh entropy for ``seed=None``: a 63-bit integer, to be recorded with the results."""
    return int(np.random.SeedSequence().entropy % (2**63))
