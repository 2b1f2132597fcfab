"""The explorer as a reader meets it: in JupyterLab, and as a page of its own (`beggarstats explore`),
in headless Chromium (issues #25, #38, #50).

`test_explorer_in_jupyterlab` copies ``notebooks/00_explorer.ipynb`` into a temporary folder (the
test saves it; the committed notebook stays as it is; autosave is off), serves it with JupyterLab on
127.0.0.1 with a random token, opens it in the system's Chromium through playwright, and checks what
a reader sees:

* opened as committed, the kernel started and idle (a notebook JupyterLab does not trust, which
  draws no widget view): each panel's saved picture - status line, figure, tables - saying that it
  is a picture and not the live panel, and nowhere the widget's text ``VBox(children=...``;
* the picture's one button (*Run all cells*, confirmed in JupyterLab's dialog for a notebook it does
  not trust): the live panels as they start (standard rules, the notebook's games and seed,
  comparison "nothing to compare", no deal replayed), whatever the example cells below them compute;
* the page reloaded without saving, the kernel still running and idle: the pictures again, and the
  button brings the live panels back; a control changed there moves the figure;
* saved (JupyterLab signs what it ran) and reloaded: the live panels by themselves, drawn from the
  kernel as the reader left them, and live - the rest of the test drives them on the reloaded page.

It then changes the controls as a reader would - a variant, the deck, the seed - and checks that the
status line, the figure and the tables change each time; that a bad value shows its message and
clears the stale result (explorer and replayer); that the replayer plays a game; and that the page
logs no console or page error. `test_explore_page` does the same for `beggarstats explore`.

Screenshots after each change are kept in ``screenshots/explorer`` and ``screenshots/explore`` under
pytest's base temporary directory (``BEGGARSTATS_SCREENSHOTS=DIR`` puts them under ``DIR``).
Needs Debian's ``chromium`` and ``pip install ".[test]"`` (`.ci/run` installs both):

    python -m pytest -m browser tests/report/test_browser.py -s
"""

import os
import shutil
from pathlib import Path

import pytest

from _browser import Console, explore_server, jupyter_lab, launch, screenshot_dir, static_server
from _scripts import load_script

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "00_explorer.ipynb"
GAMES = 20_000  # the notebook's shared sample size; the explorer starts with half of it
WAIT = 300_000  # ms: a cold kernel cache compiles the game kernels inside the notebook's kernel

pytestmark = [pytest.mark.slow, pytest.mark.browser]


def _text(page, selector: str) -> str:
    return page.locator(selector).first.inner_text()


def _plot(page) -> str:
    """The src of the explorer's figure ('' when none is shown)."""
    imgs = page.locator(".bs-explorer .bs-plot img")
    return imgs.first.get_attribute("src") if imgs.count() else ""


def _answered(page, *, contains: str, timeout: int = WAIT) -> str:
    """Wait until the explorer's status line holds ``contains`` and no longer says it is running."""
    page.wait_for_function(
        """(want) => { const e = document.querySelector('.bs-explorer .bs-status');
                      return e && e.innerText.includes(want) && !e.innerText.includes('running'); }""",
        arg=contains, timeout=timeout)
    page.wait_for_timeout(300)  # the outputs follow the status line's message
    return _text(page, ".bs-explorer .bs-status")


def _state(page) -> dict:
    return {"status": _text(page, ".bs-explorer .bs-status"), "plot": _plot(page),
            "seats": page.locator(".bs-explorer .bs-seats").inner_text(),
            "comparison": page.locator(".bs-explorer .bs-comparison").inner_text()}


def _changed(before: dict, after: dict, *, keys=("status", "plot", "seats")) -> None:
    for key in keys:
        assert after[key] != before[key], f"the explorer's {key} did not change"
    assert after["plot"].startswith("data:image/png"), "the explorer shows no figure"


def _fill(page, control: str, value: str) -> None:
    box = page.locator(f".bs-explorer .bs-control-{control} input").first
    box.fill(value)
    box.press("Enter")


def _slide(page, control: str, value: int) -> None:
    """A slider set as a reader types into its readout."""
    readout = page.locator(f".bs-explorer .bs-control-{control} .widget-readout").first
    readout.click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(value))
    page.keyboard.press("Enter")


