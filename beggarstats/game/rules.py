"""`Rules`: one immutable, validated description of every option of docs/RULES.md."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

import numpy as np

from .checks import check_flag, whole
from .decks import Deck, STANDARD

__all__ = ["Rules", "RULES_VERSION", "MAX_PLAYERS", "same_games_as_now", "check_rules", "require_rules", "RuleOption",
           "rule_options", "RANDOM_VALUES", "BACKWARD_VALUES", "random_options", "backward_refusals"]

# Bumped whenever the outcome of any game changes (never for speed-ups). It goes into every saved
# result and cache key.
#   1  first release.
#   2  the shuffle variants' pile shuffle scatters the court cards to random free slots
#      (`rng.scatter_inplace`) instead of a Fisher-Yates shuffle of every card: the same
#      distribution, different draws, so shuffle_pile / shuffle_on_loop games changed one by one.
#   3  a deal with jokers is the deal without them with the jokers inserted at uniform gaps drawn
#      after it (`rng.deal_words`), so joker game g pairs with standard game g: the same
#      distribution, different deals, so every joker game changed; games without jokers did not.
RULES_VERSION = 3


def same_games_as_now(version, *rules) -> bool:
    """Whether games saved under RULES_VERSION ``version`` with ``rules`` (each a `Rules` or its
    dict) are still this version's games: saved under it, or under version 2 with no jokers in any
    of ``rules`` (version 3 changed only the joker deals)."""
    if version == RULES_VERSION:
        return True
    jokers = [r.jokers if isinstance(r, Rules) else (r or {}).get("jokers") for r in rules]
    return version == 2 and RULES_VERSION == 3 and not any(jokers)

MAX_PLAYERS = 12  # the game is played by 2-6; the engines allow a few more.

# The bounds of the whole-number options (one place: Rules checks them, rule_options lists them).
_RANGES = {"players": (2, MAX_PLAYERS), "jokers": (0, 2), "max_cards": (1, 2**32 - 1)}

_CHOICES = {
    "end": ("trick", "empty", "unable"),
    "exhausted_tribute": ("claimant", "passes_on"),
    "direction": ("cw", "ccw"),
    "joker_mode": ("super", "beggar"),
    "unfinished": ("none", "most_cards"),
    "leader": ("taker", "next"),
}


def _choice(name: str, value):
    allowed = _CHOICES[name]
    if value not in allowed:
        raise ValueError(f"The value for `{name}` must be one of {list(allowed)}, but {value!r} was passed.")


@dataclass(frozen=True)
class Rules:
    """The rules of one game (defaults: 2 players, standard deck, the published-record rules).

    Parameters
    ----------
    players : int
        Number of seats, 2 to 6 (up to ``MAX_PLAYERS``). Seat 0 leads the first trick.
    end : {'trick', 'empty', 'unable'}
        When players are out and the game ends (``docs/RULES.md`` section 4).
    exhausted_tribute : {'claimant', 'passes_on'}
        What happens when a payer runs out with 3+ players in the game.
    direction : {'cw', 'ccw'}
        Order of play; 'ccw' is "Suck the Well".
    jokers : int
        Jokers added to the deck (0, 1 or 2).
    joker_mode : {'super', 'beggar'}
        'super': a joker demands 5; 'beggar': it demands 5 and cannot be countered.
    shuffle_pile, shuffle_on_loop : bool
        The shuffle variants (``docs/RULES.md`` section 6).
    deck : Deck or str
        'standard', 'italian' or a custom ``Deck``.
    max_cards : int or None
        Cut-off: at most this many cards are played.
    unfinished : {'none', 'most_cards'}
        Who wins a loop or cut-off game.
    leader : {'taker', 'next'}
        Who leads after a trick: whoever took the pile (the rule texts), or the player after the
        last payer (as several multi-player simulators play it; the same game with 2 players).
    """

    players: int = 2
    end: str = "trick"
    exhausted_tribute: str = "claimant"
    direction: str = "cw"
    jokers: int = 0
    joker_mode: str = "super"
    shuffle_pile: bool = False
    shuffle_on_loop: bool = False
    deck: Deck = field(default=STANDARD)
    max_cards: int | None = None
    unfinished: str = "none"
    leader: str = "taker"

    def __post_init__(self) -> None:
        whole("players", self.players, *_RANGES["players"])
        for name in _CHOICES:
            _choice(name, getattr(self, name))
        whole("jokers", self.jokers, *_RANGES["jokers"])
        for name in ("shuffle_pile", "shuffle_on_loop"):
            check_flag(name, getattr(self, name))
        if self.shuffle_pile and self.shuffle_on_loop:
            raise ValueError("`shuffle_pile` and `shuffle_on_loop` cannot both be set: shuffle_pile already shuffles every pile.")
        if isinstance(self.deck, str):
            object.__setattr__(self, "deck", Deck.from_name(self.deck))
        elif not isinstance(self.deck, Deck):
            raise ValueError(f"The value for `deck` must be 'standard', 'italian' or a Deck, but {self.deck!r} was passed.")
        if self.max_cards is not None:
            whole("max_cards", self.max_cards, *_RANGES["max_cards"])
        if self.n_cards < self.players:
            raise ValueError(f"A deck of {self.n_cards} cards cannot be dealt to {self.players} players: pass fewer `players` "
                             f"or a larger `deck`.")

    # -- derived facts -------------------------------------------------------------------------
    @property
    def counts(self) -> tuple[int, ...]:
        """Cards of each tribute 0..5 in the full deck, jokers included."""
        return self.deck.counts + (self.jokers,)

    @property
    def n_cards(self) -> int:
        return sum(self.counts)

    @property
    def deterministic(self) -> bool:
        """True when play never draws random numbers after the deal (loops can be detected)."""
        return not self.shuffle_pile

    def deck_cards(self) -> np.ndarray:
        """The full deck as int8 tributes in canonical order (numbers, J, Q, K, A, jokers)."""
        return np.repeat(np.arange(6, dtype=np.int8), self.counts)

    @property
    def name(self) -> str:
        """A short readable label of what differs from the standard game (players excluded)."""
        parts = []
        if self.deck != STANDARD:
            parts.append(f"{self.deck.label()} deck")
        if self.jokers:
            parts.append(f"{self.jokers} joker{'s' if self.jokers > 1 else ''} ({self.joker_mode})")
        if self.shuffle_pile:
            parts.append("shuffle_pile")
        if self.shuffle_on_loop:
            parts.append("shuffle_on_loop")
        if self.direction != "cw":
            parts.append(self.direction)
        if self.exhausted_tribute != "claimant":
            parts.append(self.exhausted_tribute)
        if self.end != "trick":
            parts.append(f"end={self.end}")
        if self.max_cards is not None:
            parts.append(f"max_cards={self.max_cards}")
        if self.unfinished != "none":
            parts.append(f"unfinished={self.unfinished}")
        if self.leader != "taker":
            parts.append(f"leader={self.leader}")
        return ", ".join(parts) or "standard"

    def replace(self, **changes: Any) -> "Rules":
        """A copy with some options changed (validated again)."""
        return replace(self, **changes)

    def to_dict(self) -> dict:
        """Plain JSON-able form (the deck as its counts and name)."""
        d = asdict(self)
        d["deck"] = {"counts": list(self.deck.counts), "name": self.deck.name}
        return d

    @classmethod
    def from_dict(cls, d: dict) -> "Rules":
        d = dict(d)
        deck = d.get("deck", "standard")
        if isinstance(deck, dict):
            d["deck"] = Deck.from_counts(deck["counts"], name=deck.get("name", "custom"))
        return cls(**d)


def check_rules(rules: Rules | dict | None) -> Rules:
    """``None`` -> the standard rules; a dict from ``Rules.to_dict()`` is accepted too."""
    if rules is None:
        return Rules()
    if isinstance(rules, dict):
        try:
            return Rules.from_dict(rules)
        except (TypeError, KeyError, AttributeError) as exc:  # unknown or missing keys: say which
            raise ValueError(f"The value for `rules` as a dict must be one from Rules.to_dict() (keys "
                             f"{', '.join(f.name for f in fields(Rules))}; a deck as {{'counts': [...]}}), "
                             f"but {rules!r} was passed ({type(exc).__name__}: {exc}).") from None
    if not isinstance(rules, Rules):
        raise ValueError(f"The value for `rules` must be a Rules, a dict from Rules.to_dict() or None, "
                         f"but {rules!r} was passed.")
    return rules


def require_rules(rules: Rules | dict, *, name: str = "rules") -> Rules:
    """`check_rules` where ``rules`` has no default (a deal's rank, a Summary): None or anything but a
    Rules or its dict is a TypeError naming the parameter."""
    if not isinstance(rules, (Rules, dict)):
        raise TypeError(f"The value for `{name}` must be a Rules or a dict from Rules.to_dict(), but {rules!r:.80} "
                        f"was passed.")
    return check_rules(rules)


@dataclass(frozen=True)
class RuleOption:
    """One option of `Rules`, as the command line and the explorer offer it.

    ``kind`` is 'choice' (one of ``choices``), 'flag' (a bool), 'int' (a whole number from ``low``
    to ``high``; ``None`` allowed when ``optional``) or 'deck'."""

    name: str
    kind: str
    default: object
    choices: tuple = ()
    low: int | None = None
    high: int | None = None
    optional: bool = False


# -- what the engines that play without random numbers, or run tricks backwards, accept ---------------
# Every option of `Rules` is declared here (tests/game/test_rules.py fails on one that is not): the values
# under which it draws random numbers during play (a census and a search refuse them), and the values
# the backward step (engine/backward.py, the rule table's "backward" rows) runs exactly, with why the
# others are refused. A new option must say both before any of those engines accepts it.
RANDOM_VALUES = {"shuffle_pile": (True,), "shuffle_on_loop": (True,)}
# option -> (values the backward step accepts, None for all; why any other is refused)
BACKWARD_VALUES = {
    "players": (None, ""),
    "end": (None, ""),
    "exhausted_tribute": (None, ""),
    "direction": (None, ""),
    "jokers": (None, ""),
    "joker_mode": (("super",), "Beggar jokers"),  # (no joker in the deck: no matter)
    "shuffle_pile": ((False,), "a shuffle variant (play is not deterministic)"),
    "shuffle_on_loop": ((False,), "a shuffle variant (play is not deterministic)"),
    "deck": (None, ""),
    "max_cards": ((None,), "max_cards (a cut-off caps the length searched for)"),
    "unfinished": (None, ""),
    "leader": (("taker",), "leader='next' with 3 or more players (the leader is then not the taker)"),
}


def random_options(rules) -> tuple[str, ...]:
    """The options of ``rules`` set to a value that draws random numbers during play (`RANDOM_VALUES`)."""
    return tuple(name for name, values in RANDOM_VALUES.items() if getattr(rules, name) in values)


def backward_refusals(rules) -> tuple[str, ...]:
    """Why the backward step cannot run ``rules``' tricks backwards (`BACKWARD_VALUES`): one reason per
    option outside its accepted values, each said once; empty when it can."""
    why = []
    for name, (accepted, reason) in BACKWARD_VALUES.items():
        if accepted is None or getattr(rules, name) in accepted:
            continue
        if (name == "joker_mode" and not rules.jokers) or (name == "leader" and rules.players == 2):
            continue  # no joker to pay; with two players the taker leads whichever rule
        if reason not in why:
            why.append(reason)
    return tuple(why)


def rule_options() -> tuple[RuleOption, ...]:
    """Every field of `Rules`, in their order, described once: the single list that the command
    line's flags and the explorer's controls are built from (a test fails when one lacks an option)."""
    out = []
    for f in fields(Rules):
        if f.name in _CHOICES:
            out.append(RuleOption(f.name, "choice", f.default, choices=_CHOICES[f.name]))
        elif f.name == "deck":
            out.append(RuleOption(f.name, "deck", "standard", choices=("standard", "italian")))
        elif isinstance(f.default, bool):
            out.append(RuleOption(f.name, "flag", f.default))
        elif f.name in _RANGES:
            low, high = _RANGES[f.name]
            out.append(RuleOption(f.name, "int", f.default, low=low, high=high, optional=f.default is None))
        else:  # pragma: no cover - a new field must be described here
            raise TypeError(f"Rules.{f.name} has no entry in rule_options()")  # internal: a Rules field added without its option
    return tuple(out)
