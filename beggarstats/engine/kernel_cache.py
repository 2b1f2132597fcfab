"""Where numba keeps the compiled game kernels, and when it throws them away.

The kernels are compiled once per user and kept in a per-user cache directory
(``platformdirs.user_cache_dir("beggarstats")/kernels/<key>``; ``BEGGARSTATS_CACHE_DIR`` replaces
the ``user_cache_dir`` part). ``<key>`` hashes the text of every file numba compiles kernels from,
the place the package is installed, the numba version and the Python version. So:

* a reinstall of the same version finds the compiled kernels (numba's own cache sits in the
  package's ``__pycache__``, which a reinstall deletes, and is keyed by file times, which a
  reinstall changes);
* two installs (two virtual environments, two checkouts) never write the same index files at once
  (numba does not lock them);
* an edit to any kernel source - an inlined helper in another file included, which numba alone
  would miss - changes the key, so stale machine code is never loaded.

`install()` puts our locator in front of numba's for the files of this package only; every
module that defines ``cache=True`` kernels calls it before its first decorator. Directories of
other keys unused for `KEEP_DAYS` days are removed when a new key is first used.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import re
import shutil
import sys
import time
from pathlib import Path

__all__ = ["install", "cache_root", "kernel_dir", "runs_dir", "sources_digest", "index_file", "saving_only",
           "KEEP_DAYS"]

ENV = "BEGGARSTATS_CACHE_DIR"
RUNS_ENV = "BEGGARSTATS_RUNS_DIR"
KEEP_DAYS = 30
_PACKAGE = Path(__file__).resolve().parents[1]  # the package: every module that uses numba


def sources_digest(root: Path | None = None) -> str:
    """Hash of every source file of the package that uses numba (the kernels and the helpers they
    inline), the numba and the Python version."""
    import numba

    root = _PACKAGE if root is None else Path(root).resolve()
    # The install's place is part of the key: numba does not lock its index files, so processes of
    # two installs compiling at once must not share them (a reinstall in place still finds its own).
    h = hashlib.sha256(f"{root}\0numba {numba.__version__} python {sys.version}".encode())
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if re.search(rb"^(from numba\b|import numba\b)", text, re.MULTILINE):
            h.update(path.relative_to(root).as_posix().encode() + b"\0" + text + b"\0")
    return h.hexdigest()


_digest = functools.lru_cache(maxsize=None)(sources_digest)


def cache_root() -> Path:
    """The per-user cache directory of beggarstats (``BEGGARSTATS_CACHE_DIR`` if set)."""
    env = os.environ.get(ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("beggarstats"))


def runs_dir() -> Path:
    """Where `beggarstats figures` caches its runs: ``<cache_root>/runs`` (``BEGGARSTATS_RUNS_DIR``
    if set)."""
    env = os.environ.get(RUNS_ENV)
    return Path(env) if env else cache_root() / "runs"


def kernel_dir() -> Path:
    """The directory of the compiled kernels of the sources installed now."""
    return cache_root() / "kernels" / _digest()[:20]


def index_file(func) -> Path:
    """numba's index file for the cached kernel ``func`` (a Python function or a dispatcher):
    it exists once the kernel has been compiled and saved."""
    py_func = getattr(func, "py_func", func)
    module = Path(py_func.__code__.co_filename).stem
    name = f"{module}.{py_func.__qualname__}-{py_func.__code__.co_firstlineno}"
    return kernel_dir() / f"{name}.py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}.nbi"


def _prune(here: Path) -> None:
    """Remove the kernels of other sources that nobody used for `KEEP_DAYS` days."""
    old = time.time() - KEEP_DAYS * 86400
    for other in here.parent.iterdir():
        try:
            if other != here and other.is_dir() and other.stat().st_mtime < old:
                shutil.rmtree(other, ignore_errors=True)
        except OSError:
            pass


@functools.lru_cache(maxsize=None)
def _locator_class():
    from numba.core.caching import _CacheLocator

    class KernelLocator(_CacheLocator):
        """numba cache locator for this package's files: `kernel_dir()`, stamped by content."""

        def __init__(self, py_func, py_file):
            self._py_file = py_file
            self._lineno = py_func.__code__.co_firstlineno
            self._path = kernel_dir()

        def ensure_cache_path(self):
            if not self._path.is_dir():
                self._path.mkdir(parents=True, exist_ok=True)
                _prune(self._path)
            os.utime(self._path)  # in use: not pruned
            super().ensure_cache_path()  # raises OSError if not writable

        def get_cache_path(self):
            return str(self._path)

        def get_source_stamp(self):
            return _digest()  # the content of every kernel source, not file times

        def get_disambiguator(self):
            return str(self._lineno)

        @classmethod
        def from_function(cls, py_func, py_file):
            try:
                if Path(py_file).resolve().parent not in (_PACKAGE, _PACKAGE / "engine"):
                    return None
                self = cls(py_func, py_file)
                self.ensure_cache_path()
            except OSError:
                return None  # not writable: numba's own locators take over
            return self

    return KernelLocator


class _LoadOnly:
    """A kernel's numba cache that still loads but never saves."""

    def __init__(self, cache):
        self.cache = cache

    def load_overload(self, sig, target_context):
        return self.cache.load_overload(sig, target_context)

    def save_overload(self, sig, data):
        pass

    def flush(self):  # numba's recompile() empties the cache: a write as well
        pass

    def __getattr__(self, name):
        return getattr(self.cache, name)


@contextlib.contextmanager
def saving_only(entry):
    """Within the block, every cached kernel of this package except ``entry`` may load from the
    cache but saves nothing to it.

    numba does not lock its cache files: two processes saving different specialisations of one
    kernel at once can leave an index naming one and a data file holding the other. Processes
    that compile side by side (`run.warmup`) therefore each save only their own entry - whose
    saved code holds every kernel it calls - and never write the same files."""
    from numba.core.registry import CPUDispatcher

    swapped = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != __name__.split(".")[0]:
            continue
        for obj in list(vars(module).values()):
            cache = getattr(obj, "_cache", None)
            if isinstance(obj, CPUDispatcher) and obj is not entry and cache is not None \
                    and not isinstance(cache, _LoadOnly):
                obj._cache = _LoadOnly(cache)
                swapped.append((obj, cache))
    try:
        yield
    finally:
        for obj, cache in reversed(swapped):
            obj._cache = cache


def install() -> None:
    """Put the per-user kernel locator first in numba's list (idempotent)."""
    from numba.core import caching

    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.61
    cls = _locator_class()
    if cls not in impl._locator_classes:
        impl._locator_classes.insert(0, cls)
