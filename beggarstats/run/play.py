"""Play one deal from Python: `play(deal, rules=None)`."""

from __future__ import annotations

import numbers
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ..game.cards import DealError, composition, parse_deal
from ..game.checks import check_flag, check_seed
from ..game.decks import Deck
from ..engine.reference import play_hands
from ..game.results import GameResult
from ..game.rules import MAX_PLAYERS, Rules, check_rules

if TYPE_CHECKING:
    import numpy as np

    from ..engine.rng import GameStream
    from ..game.hints import Deal, DealLike, HandLike, RulesLike

__all__ = ["play", "check_deal", "rules_for_deal"]

_KIND_WORDS = ("number card", "Jack", "Queen", "King", "Ace", "joker")


def _plural(word: str, k: int) -> str:
    return f"{k} {word}{'' if k == 1 else 's'}"


def check_deal(hands, rules: Rules, *, empty_hands: bool = False) -> None:
    """Refuse a deal that is not valid for ``rules``, saying what is wrong and where. An empty hand
    is refused unless ``empty_hands`` (a position built by hand, `play`'s ``any_deck``): dealing a
    deck gives every player a card (`Rules` holds at least one card a player)."""
    if len(hands) < 2:
        raise DealError(f"a deal needs at least 2 hands joined by '/', got {len(hands)}")
    if len(hands) > MAX_PLAYERS:
        raise DealError(f"a deal has at most {MAX_PLAYERS} hands, got {len(hands)}")
    if len(hands) != rules.players:
        raise DealError(f"the deal has {len(hands)} hands but the rules are for {rules.players} players")
    empty = [seat for seat, hand in enumerate(hands) if len(hand) == 0]
    if empty and not empty_hands:
        seat = empty[0]
        slip = ("a '/' too many at the end" if seat == len(hands) - 1 else
                "a '/' too many at the start" if seat == 0 else "two '/' in a row")
        raise DealError(f"hand {seat} is empty ({slip}?): dealing the {rules.deck.label()} deck gives each of the "
                        f"{len(hands)} players a card, so only a deal of any cards (any_deck=True) may leave a "
                        "hand empty")
    have, want = composition(hands), rules.counts
    if have == want:
        return
    for kind in range(6):
        if have[kind] > want[kind]:
            # name the first card too many
            seen = 0
            for seat, hand in enumerate(hands):
                for pos, card in enumerate(hand, start=1):
                    if card == kind:
                        seen += 1
                        if seen == want[kind] + 1:
                            raise DealError(
                                f"hand {seat}, position {pos}: one {_KIND_WORDS[kind]} too many: the deal has "
                                f"{_plural(_KIND_WORDS[kind], have[kind])}, the {rules.deck.label()} deck"
                                f"{' with ' + _plural('joker', rules.jokers) if rules.jokers else ''} has {want[kind]}"
                            )
    missing = ", ".join(_plural(_KIND_WORDS[k], want[k] - have[k]) for k in range(6) if have[k] < want[k])
    raise DealError(f"the deal is missing {missing} of the {rules.deck.label()} deck ({sum(have)} of {sum(want)} cards)")


def hands_from_values(deal: Iterable[HandLike]) -> Deal:
    """A deal given as sequences of card values (0 number card, 1 Jack, 2 Queen, 3 King, 4 Ace,
    5 joker), checked like the text form: a bad value is a `DealError` naming hand and position."""
    import numbers

    try:
        hands = [list(h) for h in deal]
    except TypeError:
        raise DealError(f"a deal must be a string like '--K-/-Q--' or a sequence of hands, each a sequence of card "
                        f"values 0-5, not {type(deal).__name__}") from None
    out = []
    for seat, hand in enumerate(hands):
        for pos, card in enumerate(hand, start=1):
            if not isinstance(card, numbers.Integral) or isinstance(card, bool) or not 0 <= card <= 5:
                raise DealError(f"hand {seat}, position {pos}: {card!r} is not a card value (0 number card, 1 Jack, "
                                f"2 Queen, 3 King, 4 Ace, 5 joker)")
        out.append(tuple(int(c) for c in hand))
    return tuple(out)


def rules_for_deal(hands, rules: Rules | None = None, *, any_deck: bool = False) -> Rules:
    """The rules a deal is played under: ``rules`` with ``players`` set to the number of hands
    (and, with ``any_deck``, the deck and jokers set to the deal's own composition)."""
    if len(hands) < 2 or len(hands) > MAX_PLAYERS:
        check_deal(hands, Rules())  # raises the right message
    rules = rules or Rules()
    changes = {"players": len(hands)}
    if any_deck:
        counts = composition(hands)
        changes.update(deck=Deck.from_counts(counts[:5]), jokers=min(counts[5], 2))
        if counts[5] > 2:
            raise DealError(f"the deal has {counts[5]} jokers; at most 2 are allowed")
    return rules.replace(**changes)


def play(deal: DealLike, rules: RulesLike = None, *, any_deck: bool = False,
         rng: np.random.Generator | GameStream | int | None = None, trace: bool = False) -> GameResult:
    """Play one deal with the reference engine.

    Parameters
    ----------
    deal : str or sequence of hands
        ``'---K--/-Q---'`` notation (seat 0 first, top card first) or hands of tributes.
    rules : Rules or dict, optional
        Defaults to the standard game (a dict from ``Rules.to_dict()`` is accepted, as by
        `simulate`); ``players`` is taken from the number of hands.
    any_deck : bool
        Accept any composition (the deck becomes the deal's own cards).
    rng : numpy.random.Generator, GameStream or int, optional
        For the shuffle variants. An int is a seed: the stream of game 0 of that seed
        (``GameStream(seed, 0)``), made only when the rules shuffle, so that a caller can always
        pass one (``beggarstats play --seed``) and numba is loaded only when it is needed.
    trace : bool
        Record every trick in ``result.trace``.
    """
    rules = check_rules(rules)
    any_deck, trace = check_flag("any_deck", any_deck), check_flag("trace", trace)
    hands = parse_deal(deal) if isinstance(deal, str) else hands_from_values(deal)
    rules = rules_for_deal(hands, rules, any_deck=any_deck)
    check_deal(hands, rules, empty_hands=any_deck)
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        rng = _seeded_stream(int(rng), rules)
    elif rng is not None and not callable(getattr(rng, "shuffle", None)):
        raise ValueError(f"The value for `rng` must be a seed (a whole number), a numpy Generator, a GameStream "
                         f"or None, but {rng!r} was passed.")
    return play_hands(hands, rules, rng=rng, trace=trace)


def _seeded_stream(seed: int, rules: Rules):
    """The stream of game 0 of ``seed`` when ``rules`` shuffle, else None."""
    check_seed(seed, name="rng", none=False)
    if not (rules.shuffle_pile or rules.shuffle_on_loop):
        return None
    from ..engine.rng import GameStream  # numba: only the shuffle variants need it

    return GameStream(seed, 0)
