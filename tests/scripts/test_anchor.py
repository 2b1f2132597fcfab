"""The speed anchor, benchmarks/c/bmn.c, plays the same games as beggarstats, game by game.

The C simulator is built exactly as `benchmarks/throughput.py` builds it (gcc -O3 -march=native).
Without gcc these tests fail with a message saying so: the anchor must be rebuildable from a clone.
"""

from __future__ import annotations

import csv
import subprocess
from pathlib import Path

import numpy as np
import pytest

from beggarstats import Rules, play
from beggarstats.game.cards import format_deal, format_hand, parse_hand
from beggarstats.engine.deals import random_deal
from beggarstats.engine.fast import play_games
from beggarstats.engine.reference import play_hands
from beggarstats.run.records import load_records
from _scripts import load_script

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels

ROOT = Path(__file__).resolve().parents[2]
FIELDS = ("outcome", "winner", "cards", "tricks",
          "loop_start_tricks", "loop_start_cards", "loop_tricks", "loop_cards")


def _throughput():
    return load_script("benchmarks/throughput.py")


@pytest.fixture(scope="module")
def bmn(tmp_path_factory) -> Path:
    return _throughput().build_c(tmp_path_factory.mktemp("anchor"))


def _parse_line(line: str) -> dict:
    values = line.split()
    assert len(values) == len(FIELDS), line
    row = {"outcome": values[0]}
    for key, value in zip(FIELDS[1:], values[1:]):
        row[key] = None if value == "-" else int(value)
    return row


