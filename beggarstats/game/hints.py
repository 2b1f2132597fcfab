"""The type aliases of the public signatures (the package ships ``py.typed``; issue #41).

Modules import this one only under ``typing.TYPE_CHECKING``: their annotations are strings (``from
__future__ import annotations``), so importing the package never loads it, nor numpy through it.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import TypeAlias

import numpy as np
import numpy.typing as npt

from .rules import Rules

__all__ = ["Hand", "Deal", "HandLike", "DealLike", "RulesLike", "PathLike", "Progress"]

Hand: TypeAlias = tuple[int, ...]
"""A hand as tributes 0-5, top card first."""
Deal: TypeAlias = tuple[Hand, ...]
"""A deal: the hands of seats 0, 1, ..."""
HandLike: TypeAlias = Sequence[int] | npt.NDArray[np.integer]
DealLike: TypeAlias = str | Sequence[HandLike]
"""A deal as text ('--K-/-Q--') or as a sequence of hands of tributes."""
RulesLike: TypeAlias = Rules | dict | None
"""A `Rules`, its dict (`Rules.to_dict`), or None for the standard table."""
PathLike: TypeAlias = str | os.PathLike[str]
Progress: TypeAlias = bool | str
"""False, True or 'notebook' (a tqdm bar, the widget inside Jupyter)."""
