"""The import budget: the package and the light commands load no statistics or plotting library
(and no numba), so that they start in a fraction of a second; the public names still work."""

import json
import subprocess
import sys

import pytest

RECORD = "---AJ--Q---------QAKQJJ-QK/-----A----KJ-K--------A---"
HEAVY = ("scipy", "statsmodels", "matplotlib", "seaborn", "numba", "pandas")

_CHILD = """
import contextlib, io, json, sys
argv = json.loads(sys.argv[1])
if argv is None:
    import beggarstats
    code = 0
else:
    from beggarstats.cli import main
    with contextlib.redirect_stdout(io.StringIO()):
        code = main(argv)
print(json.dumps({"code": code, "loaded": sorted({m.split(".")[0] for m in sys.modules})}))
"""


def _loaded(argv):
    done = subprocess.run([sys.executable, "-c", _CHILD, json.dumps(argv)], capture_output=True, text=True,
                          timeout=300, check=True)
    result = json.loads(done.stdout)
    return result["code"], set(result["loaded"])


@pytest.mark.parametrize("argv", [None, ["--help"], ["play", RECORD], ["play", "--trace", RECORD], ["play", "--json", RECORD, RECORD],
                                  ["records"], ["play", "--help"]])
def test_light_commands_import_no_heavy_library(argv):
    code, loaded = _loaded(argv)
    assert code == 0
    assert not loaded & set(HEAVY), sorted(loaded & set(HEAVY))
    if argv == ["--help"]:
        assert "numpy" not in loaded  # the list of sub-commands needs nothing but argparse


def test_the_public_api_is_loaded_on_first_use():
    import beggarstats as bs

    assert bs.play(RECORD).cards == 8344
    for name in bs.__all__:
        assert getattr(bs, name) is not None, name
    assert callable(bs.simulate) and callable(bs.replay) and callable(bs.simulate_matches)
    assert callable(bs.load) and callable(bs.analysis.wilson_interval) and callable(bs.plots.plot_lengths)
    import beggarstats.run.play  # noqa: F401  (the submodule of the same name must not hide the function)
    import beggarstats.run.simulate  # noqa: F401

    assert callable(bs.play) and bs.play.__module__ == "beggarstats.run.play"
    assert bs.simulate.__module__ == "beggarstats.run.simulate" and not isinstance(bs.simulate, type(bs))
    with pytest.raises(AttributeError, match="no attribute 'nope'"):
        bs.nope  # noqa: B018
    assert {"play", "simulate", "analysis", "plots"} <= set(dir(bs))


_ANALYSIS = """
import json, sys
def loaded():
    return {m for m in sys.modules if m.split(".")[0] in HEAVY}
HEAVY = set(json.loads(sys.argv[1]))
import beggarstats.analysis as an
steps = {"import": sorted({m.split(".")[0] for m in loaded()})}
an.length_summary
steps["length_summary"] = "statsmodels.api" in loaded()
from beggarstats.analysis.overview import overview  # as `beggarstats simulate` imports it
an.hand_strength
steps["hand_strength"] = "statsmodels.api" in loaded()
steps["functions"] = [callable(an.overview) and an.overview is overview, callable(an.comebacks),
                      callable(an.variants.detectable_effect), not hasattr(an, "nope")]  # a module, loaded when asked
print(json.dumps(steps))
"""


def test_the_analysis_package_loads_each_function_with_its_own_module():
    """#50: ``import beggarstats.analysis`` imported every module of it and with them pandas, scipy and
    statsmodels (2.6-3.6 s at load 11; 7 s at load 5 once): each name now loads on first use with its
    own module, so the statsmodels models are loaded only by the functions that fit them. A submodule
    named like its function (overview, comebacks), once imported, does not hide the function."""
    done = subprocess.run([sys.executable, "-c", _ANALYSIS, json.dumps(HEAVY)], capture_output=True, text=True,
                          timeout=300, check=True)
    steps = json.loads(done.stdout)
    assert steps == {"import": [], "length_summary": False, "hand_strength": True, "functions": [True] * 4}
