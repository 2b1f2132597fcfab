"""A folder a long run will write into, tried before the run starts: made, written and put back.

`outputs.check_output_dir` asks the system (``os.access``), which says yes to root wherever the
permission bits would (``/proc``, a read-only mount) and cannot see a full disk; a run then failed
at its first file, after the games. `try_output_dir` writes there instead: it makes the folder and
its missing parents, writes and removes a small temporary file, and removes again the folders it
made, so that a run refused later leaves nothing behind.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from .outputs import check_output_dir

__all__ = ["try_output_dir"]


def try_output_dir(path, *, name: str = "out") -> Path:
    """``path`` as a Path once a file could be written into it (`check_output_dir`'s checks first);
    ValueError, one line naming ``name`` (a flag such as ``--out``, or a parameter), when not."""
    path = check_output_dir(path, name=name)
    label = name if name.startswith("--") else f"`{name}`"
    made = []
    try:
        for folder in reversed([path, *path.parents]):
            if not os.path.lexists(folder):
                folder.mkdir()
                made.append(folder)
        with tempfile.TemporaryFile(dir=path, prefix=".beggarstats-try-") as f:
            f.write(b"x" * 4096)
            f.flush()
            os.fsync(f.fileno())
    except OSError as exc:
        where = exc.filename or path
        raise ValueError(f"The {label} {str(path)!r} cannot be written ({exc.strerror or exc} at {str(where)!r}): pass "
                         f"a folder you can write, nothing was run.") from None
    finally:
        for folder in reversed(made):
            with contextlib.suppress(OSError):
                folder.rmdir()
    return path
