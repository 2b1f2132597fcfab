"""Cards, hands and deals in the notation of docs/RULES.md section 1.

Only a card's *kind* matters, and every kind is stored as the tribute it demands:
0 number card, 1 Jack, 2 Queen, 3 King, 4 Ace, 5 Joker. A hand is a tuple of tributes, top card
first; a deal is a tuple of hands, seat 0 first.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .hints import HandLike

__all__ = [
    "NUMBER", "JACK", "QUEEN", "KING", "ACE", "JOKER", "KIND_NAMES",
    "DealError", "parse_hand", "parse_deal", "format_hand", "format_deal", "composition",
]

NUMBER, JACK, QUEEN, KING, ACE, JOKER = 0, 1, 2, 3, 4, 5
KIND_NAMES = ("number", "J", "Q", "K", "A", "X")

# Symbol -> tribute. Number cards may be written '-', '2'..'9', 'T', '0' or '10'.
_SYMBOLS = {"-": 0, "T": 0, "J": 1, "Q": 2, "K": 3, "A": 4, "X": 5}
_SYMBOLS.update({str(d): 0 for d in range(10) if d != 1})  # a lone '1' is no card: '10' is
_WRITE = "-JQKAX"


class DealError(ValueError):
    """A deal that is not valid for the chosen rules; the message names the hand and position."""


def parse_hand(text: str, *, hand: int = 0) -> tuple[int, ...]:
    """Parse one hand, top card first, into tributes.

    Spaces are ignored and lower case is accepted. ``hand`` is only used in error messages.
    """
    cards = []
    chars = text.replace(" ", "").upper()
    i = 0
    while i < len(chars):
        ch = chars[i]
        if ch == "1" and chars[i + 1 : i + 2] == "0":  # '10' is one number card
            cards.append(0)
            i += 2
            continue
        if ch not in _SYMBOLS:
            raise DealError(
                f"hand {hand}, position {len(cards) + 1}: unknown card symbol {ch!r} "
                f"(use - or 2-9, T, 10 for number cards, J Q K A, X for a joker)"
            )
        cards.append(_SYMBOLS[ch])
        i += 1
    return tuple(cards)


def parse_deal(text: str) -> tuple[tuple[int, ...], ...]:
    """Parse a deal: the hands of seats 0, 1, ... joined by '/'. Seat 0 leads."""
    if not isinstance(text, str):
        raise DealError(f"a deal must be a string like '--K-/-Q--', not {type(text).__name__}")
    return tuple(parse_hand(part, hand=seat) for seat, part in enumerate(text.split("/")))


def _tribute(card: object, hand: int, position: int) -> int:
    import numbers

    if isinstance(card, bool) or not isinstance(card, numbers.Integral) or not 0 <= card <= JOKER:
        raise DealError(f"hand {hand}, position {position}: a card must be a tribute 0-5 (a whole number), "
                        f"but {card!r} was passed")
    return int(card)


def format_hand(hand: HandLike, *, seat: int = 0) -> str:
    """Write a hand in the canonical notation ('-' for every number card)."""
    if isinstance(hand, (str, bytes)) or not hasattr(hand, "__iter__"):
        raise DealError(f"hand {seat}: a hand must be a sequence of tributes 0-5, but {hand!r:.60} was passed")
    return "".join(_WRITE[_tribute(c, seat, pos)] for pos, c in enumerate(hand, start=1))


def format_deal(hands: Iterable[HandLike]) -> str:
    """Write a deal: hands joined by '/'. A DealError (a ValueError) names the hand and position of
    anything that is not a tribute 0-5."""
    if isinstance(hands, (str, bytes)) or not hasattr(hands, "__iter__"):
        raise DealError(f"a deal must be a sequence of hands (sequences of tributes 0-5), but {hands!r:.60} was passed")
    return "/".join(format_hand(h, seat=seat) for seat, h in enumerate(hands))


def composition(hands: Iterable[HandLike]) -> tuple[int, ...]:
    """How many cards of each kind (tribute 0..5) the hands hold together."""
    counts = [0] * 6
    for hand in hands:
        for c in hand:
            counts[int(c)] += 1
    return tuple(counts)
