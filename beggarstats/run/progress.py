"""Progress bars for long runs: tqdm (the notebook widget inside Jupyter), or nothing."""

from __future__ import annotations

__all__ = ["progress_bar", "check_progress"]


def check_progress(progress):
    """``progress`` if it is False, None, True or 'notebook'; anything else is refused, also by a run
    that turns out to have nothing to play (and so never shows a bar)."""
    if not (progress is False or progress is None or progress is True
            or (isinstance(progress, str) and progress == "notebook")):
        raise ValueError(f"The value for `progress` must be one of [False, True, 'notebook'], but {progress!r} was "
                         f"passed.")
    return progress


def progress_bar(progress, total: int, *, initial: int = 0, unit: str = "game", desc: str | None = None):
    """A tqdm bar for ``progress=True`` (auto: widget in Jupyter) or ``"notebook"``; None for False."""
    if check_progress(progress) is False or progress is None:
        return None
    if progress is True:
        from tqdm.auto import tqdm
    else:  # 'notebook' (check_progress)
        from tqdm.notebook import tqdm
    return tqdm(total=total, initial=initial, unit=unit, unit_scale=True, desc=desc)
