"""Files a run writes: checked before the run starts, written atomically, errors said with the fix.

* `check_output_file` / `check_output_dir` refuse, before a game is played, an output that cannot
  be written (a directory where a file goes, a device or pipe such as /dev/null or /dev/full, a
  missing or read-only parent), so that a long run's result is never lost at the end.
* `replacing(path)` gives a temporary name in the same directory to write to and moves it into
  place with `os.replace` only once the write is complete: a kill or a full disk leaves the old
  file (or none), never a truncated one. `write_bytes` and `write_text` use it.
* `io_error` turns an OSError into a sentence with the path and what to do.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
from pathlib import Path

__all__ = ["WriteError", "check_output_file", "check_output_dir", "replacing", "write_bytes", "write_text", "io_error"]

_UMASK = os.umask(0o022)
os.umask(_UMASK)  # read once: files get the usual permissions (mkstemp makes them 0600)


class WriteError(OSError):
    """An OSError (its ``errno`` kept) whose text is only the sentence: the path and the fix."""

    def __str__(self) -> str:
        return str(self.strerror)


def io_error(path, exc: OSError, what: str = "file") -> OSError:
    """``exc`` as a `WriteError` (same errno) whose message names ``path`` and the fix."""
    why = exc.strerror or str(exc)
    if exc.errno == errno.ENOSPC:
        fix = "The disk is full: free some space and run the same command again."
    elif exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        fix = "Make it writable, or pass another path."
    elif exc.errno in (errno.ENOTDIR, errno.EISDIR, errno.ENOENT):
        fix = "Pass a path whose directory exists (and is a directory)."
    else:
        fix = "Check the path and the disk, then run the same command again."
    return WriteError(exc.errno, f"Cannot write the {what} {str(path)!r} ({why}). {fix}")


def _nearest_existing(path: Path) -> Path:
    while not os.path.lexists(path) and path != path.parent:
        path = path.parent
    return path


def _not_empty(path, label: str, kind: str) -> None:
    if isinstance(path, (str, bytes)) and not path.strip():
        raise ValueError(f"The {label} must name a {kind}, but {path!r} was passed (an empty path would be the "
                         f"current directory).")


def check_output_dir(path, *, name: str = "store", writable: bool = True) -> Path:
    """Refuse a directory a run cannot write into: a file or device where the directory goes, or
    (with ``writable``) a read-only directory (or ancestor, when it does not exist yet), or an empty
    path (which would be the current directory). Returns ``path`` as a Path."""
    label = name if name.startswith("--") else f"`{name}`"
    _not_empty(path, label, "directory")
    path = Path(path)
    if os.path.lexists(path) and not path.is_dir():
        raise ValueError(f"The {label} {str(path)!r} is not a directory (it is a file, device or dangling link): "
                         f"pass a directory.")
    base = _nearest_existing(path)
    if not base.is_dir():
        raise ValueError(f"The {label} {str(path)!r} cannot be made: {str(base)!r} is not a directory.")
    if writable and not os.access(base, os.W_OK | os.X_OK):
        raise ValueError(f"The {label} {str(path)!r} cannot be written: {str(base)!r} is read-only. Make it "
                         f"writable, or pass another directory.")
    return path


def check_output_file(path, *, name: str = "out", suffix: str | None = None) -> Path:
    """Refuse a file a run cannot write: the wrong suffix, a directory, device or pipe at the path, or
    a parent that is missing or read-only, or an empty path. Returns ``path`` as a Path."""
    label = name if name.startswith("--") else f"`{name}`"
    _not_empty(path, label, "file")
    path = Path(path)
    if suffix is not None and not str(path).endswith(suffix):
        raise ValueError(f"{label} must name a {suffix} file, but {str(path)!r} was passed.")
    if os.path.lexists(path):
        try:
            mode = path.stat().st_mode
        except OSError:
            mode = 0
        if stat.S_ISDIR(mode):
            raise ValueError(f"{label} {str(path)!r} is a directory: pass the path of a file.")
        if not stat.S_ISREG(mode):
            raise ValueError(f"{label} {str(path)!r} is not a regular file (a device, pipe or dangling link): "
                             f"pass the path of a file.")
    parent = path.parent
    if not parent.is_dir():
        raise ValueError(f"{label} {str(path)!r}: the directory {str(parent)!r} does not exist.")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise ValueError(f"{label} {str(path)!r}: the directory {str(parent)!r} is not writable.")
    return path


@contextlib.contextmanager
def replacing(path, what: str | None = "file"):
    """``with replacing(path) as tmp:`` write ``tmp`` (an unpredictable name beside ``path``); on
    success it replaces ``path`` at once, on any error it is removed and ``path`` is untouched.
    An OSError is said by `io_error` for a ``what`` (None: raised as it is, for callers that say it
    their own way)."""
    path = Path(path)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        os.close(fd)
        os.chmod(tmp, 0o666 & ~_UMASK)
        yield Path(tmp)
        os.replace(tmp, path)
    except OSError as exc:
        if what is None:
            raise
        raise io_error(path, exc, what) from None
    finally:
        if tmp is not None and os.path.lexists(tmp):
            os.unlink(tmp)


def write_bytes(path, data: bytes, what: str | None = "file") -> Path:
    """``data`` into ``path`` atomically (`replacing`)."""
    with replacing(path, what) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
    return Path(path)


def write_text(path, text: str, what: str | None = "file") -> Path:
    """``text`` (UTF-8) into ``path`` atomically (`replacing`)."""
    return write_bytes(path, text.encode(), what)