def _refused(page, control: str, value: str, *, says: str) -> dict:
    """Type a value the explorer refuses: its message comes, and every stale result goes."""
    _fill(page, control, value)
    page.wait_for_function("(want) => document.querySelector('.bs-explorer .bs-status').innerText.includes(want)",
                           arg=says, timeout=WAIT)
    page.wait_for_timeout(500)
    state = _state(page)
    assert state["plot"] == "" and state["seats"].strip() == "" and state["comparison"].strip() == "", state
    return state


WIDGET_TEXT = ("VBox(children", "HBox(children", "ToggleButtons(", "IntSlider(")  # a widget's repr, not a panel


def _notebook_ready(page) -> None:
    page.wait_for_selector(".jp-Notebook", timeout=WAIT)
    page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                           " && window.jupyterapp.shell.currentWidget.sessionContext", timeout=WAIT)
    page.evaluate("async () => { await window.jupyterapp.shell.currentWidget.sessionContext.ready; }")


def _outputs(page) -> list[dict]:
    """Every output of the notebook: the mime type JupyterLab chose and its text (textContent, which
    cells scrolled out of view keep)."""
    return page.evaluate("() => [...document.querySelectorAll('.jp-OutputArea-output')].map(e =>"
                         " ({mime: e.getAttribute('data-mime-type'), text: e.textContent}))")


def _no_widget_text(page) -> None:
    shown = [o["text"][:120] for o in _outputs(page) if any(t in o["text"] for t in WIDGET_TEXT)]
    assert shown == [], f"a panel is shown as its widget's text: {shown}"


KERNEL_ID = "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.id"


def _run_from_picture(page) -> None:
    """Click the explorer picture's button, confirm JupyterLab's question (the notebook is not
    trusted: "Run Once"), and wait until every cell has run."""
    button = page.locator(".bs-explorer-snapshot button.bs-run-all").first
    assert button.is_visible() and button.inner_text() == "Run all cells"
    button.click()
    dialog = page.locator(".jp-Dialog")
    dialog.wait_for(timeout=WAIT)
    assert "Run All Cells" in dialog.inner_text()
    dialog.locator("button", has_text="Run Once").click()
    page.wait_for_selector(".bs-explorer .bs-status", state="attached", timeout=WAIT)  # the explorer's cell ran
    page.wait_for_function("() => ![...document.querySelectorAll('.jp-InputArea-prompt')]"
                           ".some(e => e.textContent.includes('*'))", timeout=WAIT)  # and the cells queued after it


def _reload(page) -> None:
    page.evaluate("() => { window.bsBeforeReload = true; }")
    page.reload(timeout=WAIT)
    _notebook_ready(page)
    assert page.evaluate("() => window.bsBeforeReload === undefined")  # a new page, not the old one


def _pictures(page, shots: Path, name: str) -> dict:
    """The committed notebook as a reader first opens it (or reopens it unsaved): each panel's saved
    picture, not its text."""
    page.wait_for_selector(".bs-explorer-snapshot", state="attached", timeout=WAIT)
    picture = page.locator(".bs-explorer-snapshot").first
    picture.scroll_into_view_if_needed()
    page.wait_for_function("() => { const i = document.querySelector('.bs-explorer-snapshot img');"
                           " return i && i.complete && i.naturalWidth > 0; }", timeout=WAIT)
    texts = {"explorer": picture.text_content(),
             "replayer": page.locator(".bs-replayer-snapshot").first.text_content()}
    assert page.locator(".bs-explorer-snapshot img").first.get_attribute("src").startswith("data:image/png")
    assert "2 players, standard" in texts["explorer"] and "win rate %" in texts["explorer"]
    # what the picture is, true whether the kernel runs or not; and the one button that brings the panel back
    for text in texts.values():
        assert "as this notebook was saved, not the live panel" in text and "are run in JupyterLab" in text
    assert "nothing to compare" in texts["explorer"] and "no game played yet" in texts["replayer"]
    assert page.locator(".bs-explorer-snapshot button.bs-run-all").first.is_visible()
    assert page.locator(".bs-explorer").count() == 0  # no widget view: the notebook is not trusted yet
    mimes = [o["mime"] for o in _outputs(page) if "A picture of the" in o["text"]]
    assert mimes == ["text/html", "text/html"], mimes
    _no_widget_text(page)
    picture.screenshot(path=shots / f"{name}.png")
    return texts


