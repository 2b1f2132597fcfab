"""Running a notebook as the tests do: a fresh kernel, nbclient, no imitation of the Output widget (the
notebook tests, tests/report/test_notebooks.py, and the explorer's page, tests/report/test_explore.py)."""

from __future__ import annotations


def execute(nb, folder, *, timeout=600, mimic_output_widgets=False, allow_errors=False):
    """Run ``nb`` in a fresh kernel with ``folder`` as its working directory; returns the seconds
    each code cell took as the runner saw them, by cell index.

    nbclient imitates the front end's Output widget: each output the kernel routes into one (the
    explorer draws into three) is answered with a state update that nbclient *sends on the shell
    channel*, while it awaits the cell's reply on that same channel. Now and then the reply is then
    not noticed until the wait's timeout runs out, and the cell "succeeds" after the full timeout
    (a CI run: 604.7 s for a notebook that runs in 5 s; here, 9 of 150 cells writing into an Output
    widget waited out an 8 s timeout). The tests need no widget state, so they run without the
    imitation: what the kernel writes into an Output widget lands in the cell's outputs."""
    import ipykernel  # noqa: F401
    import nbclient
    import time

    started, seconds = {}, {}

    def start(cell, cell_index):
        started[cell_index] = time.monotonic()

    def done(cell, cell_index, execute_reply):
        seconds[cell_index] = time.monotonic() - started[cell_index]

    client = nbclient.NotebookClient(nb, kernel_name="python3", timeout=timeout, on_cell_start=start,
                                     on_cell_executed=done, allow_errors=allow_errors,
                                     resources={"metadata": {"path": str(folder)}})
    if not mimic_output_widgets:
        client.widget_registry = {}
    client.execute()
    return seconds
