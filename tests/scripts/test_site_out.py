"""The site builder (tools/build_site.py) deletes nothing it did not make: --out is written only when
it is new, empty or a site built here (its marker file), never in the repository's tracked folders or
its git database; a damaged or missing notebook is one clear line, not a traceback or a thinner site."""

import os
import subprocess
from pathlib import Path

import pytest
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
site = load_script("tools/build_site.py")


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _refused(capsys, out) -> str:
    assert site.main(["--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("build_site: --out") and err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.fixture
def small_repo(tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1.0"\n')
    (root / "README.md").write_text("# Home\n\nSee [the rules](docs/RULES.md).\n")
    (root / "docs" / "RULES.md").write_text("# Rules\n")
    return root


def test_a_users_folder_is_kept(tmp_path, capsys):
    thesis = tmp_path / "thesis"
    thesis.mkdir()
    (thesis / "thesis.tex").write_text("\\documentclass{article}\n")
    (thesis / "figs").mkdir()
    (thesis / "figs" / "a.pdf").write_bytes(b"%PDF")
    before = _snapshot(thesis)
    err = _refused(capsys, thesis)
    assert "not a site built here" in err and "nothing was deleted" in err
    assert _snapshot(thesis) == before


@pytest.mark.parametrize("folder", ["docs", "notebooks", "figures", "tools", "tests", "beggarstats",
                                    "beggarstats/run", "docs/site", "figures/new/deeper"])
def test_tracked_folders_are_refused(folder, capsys):
    top = ROOT / folder.split("/")[0]
    before = _snapshot(top)
    err = _refused(capsys, ROOT / folder)
    assert "tracked files" in err
    assert _snapshot(top) == before and not (ROOT / "docs" / "site").exists()


def test_the_git_database_is_refused(capsys):
    dot_git = ROOT / ".git"  # a folder in a clone, a file in a worktree: refused either way
    kind = dot_git.is_dir()
    _refused(capsys, dot_git)
    assert dot_git.exists() and dot_git.is_dir() == kind
    common = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--path-format=absolute", "--git-common-dir"],
                            capture_output=True, text=True).stdout.strip()
    if common:  # the database itself and a folder inside it
        for out in (Path(common), Path(common) / "objects"):
            assert "git database" in _refused(capsys, out)
        assert (Path(common) / "HEAD").is_file()


@pytest.mark.parametrize("out", [ROOT, ROOT.parent, Path("/")])
def test_the_repository_and_its_parents_are_refused(out, capsys):
    assert "would empty the repository" in _refused(capsys, out)


def test_a_file_a_link_and_nothing_are_refused(tmp_path, capsys):
    f = tmp_path / "notes.txt"
    f.write_text("keep me")
    assert "not a folder" in _refused(capsys, f)
    (tmp_path / "empty").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "empty")
    assert "symbolic link" in _refused(capsys, tmp_path / "link")
    assert "--out is empty" in _refused(capsys, "")
    assert f.read_text() == "keep me"


def test_new_empty_and_own_folders_are_built(small_repo, tmp_path):
    out = tmp_path / "new" / "site"
    assert set(site.build(out, root=small_repo)) == {"index.html", "docs/RULES.html"}
    assert (out / site.MARKER).is_file()
    site.build(out, root=small_repo)  # a site built here is built again
    assert (out / "index.html").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    site.build(empty, root=small_repo)
    assert (empty / "index.html").exists()
    # a marker is what makes a folder the builder's: without one, the same files are kept
    os.remove(out / site.MARKER)
    with pytest.raises(site.SiteError, match="not a site built here"):
        site.build(out, root=small_repo)
    assert (out / "index.html").exists()


@pytest.mark.parametrize("damage", [b"{not json", b"", b'{"cells": 3, "nbformat": 4, "nbformat_minor": 5}',
                                    b"\x00\xff\xfe"])
def test_a_damaged_notebook_is_one_clear_error(small_repo, tmp_path, damage):
    (small_repo / "notebooks").mkdir()
    (small_repo / "notebooks" / "01_a.ipynb").write_bytes(damage)
    with pytest.raises(site.SiteError) as info:
        site.build(tmp_path / "site", root=small_repo)
    assert "01_a.ipynb" in str(info.value) and "\n" not in str(info.value)


def test_a_missing_notebook_is_an_error_not_a_missing_page(small_repo, tmp_path):
    (small_repo / "notebooks").mkdir()
    (small_repo / "notebooks" / "01_a.py").write_text("# %%\n1 + 1\n")
    with pytest.raises(site.SiteError, match=r"notebooks/01_a\.ipynb is missing"):
        site.build(tmp_path / "site", root=small_repo)
    (small_repo / "notebooks" / "01_a.py").unlink()
    (small_repo / "README.md").write_text("# Home\n\n[a notebook](notebooks/02_b.ipynb)\n")
    with pytest.raises(site.SiteError, match=r"notebooks/02_b\.ipynb linked from README\.md is missing"):
        site.build(tmp_path / "site2", root=small_repo)
