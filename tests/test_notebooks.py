"""Every notebook in notebooks/ runs top to bottom without an error, on a small sample.

Notebooks 01-05 read their sample size from BEGGARSTATS_NOTEBOOK_GAMES; notebook 06 (matches) has
its own small default (N_MATCHES = 500) and reads no variable. Each runs in a temporary working
directory, so nothing is written into the repository.
"""

from pathlib import Path

import ipykernel  # noqa: F401  (a test extra: a missing kernel must fail, not skip)
import nbclient
import nbformat
import pytest

pytestmark = pytest.mark.slow  # minutes: outside the quick tier (-m "not slow")

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))
SMALL_GAMES = "2000"


def test_the_notebooks_are_there():
    names = {p.name for p in NOTEBOOKS}
    for name in ("01_game_length.ipynb", "02_seat_advantage.ipynb", "03_variants.ipynb",
                 "04_records_and_loops.ipynb", "05_hand_strength.ipynb"):
        assert name in names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, tmp_path, monkeypatch):
    monkeypatch.setenv("BEGGARSTATS_NOTEBOOK_GAMES", SMALL_GAMES)
    monkeypatch.setenv("MPLBACKEND", "Agg")
    nb = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=300,
                                     resources={"metadata": {"path": str(tmp_path)}})
    client.execute()  # raises CellExecutionError naming the cell on any error
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
              if o.get("output_type") == "error"]
    assert not errors


@pytest.mark.parametrize("path", [p for p in NOTEBOOKS if p.name[:2] in {"01", "02", "03", "04", "05"}],
                         ids=lambda p: p.stem)
def test_notebook_has_a_parameter_cell(path):
    nb = nbformat.read(path, as_version=4)
    code = [c.source for c in nb.cells if c.cell_type == "code"]
    assert "BEGGARSTATS_NOTEBOOK_GAMES" in code[0]
    assert not any(c.get("outputs") for c in nb.cells if c.cell_type == "code")  # committed without outputs
