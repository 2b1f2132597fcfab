"""Every refusal names what was refused, and no message holds an empty phrase (#40 item 6).

The rule, checked on the source of every ``raise X("...")`` / ``raise X(f"...")`` in the package
(the message as written, each ``{...}`` piece standing for its value):

1. It names a parameter, flag or deal place: a backticked name (```n_jobs```, ```{name}```), a
   command-line flag (``--games``, ``--{name}``), the words hand / position / deal, or a ``{...}``
   piece that is one of the helpers rendering a parameter that way (`NAMERS`: ``say(name)``,
   ``_label(name)``, a ``label`` made by them). ``argparse.ArgumentTypeError`` is exempt: argparse
   itself starts the line with "argument --flag:".
2. Or one line of the ``raise`` statement carries a marker comment saying why not:
   ``# internal: <why>`` -- an invariant no user input reaches (a caught and re-worded error, a
   developer's table, a stub compiled away); ``# names: <what>`` -- the message names what was
   refused in a way the rule cannot see (a file or store by its path, text from the caller or from
   the error it re-raises, a positional argument such as DIR).
3. No message, whatever its marker, holds two spaces in a row in its literal text, nor a ``{...}``
   piece that can be empty (a conditional with an empty branch) between two spaces or between a
   space and a full stop, comma or closing bracket ("their  differ", "of .").

On main 9698b32 rule 1 found 62 of the 274 messages (301 raise sites in all): 23 were reworded to
name their parameter (Deck.from_counts, --variants, merge_cells, exact tables, seats_in_view, the
atlas lookup, tango_interval, ...), 39 carry a marker. Rule 3 found none there (the "its  differ"
of #40 had been fixed by then); it keeps them out. Messages that are not raised (a store check's
`Problem`, a line printed on stderr) are not scanned.
"""

from __future__ import annotations

import argparse
import ast
import re
from pathlib import Path

import pytest

import beggarstats as bs

PACKAGE = Path(bs.__file__).parent
NAMERS = {"say", "_label", "label"}
NAMED = re.compile(r"`[^`\s][^`]*`|--[a-z{][\w{}-]*|\b(?:hands?|positions?|deals?)\b", re.IGNORECASE)
MARKER = re.compile(r"#\s*(internal|names):\s*\S")


def _piece(value: ast.FormattedValue) -> str:
    expr = value.value
    name = expr.func if isinstance(expr, ast.Call) else expr
    if isinstance(name, ast.Name) and name.id in NAMERS:
        return "`name`"
    if isinstance(expr, ast.IfExp) and any(isinstance(b, ast.Constant) and b.value == "" for b in (expr.body, expr.orelse)):
        return "\0"  # may be empty
    return "{}"


def _template(node) -> str | None:
    """The message as written, ``{}`` for each value and NUL for a value that may be empty."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else _piece(v) for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _template(node.left), _template(node.right)
        return None if left is None or right is None else left + right
    return None


def _raises():
    """(place, exception name, template, marked) for every raise with a written message."""
    for path in sorted(PACKAGE.rglob("*.py")):
        source = path.read_text()
        lines = source.splitlines()
        for node in ast.walk(ast.parse(source)):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and node.exc.args):
                continue
            text = _template(node.exc.args[0])
            if text is None:
                continue
            marked = any(MARKER.search(line) for line in lines[node.lineno - 1:node.end_lineno])
            name = ast.unparse(node.exc.func).rsplit(".", 1)[-1]
            yield f"{path.relative_to(PACKAGE.parent)}:{node.lineno}", name, text, marked


RAISES = list(_raises())


def test_the_scan_sees_the_package():
    assert len(RAISES) > 250  # 274 raises with a written message (of 301) when this test was written


def test_every_refusal_names_what_it_refuses():
    bad = [f"{place}: {text!r}" for place, name, text, marked in RAISES
           if not marked and name != "ArgumentTypeError" and not NAMED.search(text)]
    assert not bad, "messages naming no parameter (name it, or mark the raise `# internal:` / `# names:`):\n" + "\n".join(bad)


EMPTY_PHRASE = re.compile(r"  | \0 | \0[.,;:)]|^\0 ")


def test_no_message_holds_an_empty_phrase():
    bad = [f"{place}: {text!r}" for place, _, text, _ in RAISES if EMPTY_PHRASE.search(text.replace("\0\0", "\0"))]
    assert not bad, "messages with an empty phrase:\n" + "\n".join(bad)


def test_the_rule_catches_what_it_is_for():
    def names(src):
        return bool(NAMED.search(_template(ast.parse(src, mode="eval").body)))
    assert not names('"Deck counts must give 5 numbers, got {len(counts)}."')
    assert names('f"The value for `{name}` must be > 0"') and names('f"--{name} must be at least 2"')
    assert names('f"{say(name)} must be a whole number"') and names('"hand 2 holds no card"')
    assert EMPTY_PHRASE.search(_template(ast.parse("f\"their {', '.join(x)} differ {'' if a else 'b'}.\"", mode="eval").body))
    assert EMPTY_PHRASE.search("its  differ")


# -- the messages this test found on main, as a user meets them ------------------------------------

def test_deck_counts_name_the_parameter():
    with pytest.raises(ValueError, match=r"The value for `counts` must give 5 numbers .* but 2 were passed"):
        bs.Deck.from_counts((1, 2))
    with pytest.raises(ValueError, match=r"The value for `counts` must give 5 numbers .* but 7 was passed"):
        bs.Deck.from_counts(7)


def test_paired_proportions_name_their_counts():
    from beggarstats.run.paired_props import tango_interval

    with pytest.raises(ValueError, match=r"The values for `b`, `c` and `n` must satisfy .* b=5, c=5, n=3"):
        tango_interval(5, 5, 3)


def test_variants_name_the_flag():
    from beggarstats.run.variants import parse_variant

    for spec, match in [("end=foo", r"--variants: variant 'end=foo': 'end' must be one of"),
                        ("jokers=x", r"--variants: variant 'jokers=x': 'jokers' takes a whole number"),
                        ("ccw++", r"--variants: variant 'ccw\+\+' has an empty part"),
                        ("end=trick", r"--variants: variant 'end=trick' is the base rules themselves")]:
        with pytest.raises(ValueError, match=match) as info:
            parse_variant(spec, bs.Rules())
        assert "  " not in str(info.value)


def test_summaries_of_different_runs_say_what_differs():
    a = bs.Summary(rules=bs.Rules(), seed=1)
    with pytest.raises(ValueError, match=r"\(their seed differs\)\.$"):
        a + bs.Summary(rules=bs.Rules(), seed=2)
    with pytest.raises(ValueError, match=r"\(their cap, seed differ\)\.$"):
        a + bs.Summary(rules=bs.Rules(), seed=2, cap=a.cap + 1)


def test_command_line_numbers_say_what_was_passed():
    from beggarstats.cli.options import positive_number

    with pytest.raises(argparse.ArgumentTypeError, match=r"^must be a number of cards > 0, but '0' was passed$"):
        positive_number("a number of cards")("0")
