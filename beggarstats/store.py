"""The resumable parquet store: one directory per (rules, seed, RULES_VERSION, per_seat).

Layout::

    data/runs/<key>/            (or any directory the user names)
        manifest.json           the configuration: rules, seed, rules_version, per_seat, key
        seats-<lo>-<hi>.parquet games lo..hi-1, one row per game and seat (per_seat stores only)
        games-<lo>-<hi>.parquet games lo..hi-1, one row per game

Every file is written to a temporary name and moved into place with `os.replace`, so a file is
either complete or absent. A chunk counts as done once its ``games`` file exists (it is written
last). An interrupted run (Ctrl-C, kill) therefore loses at most the chunks in flight; calling
`simulate` again with the same configuration computes only the missing game ids. Stray ``.tmp``
files left by a killed process are ignored and can be deleted.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import threading
from pathlib import Path

import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from .rules import RULES_VERSION, Rules
from .tables import attrs_of, to_frame, with_attrs

__all__ = ["Store", "store_key", "default_path", "load", "save"]

MANIFEST = "manifest.json"
STORE_FORMAT = 1
_CHUNK = re.compile(r"^(games|seats)-(\d+)-(\d+)\.parquet$")


def _config(rules: Rules, seed: int, per_seat: bool) -> dict:
    return {"rules": rules.to_dict(), "seed": int(seed), "rules_version": RULES_VERSION,
            "per_seat": bool(per_seat)}


def store_key(rules: Rules, seed: int, per_seat: bool = False) -> str:
    """A 16-hex-digit hash of (rules, seed, RULES_VERSION, per_seat): the store's identity."""
    text = json.dumps(_config(rules, seed, per_seat), sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_path(rules: Rules, seed: int, per_seat: bool = False) -> Path:
    """``data/runs/<key>`` relative to the current directory."""
    return Path("data") / "runs" / store_key(rules, seed, per_seat)


def _atomic_write(path: Path, write) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}-{threading.get_ident()}.tmp")
    try:
        write(tmp)
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _read_manifest(path: Path) -> dict | None:
    try:
        return json.loads((path / MANIFEST).read_text())
    except FileNotFoundError:
        return None


