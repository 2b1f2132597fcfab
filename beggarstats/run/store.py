"""The resumable parquet store: one directory per (rules, seed, RULES_VERSION, per_seat).

Layout::

    <per-user cache>/runs/<key>/                    (or any directory the user names)
        manifest.json                    the configuration (rules, seed, rules_version, per_seat,
                                         key) and the ranges of game ids asked for so far
        .lock                            held by the run writing into the store
        seats-<lo>-<hi>-<crc>.parquet    games lo..hi-1, one row per game and seat (per_seat only)
        games-<lo>-<hi>-<crc>.parquet    games lo..hi-1, one row per game

Writing. A run takes the store's lock (an advisory file lock) for as long as it writes; a second
run on the same store is refused with a message rather than interleaved. Every file is written
to a temporary, unpredictably named file and moved into place with `os.replace`, so a file is
either complete or absent; a chunk counts as done once its ``games`` file exists (written last).
An interrupted run (Ctrl-C, kill -9, full disk) loses at most the chunks in flight; the same
call again computes only the missing ids (and replaces a chunk file cut short). After every run
the requested ids are checked to be present exactly once.

Integrity. ``<crc>`` is the CRC-32 of the whole file (it detects every single-bit flip and every
burst of up to 32 bits, wherever it falls: data pages, footer, metadata); parquet page checksums
are written too and verified on read. Every chunk carries its rules, seed, ``RULES_VERSION`` and
id range in its metadata, checked against the manifest and its name when it is read. A chunk that
fails is named in the error; `verify` lists every problem and ``repair=True`` removes the bad
files, so that the next run replays exactly their games.
"""

from __future__ import annotations

import os
import re
import warnings
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

import pyarrow as pa
import pyarrow.parquet as pq

from ..game.checks import check_flag
from ..game.rules import Rules
from .id_ranges import merge_ranges, say_ranges, subtract_ranges
from .outputs import check_output_dir, check_output_file, replacing, write_bytes
from .store_check import Problem, check_chunk, find_problems
from .store_files import CHUNK_NAME, MANIFEST, STORE_FORMAT, StoreError, chunk_files, chunk_name, crc_of, looks_whole, \
    parquet_bytes, regular_file
from .store_lock import StoreBusy, StoreLock, unwritable, write_lock
from .store_manifest import check_format, default_path, manifest_bytes, read_manifest, store_config, store_key
from .tables import attrs_of, empty_tables, to_frame, with_attrs

if TYPE_CHECKING:
    import pandas as pd

    from ..game.hints import PathLike

__all__ = ["Store", "StoreError", "StoreBusy", "Problem", "store_key", "default_path", "load", "save", "verify",
           "write_lock", "looks_whole", "unwritable", "MANIFEST"]



