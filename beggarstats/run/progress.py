"""Progress bars for long runs: tqdm (the notebook widget inside Jupyter), or nothing."""

from __future__ import annotations

__all__ = ["progress_bar"]


def progress_bar(progress, total: int, *, initial: int = 0, unit: str = "game", desc: str | None = None):
    """A tqdm bar for ``progress=True`` (auto: widget in Jupyter) or ``"notebook"``; None for False."""
    if progress is False or progress is None:
        return None
    if progress is True:
        from tqdm.auto import tqdm
    elif progress == "notebook":
        from tqdm.notebook import tqdm
    else:
        raise ValueError(f"The value for `progress` must be one of [False, True, 'notebook'], but {progress!r} was passed.")
    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, desc=desc)
