"""The package ships type information (issue #41 item 5): ``py.typed``, hints on every exported
function and class, checked by mypy on a user's typed script (tests/data/typed_usage.py) with the
configuration of pyproject.toml's ``[tool.mypy]``."""

from __future__ import annotations

import ast
import inspect
import os
import subprocess
import sys
from pathlib import Path

import beggarstats as bs

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "beggarstats"
USAGE = ROOT / "tests" / "data" / "typed_usage.py"


def _mypy(files, cwd: Path, cache: Path, mypypath: Path = ROOT) -> subprocess.CompletedProcess:
    """``python -m mypy`` with the project's configuration; the package is found on MYPYPATH (an
    editable install's import hook is invisible to mypy) and the cache goes to ``cache``."""
    env = {**os.environ, "MYPYPATH": str(mypypath)}
    return subprocess.run([sys.executable, "-m", "mypy", "--config-file", str(ROOT / "pyproject.toml"),
                           "--cache-dir", str(cache), "--no-error-summary", *map(str, files)],
                          cwd=cwd, env=env, capture_output=True, text=True, timeout=300)


def test_py_typed_ships_with_the_package():
    assert (PACKAGE / "py.typed").is_file()
    assert '"py.typed"' in (ROOT / "pyproject.toml").read_text()


def test_mypy_accepts_the_typed_usage_script():
    # mypy's own cache in the clone (.mypy_cache, where `mypy` run by hand keeps it; git ignores it):
    # it checks every source's hash against the cache, so a cached run says what a fresh one says,
    # in 0.2 s instead of 5.4 s
    out = _mypy([USAGE], ROOT, ROOT / ".mypy_cache")
    assert out.returncode == 0, out.stdout + out.stderr


def test_the_configuration_refuses_untyped_functions(tmp_path):
    """The same settings fail a script that calls a function without hints, or whose ignore is not
    needed because a parameter has no hint: what tests/data/typed_usage.py relies on."""
    (tmp_path / "lib.py").write_text("def untyped(x):\n    return x\n\n\ndef half(x, y: int) -> int:\n    return y\n")
    (tmp_path / "typed_usage.py").write_text("from lib import half, untyped\n\nuntyped(1)\n"
                                             "half('1', 2)  # type: ignore[arg-type]\n")
    out = _mypy([tmp_path / "typed_usage.py"], tmp_path, tmp_path / "cache", mypypath=tmp_path)
    assert out.returncode == 1
    assert "Call to untyped function \"untyped\"" in out.stdout, out.stdout
    assert "Unused \"type: ignore\" comment" in out.stdout, out.stdout


def _unhinted(name: str, func) -> list[str]:
    sig = inspect.signature(func)
    out = [f"{name}({p})" for p, param in sig.parameters.items()
           if p not in ("self", "cls") and param.annotation is inspect.Parameter.empty]
    return out + ([f"{name} return"] if sig.return_annotation is inspect.Signature.empty else [])


def _methods(cls):
    """The methods, properties and class methods written in ``cls``'s own source (not those a
    dataclass generates), public ones and the operators."""
    for key, value in vars(cls).items():
        if key.startswith("_") and key not in ("__init__", "__post_init__", "__add__", "__radd__", "__eq__"):
            continue
        func = value.__func__ if isinstance(value, (classmethod, staticmethod)) else \
            value.fget if isinstance(value, property) else value
        code = getattr(func, "__code__", None)
        if code is not None and Path(code.co_filename).is_relative_to(PACKAGE):
            yield f"{cls.__name__}.{key}", func


def test_every_exported_function_and_class_has_hints():
    """Every parameter and return of the functions in ``bs.__all__``, of the methods of its classes
    and of the classes its functions return (a `Store`, `PairedMoments`, a chain)."""
    from beggarstats.analysis.chain import TailChain
    from beggarstats.analysis.chain_cards import CardsChain
    from beggarstats.run.compare import PairedMoments
    from beggarstats.run.store import Store

    missing, classes, functions = [], [TailChain, CardsChain, PairedMoments, Store], 0
    for name in bs.__all__:
        obj = getattr(bs, name)
        if inspect.isclass(obj):
            classes.append(obj)
        elif inspect.isfunction(obj):
            functions += 1
            missing += _unhinted(name, obj)
    for cls in classes:
        for name, func in _methods(cls):
            missing += _unhinted(name, func)
    assert functions >= 20 and len(classes) >= 10
    assert missing == [], missing


def test_type_checkers_see_every_lazily_loaded_name():
    """``bs.__getattr__`` loads the exported names on first use; type checkers read the
    ``if TYPE_CHECKING:`` imports of beggarstats/__init__.py instead, which must name the same."""
    tree = ast.parse((PACKAGE / "__init__.py").read_text())
    block = next(node for node in tree.body if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING")
    seen = {}
    for node in block.body:
        assert isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names:
            assert alias.asname == alias.name  # `x as x`: re-exported to a type checker
            seen[alias.name] = (f".{node.module}", alias.name) if node.module else (f".{alias.name}", None)
    assert seen == bs._LAZY
