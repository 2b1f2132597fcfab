"""A rebuild of the site (tools/build_site.py) deletes only what the previous build wrote (its marker
lists every file) and refuses, naming them, while the folder holds anything else: a CNAME and a .git
added for publishing are kept (issue #51 item 1). A source that is a pipe is refused, not read for
ever (item 6)."""

import os
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
site = load_script("tools/build_site.py")


def _snapshot(folder: Path) -> dict[str, bytes | str]:
    """Every entry under ``folder``: a file's bytes, a link's target, a folder as 'dir'."""
    found = {}
    for p in sorted(folder.rglob("*")):
        rel = str(p.relative_to(folder))
        found[rel] = (f"link:{os.readlink(p)}" if p.is_symlink() else "dir" if p.is_dir()
                      else "fifo" if not p.is_file() else p.read_bytes())
    return found


@pytest.fixture
def small_repo(tmp_path):
    root = tmp_path / "repo"
    (root / "docs").mkdir(parents=True)
    (root / "figures").mkdir()
    (root / "pyproject.toml").write_text('[project]\nname = "x"\nversion = "1.0"\n')
    (root / "README.md").write_text("# Home\n\nSee [the rules](docs/RULES.md) and ![a figure](figures/a.png).\n")
    (root / "docs" / "RULES.md").write_text("# Rules\n")
    (root / "docs" / "OLD.md").write_text("# An old page\n")
    (root / "figures" / "a.png").write_bytes(b"\x89PNG")
    return root


def _publishing(out: Path) -> None:
    """What a user adds to a built site to publish it (GitHub pages): a CNAME and a git database."""
    (out / "CNAME").write_text("cards.example.org\n")
    (out / ".git" / "objects").mkdir(parents=True)
    (out / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n")


def test_the_marker_lists_every_file_the_build_wrote(small_repo, tmp_path):
    out = tmp_path / "site"
    written = site.build(out, root=small_repo)
    lines = (out / site.MARKER).read_text().splitlines()
    assert lines[0].startswith("A site built by beggarstats tools/build_site.py")
    on_disk = {str(p.relative_to(out).as_posix()) for p in out.rglob("*") if p.is_file()} - {site.MARKER}
    assert set(lines[1:]) == on_disk == set(written) | {"figures/a.png"}


def test_a_rebuild_deletes_only_what_the_last_build_wrote(small_repo, tmp_path):
    out = tmp_path / "site"
    site.build(out, root=small_repo)
    assert (out / "docs" / "OLD.html").is_file()
    (small_repo / "docs" / "OLD.md").unlink()  # a page gone from the repository: gone from the site too
    (small_repo / "README.md").write_text("# Home\n\nSee [the rules](docs/RULES.md).\n")
    site.build(out, root=small_repo)
    assert not (out / "docs" / "OLD.html").exists() and not (out / "figures").exists()
    assert (out / "index.html").is_file() and (out / "docs" / "RULES.html").is_file()
    # a build cut short: its marker lists a file it never wrote; the next build goes on
    with open(out / site.MARKER, "a") as f:
        f.write("notebooks/never.html\n")
    site.build(out, root=small_repo)
    assert "notebooks/never.html" not in (out / site.MARKER).read_text()


def test_what_a_user_added_is_kept_and_named(small_repo, tmp_path, capsys):
    out = tmp_path / "site"
    site.build(out, root=small_repo)
    _publishing(out)
    (out / "docs" / "notes.txt").write_text("mine")  # inside a folder the build made
    before = _snapshot(out)
    with pytest.raises(site.SiteError) as info:
        site.build(out, root=small_repo)
    message = str(info.value)
    assert "\n" not in message and "nothing was deleted" in message
    assert "CNAME" in message and ".git/" in message and "docs/notes.txt" in message
    assert _snapshot(out) == before


@pytest.mark.parametrize("change", ["link", "fifo", "folder"])
def test_a_listed_file_that_is_no_longer_a_file_is_kept(small_repo, tmp_path, change):
    out = tmp_path / "site"
    site.build(out, root=small_repo)
    mine = tmp_path / "mine.html"
    mine.write_text("the user's page")
    target = out / "docs" / "RULES.html"
    target.unlink()
    if change == "link":  # deleting through the link would be the user's file
        target.symlink_to(mine)
    elif change == "fifo":
        os.mkfifo(target)
    else:
        target.mkdir()
        (target / "x").write_text("x")
    before = _snapshot(out)
    with pytest.raises(site.SiteError, match=r"docs/RULES\.html"):
        site.build(out, root=small_repo)
    assert _snapshot(out) == before and mine.read_text() == "the user's page"


def test_a_site_of_an_older_builder_is_not_emptied(small_repo, tmp_path):
    out = tmp_path / "site"
    site.build(out, root=small_repo)
    # the marker an older build_site.py wrote: no list, and it emptied the folder whole
    (out / site.MARKER).write_text("A site built by beggarstats tools/build_site.py: this folder is emptied by "
                                   "the next build.\n")
    before = _snapshot(out)
    with pytest.raises(site.SiteError, match="older build_site.py"):
        site.build(out, root=small_repo)
    assert _snapshot(out) == before


def test_a_marker_that_is_a_pipe_is_no_marker(small_repo, tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    os.mkfifo(out / site.MARKER)
    with pytest.raises(site.SiteError, match="not a site built here"):
        site.build(out, root=small_repo)


def test_the_default_build_site_keeps_a_cname_and_a_git(small_repo):
    """`python tools/build_site.py` with no --out: <repository>/build/site, twice."""
    (small_repo / "tools").mkdir()
    shutil.copy2(ROOT / "tools" / "build_site.py", small_repo / "tools" / "build_site.py")

    def run():
        return subprocess.run([sys.executable, str(small_repo / "tools" / "build_site.py")], capture_output=True,
                              text=True, cwd=small_repo.parent, timeout=120)

    first = run()
    out = small_repo / "build" / "site"
    assert first.returncode == 0 and (out / "index.html").is_file(), first.stderr
    assert run().returncode == 0  # its own site: rebuilt
    _publishing(out)
    before = _snapshot(out)
    again = run()
    assert again.returncode == 2 and again.stdout == ""
    assert again.stderr.count("\n") == 1 and "Traceback" not in again.stderr
    assert "CNAME" in again.stderr and ".git/" in again.stderr and "nothing was deleted" in again.stderr
    assert _snapshot(out) == before


def _finishes(call, seconds=60):
    """Run ``call`` in a thread: (finished in time, what it raised)."""
    raised = []

    def target():
        try:
            call()
        except BaseException as exc:  # noqa: BLE001 - handed back to the test
            raised.append(exc)

    t = threading.Thread(target=target, daemon=True)  # a read that waits for ever must not hold up the run
    t.start()
    t.join(seconds)
    return not t.is_alive(), raised[0] if raised else None


@pytest.mark.parametrize("which", ["notebooks/01_a.ipynb", "docs/RULES.md"])
def test_a_source_that_is_a_pipe_is_refused_not_read_for_ever(small_repo, tmp_path, which):
    path = small_repo / which
    path.parent.mkdir(exist_ok=True)
    if path.exists():
        path.unlink()
    os.mkfifo(path)
    done, raised = _finishes(lambda: site.build(tmp_path / "site", root=small_repo))
    assert done, "the build waited on a pipe"
    assert isinstance(raised, site.SiteError) and Path(which).name in str(raised)
    assert "not a regular file" in str(raised) and "\n" not in str(raised)
