"""The summary store is never silently wrong (issue #21, items 2 and 3).

Before: two ``summarize(store=D)`` runs at once both exited 0 and ``summary.json`` kept one of
them; a file whose checksum was recomputed after a count +1 or a widened range was returned as data;
a missing key was a KeyError traceback, a directory named ``summary.json`` an IsADirectoryError.
"""

from __future__ import annotations

import hashlib
import json
import os

import pytest

import beggarstats as bs
from beggarstats.run.store import StoreBusy, write_lock
from beggarstats.run.summary import SUMMARY_FILE, SUMMARY_LOCK, load_summary


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A summary of 3,000 games, saved, and the text of its file."""
    d = tmp_path_factory.mktemp("summary")
    s = bs.summarize(3000, seed=21, n_jobs=1, cap=300, top=5, store=d)
    assert s.over_cap["game"].size and s.outcomes[0] == 3000  # the lists have rows to alter
    return s, (d / SUMMARY_FILE).read_text()


def _rewrite(path, text, change):
    """``text`` with its summary changed by ``change(dict)`` and its checksum recomputed (as a
    careless or malicious edit would leave it)."""
    envelope = json.loads(text)
    change(envelope["summary"])
    body = json.dumps(envelope["summary"], sort_keys=True, separators=(",", ":"))
    envelope["sha256"] = hashlib.sha256(body.encode()).hexdigest()
    path.write_text(json.dumps(envelope))
    return path


def test_a_second_writer_is_refused_while_the_first_holds_the_store(tmp_path):
    bs.summarize(100, seed=1, n_jobs=1, store=tmp_path)
    with write_lock(tmp_path, SUMMARY_LOCK):  # another run is writing
        with pytest.raises(StoreBusy, match=SUMMARY_LOCK):
            bs.summarize(200, seed=1, n_jobs=1, store=tmp_path)
        assert bs.summarize(100, seed=1, n_jobs=1, store=tmp_path).n_games == 100  # reading needs no lock
    assert load_summary(tmp_path / SUMMARY_FILE).n_games == 100
    assert bs.summarize(200, seed=1, n_jobs=1, store=tmp_path).n_games == 200  # once it is free


def test_the_saved_summary_loads(tmp_path, saved):
    s, text = saved
    (tmp_path / "s.json").write_text(text)
    assert load_summary(tmp_path / "s.json") == s


def _bump_first(d, key, by=1):
    d[key][0] += by


ALTERED = {
    "an outcome +1": (lambda d: _bump_first(d, "outcomes"), "outcomes sum to 3,001"),
    "a widened range": (lambda d: d["ranges"][0].__setitem__(1, 6000), "ranges hold 6,000"),
    "overlapping ranges": (lambda d: d.__setitem__("ranges", [[0, 2000], [1000, 2000]]), "ranges"),
    "a histogram count +1": (lambda d: d["cards"]["win"][1].__setitem__(0, d["cards"]["win"][1][0] + 1),
                             "cards histogram of win games counts 3,001"),
    "a tricks count moved to loops": (lambda d: d["tricks"].__setitem__("loop", [[5], [1]]), "tricks histogram"),
    "a win +1": (lambda d: _bump_first(d, "wins"), "wins sum to 3,001"),
    "a negative count": (lambda d: d["wins"].__setitem__(0, -1), "negative counts"),
    "a game outside the ranges": (lambda d: d["over_cap"]["game"].__setitem__(0, 10**6), "over_cap list"),
    "a short column": (lambda d: d["longest"]["cards"].pop(), "columns of its longest"),
    "a loop too many": (lambda d: d["loops"].update({c: [7 if c == "game" else int(c == "outcome")] for c in d["loops"]}),
                        "loops list holds 1 loop games"),
    "a missing key": (lambda d: d.pop("wins"), "lacks the key 'wins'"),
    "a value of the wrong kind": (lambda d: d.__setitem__("cap", "big"), "wrong kind"),
    "wins of the wrong length": (lambda d: d["wins"].append(0), "seats"),
}


@pytest.mark.parametrize("case", list(ALTERED))
def test_an_altered_summary_with_a_valid_checksum_is_refused(tmp_path, saved, case):
    change, why = ALTERED[case]
    path = _rewrite(tmp_path / SUMMARY_FILE, saved[1], change)
    with pytest.raises(ValueError, match=why) as info:
        load_summary(path)
    assert str(path) in str(info.value) and "damaged" in str(info.value)
    with pytest.raises(ValueError, match="damaged"):  # and so is a run resuming from it
        bs.summarize(3000, seed=21, n_jobs=1, cap=300, top=5, store=tmp_path)


def test_a_directory_or_a_pipe_named_summary_json_is_an_error_naming_it(tmp_path):
    (tmp_path / "d" / SUMMARY_FILE).mkdir(parents=True)
    with pytest.raises(ValueError, match="not a regular file") as info:
        bs.summarize(10, seed=1, n_jobs=1, store=tmp_path / "d")
    assert str(tmp_path / "d" / SUMMARY_FILE) in str(info.value)
    os.mkfifo(tmp_path / "fifo.json")  # never opened: reading it would wait for a writer for ever
    with pytest.raises(ValueError, match="not a regular file"):
        load_summary(tmp_path / "fifo.json")
    with pytest.raises(ValueError, match="does not exist"):
        load_summary(tmp_path / "none.json")
