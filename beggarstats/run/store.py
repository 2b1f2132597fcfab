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

import errno
import hashlib
import json
import os
import re
import stat
import warnings
import zlib
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from ..game.checks import check_flag
from ..game.rules import RULES_VERSION, Rules
from .outputs import WriteError, check_output_dir, replacing, write_bytes
from .tables import attrs_of, empty_tables, to_frame, with_attrs

__all__ = ["Store", "StoreError", "StoreBusy", "Problem", "store_key", "default_path", "load", "save", "verify",
           "write_lock", "looks_whole"]

MANIFEST = "manifest.json"
LOCK = ".lock"
STORE_FORMAT = 2  # 2: CRC in chunk names, page checksums, requested ranges, lock
_CHUNK = re.compile(r"^(games|seats)-(\d+)-(\d+)-([0-9a-f]{8})\.parquet$")
_OLD_CHUNK = re.compile(r"^(games|seats)-(\d+)-(\d+)\.parquet$")
_TMP = re.compile(r"^\..*\.tmp$")
# The temporary files this store writes (`_atomic_write_bytes`: mkstemp's 8 random characters
# between the name of the file it becomes and ".tmp"); any other file is the user's and is kept.
_OWN_TMP = re.compile(r"^\.(?:(?:games|seats)-\d+-\d+-[0-9a-f]{8}\.parquet|manifest\.json)\.[A-Za-z0-9_]{8}\.tmp$")
# The largest file a chunk of ``rows`` rows can be (parquet of at most 15 columns of 1-8 bytes, page
# headers and footer): checked before a byte is read, so that a link to /dev/zero or a huge file
# is reported instead of read until memory runs out.
_CHUNK_BYTES_PER_ROW = 256
_CHUNK_BYTES_FIXED = 2**20


class StoreError(ValueError):
    """A store that cannot be read as asked: damaged, foreign or missing files, missing games."""


class StoreBusy(StoreError):
    """Another run holds the store's lock."""


def _config(rules: Rules, seed: int, per_seat: bool) -> dict:
    return {"rules": rules.to_dict(), "seed": int(seed), "rules_version": RULES_VERSION,
            "per_seat": bool(per_seat)}


def store_key(rules: Rules, seed: int, per_seat: bool = False) -> str:
    """A 16-hex-digit hash of (rules, seed, RULES_VERSION, per_seat, store format): the store's identity."""
    text = json.dumps({**_config(rules, seed, per_seat), "format": STORE_FORMAT}, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def default_path(rules: Rules, seed: int, per_seat: bool = False) -> Path:
    """``<runs_dir>/<key>``: the per-user run cache (`beggarstats.run.paths.runs_dir`), never the
    current directory."""
    from .paths import runs_dir

    return runs_dir() / store_key(rules, seed, per_seat)


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    """``data`` into ``path`` through a temporary file of an unpredictable name in the same directory
    (`outputs.replacing`; an OSError is raised as it is, for `unwritable` to say)."""
    write_bytes(path, data, what=None)


def _parquet_bytes(table: pa.Table) -> bytes:
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True)
    return sink.getvalue().to_pybytes()


def _crc(data) -> str:
    return f"{zlib.crc32(data):08x}"


def _merge(ranges) -> list[list[int]]:
    out = []
    for lo, hi in sorted((int(a), int(b)) for a, b in ranges if b > a):
        if out and lo <= out[-1][1]:
            out[-1][1] = max(out[-1][1], hi)
        else:
            out.append([lo, hi])
    return out


def _subtract(ranges, covered) -> list[tuple[int, int]]:
    """The parts of ``ranges`` not in the sorted, disjoint ``covered``."""
    gaps = []
    for lo, hi in ranges:
        at = lo
        for a, b in covered:
            if b <= at or a >= hi:
                continue
            if a > at:
                gaps.append((at, a))
            at = max(at, b)
        if at < hi:
            gaps.append((at, hi))
    return gaps


def _say_ranges(ranges, limit: int = 5) -> str:
    parts = [f"{lo:,}" if hi - lo == 1 else f"{lo:,}..{hi - 1:,}" for lo, hi in ranges[:limit]]
    more = f" and {len(ranges) - limit} more ranges" if len(ranges) > limit else ""
    return ", ".join(parts) + more


