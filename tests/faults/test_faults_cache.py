"""Fault injection on the kernel cache (issue #21, item 1): a damaged cache heals.

Before, 9 of 21 damaged-cache cases raised from numba's loader (``EOFError``, ``UnpicklingError``, an
LLVM "Invalid record", a kernel with another kernel's arguments) in every later run, because numba
trusts its files and `engine.fast.kernels_ready` trusted an index that merely existed. Now every
save is sealed with the hashes of its files (`engine.kernel_cache`); files that do not match their
seal, or do not load, are discarded with one line on stderr and the kernel compiles afresh.

Each case runs in a fresh process with its own ``BEGGARSTATS_CACHE_DIR``: the small kernel
`deals.deal_into` (about a second to compile) takes every kind of damage, and the slow case does
the issue's reproduction on a batch entry.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

_CHILD = """
import json, sys
from beggarstats.engine import deals, fast
from beggarstats.game.rules import Rules
hands = deals.random_deal(3, 4, Rules())
print(json.dumps({"deal": repr(hands[0]),
                  "hits": sum(deals.deal_into.stats.cache_hits.values()),
                  "misses": sum(deals.deal_into.stats.cache_misses.values())}))
"""


# The quick case's kernel: the package's smallest (no callees, about 0.8 s of CPU to compile);
# `fast` imported, as in _CHILD, puts the check in front of its cache (`kernel_cache.guard`).
_SMALL = """
import json, sys
from beggarstats.engine import fast, rng
print(json.dumps({"deal": repr(rng.stream_state(3, 4)),
                  "hits": sum(rng.seed_into.stats.cache_hits.values()),
                  "misses": sum(rng.seed_into.stats.cache_misses.values())}))
