"""What `beggarstats explore` serves with Voilà, generated from the installed package rather than read
from a source tree, so that it works from any install: a notebook holding the explorer and the
replayer of notebooks/00_explorer, each as its live widget alone (no code, no saved picture), and a
Voilà template that is Voilà's own ``lab`` template without the two style sheets it fetches from a
CDN (the page works offline, and logs no failed request there; Voilà bundles the same icons)."""

from __future__ import annotations

from pathlib import Path

__all__ = ["app_notebook", "write_app", "APP_NAME", "TEMPLATE"]

APP_NAME = "beggarstats-explorer.ipynb"  # its name is the page's title in Voilà
TEMPLATE = "beggarstats"  # the Voilà template, under <folder>/jupyter/voila/templates (JUPYTER_PATH)
_CDN = ('<link rel="stylesheet" href="https://cdn.jsdelivr.net/npm/@fortawesome/fontawesome-free@^5/css/{}.min.css" '
        'type="text/css" />')
_INDEX = ("{%- extends 'lab/index.html.j2' -%}\n{%- block notebook_css -%}\n{{ super()"
          + "".join(f" | replace('{_CDN.format(name)}', '')" for name in ("all", "v4-shims"))
          + " }}\n{%- endblock notebook_css -%}\n")

_INTRO = """# beggarstats: choose the rules, see the games

Players, deck, every rule option, the sample size and the seed: every change plays the sample again
and shows the length of the games, their survival curve, every seat's win rate and the comparison with
the standard game at the same player count. Game *g* is dealt from (seed, *g*) alone and jokers are
slipped into the deal without them, so every rule option but the deck plays the standard game's own
deals and is compared with it paired, deal by deal, as `beggarstats compare` does; another deck deals
other games and is compared as an independent sample."""

_REPLAY = """## Replay one deal

*seed and game* replays a game of the explorer's table under its rules; *deal* plays a pasted deal
(seat 0 first, top card first, hands joined by `/`). *play*, then the slider steps through the tricks."""


def app_notebook(*, games: int, seed: int, n_jobs: int | None):
    """The page as a notebook (an nbformat node): the explorer starting with ``games`` games of
    ``seed`` on ``n_jobs`` workers, and the replayer under the explorer's rules."""
    import nbformat.v4 as v4

    code = (f"%matplotlib inline\n"
            f"from IPython.display import display\n\n"
            f"from beggarstats.report.explore import Explorer, Replayer\n\n"
            f"explorer = Explorer(games={int(games)}, seed={int(seed)}, n_jobs={n_jobs!r})\n"
            f"display(explorer.widget)")
    replay = f"replayer = Replayer(lambda: explorer.rules, seed={int(seed)}, game=0)\ndisplay(replayer.widget)"
    nb = v4.new_notebook(cells=[v4.new_markdown_cell(_INTRO), v4.new_code_cell(code), v4.new_markdown_cell(_REPLAY),
                                v4.new_code_cell(replay)])
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


def write_app(folder, **kwargs) -> tuple[Path, Path]:
    """Write `app_notebook` (``kwargs``: its arguments) and the template `TEMPLATE` into ``folder``:
    (the notebook's path, the folder to put on JUPYTER_PATH for Voilà to find the template)."""
    import json

    import nbformat

    path, data = Path(folder) / APP_NAME, Path(folder) / "jupyter"
    nbformat.write(app_notebook(**kwargs), path)
    template = data / "voila" / "templates" / TEMPLATE
    template.mkdir(parents=True)
    (template / "conf.json").write_text(json.dumps({"base_template": "lab"}))
    (template / "index.html.j2").write_text(_INDEX)
    return path, data