class Store:
    """A store directory for one configuration. Use `Store.open`; files are written by `simulate`."""

    def __init__(self, path: Path, manifest: dict):
        self.path = Path(path)
        self.manifest = manifest

    @property
    def rules(self) -> Rules:
        return Rules.from_dict(self.manifest["rules"])

    @property
    def seed(self) -> int:
        return int(self.manifest["seed"])

    @property
    def per_seat(self) -> bool:
        return bool(self.manifest["per_seat"])

    @staticmethod
    def location(store) -> Path | None:
        """The directory named by ``store`` (None for ``store=True``: the default location)."""
        if store is True:
            return None
        if isinstance(store, (str, os.PathLike)):
            return Path(store)
        raise ValueError(f"The value for `store` must be True, a directory path or None, but {store!r} was passed.")

    @staticmethod
    def seed_in(store) -> int | None:
        """The seed recorded in an existing store directory (None if there is none yet)."""
        where = Store.location(store)
        manifest = _read_manifest(where) if where is not None else None
        return int(manifest["seed"]) if manifest else None

    @classmethod
    def open(cls, store, *, rules: Rules, seed: int, per_seat: bool) -> "Store":
        """Open (creating if needed) the store for this configuration.

        ``store=True`` is ``data/runs/<key>``; a path names the directory. A directory that already
        holds another configuration is refused rather than mixed.
        """
        config = _config(rules, seed, per_seat)
        key = store_key(rules, seed, per_seat)
        path = cls.location(store) or default_path(rules, seed, per_seat)
        manifest = _read_manifest(path)
        if manifest is None:
            path.mkdir(parents=True, exist_ok=True)
            manifest = {"format": STORE_FORMAT, "key": key, **config}
            _atomic_write(path / MANIFEST, lambda p: p.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n"))
        elif manifest.get("key") != key:
            differs = [k for k in config if manifest.get(k) != config[k]]
            raise ValueError(f"The `store` directory {str(path)!r} holds another run (other "
                             f"{', '.join(differs) or 'key'}); pass another directory or the same rules, seed and per_seat.")
        return cls(path, manifest)

    # -- chunks --------------------------------------------------------------------------------
    def _files(self, kind: str) -> list[tuple[int, int, Path]]:
        found = []
        for entry in os.scandir(self.path):
            m = _CHUNK.match(entry.name)
            if m and m.group(1) == kind:
                found.append((int(m.group(2)), int(m.group(3)), Path(entry.path)))
        return found

    def chunks(self, kind: str = "games") -> list[tuple[int, int, Path]]:
        """Finished chunks as disjoint (lo, hi, file), sorted. A file overlapping an earlier one
        (two runs with different chunk sizes at once) is left out; its ids count as missing."""
        chosen, end = [], -1
        for lo, hi, path in sorted(self._files("games"), key=lambda t: (t[0], -t[1])):
            if lo >= end:
                chosen.append((lo, hi, path))
                end = hi
        if kind == "seats":
            chosen = [(lo, hi, p.with_name(f"seats-{p.name[len('games-'):]}")) for lo, hi, p in chosen]
        return chosen

    def missing(self, start: int, stop: int) -> list[tuple[int, int]]:
        """The ranges of game ids in [start, stop) that no finished chunk holds."""
        gaps, at = [], start
        for lo, hi, _ in self.chunks():
            if hi <= at or lo >= stop:
                continue
            if lo > at:
                gaps.append((at, lo))
            at = max(at, hi)
        if at < stop:
            gaps.append((at, stop))
        return gaps

    def _attrs(self, start: int, n_games: int) -> dict:
        return {"rules": self.manifest["rules"], "seed": self.seed, "rules_version": self.manifest["rules_version"],
                "n_games": n_games, "start": start}

    def write_chunk(self, lo: int, hi: int, games: pa.Table, seats: pa.Table | None = None) -> None:
        """Write games lo..hi-1 (the seats file first: the games file marks the chunk done)."""
        attrs = self._attrs(lo, hi - lo)
        name = f"{lo:012d}-{hi:012d}.parquet"
        if self.per_seat:
            if seats is None:
                raise ValueError("This store keeps per-seat rows: pass `seats`.")
            table = with_attrs(seats, attrs)
            _atomic_write(self.path / f"seats-{name}", lambda p: pq.write_table(table, p))
        table = with_attrs(games, attrs)
        _atomic_write(self.path / f"games-{name}", lambda p: pq.write_table(table, p))

    def read(self, *, seats: bool = False, start: int | None = None, stop: int | None = None,
             columns=None) -> pa.Table:
        """The stored rows of games start..stop-1 (all by default) as one Arrow table, by game id."""
        kind = "seats" if seats else "games"
        if seats and not self.per_seat:
            raise ValueError(f"The store {str(self.path)!r} was written without per_seat: it has no seat rows.")
        lo_all = 0 if start is None else start
        hi_all = 2**63 if stop is None else stop
        files = [str(p) for lo, hi, p in self.chunks(kind) if hi > lo_all and lo < hi_all]
        if not files:
            empty = self._empty_schema(kind)
            return empty.empty_table().select(list(columns) if columns else empty.names)
        dataset = ds.dataset(files, format="parquet")
        filt = None
        if start is not None or stop is not None:
            filt = (ds.field("game") >= lo_all) & (ds.field("game") < hi_all)
        # Fragments are read in the order given (sorted by game id).
        return dataset.to_table(columns=list(columns) if columns else None, filter=filt)

    def _empty_schema(self, kind: str) -> pa.Schema:
        from .simulate import _empty_tables  # the schema of a zero-game chunk
        return _empty_tables(self.rules, self.per_seat)[kind].schema

    def frame(self, *, seats: bool = False, start: int | None = None, stop: int | None = None, columns=None):
        """`read` as a tidy DataFrame with ``attrs``."""
        table = self.read(seats=seats, start=start, stop=stop, columns=columns)
        n = table.num_rows // (self.rules.players if seats else 1)
        chunks = self.chunks()
        first = start if start is not None else (chunks[0][0] if chunks else 0)
        return to_frame(table, self._attrs(first, n))

def load(store, columns=None, *, seats: bool = False):
    """Load a run: a store directory (`simulate(..., store=...)`) or one parquet file (`save`).

    Parameters
    ----------
    store : str or path
        A store directory or a ``.parquet`` file.
    columns : list of str, optional
        Read only these columns.
    seats : bool
        From a per-seat store, the long table (one row per game and seat) instead of the games.

    Returns
    -------
    DataFrame with ``attrs`` (rules, seed, rules_version, n_games, start).
    """
    path = Path(store)
    if path.is_dir():
        manifest = _read_manifest(path)
        if manifest is None:
            raise ValueError(f"The `store` directory {str(path)!r} has no {MANIFEST}: it is not a beggarstats store.")
        return Store(path, manifest).frame(seats=seats, columns=columns)
    if not path.exists():
        raise ValueError(f"The `store` {str(path)!r} does not exist.")
    table = pq.read_table(path, columns=list(columns) if columns else None)
    return to_frame(table, attrs_of(pq.read_schema(path)) or {})


def save(frame, path) -> Path:
    """Write a frame from `simulate` to one parquet file, its ``attrs`` in the file's metadata."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = with_attrs(table.replace_schema_metadata({}), dict(frame.attrs))
    path = Path(path)
    _atomic_write(path, lambda p: pq.write_table(table, p))
    return path
