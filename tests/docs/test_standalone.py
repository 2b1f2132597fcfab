"""The repository stands alone: no tracked text file links to or names a path outside it.

A clone must hold everything its docs, tests, benchmarks and notebooks refer to: the rules contract
is docs/RULES.md and the speed anchor is benchmarks/c/bmn.c, both inside the repository.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BINARY = {".png", ".jpg", ".jpeg", ".gif", ".parquet", ".pdf", ".pyc", ".nbc", ".nbi", ".so", ".gz", ".zip"}
SKIP_DIRS = {".git", "__pycache__", ".pytest_cache", ".ipynb_checkpoints", "build", "dist"}

# Written in pieces so that this file does not match itself.
OUTSIDE = [
    re.escape(".." + "/shared"),              # the sibling directory the project once read
    re.escape("shared" + "/bench"),
    re.escape("BEGGARSTATS" + "_SHARED"),     # the variable that pointed there
    r"\b" + "SP" + r"EC(\.md)?\b",            # the outside rules text (docs/RULES.md replaces it)
    re.escape("/wo" + "rk/"),                 # absolute paths of a working machine
]
PATTERN = re.compile("|".join(f"(?:{p})" for p in OUTSIDE))


def tracked_text_files() -> list[Path]:
    """The repository's tracked files (every file but caches when git is not at hand), text only."""
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True,
                               text=True).stdout.split("\0")
        files = [ROOT / n for n in names if n]
    except (OSError, subprocess.CalledProcessError):
        files = [p for p in ROOT.rglob("*") if p.is_file() and not SKIP_DIRS & set(p.relative_to(ROOT).parts)]
    return [p for p in files if p.suffix.lower() not in BINARY and p.is_file() and not p.is_symlink()]


def test_the_scan_sees_the_repository():
    files = {p.relative_to(ROOT).as_posix() for p in tracked_text_files()}
    for must in ("README.md", "docs/RULES.md", "benchmarks/README.md", "benchmarks/c/bmn.c",
                 "benchmarks/throughput.py", "tests/docs/test_standalone.py", "beggarstats/game/rules.py"):
        assert must in files
    assert any(f.startswith("notebooks/") and f.endswith(".ipynb") for f in files)


def test_the_patterns_catch_outside_references():
    for text in ("see " + ".." + "/shared/SP" + "EC.md", "`" + "shared" + "/bench/x.c`",
                 "$BEGGARSTATS" + "_SHARED", "(SP" + "EC 5)", "/wo" + "rk/wt/main"):
        assert PATTERN.search(text), text
    for text in ("docs/RULES.md", "specification", "spec", "shared deals are paired"):
        assert not PATTERN.search(text), text


def test_no_file_names_a_path_outside_the_repository():
    hits = []
    for path in tracked_text_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), start=1):
            if PATTERN.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert not hits, "references to paths outside the repository:\n" + "\n".join(hits)


LINK = re.compile(r"\]\(([^)\s]+)\)")


def test_no_markdown_link_leaves_the_repository():
    """Relative links in markdown and notebooks resolve to a place inside the repository."""
    hits = []
    for path in tracked_text_files():
        if path.suffix not in {".md", ".ipynb"}:
            continue
        for target in LINK.findall(path.read_text(encoding="utf-8")):
            if re.match(r"[a-z][a-z0-9+.-]*:|#", target):   # a URL or an anchor
                continue
            where = (path.parent / target.split("#")[0]).resolve()
            if ROOT.resolve() not in (where, *where.parents):
                hits.append(f"{path.relative_to(ROOT)}: {target}")
    assert not hits, "links out of the repository:\n" + "\n".join(hits)
