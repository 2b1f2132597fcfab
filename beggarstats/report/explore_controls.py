"""The explorer's controls: one per option of `Rules` (`game.rules.rule_options`, so a new option
gets a control), the custom deck, the sample size and the seed, checked in words; and the plain
stand-ins of ipywidgets a panel built with ``panel=False`` holds instead (nothing displayed)."""

from __future__ import annotations

import numpy as np

from ..game.decks import Deck
from ..game.rules import RuleOption, Rules, rule_options

__all__ = ["build_rules", "check_sample", "DECKS", "GAMES_RANGE", "SEED_RANGE", "widgets", "control", "add_classes"]

DECKS = ("standard", "italian", "custom")
GAMES_RANGE = (100, 10_000_000)  # games per sample the explorer runs (more: use `simulate`)
SEED_RANGE = (0, 2**64 - 1)  # as `simulate` takes it
_SLIDER_SPAN = 20  # whole-number options with at most this many values get a slider, others a box


def build_rules(*, custom_deck: str = "10/2/0/0/0", **values) -> Rules:
    """The `Rules` of the explorer's controls.

    ``values`` are options of `Rules` by their field names, as the controls hold them: ``deck`` is
    'standard', 'italian' or 'custom' (then ``custom_deck`` gives the counts of number cards,
    Jacks, Queens, Kings and Aces as 'n/j/q/k/a'), and an optional whole-number option (``max_cards``)
    is 0 for none. Invalid values raise ValueError naming the control.
    """
    options = {o.name: o for o in rule_options()}
    unknown = sorted(set(values) - set(options))
    if unknown:
        raise ValueError(f"The keyword `{unknown[0]}` names no rule option; the options are {list(options)}.")
    deck = values.get("deck", "standard")
    if deck == "custom":
        parts = str(custom_deck).replace(" ", "").split("/")
        if len(parts) != 5 or not all(p.isdigit() for p in parts):
            raise ValueError(f"The value for `custom_deck` must be five whole numbers n/j/q/k/a "
                             f"(number cards, Jacks, Queens, Kings, Aces), but {custom_deck!r} was passed.")
        values["deck"] = Deck.from_counts([int(p) for p in parts])
    elif deck not in DECKS:
        raise ValueError(f"The value for `deck` must be one of {list(DECKS)}, but {deck!r} was passed.")
    for name, option in options.items():
        if option.kind == "int" and option.optional and values.get(name) == 0:
            values[name] = None
    return Rules(**values)


def check_sample(games, seed) -> tuple[int, int]:
    """The explorer's sample size and seed, checked: a value out of range is refused in words
    (never clamped silently, never run)."""
    for name, value, (low, high) in (("games", games, GAMES_RANGE), ("seed", seed, SEED_RANGE)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not low <= value <= high:
            shown = f"{value:,}" if isinstance(value, (int, np.integer)) and not isinstance(value, bool) else repr(value)
            raise ValueError(f"The value for `{name}` must be a whole number from {low:,} to {high:,}, but {shown} "
                             f"was typed: nothing was run.")
    return int(games), int(seed)


def widgets(panel: bool = True):
    """ipywidgets, or for ``panel=False`` the plain stand-ins of `_PlainWidgets`."""
    if not panel:
        return _PlainWidgets
    import ipywidgets

    return ipywidgets


class _Plain:
    """A control without a front end: it holds its value (and whatever else it is given) and calls its
    observers when the value changes, as an ipywidgets control does; nothing is sent anywhere."""

    def __init__(self, children=(), **kwargs):
        self.children = tuple(children)
        self._observers: list = []
        self._value = kwargs.pop("value", None)
        self.__dict__.update(kwargs)

    @property
    def value(self):
        return self._value

    @value.setter
    def value(self, new):
        old, self._value = self._value, new
        if new != old:
            for handler in list(self._observers):
                handler({"name": "value", "old": old, "new": new, "owner": self})

    def observe(self, handler, names=None) -> None:
        self._observers.append(handler)

    def on_click(self, handler) -> None:  # nobody clicks a control without a front end
        pass

    def add_class(self, name: str) -> None:
        pass


class _PlainWidgets:
    """The few ipywidgets names the panels use, as `_Plain` controls."""

    Dropdown = Checkbox = IntSlider = IntText = Text = Textarea = ToggleButtons = Button = HTML = Output = \
        VBox = HBox = Layout = _Plain


def control(w, option: RuleOption):
    """The widget of one rule option (its kind decides which)."""
    style = {"description_width": "initial"}
    if option.kind == "choice":
        return w.Dropdown(options=option.choices, value=option.default, description=option.name, style=style)
    if option.kind == "deck":
        return w.Dropdown(options=DECKS, value=option.default, description=option.name, style=style)
    if option.kind == "flag":
        return w.Checkbox(value=option.default, description=option.name, style=style, indent=False)
    if option.kind == "int":
        if option.high - option.low <= _SLIDER_SPAN:
            return w.IntSlider(value=option.default if option.default is not None else option.low, min=option.low,
                               max=option.high, description=option.name, style=style, continuous_update=False)
        # a plain box: a value out of range is refused in words by Rules, never clamped
        label = f"{option.name} (0: none)" if option.optional else option.name
        return w.IntText(value=option.default or 0, description=label, style=style, continuous_update=False)
    raise TypeError(f"Rule option {option.name!r} has kind {option.kind!r}, which has no control.")  # pragma: no cover  # internal: a new option kind without its control



def add_classes(*pairs) -> None:
    """CSS classes on widgets (widget, class, widget, class, ...): names a page can be read by (the
    browser test finds the controls and panels by them)."""
    for widget, name in zip(pairs[::2], pairs[1::2]):
        widget.add_class(name)

