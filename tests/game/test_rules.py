"""`Rules`: validation with messages naming the parameter, readable names, round trips."""

import re

import pytest

from beggarstats.game.decks import Deck
from beggarstats.game.rules import Rules


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"players": 1}, r"`players` must be a whole number from 2 to 12, but 1"),
        ({"players": 13}, r"`players` must be a whole number from 2 to 12"),
        ({"end": "never"}, r"`end` must be one of \['trick', 'empty', 'unable'\], but 'never'"),
        ({"exhausted_tribute": "x"}, r"`exhausted_tribute` must be one of \['claimant', 'passes_on'\]"),
        ({"direction": "left"}, r"`direction` must be one of \['cw', 'ccw'\]"),
        ({"jokers": 3}, r"`jokers` must be a whole number from 0 to 2, but 3"),
        ({"joker_mode": "wild"}, r"`joker_mode` must be one of \['super', 'beggar'\]"),
        ({"max_cards": 0}, r"`max_cards` must be a whole number from 1"),
        ({"max_cards": 2.5}, r"`max_cards` must be a whole number"),
        ({"unfinished": "draw"}, r"`unfinished` must be one of \['none', 'most_cards'\]"),
        ({"deck": "tarot"}, r"`deck` must be one of"),
        ({"shuffle_pile": "yes"}, r"`shuffle_pile` must be True or False"),
        ({"shuffle_pile": True, "shuffle_on_loop": True}, r"cannot both be set"),
        ({"players": 6, "deck": Deck(3, 1, 0, 0, 0)}, r"cannot be dealt to 6 players"),
    ],
)
def test_bad_options_name_the_parameter(kwargs, message):
    with pytest.raises(ValueError, match=message):
        Rules(**kwargs)


def test_rules_are_immutable():
    with pytest.raises(AttributeError):
        Rules().players = 3


@pytest.mark.parametrize(
    "kwargs, name",
    [
        ({}, "standard"),
        ({"players": 4}, "standard"),
        ({"shuffle_pile": True}, "shuffle_pile"),
        ({"jokers": 2}, "2 jokers (super)"),
        ({"jokers": 1, "joker_mode": "beggar"}, "1 joker (beggar)"),
        ({"deck": "italian", "direction": "ccw"}, "italian deck, ccw"),
        ({"end": "empty", "exhausted_tribute": "passes_on"}, "passes_on, end=empty"),
    ],
)
def test_readable_names(kwargs, name):
    assert Rules(**kwargs).name == name


def test_deck_cards_include_jokers_in_canonical_order():
    cards = Rules(jokers=2).deck_cards()
    assert len(cards) == 54 and list(cards[-6:]) == [4, 4, 4, 4, 5, 5] and cards[0] == 0


def test_dict_round_trip_keeps_custom_decks():
    rules = Rules(players=3, deck=Deck(10, 2, 2, 1, 1), jokers=1, max_cards=500, unfinished="most_cards")
    assert Rules.from_dict(rules.to_dict()) == rules


def test_rule_options_describe_every_field_once_with_the_bounds_rules_enforces():
    from dataclasses import fields

    from beggarstats.game.rules import rule_options

    options = {o.name: o for o in rule_options()}
    assert list(options) == [f.name for f in fields(Rules)]
    for o in options.values():
        if o.kind == "choice":
            Rules(**{o.name: o.choices[-1]})  # every listed choice is accepted
            with pytest.raises(ValueError, match=o.name):
                Rules(**{o.name: "not-a-choice"})
        elif o.kind == "int":
            for ok in (o.low, o.high):
                Rules(**{o.name: ok})
            for bad in (o.low - 1, o.high + 1):
                with pytest.raises(ValueError, match=o.name):
                    Rules(**{o.name: bad})
        elif o.kind == "flag":
            assert o.default is False
    assert options["max_cards"].optional and not options["players"].optional
    assert options["leader"].choices == ("taker", "next")


# -- the declarations of what the deterministic and backward engines accept (issue #41) ------------
def _every_value():
    from beggarstats.game.rules import MAX_PLAYERS, rule_options

    for option in rule_options():
        if option.kind in ("choice", "deck"):
            values = option.choices
        elif option.kind == "flag":
            values = (False, True)
        elif option.name == "players":
            values = tuple(range(option.low, MAX_PLAYERS + 1))
        else:
            values = (None, option.low, option.high) if option.optional else (option.low, option.high)
        for value in values:
            yield option.name, value


def test_every_option_says_what_the_backward_step_and_a_census_accept():
    from beggarstats.engine.backward import check_backward_rules
    from beggarstats.game.decks import ITALIAN, STANDARD
    from beggarstats.game.rules import (BACKWARD_VALUES, RANDOM_VALUES, backward_refusals, random_options,
                                        rule_options)
    from beggarstats.run.census import census_refusal

    names = [o.name for o in rule_options()]
    assert list(BACKWARD_VALUES) == names, "every option of rule_options() declares its backward values"
    assert set(RANDOM_VALUES) <= set(names)
    seen = set()
    for name, value in _every_value():
        if name == "deck":
            value = ITALIAN if value == "italian" else STANDARD
        for extra in ({}, {"players": 3, "jokers": 2}):
            if name in extra:
                continue
            rules = Rules(**{**extra, name: value})
            accepted, reason = BACKWARD_VALUES[name]
            refused = backward_refusals(rules)
            exempt = (name == "joker_mode" and not rules.jokers) or (name == "leader" and rules.players == 2)
            want = not (accepted is None or value in accepted or exempt)
            assert (reason in refused) == want, (name, value, extra, refused)
            if refused:
                seen.add(name)
                with pytest.raises(ValueError, match=re.escape(refused[0])):
                    check_backward_rules(rules)
            else:
                check_backward_rules(rules)
            assert (name in random_options(rules)) == (value in RANDOM_VALUES.get(name, ()))
            if random_options(rules):
                assert all(f"`{r}`" in census_refusal(rules) for r in random_options(rules))
    assert seen == {n for n, (accepted, _) in BACKWARD_VALUES.items() if accepted is not None}
