"""A real browser for the slow tests: Debian's Chromium driven by playwright-python (no browser
download: the executable is the system's), a JupyterLab server on 127.0.0.1, a static file server
and `beggarstats explore`, each started on a free port and stopped after the test.

Install what it needs (`.ci/run` does): ``apt-get install chromium`` and ``pip install ".[browser]"``.
A missing piece fails the test with what to install; it is never skipped.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import queue
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

__all__ = ["chromium_path", "free_port", "jupyter_lab", "static_server", "explore_server", "launch", "Console",
           "screenshot_dir"]

CHROMIUM_CANDIDATES = ("chromium", "chromium-browser")


def chromium_path() -> str:
    """The system Chromium (``BEGGARSTATS_CHROMIUM`` overrides); an AssertionError says how to install it."""
    given = os.environ.get("BEGGARSTATS_CHROMIUM")
    found = given or next((p for p in map(shutil.which, CHROMIUM_CANDIDATES) if p), None)
    assert found and Path(found).exists(), (
        "the browser tests need Debian's chromium package: apt-get install chromium "
        "(or set BEGGARSTATS_CHROMIUM to a Chromium executable)")
    return found


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _wait_for(url: str, timeout: float, proc=None) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server stopped with status {proc.returncode} before answering {url}")
        try:
            with urllib.request.urlopen(url, timeout=2) as r:
                if r.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError(f"nothing answered at {url} within {timeout:.0f} s")


@contextlib.contextmanager
def jupyter_lab(root: Path, *, env: dict | None = None, log: Path | None = None, timeout: float = 120):
    """JupyterLab serving ``root`` on 127.0.0.1 with a random token; yields its base URL with the
    token as ``(url, token)``. Settings, workspaces and runtime files stay in ``root``'s parent."""
    port, token = free_port(), secrets.token_hex(16)
    home = root.parent / "jupyter-home"
    for sub in ("settings", "workspaces", "runtime", "config", "data"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    # no "would you like to get notified about news?" toast over the page (nor a request for news)
    notification = home / "settings" / "@jupyterlab" / "apputils-extension" / "notification.jupyterlab-settings"
    notification.parent.mkdir(parents=True, exist_ok=True)
    notification.write_text('{"fetchNews": "false", "checkForUpdates": false}')
    # no autosave: the file on disk changes only when a test saves it (what a reload then shows depends on it)
    docmanager = home / "settings" / "@jupyterlab" / "docmanager-extension" / "plugin.jupyterlab-settings"
    docmanager.parent.mkdir(parents=True, exist_ok=True)
    docmanager.write_text('{"autosave": false}')
    full_env = dict(os.environ, JUPYTERLAB_SETTINGS_DIR=str(home / "settings"),
                    JUPYTERLAB_WORKSPACES_DIR=str(home / "workspaces"), JUPYTER_RUNTIME_DIR=str(home / "runtime"),
                    JUPYTER_CONFIG_DIR=str(home / "config"), **(env or {}))
    cmd = [sys.executable, "-m", "jupyterlab", "--no-browser", "--ServerApp.ip=127.0.0.1",
           f"--ServerApp.port={port}", "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
           f"--ServerApp.root_dir={root}", "--LabApp.expose_app_in_browser=True",
           "--LabApp.news_url=", "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
           "--LabApp.extension_manager=readonly", "--allow-root"]  # CI runs as root
    out = open(log, "w") if log else subprocess.DEVNULL
    proc = subprocess.Popen(cmd, env=full_env, stdout=out, stderr=subprocess.STDOUT, cwd=root)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_for(f"{url}/api/status?token={token}", timeout, proc)
        yield url, token
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        if log:
            out.close()


@contextlib.contextmanager
def static_server(root: Path):
    """A quiet static HTTP server of ``root`` on 127.0.0.1 (in a thread); yields its base URL."""
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()),
                                             functools.partial(Quiet, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


class Served:
    """A `beggarstats explore` process: its address (``url``), and what it printed (``lines``, ``err``)."""

    def __init__(self, proc, url: str, lines: list[str], err: Path):
        self.proc, self.url, self.lines, self._err = proc, url, lines, err

    def interrupt(self, timeout: float = 60) -> int:
        """Ctrl-C, as a terminal sends it (SIGINT to the process group); its exit status."""
        os.killpg(self.proc.pid, signal.SIGINT)
        return self.proc.wait(timeout=timeout)

    @property
    def err(self) -> str:
        return self._err.read_text()


@contextlib.contextmanager
def explore_server(cwd: Path, *args: str, timeout: float = 120):
    """`beggarstats explore --port <free> ARGS` as a user starts it: the installed command (the
    console script beside this Python), run from ``cwd``, nothing on PYTHONPATH, in a process group
    of its own (so that SIGINT reaches it as Ctrl-C does). Yields a `Served` once it printed its
    address."""
    script = Path(sys.executable).with_name("beggarstats")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    err = cwd / "explore.err"
    proc = subprocess.Popen([str(script), "explore", "--port", str(free_port()), *args], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=open(err, "w"), text=True, start_new_session=True)
    lines: list[str] = []
    said: queue.Queue = queue.Queue()

    def read():
        for line in proc.stdout:
            lines.append(line.rstrip("\n"))
            said.put(line)
    threading.Thread(target=read, daemon=True).start()
    try:
        try:
            first = said.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"beggarstats explore printed no address within {timeout:.0f} s: {err.read_text()}")
        assert " is at http://127.0.0.1:" in first, (first, err.read_text())
        # printed once the server listens; a request here would run the page in a kernel for nothing
        yield Served(proc, first.split(" is at ", 1)[1].split()[0], lines, err)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGINT)
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()


@contextlib.contextmanager
def launch():
    """Headless Chromium (the system's) through playwright; yields the Browser."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:  # pragma: no cover - said, not skipped
        raise AssertionError('the browser tests need playwright-python: pip install ".[browser]"') from exc
    with sync_playwright() as p:
        # --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start
        browser = p.chromium.launch(executable_path=chromium_path(), headless=True,
                                    args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"])
        try:
            yield browser
        finally:
            browser.close()


class Console:
    """Every console error and uncaught page error of a page, kept as text."""

    def __init__(self, page):
        self.errors: list[str] = []
        page.on("console", lambda msg: self.errors.append(f"console {msg.type}: {msg.text} "
                                                          f"({msg.location.get('url', '')})")
                if msg.type == "error" else None)
        page.on("pageerror", lambda exc: self.errors.append(f"page error: {exc}"))


def screenshot_dir(tmp_path_factory, name: str) -> Path:
    """Where a test keeps its screenshots: ``BEGGARSTATS_SCREENSHOTS/name`` when that is set, else
    ``name`` under pytest's base temporary directory (kept for the last three runs)."""
    base = os.environ.get("BEGGARSTATS_SCREENSHOTS")
    path = Path(base) / name if base else tmp_path_factory.getbasetemp() / "screenshots" / name
    path.mkdir(parents=True, exist_ok=True)
    return path
