"""Where the committed data are: one rule for every reader, installed or in a source tree.

The repository's ``data/`` holds what the package reads but cannot recompute in seconds: the large
runs (``summary-p*.json``), the exact atlas (``census/``), the GPU runs (``frontier/``), the tail
chains (``tail/``), the searches (``search/``), the paired comparisons (``compare-*.json``,
``*-coverage.json``) and the record table (``records.csv``). The rule:

    The committed data are the folder ``data`` of the package, ``beggarstats/data/``, found with
    ``importlib.resources``: a wheel (``pip install .``) ships the repository's ``data/`` there
    (pyproject.toml maps it to the package ``beggarstats.data``). A source tree (an editable
    install, or the repository on ``sys.path``) has no such folder inside the package: there they
    are the repository's ``data/`` beside it, the same files.

The findings table ``figures/findings.csv`` (what `beggarstats figures` last wrote into the
repository, whose Holm family notebook 03 quotes) goes along the same way: ``beggarstats/data/figures/``
of a wheel (the package ``beggarstats.data.figures``), ``figures/`` of a source tree
(`findings_path`).

Nothing depends on the working directory, so a notebook's kernel in ``notebooks/`` or a script run
from anywhere reads the same files. A reader asks `data_path` (one file) or `data_paths` (a
pattern); a missing file is `MissingData`, one sentence naming it and how to get it back.

Writers (`report.atlas`'s census runner, `report.variant_refresh`, the scripts under ``data/``)
write the source tree's ``data/`` (`source_data_folder`), the files a commit holds; from an
installed copy they refuse, saying so.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

__all__ = ["MissingData", "InstalledCopy", "data_folder", "data_path", "data_paths", "findings_path",
           "source_data_folder", "source_tree"]

PACKAGE = "beggarstats"
FOLDER = "data"


class MissingData(FileNotFoundError):
    """A committed data file (or the whole folder) is not where the rule finds it."""


class InstalledCopy(RuntimeError):
    """A writer of the committed data was run from an installed copy of the package."""


def _package() -> Path:
    """The package's folder on disk (`importlib.resources`)."""
    root = resources.files(PACKAGE)
    if not isinstance(root, Path):  # pragma: no cover - a zipped install: no folder to read files from
        raise MissingData(f"The committed data are read from files, but {PACKAGE} is imported from {root}, not "
                          f"a folder: install it from a clone of its repository (`python -m pip install .`).")
    return root


def source_tree() -> Path | None:
    """The repository the package runs from (its folder holding ``pyproject.toml`` and ``data/``),
    or None for an installed copy (which carries its own ``data/``)."""
    package = _package()
    root = package.parent
    if (package / FOLDER).is_dir() or not ((root / "pyproject.toml").is_file() and (root / FOLDER).is_dir()):
        return None
    return root


def data_folder() -> Path:
    """The folder of the committed data: ``beggarstats/data/`` of an installed package, or the
    ``data/`` of the source tree the package runs from (the module docstring's rule)."""
    shipped = _package() / FOLDER
    if shipped.is_dir():
        return shipped
    root = source_tree()
    if root is None:
        raise MissingData(f"The committed data (data/) are not in this {PACKAGE} at {_package()}: reinstall it "
                          f"from a clone of its repository (`python -m pip install .` ships them in the package).")
    return root / FOLDER


def _missing(what: str, made_by: str | None) -> MissingData:
    root = source_tree()
    how = (f"restore it from the repository (`git checkout -- {what}`)" if root is not None else
           f"reinstall {PACKAGE} from a clone of its repository (`python -m pip install .` ships data/ in the package)")
    again = f" or make it again with `{made_by}`" if made_by and root is not None else ""
    where = f"the source tree {root}" if root is not None else f"the installed {PACKAGE} at {_package()}"
    return MissingData(f"The committed data file {what} is missing from {where}: {how}{again}.")


def data_path(*parts: str, made_by: str | None = None) -> Path:
    """The committed file ``data/<parts...>`` (e.g. ``data_path("tail", "results.json")``).

    Raises `MissingData` (one sentence: the file, where it was looked for, how to get it; ``made_by``
    names the command that writes it) if it is not there."""
    path = data_folder().joinpath(*parts)
    if not path.exists():
        raise _missing("/".join((FOLDER, *parts)), made_by)
    return path


def data_paths(pattern: str, *, made_by: str | None = None) -> list[Path]:
    """The committed files matching ``pattern`` (a glob under ``data/``, e.g. ``"summary-p*.json"``),
    sorted; `MissingData` if none does."""
    found = sorted(data_folder().glob(pattern))
    if not found:
        raise _missing(f"{FOLDER}/{pattern}", made_by)  # names: the committed files, by their pattern
    return found


def findings_path() -> Path:
    """The committed findings table: ``figures/findings.csv`` of the source tree, or the copy an
    installed package carries (``beggarstats/data/figures/``); `MissingData` if it is not there."""
    root = source_tree()
    path = (root / "figures" if root is not None else data_folder() / "figures") / "findings.csv"
    if not path.is_file():
        raise _missing("figures/findings.csv", "beggarstats figures")  # names: the committed file
    return path


def source_data_folder(writer: str) -> Path:
    """The ``data/`` of the source tree the package runs from, for ``writer`` (the command that
    writes there, named in the refusal) to write the committed data; an installed copy is refused
    with one sentence (what it writes would not be what a commit holds)."""
    root = source_tree()
    if root is None:
        raise InstalledCopy(f"`{writer}` writes the committed data of a source tree (data/ of a clone), but "
                            f"{PACKAGE} is imported from an installed copy at {_package()}: run it in a clone with "
                            f"the package installed from it in place (`python -m pip install -e .`).")
    return root / FOLDER
