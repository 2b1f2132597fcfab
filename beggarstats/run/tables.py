"""The engine's arrays as compact Arrow tables, and those tables as tidy pandas frames.

One schema serves memory and disk: `simulate` builds Arrow tables chunk by chunk, the store writes
the same tables to parquet (counts as uint32), and `to_frame` turns either into a DataFrame with the
same dtypes.

Memory per game (``df.memory_usage(deep=True).sum() / len(df)``, measured on 2 x 10^5 games):

=======================  =========================  ==============
column                   dtype                      bytes per game
=======================  =========================  ==============
game                     uint32 (int64 past 2^32)   4
players                  uint8                      1
rules, outcome           category (int8 codes)      1 + 1
winner                   int8[pyarrow]              1.125
cards                    uint32                     4
tricks                   uint16[pyarrow] *          2
loop_start_cards,        uint32[pyarrow]            2 x 4.125
loop_cards
loop_start_tricks,       uint16[pyarrow] *          2 x 2.125
loop_tricks
=======================  =========================  ==============

Total 26.6 bytes per game. * Trick counts are narrowed by `to_frame` to 16 bits when every trick
count in the table fits (the longest known game has 1,164 tricks; a game needs more than 131,000
cards to reach 65,536 tricks, since every trick but the last takes at least two cards) and stay
uint32 otherwise: 32.6 bytes per game. They are Arrow-backed so that arithmetic on them never wraps
round silently (Arrow's kernels check for overflow or widen; numpy's uint16 would wrap). Card counts
stay uint32 whatever the values, so a long shuffled game never changes a frame's dtypes. The same
columns as pandas masked arrays (``Int8``, ``UInt32``) cost a whole byte per value for the mask;
Arrow keeps the mask as one bit per value, so the nullable columns are Arrow-backed.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

__all__ = ["OUTCOMES", "MATCH_OUTCOMES", "empty_tables", "id_type", "games_table", "seats_table",
           "to_frame", "with_attrs", "attrs_of", "GamesFrameBuilder", "SeatsFrameBuilder", "nullable_seats",
           "rounds_frame", "MatchesFrameBuilder"]

OUTCOMES = ("win", "loop", "cutoff")  # the engine's outcome codes 0, 1, 2
MATCH_OUTCOMES = ("win", "draw", "unfinished")  # a match's outcome codes 0, 1, 2 (`simulate_matches`)
LOOP_COLUMNS = ("loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")
# Trick counts: 16 bits in a frame when every value fits (see the module docstring).
TRICK_COLUMNS = ("tricks", "loop_start_tricks", "loop_tricks")
KIND_COLUMNS = ("jacks", "queens", "kings", "aces", "jokers")
# Columns that may hold nulls: Arrow-backed in pandas (one bit per value for the mask).
NULLABLE = frozenset(("winner", "place", "out_cards") + LOOP_COLUMNS)
_META_KEY = b"beggarstats"


def id_type(stop: int) -> pa.DataType:
    """Game ids are uint32 while every id is below 2^32, int64 beyond."""
    return pa.uint32() if stop <= 2**32 else pa.int64()


def _constant_label(n: int, label: str) -> pa.DictionaryArray:
    return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, np.int8)), pa.array([label]))


def games_table(arrays: dict, ids: np.ndarray, rules, ids_as: pa.DataType) -> pa.Table:
    """One row per game from `engine.fast.play_games` arrays (ids: the int64 game ids)."""
    n = len(ids)
    looped = np.asarray(arrays["looped"], dtype=bool)
    winner = np.asarray(arrays["winner"], dtype=np.int8)
    cols = {
        "game": pa.array(ids, type=ids_as),
        "players": pa.array(np.full(n, rules.players, np.uint8)),
        "rules": _constant_label(n, rules.name),
        "outcome": pa.DictionaryArray.from_arrays(pa.array(np.asarray(arrays["outcome"], np.int8)),
                                                  pa.array(list(OUTCOMES))),
        "winner": pa.array(winner, mask=winner < 0),
        "cards": pa.array(np.asarray(arrays["cards"], np.uint32)),
        "tricks": pa.array(np.asarray(arrays["tricks"], np.uint32)),
    }
    for name in LOOP_COLUMNS:
        cols[name] = pa.array(np.asarray(arrays[name], np.uint32), mask=~looped)
    return pa.table(cols)


def seats_table(arrays: dict, ids: np.ndarray, rules, ids_as: pa.DataType) -> pa.Table:
    """One row per game and seat (game-major) from per-seat `play_games` arrays."""
    n, p = len(ids), rules.players
    flat = {k: np.asarray(arrays[k]).reshape(n * p) for k in
            ("hand_size",) + KIND_COLUMNS + ("tribute_total", "min_cards", "place", "out_cards")}
    winner = np.asarray(arrays["winner"], dtype=np.int8)
    cols = {
        "game": pa.array(np.repeat(ids, p), type=ids_as),
        "players": pa.array(np.full(n * p, p, np.uint8)),
        "rules": _constant_label(n * p, rules.name),
        "seat": pa.array(np.tile(np.arange(p, dtype=np.uint8), n)),
        "hand_size": pa.array(flat["hand_size"].astype(np.uint8)),
    }
    for k in KIND_COLUMNS:
        cols[k] = pa.array(flat[k].astype(np.uint8))
    cols["tribute_total"] = pa.array(flat["tribute_total"].astype(np.uint16))
    cols["min_cards"] = pa.array(flat["min_cards"].astype(np.int16))
    place = flat["place"].astype(np.int8)
    cols["place"] = pa.array(place, mask=place < 0)
    out = flat["out_cards"]
    cols["out_cards"] = pa.array(np.where(out < 0, 0, out).astype(np.uint32), mask=out < 0)
    cols["won"] = pa.array((winner[:, None] == np.arange(p)).reshape(n * p))
    return pa.table(cols)


def _categorical(col: pa.ChunkedArray, categories=None) -> pd.Categorical:
    chunks = col.chunks
    if pa.types.is_dictionary(col.type) and chunks and all(c.dictionary.equals(chunks[0].dictionary) for c in chunks):
        # The usual case (every chunk written by `games_table`): the codes are the indices.
        codes = np.concatenate([c.indices.to_numpy(zero_copy_only=False) for c in chunks]).astype(np.int8, copy=False)
        cat = pd.Categorical.from_codes(codes, chunks[0].dictionary.to_pylist())
        return cat.set_categories(list(categories)) if categories is not None else cat
    if pa.types.is_dictionary(col.type):
        col = col.cast(col.type.value_type)  # chunks may carry different dictionaries
    # Arrow's dictionary_encode gives dense codes without a round trip through Python objects.
    enc = col.combine_chunks().dictionary_encode() if len(col) else pa.DictionaryArray.from_arrays(
        pa.array([], pa.int8()), pa.array([], pa.string()))
    cat = pd.Categorical.from_codes(enc.indices.to_numpy(zero_copy_only=False).astype(np.int8),
                                    enc.dictionary.to_pylist())
    return cat.set_categories(list(categories)) if categories is not None else cat


def _narrow_counts(col: pa.ChunkedArray) -> pa.ChunkedArray:
    """``col`` as uint16 if every value fits, else as uint32 (never lossy)."""
    top = pc.max(col).as_py() if len(col) else None
    kind = pa.uint16() if top is None or top <= 0xFFFF else pa.uint32()
    if col.null_count == 0:  # no validity bitmap for a column without nulls (a cast may add one)
        return pa.chunked_array([pa.array(col.to_numpy().astype(kind.to_pandas_dtype()))], kind)
    return col.cast(kind)


def to_frame(table: pa.Table, attrs: dict | None = None) -> pd.DataFrame:
    """A tidy DataFrame with the module's dtypes from a games or seats table."""
    data = {}
    for name in table.column_names:
        col = table.column(name)
        if name == "outcome":
            data[name] = _categorical(col, OUTCOMES)
        elif name == "rules" or pa.types.is_dictionary(col.type) or pa.types.is_string(col.type):
            data[name] = _categorical(col)
        elif name in TRICK_COLUMNS:
            data[name] = pd.arrays.ArrowExtensionArray(_narrow_counts(col))
        elif name in NULLABLE:
            data[name] = pd.arrays.ArrowExtensionArray(col)
        else:
            data[name] = col.to_numpy()
    frame = pd.DataFrame(data)
    frame.attrs.update(attrs or attrs_of(table.schema) or {})
    return frame


