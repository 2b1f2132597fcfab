"""No run without a stated end (issue #51 item 4, the search): `search_long` / `beggarstats search`
with more random deals than `MAX_DEALS` and no time budget is refused before it starts, with the time
the deals would take at a speed measured here, unless ``max_deals`` (``--max-deals``) is raised; a
time budget (``seconds``) is an end of its own. `search --strategy random --deals 2**63-1` started and
ran for ever."""

import subprocess
import sys

import pytest

import beggarstats as bs
from beggarstats.run import search as search_module

pytestmark = pytest.mark.usefixtures("warm_kernels")

HUGE = 2**63 - 1


def _cli(*argv, timeout=120):
    """`beggarstats search ...` in a process of its own (a search that starts is killed at ``timeout``,
    and the test fails)."""
    return subprocess.run([sys.executable, "-m", "beggarstats", "search", *argv], capture_output=True, text=True,
                          timeout=timeout)


@pytest.mark.parametrize("strategy", ["random", "backward"])
def test_a_search_of_2_63_deals_is_refused_with_its_time(strategy):
    done = _cli("--strategy", strategy, "--seed", "1", "--deals", str(HUGE), "--no-progress")
    assert done.returncode == 2 and done.stdout == "" and done.stderr.count("\n") == 1
    err = done.stderr
    assert err.startswith("beggarstats search: error: A search of 9,223,372,036,854,775,807 random deals")
    assert "more than --max-deals = 10,000,000,000" in err and "years at the" in err and "measured here" in err
    assert "--seconds" in err and "`" not in err  # the flags by their names, never the API's


def test_the_limit_is_the_users_to_raise():
    assert search_module.MAX_DEALS == 10**10
    with pytest.raises(ValueError, match=r"more than `max_deals` = 1,000: about .* deals/s measured here"):
        bs.search_long(seed=3, deals=3000, strategy="random", max_deals=1000)
    df = bs.search_long(seed=3, deals=3000, strategy="random", max_deals=3000, top=2)
    assert df.attrs["deals"] == 3000 and df.attrs["stopped"] == "deals"
    for nonsense in (0, 2**63, 10**30):
        with pytest.raises(ValueError, match="`max_deals` must be a whole number from 1 to"):
            bs.search_long(seed=3, deals=10, strategy="random", max_deals=nonsense)


def test_a_time_budget_is_a_stated_end():
    """Past the limit of deals, a CPU or wall budget ends the search: it runs, and says what stopped it."""
    df = bs.search_long(seed=3, deals=HUGE, seconds=0.5, strategy="random", top=1)
    assert df.attrs["stopped"] == "seconds" and 0 < df.attrs["deals"] < HUGE
    df = bs.search_long(seed=3, deals=HUGE, wall_seconds=0.5, strategy="random", top=1)
    assert df.attrs["stopped"] == "wall"
    done = _cli("--strategy", "random", "--seed", "3", "--deals", str(HUGE), "--seconds", "0.5", "--top", "1",
                "--no-progress")
    assert done.returncode == 0 and "(stopped by seconds)" in done.stdout


def test_the_flag_is_refused_where_it_has_no_meaning():
    done = _cli("--deal", "-K-Q/--A-", "--max-deals", "5")
    assert done.returncode == 2 and "--max-deals" in done.stderr and done.stderr.count("\n") == 1
