"""What one game returns: a `GameResult`, and on request a trace of `Trick` records."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

__all__ = ["Trick", "GameResult", "OUTCOMES"]

OUTCOMES = ("win", "loop", "cutoff")


@dataclass(frozen=True)
class Trick:
    """One trick: who led, every card played (seat, tribute) in order, who took the pile
    (None for a trick cut off unfinished) and every seat's hand size afterwards."""

    leader: int
    plays: tuple[tuple[int, int], ...]
    taker: int | None
    hand_sizes: tuple[int, ...]

    @property
    def cards(self) -> int:
        return len(self.plays)


@dataclass(frozen=True)
class GameResult:
    """The result of one game. Counts are in cards played onto the pile and piles taken.

    ``loop_*`` are None unless a trick-boundary state repeated (``docs/RULES.md``); ``place``,
    ``out_cards`` and ``min_cards`` have one entry per seat.
    """

    deal: str
    outcome: str
    winner: int | None
    cards: int
    tricks: int
    loop_start_tricks: int | None
    loop_start_cards: int | None
    loop_tricks: int | None
    loop_cards: int | None
    out_order: tuple[tuple[int, ...], ...]
    place: tuple[int | None, ...]
    out_cards: tuple[int | None, ...]
    min_cards: tuple[int, ...]
    final_hand_sizes: tuple[int, ...]
    trace: tuple[Trick, ...] | None = None

    JSON_KEYS = ("deal", "outcome", "winner", "cards", "tricks",
                 "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")

    def summary(self) -> dict[str, Any]:
        """The figures of the ``--json`` output, in its key order."""
        return {k: getattr(self, k) for k in self.JSON_KEYS}

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)
