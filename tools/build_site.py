"""Build the results site: the README, docs/, the findings table and the committed notebooks (with
their outputs, never re-executed) as static HTML that opens in any browser, offline.

    python tools/build_site.py --out build/site      # then open build/site/index.html

Markdown goes through mistune and the notebooks through nbconvert's HTML exporter (both installed
with the test extra; nothing is downloaded at build time, and the pages load nothing from outside
the site: the exporter's script tags that point at a CDN are dropped). Links between pages are
rewritten to the pages' HTML, and a link to any other file of the repository (a figure, a source
file, a CSV) copies that file into the site, so that no internal link is broken.
"""

from __future__ import annotations

import argparse
import contextlib
import html
import os
import posixpath
import re
import shutil
import stat
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["SiteError", "MARKER", "check_out", "build", "pages", "page_path", "slug", "provenance", "main"]

# What the site is made of (paths relative to the repository root); pages linked from these join.
SOURCES = ("README.md", "docs/*.md", "figures/findings.md", "notebooks/README.md", "notebooks/[0-9][0-9]_*.ipynb",
           "benchmarks/README.md")

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = ("<p class=\"bs-widget-note\"><em>A live panel is drawn here when the notebook runs in "
               "JupyterLab (<code>jupyter lab notebooks/</code>); the outputs below show what it displays for "
               "one choice.</em></p>")
# the button of a panel's picture runs the notebook in JupyterLab (report/explore_snapshot.py): not on a static page
_RUN_BUTTON = re.compile(r"\s*<button class='bs-run-all'[^>]*>.*?</button>", re.S)
_HREF = re.compile(r'(?P<attr>\b(?:href|src))="(?P<url>[^"]*)"')
_HEADING = re.compile(r"<h(?P<level>[1-6])>(?P<body>.*?)</h(?P=level)>", re.S)
_EXTERNAL_SCRIPT = re.compile(r'<script[^>]*\bsrc="(?:https?:)?//[^"]*"[^>]*>\s*</script>', re.I)
_SCRIPT = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*</script>", re.I | re.S)


# The file that says a folder holds a site this builder made, and lists every file the build wrote (one
# path a line, added before the file is written, so a build cut short lists what it may have left). A
# rebuild deletes those files only, and refuses while the folder holds anything else (a CNAME or a .git
# added for publishing, a user's work): --out never deletes what the builder did not write.
MARKER = ".beggarstats-site"
_MARKER_TEXT = ("A site built by beggarstats tools/build_site.py. The next build deletes the files listed below and "
                "refuses while this folder holds anything else.\n")


class SiteError(ValueError):
    """A site that cannot be built: the output folder refused, or a page that cannot be read."""


def _check_regular(path: Path, what: str) -> None:
    """Refuse a source that is not a regular file: a pipe (a FIFO at a notebook's name blocked the
    build for ever), a device or a folder is one line, never a read that waits."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise SiteError(f"{what} is missing ({path})") from None
    except OSError as exc:
        raise SiteError(f"{what} cannot be read ({exc.strerror}); restore it from git") from None
    if not stat.S_ISREG(mode):
        raise SiteError(f"{what} is not a regular file (a pipe, device or folder is never read); restore it from git")


def slug(text: str) -> str:
    """A heading's anchor as GitHub writes it: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"<[^>]+>", "", html.unescape(text)).strip().lower()
    return re.sub(r"\s", "-", re.sub(r"[^\w\- ]", "", text))


def page_path(source: str) -> str:
    """Where a source page lands in the site: README.md -> index.html, x.md / x.ipynb -> x.html."""
    if source == "README.md":
        return "index.html"
    return str(Path(source).with_suffix(".html"))


def _is_page(rel: str) -> bool:
    return rel.endswith((".md", ".ipynb"))


def pages(root: Path = ROOT) -> list[str]:
    """Every source page of the site (relative posix paths), the README first. A notebook whose
    percent-format source (notebooks/NN_x.py) has no .ipynb beside it is a `SiteError`, not a page
    silently missing."""
    for source in sorted(root.glob("notebooks/[0-9][0-9]_*.py")):
        if not source.with_suffix(".ipynb").exists():
            raise SiteError(f"the notebook notebooks/{source.stem}.ipynb is missing (its source {source.name} is "
                            f"there): pair it again with jupytext --sync, or restore it from git")
    found: list[str] = []
    for pattern in SOURCES:
        for path in sorted(root.glob(pattern)):
            rel = path.relative_to(root).as_posix()
            if rel not in found:
                found.append(rel)
    return found


def _markdown():
    import mistune

    return mistune.create_markdown(escape=False, plugins=["table", "strikethrough", "url"])


