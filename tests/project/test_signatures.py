"""Signatures users can predict (issue #41): the shared parameters of every public function of the
package mean the same thing, sit in the same place and default to the same value.

The rules read here, from ``inspect.signature`` of every name in a module's ``__all__``:

* ``n_jobs`` with a default is keyword-only and defaults to None (scikit-learn's convention: 1
  unless a ``joblib.parallel_config`` context says otherwise; -1 all cores); the command line's
  ``--jobs`` has the same default;
* ``rules`` with a default defaults to None (the standard table) and comes right after the required
  parameters that say what is played (a deal, a rank, a seed and a game, a count), by position or by
  name: never keyword-only, never after an optional parameter;
* ``progress`` with a default is keyword-only and off; ``chunk_size`` with a default is keyword-only
  and None;
* every public name of ``beggarstats`` is in ``__all__``, and nothing else is.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import pytest

import beggarstats

EMPTY = inspect.Parameter.empty
KW = inspect.Parameter.KEYWORD_ONLY
POS = inspect.Parameter.POSITIONAL_OR_KEYWORD


def _public_functions():
    """(qualified name, signature) of every function and class constructor in a module's __all__."""
    out = []
    for info in pkgutil.walk_packages(beggarstats.__path__, "beggarstats."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name in getattr(module, "__all__", ()):
            obj = getattr(module, name, None)
            if getattr(obj, "__module__", None) != module.__name__ or not callable(obj):
                continue
            try:
                sig = inspect.signature(obj.__init__ if inspect.isclass(obj) else obj)
            except (TypeError, ValueError):
                continue
            out.append((f"{module.__name__}.{name}", sig))
    return out


FUNCTIONS = _public_functions()


def _having(param):
    return [(name, sig.parameters[param]) for name, sig in FUNCTIONS
            if param in sig.parameters and sig.parameters[param].default is not EMPTY]


def test_the_walk_finds_the_batch_entry_points():
    names = {name for name, _ in _having("n_jobs")}
    for entry in ("run.simulate.simulate", "run.summarize.summarize", "run.census.census", "run.compare.compare",
                  "run.search.search_long", "run.matches.simulate_matches", "analysis.chain.tail_chain"):
        assert f"beggarstats.{entry}" in names


def test_one_n_jobs_default():
    wrong = [f"{name}: n_jobs={p.default!r} ({p.kind.name})" for name, p in _having("n_jobs")
             if p.default is not None or p.kind is not KW]
    assert not wrong, "n_jobs must be keyword-only and default to None (1 core): " + "; ".join(wrong)


def test_the_command_line_has_the_same_default():
    from beggarstats.cli.options import JOBS_DEFAULT

    assert JOBS_DEFAULT is None


def test_rules_in_one_position():
    wrong = []
    for name, sig in FUNCTIONS:
        params = list(sig.parameters.values())
        for i, p in enumerate(params):
            if p.name != "rules" or p.default is EMPTY:
                continue
            before = [q for q in params[:i] if q.name not in ("self", "cls")]
            if p.default is not None or p.kind is not POS or any(q.default is not EMPTY for q in before):
                wrong.append(f"{name}{sig}")
    assert not wrong, "rules=None must follow the required parameters, by position or name: " + "; ".join(wrong)


@pytest.mark.parametrize("param, default", [("progress", False), ("chunk_size", None)])
def test_shared_keywords(param, default):
    wrong = [f"{name}: {param}={p.default!r} ({p.kind.name})" for name, p in _having(param)
             if p.default is not default or p.kind is not KW]
    assert not wrong, f"{param} must be keyword-only and default to {default!r}: " + "; ".join(wrong)


def test_every_public_name_is_in_all():
    assert sorted(beggarstats.__all__) == sorted(beggarstats._LAZY)
    assert len(set(beggarstats.__all__)) == len(beggarstats.__all__)
