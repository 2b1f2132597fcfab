"""Pointwise bands of a Kaplan-Meier curve, shared by the curve of a games frame
(`survival.km_table`) and that of a Summary (`summaries.kaplan_meier`)."""

from __future__ import annotations

import numpy as np

from .intervals import z_value

__all__ = ["km_band"]


def km_band(survival, se, *, confidence: float = 0.95, ci: str = "log-log"):
    """The pointwise interval of a Kaplan-Meier curve from its values ``survival`` and Greenwood
    standard errors ``se`` (arrays): on the log(-log S) scale (``ci`` 'log-log', inside [0, 1]) or
    S +/- z se clipped to [0, 1] ('plain'). Before the first event (se 0) and at S = 0 the band has
    no width. Returns (low, high)."""
    surv, se = np.asarray(survival, float), np.asarray(se, float)
    z = z_value(confidence)
    with np.errstate(divide="ignore", invalid="ignore"):
        # Greenwood's sum, sum d / (n (n - d)) = (se / S)^2, is what the log-log scale needs.
        green = np.where(surv > 0, (se / surv) ** 2, np.inf)
        if ci == "plain":
            return np.clip(surv - z * se, 0, 1), np.clip(surv + z * se, 0, 1)
        s_ll = np.sqrt(green) / np.abs(np.log(surv))
        low, high = surv ** np.exp(z * s_ll), surv ** np.exp(-z * s_ll)
        # Before the first event S = 1 exactly; at S = 0 the scale breaks down: no width there.
        low = np.where(green == 0, surv, np.where(surv == 0, 0.0, low))
        high = np.where(green == 0, surv, np.where(surv == 0, 0.0, high))
    return low, high
