"""The atlas runner (``python -m beggarstats.report.atlas``) checks its arguments as the command line
does, whether or not a census is missing, and says a damaged, truncated or FIFO census file in one line
before any census runs (issue #51 item 5); ``--max-deals`` reaches `census` (a deck past 10^10 deals
was refused whatever the runner was asked)."""

import os
import subprocess
import sys
import threading

import pytest

import beggarstats.report.atlas as atlas
import beggarstats.run.census as census_module
from beggarstats.report.atlas import atlas_rules, census_file
from beggarstats.run.census import census

pytestmark = pytest.mark.usefixtures("warm_kernels")

TINY = ((2, (1, 1, 1, 1, 1), "trick"), (2, (3, 1, 1, 0, 0), "trick"))  # 120 and 20 deals


@pytest.fixture
def tiny_atlas(monkeypatch):
    monkeypatch.setattr(atlas, "ATLAS_DECKS", TINY)
    return TINY


def _main(argv, capsys, seconds=120):
    """atlas.main(argv) in a thread (a read that waits on a pipe must fail the test, not hang it):
    (exit status, stderr)."""
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("code", atlas.main(argv)), daemon=True)
    t.start()
    t.join(seconds)
    assert not t.is_alive(), f"the atlas runner {argv} still running after {seconds} s"
    return box["code"], capsys.readouterr().err


def _one_line(err):
    assert err.count("\n") == 1 and err.startswith(f"{atlas.PROG}: error: ") and "Traceback" not in err
    return err


@pytest.mark.parametrize("argv, says", [
    (["--jobs", "0"], "--jobs"), (["--jobs", "-99"], "--jobs"), (["--jobs", str(10**20)], "--jobs"),
    (["--jobs", "10^20"], "--jobs"), (["--jobs", "x"], "--jobs"), (["--max-deals", "0"], "--max-deals"),
    (["--max-deals", "-5"], "--max-deals"), (["--max-deals", "1e11"], "--max-deals"), (["--bogus"], "--bogus"),
    (["--max-deals", str(10**30)], "--max-deals"),
])
@pytest.mark.parametrize("on_file", [False, True], ids=["missing", "nothing missing"])
def test_bad_arguments_are_one_line_before_anything(tiny_atlas, tmp_path, capsys, argv, says, on_file):
    if on_file:  # nothing to compute: the arguments were never looked at, exit 0
        for deck in tiny_atlas:
            census(atlas_rules(*deck), n_jobs=1).save(census_file(*deck, root=tmp_path))
    before = sorted(os.listdir(tmp_path))
    code, err = _main([*argv, "--root", str(tmp_path)], capsys)
    assert code == 2 and says in _one_line(err)
    assert sorted(os.listdir(tmp_path)) == before  # no census run, no table written


@pytest.mark.parametrize("damage", ["truncated", "fifo", "folder", "garbage", "dangling link"])
def test_a_damaged_census_file_is_one_line_before_any_census_runs(tiny_atlas, tmp_path, capsys, damage):
    good = tmp_path / "good.json"
    census(atlas_rules(*tiny_atlas[0]), n_jobs=1).save(good)
    path = census_file(*tiny_atlas[0], root=tmp_path)
    if damage == "truncated":
        path.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    elif damage == "fifo":
        os.mkfifo(path)
    elif damage == "folder":
        path.mkdir()
    elif damage == "garbage":
        path.write_bytes(b"\x00" * 100)
    else:
        path.symlink_to(tmp_path / "gone.json")
    good.unlink()
    code, err = _main(["--root", str(tmp_path)], capsys)
    assert code == 2 and path.name in _one_line(err)
    # the other deck is missing, and was not computed first
    assert not census_file(*tiny_atlas[1], root=tmp_path).exists() and not list(tmp_path.glob(".store-*"))
    assert not (tmp_path / "atlas.csv").exists()


def test_an_unwritable_root_is_one_line(tiny_atlas, tmp_path, capsys):
    (tmp_path / "file").write_text("x")
    for root in (tmp_path / "file", tmp_path / "file" / "deeper", "/proc/x"):
        code, err = _main(["--root", str(root)], capsys)
        assert code == 2 and "--root" in _one_line(err)


def test_max_deals_reaches_the_census(tiny_atlas, tmp_path, capsys, monkeypatch):
    """census() refuses a deck past MAX_DEALS unless asked: the runner's --max-deals asks (here with a
    limit of 50 deals, so that the 120-deal deck stands for a deck past 10^10)."""
    monkeypatch.setattr(census_module, "MAX_DEALS", 50)
    code, err = _main(["--root", str(tmp_path), "--jobs", "1"], capsys)
    first, refused = err.split("\n", 1)  # the 20-deal census, then the refusal
    assert code == 2 and "more than --max-deals = 50" in _one_line(refused) and "start" not in refused
    assert first.startswith("2p-3-1-1-0-0.json: 20 deals")
    assert census_file(*tiny_atlas[1], root=tmp_path).exists()  # the 20-deal deck ran first, and is kept
    code, err = _main(["--root", str(tmp_path), "--jobs", "1", "--max-deals", "120"], capsys)
    assert code == 0 and "2p-1-1-1-1-1.json: 120 deals" in err
    assert census_file(*tiny_atlas[0], root=tmp_path).exists() and (tmp_path / "atlas.csv").exists()
    code, err = _main(["--root", str(tmp_path), "--jobs", "0"], capsys)  # nothing missing now
    assert code == 2 and "--jobs" in _one_line(err)


def test_the_module_runs_as_a_program(tmp_path):
    done = subprocess.run([sys.executable, "-m", "beggarstats.report.atlas", "--jobs", "0", "--root", str(tmp_path)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2 and done.stdout == "" and _one_line(done.stderr)
    assert os.listdir(tmp_path) == []
