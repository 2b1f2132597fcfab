"""The files of a store directory (`run.store`): their names, their checksums, and reading one safely.

A chunk is ``games-<lo>-<hi>-<crc>.parquet`` (and ``seats-...`` beside it in a per-seat store):
games lo..hi-1, ``<crc>`` the CRC-32 of the whole file. Only a regular file of a size its games
can have is ever opened, so that a pipe, a device or a huge file is reported instead of read.
"""

from __future__ import annotations

import os
import re
import stat
import zlib
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["StoreError", "MANIFEST", "LOCK", "STORE_FORMAT", "CHUNK_NAME", "OLD_CHUNK_NAME", "TEMPORARY_NAME",
           "OWN_TEMPORARY_NAME", "chunk_name", "chunk_files", "chunk_limit", "crc_of", "parquet_bytes",
           "regular_file", "looks_whole", "read_small", "read_checked"]

MANIFEST = "manifest.json"
LOCK = ".lock"
STORE_FORMAT = 2  # 2: CRC in chunk names, page checksums, requested ranges, lock
CHUNK_NAME = re.compile(r"^(games|seats)-(\d+)-(\d+)-([0-9a-f]{8})\.parquet$")
OLD_CHUNK_NAME = re.compile(r"^(games|seats)-(\d+)-(\d+)\.parquet$")
TEMPORARY_NAME = re.compile(r"^\..*\.tmp$")
# The temporary files a store writes (`outputs.write_bytes`: mkstemp's 8 random characters
# between the name of the file it becomes and ".tmp"); any other file is the user's and is kept.
OWN_TEMPORARY_NAME = re.compile(
    r"^\.(?:(?:games|seats)-\d+-\d+-[0-9a-f]{8}\.parquet|manifest\.json)\.[A-Za-z0-9_]{8}\.tmp$")
# The largest file a chunk of ``rows`` rows can be (parquet of at most 15 columns of 1-8 bytes, page
# headers and footer): checked before a byte is read, so that a link to /dev/zero or a huge file
# is reported instead of read until memory runs out.
_BYTES_PER_ROW = 256
_BYTES_FIXED = 2**20


class StoreError(ValueError):
    """A store that cannot be read as asked: damaged, foreign or missing files, missing games."""


def chunk_name(kind: str, lo: int, hi: int, crc: str) -> str:
    """The file name of chunk ``kind`` ('games' or 'seats') of games lo..hi-1 with checksum ``crc``."""
    return f"{kind}-{lo:012d}-{hi:012d}-{crc}.parquet"


def chunk_files(path: Path, kind: str) -> list[tuple[int, int, str, Path]]:
    """Every file of directory ``path`` named as a chunk of ``kind``: (lo, hi, crc, file), sorted by
    lo, then longest first."""
    found = []
    for entry in os.scandir(path):
        m = CHUNK_NAME.match(entry.name)
        if m and m.group(1) == kind:
            found.append((int(m.group(2)), int(m.group(3)), m.group(4), Path(entry.path)))
    return sorted(found, key=lambda t: (t[0], -t[1], t[3].name))


def chunk_limit(rows: int) -> int:
    """The most bytes a chunk of ``rows`` rows can hold."""
    return _BYTES_FIXED + _BYTES_PER_ROW * rows


def crc_of(data) -> str:
    """The CRC-32 of ``data`` as 8 hex digits (it detects every single-bit flip and every burst of
    up to 32 bits, wherever it falls)."""
    return f"{zlib.crc32(data):08x}"


def parquet_bytes(table: pa.Table) -> bytes:
    """``table`` as a parquet file in memory, with page checksums."""
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True)
    return sink.getvalue().to_pybytes()


def regular_file(path: Path) -> os.stat_result | None:
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
        info = regular_file(path)
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


def read_small(path: Path, limit: int, most: str = "a file of its kind can be") -> tuple[bytes | None, str]:
    """The bytes of file ``path``, or None and why not: only a regular file of at most ``limit``
    bytes is read (a pipe, a device such as /dev/zero, a directory is never opened, and a file that
    grows while read is cut at ``limit + 1`` bytes). Every file of a store is read through here."""
    info = regular_file(path)
    if info is None:
        kind = "missing" if not os.path.lexists(path) else "not a regular file (a pipe, device, directory or dangling link)"
        return None, f"cannot be read: it is {kind}"
    if info.st_size > limit:
        return None, f"is {info.st_size:,} bytes, more than {most} ({limit:,})"
    try:
        # O_NONBLOCK: a file swapped for a pipe after the check above fails to block instead of hanging
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None, "cannot be read: it is not a regular file (a pipe, device, directory or dangling link)"
            data = f.read(limit + 1)
    except OSError as exc:
        return None, f"cannot be read ({exc.strerror})"
    if len(data) > limit:
        return None, f"grew past {limit:,} bytes while being read"
    return data, ""


def read_checked(path: Path, limit: int, what: str) -> bytes:
    """`read_small`, or a `StoreError` naming ``what`` (e.g. "store manifest") and ``path``."""
    data, why = read_small(Path(path), limit)
    if data is None:
        raise StoreError(f"The {what} {str(path)!r} {why}; move it away or restore it from a copy.")  # names: the file by its path
    return data
