"""What an explorer panel shows as a cell's result: the live widget view and, beside it, a picture of
what the panel shows (``text/html``: status line, figure, tables) with a line saying what it is.

JupyterLab draws a widget only from a *trusted* output (its widget renderer is registered as
unsafe): a notebook a reader opens for the first time, or reopens before it was saved since it ran,
is not trusted, and falls back to the picture; without it the reader would see the widget's text,
``VBox(children=...``.
"""

from __future__ import annotations

import pandas as pd

__all__ = ["escape", "caption", "snapshot", "png_html", "item_html", "plain_text", "bundle", "SNAPSHOT_NOTE",
           "RUN_COMMAND"]


def escape(text: str) -> str:
    import html

    return html.escape(text)


def caption(text: str):
    from IPython.display import Markdown

    shown = Markdown(f"**{text}**")
    setattr(shown, "caption", text)  # the plain text, for the panel's picture (`item_html`)
    return shown


# What the picture is, in words true with or without a kernel, and one button that brings the live
# panel back: JupyterLab runs the command of a `data-commandlinker-command` button even in an output
# it does not trust (its sanitizer keeps the attribute: setting `allowCommandLinker`, on by default).
# Elsewhere (a static page) the button does nothing; tools/build_site.py drops it.
RUN_COMMAND = "notebook:run-all-cells"
SNAPSHOT_NOTE = ("<p class='bs-snapshot-note'><em>A picture of the {what} as this notebook was saved, not the live "
                 "panel: its controls appear when the notebook's cells are run in JupyterLab.</em> "
                 f"<button class='bs-run-all' data-commandlinker-command='{RUN_COMMAND}' data-commandlinker-args='{{{{}}}}' "
                 "title='Run all cells'>Run all cells</button></p>")


def snapshot(parts: list[str], css: str) -> str:
    return f"<div class='{css}'>\n" + "\n".join(parts) + "\n</div>"


def png_html(figure) -> str:
    """A figure as an <img> with its PNG inline, drawn as the inline backend draws it."""
    import base64

    from IPython.core.pylabtools import print_figure

    data = base64.b64encode(print_figure(figure, "png")).decode("ascii")
    return f"<img src='data:image/png;base64,{data}' alt='the panel\'s figure'>"


def item_html(item) -> str:
    """One item the panel displays (a caption, a table) as HTML."""
    if isinstance(item, pd.DataFrame):
        return item.to_html(index=False)
    text = getattr(item, "caption", None)
    if text is not None:
        return f"<p><b>{escape(text)}</b></p>"
    return f"<p>{escape(str(getattr(item, 'data', item)))}</p>"  # pragma: no cover  # internal: the panels show captions and tables


def plain_text(html_text: str) -> str:
    """The text of a status line (its markup dropped, its entities read)."""
    import html
    import re

    return html.unescape(re.sub(r"<br\s*/?>", " ", re.sub(r"<(?!br)[^>]+>", "", html_text or ""))).strip()


def bundle(panel, *, include=None, exclude=None) -> dict:
    """A panel's output: its widget view (when it has a live panel), its picture and a line of text."""
    data = {"text/plain": repr(panel), "text/html": panel.snapshot_html()}
    if panel.panel:
        view = panel.widget._repr_mimebundle_()
        key = "application/vnd.jupyter.widget-view+json"
        if key in view:
            data[key] = view[key]
    if include:
        data = {k: v for k, v in data.items() if k in include}
    if exclude:
        data = {k: v for k, v in data.items() if k not in exclude}
    return data

