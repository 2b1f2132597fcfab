"""Keep numba's on-disk cache honest.

numba checks a cached kernel against the file that defines it, but the kernels inline functions from
other files (`rng.py`, `kernel_two.py`, ...): edit one of those and numba would load stale machine
code. So every import stamps the cache folders with a hash of all kernel sources (and the numba
version) and empties them when the stamp is out of date. Hashing the few files costs well under a
millisecond.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

__all__ = ["refresh", "sources_digest"]

_STAMP = "beggarstats-kernels.stamp"


def _sources(root: Path) -> list[Path]:
    return [root / "rng.py", root / "deals.py", *sorted((root / "engine").glob("*.py"))]


def sources_digest(root: Path) -> str:
    """Hash of every source file numba compiles kernels from, and of the numba version."""
    import numba

    h = hashlib.sha256(numba.__version__.encode())
    for path in _sources(root):
        if path.exists():
            h.update(path.name.encode() + b"\0" + path.read_bytes())
    return h.hexdigest()


def refresh(root: Path | None = None) -> None:
    """Delete cached kernels compiled from other sources than the ones installed now."""
    root = Path(__file__).resolve().parent if root is None else Path(root)
    digest = sources_digest(root)
    for cache in (root / "__pycache__", root / "engine" / "__pycache__"):
        stamp = cache / _STAMP
        try:
            if stamp.read_text() == digest:
                continue
        except OSError:
            pass
        try:
            for stale in cache.glob("*.nb[ic]"):
                stale.unlink()
            cache.mkdir(exist_ok=True)
            stamp.write_text(digest)
        except OSError:
            pass  # a read-only install: numba then keeps its cache elsewhere, keyed by its own rules
