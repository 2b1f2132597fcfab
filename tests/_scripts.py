"""The repository's scripts (benchmarks/, tools/, data/, tests/data/) loaded as modules for the
tests that call their functions: a script is a file, not a package module, so it is loaded from its
path."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def load_script(path):
    """The module of the script at ``path`` (absolute, or relative to the repository's root)."""
    path = ROOT / path
    spec = importlib.util.spec_from_file_location(path.stem, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