"""


def _run(cache: Path, child: str = _CHILD) -> tuple[dict, str]:
    env = dict(os.environ, BEGGARSTATS_CACHE_DIR=str(cache))
    env.pop("NUMBA_CACHE_DIR", None)
    done = subprocess.run([sys.executable, "-c", child], env=env, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1]), done.stderr


@pytest.fixture(scope="module")
def pristine(tmp_path_factory):
    """A cache holding `deal_into` (and the two rng kernels it calls), and the deal it gives."""
    cache = tmp_path_factory.mktemp("pristine")
    first, _ = _run(cache)
    assert first["misses"] == 1
    return cache, first["deal"]


def _one(cache: Path, pattern: str) -> Path:
    (path,) = (cache / "kernels").glob(f"*/{pattern}")
    return path


def _truncate(path: Path, keep: float) -> None:
    path.write_bytes(path.read_bytes()[: int(len(path.read_bytes()) * keep)])


def _random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(1).randbytes(path.stat().st_size))


def _flip_bits(path: Path) -> None:
    data = bytearray(path.read_bytes())
    rng = random.Random(2)
    for _ in range(8):
        i = rng.randrange(len(data))
        data[i] ^= 1 << rng.randrange(8)
    path.write_bytes(bytes(data))


def _copy_other(cache: Path, suffix: str) -> None:
    """Put ``rng.seed_into``'s index or data file under `deal_into`'s name (what two writers can leave)."""
    shutil.copyfile(_one(cache, f"rng.seed_into-*{suffix}"), _one(cache, f"deals.deal_into-*{suffix}"))


# name -> what it does to a copy of the pristine cache
DAMAGE = {
    "empty index": lambda c, kernel="deals.deal_into": _one(c, f"{kernel}-*.nbi").write_bytes(b""),
    "half index": lambda c: _truncate(_one(c, "deals.deal_into-*.nbi"), 0.5),
    "half data": lambda c: _truncate(_one(c, "deals.deal_into-*.nbc"), 0.5),
    "random bytes": lambda c: _random_bytes(_one(c, "deals.deal_into-*.nbc")),
    "flipped bits": lambda c: _flip_bits(_one(c, "deals.deal_into-*.nbc")),
    "another kernel's data": lambda c: _copy_other(c, ".nbc"),
    "another kernel's index and data": lambda c: (_copy_other(c, ".nbc"), _copy_other(c, ".nbi")),
}


def _damaged(pristine, tmp_path, case: str) -> Path:
    cache = tmp_path / "cache"
    shutil.copytree(pristine[0], cache)
    DAMAGE[case](cache)
    return cache


def _heals(pristine, cache: Path) -> None:
    healed, said = _run(cache)
    assert healed["deal"] == pristine[1] and healed["misses"] == 1  # compiled afresh, same deal
    assert said.count("kernel cache") == 1 and "damaged" in said and "compiling afresh" in said, said
    again, quiet = _run(cache)
    assert again["deal"] == pristine[1] and again["hits"] == 1 and again["misses"] == 0  # saved again
    assert quiet == ""  # a sound cache loads silently


def test_an_empty_index_is_discarded_and_the_kernel_compiled_again(tmp_path):
    """The quick case: two processes, no shared fixture (the slow cases below also check that the
    kernel saved again loads silently)."""
    cache = tmp_path / "cache"
    first, _ = _run(cache, _SMALL)
    assert first["misses"] == 1
    DAMAGE["empty index"](cache, "rng.seed_into")
    healed, said = _run(cache, _SMALL)
    assert healed["deal"] == first["deal"] and healed["misses"] == 1
    assert said.count("kernel cache") == 1 and "damaged" in said and "compiling afresh" in said, said


@pytest.mark.slow  # three fresh processes per case
@pytest.mark.parametrize("case", list(DAMAGE))
def test_every_kind_of_damage_is_discarded_and_the_kernel_compiled_again(pristine, tmp_path, case):
    _heals(pristine, _damaged(pristine, tmp_path, case))


_READY = """
import json
from beggarstats.engine import fast
print(json.dumps({"ready": fast.kernels_ready("general")}))
"""

_PLAY = """
import json
import numpy as np
from beggarstats.engine import fast
from beggarstats.game.decks import Deck
from beggarstats.game.rules import Rules
from beggarstats.run.warmup import warm_up
warm_up("general")
r = fast.play_games(Rules(deck=Deck.from_counts((20, 1, 1, 1, 1))), 5, np.arange(50))
print(json.dumps({"cards": r["cards"].tolist()}))
"""


@pytest.mark.slow  # compiles the 'general' batch entry twice (about 10 s of CPU each)
def test_the_issue_reproduction_on_a_batch_entry_heals(tmp_path):
    """Fill the cache, empty the entry's index (`: > .../batch.play_random_general-*.nbi`): the
    kernel is not ready, the next run compiles it again saying so once, and the one after loads it."""
    cache = tmp_path / "cache"
    before, _ = _run(cache, _PLAY)
    assert _run(cache, _READY)[0]["ready"]
    _one(cache, "batch.play_random_general-*.nbi").write_bytes(b"")
    assert not _run(cache, _READY)[0]["ready"]  # an index that merely exists is not trusted
    healed, said = _run(cache, _PLAY)
    assert healed == before and said.count("damaged") == 1, said
    assert _run(cache, _READY)[0]["ready"]


def _rng_file(cache: Path, suffix: str) -> Path:
    (index,) = (cache / "kernels").glob("*/rng.seed_into-*.nbi")
    return index.with_name(index.name[: -len(".nbi")] + suffix)


NOT_A_FILE = ["seal directory", "seal fifo", "lock directory"]


@pytest.mark.slow  # three fresh processes a case; the quick tier plays one case, drawn each run (below)
@pytest.mark.parametrize("make", NOT_A_FILE)
def test_a_seal_or_lock_that_is_not_a_file_heals_instead_of_compiling_every_run(tmp_path, make):
    """Issue #40, item 6: a directory at the seal's or the lock's name made every run compile again
    (no seal could be written, no lock taken); a FIFO there would block the check for ever."""
    _not_a_file_heals(tmp_path, make)


def test_a_seal_or_lock_that_is_not_a_file_heals_one_case_drawn(tmp_path, sample_rng):
    make = NOT_A_FILE[int(sample_rng.integers(len(NOT_A_FILE)))]
    print(make)
    _not_a_file_heals(tmp_path, make)


def _not_a_file_heals(tmp_path, make):
    cache = tmp_path / "cache"
    first, _ = _run(cache, _SMALL)
    assert first["misses"] == 1
    path = _rng_file(cache, ".lock" if make.startswith("lock") else ".seal")
    if path.exists():
        path.unlink()
    if make.endswith("fifo"):
        os.mkfifo(path)
    else:
        (path / "inside").mkdir(parents=True)
    second, _ = _run(cache, _SMALL)  # _run's timeout fails a hang
    assert second["deal"] == first["deal"]
    if make.startswith("lock"):
        assert second["hits"] == 1 and second["misses"] == 0  # the sealed kernel still loads
    third, quiet = _run(cache, _SMALL)
    assert third["deal"] == first["deal"] and third["hits"] == 1 and third["misses"] == 0 and quiet == ""
