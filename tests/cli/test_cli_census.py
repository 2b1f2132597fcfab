"""`beggarstats census` and `beggarstats play --rank`: exact printouts, bad input is exit status 2."""

from __future__ import annotations

import json

import pytest

import beggarstats as bs
from beggarstats.cli import main
from beggarstats.run.summary import load_summary

pytestmark = pytest.mark.usefixtures("warm_census_kernels")  # runs censuses: their kernels compiled once a session

SMALL = bs.Rules(deck=bs.Deck(4, 2, 2, 2, 0))


def test_play_rank_plays_the_deal_of_that_rank(capsys):
    deal = bs.format_deal(bs.deal_at(1557, SMALL))
    assert main(["play", "--json", "--rank", "1557", "--counts", "4,2,2,2,0"]) == 0
    by_rank = json.loads(capsys.readouterr().out)
    assert main(["play", "--json", "--deck", "any", deal]) == 0
    assert by_rank == json.loads(capsys.readouterr().out) and by_rank["deal"] == deal
    assert main(["play", "--rank", "5", "--players", "3", "--deck", "italian"]) == 0
    assert capsys.readouterr().out.startswith(f"deal     {bs.format_deal(bs.deal_at(5, bs.Rules(players=3, deck='italian')))}\n")


def test_play_rank_bad_input(capsys):
    assert main(["play", "--rank", "120", "--counts", "1,1,1,1,1"]) == 2
    assert "--rank must be a whole number from 0 to 119" in capsys.readouterr().err
    assert main(["play"]) == 2
    assert "--rank R" in capsys.readouterr().err
    assert main(["play", "--counts", "1,1,1", "--rank", "0"]) == 2
    assert "--counts: must be five whole numbers" in capsys.readouterr().err


def test_census_prints_exact_counts(capsys, tmp_path):
    assert main(["census", "--counts", "4,2,2,2,0", "--jobs", "1", "--out", str(tmp_path / "c.json")]) == 0
    out = capsys.readouterr().out
    s = bs.census(SMALL, n_jobs=1)
    assert out.startswith(f"census:   {bs.n_deals(SMALL):,} deals (ranks 0..{bs.n_deals(SMALL) - 1})")
    # percentages in the format of `simulate` (#38 item 6), the exact counts beside them
    assert f"  seat 0: {100 * s.wins[0] / s.wins.sum():.2f}%  ({s.wins[0]:,} wins)" in out and "Wilson" not in out
    assert f"longest:  rank {s.longest['game'][0]}," in out
    assert load_summary(tmp_path / "c.json") == s


def test_census_refusals_name_the_flag(capsys):
    assert main(["census", "--counts", "4,2,2,2,0", "--shuffle-pile"]) == 2
    assert "--shuffle-pile shuffles every pile" in capsys.readouterr().err
    assert main(["census", "--counts", "14,2,2,2,0", "--max-deals", "10"]) == 2
    err = capsys.readouterr().err
    assert "--max-deals = 10:" in err and "3,488,400 deals" in err and "deals/s measured here" in err
    assert main(["census", "--counts", "4,2,2,2,0", "--start", "9", "--stop", "3"]) == 2
    assert "--start and --stop must satisfy" in capsys.readouterr().err


def test_census_and_simulate_print_shares_in_one_format(capsys):
    """#38 item 6: every share `census` prints is written as `simulate` writes its rates (two decimals
    and a per cent sign, `cli.options.percent`), never as a bare fraction such as 0.4690."""
    import re

    printed = {}
    for command in (["census", "--counts", "4,2,2,2,0", "--jobs", "1"],
                    ["simulate", "--games", "300", "--seed", "3", "--jobs", "1", "--no-progress"]):
        assert main(command) == 0
        printed[command[0]] = capsys.readouterr().out
    for name, out in printed.items():
        seats = [line for line in out.splitlines() if line.startswith("  seat ")]
        assert len(seats) == 2, out
        shares = re.findall(r"\b\d+(?:\.\d+)?%", out.replace("95% Wilson", "Wilson"))  # not the level
        assert shares and all(re.fullmatch(r"\d{1,3}\.\d{2}%", s) for s in shares), (name, shares)
        assert all(re.match(r"  seat \d: \d{1,3}\.\d{2}% ", line) for line in seats), (name, seats)
        assert not re.search(r"(?<![\d.])0\.\d{3,}\b", out), f"{name} prints a bare fraction:\n{out}"


def test_a_deck_of_counts_is_named_by_counts_never_by_a_deck_flag(capsys):
    """With --counts the deck is --counts' (it replaces --deck): an error about it names --counts, not
    the --deck it would not read, nor the API's Deck fields (issue #51 item 7)."""
    for argv, says in [(["census", "--counts", "1,0,0,0,0"], "pass fewer --players or larger --counts"),
                       (["play", "--rank", "0", "--counts", "2,0,0,0,0", "--players", "3"], "larger --counts"),
                       (["census", "--counts", "0,0,0,0,0"], "the --counts are all 0"),
                       (["census", "--counts", "99999,1,1,1,1"], "The number cards of --counts must be"),
                       (["census", "--counts", "9000,1000,1000,1000,1000"], "the --counts (9000, 1000")]:
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert says in err and "--deck" not in err and "`" not in err and err.count("\n") == 1, (argv, err)
    assert main(["census", "--counts", "4,1,1,1,0", "--shuffle-pile"]) == 2
    err = capsys.readouterr().err
    assert "Use `beggarstats summarize` for shuffling rules" in err and "summarize()" not in err
