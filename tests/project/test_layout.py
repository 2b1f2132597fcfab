"""The package's modules import one another without cycles (issue #14): data flows one way."""

import ast
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
