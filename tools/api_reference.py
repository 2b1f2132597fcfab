"""Write docs/api.md, the API reference, from the docstrings: every exported name of `beggarstats`
(and of `bs.analysis` and `bs.plots`), its signature and the first paragraph of its docstring.

The site (tools/build_site.py) builds every page of docs/, so the reference is a page of it, one
name a heading (each with its anchor, found by the browser's search on one page); tests/docs/test_api_reference.py
fails when the committed page is not what this writes.

Usage::

    python tools/api_reference.py [--check]
"""

from __future__ import annotations

import argparse
import ast
import inspect
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "api.md"


def _first_paragraph(obj) -> str:
    doc = inspect.getdoc(obj) or ""
    return " ".join(doc.split("\n\n", 1)[0].split()) or "(no docstring)"


def _signature(name: str, obj) -> str:
    if inspect.ismodule(obj):
        return f"bs.{name}"
    try:
        sig = str(inspect.signature(obj))
    except (TypeError, ValueError):
        sig = ""
    kind = "class " if inspect.isclass(obj) else ""
    return f"{kind}bs.{name}{sig}" if callable(obj) else f"bs.{name}: {type(obj).__name__}"


def _entries(prefix: str, module) -> list[str]:
    out = []
    for name in module.__all__:
        obj = getattr(module, name)
        full = f"{prefix}{name}"
        out += [f"### `bs.{full}`", "", "```python", _signature(full, obj), "```", "", _first_paragraph(obj), ""]
    return out


def _aliases() -> str:
    """The type aliases the signatures name, as beggarstats/game/hints.py spells them."""
    tree = ast.parse((ROOT / "beggarstats" / "game" / "hints.py").read_text(encoding="utf-8"))
    pairs = [f"`{node.target.id}` = `{ast.unparse(node.value)}`" for node in tree.body
             if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)]
    return ("The hints name these aliases of `beggarstats.game.hints` (read by type checkers only; the package "
            "ships `py.typed`): " + "; ".join(pairs) + ".")


def reference() -> str:
    """The text of docs/api.md."""
    sys.path.insert(0, str(ROOT))
    import beggarstats as bs

    lines = ["# API reference", "",
             "Generated from the docstrings by `tools/api_reference.py` (do not edit): every name of "
             "`import beggarstats as bs`, then those of `bs.analysis` and `bs.plots`, each with its signature "
             "and the first paragraph of its docstring (the whole docstring: `help(bs.name)`).", "",
             _aliases(), "",
             "## `beggarstats`", ""]
    lines += _entries("", bs)
    for sub in ("analysis", "plots"):
        lines += [f"## `bs.{sub}`", ""] + _entries(f"{sub}.", getattr(bs, sub))
    return "\n".join(lines).rstrip() + "\n"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Write docs/api.md from the docstrings.")
    parser.add_argument("--check", action="store_true", help="only check that docs/api.md is up to date")
    args = parser.parse_args(argv)
    text = reference()
    if args.check:
        same = OUT.exists() and OUT.read_text(encoding="utf-8") == text
        print("docs/api.md is up to date" if same else "docs/api.md is out of date: run tools/api_reference.py")
        return 0 if same else 1
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
