"""`beggarstats compare` (issue #38, item 1): variants against the base rules on the same deals,
paired, one Holm family, small game counts."""

import json

import numpy as np
import pytest

import beggarstats as bs
from beggarstats.cli import main
from beggarstats.cli.compare import format_p, parse_players
from beggarstats.run.variants import parse_variant

pytestmark = pytest.mark.usefixtures("warm_kernels")  # plays games through the kernels


def run_json(capsys, *argv):
    assert main(["compare", "--seed", "5", "--jobs", "1", "--no-progress", "--json", *argv]) == 0
    return json.loads(capsys.readouterr().out)


def test_rows_are_bs_compare_with_tango_and_holm(capsys):
    from statsmodels.stats.multitest import multipletests

    out = run_json(capsys, "--players", "2-3", "--variants", "shuffle_pile,jokers=2", "--games", "3000")
    rows = out["rows"]
    assert [(r["variant"], r["players"], r["metric"]) for r in rows] == [
        (v, p, m) for p in (2, 3) for v in ("shuffle_pile", "jokers=2") for m in ("mean_length_diff", "seat0_win_diff")]
    for p in (2, 3):
        m = bs.compare(bs.Rules(players=p, jokers=2), bs.Rules(players=p), 3000, seed=5, n_jobs=1)
        length, seat = [r for r in rows if r["players"] == p and r["variant"] == "jokers=2"]
        assert length["estimate"] == pytest.approx(m.mean) and (length["low"], length["high"]) == pytest.approx(m.interval())
        assert length["design"] == "paired" and length["interval"] == "paired t"
        assert (seat["low"], seat["high"]) == pytest.approx(m.seat0_interval()) and seat["interval"] == "Tango score"
        assert length["per_card"] == pytest.approx(m.per_card_dealt()[0])
    holm = multipletests([r["p_value"] for r in rows], method="holm")[1]
    assert [r["p_holm"] for r in rows] == pytest.approx(list(holm))
    assert all(r["family"] == 8 and r["detectable_level"] == pytest.approx(0.05 / 8) for r in rows)
    # the detectable effect is at Holm's strictest level: more than the same pairs detect at 5%
    m = bs.compare(bs.Rules(jokers=2), bs.Rules(), 3000, seed=5, n_jobs=1)
    assert rows[2]["detectable"] == pytest.approx(m.detectable(alpha=0.05 / 8)) and rows[2]["detectable"] > m.detectable()


def test_the_size_comes_from_a_pilot_and_the_time_is_printed(capsys):
    assert main(["compare", "--seed", "5", "--jobs", "1", "--no-progress", "--variants", "jokers=1",
                 "--detect", "20", "--pilot", "500"]) == 0
    text = capsys.readouterr().out
    assert "pilot: 500 deals a row; to detect 20 cards at Holm's level: jokers=1 2p " in text and "take about" in text
    n = int(text.split("jokers=1 2p ")[1].split(" deals")[0].replace(",", ""))
    # (z_{1 - 0.05/4} + z_0.8) sd / 20, squared, from the pilot's sd
    pilot = bs.compare(bs.Rules(jokers=1), bs.Rules(), 500, seed=5, n_jobs=1)
    assert n > 500 and n == pytest.approx((3.085 * pilot.sd / 20) ** 2, rel=0.03)
    assert "1 super joker" in text and "Holm" in text and "0.000" not in text


def test_the_printout_names_design_interval_and_detectable(capsys):
    assert main(["compare", "--seed", "5", "--jobs", "1", "--no-progress", "--players", "2",
                 "--variants", "end=empty,ccw", "--games", "40000"]) == 0
    text = capsys.readouterr().out
    assert "same deals (paired)" in text and "Holm over 4 rows" in text
    assert "identical in every pair" in text  # ccw is the same game for 2 players
    lines = text.splitlines()
    for line in lines:
        if " 2p " in line and "not detected" in line:
            assert line.split()[-1] != "-"  # the detectable column
    # #50 item 7: each block has a header row naming its columns, aligned with the cells below it
    for title in ("change in mean length (cards; variant minus base)", "change in seat 0's win rate (percentage points)"):
        header, *rows = lines[lines.index(title) + 1:lines.index(title) + 3]
        assert header.split("  ")[0] == "variant" and "estimate [95% interval]" in header and "Holm p" in header
        assert header.endswith("detectable")
        for name in ("players", "pairs", "Holm p"):  # right-aligned columns end under their header
            end = header.index(name) + len(name)
            assert rows[0][end - 1] != " " and rows[0][end] == " "


@pytest.mark.parametrize("p, text", [(0.5, "0.500"), (0.0123, "0.012"), (0.00012, "1.2e-04"), (1e-200, "1.0e-200"),
                                     (0.0, "<1e-300"), (float("nan"), "-")])
