"""The results site's builder (tools/build_site.py) on a small repository made here, and the
citation file. The built site of this repository is opened in a real browser by
tests/report/test_browser.py."""

import re
from pathlib import Path

import pytest
import yaml
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
site = load_script("tools/build_site.py")
# the notebook test uses nbformat (about 1.7 s to import): imported there, on the notebooks' worker
pytestmark = pytest.mark.xdist_group("notebooks")


def test_citation_matches_the_package():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    meta = (ROOT / "pyproject.toml").read_text()
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert cff["version"] == re.search(r'^version = "([^"]+)"', meta, re.M).group(1)
    assert cff["license"] == re.search(r'^license = "([^"]+)"', meta, re.M).group(1)
    assert "MIT License" in (ROOT / "LICENSE").read_text() and re.search(r'^license-files = \["LICENSE"\]', meta, re.M)
    assert cff["title"].startswith("beggarstats") and cff["authors"] and cff["message"]


@pytest.mark.parametrize("text, anchor", [("What the figures say", "what-the-figures-say"),
                                          ("Billions of games: summaries", "billions-of-games-summaries"),
                                          ("On a <code>Dask</code> cluster", "on-a-dask-cluster"),
                                          ("Play a deal", "play-a-deal")])
def test_slug_as_github_writes_it(text, anchor):
    assert site.slug(text) == anchor


def test_page_paths():
    assert site.page_path("README.md") == "index.html"
    assert site.page_path("docs/RULES.md") == "docs/RULES.html"
    assert site.page_path("notebooks/01_x.ipynb") == "notebooks/01_x.html"


@pytest.fixture
def repo(tmp_path):
    import nbformat

    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "notebooks").mkdir()
    (root / "pkg").mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "9.9"\n')
    (root / "README.md").write_text(
        "# Home\n\n## The rules\n\nSee [the rules](docs/RULES.md#dealing), [a source](pkg/mod.py), "
        "[here](#the-rules), [gone](docs/GONE.md), [out](https://example.org) and "
        "[the notebook](notebooks/01_a.ipynb).\n\n![a figure](figures/a.png)\n\n| a | b |\n|---|---|\n| 1 | 2 |\n")
    (root / "docs" / "RULES.md").write_text("# Rules\n\n## Dealing\n\nBack [home](../README.md).\n")
    (root / "docs" / "EXTRA.md").write_text("# Extra\n")
    (root / "figures" / "a.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (root / "figures" / "findings.md").write_text("| finding |\n|---|\n| one |\n")
    (root / "pkg" / "mod.py").write_text("x = 1\n")
    nb = nbformat.v4.new_notebook(cells=[
        nbformat.v4.new_markdown_cell("# A notebook\n\n[rules](../docs/RULES.md)"),
        nbformat.v4.new_code_cell("1 + 1", outputs=[nbformat.v4.new_output(
            "execute_result", data={"text/plain": "2"}, execution_count=1)], execution_count=1),
        nbformat.v4.new_code_cell("panel", outputs=[nbformat.v4.new_output(
            "execute_result", data={site.WIDGET_VIEW: {"model_id": "abc", "version_major": 2, "version_minor": 0},
                                    "text/plain": "VBox(children=(...))"}, execution_count=2)], execution_count=2),
        nbformat.v4.new_code_cell("pictured", outputs=[nbformat.v4.new_output(
            "execute_result", data={site.WIDGET_VIEW: {"model_id": "def", "version_major": 2, "version_minor": 0},
                                    "text/html": "<div class='bs-panel-snapshot'>the panel as saved <button "
                                                 "class='bs-run-all' data-commandlinker-command='x'>Run all cells"
                                                 "</button></div>",
                                    "text/plain": "VBox(children=(...))"}, execution_count=3)], execution_count=3)])
    nbformat.write(nb, root / "notebooks" / "01_a.ipynb")
    return root


def test_build_links_pages_and_copies_linked_files(repo, tmp_path):
    out = tmp_path / "site"
    written = site.build(out, root=repo)
    assert set(written) == {"index.html", "docs/RULES.html", "docs/EXTRA.html", "figures/findings.html",
                            "notebooks/01_a.html"}
    index = (out / "index.html").read_text()
    assert 'href="docs/RULES.html#dealing"' in index and 'href="notebooks/01_a.html"' in index
    assert 'href="pkg/mod.py"' in index and (out / "pkg" / "mod.py").read_text() == "x = 1\n"
    assert 'src="figures/a.png"' in index and (out / "figures" / "a.png").exists()
    assert 'href="docs/GONE.md"' in index  # a broken link stays visible to the site check
    assert 'href="https://example.org"' in index and 'href="#the-rules"' in index
    assert '<h2 id="the-rules">' in index and "<table>" in index and "Built from beggarstats 9.9" in index
    assert 'id="dealing"' in (out / "docs" / "RULES.html").read_text()
    assert 'href="../index.html"' in (out / "docs" / "RULES.html").read_text()
    notebook = (out / "notebooks" / "01_a.html").read_text()
    assert "Built from beggarstats 9.9" in notebook
    assert 'href="../docs/RULES.html"' in notebook and ">2<" in notebook.replace("\n", "")
    assert not re.search(r'<script[^>]*src="https?://', notebook)  # nothing loaded from outside
    assert "A live panel is drawn here" in notebook and "VBox(children" not in notebook
    assert re.search(r"""<div class=["']bs-panel-snapshot["']>the panel as saved</div>""", notebook)  # its picture
    assert "Run all cells" not in notebook  # its button runs the notebook in JupyterLab: not on a static page
    assert notebook.count("A live panel is drawn here") == 1


def test_provenance_names_version_rules_and_commit():
    import subprocess

    from beggarstats import __version__
    from beggarstats.game.rules import RULES_VERSION

    text = site.provenance()
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"], capture_output=True,
                            text=True).stdout.strip()
    assert text.startswith(f"beggarstats {__version__}, RULES_VERSION {RULES_VERSION}")
    assert (f"commit {commit}" in text) if commit else "commit" not in text


def test_build_refuses_to_empty_the_repository(capsys):
    assert site.main(["--out", str(ROOT)]) == 2
    assert "would empty the repository" in capsys.readouterr().err
