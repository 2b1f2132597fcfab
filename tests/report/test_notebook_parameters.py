"""The notebooks' sample size (beggarstats.report.notebook_parameters): the parameters cell's literal,
replaced by BEGGARSTATS_NOTEBOOK_GAMES when it is set, and printed as the committed outputs show it."""

import pytest

from beggarstats.report.notebook_parameters import GAMES_VARIABLE, notebook_games


def test_the_literal_unless_the_variable_is_set(monkeypatch, capsys):
    monkeypatch.delenv(GAMES_VARIABLE, raising=False)
    assert notebook_games(200_000) == 200_000
    assert capsys.readouterr().out == "N_GAMES = 200_000\n"
    for text, games in [("2000", 2000), ("200_000", 200_000), (" 7 ", 7)]:
        monkeypatch.setenv(GAMES_VARIABLE, text)
        assert notebook_games(200_000) == games
        assert capsys.readouterr().out == f"N_GAMES = {games:_}\n"


@pytest.mark.parametrize("text", ["", "many", "2e3", "1.5", "0", "-5"])
def test_a_bad_variable_is_named(monkeypatch, capsys, text):
    monkeypatch.setenv(GAMES_VARIABLE, text)
    with pytest.raises(ValueError, match=GAMES_VARIABLE):
        notebook_games(200_000)
    assert capsys.readouterr().out == ""  # no size printed for a run that does not start


@pytest.mark.parametrize("default", [0, -1, 2.5, True])
def test_a_bad_literal_is_named(monkeypatch, default):
    monkeypatch.delenv(GAMES_VARIABLE, raising=False)
    with pytest.raises(ValueError, match="N_GAMES"):
        notebook_games(default)
