"""Checking a store (`run.store`): one chunk as it is read, and every file of the directory for `verify`.

A chunk is checked against its name (the CRC-32 of the whole file), parquet's page checksums and
its metadata (rules, seed, ``RULES_VERSION``, id range: those of the manifest and the name). Every
problem names the file and the fix; ``repair`` removes only files the store wrote.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from .id_ranges import merge_ranges, subtract_ranges
from .store_files import (CHUNK_NAME, LOCK, MANIFEST, OLD_CHUNK_NAME, OWN_TEMPORARY_NAME, TEMPORARY_NAME, chunk_limit,
                          crc_of, read_small, regular_file)
from .tables import attrs_of

__all__ = ["Problem", "check_chunk", "find_problems"]


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


def check_chunk(store, kind: str, lo: int, hi: int, crc: str | None, path: Path, *, columns=None):
    """Read and check chunk file ``path`` of ``store`` (a `Store`), games lo..hi-1; returns
    (problem or None, Arrow table or None)."""
    what = f"Chunk {path.name!r} of the store {str(store.path)!r}"
    fix = (f"run `beggarstats store verify {store.path} --repair` (or `beggarstats.verify(store, repair=True)`) "
           f"to remove it, then the same simulate command again to replay games {lo:,}..{hi - 1:,}")
    rows = (hi - lo) * (store.rules.players if kind == "seats" else 1)
    data, why = read_small(path, chunk_limit(rows), "a chunk of its games can be")
    if data is None:
        return Problem("damaged", f"{what} {why}: {fix}.", path, (lo, hi)), None
    if crc is not None and crc_of(data) != crc:
        return Problem("damaged", f"{what} is damaged (its content does not match its checksum): {fix}.",
                       path, (lo, hi)), None
    try:
        pf = pq.ParquetFile(pa.BufferReader(data), page_checksum_verification=True)
        meta = attrs_of(pf.schema_arrow)
        table = pf.read(columns=list(columns) if columns is not None else None)
    except (pa.ArrowException, OSError, ValueError) as exc:
        return Problem("damaged", f"{what} is damaged ({exc}): {fix}.", path, (lo, hi)), None
    want = store.chunk_attrs(lo, hi - lo)
    wrong = [k for k in ("rules", "seed", "rules_version", "start", "n_games") if (meta or {}).get(k) != want[k]]
    if wrong or pf.metadata.num_rows != rows:
        why = ", ".join(wrong) if wrong else "number of rows"
        verb = "differ" if len(wrong) > 1 else "differs"
        return Problem("foreign", f"{what} belongs to another run (its {why} {verb} from the manifest "
                                  f"and its name): {fix}.", path, (lo, hi)), None
    return None, table


def find_problems(store, *, repair: bool = False) -> list[Problem]:
    """Everything wrong with ``store`` (a `Store`; see `run.store.verify`); ``repair`` removes the bad files."""
    found: list[Problem] = []
    bad: list[Path] = []
    good: dict[str, list[tuple[int, int, Path]]] = {"games": [], "seats": []}
    for entry in sorted(os.scandir(store.path), key=lambda e: e.name):
        name, path = entry.name, Path(entry.path)
        if name in (MANIFEST, LOCK):
            continue
        if OWN_TEMPORARY_NAME.match(name) and regular_file(path) is not None:
            found.append(Problem("temporary", f"{name!r} is a temporary file left by an interrupted run.", path))
            bad.append(path)
            continue
        m = CHUNK_NAME.match(name)
        if m is None:
            if TEMPORARY_NAME.match(name) or OLD_CHUNK_NAME.match(name) or name.endswith(".parquet"):
                found.append(Problem("other", f"{name!r} was not written by this store (it is never loaded, "
                                              f"and repair leaves it alone): move it away if it is not yours.",
                                     path))
            continue
        kind, lo, hi, crc = m.group(1), int(m.group(2)), int(m.group(3)), m.group(4)
        if kind == "seats" and not store.per_seat:
            found.append(Problem("foreign", f"{name!r}: per-seat rows in a store without per_seat.", path, (lo, hi)))
            bad.append(path)
            continue
        problem, _ = check_chunk(store, kind, lo, hi, crc, path)
        if problem is not None:
            found.append(problem)
            bad.append(path)
        else:
            good[kind].append((lo, hi, path))
    if store.per_seat:  # a games file marks its chunk done only with a good seats file beside it
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
    kept = merge_ranges([(lo, hi) for lo, hi, p in good["games"] if p not in bad])
    for a, b in subtract_ranges(store.requested, kept):
        found.append(Problem("missing", f"games {a:,}..{b - 1:,} ({b - a:,}) were asked for but are not stored.",
                             None, (a, b)))
    if repair:
        for path in bad:  # chunk names and own temporaries only; a directory is never removed
            if os.path.lexists(path) and not path.is_dir():
                path.unlink()
    return found
