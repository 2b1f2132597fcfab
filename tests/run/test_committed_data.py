"""The one rule that finds the committed data (`beggarstats.run.committed_data`): an installed
package's own ``beggarstats/data/``, else the source tree's ``data/``, whatever the working directory;
a missing file is one sentence naming it; writers refuse an installed copy; and pyproject.toml ships
every committed data file (tests/report/test_notebooks.py runs the notebooks on the installed package)."""

import shutil
import subprocess
import tomllib
from pathlib import Path

import pytest

from beggarstats.run import committed_data as cd

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def installed(tmp_path, monkeypatch):
    """A package laid out as pip installs it: site-packages/beggarstats/ holding data/ (two files)."""
    package = tmp_path / "site-packages" / "beggarstats"
    (package / "data" / "tail").mkdir(parents=True)
    shutil.copy(ROOT / "data" / "summary-p2.json", package / "data")
    shutil.copy(ROOT / "data" / "tail" / "results.json", package / "data" / "tail")
    monkeypatch.setattr(cd, "_package", lambda: package)
    return package


def test_a_source_tree_reads_its_own_data_from_any_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a notebook's kernel in notebooks/, a script run from elsewhere
    assert cd.source_tree() == ROOT and cd.data_folder() == ROOT / "data"
    assert cd.data_path("tail", "results.json") == ROOT / "data" / "tail" / "results.json"
    assert [p.name for p in cd.data_paths("summary-p*.json")] == [f"summary-p{p}.json" for p in range(2, 7)]
    assert cd.source_data_folder("python data/compare_variants.py") == ROOT / "data"


def test_an_installed_package_reads_the_copy_it_carries(installed, tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()  # a data/ in the working directory or beside site-packages is not read
    monkeypatch.chdir(tmp_path)
    assert cd.source_tree() is None and cd.data_folder() == installed / "data"
    assert cd.data_path("summary-p2.json") == installed / "data" / "summary-p2.json"
    assert cd.data_paths("summary-p*.json") == [installed / "data" / "summary-p2.json"]


def test_a_missing_file_is_one_sentence_naming_it_and_how_to_get_it(installed):
    with pytest.raises(cd.MissingData) as caught:
        cd.data_path("census", "atlas.csv")
    said = str(caught.value)
    assert said.startswith("The committed data file data/census/atlas.csv is missing from the installed "
                           f"beggarstats at {installed}: reinstall beggarstats from a clone")
    assert said.count(". ") == 0 and said.endswith(".")  # one sentence
    with pytest.raises(cd.MissingData, match=r"data/compare-variants-p\*\.json is missing"):
        cd.data_paths("compare-variants-p*.json")
    assert isinstance(caught.value, FileNotFoundError)


def test_a_file_missing_from_a_source_tree_says_how_to_restore_or_remake_it(monkeypatch):
    with pytest.raises(cd.MissingData) as caught:
        cd.data_path("tail", "nothing.json", made_by="python data/tail/make_chain.py")
    assert str(caught.value) == (f"The committed data file data/tail/nothing.json is missing from the source tree "
                                 f"{ROOT}: restore it from the repository (`git checkout -- data/tail/nothing.json`) "
                                 "or make it again with `python data/tail/make_chain.py`.")


def test_a_package_without_data_says_so(tmp_path, monkeypatch):
    bare = tmp_path / "site-packages" / "beggarstats"
    bare.mkdir(parents=True)
    monkeypatch.setattr(cd, "_package", lambda: bare)
    with pytest.raises(cd.MissingData, match=r"^The committed data \(data/\) are not in this beggarstats at .*: "
                                             r"reinstall it from a clone"):
        cd.data_folder()


def test_writers_refuse_an_installed_copy(installed):
    from beggarstats.report import atlas, variant_refresh

    with pytest.raises(cd.InstalledCopy, match=r"^`python -m beggarstats.report.variant_refresh` writes the committed "
                                           r"data of a source tree .* installed copy at "):
        variant_refresh.regenerate()
    with pytest.raises(cd.InstalledCopy, match="python -m beggarstats.report.atlas"):
        atlas.build_atlas()


def test_the_atlas_runner_from_an_installed_copy_is_one_line_and_status_2(installed, capsys):
    from beggarstats.report import atlas

    assert atlas.main([]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "installed copy" in err and "pip install -e ." in err


# -- what the wheel carries ------------------------------------------------------------------------

def _setuptools() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]


def test_the_wheel_lists_every_subpackage_and_maps_data_into_the_package():
    conf = _setuptools()
    found = {".".join(p.parent.relative_to(ROOT).parts) for p in (ROOT / "beggarstats").rglob("__init__.py")}
    assert set(conf["packages"]) == found | {"beggarstats.data", "beggarstats.data.figures"}
    assert conf["package-dir"] == {"beggarstats.data": "data", "beggarstats.data.figures": "figures"}
    assert conf["package-data"]["beggarstats.data.figures"] == ["findings.csv"]


def _tracked(folder: str) -> set[str]:
    """The files git tracks under ``folder`` (every file there when git is not at hand)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z", folder], cwd=ROOT, capture_output=True, check=True,
                             text=True).stdout
        return {n for n in out.split("\0") if n}
    except (OSError, subprocess.CalledProcessError):
        return {p.relative_to(ROOT).as_posix() for p in (ROOT / folder).rglob("*") if p.is_file()
                and "__pycache__" not in p.parts}


def test_the_wheel_ships_every_committed_data_file():
    globs = _setuptools()["package-data"]["beggarstats.data"]
    shipped = {p.relative_to(ROOT).as_posix() for g in globs for p in (ROOT / "data").glob(g)}
    tracked = _tracked("data")
    assert tracked and {f for f in tracked if not f.endswith(".py")} == shipped & tracked
    assert "data/records.csv" in shipped and "data/census/atlas.csv" in shipped


def test_the_variant_table_without_its_runs_is_the_sentence_not_an_empty_table(installed):
    """#50: notebook 03's table came back empty, then failed on a missing column."""
    from beggarstats.report.variant_data import variant_table

    with pytest.raises(cd.MissingData, match=r"^The committed data file data/compare-variants-p\*\.json is missing"):
        variant_table()



def test_the_findings_table_is_found_in_a_source_tree_and_in_an_installed_copy(installed):
    """Notebook 03 reads the findings' Holm family from figures/findings.csv: the copy a wheel
    carries in beggarstats/data/figures/ (the source tree's own figures/ otherwise); missing, it is
    the rule's one sentence."""
    with pytest.raises(cd.MissingData, match=r"^The committed data file figures/findings.csv is missing from the "
                                             r"installed beggarstats at .*: reinstall"):
        cd.findings_path()
    (installed / "data" / "figures").mkdir()
    shutil.copy(ROOT / "figures" / "findings.csv", installed / "data" / "figures")
    assert cd.findings_path() == installed / "data" / "figures" / "findings.csv"


def test_a_source_tree_reads_its_own_findings_table():
    assert cd.findings_path() == ROOT / "figures" / "findings.csv"
