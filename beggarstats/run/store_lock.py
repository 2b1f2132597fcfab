"""One writer per store directory: an advisory file lock, and the error for a directory that cannot be written."""

from __future__ import annotations

import errno
from pathlib import Path

from .outputs import WriteError
from .store_files import LOCK, StoreError

__all__ = ["StoreBusy", "StoreLock", "write_lock", "unwritable"]


class StoreBusy(StoreError):
    """Another run holds the store's lock."""


class StoreLock:
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
                            f"games still missing then are played.") from None  # names: the store by its path
        except OSError as exc:
            raise unwritable(self.path, exc) from None
        return self

    def __exit__(self, *exc):
        self.lock.release()


def write_lock(path, name: str = LOCK, what: str = "store") -> StoreLock:
    """``with write_lock(directory, name):`` -- the one-writer rule of a store directory (`StoreBusy`
    while another process holds ``name``; an unwritable directory is an OSError saying what to do)."""
    return StoreLock(Path(path), name, what)


def unwritable(path: Path, exc: OSError) -> OSError:
    """The error for a store ``path`` that cannot be written (``exc``): what to do, and that nothing stored is lost."""
    why = exc.strerror or str(exc)
    full = " The disk is full: free some space" if exc.errno == errno.ENOSPC else \
        " Make it writable (or copy it somewhere writable)"
    return WriteError(exc.errno, f"Cannot write to the store {str(path)!r} ({why}).{full} and run the same command "
                              f"again: every chunk already stored is kept and only the missing games are played.")