def _starts_as_written(page, shots: Path, name: str) -> None:
    """The live panels as the notebook's prose says they start: standard rules at the notebook's games
    and seed, no deal replayed - whatever the example cells computed after them."""
    status = _answered(page, contains=f"{GAMES // 2:,} games")
    assert f"2 players, standard: {GAMES // 2:,} games (seed 2026)" in status, status
    state = _state(page)
    assert state["plot"].startswith("data:image/png") and "seat" in state["seats"]
    assert "nothing to compare" in state["comparison"]
    assert not page.locator(".bs-explorer .bs-control-shuffle_pile input[type=checkbox]").first.is_checked()
    assert page.locator(".bs-explorer .bs-control-deck select").first.input_value() == "standard"
    replayer = page.locator(".bs-replayer").first
    assert replayer.locator(".bs-replay-status").text_content().strip() == ""
    assert replayer.locator(".bs-replay-plot img").count() == 0
    assert "seed and game" in replayer.locator(".bs-replay-source button.mod-active").first.text_content()
    _no_widget_text(page)
    page.locator(".bs-explorer").first.screenshot(path=shots / f"{name}.png")


def test_explorer_in_jupyterlab(tmp_path, tmp_path_factory):
    shots = screenshot_dir(tmp_path_factory, "explorer")
    work = tmp_path / "lab"
    work.mkdir()
    shutil.copy(NOTEBOOK, work / NOTEBOOK.name)
    # the kernel imports the package of this checkout, not whichever one is installed
    path = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    env = {"BEGGARSTATS_NOTEBOOK_GAMES": str(GAMES), "MPLBACKEND": "module://matplotlib_inline.backend_inline",
           "PYTHONPATH": path}
    with jupyter_lab(work, env=env, log=tmp_path / "jupyterlab.log") as (url, token), launch() as browser:
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        console = Console(page)

        def shot(name):
            page.locator(".bs-explorer").first.screenshot(path=shots / f"{name}.png")

        page.goto(f"{url}/lab/tree/{NOTEBOOK.name}?token={token}", timeout=WAIT)
        _notebook_ready(page)
        # the committed notebook as a reader first opens it, its kernel idle, nothing run: the panels'
        # saved pictures, and the one button that brings the live panels
        _pictures(page, shots, "00-opened-pictures")
        page.screenshot(path=shots / "00-opened-page.png")
        _run_from_picture(page)
        # Run All leaves the live panels as they start, not as the example cells below them set theirs
        _starts_as_written(page, shots, "01-run-from-button")

        # reloaded without saving (the page asks whether to leave: yes), the kernel running and idle: the
        # notebook on disk is still the committed one, not trusted, so the pictures again - never the
        # widgets' text - and their button brings the live panels back
        assert page.evaluate("() => window.jupyterapp.shell.currentWidget.context.model.dirty")
        kernel = page.evaluate(KERNEL_ID)
        page.once("dialog", lambda dialog: dialog.accept())
        _reload(page)
        assert page.evaluate(KERNEL_ID) == kernel  # the same kernel, which ran every cell
        page.wait_for_function("() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status"
                               " === 'idle'", timeout=WAIT)
        _pictures(page, shots, "01-reloaded-unsaved")
        _run_from_picture(page)
        _starts_as_written(page, shots, "01-run-again")
        start = _state(page)

        # players: the slider's readout, typed into as a reader does
        _slide(page, "players", 3)
        _answered(page, contains="3 players")
        three = _state(page)
        _changed(start, three)
        assert "2" in three["seats"].split("seat", 1)[1]  # seats 0, 1 and 2
        shot("02-players-3")

        # saved (JupyterLab signs what it ran) and reloaded: the live panels by themselves, from the kernel,
        # as the reader left them
        page.evaluate("async () => { await window.jupyterapp.commands.execute('docmanager:save'); }")
        _reload(page)
        page.wait_for_selector(".bs-explorer .bs-status", state="attached", timeout=WAIT)
        page.locator(".bs-explorer").first.scroll_into_view_if_needed()
        assert "3 players" in _answered(page, contains="3 players")
        assert page.locator(".bs-explorer-snapshot").count() == 0
        assert _state(page)["seats"] == three["seats"]
        shot("02-reloaded-saved")

        # a variant on the same deals: a paired comparison appears
        page.locator(".bs-explorer .bs-control-shuffle_pile input[type=checkbox]").first.check()
        _answered(page, contains="shuffle_pile")
        shuffled = _state(page)
        _changed(three, shuffled, keys=("status", "plot", "seats", "comparison"))
        assert "paired" in shuffled["comparison"] and "same deals" in shuffled["comparison"]
        shot("03-shuffle-pile")

        # another deck: other deals, an independent comparison
        page.locator(".bs-explorer .bs-control-deck select").first.select_option("italian")
        _answered(page, contains="italian deck")
        italian = _state(page)
        _changed(shuffled, italian, keys=("status", "plot", "seats", "comparison"))
        assert "independent" in italian["comparison"]
        shot("04-italian-deck")

        # the seed
        _fill(page, "seed", "7")
        _answered(page, contains="seed 7")
        seeded = _state(page)
        _changed(italian, seeded, keys=("status", "plot", "seats", "comparison"))
        shot("05-seed-7")

        # a bad custom deck: the message, and no stale figure or table below it
        page.locator(".bs-explorer .bs-control-deck select").first.select_option("custom")
        _answered(page, contains="10/2/0/0/0 deck")
        bad = _refused(page, "custom_deck", "10/2", says="`custom_deck`")
        assert "five whole numbers" in bad["status"]
        shot("06-bad-deck")

        # more games than the box allows: said in words, nothing run
        page.locator(".bs-explorer .bs-control-deck select").first.select_option("standard")
        _answered(page, contains="seed 7")
        clamp = _refused(page, "games", "20000000", says="nothing was run")
        assert "20,000,000" in clamp["status"] and "10,000,000" in clamp["status"]
        shot("07-too-many-games")
        _fill(page, "games", str(GAMES // 2))
        _answered(page, contains="seed 7")
        assert _plot(page).startswith("data:image/png")

        # the replayer: it plays game 0 of its seed under the explorer's rules, and a bad deal clears it
        replayer = page.locator(".bs-replayer").first
        replayer.scroll_into_view_if_needed()
        replayer.locator(".bs-replay-play button, button.bs-replay-play").first.click()
        page.wait_for_function("() => /wins after|loops|cut off/.test(document.querySelector("
                               "'.bs-replayer .bs-replay-status').innerText)", timeout=WAIT)
        page.wait_for_function("() => document.querySelectorAll('.bs-replayer .bs-replay-plot img').length == 1",
                               timeout=WAIT)
        assert "trick 1 of" in replayer.locator(".bs-replay-trick").inner_text()
        replayer.screenshot(path=shots / "08-replayer-game.png")
        replayer.locator(".bs-replay-source button", has_text="deal").first.click()
        replayer.locator(".bs-replay-deal textarea").fill("--Z-/----")
        replayer.locator(".bs-replay-play button, button.bs-replay-play").first.click()
        page.wait_for_function("() => document.querySelector('.bs-replayer .bs-replay-status').innerText"
                               ".includes('position 3')", timeout=WAIT)
        page.wait_for_timeout(500)
        assert replayer.locator(".bs-replay-plot img").count() == 0
        assert replayer.locator(".bs-replay-trick").inner_text().strip() == ""
        replayer.screenshot(path=shots / "09-replayer-bad-deal.png")

        assert console.errors == [], console.errors


# -- `beggarstats explore`: the explorer as a page of its own (Voilà) ---------------------------------

def test_explore_page(tmp_path, tmp_path_factory):
    """`beggarstats explore` as a reader who does not use JupyterLab meets it: the installed command run
    from another folder prints its address; the page there shows the explorer live; players, a variant
    (a joker, compared paired on the same deals) and the seed each change the status line, the figure
    and the tables; the page logs no error and loads nothing from outside; Ctrl-C stops it cleanly."""
    shots = screenshot_dir(tmp_path_factory, "explore")
    with explore_server(tmp_path, "--games", str(GAMES // 2), "--seed", "2026") as served, launch() as browser:
        assert served.url.startswith("http://127.0.0.1:") and "?token=" in served.url
        page = browser.new_page(viewport={"width": 1300, "height": 1000})
        console = Console(page)
        failed = []
        page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
        page.on("response", lambda r: failed.append(f"{r.url}: HTTP {r.status}") if r.status >= 400 else None)
        page.goto(served.url, timeout=WAIT)
        status = _answered(page, contains=f"{GAMES // 2:,} games")
        assert f"2 players, standard: {GAMES // 2:,} games (seed 2026)" in status, status
        start = _state(page)
        assert start["plot"].startswith("data:image/png") and "nothing to compare" in start["comparison"]
        assert "VBox(children" not in page.locator("body").inner_text()  # the widgets, not their text
        panel = page.locator(".bs-explorer").first
        panel.screenshot(path=shots / "00-opened.png")

        _slide(page, "players", 3)
        _answered(page, contains="3 players")
        three = _state(page)
        _changed(start, three)
        assert "2" in three["seats"].split("seat", 1)[1]  # seats 0, 1 and 2
        panel.screenshot(path=shots / "01-players-3.png")

        # a variant: one joker, slipped into the same deals, so the comparison is paired as `bs.compare` pairs it
        _slide(page, "jokers", 1)
        _answered(page, contains="1 joker")
        joker = _state(page)
        _changed(three, joker, keys=("status", "plot", "seats", "comparison"))
        assert "same deals (its jokers slipped into them)" in joker["comparison"]
        assert "cards played per card dealt" in joker["comparison"]  # the row `beggarstats compare` adds for jokers
        panel.screenshot(path=shots / "02-one-joker.png")

        _fill(page, "seed", "7")
        _answered(page, contains="seed 7")
        seeded = _state(page)
        _changed(joker, seeded, keys=("status", "plot", "seats", "comparison"))
        panel.screenshot(path=shots / "03-seed-7.png")

        assert console.errors == [], console.errors
        assert failed == [], failed
        # Ctrl-C with the page still open: the server and the page's kernel stop, quietly
        assert served.interrupt() == 0, served.err
        assert served.lines[-1] == "beggarstats explore: stopped" and "Traceback" not in served.err, served.err


# -- the results site, built and opened in the same browser ------------------------------------------

def _build_site(out: Path) -> list[str]:
    return load_script("tools/build_site.py").build(out)


def test_site_in_the_browser(tmp_path, tmp_path_factory):
    shots = screenshot_dir(tmp_path_factory, "site")
    out = tmp_path / "site"
    written = _build_site(out)
    notebooks = sorted(p for p in written if p.startswith("notebooks/0"))
    assert "index.html" in written and len(notebooks) == len(list((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")))
    with static_server(out) as url, launch() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        console = Console(page)
        failed = []
        page.on("requestfailed", lambda r: failed.append(f"{r.url}: {r.failure}"))
        page.on("response", lambda r: failed.append(f"{r.url}: HTTP {r.status}") if r.status >= 400 else None)
        links: dict[str, set] = {}  # internal link -> pages that carry it
        anchors: dict[str, set] = {}  # page -> ids on it
        for rel in written:
            response = page.goto(f"{url}/{rel}", wait_until="load")
            assert response.ok, f"{rel}: HTTP {response.status}"
            broken = page.evaluate("() => [...document.images].filter(i => !i.complete || i.naturalWidth === 0)"
                                   ".map(i => i.getAttribute('src').slice(0, 80))")
            assert broken == [], f"{rel}: images that did not load: {broken}"
            anchors[rel] = set(page.evaluate("() => [...document.querySelectorAll('[id], a[name]')]"
                                             ".map(e => e.id || e.getAttribute('name'))"))
            for href in page.evaluate("() => [...document.querySelectorAll('a[href]')].map(a => a.href)"):
                if href.startswith(url):
                    links.setdefault(href[len(url) + 1:], set()).add(rel)
            if rel == "index.html" or rel in notebooks:
                page.screenshot(path=shots / (rel.replace("/", "_").replace(".html", "") + ".png"))
        assert page.evaluate("() => document.images.length") >= 0
        bad = []
        for link, where in sorted(links.items()):
            target, _, fragment = link.partition("#")
            target = target or "index.html"
            if target not in anchors:
                if not (out / target).is_file():
                    bad.append(f"{link} (from {sorted(where)})")
                continue
            if fragment and fragment not in anchors[target]:
                bad.append(f"{link}: no #{fragment} on {target} (from {sorted(where)})")
        assert bad == [], "broken internal links:\n" + "\n".join(bad)
        assert failed == [], failed
        assert console.errors == [], console.errors
