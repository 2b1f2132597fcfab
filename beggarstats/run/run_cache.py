"""The run cache of `beggarstats figures --cache`: a store per run, healed where a user's store is refused.

An entry of the cache (``<runs_dir>/<key>``, the key naming its rules, seed, ``RULES_VERSION``,
per_seat and store format) holds nothing a user made: only games that can be played again. So what
`simulate` refuses in a store the user named, `cached_simulate` mends in an entry, saying so in one
line on stderr, and plays the games that were lost:

* a damaged, cut short, foreign, overlapping or unpaired chunk, a stray temporary file: removed
  (`store.verify` with ``repair=True``), its games played again;
* a damaged manifest, one of an older store format, or one of another run: replaced by the entry's
  own configuration, which its key names; its chunks are then checked against it (each carries its
  rules, seed, ``RULES_VERSION`` and ids), and those of another run removed;
* another run writing the same entry: waited for (once said), then what it wrote is loaded.

What cannot be mended (a folder at a chunk's name: the store never removes a folder) is refused,
naming the entry to delete.

A damaged entry is never loaded (every chunk read is checked), and the games said to be loaded are
the ones that were: a chunk cut short is counted as played.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from .outputs import write_bytes
from .store import Store, StoreBusy, StoreError, looks_whole, store_key, verify
from .store_files import LOCK, MANIFEST, STORE_FORMAT
from .store_lock import write_lock
from .store_manifest import check_format, manifest_bytes, read_manifest, store_config

__all__ = ["cached_simulate"]


def cached_simulate(n: int, *, rules, seed: int, n_jobs=None, per_seat: bool = False, store=None, stream=None):
    """``(simulate(n, rules, seed=seed, n_jobs=n_jobs, per_seat=per_seat, store=store), played)``: the
    run, kept in the run cache entry ``store`` (a directory; None: no cache), and how many of its games
    were played here (the others were loaded). A damaged entry is mended and another run writing it
    waited for, each said once on ``stream`` (default stderr); what cannot be mended is refused."""
    from .simulate import simulate

    if store is None:
        return simulate(n, rules=rules, seed=seed, n_jobs=n_jobs, per_seat=per_seat), n
    path, said, mended = Path(store), set(), False
    if os.path.lexists(path) and not path.is_dir():
        raise StoreError(f"The run cache entry {str(path)!r} is not a folder (a file, pipe or link is there): delete "
                         f"it (the run cache holds only games that are played again) and run the same command "
                         f"again.")  # names: the entry by its path
    while True:
        try:
            played = _to_play(path, rules, seed, per_seat, n)
            return simulate(n, rules=rules, seed=seed, n_jobs=n_jobs, store=path, per_seat=per_seat), played
        except StoreBusy:
            _say(said, "wait", f"beggarstats: another run is writing the run cache entry {path}: waiting for it to "
                               f"finish", stream)
            _wait_for(path)
        except StoreError as exc:
            if mended:  # mended once and damaged still (a folder at a chunk's name is never removed)
                raise StoreError(f"The run cache entry {str(path)!r} cannot be mended ({_first(str(exc))}): delete "
                                 f"the folder (it holds only games that are played again) and run the same command "
                                 f"again.") from None  # names: the entry by its path
            _mend(path, rules, seed, per_seat, str(exc), stream)
            mended = True


def _to_play(path: Path, rules, seed, per_seat, n) -> int:
    """Games ``0 .. n-1`` the entry lacks or holds cut short (a StoreError for a manifest that is
    damaged, of an older format or of another run)."""
    manifest = read_manifest(path) if path.is_dir() else None
    if manifest is not None:
        check_format(path, manifest)
        if not _own(manifest, rules, seed, per_seat):
            raise StoreError(f"The manifest of {str(path)!r} is another run's.")  # internal: mended by `_mend`
    st = Store.open(path, rules=rules, seed=seed, per_seat=per_seat)  # (a lost manifest: its chunks still count)
    cut = sum(min(hi, n) - lo for lo, hi, p in st.chunks() if lo < n and not looks_whole(p))
    return sum(hi - lo for lo, hi in st.missing(0, n)) + cut


def _own(manifest: dict, rules, seed, per_seat) -> bool:
    """Whether ``manifest`` is this entry's: its key and every field of its configuration (a manifest
    of older code, another ``RULES_VERSION`` under this key, would label new games as old ones)."""
    config = store_config(rules, seed, per_seat)
    return manifest.get("key") == store_key(rules, seed, per_seat) and all(manifest.get(k) == v
                                                                           for k, v in config.items())


def _mend(path: Path, rules, seed, per_seat, why: str, stream) -> None:
    """Give the entry its own manifest back if it has none that is sound, remove every bad file, and say
    so in one line."""
    with write_lock(path, what="run cache entry"):
        try:
            manifest = read_manifest(path)
            if manifest is not None:
                check_format(path, manifest)
            sound = manifest is not None and _own(manifest, rules, seed, per_seat)
        except StoreError:
            sound = False
        if not sound:
            fresh = {"format": STORE_FORMAT, "key": store_key(rules, seed, per_seat),
                     **store_config(rules, seed, per_seat), "requested": []}
            write_bytes(path / MANIFEST, manifest_bytes(fresh), what="run cache manifest")
    removed = [p for p in verify(path, repair=True) if p.kind not in ("missing", "other")]
    more = f"; {len(removed)} bad file{'s' if len(removed) != 1 else ''} removed" if removed else ""
    print(f"beggarstats: the run cache entry {path} was damaged ({_first(why)}{more}): mended, its lost games are "
          f"played again", file=sys.stderr if stream is None else stream, flush=True)


def _first(message: str) -> str:
    """What a store's error says is wrong, without the fix it suggests for a store of the user's."""
    return message.split(": run `")[0].split(". ")[0].rstrip(".")


def _wait_for(path: Path) -> None:
    """Block until the run holding the entry's lock lets it go (it is released when that process ends)."""
    from filelock import FileLock

    with FileLock(str(path / LOCK), timeout=-1):
        pass


def _say(said: set, what: str, line: str, stream) -> None:
    if what not in said:
        said.add(what)
        print(line, file=sys.stderr if stream is None else stream, flush=True)
