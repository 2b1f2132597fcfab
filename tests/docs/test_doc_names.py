"""Every Python name the documents give a reader exists: ``beggarstats.report.figures.make_figures``,
``bs.analysis.compare_variants`` and the like in the README, docs/ and the other pages of the site
import and resolve (issue #38 item 6: docs/FIGURES.md once named ``beggarstats.figures.make_figures``,
which does not import)."""

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "notebooks" / "README.md",
         ROOT / "benchmarks" / "README.md", ROOT / "figures" / "findings.md"]
DOTTED = re.compile(r"\b(beggarstats|bs)((?:\.[A-Za-z_]\w*)+)")
PLACEHOLDERS = {"bs.name"}  # docs/api.md: "help(bs.name)" stands for any name


def resolve(name: str):
    """The object a dotted name means: the longest prefix that imports as a module, then attributes
    (``bs`` is ``beggarstats``, as in ``import beggarstats as bs``). Raises if it names nothing."""
    parts = ["beggarstats"] + name.split(".")[1:]
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ModuleNotFoundError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ModuleNotFoundError(name)  # pragma: no cover - beggarstats itself always imports


def names_in(text: str) -> set[str]:
    return {m.group(0) for m in DOTTED.finditer(text)} - PLACEHOLDERS


def test_the_finder_reads_the_names_of_a_page():
    text = "call `beggarstats.report.figures.make_figures(out)`, or `bs.analysis.compare_variants(frames)`; bs.name"
    assert names_in(text) == {"beggarstats.report.figures.make_figures", "bs.analysis.compare_variants"}
    with pytest.raises((ModuleNotFoundError, AttributeError)):
        resolve("beggarstats.figures.make_figures")  # the name docs/FIGURES.md used to give


@pytest.mark.parametrize("page", [p for p in PAGES if p.exists()], ids=lambda p: str(p.relative_to(ROOT)))
def test_every_name_a_page_gives_resolves(page):
    bad = []
    for name in sorted(names_in(page.read_text())):
        try:
            resolve(name)
        except (ImportError, AttributeError) as exc:
            bad.append(f"{name} ({type(exc).__name__}: {exc})")
    assert bad == [], f"{page.relative_to(ROOT)} names what does not import: {bad}"
