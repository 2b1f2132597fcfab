"""Count the places an option of `Rules` takes in the package: what adding one like it would touch.

For an existing option (default ``shuffle_pile``, the nearest to "shuffle the pile only every third
capture"), every top-level function or class of ``beggarstats/`` that names it - the field itself
(``rules.shuffle_pile``, ``"shuffle_pile"``), its slot in the kernels' parameter array
(``P_SHUFFLE_PILE``) or its field of the options record (``o.shuffle``, engine/options.py) - and the
calls of the fast passes (`play_two`, `play_multi`, the multi-player body `_play`) and of
`options.record` that pass options one by one instead of the record (issue #41: 14 such call
sites on efde310); and, of the places naming it, the version choices: the table of compiled versions
(`engine.passes.VERSIONS`) and every function that picks a version or builds one's record (it calls
`passes.setup`, `version_for` or `versions_of`, or `options.folded`). Issue #53: a new option must
reach none of them (it goes to the record and `options.table_kind`, which the table reads). Last, the
places that name a kind of table with constants (``COMMON``, ``ONLY_*``): what giving a new option a
version of its own, with constants, would touch (issue #53: 7 places chose a version by hand on 6daff1f).

Usage::

    python tools/option_places.py [OPTION] [--root CHECKOUT]
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

RECORD_FIELD = {"end": "end", "joker_mode": "beggar", "shuffle_pile": "shuffle", "max_cards": "limit",
                "direction": "step", "exhausted_tribute": "passes_on", "leader": "leader",
                "shuffle_on_loop": "shuffle_on_loop", "unfinished": "most"}
SLOT = {"end": "P_END", "joker_mode": "P_BEGGAR", "shuffle_pile": "P_SHUFFLE_PILE", "max_cards": "P_MAX_CARDS",
        "direction": "P_STEP", "exhausted_tribute": "P_PASSES_ON", "leader": "P_LEADER",
        "shuffle_on_loop": "P_SHUFFLE_ON_LOOP", "unfinished": "P_MOST"}
# (a, b, options, stream) and (table, options, stream); the multi-player pass's body and its trick step,
# which take the record's fields one by one (`kernel_multi._play`, `trick_multi`: their register
# allocation, issue #41), and the record built from them again (`options.record`), count as loose
# calls: a new field goes there too
RECORD_ARGS = {"play_two": 4, "play_multi": 3, "_play": 3, "record": 1, "trick_two": 3, "trick_multi": 4}
# what choosing a version of a fast pass is made of (`engine/passes.py`)
CHOICE_CALLS = {"setup", "version_for", "versions_of", "folded"}
CHOICE_NAMES = {"VERSIONS"}
KIND_NAMES = {"COMMON", "ONLY_EMPTY", "ONLY_BEGGAR", "ONLY_SHUFFLE"}


def _chooses(node) -> bool:
    """Whether a function or table picks a version of a fast pass or builds one's record."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            f = sub.func
            name = f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None
            if name in CHOICE_CALLS:
                return True
        if isinstance(sub, ast.Name) and sub.id in CHOICE_NAMES:
            return True
    return False


def _names(node, option: str) -> bool:
    field = RECORD_FIELD.get(option)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and (sub.attr == option or (field and sub.attr == field
                                                                     and isinstance(sub.value, ast.Name)
                                                                     and sub.value.id == "o")):
            return True
        if isinstance(sub, ast.Name) and sub.id == SLOT.get(option):
            return True
        if isinstance(sub, ast.Constant) and sub.value == option:
            return True
    return False


def places(root: Path, option: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """(the 'module:function' places naming ``option``, the loose-argument fast-pass calls, the version
    choices among the places, the places naming a kind of table with constants)."""
    found, loose, choices, kinds = [], [], [], []
    for path in sorted((root / "beggarstats").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        module = path.relative_to(root).with_suffix("").as_posix()
        for node in tree.body:
            if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                where = f"{module}:{node.name}"
            elif isinstance(node, (ast.Assign, ast.AnnAssign)):
                where = f"{module}:(module level)"
            else:
                continue
            if _names(node, option) and where not in found:
                found.append(where)
                if _chooses(node) and where not in choices:
                    choices.append(where)
            if (any(isinstance(sub, ast.Name) and sub.id in KIND_NAMES for sub in ast.walk(node))
                    and where not in kinds):
                kinds.append(where)
            for sub in ast.walk(node):
                if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in RECORD_ARGS
                        and len(sub.args) > RECORD_ARGS[sub.func.id]):
                    loose.append(f"{module}:{sub.lineno}")
    return found, loose, choices, kinds


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("option", nargs="?", default="shuffle_pile")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    found, loose, choices, kinds = places(args.root, args.option)
    files = sorted({f.split(":")[0] for f in found})
    print(f"{args.option}: {len(files)} source files, {len(found)} functions or tables, "
          f"{len(loose)} fast-pass calls with loose options, {len(choices)} version choices")
    for f in found:
        print("  ", f)
    for c in loose:
        print("   loose call:", c)
    for c in choices:
        print("   version choice:", c)
    print(f"a version with constants for it: {len(kinds)} places name the kinds of table")
    for c in kinds:
        print("  ", c)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
