"""benchmarks/instructions.py: the exact count of instructions a card, read from callgrind's dumps.

Running it means running valgrind, 50-100 times slower and compiling the kernels again under it, so
these tests check what can go wrong without it: the dump it reads, the shim it builds, the errors
it gives."""

from __future__ import annotations

import ctypes

import pytest

from _scripts import load_script

DUMP = """# callgrind format
version: 1
creator: callgrind-3.19.0
pid: 4242
cmd:  python -c ...
part: 3

desc: I1 cache:
desc: Trigger: Client Request: row2

positions: line
events: Ir Bc Bcm Bi Bim
summary: 1234567 222 33 4 1

fl= ???
fn=0x0000000000401000
0 1234567 222 33 4 1
"""


def _script():
    return load_script("benchmarks/instructions.py")


def test_a_dump_gives_its_totals_by_event(tmp_path):
    path = tmp_path / "cg.out.3"
    path.write_text(DUMP)
    assert _script().read_dump(path) == {"Ir": 1234567, "Bc": 222, "Bcm": 33, "Bi": 4, "Bim": 1}


def test_a_file_that_is_no_dump_is_refused(tmp_path):
    path = tmp_path / "cg.out.1"
    path.write_text("events: Ir\n")  # no totals
    with pytest.raises(RuntimeError, match="no events or totals"):
        _script().read_dump(path)


def test_per_card_divides_each_event_by_the_cards():
    assert _script().per_card({"cards": 200, "Ir": 9000, "Bc": 700, "Bcm": 50}) == (45.0, 3.5, 0.25)


def test_the_shim_builds_and_its_requests_do_nothing_outside_valgrind(tmp_path):
    """The client requests are a no-op sequence on a plain CPU: the counter can call them anywhere."""
    lib = ctypes.CDLL(str(_script().build_shim(tmp_path)))
    lib.bs_count_start()
    lib.bs_count_dump(b"row0")


def test_without_valgrind_it_says_so_with_exit_2(monkeypatch, capsys):
    script = _script()
    monkeypatch.setattr(script.shutil, "which", lambda name: None)
    assert script.main(["--games", "10"]) == 2
    assert "valgrind not found" in capsys.readouterr().err


def test_an_old_checkout_that_is_none_is_refused_with_exit_2(tmp_path, monkeypatch, capsys):
    script = _script()
    monkeypatch.setattr(script.shutil, "which", lambda name: "/usr/bin/" + name)
    assert script.main(["--old", str(tmp_path)]) == 2
    assert "--old" in capsys.readouterr().err


def test_rows_that_match_nothing_are_refused_with_exit_2(monkeypatch, capsys):
    script = _script()
    monkeypatch.setattr(script.shutil, "which", lambda name: "/usr/bin/" + name)
    assert script.main(["--rows", "no such row"]) == 2
    assert "matches no row" in capsys.readouterr().err
