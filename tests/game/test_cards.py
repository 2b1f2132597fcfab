"""Notation of docs/RULES.md section 1: parsing, formatting, compositions, and bad input."""

import pytest

from beggarstats.game.cards import DealError, composition, format_deal, parse_deal, parse_hand
from beggarstats.game.decks import ITALIAN, STANDARD, Deck


def test_every_number_card_symbol_is_a_number_card():
    assert parse_hand("-23456789T0") == (0,) * 11
    assert parse_hand("10") == (0,)  # '10' is one card, not two


def test_penalty_cards_and_joker_carry_their_tribute():
    assert parse_hand("JQKAX") == (1, 2, 3, 4, 5)


def test_spaces_ignored_and_lower_case_accepted():
    assert parse_deal("jq k / a-x") == ((1, 2, 3), (4, 0, 5))


def test_format_round_trips_in_canonical_notation():
    deal = "2A78Q10/3456K9J"
    assert format_deal(parse_deal(deal)) == "-A--Q-/----K-J"
    assert parse_deal(format_deal(parse_deal(deal))) == parse_deal(deal)


def test_composition_counts_kinds():
    assert composition(parse_deal("JJ-/QKAX")) == (1, 2, 1, 1, 1, 1)


def test_unknown_symbol_names_hand_and_position():
    with pytest.raises(DealError, match=r"hand 1, position 3: unknown card symbol 'Z'"):
        parse_deal("--/-KZ")


def test_deal_error_is_a_value_error():
    assert issubclass(DealError, ValueError)


def test_presets():
    assert STANDARD.size == 52 and STANDARD.counts == (36, 4, 4, 4, 4)
    assert ITALIAN.size == 40 and ITALIAN.counts == (28, 4, 4, 4, 0)
    assert Deck.from_name("italian") is ITALIAN


def test_bad_deck_name_and_counts():
    with pytest.raises(ValueError, match=r"`deck` must be one of \['italian', 'standard'\]"):
        Deck.from_name("tarot")
    with pytest.raises(ValueError, match="`aces` must be a whole number from 0 to 10,000"):
        Deck(10, 1, 1, 1, -1)
    with pytest.raises(ValueError, match="5 numbers"):
        Deck.from_counts([1, 2])


def test_a_lone_one_is_not_a_card():
    """The help lists - 2-9 T 10 for number cards: '1' alone was taken for one (issue #23)."""
    assert parse_hand("10-9") == (0, 0, 0)
    with pytest.raises(DealError, match=r"hand 1, position 2: unknown card symbol '1'"):
        parse_deal("K/-1")
