"""A real browser for the slow tests: Debian's Chromium driven by playwright-python (no browser
download: the executable is the system's), a JupyterLab server on 127.0.0.1, and a static file
server, each started on a free port and stopped after the test.

Install what it needs (`.ci/run` does): ``apt-get install chromium`` and ``pip install ".[browser]"``.
A missing piece fails the test with what to install; it is never skipped.
"""

from __future__ import annotations

import contextlib
import functools
import http.server
import os
import secrets
import shutil
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

__all__ = ["chromium_path", "free_port", "jupyter_lab", "static_server", "launch", "Console", "screenshot_dir"]

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