def _read_manifest(path: Path) -> dict | None:
    """The manifest of directory ``path`` (None if it has none); a damaged one is an error naming it."""
    file = path / MANIFEST
    try:
        text = file.read_text()
    except FileNotFoundError:
        return None
    except UnicodeDecodeError as exc:
        raise StoreError(_damaged_manifest(file, f"not text: {exc}")) from None
    try:
        manifest = json.loads(text)
        if not isinstance(manifest, dict):
            raise ValueError("not a JSON object")
        if manifest.get("format", 1) != 1:
            config = {k: manifest[k] for k in ("rules", "seed", "rules_version", "per_seat")}
            key = store_key(Rules.from_dict(config["rules"]), config["seed"], config["per_seat"]) \
                if config["rules_version"] == RULES_VERSION else manifest["key"]
            if manifest["key"] != key:
                raise ValueError("its key does not match its configuration")
            _merge(manifest.get("requested", []))
    except (ValueError, KeyError, TypeError) as exc:
        raise StoreError(_damaged_manifest(file, str(exc))) from None
    return manifest


def _damaged_manifest(file: Path, why: str) -> str:
    return (f"The store manifest {str(file)!r} is damaged ({why}). Its chunk files are intact but cannot be "
            f"trusted without it: restore the manifest from a copy, or delete the directory and run again.")


def _regular(path: Path) -> os.stat_result | None:
    """The status of ``path`` (links followed) if it is a regular file, else None (a pipe, device,
    directory or dangling link: never opened, since a read of one may never end)."""
    try:
        info = path.stat()
    except OSError:
        return None
    return info if stat.S_ISREG(info.st_mode) else None


