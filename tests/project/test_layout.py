"""The package's modules import one another without cycles (issue #14): data flows one way; the tests
mirror the layers, one folder each (issue #53 item 6)."""

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "beggarstats"


def _imports() -> dict[str, set[str]]:
    """Every relative import of every module (at any depth: a function-level import counts too)."""
    modules = {}
    for path in PACKAGE.rglob("*.py"):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        package = parts[:-1]
        if path.name == "__init__.py":
            parts = package
        deps = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[:len(package) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                deps |= {f"{target}.{a.name}" for a in node.names} if node.module is None else {target}
        modules[".".join(parts)] = deps
    return modules


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index, low, stack, on, found = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in list(graph):
        if v not in index:
            visit(v)
    return found


def _module_graph():
    modules = _imports()

    def owner(name):  # `from .x import y` names the module x (or x.y when y is a module)
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name

    return {m: {owner(d) for d in deps if owner(d) and owner(d) != m} for m, deps in modules.items()}


def test_no_module_imports_itself_through_others():
    assert _cycles(_module_graph()) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _cycles({"a": {"b"}, "b": set()}) == []


@pytest.mark.slow  # a fresh interpreter importing the analysis (about 3 s of CPU): the full suite
def test_the_summaries_can_be_imported_before_the_analysis():
    code = ("import beggarstats.analysis.summaries as sa, beggarstats.analysis as an; "
            "print(an.tail_rate.__module__, sa.tail_rate.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent).stdout.split()
    assert out == ["beggarstats.analysis.tail", "beggarstats.analysis.summaries"]


LAYERS = ("game", "engine", "run", "analysis", "plots", "report", "cli")


def _layer(module: str) -> int | None:
    """The layer of ``beggarstats.<layer>...`` (None for the package itself and __main__)."""
    parts = module.split(".")
    return LAYERS.index(parts[1]) if len(parts) > 1 and parts[1] in LAYERS else None


def test_every_module_lives_in_a_layer():
    loose = [m for m in _imports() if _layer(m) is None and m not in ("beggarstats", "beggarstats.__main__")]
    assert loose == []


def test_imports_go_one_way_through_the_layers():
    """game -> engine -> run -> analysis -> plots -> report -> cli: a module imports only its own
    layer and the ones before it."""
    upward = [(m, d) for m, deps in _module_graph().items() for d in deps
              if _layer(m) is not None and _layer(d) is not None and _layer(d) > _layer(m)]
    assert upward == []


def test_the_layer_check_sees_an_upward_import():
    graph = {"beggarstats.engine.x": {"beggarstats.run.y"}, "beggarstats.run.y": {"beggarstats.game.z"}}
    upward = [(m, d) for m, deps in graph.items() for d in deps if _layer(d) > _layer(m)]
    assert upward == [("beggarstats.engine.x", "beggarstats.run.y")]


def test_the_public_functions_are_not_shadowed_by_modules():
    code = ("import beggarstats as bs, beggarstats.run.simulate, beggarstats.run.play; "
            "print(callable(bs.simulate), callable(bs.play), callable(bs.replay))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent).stdout.split()
    assert out == ["True", "True", "True"]


def _private_imports() -> set[tuple[str, str]]:
    """(module, name) for every ``from .x import _name`` of the package, aliases of one's own
    (``import install as _install``) aside."""
    found = set()
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                found |= {(module, a.name) for a in node.names if a.name.startswith("_") and not a.name.startswith("__")}
    return found


def _module_names(path: Path, modules: set[str]) -> dict[str, str]:
    """The names a module binds to other modules of the package (``from . import fast``,
    ``from ..engine import gpu``, ``import beggarstats.engine.gpu as gpu``) -> the module's dotted name."""
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    package = parts[:-1]
    bound = {}
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.level:
            base = package[:len(package) - (node.level - 1)]
            target = ".".join(base + ([node.module] if node.module else []))
            for a in node.names:
                if f"{target}.{a.name}" in modules:
                    bound[a.asname or a.name] = f"{target}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.name in modules and a.asname:
                    bound[a.asname] = a.name
    return bound


def _private_attributes() -> set[tuple[str, str]]:
    """(module, 'other._name') for every private name of another module of the package read as an
    attribute of it (``fast._fast_pass``), which `_private_imports` does not see."""
    modules = set(_imports())
    found = set()
    for path in PACKAGE.rglob("*.py"):
        module = ".".join(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        bound = _module_names(path, modules)
        for node in ast.walk(ast.parse(path.read_text())):
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in bound
                    and node.attr.startswith("_") and not node.attr.startswith("__")
                    and bound[node.value.id] != module):
                found.add((module, f"{node.value.id}.{node.attr}"))
    return found


def test_no_private_name_of_another_module_is_read_as_an_attribute():
    """The same rule for ``module._name``: `engine.gpu` called ``fast._fast_pass`` (issue #53), now the
    public `fast.fast_pass`."""
    assert _private_attributes() == set(), sorted(_private_attributes())


def test_the_attribute_check_sees_a_private_name(tmp_path, monkeypatch):
    """The check above is not vacuous: a module reading another's private name is found."""
    fake = tmp_path / "beggarstats"
    (fake / "engine").mkdir(parents=True)
    (fake / "__init__.py").write_text("")
    (fake / "engine" / "__init__.py").write_text("")
    (fake / "engine" / "fast.py").write_text("def _fast_pass():\n    pass\n")
    (fake / "engine" / "gpu.py").write_text("from . import fast\n\n\ndef f():\n    return fast._fast_pass()\n")
    monkeypatch.setattr(sys.modules[__name__], "PACKAGE", fake)
    assert _private_attributes() == {("beggarstats.engine.gpu", "fast._fast_pass")}


def test_no_private_name_crosses_a_module():
    """A leading underscore means "this module only": `store._looks_whole`,
    `matches._check_max_rounds`, `simulate._batch_engine` and `reference._Game` were imported
    elsewhere; they are public now (`reference.trick_states` plays what cycles needed of `_Game`)."""
    assert _private_imports() == set(), sorted(_private_imports())


# A module does one job (issue #53 item 5: run/summary.py was 743 lines, report/figures.py 718 and
# report/explore.py 697, each doing several): none grows past this many lines before it is cut.
MAX_LINES = 600


def _long_modules(package: Path) -> dict[str, int]:
    """The modules of ``package`` over `MAX_LINES` lines, with their length."""
    lengths = {p.relative_to(package.parent).as_posix(): len(p.read_text().splitlines())
               for p in package.rglob("*.py")}
    return {name: n for name, n in lengths.items() if n > MAX_LINES}


def test_no_module_is_over_600_lines():
    assert _long_modules(PACKAGE) == {}


def test_the_length_check_sees_a_long_module(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "short.py").write_text("x = 1\n" * MAX_LINES)
    (tmp_path / "pkg" / "long.py").write_text("x = 1\n" * (MAX_LINES + 1))
    assert _long_modules(tmp_path / "pkg") == {"pkg/long.py": MAX_LINES + 1}


# The tests mirror the package (issue #53 item 6): one folder per layer, named as the layer, and a few
# folders for what spans layers. tests/ itself holds only conftest.py and the helper modules (_*.py),
# tests/data/ only data and the scripts that write it.
TESTS = Path(__file__).resolve().parents[1]
CROSS_CUTTING = {
    "faults": "bad input, damaged files and fuzzing, through every layer",
    "docs": "the README and docs/ held to the code",
    "project": "the package as a whole: layering, imports, typing, signatures, the suite's machinery",
    "scripts": "the scripts of benchmarks/ and tools/",
    "gpu": "the CUDA path under numba's simulator, in a pytest of its own (engine/test_gpu_isolated.py)",
}
TEST_FOLDERS = set(LAYERS) | set(CROSS_CUTTING)


def _test_files(tests: Path) -> list[Path]:
    """Every file pytest collects as a test module (its default patterns) under ``tests``."""
    return sorted(p for pattern in ("test_*.py", "*_test.py") for p in tests.rglob(pattern))


def _misplaced(tests: Path) -> list[str]:
    """Test files outside the agreed folders (at the top of tests/, in tests/data/, in a folder of
    their own or one level too deep), and test files sharing a name: pytest's default import mode,
    with no __init__.py, imports each by its name alone."""
    files = _test_files(tests)
    wrong = [p.relative_to(tests).as_posix() for p in files
             if len(p.relative_to(tests).parts) != 2 or p.parent.name not in TEST_FOLDERS]
    names = [p.name for p in files]
    return wrong + sorted({f"{n} (twice)" for n in names if names.count(n) > 1})


def test_every_test_file_sits_in_a_folder_of_its_layer_or_a_cross_cutting_one():
    assert _misplaced(TESTS) == []


def test_every_layer_of_the_package_has_its_test_folder():
    assert {p.name for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()} == set(LAYERS)
    assert [layer for layer in LAYERS if not _test_files(TESTS / layer)] == []


def test_the_folder_check_sees_a_misplaced_test_file(tmp_path):
    """The check above is not vacuous: a test file at the top of tests/, one in tests/data/, one in a
    folder of its own and a name used twice are each found; conftest.py and the helpers are not."""
    for name in ("conftest.py", "_frames.py", "engine/test_fast.py", "data/golden/regenerate.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert _misplaced(tmp_path) == []
    for name in ("test_loose.py", "data/test_data.py", "misc/test_misc.py", "engine/deep/test_deep.py",
                 "run/test_fast.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert _misplaced(tmp_path) == ["data/test_data.py", "engine/deep/test_deep.py", "misc/test_misc.py",
                                    "test_loose.py", "test_fast.py (twice)"]


TEST_PATH = re.compile(r"\btests/(?:[a-z_]+/)*test_[a-z0-9_]+\.py\b")
TEXT = {".py", ".md", ".toml", ".ipynb", ".c", ".cff", ".txt", ".yml", ".yaml", ".cfg", ".ini", ""}


def _named_test_files() -> dict[str, set[str]]:
    """Every test file a tracked text file names by its path from the repository's root -> those files."""
    root = TESTS.parent
    try:
        names = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, check=True,
                               text=True).stdout.split("\0")
    except (OSError, subprocess.CalledProcessError):  # an unpacked archive: every file but the hidden ones'
        names = [p.relative_to(root).as_posix() for p in root.rglob("*")
                 if not any(part.startswith(".") and part != ".ci" for part in p.relative_to(root).parts)]
    named: dict[str, set[str]] = {}
    for name in filter(None, names):
        path = root / name
        if path.suffix in TEXT and path.is_file() and not path.is_symlink():
            for found in TEST_PATH.findall(path.read_text(errors="replace")):
                named.setdefault(found, set()).add(name)
    return named


def test_every_test_file_the_repository_names_exists():
    """A test file moved or renamed leaves no path to it behind (README, docs, comments, notebooks)."""
    named = _named_test_files()
    assert "tests/project/test_layout.py" in named  # this file names itself: the scan sees the repository
    gone = {path: sorted(where) for path, where in named.items() if not (TESTS.parent / path).is_file()}
    assert gone == {}