def _c_deals(exe: Path, deals: list[str]) -> list[dict]:
    out = subprocess.run([str(exe), "--deals"], input="\n".join(deals) + "\n", capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert len(out) == len(deals)
    return [_parse_line(line) for line in out]


def _c_games(exe: Path, seed: int, first: int, count: int) -> list[dict]:
    out = subprocess.run([str(exe), "--games", str(seed), str(first), str(count)], capture_output=True,
                         text=True, check=True).stdout.splitlines()
    assert len(out) == count
    return [_parse_line(line) for line in out]


def _figures(result) -> dict:
    return {key: getattr(result, key) for key in FIELDS}


def test_the_published_checks_and_records(bmn):
    """Every 2-player standard-deck record of data/records.csv, with its published figures."""
    records = [r for r in load_records() if r["deck"] == "standard"]
    assert {"Nessler 2022", "Casella 2024"} <= {r["name"] for r in records}
    for rec, c in zip(records, _c_deals(bmn, [r["deal"] for r in records])):
        published = {k: rec[k] for k in FIELDS if rec[k] is not None}
        assert {k: c[k] for k in published} == published, rec["name"]
        assert c == _figures(play(rec["deal"])), rec["name"]


def test_hand_built_deals_with_loops_against_the_reference(bmn):
    """The exercism `camicia` cases of at most 63 cards (the C's limit; two of them loop) and 400
    small random decks with few penalty cards, where loops are common: every figure, loops
    located exactly."""
    with open(ROOT / "tests" / "data" / "camicia_cases.csv", newline="") as fh:
        deals = [format_hand(parse_hand(c["player_a"])) + "/" + format_hand(parse_hand(c["player_b"]))
                 for c in csv.DictReader(fh)]
    deals = [d for d in deals if len(d) <= 64]
    assert len(deals) >= 20
    rng = np.random.default_rng(13)
    for k in range(400):
        if k % 2:   # any small composition, any split
            counts = [int(rng.integers(4, 30))] + [int(rng.integers(0, 3)) for _ in range(4)]
        else:       # 20-22 number cards and 2 Jacks, dealt in halves: loops about one time in five
            counts = [int(rng.integers(20, 23)), 2, 0, 0, 0]
        cards = rng.permutation(np.repeat(np.arange(5), counts))
        cut = int(rng.integers(0, len(cards) + 1)) if k % 2 else len(cards) // 2
        deals.append(format_deal((tuple(cards[:cut]), tuple(cards[cut:]))))
    c_rows = _c_deals(bmn, deals)
    ours = [_figures(play(d, any_deck=True)) for d in deals]
    for deal, c, ref in zip(deals, c_rows, ours):
        assert c == ref, deal
    loops = sum(r["outcome"] == "loop" for r in ours)
    assert loops >= 20 and sum(r["outcome"] == "win" for r in ours) >= 200, loops


def test_random_games_against_the_reference_engine(bmn):
    """Games 0..1,499 of seed 2026: the same deals (splitmix64 -> xoshiro256**, Fisher-Yates,
    dealt round) and the same outcome, winner, cards and tricks as the readable engine."""
    rules = Rules()
    c_rows = _c_games(bmn, 2026, 0, 1500)
    for game, c in enumerate(c_rows):
        deal, _ = random_deal(2026, game, rules)
        assert c == _figures(play_hands(deal, rules)), game


def test_many_random_games_against_the_batch_engine(bmn):
    """200,000 games from an arbitrary first id: the batch engine and the C agree on every game."""
    first, n = 7_000_000, 200_000
    c_rows = _c_games(bmn, 99, first, n)
    r = play_games(Rules(), 99, np.arange(first, first + n, dtype=np.int64))
    assert [c["cards"] for c in c_rows] == r["cards"].tolist()
    assert [c["tricks"] for c in c_rows] == r["tricks"].tolist()
    assert [-1 if c["winner"] is None else c["winner"] for c in c_rows] == r["winner"].tolist()
    assert all(c["outcome"] == "win" for c in c_rows) and (r["outcome"] == 0).all()


def test_summary_mode_totals_match_the_batch_engine(bmn):
    """The timing mode that `benchmarks/throughput.py` reads plays games 0..N-1 of the seed."""
    out = subprocess.run([str(bmn), "20000", "12345"], capture_output=True, text=True, check=True).stdout.split()
    fields = dict(zip(out[::2], out[1::2]))
    r = play_games(Rules(), 12345, np.arange(20_000, dtype=np.int64))
    assert int(fields["games"]) == 20_000
    assert int(fields["cards"]) == int(r["cards"].sum())
    assert int(fields["tricks"]) == int(r["tricks"].sum())
    assert int(fields["seat0_wins"]) == int((r["winner"] == 0).sum())
    assert int(fields["loops"]) == 0
    assert float(fields["games/s"]) > 0


@pytest.mark.parametrize("deal, message", [
    ("--J-/--Z-", "hand 1 position 3"),
    ("----/----/--", "exactly two hands"),
    ("-" * 64 + "/", "at most 63 cards"),
])
def test_bad_deals_are_refused_with_the_position(bmn, deal, message):
    done = subprocess.run([str(bmn), "--deals"], input=deal + "\n", capture_output=True, text=True)
    assert done.returncode == 2
    assert message in done.stderr


def test_bad_arguments_exit_2(bmn):
    for args in (["ten", "1"], ["--games", "1", "-1", "5"], ["--deal-only", "-3", "1"], []):
        done = subprocess.run([str(bmn), *args], capture_output=True, text=True)
        assert done.returncode == 2 and "usage" in done.stderr, args


_FAKE_REFERENCE = r"""
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
int main(int argc, char **argv) {
    if (argc != 4 || strcmp(argv[3], "bits") != 0) { fprintf(stderr, "usage\n"); return 2; }
    long n = atol(argv[1]);
    printf("games %ld cards %ld tricks 0 seconds 0.5 games/s %ld cards/s %ld avg_cards 250.000 engine bits\n",
           n, 250 * n, 2 * n, 500 * n);
    return 0;
}
"""


def test_a_reference_simulator_is_built_from_its_source_and_run_in_bits_mode(tmp_path):
    """`throughput.py --reference-c PATH` builds the source it is given and runs it as ``N SEED bits``."""
    script = _throughput()
    source = tmp_path / "fake_ref.c"
    source.write_text(_FAKE_REFERENCE)
    exe = script.build_c(tmp_path, source)
    assert exe.name == "fake_ref"
    row = script.run_c(exe, 1000, "bits")  # without "bits" the fake exits 2 and run_c raises
    assert (row["games_s"], row["cards"], row["avg_cards"]) == (2000.0, 250_000, 250.0)
    assert row["cpu_games_s"] > 0
    with pytest.raises(subprocess.CalledProcessError):
        script.run_c(exe, 1000)


def test_a_missing_reference_source_is_refused_with_exit_2(tmp_path, capsys):
    missing = tmp_path / "no_such_ref.c"
    assert _throughput().main(["--games", "10", "--reference-c", str(missing)]) == 2
    err = capsys.readouterr().err
    assert str(missing) in err and "does not exist" in err


def test_each_row_is_timed_in_turns_with_two_players(monkeypatch):
    """A row's "vs our 2p" comes from 2-player timings taken in turns with it (row, 2p, row, 2p,
    ...), best of each, not from one 2-player timing minutes earlier."""
    script = _throughput()
    calls = []
    speeds = iter([10.0, 50.0, 30.0, 40.0, 20.0, 60.0])

    def fake_time_engine(rules, games, repeats=3):
        assert repeats == 1
        calls.append(rules.players)
        rate = next(speeds)
        return {"games_s": rate, "cards_s": 100 * rate, "avg_cards": 100.0, "cards": 100 * games,
                "cpu_games_s": rate}

    monkeypatch.setattr(script, "time_engine", fake_time_engine)
    row, two = script.time_beside_2p(Rules(players=4), 7, 3)
    assert calls == [4, 2, 4, 2, 4, 2]
    assert (row["games_s"], two["games_s"]) == (30.0, 60.0)
    assert two["cards_s"] == 6000.0