def looks_whole(path: Path) -> bool:
    """A quick test for a chunk cut short: parquet's magic at both ends and a footer that fits
    (False for anything but a regular file)."""
    try:
        info = _regular(path)
        if info is None:
            return False
        size = info.st_size
        if size < 12:
            return False
        with open(path, "rb") as f:
            head = f.read(4)
            f.seek(size - 8)
            tail = f.read(8)
        return head == b"PAR1" and tail[4:] == b"PAR1" and int.from_bytes(tail[:4], "little") <= size - 12
    except OSError:
        return False


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a store. ``kind``: manifest, damaged, foreign, unpaired, overlap,
    missing, temporary, other (a file the store did not write: listed, never removed). ``ids``: the game ids concerned (lo, hi) when there are some."""

    kind: str
    message: str
    path: Path | None = None
    ids: tuple[int, int] | None = None

    def __str__(self) -> str:
        return self.message

    @property
    def removable(self) -> bool:
        """A file that ``verify(..., repair=True)`` removes: only files this store writes (chunk
        names, its own temporary files), never the manifest or a file it did not write (``other``)."""
        return self.path is not None and self.kind not in ("manifest", "other")

    @property
    def missing_games(self) -> int:
        """Games asked for but not stored, that the same simulate call plays again (0 but for ``missing``)."""
        return self.ids[1] - self.ids[0] if self.kind == "missing" and self.ids is not None else 0


class _Lock:
    """An exclusive, non-blocking advisory lock on ``<store>/<name>`` (released when the process dies):
    ``.lock`` for the parquet store, ``.summary.lock`` for the summary kept beside it."""

    def __init__(self, path: Path, name: str = LOCK, what: str = "store"):
        from filelock import FileLock, Timeout

        self._timeout = Timeout
        self.path, self.name, self.what = path, name, what
        self.lock = FileLock(str(path / name), timeout=0)

    def __enter__(self):
        try:
            self.lock.acquire()
        except self._timeout:
            raise StoreBusy(f"The {self.what} {str(self.path)!r} is being written by another run (it holds "
                            f"{str(self.path / self.name)!r}). Wait for that run to finish and run again: only the "
                            f"games still missing then are played.") from None
        except OSError as exc:
            raise unwritable(self.path, exc) from None
        return self

    def __exit__(self, *exc):
        self.lock.release()


def write_lock(path, name: str = LOCK, what: str = "store") -> _Lock:
    """``with write_lock(directory, name):`` -- the one-writer rule of a store directory (`StoreBusy`
    while another process holds ``name``; an unwritable directory is an OSError saying what to do)."""
    return _Lock(Path(path), name, what)


def unwritable(path: Path, exc: OSError) -> OSError:
    why = exc.strerror or str(exc)
    full = " The disk is full: free some space" if exc.errno == errno.ENOSPC else \
        " Make it writable (or copy it somewhere writable)"
    return WriteError(exc.errno, f"Cannot write to the store {str(path)!r} ({why}).{full} and run the same command "
                              f"again: every chunk already stored is kept and only the missing games are played.")


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

    @property
    def requested(self) -> list[list[int]]:
        """The ranges of game ids runs have asked this store for (merged)."""
        return _merge(self.manifest.get("requested", []))

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
        manifest = _read_manifest(check_output_dir(where, writable=False)) if where is not None else None
        return int(manifest["seed"]) if manifest else None

    @classmethod
    def at(cls, path) -> "Store":
        """The existing store in directory ``path``."""
        path = Path(path)
        if not path.is_dir():
            raise StoreError(f"The store {str(path)!r} does not exist or is not a directory.")
        manifest = _read_manifest(path)
        if manifest is None:
            raise StoreError(f"The `store` directory {str(path)!r} has no {MANIFEST}: it is not a beggarstats store.")
        cls._check_format(path, manifest)
        return cls(path, manifest)

    @staticmethod
    def _check_format(path: Path, manifest: dict) -> None:
        if manifest.get("format", 1) != STORE_FORMAT:
            raise StoreError(f"The store {str(path)!r} was written by an older beggarstats (store format "
                             f"{manifest.get('format', 1)}, without checksums); delete it or pass another "
                             f"directory to run again.")

    @classmethod
    def open(cls, store, *, rules: Rules, seed: int, per_seat: bool) -> "Store":
        """Open (creating if needed) the store for this configuration.

        ``store=True`` is ``<per-user cache>/runs/<key>``; a path names the directory. A directory that already
        holds another configuration is refused rather than mixed.
        """
        config = _config(rules, seed, per_seat)
        key = store_key(rules, seed, per_seat)
        path = check_output_dir(cls.location(store) or default_path(rules, seed, per_seat), writable=False)
        manifest = _read_manifest(path)
        if manifest is None:
            manifest = {"format": STORE_FORMAT, "key": key, **config, "requested": []}
            try:
                path.mkdir(parents=True, exist_ok=True)
                _atomic_write_bytes(path / MANIFEST, _manifest_bytes(manifest))
            except OSError as exc:
                raise unwritable(path, exc) from None
            return cls(path, manifest)
        cls._check_format(path, manifest)
        if manifest.get("key") != key:
            differs = [k for k in config if manifest.get(k) != config[k]]
            raise ValueError(f"The `store` directory {str(path)!r} holds another run (other "
                             f"{', '.join(differs) or 'key'}); pass another directory or the same rules, seed and per_seat.")
        return cls(path, manifest)

    # -- writing ---------------------------------------------------------------------------------
    def lock(self) -> _Lock:
        """``with store.lock():`` -- exclusive right to write; refused (`StoreBusy`) while another run has it."""
        return _Lock(self.path)

    def request(self, start: int, stop: int) -> None:
        """Record that games start..stop-1 are wanted (under the lock, before they are played)."""
        manifest = _read_manifest(self.path) or self.manifest
        merged = _merge(manifest.get("requested", []) + [[start, stop]])
        if merged != manifest.get("requested"):
            manifest = {**manifest, "requested": merged}
            try:
                _atomic_write_bytes(self.path / MANIFEST, _manifest_bytes(manifest))
            except OSError as exc:
                raise unwritable(self.path, exc) from None
        self.manifest = manifest

    def drop_cut_short(self, start: int, stop: int) -> list[Path]:
        """Remove chunk files of ids start..stop-1 that were cut short (under the lock), so that
        they count as missing and are played again; returns the files removed."""
        gone = []
        for kind in ("games", "seats"):
            for lo, hi, _, path in self._files(kind):
                if hi > start and lo < stop and _regular(path) is not None and not looks_whole(path):
                    path.unlink()
                    gone.append(path)
        return gone

    def _attrs(self, start: int, n_games: int) -> dict:
        return {"rules": self.manifest["rules"], "seed": self.seed, "rules_version": self.manifest["rules_version"],
                "n_games": n_games, "start": start}

    def write_chunk(self, lo: int, hi: int, games: pa.Table, seats: pa.Table | None = None) -> None:
        """Write games lo..hi-1 (the seats file first: the games file marks the chunk done)."""
        attrs = self._attrs(lo, hi - lo)
        if self.per_seat and seats is None:
            raise ValueError("This store keeps per-seat rows: pass `seats`.")
        parts = ([("seats", seats)] if self.per_seat else []) + [("games", games)]
        try:
            for kind, table in parts:
                data = _parquet_bytes(with_attrs(table, attrs))
                _atomic_write_bytes(self.path / f"{kind}-{lo:012d}-{hi:012d}-{_crc(data)}.parquet", data)
        except OSError as exc:
            raise unwritable(self.path, exc) from None

    # -- chunks ----------------------------------------------------------------------------------
    def _files(self, kind: str) -> list[tuple[int, int, str, Path]]:
        found = []
        for entry in os.scandir(self.path):
            m = _CHUNK.match(entry.name)
            if m and m.group(1) == kind:
                found.append((int(m.group(2)), int(m.group(3)), m.group(4), Path(entry.path)))
        return sorted(found, key=lambda t: (t[0], -t[1], t[3].name))

    def chunks(self, kind: str = "games") -> list[tuple[int, int, Path]]:
        """Finished chunks as disjoint (lo, hi, file), sorted. A file overlapping an earlier one is
        left out (`verify` reports it); the seats files of a per-seat store pair with the games'."""
        chosen, end = [], -1
        for lo, hi, _, path in self._files("games"):
            if lo >= end:
                chosen.append((lo, hi, path))
                end = hi
        if kind == "seats":
            seats = {(lo, hi): p for lo, hi, _, p in reversed(self._files("seats"))}
            chosen = [(lo, hi, seats.get((lo, hi), self.path / f"seats-{lo:012d}-{hi:012d}-missing.parquet"))
                      for lo, hi, _ in chosen]
        return chosen

    def missing(self, start: int, stop: int) -> list[tuple[int, int]]:
        """The ranges of game ids in [start, stop) that no finished chunk holds."""
        return _subtract([(start, stop)], [(lo, hi) for lo, hi, _ in self.chunks()])

    def check_complete(self, start: int, stop: int) -> None:
        """Raise unless every id start..stop-1 is in exactly one chosen chunk (after a run)."""
        gaps = self.missing(start, stop)
        if gaps:
            raise StoreError(f"After the run the store {str(self.path)!r} still lacks games {_say_ranges(gaps)} "
                             f"({sum(b - a for a, b in gaps):,} games); run the same command again to play them.")
        chosen = {p for _, _, p in self.chunks()}
        extra = [p.name for lo, hi, _, p in self._files("games") if hi > start and lo < stop and p not in chosen]
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
    def _check_chunk(self, kind: str, lo: int, hi: int, crc: str | None, path: Path, *, columns=None,
                     data: bytes | None = None):
        """Read and check one chunk file; returns (problem or None, table or None)."""
        what = f"Chunk {path.name!r} of the store {str(self.path)!r}"
        fix = (f"run `beggarstats store verify {self.path} --repair` (or `beggarstats.verify(store, repair=True)`) "
               f"to remove it, then the same simulate command again to replay games {lo:,}..{hi - 1:,}")
        rows = (hi - lo) * (self.rules.players if kind == "seats" else 1)
        if data is None:
            data, why = _read_chunk(path, _CHUNK_BYTES_FIXED + _CHUNK_BYTES_PER_ROW * rows)
            if data is None:
                return Problem("damaged", f"{what} {why}: {fix}.", path, (lo, hi)), None
        if crc is not None and _crc(data) != crc:
            return Problem("damaged", f"{what} is damaged (its content does not match its checksum): {fix}.",
                           path, (lo, hi)), None
        try:
            pf = pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True)
            meta = attrs_of(pf.schema_arrow)
            table = pf.read(columns=list(columns) if columns is not None else None)
        except (pa.ArrowException, OSError, ValueError) as exc:
            return Problem("damaged", f"{what} is damaged ({exc}): {fix}.", path, (lo, hi)), None
        want = self._attrs(lo, hi - lo)
        wrong = [k for k in ("rules", "seed", "rules_version", "start", "n_games") if (meta or {}).get(k) != want[k]]
        if wrong or pf.metadata.num_rows != rows:
            why = ", ".join(wrong) if wrong else "number of rows"
            return Problem("foreign", f"{what} belongs to another run (its {why} differ from the manifest "
                                      f"and its name): {fix}.", path, (lo, hi)), None
        return None, table

    def read(self, *, seats: bool = False, start: int | None = None, stop: int | None = None,
             columns=None) -> pa.Table:
        """The stored rows of games start..stop-1 (all by default) as one Arrow table, by game id.
        Every chunk read is checked (checksum, page checksums, configuration); a bad one raises
        `StoreError` naming it."""
        kind = "seats" if seats else "games"
        if seats and not self.per_seat:
            raise ValueError(f"The store {str(self.path)!r} was written without per_seat: it has no seat rows.")
        lo_all = 0 if start is None else start
        hi_all = 2**63 if stop is None else stop
        per = self.rules.players if seats else 1
        parts = []
        for lo, hi, path in self.chunks(kind):
            if hi <= lo_all or lo >= hi_all:
                continue
            m = _CHUNK.match(path.name)
            if m is None:
                raise StoreError(f"The store {str(self.path)!r} lacks the per-seat file of games {lo:,}..{hi - 1:,}: "
                                 f"run `beggarstats store verify {self.path} --repair`, then the same simulate "
                                 f"command again to replay them.")
            problem, table = self._check_chunk(kind, lo, hi, m.group(4), path, columns=columns)
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

    def frame(self, *, seats: bool = False, start: int | None = None, stop: int | None = None, columns=None,
              partial: bool = False):
        """`read` as a tidy DataFrame with ``attrs``.

        Games asked for (start..stop-1, or by default every range runs have requested) that the
        store lacks raise `StoreError` naming them; with ``partial=True`` a warning instead, and
        ``attrs["missing"]`` lists the absent ranges as ``[lo, hi)`` pairs.
        """
        covered = [(lo, hi) for lo, hi, _ in self.chunks()]
        if start is None and stop is None:
            gaps = _subtract(self.requested, covered)
        else:
            end = stop if stop is not None else max([hi for _, hi in self.requested + covered] + [0])
            gaps = _subtract([(start or 0, end)], covered)
        if gaps:
            n_gap = sum(b - a for a, b in gaps)
            message = (f"The store {str(self.path)!r} lacks {n_gap:,} of the games asked for: ids {_say_ranges(gaps)}. "
                       f"Run the same simulate command again to play them (or load with partial=True).")
            if not partial:
                raise StoreError(message)
            warnings.warn(message, stacklevel=3)
        table = self.read(seats=seats, start=start, stop=stop, columns=columns)
        n = table.num_rows // (self.rules.players if seats else 1)
        chunks = self.chunks()
        first = start if start is not None else (chunks[0][0] if chunks else 0)
        attrs = self._attrs(first, n)
        if gaps:
            attrs["missing"] = [[a, b] for a, b in gaps]
        return to_frame(table, attrs)

    # -- checking --------------------------------------------------------------------------------
    def problems(self, *, repair: bool = False) -> list[Problem]:
        """Everything wrong with the store (see `verify`); ``repair`` removes the bad files."""
        found: list[Problem] = []
        bad: list[Path] = []
        good: dict[str, list[tuple[int, int, Path]]] = {"games": [], "seats": []}
        for entry in sorted(os.scandir(self.path), key=lambda e: e.name):
            name, path = entry.name, Path(entry.path)
            if name in (MANIFEST, LOCK):
                continue
            if _OWN_TMP.match(name) and _regular(path) is not None:
                found.append(Problem("temporary", f"{name!r} is a temporary file left by an interrupted run.", path))
                bad.append(path)
                continue
            m = _CHUNK.match(name)
            if m is None:
                if _TMP.match(name) or _OLD_CHUNK.match(name) or name.endswith(".parquet"):
                    found.append(Problem("other", f"{name!r} was not written by this store (it is never loaded, "
                                                  f"and repair leaves it alone): move it away if it is not yours.",
                                         path))
                continue
            kind, lo, hi, crc = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
            if kind == "seats" and not self.per_seat:
                found.append(Problem("foreign", f"{name!r}: per-seat rows in a store without per_seat.", path, (lo, hi)))
                bad.append(path)
                continue
            problem, _ = self._check_chunk(kind, lo, hi, crc, path)
            if problem is not None:
                found.append(problem)
                bad.append(path)
            else:
                good[kind].append((lo, hi, path))
        if self.per_seat:  # a games file marks its chunk done only with a good seats file beside it
            have = {(lo, hi) for lo, hi, _ in good["seats"]}
            for lo, hi, path in list(good["games"]):
                if (lo, hi) not in have:
                    found.append(Problem("unpaired", f"{path.name!r} has no intact per-seat file beside it.",
                                         path, (lo, hi)))
                    bad.append(path)
                    good["games"].remove((lo, hi, path))
        for kind in ("games", "seats"):
            end = -1
            for lo, hi, path in sorted(good[kind], key=lambda t: (t[0], -t[1])):
                if lo < end:
                    found.append(Problem("overlap", f"{path.name!r} overlaps another chunk (games {lo:,}..{hi - 1:,} "
                                                    f"are stored twice); the extra file is never loaded.", path, (lo, hi)))
                    bad.append(path)
                else:
                    end = hi
        kept = _merge([(lo, hi) for lo, hi, p in good["games"] if p not in bad])
        for a, b in _subtract(self.requested, kept):
            found.append(Problem("missing", f"games {a:,}..{b - 1:,} ({b - a:,}) were asked for but are not stored.",
                                 None, (a, b)))
        if repair:
            for path in bad:  # chunk names and own temporaries only; a directory is never removed
                if os.path.lexists(path) and not path.is_dir():
                    path.unlink()
        return found