def _with_anchors(body: str) -> str:
    seen: dict[str, int] = {}

    def add(m):
        if " id=" in m.group(0)[:8]:
            return m.group(0)
        anchor = slug(m.group("body"))
        n = seen.get(anchor, 0)
        seen[anchor] = n + 1
        anchor = anchor if n == 0 else f"{anchor}-{n}"
        return f'<h{m.group("level")} id="{anchor}">{m.group("body")}</h{m.group("level")}>'

    return _HEADING.sub(add, body)


def _notebook_html(path: Path) -> str:
    import nbformat
    from nbconvert import HTMLExporter

    _check_regular(path, f"the notebook {path.name}")
    try:
        nb = nbformat.read(path, as_version=4)
    except FileNotFoundError:
        raise SiteError(f"the notebook {path.name} is missing ({path})") from None
    except Exception as exc:  # nbformat raises JSON, validation and OS errors alike for a damaged file
        raise SiteError(f"the notebook {path.name} cannot be read ({type(exc).__name__}: "
                        f"{str(exc).splitlines()[0] if str(exc) else 'damaged'}); restore it from git") from None
    # a live widget needs a kernel: a static page shows the panel's own picture where it would be (the
    # explorer's panels save one beside their widget), or says so, instead of an empty cell
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if WIDGET_VIEW in data:
                output["data"] = {"text/html": _RUN_BUTTON.sub("", data.get("text/html", "")) or WIDGET_NOTE}
    exporter = HTMLExporter(template_name="lab")
    try:
        body, _ = exporter.from_notebook_node(nb)
    except Exception as exc:  # a notebook that parses but whose cells are not a notebook's
        raise SiteError(f"the notebook {path.name} cannot be converted ({type(exc).__name__}: "
                        f"{str(exc).splitlines()[0] if str(exc) else 'damaged'}); restore it from git") from None
    # the exporter's head loads require.js, MathJax and the widget manager from a CDN: not in a site
    # that must open offline and link nowhere outside the repository
    body = _EXTERNAL_SCRIPT.sub("", body)
    return _SCRIPT.sub(lambda m: "" if re.search(r"(?:https?:)?//[a-z]", m.group(0), re.I) else m.group(0), body)


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 0; line-height: 1.5; color: #222; }
nav { background: #f4f4f4; border-bottom: 1px solid #ddd; padding: 0.5em 1em; font-size: 0.9em; }
nav a { margin-right: 0.9em; white-space: nowrap; }
main { max-width: 64em; margin: 0 auto; padding: 1em 1.5em 3em; }
pre { background: #f6f8fa; padding: 0.8em; overflow-x: auto; }
code { font-size: 0.92em; }
table { border-collapse: collapse; display: block; overflow-x: auto; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; }
img { max-width: 100%; }
footer { color: #666; font-size: 0.85em; border-top: 1px solid #ddd; padding: 1em 1.5em; }
"""


def _title(source: str, text: str) -> str:
    m = re.search(r"^#\s+(.+)$", text, re.M) if source.endswith(".md") else None
    return m.group(1).strip() if m else Path(source).stem.replace("_", " ")


def _shell(title: str, body: str, nav: str, version: str) -> str:
    return (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">"
            f"<link rel=\"icon\" href=\"data:,\">"
            f"<title>{html.escape(title)} - beggarstats</title><style>{_STYLE}</style></head>\n"
            f"<body><nav>{nav}</nav><main>\n{body}\n</main>"
            f"<footer>Built from {html.escape(version)} by tools/build_site.py; "
            f"the notebooks are shown with their committed outputs.</footer></body></html>\n")


def _nav(all_pages: list[str], here: str) -> str:
    names = {"README.md": "home"}
    links = []
    for source in all_pages:
        target = posixpath.relpath(page_path(source), posixpath.dirname(page_path(here)) or ".")
        label = names.get(source, Path(source).stem if source != "notebooks/README.md" else "notebooks")
        if source == "benchmarks/README.md":
            label = "benchmarks"
        links.append(f'<a href="{html.escape(target)}">{html.escape(label)}</a>')
    return " ".join(links)


def _notebook_page(shell_nav: str, body: str, built: str) -> str:
    """nbconvert's own document with the site's navigation bar first in its body and what it was
    built from last."""
    style = ("<style>nav.bs-site { padding: 0.5em 1em; background: #f4f4f4; font: 0.9em system-ui, sans-serif; }"
             " nav.bs-site a { margin-right: 0.9em; color: #0645ad; white-space: nowrap; }</style>")
    # an empty icon: no request for a favicon that the site does not have
    body = body.replace("</head>", f'<link rel="icon" href="data:,">{style}\n</head>', 1)
    body = re.sub(r"(<body[^>]*>)", lambda m: m.group(1) + f'<nav class="bs-site">{shell_nav}</nav>', body, count=1)
    return body.replace("</body>", f'<nav class="bs-site">{html.escape(built)}</nav>\n</body>', 1)


def _version(root: Path) -> str:
    m = re.search(r'^version\s*=\s*"([^"]+)"', (root / "pyproject.toml").read_text(), re.M)
    return m.group(1) if m else "?"


def provenance(root: Path = ROOT) -> str:
    """What the site was built from: package version, the rules version (`RULES_VERSION` of the
    repository's game/rules.py) and the commit when the repository is a git checkout."""
    parts = [f"beggarstats {_version(root)}"]
    rules = root / "beggarstats" / "game" / "rules.py"
    m = re.search(r"^RULES_VERSION = (\d+)", rules.read_text(), re.M) if rules.exists() else None
    if m:
        parts.append(f"RULES_VERSION {m.group(1)}")
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=10).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    if commit:
        parts.append(f"commit {commit}")
    return ", ".join(parts)


def _git(root: Path, *args: str) -> list[str] | None:
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.splitlines() if done.returncode == 0 else None


def check_out(out, root: Path = ROOT) -> Path:
    """``out`` resolved, once it is a folder the site may be written into: one that does not exist, an
    empty folder, or one holding only the files of a site this builder made (listed by its `MARKER`
    file), and never the repository, a folder above it, its git database or a folder holding tracked
    files. Raises `SiteError` (one line, naming what else the folder holds) for anything else."""
    given = str(out)
    if not given.strip():
        raise SiteError("--out is empty: pass the folder to write the site into")
    out, root = Path(out).absolute(), Path(root).resolve()
    if os.path.islink(out):
        raise SiteError(f"--out {given} is a symbolic link: pass the folder itself")
    out = out.resolve()
    if out == root or root.is_relative_to(out):
        raise SiteError(f"--out {given} would empty the repository; choose a folder of its own")
    if ".git" in out.parts:
        raise SiteError(f"--out {given} is inside a git database; choose a folder of its own")
    common = _git(root, "rev-parse", "--path-format=absolute", "--git-common-dir")
    if common and (out == Path(common[0]).resolve() or out.is_relative_to(Path(common[0]).resolve())):
        raise SiteError(f"--out {given} is inside the repository's git database; choose a folder of its own")
    if out.is_relative_to(root):
        tracked = [Path(f) for f in _git(root, "ls-files") or []]
        held = {d for f in tracked for d in (f, *f.parents)} - {Path(".")}
        rel = out.relative_to(root)
        for folder in (*reversed(rel.parents), rel):
            if folder in held:
                raise SiteError(f"--out {given} is inside {folder}, which holds the repository's tracked files; "
                                f"choose an untracked folder such as build/site")
    if os.path.lexists(out):
        if not out.is_dir():
            raise SiteError(f"--out {given} is not a folder; pass a folder (it is created when missing)")
        try:
            entries = os.listdir(out)
            listed = _listed(out)
            foreign = [] if listed is None else _foreign(out, listed)
        except OSError as exc:
            raise SiteError(f"--out {given} cannot be read ({exc.strerror}); pass another folder") from None
        if entries and listed is None:
            raise SiteError(f"--out {given} holds files that are not a site built here ({len(entries)} entries, no "
                            f"{MARKER} file); pass an empty or new folder, nothing was deleted")
        if foreign:
            older = "" if listed else (f" (its {MARKER} lists no files: an older build_site.py made it; empty the "
                                       f"folder yourself to build there)")
            names = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more" if len(foreign) > 5 else "")
            raise SiteError(f"--out {given} holds what the previous build did not write: {names}{older}; move it out "
                            f"or pass another folder, nothing was deleted")
    return out


_MAX_MARKER_BYTES = 2**22  # one line per file of the site: a few kilobytes


def _listed(out: Path) -> set[str] | None:
    """The files the previous build wrote into ``out``, as its `MARKER` lists them (relative posix
    paths), or None when ``out`` has no marker of this builder (a missing one, or a pipe, a folder or
    another file at its name)."""
    marker = out / MARKER
    try:
        info = os.lstat(marker)
    except FileNotFoundError:
        return None
    if not stat.S_ISREG(info.st_mode) or info.st_size > _MAX_MARKER_BYTES:
        return None
    lines = marker.read_bytes().decode("utf-8", "replace").splitlines()
    if not lines or not lines[0].startswith("A site built by beggarstats tools/build_site.py"):
        return None
    return {line for line in lines[1:] if line and line != MARKER}


def _foreign(out: Path, listed: set[str]) -> list[str]:
    """What ``out`` holds that the previous build did not write (relative paths, a folder with a
    trailing /): a file, link, pipe or other entry not listed as a regular file, and a folder that
    holds no listed file, named once as a whole."""
    folders = {str(parent.as_posix()) for rel in listed for parent in Path(rel).parents} - {"."}
    found: list[str] = []

    def walk(folder: Path, rel: str) -> None:
        for entry in sorted(os.scandir(folder), key=lambda e: e.name):
            name = f"{rel}/{entry.name}" if rel else entry.name
            if not rel and entry.name == MARKER:
                continue
            if entry.is_dir(follow_symlinks=False):
                if name in folders:
                    walk(Path(entry.path), name)
                else:
                    found.append(name + "/")
            elif name not in listed or not entry.is_file(follow_symlinks=False):
                found.append(name)

    walk(out, "")
    return found


def _clear_previous(out: Path, listed: set[str]) -> None:
    """Delete the files of ``listed`` (the previous build's, checked by `check_out` to be all that
    ``out`` holds) and the folders they leave empty; ``out`` itself stays."""
    for rel in sorted(listed):
        path = out / rel
        if os.path.isfile(path) and not os.path.islink(path):
            os.unlink(path)
    folders = {parent for rel in listed for parent in Path(rel).parents} - {Path(".")}
    for folder in sorted(folders, key=lambda f: len(f.parts), reverse=True):
        with contextlib.suppress(OSError):  # a folder not empty (or gone) stays as it is
            os.rmdir(out / folder)


class _Record:
    """The marker of the build under way: each file's path is added before the file is written."""

    def __init__(self, out: Path):
        self.path = out / MARKER
        self.path.write_text(_MARKER_TEXT, encoding="utf-8")

    def write(self, rel: str, text: str | None = None, source: Path | None = None) -> None:
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(rel + "\n")
        (self.path.parent / rel).parent.mkdir(parents=True, exist_ok=True)
        if source is not None:
            shutil.copy2(source, self.path.parent / rel)
        else:
            (self.path.parent / rel).write_text(text, encoding="utf-8")


def build(out: Path, root: Path = ROOT) -> list[str]:
    """Write the site into ``out`` (a new or empty folder, or one holding only a site built here, whose
    files are deleted first; see `check_out`); returns the pages written, relative to ``out``."""
    out = check_out(out, root)
    if out.exists():
        _clear_previous(out, _listed(out) or set())
    out.mkdir(parents=True, exist_ok=True)
    record = _Record(out)  # first: a build cut short lists what it wrote, and can be rebuilt
    version = provenance(root)
    todo, done, written, copied = list(pages(root)), set(), [], set()
    render = _markdown()
    while todo:
        source = todo.pop(0)
        if source in done:
            continue
        done.add(source)
        path = root / source
        here = posixpath.dirname(source)
        target = page_path(source)

        def relink(m):
            url = m.group("url")
            if not url or re.match(r"^[a-z][a-z0-9+.-]*:", url, re.I) or url.startswith(("#", "//")):
                return m.group(0)
            link, _, fragment = url.partition("#")
            rel = posixpath.normpath(posixpath.join(here, link))
            if (root / rel).is_dir() and (root / rel / "README.md").exists():
                rel = posixpath.join(rel, "README.md")
            if rel.endswith(".ipynb") and not rel.startswith("..") and not (root / rel).exists():
                raise SiteError(f"the notebook {rel} linked from {source} is missing; restore it or drop the link")
            if not (root / rel).exists() or rel.startswith(".."):
                return m.group(0)  # left as it is: the site check reports it as broken
            if _is_page(rel):
                if rel not in done and rel not in todo:
                    todo.append(rel)
                dest = page_path(rel)
            else:
                dest = rel
                if rel not in copied and (root / rel).is_file():
                    record.write(rel, source=root / rel)
                    copied.add(rel)
            new = posixpath.relpath(dest, posixpath.dirname(target) or ".")
            return f'{m.group("attr")}="{html.escape(new)}{"#" + fragment if fragment else ""}"'

        nav = _nav([p for p in pages(root)], source)
        if source.endswith(".ipynb"):
            document = _notebook_page(nav, _HREF.sub(relink, _notebook_html(path)),
                                      f"Built from {version} by tools/build_site.py, with the notebook's committed "
                                      f"outputs (not re-executed).")
        else:
            _check_regular(path, f"the page {source}")
            try:
                text = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                raise SiteError(f"the page {source} is not UTF-8 text; restore it from git") from None
            body = _with_anchors(_HREF.sub(relink, render(text)))
            document = _shell(_title(source, text), body, nav, version)
        record.write(target, document)
        written.append(target)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", default=str(ROOT / "build" / "site"),
                    help="a new or empty folder, or one holding only a site built here (its files are replaced; "
                         "anything else there stops the build); never a folder of the repository's tracked files "
                         "(default: build/site)")
    args = ap.parse_args(argv)
    try:
        written = build(args.out)
    except SiteError as exc:
        print(f"build_site: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"build_site: cannot write the site into {args.out} ({exc.strerror or exc}); pass another folder",
              file=sys.stderr)
        return 2
    print(f"{len(written)} pages written to {args.out} (open {Path(args.out) / 'index.html'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
