"""docs/api.md, the site's API reference, is what tools/api_reference.py writes from the docstrings:
every exported name with its signature and first paragraph."""

from __future__ import annotations

import beggarstats as bs
from _scripts import load_script


def test_the_committed_reference_is_generated_from_the_docstrings():
    tool = load_script("tools/api_reference.py")
    assert tool.OUT.read_text(encoding="utf-8") == tool.reference(), "run python tools/api_reference.py"


def test_every_exported_name_has_an_entry_with_its_signature():
    text = load_script("tools/api_reference.py").reference()
    for name in bs.__all__:
        assert f"### `bs.{name}`" in text, name
    for sub in ("analysis", "plots"):
        for name in getattr(bs, sub).__all__:
            assert f"### `bs.{sub}.{name}`" in text, name
    assert "bs.simulate(n_games: 'int', rules: 'RulesLike' = None, *, seed: 'int | None' = None" in text
