"""What `benchmarks/gpu.py` needs on a bare GPU machine, checked in a few seconds before anything compiles.

A GPU machine here reaches no package registry: what the benchmark imports must already be there. So
the preflight names, with its fix, each thing that is missing - the packages the run imports, numba's
CUDA target (numba-cuda) and its driver bindings (cuda-bindings), a GPU with its driver, nvJitLink able
to link the PTX numba's NVVM writes (PTX 9.5 from CUDA 13.5, which only nvJitLink 13.5 or later links
for an older driver), and a writable kernel cache (platformdirs picks the per-user cache directory;
without it the benchmark gives beggarstats one of its own) - and `benchmarks/gpu.py` stops before
compiling anything when any is missing.

    python benchmarks/gpu.py --preflight      # only these checks, then exit (status 2 if something is missing)
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import tempfile
from pathlib import Path

# the modules a run imports (beggarstats' own dependencies, as pip would install them), with the package
# that provides each
MODULES = {"numpy": "numpy", "numba": "numba", "pandas": "pandas", "pyarrow": "pyarrow", "scipy": "scipy",
           "statsmodels": "statsmodels", "joblib": "joblib", "tqdm": "tqdm", "filelock": "filelock"}
CUDA_MODULES = {"numba_cuda": "numba-cuda", "cuda.bindings": "cuda-bindings"}
NVJITLINK_NEEDED = (13, 5)  # the version of the CUDA that wrote the PTX (numba-cuda's NVVM)


def default_cache() -> Path:
    """Where the kernel cache goes without platformdirs: ``$XDG_CACHE_HOME/beggarstats`` (``~/.cache``)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "beggarstats"


def cache_problem(cache: Path | None) -> tuple[str | None, Path | None]:
    """(what is wrong with the kernel cache or None, the directory to give beggarstats or None). With
    ``BEGGARSTATS_CACHE_DIR`` set it is that; else platformdirs' choice; without platformdirs, ``cache``
    (`default_cache`). The directory must take a file."""
    if os.environ.get("BEGGARSTATS_CACHE_DIR"):
        where, given = Path(os.environ["BEGGARSTATS_CACHE_DIR"]), None
    elif importlib.util.find_spec("platformdirs") is not None:
        import platformdirs

        where, given = Path(platformdirs.user_cache_dir("beggarstats")), None
    else:
        where = given = cache if cache is not None else default_cache()
    try:
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=where):
            pass
    except OSError as exc:
        return (f"the kernel cache {where} is not writable ({exc.strerror or exc}): pass --cache DIR, a directory "
                f"this user can write"), None
    return None, given


def missing_modules(names: dict) -> list[str]:
    """One line per module of ``names`` that does not import, naming its package."""
    out = []
    for module, package in names.items():
        try:
            importlib.import_module(module)
        except Exception as exc:  # an ImportError, or a package that imports but fails (a broken install)
            out.append(f"{module} does not import ({type(exc).__name__}: {exc}): install {package}")
    return out


def nvjitlink_version() -> tuple[int, int] | None:
    """nvJitLink's version (major, minor), or None if it cannot be loaded."""
    try:
        from cuda.bindings import nvjitlink

        return tuple(int(v) for v in nvjitlink.version())[:2]
    except Exception:
        return None


def link_problem(cc: tuple[int, int]) -> str | None:
    """Whether nvJitLink links the PTX numba-cuda writes for compute capability ``cc``: a tiny kernel
    compiled to PTX (numba-cuda's NVVM, no GPU needed) and linked to a cubin. None if it does."""
    version = nvjitlink_version()
    if version is None:
        return "nvJitLink cannot be loaded (the nvidia-nvjitlink package of CUDA 13.5 or later): install it"
    try:
        from numba import cuda, types
        from cuda.bindings import nvjitlink

        def probe(a):
            a[0] = a[0] + 1

        ptx, _ = cuda.compile_ptx(probe, (types.int64[::1],), cc=cc)
        handle = nvjitlink.create(1, [f"-arch=sm_{cc[0]}{cc[1]}"])
        try:
            data = ptx.encode()
            nvjitlink.add_data(handle, nvjitlink.InputType.PTX, data, len(data), "probe.ptx")
            nvjitlink.complete(handle)
        finally:
            nvjitlink.destroy(handle)
    except Exception as exc:
        need = ".".join(map(str, NVJITLINK_NEEDED))
        return (f"nvJitLink {'.'.join(map(str, version))} cannot link numba-cuda's PTX for sm_{cc[0]}{cc[1]} "
                f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else ''}): install nvidia-nvjitlink "
                f"{need} or later (the CUDA of numba-cuda's NVVM)")
    return None


def preflight(cache: Path | None = None, *, need_gpu: bool = True) -> tuple[list[str], list[str], Path | None]:
    """(problems, what was found, the cache directory to give beggarstats or None): every check of the
    module's docstring, each problem one line naming what is missing and its fix."""
    problems = missing_modules(MODULES)
    found = []
    cuda_missing = missing_modules(CUDA_MODULES)
    problems += cuda_missing
    cc = (9, 0)
    if not cuda_missing and need_gpu:
        from numba import cuda

        if cuda.is_available():
            device = cuda.get_current_device()
            cc = tuple(device.compute_capability)
            name = device.name.decode() if isinstance(device.name, bytes) else str(device.name)
            found.append(f"GPU: {name}, compute capability {cc[0]}.{cc[1]}")
        else:
            problems.append("no usable NVIDIA GPU (no device, or no driver): run on a machine with one")
    if not cuda_missing:
        problem = link_problem(cc)
        if problem:
            problems.append(problem)
        else:
            found.append(f"nvJitLink {'.'.join(map(str, nvjitlink_version()))} links numba-cuda's PTX for "
                         f"sm_{cc[0]}{cc[1]}")
    problem, given = cache_problem(cache)
    if problem:
        problems.append(problem)
    else:
        found.append(f"kernel cache: {given or os.environ.get('BEGGARSTATS_CACHE_DIR') or 'platformdirs'}"
                     + (" (no platformdirs: given to beggarstats)" if given else ""))
    return problems, found, given
