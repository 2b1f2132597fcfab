"""The package's modules import one another without cycles (issue #14): data flows one way."""

import ast
import subprocess
import sys
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "beggarstats"


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


def test_the_summaries_can_be_imported_before_the_analysis():
    code = ("import beggarstats.summary_analysis as sa, beggarstats.analysis as an; "
            "print(an.tail_rate.__module__, sa.tail_rate.__module__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=PACKAGE.parent).stdout.split()
    assert out == ["beggarstats.analysis.tail", "beggarstats.summary_analysis"]