def with_attrs(table: pa.Table, attrs: dict) -> pa.Table:
    """``table`` with ``attrs`` (rules, seed, rules_version, ...) in its schema metadata."""
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(attrs, sort_keys=True).encode()
    return table.replace_schema_metadata(meta)


def attrs_of(schema: pa.Schema) -> dict | None:
    """The attrs stored by `with_attrs`, or None."""
    raw = (schema.metadata or {}).get(_META_KEY)
    return json.loads(raw) if raw else None


def _arrow_column(values: np.ndarray, validity: pa.Buffer | None, null_count: int) -> pd.arrays.ArrowExtensionArray:
    """An Arrow-backed pandas column over ``values`` without copying them (``validity``: a bitmap)."""
    arr = pa.Array.from_buffers(pa.from_numpy_dtype(values.dtype), len(values), [validity, pa.py_buffer(values)],
                                null_count=null_count)
    return pd.arrays.ArrowExtensionArray(pa.chunked_array([arr]))


class GamesFrameBuilder:
    """The games frame of ids ``start .. start+n-1``, filled in place chunk by chunk (in any order)
    from `engine.fast.play_games` arrays, with exactly the columns and dtypes `to_frame` gives
    `games_table`. The final columns are allocated once and the frame wraps them without a copy,
    so the peak is the frame plus the chunks in flight (`simulate` in memory; benchmarks/memory.py).
    Trick counts start 16-bit and a column is widened to 32 bits once a value needs it."""

    def __init__(self, n: int, start: int, rules, ids_as: pa.DataType):
        self.n, self.start, self.rules, self.ids_as = n, start, rules, ids_as
        self.outcome = np.zeros(n, np.int8)
        self.winner = np.zeros(n, np.int8)
        self.cards = np.zeros(n, np.uint32)
        self.looped = np.zeros(n, bool)
        self.counts = {name: np.zeros(n, np.uint16 if name in TRICK_COLUMNS else np.uint32)
                       for name in ("tricks",) + LOOP_COLUMNS}

    def add(self, lo: int, arrays: dict) -> None:
        """Put the results of games ``lo .. lo+k-1`` in place."""
        k = len(arrays["cards"])
        at = slice(lo - self.start, lo - self.start + k)
        self.outcome[at] = arrays["outcome"]
        self.winner[at] = arrays["winner"]
        self.cards[at] = arrays["cards"]
        looped = np.asarray(arrays["looped"], dtype=bool)
        self.looped[at] = looped
        for name, col in self.counts.items():
            values = np.asarray(arrays[name])
            if name in LOOP_COLUMNS:
                values = np.where(looped, values, 0)
            if col.dtype == np.uint16 and k and int(values.max()) > 0xFFFF:
                col = self.counts[name] = col.astype(np.uint32)
            col[at] = values

    def frame(self, attrs: dict) -> pd.DataFrame:
        n, rules = self.n, self.rules
        game = np.arange(self.start, self.start + n, dtype=np.uint32 if self.ids_as == pa.uint32() else np.int64)
        has_winner = self.winner >= 0
        winner_bits = pa.py_buffer(np.packbits(has_winner, bitorder="little"))
        loop_bits = pa.py_buffer(np.packbits(self.looped, bitorder="little"))
        n_loops = int(np.count_nonzero(self.looped))
        data = {
            "game": game,
            "players": np.full(n, rules.players, np.uint8),
            "rules": (_categorical(pa.chunked_array([], pa.string())) if n == 0 else  # as `to_frame` does
                      pd.Categorical.from_codes(np.zeros(n, np.int8), [rules.name])),
            "outcome": pd.Categorical.from_codes(self.outcome, list(OUTCOMES)),
            "winner": _arrow_column(self.winner, winner_bits, n - int(np.count_nonzero(has_winner))),
            "cards": self.cards,
            "tricks": _arrow_column(self.counts["tricks"], None, 0),
        }
        for name in LOOP_COLUMNS:
            data[name] = _arrow_column(self.counts[name], loop_bits, n - n_loops)
        frame = pd.DataFrame(data, copy=False)
        frame.attrs.update(attrs)
        return frame


