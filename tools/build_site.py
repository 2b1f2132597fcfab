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
import html
import posixpath
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

__all__ = ["build", "pages", "page_path", "slug", "provenance", "main"]

# What the site is made of (paths relative to the repository root); pages linked from these join.
SOURCES = ("README.md", "docs/*.md", "figures/findings.md", "notebooks/README.md", "notebooks/[0-9][0-9]_*.ipynb",
           "benchmarks/README.md")

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_NOTE = ("<p class=\"bs-widget-note\"><em>A live panel is drawn here when the notebook runs in "
               "JupyterLab (<code>jupyter lab notebooks/</code>); the outputs below show what it displays for "
               "one choice.</em></p>")
_HREF = re.compile(r'(?P<attr>\b(?:href|src))="(?P<url>[^"]*)"')
_HEADING = re.compile(r"<h(?P<level>[1-6])>(?P<body>.*?)</h(?P=level)>", re.S)
_EXTERNAL_SCRIPT = re.compile(r'<script[^>]*\bsrc="(?:https?:)?//[^"]*"[^>]*>\s*</script>', re.I)
_SCRIPT = re.compile(r"<script\b[^>]*>(?:(?!</script>).)*</script>", re.I | re.S)


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
    """Every source page of the site (relative posix paths), the README first."""
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

    nb = nbformat.read(path, as_version=4)
    # a live widget needs a kernel: a static page says so where it would be, instead of an empty cell
    nb.metadata.pop("widgets", None)
    for cell in nb.cells:
        for output in cell.get("outputs", []):
            if WIDGET_VIEW in output.get("data", {}):
                output["data"] = {"text/html": WIDGET_NOTE}
    exporter = HTMLExporter(template_name="lab")
    body, _ = exporter.from_notebook_node(nb)
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


def build(out: Path, root: Path = ROOT) -> list[str]:
    """Write the site into ``out`` (emptied first); returns the pages written, relative to ``out``."""
    out = Path(out)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
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
            if not (root / rel).exists() or rel.startswith(".."):
                return m.group(0)  # left as it is: the site check reports it as broken
            if _is_page(rel):
                if rel not in done and rel not in todo:
                    todo.append(rel)
                dest = page_path(rel)
            else:
                dest = rel
                if rel not in copied and (root / rel).is_file():
                    (out / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy2(root / rel, out / rel)
                    copied.add(rel)
            new = posixpath.relpath(dest, posixpath.dirname(target) or ".")
            return f'{m.group("attr")}="{html.escape(new)}{"#" + fragment if fragment else ""}"'

        nav = _nav([p for p in pages(root)], source)
        if source.endswith(".ipynb"):
            document = _notebook_page(nav, _HREF.sub(relink, _notebook_html(path)),
                                      f"Built from {version} by tools/build_site.py, with the notebook's committed "
                                      f"outputs (not re-executed).")
        else:
            text = path.read_text(encoding="utf-8")
            body = _with_anchors(_HREF.sub(relink, render(text)))
            document = _shell(_title(source, text), body, nav, version)
        (out / target).parent.mkdir(parents=True, exist_ok=True)
        (out / target).write_text(document, encoding="utf-8")
        written.append(target)
    return written


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "build" / "site",
                    help="folder to write the site into, emptied first (default: build/site)")
    args = ap.parse_args(argv)
    if args.out.resolve() == ROOT or ROOT.is_relative_to(args.out.resolve()):
        print(f"build_site: --out {args.out} would empty the repository; choose a folder of its own", file=sys.stderr)
        return 2
    written = build(args.out)
    print(f"{len(written)} pages written to {args.out} (open {args.out / 'index.html'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
