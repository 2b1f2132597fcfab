"""Where numba keeps the compiled game kernels, and when it throws them away.

The kernels are compiled once per user and kept in a per-user cache directory
(``platformdirs.user_cache_dir("beggarstats")/kernels/<key>``; ``BEGGARSTATS_CACHE_DIR`` replaces
the ``user_cache_dir`` part). ``<key>`` hashes the text of every file numba compiles kernels from,
the numba version and the Python version - not the place the package is installed. So:

* a reinstall of the same version finds the compiled kernels (numba's own cache sits in the
  package's ``__pycache__``, which a reinstall deletes, and is keyed by file times, which a
  reinstall changes), and so does every other install or clone of the same sources: numba
  loads machine code compiled from identical sources in another directory
  (tests/engine/test_kernel_cache.py measures it);
* installs that compile at once share the index files, which numba does not lock: the checked
  cache (`guard`) takes a file lock per kernel (``<kernel>.lock``) around every load and save,
  so a save reads the index another process just wrote and never pairs it with a data file of
  another specialisation;
* an edit to any kernel source - an inlined helper in another file included, which numba alone
  would miss - changes the key, so stale machine code is never loaded.

`install()` puts our locator in front of numba's for the files of this package only; every
module that defines ``cache=True`` kernels calls it before its first decorator. Directories of
other keys unused for `KEEP_DAYS` days are removed when a new key is first used.

A cache that cannot be written (no home folder, a read-only one, ``BEGGARSTATS_CACHE_DIR`` naming a
file) is said once, in one line on stderr, and the kernels are compiled for this run only, into a
temporary folder of this process (removed at exit, handed to its worker processes through
``BEGGARSTATS_KERNELS_THIS_RUN``); numba's own locators would otherwise write into the package's
folder, or, for a user who cannot, stop the first import with ``cannot cache function``.

A damaged cache heals. numba trusts its files: a truncated or overwritten index or data file
raises from its loader (``EOFError``, ``UnpicklingError``, an LLVM "Invalid record", a kernel
with another kernel's arguments), every run after, and a flipped bit in machine code could run.
So every save is sealed (``<kernel>.seal``: the SHA-256 of the kernel's index and data files,
written after numba's save) and `guard()` puts a check in front of numba's load: files whose seal
does not match, or that fail to load, are discarded - with one line on stderr - and the kernel
compiles afresh. `is_sealed` is what `engine.fast.kernels_ready` asks, not whether an index exists.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import glob
import hashlib
import json
import os
import re
import shutil
import stat
import sys
import time
from pathlib import Path

__all__ = ["install", "cache_root", "kernel_dir", "sources_digest", "index_file", "saving_only",
           "guard", "is_sealed", "discard", "persistent", "KEEP_DAYS", "THIS_RUN_ENV"]

ENV = "BEGGARSTATS_CACHE_DIR"
THIS_RUN_ENV = "BEGGARSTATS_KERNELS_THIS_RUN"  # the temporary kernel folder of a run whose cache cannot be written
KEEP_DAYS = 30
_PACKAGE = Path(__file__).resolve().parents[1]  # the package: every module that uses numba


def sources_digest(root: Path | None = None) -> str:
    """Hash of every source file of the package that uses numba (the kernels and the helpers they
    inline), the numba and the Python version."""
    import numba

    root = _PACKAGE if root is None else Path(root).resolve()
    # Not the install's place: clones and installs of the same sources share their kernels (the
    # file lock of `_Guarded` keeps their saves apart).
    h = hashlib.sha256(f"numba {numba.__version__} python {sys.version}".encode())
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


_this_run: list[Path] = []  # this process's temporary kernel folder, once the cache proved unwritable


def kernel_dir() -> Path:
    """The directory of the compiled kernels of the sources installed now (this run's temporary
    folder when the per-user cache cannot be written: `persistent` is then False)."""
    return _this_run[0] if _this_run else cache_root() / "kernels" / _digest()[:20]


def persistent() -> bool:
    """Whether the kernels compiled now are kept for the next runs (False: the cache cannot be
    written, and they are compiled for this run only)."""
    return not _this_run


def _compile_for_this_run(wanted: Path, exc: OSError) -> Path | None:
    """Switch this process to a temporary kernel folder when ``wanted`` cannot be written, saying so
    once on stderr (a worker process of such a run takes its parent's, silently). None when no
    temporary folder can be made either."""
    if _this_run:
        return _this_run[0]
    import tempfile

    handed = os.environ.get(THIS_RUN_ENV)
    if handed and os.path.isdir(handed):  # never made again here: the run that made it removes it
        with contextlib.suppress(OSError):
            tempfile.TemporaryFile(dir=handed).close()
            _this_run.append(Path(handed))
            return _this_run[0]
    import atexit

    why = exc.strerror or str(exc)
    try:
        folder = Path(tempfile.mkdtemp(prefix="beggarstats-kernels-"))
    except OSError:
        print(f"beggarstats: the kernel cache {wanted} cannot be written ({why}), nor a temporary folder; "
              f"set {ENV} to a writable folder", file=sys.stderr, flush=True)
        return None
    atexit.register(shutil.rmtree, folder, True)
    os.environ[THIS_RUN_ENV] = str(folder)  # worker processes compile into the same folder, and this one loads
    _this_run.append(folder)
    print(f"beggarstats: the kernel cache {wanted} cannot be written ({why}); the game kernels are compiled for "
          f"this run only (set {ENV} to a writable folder to keep them)", file=sys.stderr, flush=True)
    return folder


def index_file(func) -> Path:
    """numba's index file for the cached kernel ``func`` (a Python function or a dispatcher):
    it exists once the kernel has been compiled and saved."""
    py_func = getattr(func, "py_func", func)
    module = Path(py_func.__code__.co_filename).stem
    name = f"{module}.{py_func.__qualname__}-{py_func.__code__.co_firstlineno}"
    return kernel_dir() / f"{name}.py{sys.version_info[0]}{sys.version_info[1]}{getattr(sys, 'abiflags', '')}.nbi"


def _kernel_files(func) -> tuple[Path, list[Path], Path]:
    """The index, the data files and the seal of the cached kernel ``func``."""
    index = index_file(func)
    base = index.name[: -len(".nbi")]
    data = sorted(index.parent.glob(f"{glob.escape(base)}.*.nbc"))
    return index, data, index.with_name(base + ".seal")


_MAX_SEAL_BYTES = 2**20  # a seal is a few hashes


def _read_regular(path: Path, limit: int | None = None) -> bytes:
    """The bytes of ``path`` if it is a regular file (of at most ``limit`` bytes): a pipe or device at
    a cache file's name is an OSError, never a read that waits for ever."""
    info = os.stat(path)
    if not stat.S_ISREG(info.st_mode) or (limit is not None and info.st_size > limit):
        raise OSError(f"{path} is not a small regular file")  # internal: caught by the cache, which clears the file
    with open(path, "rb") as f:
        return f.read() if limit is None else f.read(limit + 1)


def _hashes(index: Path, data: list[Path]) -> dict[str, str]:
    return {p.name: hashlib.sha256(_read_regular(p)).hexdigest() for p in [index, *data]}


def _clear(path: Path) -> None:
    """Remove whatever is at a cache file's name: a file, a link, or a directory left there (which
    would otherwise make every save fail, and every run compile again)."""
    with contextlib.suppress(OSError):
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        else:
            path.unlink()


def _seal(func) -> None:
    """Record the hashes of the files numba just saved for ``func``, atomically."""
    index, data, seal = _kernel_files(func)
    try:
        text = json.dumps(_hashes(index, data), sort_keys=True)
        if seal.is_dir() and not seal.is_symlink():
            _clear(seal)  # a directory at the seal's name: never sealed, compiled again on every run
        tmp = seal.with_name(f"{seal.name}.{os.getpid()}.tmp")
        tmp.write_text(text)
        os.replace(tmp, seal)
    except OSError:
        pass  # an unsealed kernel is compiled again next time: slower, never wrong


def _check(func) -> str | None:
    """Why the cached files of ``func`` cannot be trusted, or None (also when there are none)."""
    index, data, seal = _kernel_files(func)
    if not index.exists() and not data:
        return None
    try:
        recorded = json.loads(_read_regular(seal, _MAX_SEAL_BYTES).decode())
    except FileNotFoundError:
        return UNSEALED
    except (OSError, ValueError):  # UnicodeDecodeError is a ValueError
        return "an unreadable seal"
    try:
        found = _hashes(index, data) if index.exists() else {}
    except OSError as exc:
        return f"an unreadable file ({exc.strerror})"
    if found != recorded:
        return "files that differ from what was saved"
    return None


def is_sealed(func) -> bool:
    """True if the kernel ``func`` has an index in the cache and its files are the ones saved."""
    return index_file(func).exists() and _check(func) is None


_told = set()  # non-empty once this process has said that it discarded damaged files
UNSEALED = "no seal"  # saved by a process that did not seal (an older beggarstats): not damage


def discard(func, reason: str, stream=None) -> None:
    """Remove the cached files of the kernel ``func``; unless they were merely `UNSEALED`, say so on
    ``stream`` (default stderr), once per process."""
    index, data, seal = _kernel_files(func)
    for path in (index, *data, seal):
        _clear(path)
    if reason != UNSEALED and not _told:
        _told.add(reason)
        print(f"beggarstats: the kernel cache in {index.parent} was damaged ({reason}); "
              "discarded it, compiling afresh", file=sys.stderr if stream is None else stream, flush=True)


class _Guarded:
    """A kernel's numba cache that loads only sealed files, discards what fails to load, and seals
    what it saves."""

    def __init__(self, cache, func):
        self.cache = cache
        self.func = func

    def _lock(self):
        import filelock

        index = index_file(self.func)
        lock = index.with_name(index.name[: -len(".nbi")] + ".lock")
        if lock.is_dir() and not lock.is_symlink():
            _clear(lock)  # a directory at the lock's name: no lock could be taken, every run would compile
        return filelock.FileLock(str(lock))

    def load_overload(self, sig, target_context):
        try:
            with self._lock():
                return self._load(sig, target_context)
        except OSError:  # the lock cannot be taken (a read-only cache): compile here
            return None

    def _load(self, sig, target_context):
        reason = _check(self.func)
        if reason is None:
            try:
                cres = self.cache.load_overload(sig, target_context)
                args = getattr(sig, "args", sig)
                if cres is None or len(cres.signature.args) == len(args):
                    return cres
                reason = "a kernel saved for other arguments"
            except Exception as exc:  # noqa: BLE001 - whatever numba's loader raises on damaged files
                reason = f"{type(exc).__name__} on loading"
        discard(self.func, reason)
        return None

    def save_overload(self, sig, data):
        try:
            with self._lock():
                self.cache.save_overload(sig, data)
                _seal(self.func)
        except OSError:
            pass  # not saved: compiled again next time

    def flush(self):
        with self._lock():
            self.cache.flush()
            _seal(self.func)

    def __getattr__(self, name):
        return getattr(self.cache, name)


def _dispatchers():
    """Every cached numba dispatcher of this package's loaded modules."""
    from numba.core.registry import CPUDispatcher

    for name, module in list(sys.modules.items()):
        if name.split(".")[0] != __name__.split(".")[0]:
            continue
        for obj in list(vars(module).values()):
            if isinstance(obj, CPUDispatcher) and getattr(obj, "_cache", None) is not None \
                    and type(obj._cache).__name__ == "FunctionCache":
                yield obj


def guard() -> None:
    """Check every cached kernel of the package's loaded modules before numba loads it (idempotent).
    `install()` calls it for the modules imported before the caller, `engine.fast` once every batch
    kernel is defined; a kernel used before either (`deals.deal_into` in a process that only
    replays) is loaded unchecked and saved unsealed, so a checked process compiles it again."""
    for obj in _dispatchers():
        if _locator_class() is type(obj._cache._impl.locator):
            obj._cache = _Guarded(obj._cache, obj)


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
            if persistent():  # (a temporary folder's neighbours are not ours to prune)
                if self._path.parts[:1] == ("~",):  # platformdirs found no home folder to expand ~ to
                    raise OSError(errno.ENOENT, "there is no home folder")
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
            except OSError:
                return None
            self = cls(py_func, py_file)
            try:
                self.ensure_cache_path()
            except OSError as exc:  # not writable: this run's own folder, said once
                folder = _compile_for_this_run(self._path, exc)
                if folder is None:
                    return None  # numba's own locators, as a last resort
                self._path = folder
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

    guard()
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

    from .numba_inline import install as _one_memo_inliner

    _one_memo_inliner("cpu")  # numba's inliner copying a helper once, not once a block (numba_inline.py)
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl  # renamed in numba 0.61
    cls = _locator_class()
    if cls not in impl._locator_classes:
        impl._locator_classes.insert(0, cls)
    guard()  # the kernels of the modules imported before this one