_SEAT_ARRAYS = {"hand_size": np.uint8, "jacks": np.uint8, "queens": np.uint8, "kings": np.uint8, "aces": np.uint8,
                "jokers": np.uint8, "tribute_total": np.uint16, "min_cards": np.int16, "place": np.int8,
                "out_cards": np.uint32}


class SeatsFrameBuilder:
    """The per-seat frame of ids ``start .. start+n-1`` filled in place, as `GamesFrameBuilder`
    (same columns and dtypes as `to_frame(seats_table(...))`)."""

    def __init__(self, n: int, start: int, rules, ids_as: pa.DataType):
        self.n, self.start, self.rules, self.ids_as = n, start, rules, ids_as
        p = rules.players
        self.cols = {k: np.zeros(n * p, t) for k, t in _SEAT_ARRAYS.items()}
        self.out_seen = np.zeros(n * p, bool)
        self.winner = np.zeros(n, np.int8)

    def add(self, lo: int, arrays: dict) -> None:
        k, p = len(arrays["winner"]), self.rules.players
        i = lo - self.start
        at = slice(i * p, (i + k) * p)
        for name, col in self.cols.items():
            values = np.asarray(arrays[name]).reshape(k * p)
            if name == "out_cards":
                self.out_seen[at] = values >= 0
                values = np.where(values < 0, 0, values)
            col[at] = values
        self.winner[i:i + k] = arrays["winner"]

    def frame(self, attrs: dict) -> pd.DataFrame:
        n, rules, p = self.n, self.rules, self.rules.players
        game = np.repeat(np.arange(self.start, self.start + n,
                                   dtype=np.uint32 if self.ids_as == pa.uint32() else np.int64), p)
        placed = self.cols["place"] >= 0
        data = {
            "game": game,
            "players": np.full(n * p, p, np.uint8),
            "rules": (_categorical(pa.chunked_array([], pa.string())) if n == 0 else
                      pd.Categorical.from_codes(np.zeros(n * p, np.int8), [rules.name])),
            "seat": np.tile(np.arange(p, dtype=np.uint8), n),
        }
        for name in ("hand_size",) + KIND_COLUMNS + ("tribute_total", "min_cards"):
            data[name] = self.cols[name]
        data["place"] = _arrow_column(self.cols["place"], pa.py_buffer(np.packbits(placed, bitorder="little")),
                                      n * p - int(np.count_nonzero(placed)))
        data["out_cards"] = _arrow_column(self.cols["out_cards"],
                                          pa.py_buffer(np.packbits(self.out_seen, bitorder="little")),
                                          n * p - int(np.count_nonzero(self.out_seen)))
        data["won"] = (self.winner[:, None] == np.arange(p)).reshape(n * p)
        frame = pd.DataFrame(data, copy=False)
        frame.attrs.update(attrs)
        return frame


