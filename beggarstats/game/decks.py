"""Deck compositions: how many cards of each kind a deck holds (docs/RULES.md section 1)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np

__all__ = ["Deck", "STANDARD", "ITALIAN", "PRESETS", "MAX_DECK_CARDS"]

MAX_DECK_CARDS = 10_000  # cards in a deck: far above any game's (the engines' arrays grow with it)


@dataclass(frozen=True)
class Deck:
    """A deck as a composition: counts of number cards, Jacks, Queens, Kings and Aces.

    Jokers are not part of a deck: the joker variants add them (see ``Rules.jokers``).
    """

    numbers: int = 36
    jacks: int = 4
    queens: int = 4
    kings: int = 4
    aces: int = 4
    name: str = "custom"

    def __post_init__(self) -> None:
        for field in ("numbers", "jacks", "queens", "kings", "aces"):
            value = getattr(self, field)
            if not isinstance(value, (int, np.integer)) or isinstance(value, (bool, np.bool_)) or \
                    not 0 <= value <= MAX_DECK_CARDS:
                raise ValueError(f"Deck `{field}` must be a whole number from 0 to {MAX_DECK_CARDS:,}, but {value!r} "
                                 f"was passed.")
            object.__setattr__(self, field, int(value))  # a NumPy integer is kept as the int it is
        if not isinstance(self.name, str):
            raise ValueError(f"Deck `name` must be a string, but {self.name!r} was passed.")
        if self.size == 0:
            raise ValueError("A deck needs at least one card: the Deck counts (`numbers`, `jacks`, `queens`, `kings`, "
                             "`aces`) are all 0.")
        if self.size > MAX_DECK_CARDS:
            raise ValueError(f"A deck holds at most {MAX_DECK_CARDS:,} cards, but the Deck counts (`numbers`, `jacks`, "
                             f"`queens`, `kings`, `aces`) {self.counts} add up to {self.size:,}.")

    @property
    def counts(self) -> tuple[int, int, int, int, int]:
        """Counts by tribute 0..4 (number, J, Q, K, A)."""
        return (self.numbers, self.jacks, self.queens, self.kings, self.aces)

    @property
    def size(self) -> int:
        return sum(self.counts)

    @classmethod
    def from_counts(cls, counts: Iterable[int], name: str = "custom") -> "Deck":
        """Build a deck from counts by tribute (number, J, Q, K, A)."""
        try:
            counts = tuple(counts)  # each count checked by the constructor, never coerced from text
        except TypeError:
            raise ValueError(f"The value for `counts` must give 5 numbers (number, J, Q, K, A), but {counts!r} was "
                             f"passed.") from None
        if len(counts) != 5:
            raise ValueError(f"The value for `counts` must give 5 numbers (number, J, Q, K, A), but {len(counts)} were "
                             f"passed: {counts!r}.")
        return cls(*counts, name=name)

    @classmethod
    def from_name(cls, name: str) -> "Deck":
        try:
            return PRESETS[name]
        except KeyError:
            raise ValueError(
                f"The value for `deck` must be one of {sorted(PRESETS)} or a Deck, but {name!r} was passed."
            ) from None

    def label(self) -> str:
        """The preset's name, or a custom deck's counts 'n/j/q/k/a' (callers add the word "deck")."""
        if self.name != "custom":
            return self.name
        return "/".join(str(c) for c in self.counts)


STANDARD = Deck(36, 4, 4, 4, 4, name="standard")
# Italian 40-card deck (Cavacamisa / Camicia): penalty cards demand 1, 2, 3.
ITALIAN = Deck(28, 4, 4, 4, 0, name="italian")
PRESETS = {"standard": STANDARD, "italian": ITALIAN}
