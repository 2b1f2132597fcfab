"""A user who cannot write the kernel cache (no home folder, a read-only one, BEGGARSTATS_CACHE_DIR
naming a read-only folder or a file) runs the engine with its kernels compiled for that run only, and
one line on stderr says so (issue #51 items 3 and 7): no ``RuntimeError: cannot cache function``
traceback, nothing written into the package's folder.

The user is not root: root writes where a user cannot (numba then caches into the package's own folder,
and the crash never shows). When the tests run as root (CI does), each run drops to ``nobody`` through
``setpriv``, keeping only the capability to read and search folders (CAP_DAC_READ_SEARCH: the Python
under /root stays runnable; every write is checked as nobody's), on a read-only copy of the package."""

import os
import pwd
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

import beggarstats
from beggarstats.engine.rng import stream_state

PACKAGE = Path(beggarstats.__file__).resolve().parent
ROOT = os.geteuid() == 0
# The run drops to nobody (uid 65534) with no capability but reading: a user, as far as writes go.
AS_USER = (["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "--inh-caps=+dac_read_search",
            "--ambient-caps=+dac_read_search"] if ROOT else [])
CODE = ("import os, subprocess, sys\n"
        "from beggarstats.engine import kernel_cache as kc\n"
        "from beggarstats.engine.rng import stream_state\n"
        "print(stream_state(7, 11).tolist())\n"  # a kernel compiled (seed_into) and run
        "print(kc.persistent(), kc.kernel_dir())\n"
        "child = 'from beggarstats.engine import kernel_cache as kc, rng; print(kc.persistent(), kc.kernel_dir())'\n"
        "done = subprocess.run([sys.executable, '-c', child], capture_output=True, text=True)\n"
        "print(done.stdout.strip()); print(repr(done.stderr))\n")


def _read_only_tree(path: Path) -> None:
    for p in [path, *path.rglob("*")]:
        if not p.is_symlink():
            p.chmod(p.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))


def _writable_tree(path: Path) -> None:
    for p in [path, *path.rglob("*")]:
        if not p.is_symlink():
            p.chmod(p.stat().st_mode | stat.S_IWUSR)


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    """A copy of the package no user can write (as a system install is), found through PYTHONPATH."""
    base = tmp_path_factory.mktemp("installed")
    shutil.copytree(PACKAGE, base / "beggarstats", ignore=shutil.ignore_patterns("__pycache__", "*.nbi", "*.nbc"))
    os.chmod(base, 0o755)
    _read_only_tree(base)
    yield base
    _writable_tree(base)


def _run(package_copy: Path, env: dict, cwd: Path) -> subprocess.CompletedProcess:
    base = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(package_copy),
            "PYTHONDONTWRITEBYTECODE": "1", "NUMBA_DISABLE_JIT": "0"}
    return subprocess.run([*AS_USER, sys.executable, "-c", CODE], env={**base, **env}, capture_output=True,
                          text=True, cwd=cwd, timeout=600)


def _user_home_unwritable() -> bool:
    if ROOT:  # nobody's home folder: /nonexistent
        return True
    home = pwd.getpwuid(os.getuid()).pw_dir
    return not (os.path.isdir(home) and os.access(home, os.W_OK))


@pytest.mark.parametrize("case", ["no HOME", "HOME missing", "HOME read-only", "cache dir read-only"])
def test_a_user_who_cannot_write_the_cache_runs_uncached(package_copy, tmp_path, case):
    os.chmod(tmp_path, 0o755)
    read_only = tmp_path / "read-only"
    read_only.mkdir(mode=0o555)
    writable = tmp_path / "home"
    writable.mkdir(mode=0o777)
    env = {"no HOME": {}, "HOME missing": {"HOME": "/nonexistent"}, "HOME read-only": {"HOME": str(read_only)},
           "cache dir read-only": {"HOME": str(writable), "BEGGARSTATS_CACHE_DIR": str(read_only)}}[case]
    done = _run(package_copy, env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    assert "Traceback" not in done.stderr and "cannot cache function" not in done.stderr
    out = done.stdout.splitlines()
    assert out[0] == str(stream_state(7, 11).tolist())  # the kernel gives what it gives here
    if case == "no HOME" and not _user_home_unwritable():  # a user whose own home folder is writable: cached there
        assert out[1].startswith("True ") and done.stderr == ""
        return
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("beggarstats: the kernel cache ")
    assert "cannot be written" in lines[0] and "compiled for this run only" in lines[0]
    assert "BEGGARSTATS_CACHE_DIR" in lines[0]
    persistent, folder = out[1].split(" ", 1)
    assert persistent == "False" and Path(folder).name.startswith("beggarstats-kernels-")
    assert out[2] == f"False {folder}" and out[3] == "''"  # a worker process: the same folder, said once
    assert not Path(folder).exists()  # removed at exit
    assert os.listdir(read_only) == [] and not list(tmp_path.glob("~*"))
    assert not list(package_copy.rglob("*.nbi"))  # never numba's own place beside the sources


def test_root_with_an_unusable_cache_dir_says_so_and_leaves_the_package_alone(package_copy, tmp_path):
    """Root writes the package's folder: numba cached there silently, and every `BEGGARSTATS_CACHE_DIR`
    that is not a folder went unsaid (item 7). Run as this process's own user."""
    a_file = tmp_path / "cache"
    a_file.write_text("not a folder")
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(package_copy), "HOME": str(tmp_path),
           "BEGGARSTATS_CACHE_DIR": str(a_file)}
    _writable_tree(package_copy)  # the package's folder as root has it: writable
    try:
        done = subprocess.run([sys.executable, "-c", CODE], env=env, capture_output=True, text=True, cwd=tmp_path,
                              timeout=600)
    finally:
        _read_only_tree(package_copy)
    assert done.returncode == 0, done.stderr[-3000:]
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and str(a_file) in lines[0] and "compiled for this run only" in lines[0]
    assert done.stdout.splitlines()[1].startswith("False ")
    assert not list(package_copy.rglob("*.nbi")) and a_file.read_text() == "not a folder"
