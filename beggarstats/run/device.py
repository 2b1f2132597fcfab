"""Where a batch run plays its games: a `Device`, chosen and checked once where the run starts.

Every batch entry point (`simulate`, `summarize`, `compare`, `census`, `search_long`,
`simulate_matches`) and the command line (``--device``) names the one choice ``device``: 'cpu' (the
compiled engine on the CPU's cores) or 'cuda' (the same passes on an NVIDIA GPU; the same games).
`choose_device` checks it once, naming the parameter (`engine.gpu.check_device`: for 'cuda', that
numba's CUDA target and a GPU can be had), and the drivers then ask the `Device` rather than compare
strings: which batch engine plays a table (`Device.engine`), how fast a run can go at best
(`Device.games_per_second`), whether it is the GPU (`Device.gpu`, where a driver takes another path).
A Device handed on (from the command line to the API, from `search_long` to `summarize`) is not
checked again.
"""

from __future__ import annotations

from dataclasses import dataclass

from .limits import GAMES_PER_CORE_SECOND, GAMES_PER_GPU_SECOND

__all__ = ["Device", "choose_device", "batch_engine", "CPU"]


def batch_engine():
    """`engine.fast.play_games`, imported late (numba loads with the first batch, not with the API)."""
    from ..engine.fast import play_games
    return play_games


_batch_engine = batch_engine  # what the CPU plays with: tests substitute a stand-in here


@dataclass(frozen=True)
class Device:
    """A checked choice of where the games are played (`choose_device` makes one)."""

    name: str  # 'cpu' or 'cuda'

    @property
    def gpu(self) -> bool:
        """True for 'cuda'."""
        return self.name == "cuda"

    def engine(self, *tables):
        """The batch engine, ``engine(rules, seed, games, *, per_seat=False) -> arrays``:
        `engine.fast.play_games` on the CPU, `engine.gpu.play_games_cuda` (the same arrays) on the
        GPU, where a table of ``tables`` (Rules) it cannot play is refused first."""
        if not self.gpu:
            return _batch_engine()
        from ..engine.gpu import gpu_pass, play_games_cuda

        for rules in tables:
            gpu_pass(rules)  # a deck of more than 64 cards, before anything is allocated
        return play_games_cuda

    def games_per_second(self, n_jobs) -> float:
        """Games a second a run cannot beat: one GPU, or the workers of ``n_jobs`` (`limits`)."""
        if self.gpu:
            return GAMES_PER_GPU_SECOND
        import joblib

        return GAMES_PER_CORE_SECOND * max(1, joblib.effective_n_jobs(n_jobs))


CPU = Device("cpu")


def choose_device(device) -> Device:
    """``device`` ('cpu' or 'cuda', or a Device already chosen) as a checked `Device`; a bad name,
    or 'cuda' where numba's CUDA target or a GPU is missing, is one ValueError naming ``device``."""
    if isinstance(device, Device):
        return device
    from ..engine.gpu import check_device

    return Device(check_device(device))
