"""docs/DESIGN.md's rule table ("Each rule, and where it is written"), read for the tests that keep it
true: test_conformance (each rule's reference and kernel names are real code) and test_rule_places
(every place a rule is applied or a card is moved)."""

from __future__ import annotations

import re
from pathlib import Path

DESIGN = Path(__file__).parents[1] / "docs" / "DESIGN.md"


def rule_rows() -> list[list[str]]:
    """The table's rows (header and rule line left out), each a list of its cells."""
    text = DESIGN.read_text(encoding="utf-8").split("## Each rule, and where it is written", 1)[1]
    rows = [[c.strip() for c in line.strip().strip("|").split("|")] for line in text.splitlines()
            if line.startswith("|")][2:]
    assert rows, "docs/DESIGN.md lost its rule table"
    return rows


def code_names(cell: str) -> list[str]:
    """The names written as code (`...`) in a cell."""
    return re.findall(r"`([A-Za-z_.]+)`", cell)
