"""docs/RULES.md is the rules contract: every option of `Rules` is documented there, its deck table
and published checks are what the code holds and the engine plays, and its statements about the
end conventions hold on random deals."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import numpy as np
import pytest

from beggarstats import Rules, play
from beggarstats.engine.deals import random_deal
from beggarstats.game.decks import PRESETS
from beggarstats.engine.fast import RESULT_KEYS, play_games
from beggarstats.run.records import load_records
from beggarstats.game.rules import _CHOICES, MAX_PLAYERS
from beggarstats.run.tables import empty_tables

RULES_MD = Path(__file__).resolve().parents[2] / "docs" / "RULES.md"
TEXT = RULES_MD.read_text(encoding="utf-8")
CODE = set(re.findall(r"`([^`]+)`", TEXT))   # everything written as code


def _section(title: str) -> str:
    """The text of the section whose heading contains ``title``."""
    match = re.search(rf"^## [^\n]*{re.escape(title)}[^\n]*\n(.*?)(?=^## |\Z)", TEXT, re.M | re.S)
    assert match, f"docs/RULES.md has no section '{title}'"
    return match.group(1)


def _table(section: str) -> list[list[str]]:
    """Rows of the first markdown table in ``section`` (header and rule lines dropped)."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    return [r for r in rows[2:]]


@pytest.mark.parametrize("option", [f.name for f in dataclasses.fields(Rules)])
def test_every_option_is_named(option):
    assert option in CODE, f"docs/RULES.md does not name the option `{option}`"


@pytest.mark.parametrize("option, value", [(k, v) for k, values in _CHOICES.items() for v in values])
def test_every_value_of_every_choice_is_named(option, value):
    assert value in CODE, f"docs/RULES.md does not name `{value}` (a value of `{option}`)"


def test_defaults_and_ranges_are_the_code_s():
    defaults = Rules()
    for name in _CHOICES:   # "`trick` (the default)" and the like
        assert re.search(rf"`{getattr(defaults, name)}` \(the default", TEXT), name
    assert f"accept up to {MAX_PLAYERS}" in TEXT and "`MAX_PLAYERS`" in TEXT
    for jokers in range(3):
        assert f"`{jokers}`" in TEXT
    with pytest.raises(ValueError):
        Rules(jokers=3)
    assert "`None`, the default" in TEXT and defaults.max_cards is None
    assert "from 1 to 2³²−1" in TEXT
    Rules(max_cards=2**32 - 1)
    for bad in (0, 2**32):
        with pytest.raises(ValueError):
            Rules(max_cards=bad)
    with pytest.raises(ValueError):
        Rules(shuffle_pile=True, shuffle_on_loop=True)
    assert "cannot both be set" in TEXT


def test_deck_table_is_the_presets():
    rows = {r[0].strip("`"): [int(c) for c in r[1:]] for r in _table(_section("Cards and decks"))
            if r[0].startswith("`")}
    assert set(rows) == set(PRESETS)
    for name, deck in PRESETS.items():
        assert rows[name] == list(deck.counts) + [deck.size], name
        assert Rules(deck=name).n_cards == deck.size


def test_uneven_deals_are_the_ones_named():
    """Section 2 names the player counts (2-6) for which a 52-card deal is uneven."""
    uneven = [p for p in range(2, 7)
              if len({len(h) for h in random_deal(1, 0, Rules(players=p))[0]}) > 1]
    words = ", ".join(str(p) for p in uneven[:-1]) + f" and {uneven[-1]} players"
    assert f"(with 52 cards: {words})" in TEXT
    for p in uneven:
        sizes = [len(h) for h in random_deal(1, 0, Rules(players=p))[0]]
        assert sizes == sorted(sizes, reverse=True)   # the first seats get the extra cards


def test_every_reported_figure_is_described():
    seat_columns = empty_tables(Rules(), per_seat=True)["seats"].column_names  # what a per-seat row holds
    assert seat_columns[:4] == ["game", "players", "rules", "seat"]
    for key in [k for k in RESULT_KEYS if k != "looped"] + seat_columns[4:]:
        assert key in CODE, f"docs/RULES.md does not describe `{key}`"


def _published_checks() -> list[dict]:
    out = []
    for deal, _, outcome, winner, cards, tricks, start, loop in _table(_section("Two published checks")):
        def pair(text):
            return (None, None) if text == "-" else tuple(int(x) for x in text.split(","))
        out.append({"deal": deal.strip("`"), "outcome": outcome,
                    "winner": None if winner == "-" else int(winner),
                    "cards": int(cards), "tricks": int(tricks),
                    "loop_start_tricks": pair(start)[0], "loop_start_cards": pair(start)[1],
                    "loop_tricks": pair(loop)[0], "loop_cards": pair(loop)[1]})
    return out


def test_the_published_checks_are_what_the_engine_plays():
    checks = _published_checks()
    assert [c["outcome"] for c in checks] == ["win", "loop"]
    assert (checks[0]["cards"], checks[0]["tricks"]) == (8344, 1164)          # Nessler 2022
    assert (checks[1]["loop_start_tricks"], checks[1]["loop_tricks"]) == (4, 62)   # Casella 2024
    records = {r["deal"]: r for r in load_records()}
    for check in checks:
        r = play(check["deal"])
        assert {k: getattr(r, k) for k in check if k != "deal"} == {k: v for k, v in check.items() if k != "deal"}
        rec = records[check["deal"]]   # and the record table agrees
        assert all(rec[k] == v for k, v in check.items() if rec.get(k) is not None)
    second = checks[1]
    prose = (f"after {second['loop_start_tricks']} tricks ({second['loop_start_cards']} cards); the cycle is "
             f"{second['loop_tricks']} tricks ({second['loop_cards']} cards) long, so\nthe first repeated "
             f"state comes after {second['tricks']} tricks and {second['cards']} cards")
    assert prose in TEXT


@pytest.mark.usefixtures("warm_kernels")
def test_end_conventions_differ_as_documented():
    """Section 4: with 2 players `unable` is 0 or 1 card longer than `trick` with the same winner;
    `empty` can differ by more and can change the winner."""
    games = np.arange(30_000, dtype=np.int64)
    trick, unable, empty = (play_games(Rules(end=e), 4, games) for e in ("trick", "unable", "empty"))
    extra = unable["cards"].astype(np.int64) - trick["cards"]
    assert set(np.unique(extra)) == {0, 1}
    assert (unable["winner"] == trick["winner"]).all()
    apart = np.abs(empty["cards"].astype(np.int64) - trick["cards"])
    assert (apart >= 3).any() and (empty["winner"] != trick["winner"]).any()
