"""The sample size a notebook runs at: its parameters cell's literal, or ``BEGGARSTATS_NOTEBOOK_GAMES``.

Every notebook's first code cell is tagged ``parameters`` (papermill's convention) and holds each
of its knobs as a literal (``N_GAMES = 200_000``, ``SEED = 2026``, ``N_JOBS = -1``), so papermill
can override any of them; the cell ends with ``N_GAMES = notebook_games(N_GAMES)``: the one
environment variable every notebook shares replaces the literal when it is set (the tests run every
notebook on a small sample that way, notebooks/README.md), and the cell prints the size the
notebook runs at, which its committed outputs show.
"""

from __future__ import annotations

import os

__all__ = ["notebook_games", "GAMES_VARIABLE"]

GAMES_VARIABLE = "BEGGARSTATS_NOTEBOOK_GAMES"


def notebook_games(default: int) -> int:
    """The notebook's sample size: ``BEGGARSTATS_NOTEBOOK_GAMES`` if set, else ``default``; printed
    as ``N_GAMES = 200_000``.

    Parameters
    ----------
    default : int
        The parameters cell's ``N_GAMES`` (games; at least 1).

    Returns
    -------
    int
        Games, at least 1.
    """
    text = os.environ.get(GAMES_VARIABLE)
    if text is None:
        games = default
    else:
        try:
            games = int(text)  # "2000" and "200_000" alike
        except ValueError:
            raise ValueError(  # names: GAMES_VARIABLE, the environment variable set
                f"{GAMES_VARIABLE} must be a whole number of games, but {text!r} was set") from None
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        where = GAMES_VARIABLE if text is not None else "N_GAMES"
        raise ValueError(f"{where} must be at least 1 game, but {games!r} was given")  # names: where, the variable or N_GAMES
    print(f"N_GAMES = {games:_}")
    return games
