"""docs/DESIGN.md's rule table names every place a rule is applied and a card is moved, fast passes included.

The table's last column ("applied in") must be exactly the functions of `beggarstats/engine/` that
call a kernel of the row, read from the source (so a new call, or a call dropped when a pass
restates a rule, fails here until the table says so); places that apply a rule with code of their
own are listed after "own code:" and must exist without calling the row's kernels. And the card
moves are written once: the fast passes (`kernel_two`, `kernel_multi`) and the exact driver's
bit-plane primitives (`hands_bits.play_top`, ...) call the moves of `hands_bits.py`; none of them
shifts or XORs plane words itself, which is what restating a move takes.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from _rule_table import code_names, rule_rows

ROOT = Path(__file__).parents[2]
ENGINE = ROOT / "beggarstats" / "engine"
DRIVERS = ("exact", "kernel_two", "kernel_multi")  # a kernel in one of these is its own place

# the card moves on bit-planes (hands_bits.py) and who must call them: both fast passes, and the exact
# driver's primitive on planes (the driver plays a penalty card after a run by `play_top`, so
# `lay_at`, a payer's run and its penalty card at once, is the fast passes' alone)
MOVES = {"lay_top": "play_top", "lay_at": None, "pay": "skip_plain", "plain_run": "skip_plain",
         "run_share": "skip_plain", "pile_as_taken": "pile_under", "under": "pile_under",
         "planes_differ": "same_state", "counts_differ": "same_state"}
PRIMITIVES = ("load_deal", "play_top", "skip_plain", "pile_under", "save_state", "same_state", "same_games")
# what moving cards on planes is made of: only the moves (and the plane helpers they use) may do it
PLANE_OPS = (ast.LShift, ast.RShift, ast.BitXor)
PLANE_HELPERS = {"cttz", "popcount", "top_card", "card_at", "put_card", "lay_paid", "scatter_planes"}


def _functions():
    """'module.function' -> (its AST, the set of 'module.name' it calls) for every top-level
    function of the engine but the reference; a bare name is resolved through the module's
    relative imports (or its own definitions), ``hands.play_top`` through its imported module."""
    out = {}
    for path in sorted(ENGINE.glob("*.py")):
        module = path.stem
        if module == "reference":
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = {}
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                for alias in node.names:
                    names[alias.asname or alias.name] = f"{node.module}.{alias.name}" if node.module else alias.name
        for node in tree.body:
            if isinstance(node, ast.FunctionDef):
                names.setdefault(node.name, f"{module}.{node.name}")
        for node in tree.body:
            if not isinstance(node, ast.FunctionDef):
                continue
            calls = set()
            for sub in ast.walk(node):
                if not isinstance(sub, ast.Call):
                    continue
                f = sub.func
                if isinstance(f, ast.Name) and f.id in names:
                    calls.add(names[f.id])
                elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name) and f.value.id in names:
                    calls.add(f"{names[f.value.id]}.{f.attr}")
            out[f"{module}.{node.name}"] = (node, calls)
    return out


FUNCTIONS = _functions()


def _kernel(name):
    """A kernel cell's name as 'module.name' (a bare name is rulebook's)."""
    return name if "." in name else f"rulebook.{name}"


def _places(kernel):
    if kernel.split(".")[0] in DRIVERS:
        return {kernel}
    return {f for f, (_, calls) in FUNCTIONS.items() if kernel in calls}


@pytest.mark.parametrize("row", rule_rows(), ids=lambda row: row[0][:50])
def test_the_table_lists_every_place_a_rule_is_applied(row):
    rule, kernels, applied = row[0], row[4], row[5]
    listed, _, own = applied.partition("own code:")
    kernels = [_kernel(k) for k in code_names(kernels)]
    assert kernels, rule
    found = set().union(*(_places(k) for k in kernels))
    listed = set(code_names(listed))
    assert listed == found, (f"{rule!r}: the functions calling {kernels} are {sorted(found)}; the table lists "
                             f"{sorted(listed)} (missing {sorted(found - listed)}, extra {sorted(listed - found)})")
    for name in code_names(own):
        assert name in FUNCTIONS, (rule, name)
        assert not FUNCTIONS[name][1] & set(kernels), f"{name} calls {kernels}: list it before 'own code:'"


def test_the_card_move_rows_name_each_move():
    """Every move of hands_bits.py has its row (and the table does not name one that is gone)."""
    named = {_kernel(k) for row in rule_rows() for k in code_names(row[4])}
    for move in MOVES:
        assert f"hands_bits.{move}" in named, move


@pytest.mark.parametrize("move", sorted(MOVES))
def test_the_driver_and_both_fast_passes_make_each_move_through_the_same_function(move):
    callers = {f for f, (_, calls) in FUNCTIONS.items() if f"hands_bits.{move}" in calls}
    modules = {f.split(".")[0] for f in callers}
    assert {"kernel_two", "kernel_multi"} <= modules, f"a fast pass does not call hands_bits.{move}: {sorted(callers)}"
    if MOVES[move]:
        assert f"hands_bits.{MOVES[move]}" in callers, f"the exact driver's {MOVES[move]} does not call {move}"


def _plane_work(node):
    """The shifts, XORs and plane helpers in a function's body (what moving cards on planes takes)."""
    found = []
    for sub in ast.walk(node):
        if isinstance(sub, (ast.BinOp, ast.AugAssign)) and isinstance(sub.op, PLANE_OPS):
            found.append(f"line {sub.lineno}: {type(sub.op).__name__}")
        elif isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in PLANE_HELPERS:
            found.append(f"line {sub.lineno}: {sub.func.id}()")
    return found


def _movers():
    """The functions that must leave moving cards to the moves: all of both fast passes, and the exact
    driver's primitives on planes."""
    return sorted(f for f in FUNCTIONS if f.split(".")[0] in ("kernel_two", "kernel_multi")
                  or f in {f"hands_bits.{p}" for p in PRIMITIVES})


@pytest.mark.parametrize("function", _movers())
def test_no_fast_pass_or_driver_primitive_moves_cards_itself(function):
    work = _plane_work(FUNCTIONS[function][0])
    assert not work, f"{function} shifts or XORs plane words itself ({', '.join(work)}): call a move of hands_bits.py"


def test_the_check_sees_a_restated_move():
    """The check above is not vacuous: every move's own body does the plane work it looks for, and a
    pass restating pile-under (the code kernel_two had before the moves were shared) is caught."""
    for move in ("lay_top", "lay_at", "under", "planes_differ", "drop"):
        assert _plane_work(FUNCTIONS[f"hands_bits.{move}"][0]), move
    restated = ast.parse("def take(claim0, pile0, n_claim):\n"
                         "    shift = np.uint64(n_claim)\n"
                         "    claim0 |= pile0 << shift\n"
                         "    return claim0\n").body[0]
    assert _plane_work(restated) == ["line 3: LShift"]