def test_p_values_never_print_as_zero(p, text):
    assert format_p(p) == text


def test_players_and_variants_parse_with_the_rule_option_list():
    assert parse_players("2-6") == [2, 3, 4, 5, 6] and parse_players("2,4") == [2, 4]
    base = bs.Rules(players=3)
    assert parse_variant("jokers=1+joker_mode=beggar", base) == bs.Rules(players=3, jokers=1, joker_mode="beggar")
    assert parse_variant("joker_mode=beggar", base) == bs.Rules(players=3, jokers=1, joker_mode="beggar")
    assert parse_variant("ccw", base) == bs.Rules(players=3, direction="ccw")
    assert parse_variant("passes_on", base) == bs.Rules(players=3, exhausted_tribute="passes_on")
    assert parse_variant("shuffle_pile", base) == bs.Rules(players=3, shuffle_pile=True)
    assert parse_variant("max_cards=500", base) == bs.Rules(players=3, max_cards=500)


@pytest.mark.parametrize("argv, message", [
    (["--variants", "foo"], "'foo' is no rule flag"),
    (["--variants", "jokers=3"], "'jokers' takes a whole number from 0 to 2"),
    (["--variants", "deck=italian"], "--variants: variant 'deck=italian' changes the deck"),
    (["--variants", "end=trick"], "is the base rules themselves"),
    (["--variants", "shuffle_pile+shuffle_on_loop"], "cannot both be set"),
    (["--variants", "shuffle_pile=maybe"], "--variants: variant 'shuffle_pile=maybe': 'shuffle_pile' takes on or off"),
    (["--variants", "joker_mode=x+max_cards=5"], "variant 'joker_mode=x+max_cards=5': 'joker_mode' must be one of"),
    (["--variants", "end=empty+foo_bar=1"], "'foo_bar' is not a rule option (one of ['deck', 'direction', 'end', "
                                             "'exhausted_tribute', 'joker_mode',"),
    (["--players", "1-3"], "must be player counts from 2 to 12"),
    (["--players", "x"], "must be player counts such as 2-6"),
    (["--detect", "0"], "must be a number of cards > 0, but '0' was passed"),
    (["--games", "1"], "--games"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys):
    assert main(["compare", "--no-progress", "--jobs", "1", "--games", "100", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_cut_off_before_any_game_ends_is_said_not_divided_by(capsys):
    """With --max-cards 2 no deal finishes under either rules: every row says so (the fuzz found a
    ZeroDivisionError here)."""
    from beggarstats.cli import main

    assert main(["compare", "--max-cards", "2", "--games", "60", "--variants", "end=empty", "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert "no pair finished under both rules" in out and "no test (no pair finished)" in out


def one_error_line(capsys, *argv) -> str:
    assert main(["compare", "--seed", "5", "--jobs", "1", "--no-progress", *argv]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err.count("\n") == 1 and "Traceback" not in captured.err
    return captured.err


def test_a_plan_past_the_limit_is_refused_with_its_time(capsys):
    """#51 item 4: `--detect 1e-6 --pilot 100` planned 1.6e12 deals (years) and started."""
    import re

    err = one_error_line(capsys, "--variants", "end=empty", "--detect", "1e-6", "--pilot", "100")
    assert re.search(r"'end=empty' against 'standard' with 2 players needs about [0-9.]+e\+1[0-9] deals to detect "
                     r"1e-06 cards at 80% power at 0.05/2", err)
    assert "more than the 1,000,000,000 a row plays unless asked (--max-games)" in err
    assert re.search(r": about [0-9.,]+ (years|days) at the [0-9,]+ deals a second measured here", err)
    assert "Pass a larger --detect, or --max-games" in err and "`" not in err


def test_a_raised_limit_runs_and_says_where_it_stopped(capsys):
    import re

    assert main(["compare", "--seed", "5", "--jobs", "1", "--no-progress", "--variants", "end=empty", "--detect",
                 "1e-6", "--pilot", "100", "--max-games", "600"]) == 0
    text = capsys.readouterr().out
    assert "end=empty 2p 600 deals" in text
    assert "end=empty 2p: stopped at 600 deals (--max-games): it detects " in text and "not 1e-06" in text
    assert re.search(r"\nend=empty +2p +600 ", text)


@pytest.mark.parametrize("detect", ["1e-150", "1e-300", "5e-324"])
def test_a_tiny_detect_is_refused_by_its_flag_not_an_overflow(capsys, detect):
    """#51 items 5 and 7: OverflowError tracebacks (1e-300, 5e-324); --games blamed with a 300-digit
    number (1e-150)."""
    import re

    err = one_error_line(capsys, "--variants", "end=empty", "--detect", detect, "--pilot", "200")
    assert "--games" not in err and "--detect" in err and "--max-games" in err
    assert not re.search(r"\d{20}", err.replace(",", ""))  # no 300-digit count
    assert re.search(r"needs (more than 1.8e\+308|about [0-9.]+e\+3\d\d) deals", err)


def test_a_tiny_detect_under_a_huge_limit_names_the_limit(capsys):
    err = one_error_line(capsys, "--variants", "end=empty", "--detect", "1e-150", "--pilot", "200",
                         "--max-games", str(2**63 - 1))
    assert err.startswith("beggarstats compare: error: The value for --max-games is 9,223,372,036,854,775,807 games")
    assert "--games" not in err


def test_a_joker_mode_alone_says_it_adds_a_joker_and_is_labelled_so(capsys):
    """#50 item 7: `--variants beggar` added a joker silently and labelled its row 'beggar'."""
    assert main(["compare", "--seed", "5", "--jobs", "1", "--no-progress", "--variants", "beggar,jokers=2",
                 "--games", "500"]) == 0
    text = capsys.readouterr().out
    assert text.splitlines()[0] == ("variant 'beggar' plays jokers=1+joker_mode=beggar (a joker mode without jokers "
                                    "gets one joker)")
    assert "\n1 Beggar joker " in text and "\n2 super jokers " in text and "\nbeggar " not in text
    rows = run_json(capsys, "--variants", "beggar,empty", "--games", "500")["rows"]
    assert [r["label"] for r in rows] == ["1 Beggar joker"] * 2 + ["end=empty"] * 2
    assert [r["variant"] for r in rows] == ["beggar"] * 2 + ["empty"] * 2  # as typed


def test_the_rule_the_run_was_sized_for_holds_on_the_run(capsys):
    """#52 item 5: seed 1 of `--variants end=empty --detect 1` was planned from its pilot's skewness
    (-28.9: 20,929 pairs) and ended 'no test (too skewed)' (the run's -34.8 asks 30,352). Now the
    run is extended until its own pairs reach the rule at its own skewness."""
    import re

    assert main(["compare", "--seed", "1", "--jobs", "1", "--no-progress", "--variants", "end=empty",
                 "--detect", "1"]) == 0
    text = capsys.readouterr().out
    assert "end=empty 2p: extended past its plan of 20,929 to 36,532 deals: the run's own skewness asked for more" in text
    length = [line for line in text.splitlines() if re.match(r"end=empty +2p +[0-9,]+ ", line)][0]
    assert "paired t" in length and "too skewed" not in length


@pytest.mark.slow  # 50 pilots of 20,000 deals, 2-6 players
def test_the_readme_example_plans_what_the_readme_says():
    """#50 item 7: the README's example planned 313 million deals (about 1.7 h) without saying so.
    Its plan, the plan at --detect 0.3 and their times at the standard game's single-thread rates of
    the README's Speed table are the README's numbers."""
    import re
    import shlex
    from pathlib import Path

    from beggarstats.cli import build_parser
    from beggarstats.cli.compare import PILOT
    from beggarstats.run.variants import MAX_PAIRS, parse_variants, plan_pairs

    readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
    section = readme.split("## Compare variants: the same deals, paired", 1)[1].split("\n## ", 1)[0]
    command = re.search(r"^\$ beggarstats (compare .*)$", section, re.M).group(1)
    args = build_parser("compare").parse_args(shlex.split(command))
    speed = readme.split("## Speed", 1)[1]
    rate = {int(p): float(r.replace(",", "")) for p, r in
            re.findall(r"^beggarstats standard, (\d) players \[bits\] +([0-9,]+)", speed, re.M)}
    rows = [(variant, base) for p in args.players for base in [bs.Rules(players=p)]
            for _, variant in parse_variants(args.variants, base)]
    prose = " ".join(section.split())

    def plan(detect):
        sizes = [(base.players, plan_pairs(base, variant, target=detect, family=2 * len(rows), seed=args.seed,
                                           pilot=args.pilot, n_jobs=2)[0]) for variant, base in rows]
        deals = sum(n for _, n in sizes)
        minutes = sum(2 * n / rate[p] for p, n in sizes) / 60  # each deal played under both rules
        return deals, round(minutes)

    deals, minutes = plan(args.detect)
    assert args.detect == 1 and args.pilot == PILOT and args.jobs in (None, 1)
    assert (f"the pilots ({PILOT:,} deals a row) plan {deals:,} deals a rule over the {len(rows)} rows: about "
            f"{minutes} minutes of one core" in prose)
    deals, minutes = plan(0.3)
    assert f"`--detect 0.3`, the size of the committed runs, plans {deals:,} deals, about {minutes} minutes" in prose
    assert MAX_PAIRS == 10**9 and "A plan of more than 10^9 deals a row is refused with its time" in prose