def _read_chunk(path: Path, limit: int) -> tuple[bytes | None, str]:
    """The bytes of chunk file ``path``, or None and why not: only a regular file of at most
    ``limit`` bytes is read (a pipe, a device such as /dev/zero, a directory is never opened)."""
    info = _regular(path)
    if info is None:
        kind = "missing" if not os.path.lexists(path) else "not a regular file (a pipe, device, directory or dangling link)"
        return None, f"cannot be read: it is {kind}"
    if info.st_size > limit:
        return None, f"is {info.st_size:,} bytes, more than a chunk of its games can be ({limit:,})"
    try:
        with open(path, "rb") as f:
            data = f.read(limit + 1)
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    if len(data) > limit:
        return None, f"grew past {limit:,} bytes while being read"
    return data, ""


def _manifest_bytes(manifest: dict) -> bytes:
    return (json.dumps(manifest, indent=2, sort_keys=True) + "\n").encode()


def verify(store, *, repair: bool = False) -> list[Problem]:
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


def load(store, columns=None, *, seats: bool = False, partial: bool = False):
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
    if _regular(path) is None:
        raise StoreError(f"The `store` {str(path)!r} is neither a directory nor a regular file (a pipe or device "
                         f"is never read); pass a store directory or a .parquet file.")
    try:
        pf = pq.ParquetFile(path, page_checksum_verification=True)
        table = pf.read(columns=list(columns) if columns else None)
    except (pa.ArrowException, OSError) as exc:
        raise StoreError(f"The file {str(path)!r} is damaged or not parquet ({exc}).") from None
    return to_frame(table, attrs_of(pf.schema_arrow) or {})


def save(frame, path) -> Path:
    """Write a frame from `simulate` to one parquet file, its ``attrs`` in the file's metadata."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    table = with_attrs(table.replace_schema_metadata({}), dict(frame.attrs))
    path = Path(path)
    with replacing(path, "parquet file") as tmp:
        pq.write_table(table, tmp, write_page_checksum=True)
    return path
