"""The command line's rule flags are built from `Rules`' own list of options
(`game.rules.rule_options`): every option has a flag on every command that runs games, with the
API's choices, bounds and default, and a flag's value is the option's value."""

from __future__ import annotations

import dataclasses

import pytest

from beggarstats.cli import build_parser
from beggarstats.cli.options import flag_of, rules_from_args
from beggarstats.game.rules import Rules, rule_options

BATCH = ("simulate", "summarize", "matches")


def _parse(command: str, *argv: str):
    parser = build_parser(command)
    extra = {"play": ["K/-"]}.get(command, [])
    return parser.parse_args([command, *argv, *extra])


def _flags(command: str) -> set[str]:
    parser = build_parser(command)
    (sub,) = [a for a in parser._actions if a.dest == "command"]
    return {s for a in sub.choices[command]._actions for s in a.option_strings}


@pytest.mark.parametrize("command", BATCH + ("play",))
def test_every_rule_option_has_a_flag(command):
    wanted = {flag_of(o.name) for o in rule_options() if not (command == "play" and o.name == "players")}
    assert wanted <= _flags(command), sorted(wanted - _flags(command))


@pytest.mark.parametrize("command", BATCH)
def test_no_flag_is_the_api_default(command):
    assert rules_from_args(_parse(command)) == Rules()


def _other_value(opt):
    """A valid value of the option other than its default, and its flag's arguments."""
    if opt.kind in ("choice", "deck"):
        value = next(c for c in opt.choices if c != opt.default)
        return value, [flag_of(opt.name), value]
    if opt.kind == "flag":
        return (not opt.default), [flag_of(opt.name) if not opt.default else "--no-" + flag_of(opt.name)[2:]]
    value = opt.high if opt.default != opt.high else opt.low
    if opt.name == "players":
        value = 3
    return value, [flag_of(opt.name), str(value)]


@pytest.mark.parametrize("opt", rule_options(), ids=lambda o: o.name)
def test_each_flag_sets_its_option(opt):
    value, argv = _other_value(opt)
    rules = rules_from_args(_parse("simulate", *argv))
    assert getattr(rules, opt.name) == (Rules(deck=value).deck if opt.kind == "deck" else value)


@pytest.mark.parametrize("opt", [o for o in rule_options() if o.kind == "int"], ids=lambda o: o.name)
def test_integer_flags_take_the_api_range(opt, capsys):
    for inside in (opt.low, opt.high):
        assert getattr(_parse("simulate", flag_of(opt.name), str(inside)), opt.name) == inside
        Rules(**{opt.name: inside})  # the API takes it too
    for outside in (opt.low - 1, opt.high + 1):
        with pytest.raises(SystemExit) as exc:
            _parse("simulate", flag_of(opt.name), str(outside))
        assert exc.value.code == 2
        err = capsys.readouterr().err
        assert flag_of(opt.name) in err and f"from {opt.low} to {opt.high}" in err
        with pytest.raises(ValueError):
            Rules(**{opt.name: outside})


def test_the_list_covers_every_field_of_rules():
    assert [o.name for o in rule_options()] == [f.name for f in dataclasses.fields(Rules)]
