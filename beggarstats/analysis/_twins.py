"""Analysis functions that also take a `beggarstats.run.summary.Summary`: the summary is answered by
the twin of the same name in `beggarstats.analysis.summaries` (imported only then). Nothing that the
summaries import may import this module, or the two would import each other."""

from __future__ import annotations

import functools
import sys

__all__ = ["accepts_summary"]


def accepts_summary(func):
    """Let an analysis function take a `beggarstats.run.summary.Summary` in place of the games frame:
    it is then answered by its twin of the same name in `beggarstats.analysis.summaries`, which
    computes the same columns from the exact histograms (options that only make sense for frames,
    such as ``by``, are refused by the twin's signature)."""
    @functools.wraps(func)
    def wrapper(data, *args, **kwargs):
        module = sys.modules.get("beggarstats.run.summary")  # no Summary can exist before it is imported
        if module is not None and isinstance(data, module.Summary):
            from . import summaries as summary_analysis

            return getattr(summary_analysis, func.__name__)(data, *args, **kwargs)
        return func(data, *args, **kwargs)

    wrapper.__doc__ = (func.__doc__ or "") + (
        f"\n\n    ``data`` may also be a `beggarstats.run.summary.Summary`: then the result is "
        f"`beggarstats.analysis.summaries.{func.__name__}`'s.\n")
    return wrapper