def _atomic_write_bytes(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through a temporary file of an unpredictable name in the same directory
    (`outputs.replacing`; an OSError is raised as it is, for `unwritable` to say). Every file a
    store writes goes through here."""
    write_bytes(path, data, what=None)


class Store:
    """A store directory for one configuration. Use `Store.open`; files are written by `simulate`."""

    def __init__(self, path: Path, manifest: dict) -> None:
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

    @property
    def requested(self) -> list[list[int]]:
        """The ranges of game ids runs have asked this store for (merged)."""
        return merge_ranges(self.manifest.get("requested", []))

    @staticmethod
    def location(store: bool | PathLike | None) -> Path | None:
        """The directory named by ``store`` (None for ``store=True``: the default location)."""
        if store is True:
            return None
        if isinstance(store, (str, os.PathLike)):
            return check_output_dir(store, writable=False)  # '' (the current directory) refused
        raise ValueError(f"The value for `store` must be True, a directory path or None, but {store!r} was passed.")

    @staticmethod
    def seed_in(store: bool | PathLike | None) -> int | None:
        """The seed recorded in an existing store directory (None if there is none yet)."""
        where = Store.location(store)
        manifest = read_manifest(check_output_dir(where, writable=False)) if where is not None else None
        return int(manifest["seed"]) if manifest else None

    @classmethod
    def at(cls, path: PathLike) -> "Store":
        """The existing store in directory ``path``."""
        path = Path(path)
        if not path.is_dir():
            raise StoreError(f"The store {str(path)!r} does not exist or is not a directory.")  # names: the store by its path
        manifest = read_manifest(path)
        if manifest is None:
            raise StoreError(f"The `store` directory {str(path)!r} has no {MANIFEST}: it is not a beggarstats store.")
        check_format(path, manifest)
        return cls(path, manifest)

    @classmethod
    def open(cls, store: bool | PathLike, *, rules: Rules, seed: int, per_seat: bool) -> "Store":
        """Open (creating if needed) the store for this configuration.

        ``store=True`` is ``<per-user cache>/runs/<key>``; a path names the directory. A directory that already
        holds another configuration is refused rather than mixed.
        """
        config = store_config(rules, seed, per_seat)
        key = store_key(rules, seed, per_seat)
        path = check_output_dir(cls.location(store) or default_path(rules, seed, per_seat), writable=False)
        manifest = read_manifest(path)
        if manifest is None:
            manifest = {"format": STORE_FORMAT, "key": key, **config, "requested": []}
            try:
                path.mkdir(parents=True, exist_ok=True)
                _atomic_write_bytes(path / MANIFEST, manifest_bytes(manifest))
            except OSError as exc:
                raise unwritable(path, exc) from None
            return cls(path, manifest)
        check_format(path, manifest)
        if manifest.get("key") != key:
            differs = [k for k in config if manifest.get(k) != config[k]]
            raise ValueError(f"The `store` directory {str(path)!r} holds another run (other "
                             f"{', '.join(differs) or 'key'}); pass another directory or the same rules, seed and per_seat.")
        return cls(path, manifest)

    # -- writing ---------------------------------------------------------------------------------
    def lock(self) -> StoreLock:
        """``with store.lock():`` -- exclusive right to write; refused (`StoreBusy`) while another run has it."""
        return StoreLock(self.path)

    def request(self, start: int, stop: int) -> None:
        """Record that games start..stop-1 are wanted (under the lock, before they are played)."""
        manifest = read_manifest(self.path) or self.manifest
        merged = merge_ranges(manifest.get("requested", []) + [[start, stop]])
        if merged != manifest.get("requested"):
            manifest = {**manifest, "requested": merged}
            try:
                _atomic_write_bytes(self.path / MANIFEST, manifest_bytes(manifest))
            except OSError as exc:
                raise unwritable(self.path, exc) from None
        self.manifest = manifest

    def drop_cut_short(self, start: int, stop: int) -> list[Path]:
        """Remove chunk files of ids start..stop-1 that were cut short (under the lock), so that
        they count as missing and are played again; returns the files removed."""
        gone = []
        for kind in ("games", "seats"):
            for lo, hi, _, path in chunk_files(self.path, kind):
                if hi > start and lo < stop and regular_file(path) is not None and not looks_whole(path):
                    path.unlink()
                    gone.append(path)
        return gone

    def chunk_attrs(self, start: int, n_games: int) -> dict:
        """The ``attrs`` of ``n_games`` games from id ``start`` (written into each chunk, checked on reading)."""
        return {"rules": self.manifest["rules"], "seed": self.seed, "rules_version": self.manifest["rules_version"],
                "n_games": n_games, "start": start}

    def write_chunk(self, lo: int, hi: int, games: pa.Table, seats: pa.Table | None = None) -> None:
        """Write games lo..hi-1 (the seats file first: the games file marks the chunk done)."""
        attrs = self.chunk_attrs(lo, hi - lo)
        if self.per_seat and seats is None:
            raise ValueError("This store keeps per-seat rows: pass `seats`.")
        parts = ([("seats", seats)] if self.per_seat else []) + [("games", games)]
        try:
            for kind, table in parts:
                data = parquet_bytes(with_attrs(table, attrs))
                _atomic_write_bytes(self.path / chunk_name(kind, lo, hi, crc_of(data)), data)
        except OSError as exc:
            raise unwritable(self.path, exc) from None

    # -- chunks ----------------------------------------------------------------------------------
    def chunks(self, kind: str = "games") -> list[tuple[int, int, Path]]:
        """Finished chunks as disjoint (lo, hi, file), sorted. A file overlapping an earlier one is
        left out (`verify` reports it); the seats files of a per-seat store pair with the games'."""
        chosen, end = [], -1
        for lo, hi, _, path in chunk_files(self.path, "games"):
            if lo >= end:
                chosen.append((lo, hi, path))
                end = hi
        if kind == "seats":
            seats = {(lo, hi): p for lo, hi, _, p in reversed(chunk_files(self.path, "seats"))}
            chosen = [(lo, hi, seats.get((lo, hi), self.path / f"seats-{lo:012d}-{hi:012d}-missing.parquet"))
                      for lo, hi, _ in chosen]
        return chosen

    def missing(self, start: int, stop: int) -> list[tuple[int, int]]:
        """The ranges of game ids in [start, stop) that no finished chunk holds."""
        return subtract_ranges([(start, stop)], [(lo, hi) for lo, hi, _ in self.chunks()])

    def check_complete(self, start: int, stop: int) -> None:
        """Raise unless every id start..stop-1 is in exactly one chosen chunk (after a run)."""
        gaps = self.missing(start, stop)
        if gaps:
            raise StoreError(f"After the run the store {str(self.path)!r} still lacks games {say_ranges(gaps)} "
                             f"({sum(b - a for a, b in gaps):,} games); run the same command again to play them.")  # names: the store by its path
        chosen = {p for _, _, p in self.chunks()}
        extra = [p.name for lo, hi, _, p in chunk_files(self.path, "games") if hi > start and lo < stop and p not in chosen]
        if extra:
            raise StoreError(f"The store {str(self.path)!r} holds games twice ({', '.join(extra[:3])} overlap other "
                             f"chunks): something other than this run wrote into it. Run `beggarstats store verify "
                             f"{self.path} --repair`, then the same command again.")
        if self.per_seat:
            for lo, hi, path in self.chunks("seats"):
                if hi > start and lo < stop and not path.exists():
                    raise StoreError(f"The store {str(self.path)!r} lacks the per-seat file of games {lo:,}..{hi - 1:,}; "
                                     f"run `beggarstats store verify {self.path} --repair`, then the same command again.")

    # -- reading ---------------------------------------------------------------------------------
    def read(self, *, seats: bool = False, start: int | None = None, stop: int | None = None,
             columns: Iterable[str] | None = None) -> pa.Table:
        """The stored rows of games start..stop-1 (all by default) as one Arrow table, by game id.
        Every chunk read is checked (checksum, page checksums, configuration); a bad one raises
        `StoreError` naming it."""
        kind = "seats" if seats else "games"
        if seats and not self.per_seat:
            raise ValueError(f"The store {str(self.path)!r} was written without `per_seat`: it has no seat rows.")
        lo_all = 0 if start is None else start
        hi_all = 2**63 if stop is None else stop
        per = self.rules.players if seats else 1
        parts = []
        for lo, hi, path in self.chunks(kind):
            if hi <= lo_all or lo >= hi_all:
                continue
            m = CHUNK_NAME.match(path.name)
            if m is None:
                raise StoreError(f"The store {str(self.path)!r} lacks the per-seat file of games {lo:,}..{hi - 1:,}: "
                                 f"run `beggarstats store verify {self.path} --repair`, then the same simulate "
                                 f"command again to replay them.")
            problem, table = check_chunk(self, kind, lo, hi, m.group(4), path, columns=columns)
            if problem is not None:
                raise StoreError(problem.message)
            a, b = max(lo, lo_all), min(hi, hi_all)
            if (a, b) != (lo, hi):
                table = table.slice((a - lo) * per, (b - a) * per)
            parts.append(table)
        if not parts:
            empty = self._empty_schema(kind)
            return empty.empty_table().select(list(columns) if columns else empty.names)
        return pa.concat_tables(parts)

    def _empty_schema(self, kind: str) -> pa.Schema:
        return empty_tables(self.rules, self.per_seat)[kind].schema  # of a zero-game chunk

    def frame(self, *, seats: bool = False, start: int | None = None, stop: int | None = None,
              columns: Iterable[str] | None = None, partial: bool = False) -> pd.DataFrame:
        """`read` as a tidy DataFrame with ``attrs``.

        Games asked for (start..stop-1, or by default every range runs have requested) that the
        store lacks raise `StoreError` naming them; with ``partial=True`` a warning instead, and
        ``attrs["missing"]`` lists the absent ranges as ``[lo, hi)`` pairs.
        """
        covered = [(lo, hi) for lo, hi, _ in self.chunks()]
        if start is None and stop is None:
            gaps = subtract_ranges(self.requested, covered)
        else:
            end = stop if stop is not None else max([hi for _, hi in self.requested + covered] + [0])
            gaps = subtract_ranges([(start or 0, end)], covered)
        if gaps:
            n_gap = sum(b - a for a, b in gaps)
            message = (f"The store {str(self.path)!r} lacks {n_gap:,} of the games asked for: ids {say_ranges(gaps)}. "
                       f"Run the same simulate command again to play them (or load with partial=True).")
            if not partial:
                raise StoreError(message)
            warnings.warn(message, stacklevel=3)
        table = self.read(seats=seats, start=start, stop=stop, columns=columns)
        n = table.num_rows // (self.rules.players if seats else 1)
        chunks = self.chunks()
        first = start if start is not None else (chunks[0][0] if chunks else 0)
        attrs = self.chunk_attrs(first, n)
        if gaps:
            attrs["missing"] = [[a, b] for a, b in gaps]
        return to_frame(table, attrs)

    # -- checking --------------------------------------------------------------------------------
    def problems(self, *, repair: bool = False) -> list[Problem]:
        """Everything wrong with the store (see `verify`); ``repair`` removes the bad files."""
        return find_problems(self, repair=repair)


def verify(store: PathLike | Store, *, repair: bool = False) -> list[Problem]:
    """Every problem of a store directory: damaged, foreign or unpaired chunk files (all of them
    are read and checked), chunks stored twice, games asked for but missing, stray temporary files.

    With ``repair=True`` the bad files are removed (under the store's lock), so that running the
    same `simulate` / `simulate_to_store` call again replays exactly the games they held. Returns
    the problems found (an empty list: the store is sound).
    """
    path = Path(store.path if isinstance(store, Store) else store)
    repair = check_flag("repair", repair)
    try:
        st = Store.at(path)
    except StoreError as exc:
        return [Problem("manifest", str(exc), path / MANIFEST)]
    if not repair:
        return st.problems()
    with st.lock():
        return st.problems(repair=True)


def load(store: PathLike, columns: Iterable[str] | None = None, *, seats: bool = False,
         partial: bool = False) -> pd.DataFrame:
    """Load a run: a store directory (`simulate(..., store=...)`) or one parquet file (`save`).

    Parameters
    ----------
    store : str or path
        A store directory or a ``.parquet`` file.
    columns : list of str, optional
        Read only these columns.
    seats : bool
        From a per-seat store, the long table (one row per game and seat) instead of the games.
    partial : bool
        A store lacking games that runs asked for raises `StoreError` naming them; with
        ``partial=True`` it warns instead and returns what is there, with the absent ranges in
        ``attrs["missing"]``.

    Returns
    -------
    DataFrame with ``attrs`` (rules, seed, rules_version, n_games, start).
    """
    path = Path(store)
    seats, partial = check_flag("seats", seats), check_flag("partial", partial)
    if path.is_dir():
        return Store.at(path).frame(seats=seats, columns=columns, partial=partial)
    if not path.exists():
        raise ValueError(f"The `store` {str(path)!r} does not exist.")
    if regular_file(path) is None:
        raise StoreError(f"The `store` {str(path)!r} is neither a directory nor a regular file (a pipe or device "
                         f"is never read); pass a store directory or a .parquet file.")
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        table = pf.read(columns=list(columns) if columns else None)
    except (pa.ArrowException, OSError) as exc:
        head = _json_head(path)
        if head == "summary":  # what Summary.save writes: name the one loader that reads it
            raise StoreError(f"The file {str(path)!r} is a summary (written by Summary.save), not a table of games: "
                             "load it with beggarstats.run.summary.load_summary.") from None  # names: the file by its path
        if head:  # a summary or a comparison saved as JSON: say which loader reads it
            raise StoreError(f"The file {str(path)!r} is JSON, not a table of games: a summary loads with "
                             "beggarstats.run.summary.load_summary, a comparison with "
                             "beggarstats.run.compare.load_moments.") from None  # names: the file by its path
        raise StoreError(f"The file {str(path)!r} is damaged or not parquet ({exc}).") from None  # names: the file by its path
    return to_frame(table, attrs_of(pf.schema_arrow) or {})


_SUMMARY_HEAD = re.compile(rb'\s*\{"format":\d+,"sha256":"[0-9a-f]{64}","summary":\{')  # Summary.save's first bytes


def _json_head(path: Path) -> str:
    """What a file that is not parquet starts as: 'summary' (the head `Summary.save` writes, its keys
    sorted), 'json' (after white space a '{', as every JSON file beggarstats writes), else ''."""
    try:
        with open(path, "rb") as f:
            head = f.read(256)
    except OSError:
        return ""
    if _SUMMARY_HEAD.match(head):
        return "summary"
    return "json" if head.lstrip().startswith(b"{") else ""


def save(frame: pd.DataFrame, path: PathLike) -> Path:
    """Write a frame from `simulate` to one parquet file, its ``attrs`` in the file's metadata."""
    import pandas as pd

    if not isinstance(frame, pd.DataFrame):
        raise ValueError(f"The value for `frame` must be a DataFrame from simulate(), but {type(frame).__name__} "
                         f"was passed.")
    if not isinstance(path, (str, os.PathLike)) or isinstance(path, bytes):
        raise ValueError(f"The value for `path` must be a file path, but {path!r:.60} was passed.")
    path = check_output_file(path, name="path")
    try:
        table = pa.Table.from_pandas(frame, preserve_index=False)
        table = with_attrs(table.replace_schema_metadata({}), dict(frame.attrs))
    except (pa.ArrowException, TypeError, ValueError) as exc:
        raise ValueError(f"The value for `frame` cannot be written as parquet ({str(exc).splitlines()[0]}).") from None
    with replacing(path, "parquet file") as tmp:
        pq.write_table(table, tmp, write_page_checksum=True)
    return path
