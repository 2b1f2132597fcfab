"""Count the places an option of `Rules` takes in the package: what adding one like it would touch.

For an existing option (default ``shuffle_pile``, the nearest to "shuffle the pile only every third
capture"), every top-level function or class of ``beggarstats/`` that names it - the field itself
(``rules.shuffle_pile``, ``"shuffle_pile"``), its slot in the kernels' parameter array
(``P_SHUFFLE_PILE``) or its field of the options record (``o.shuffle``, engine/options.py) - and the
calls of the fast passes (`play_two`, `play_multi`, the multi-player body `_play`) and of
`options.record` that pass options one by one instead of the record (issue #41: 14 such call
sites on efde310).

Usage::

    python tools/option_places.py [OPTION] [--root CHECKOUT]
"""

from __future__ import annotations

import argparse
import ast
from pathlib import Path

RECORD_FIELD = {"end": "end", "joker_mode": "beggar", "shuffle_pile": "shuffle", "max_cards": "limit",
                "direction": "step", "exhausted_tribute": "passes_on", "leader": "leader"}
SLOT = {"end": "P_END", "joker_mode": "P_BEGGAR", "shuffle_pile": "P_SHUFFLE_PILE", "max_cards": "P_MAX_CARDS",
        "direction": "P_STEP", "exhausted_tribute": "P_PASSES_ON", "leader": "P_LEADER",
        "shuffle_on_loop": "P_SHUFFLE_ON_LOOP", "unfinished": "P_MOST"}
# (a, b, options, stream) and (table, options, stream); the multi-player pass's body, which takes the
# record's fields one by one (`kernel_multi._play`: its register allocation, issue #41), and the
# record it builds from them again (`options.record`), count as loose calls: a new field goes there too
RECORD_ARGS = {"play_two": 4, "play_multi": 3, "_play": 3, "record": 1}


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


def places(root: Path, option: str) -> tuple[list[str], list[str]]:
    """(the 'module:function' places naming ``option``, the loose-argument fast-pass calls)."""
    found, loose = [], []
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
            for sub in ast.walk(node):
                if (isinstance(sub, ast.Call) and isinstance(sub.func, ast.Name) and sub.func.id in RECORD_ARGS
                        and len(sub.args) > RECORD_ARGS[sub.func.id]):
                    loose.append(f"{module}:{sub.lineno}")
    return found, loose


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("option", nargs="?", default="shuffle_pile")
    parser.add_argument("--root", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args(argv)
    found, loose = places(args.root, args.option)
    files = sorted({f.split(":")[0] for f in found})
    print(f"{args.option}: {len(files)} source files, {len(found)} functions or tables, "
          f"{len(loose)} fast-pass calls with loose options")
    for f in found:
        print("  ", f)
    for c in loose:
        print("   loose call:", c)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
