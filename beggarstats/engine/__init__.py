"""The game engines: a readable reference (``reference``) and numba kernels (``fast``)."""