def empty_tables(rules, per_seat, ids_as=pa.uint32()):
    """Zero-game tables with the right schema (for n_games=0 and empty stores)."""
    ids = np.zeros(0, np.int64)
    p = rules.players
    arrays = {k: np.zeros(0, np.uint32) for k in ("cards", "tricks", "outcome", "winner", "looped",
                                                  "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")}
    for k in ("hand_size", "jacks", "queens", "kings", "aces", "jokers", "tribute_total", "min_cards", "place",
              "out_cards"):
        arrays[k] = np.zeros((0, p), np.int64)
    tables = {"games": games_table(arrays, ids, rules, ids_as)}
    tables["seats"] = seats_table(arrays, ids, rules, ids_as)
    return tables


# -- matches (`simulate_matches`): plain numpy/pandas columns, small enough not to need Arrow -------
def nullable_seats(seat) -> pd.arrays.IntegerArray:
    """Seats as a nullable Int8 array, -1 -> NA."""
    seat = np.asarray(seat)
    return pd.arrays.IntegerArray(np.where(seat >= 0, seat, 0).astype(np.int8), seat < 0)


def rounds_frame(match, round: int, game, leader: int, outcome, winner, counted, cards, tricks) -> pd.DataFrame:
    """One row per dealt round of the matches ``match``, all in dealt round ``round`` (led by
    physical seat ``leader``): ``game`` ids, engine ``outcome`` codes, physical ``winner`` (-1:
    none), ``counted``, ``cards``, ``tricks``."""
    n = len(match)
    return pd.DataFrame({
        "match": np.asarray(match, np.int64), "round": np.full(n, round, np.int32),
        "game": np.asarray(game, np.int64), "leader": np.full(n, leader, np.int8),
        "outcome": pd.Categorical.from_codes(np.asarray(outcome, np.int8), OUTCOMES),
        "winner": nullable_seats(winner), "counted": np.asarray(counted, bool),
        "cards": np.asarray(cards, np.int64), "tricks": np.asarray(tricks, np.int64),
    })


