"""`beggarstats explore`: the explorer of notebooks/00_explorer as a page of its own on localhost, for
readers who do not use JupyterLab (Voilà, the ``app`` extra).

The page is a notebook generated from the installed package (`report.explore_app`) into a temporary
folder, served by Voilà on 127.0.0.1 with a random token in its address; each visit runs it in a
kernel of its own. Ctrl-C stops the server and its kernels (exit 0). A busy port and a missing extra
are refused in one line (exit 2), before anything starts.
"""

from __future__ import annotations

import argparse
import errno
import importlib.util
import signal
import socket
import sys

from .options import add_jobs_option, check_run_options, whole_number

__all__ = ["HELP", "add_parser", "run", "check_port", "missing_extra", "DEFAULT_PORT", "HOST"]

HELP = "the explorer as a page of its own in the browser (Voilà: pip install \"beggarstats[app]\")"
DEFAULT_PORT = 8866  # Voilà's own default
HOST = "127.0.0.1"  # this machine only
EXTRA = ("voila", "ipywidgets", "ipykernel")  # what the `app` extra installs
WIDGET_EXTENSIONS = ("@jupyter-widgets/jupyterlab-manager", "@voila-dashboards/widgets-manager8")


def _port(text: str) -> int:
    value = whole_number(text)
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"must be a port number from 1 to 65535, but {text.strip()!r} was passed")
    return value


def add_parser(subparsers) -> argparse.ArgumentParser:
    from ..report.defaults import DEFAULT_SEED

    p = subparsers.add_parser(
        "explore", help=HELP,
        description="Serve the explorer of notebooks/00_explorer (choose players, deck, every rule option, the "
                    "sample size and the seed; see lengths, survival, seat win rates and the paired comparison "
                    "with the standard game; replay a deal trick by trick) as a page of its own on "
                    f"{HOST}, and print its address; Ctrl-C stops it. Needs the app extra: "
                    "pip install \"beggarstats[app]\".")
    p.add_argument("--port", type=_port, default=DEFAULT_PORT, help=f"port on {HOST} (default {DEFAULT_PORT})")
    p.add_argument("--games", type=whole_number, default=100_000,
                   help="games per sample the explorer starts with; its own box changes it (default 100,000)")
    p.add_argument("--seed", type=whole_number, default=DEFAULT_SEED,
                   help=f"the seed the explorer starts with (default {DEFAULT_SEED})")
    add_jobs_option(p)
    p.add_argument("--open", action="store_true", help="also open the page in the default web browser (default off)")
    return p


def missing_extra() -> list[str]:
    """The packages of the ``app`` extra that cannot be imported."""
    return [name for name in EXTRA if importlib.util.find_spec(name) is None]


def check_port(port: int, host: str = HOST) -> None:
    """Refuse a port something already listens on (an OSError naming --port), as the server would
    bind it (address reuse on, so a port left in TIME_WAIT is free)."""
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((host, port))
        except OSError as exc:
            if exc.errno in (errno.EADDRINUSE, errno.EACCES):
                raise OSError(f"--port {port} on {host} is {'in use' if exc.errno == errno.EADDRINUSE else 'not allowed'}"
                              f" (another server?): choose another with --port") from None
            raise


def run(args) -> int:
    from ..report.explore_controls import check_sample

    missing = missing_extra()
    if missing:
        raise ValueError(f"the explorer page needs {', '.join(missing)}, which {'is' if len(missing) == 1 else 'are'} "
                         "not installed: "
                         "pip install \"beggarstats[app]\"")  # names: the packages missing, and the extra to install
    check_run_options(args, "games")
    check_sample(args.games, args.seed)
    check_port(args.port)
    import tempfile

    from ..report.explore_app import write_app

    with tempfile.TemporaryDirectory(prefix="beggarstats-explore-") as folder:
        path, data = write_app(folder, games=args.games, seed=args.seed, n_jobs=args.jobs)
        _serve(path, data, args.port, open_browser=args.open)
    print("beggarstats explore: stopped")
    return 0


def _serve(path, data, port: int, *, open_browser: bool) -> None:
    """Voilà on ``path`` (its template under ``data``) until Ctrl-C; Voilà stops its kernels on the way out."""
    import os

    from voila.app import Voila

    from ..report.explore_app import TEMPLATE

    os.environ["JUPYTER_PATH"] = os.pathsep.join(filter(None, [str(data), os.environ.get("JUPYTER_PATH")]))

    class BeggarstatsExplore(Voila):
        def launch_browser(self):  # called once the server listens: the address, then the browser if asked
            url = self.display_url
            print(f"beggarstats explore: the explorer is at {url}\n(Ctrl-C stops it)", flush=True)
            if open_browser:
                import webbrowser

                webbrowser.open(url)

    app = BeggarstatsExplore()
    # only the widgets' extensions (ipywidgets' controls, Voilà's manager of them): another JupyterLab
    # extension of this environment may not load outside JupyterLab (jupytext's does not) and would
    # log an error on the page
    app.initialize([str(path), f"--port={port}", "--token", "--Voila.ip=" + HOST, "--Voila.port_retries=0",
                    "--Voila.log_level=ERROR", f"--Voila.root_dir={path.parent}", f"--template={TEMPLATE}",
                    *(f"--VoilaConfiguration.extension_allowlist={name}" for name in WIDGET_EXTENSIONS)])
    app.open_browser = True  # launch_browser above: print the address once listening

    def stop_on_ctrl_c(sig, frame):
        # Ctrl-C as Voilà takes SIGTERM: the loop stops between two callbacks, then Voilà shuts its kernels
        # down. Left to Python, the KeyboardInterrupt lands wherever the loop happens to be, and now and then
        # the kernels' shutdown after it never ended (the browser test's server, killed after 60 s in CI).
        loop = getattr(app, "ioloop", None)
        if loop is None:  # not serving yet
            raise KeyboardInterrupt
        loop.add_callback_from_signal(loop.stop)

    signal.signal(signal.SIGINT, stop_on_ctrl_c)
    sys.stdout.flush()
    app.start()
