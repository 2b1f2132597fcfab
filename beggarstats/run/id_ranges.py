"""Sets of game ids as sorted, disjoint ``[lo, hi)`` ranges: what a store was asked for and holds."""

from __future__ import annotations

__all__ = ["merge_ranges", "subtract_ranges", "say_ranges"]


def merge_ranges(ranges) -> list[list[int]]:
    """``ranges`` (pairs ``lo, hi``; empty ones dropped) sorted, overlapping and touching ones joined."""
    out = []
    for lo, hi in sorted((int(a), int(b)) for a, b in ranges if b > a):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def subtract_ranges(ranges, covered) -> list[tuple[int, int]]:
    """The parts of ``ranges`` not in the sorted, disjoint ``covered``."""
    gaps = []
    for lo, hi in ranges:
        at = lo
        for a, b in covered:
            if b <= at or a >= hi:
                continue
            if a > at:
                gaps.append((at, a))
            at = max(at, b)
        if at < hi:
            gaps.append((at, hi))
    return gaps


def say_ranges(ranges, limit: int = 5) -> str:
    """The first ``limit`` ranges for a message, as inclusive ids (``3``, ``10..19``), then how many more."""
    parts = [f"{lo:,}" if hi - lo == 1 else f"{lo:,}..{hi - 1:,}" for lo, hi in ranges[:limit]]
    more = f" and {len(ranges) - limit} more ranges" if len(ranges) > limit else ""
    return ", ".join(parts) + more