def empty_rounds() -> pd.DataFrame:
    """`rounds_frame` of no round."""
    none = np.zeros(0, np.int64)
    return rounds_frame(none, 0, none, 0, none, none, none, none, none)


class MatchesFrameBuilder:
    """The frame of matches 0 … n-1 of `simulate_matches`, filled in place chunk by chunk (in any
    order) from the tallies of the chunks: every column is allocated once, in its final dtype, and
    the frame wraps them without a copy (peak: the frame plus the chunks in flight;
    benchmarks/memory.py). ``rules`` and ``format`` are categories of one label, as ``rules`` is in
    the games frames (1 byte per match, not a string each)."""

    _COUNTS = {"rounds": np.int32, "unfinished": np.int32, "cards": np.int64, "tricks": np.int64,
               "result": np.int8, "winner": np.int8}

    def __init__(self, n: int, players: int):
        self.n, self.players = n, players
        self.wins = np.zeros((players, n), np.int32)  # one contiguous row per seat: the columns
        self.cols = {k: np.zeros(n, t) for k, t in self._COUNTS.items()}

    def add(self, lo: int, *, wins, **counts) -> None:
        """Put the tallies of matches ``lo .. lo+k-1`` in place (``wins``: k x players round wins;
        ``counts``: rounds, unfinished, cards, tricks, result, winner)."""
        k = len(wins)
        self.wins[:, lo:lo + k] = np.asarray(wins).T
        for name, col in self.cols.items():
            col[lo:lo + k] = counts[name]

    def frame(self, *, rules: str, format: str) -> pd.DataFrame:
        n, c = self.n, self.cols
        winner = c["winner"]
        absent = winner < 0
        winner[absent] = 0  # the mask says NA: the values become the frame's Int8 column in place
        outcome = pd.Categorical.from_codes(c["result"], MATCH_OUTCOMES)
        columns = {
            "match": np.arange(n, dtype=np.int64),
            "players": np.full(n, self.players, np.int8),
            "rules": pd.Categorical.from_codes(np.zeros(n, np.int8), [rules]),
            "format": pd.Categorical.from_codes(np.zeros(n, np.int8), [format]),
            "outcome": outcome,
            "winner": pd.arrays.IntegerArray(winner, absent),
            "finished": c["result"] != MATCH_OUTCOMES.index("unfinished"),
            "rounds": c["rounds"],
            "unfinished_rounds": c["unfinished"],
        }
        for s in range(self.players):
            columns[f"wins_seat{s}"] = self.wins[s]
        columns["cards"] = c["cards"]
        columns["tricks"] = c["tricks"]
        return pd.DataFrame(columns, copy=False)
