"""The curated table of known deals and their published figures, replayed by our engine."""

from __future__ import annotations

import csv

from ..game.results import GameResult
from .committed_data import data_path
from .play import play
from ..game.rules import Rules

__all__ = ["RECORD_FIELDS", "load_records", "replay_records", "play_record"]

# Published figures a record may give (empty in the CSV when the source does not give it).
RECORD_FIELDS = ("outcome", "winner", "cards", "tricks",
                 "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")


def load_records() -> list[dict]:
    """Rows of the committed ``data/records.csv`` (`run.committed_data`: ``beggarstats/data/records.csv``
    of an installed package).

    Numbers come back as int, missing published figures as None.
    """
    text = data_path("records.csv").read_text(encoding="utf-8")
    rows = []
    for row in csv.DictReader(text.splitlines()):
        for key in RECORD_FIELDS[1:] + ("year",):
            row[key] = int(row[key]) if row[key] else None
        rows.append(row)
    return rows


def play_record(record: dict, *, trace: bool = False) -> GameResult:
    """Play a record's deal under the default rules (its own deck for ``deck == 'any'``)."""
    any_deck = record["deck"] == "any"
    rules = None if any_deck else Rules(deck=record["deck"])
    return play(record["deal"], rules, any_deck=any_deck, trace=trace)


def replay_records() -> list[dict]:
    """Every record with its published figures beside ours: one dict per record with
    ``name``, ``deal``, ``published`` and ``computed`` (dicts over `RECORD_FIELDS`) and ``match``."""
    out = []
    for rec in load_records():
        result = play_record(rec)
        published = {k: rec[k] for k in RECORD_FIELDS if rec[k] is not None}
        computed = {k: getattr(result, k) for k in RECORD_FIELDS}
        match = all(computed[k] == v for k, v in published.items())
        out.append({"name": rec["name"], "deal": rec["deal"], "source": rec["source"],
                    "published": published, "computed": computed, "match": match})
    return out
