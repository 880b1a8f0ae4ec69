"""A command refused for bad input leaves no file behind: `tournament standings` without `--db` names the
missing database instead of making an empty `tileref.sqlite`, and `demo --web` with a bad port makes no
`--out` folder."""
from __future__ import annotations

import pytest

from controller.cli import main


@pytest.mark.parametrize("argv", [
    ["tournament", "standings", "Kuwana"],
    ["tournament", "export", "Kuwana", "--csv", "s.csv"],
    ["tournament", "history", "Kuwana"],
    ["tournament", "show", "Kuwana"],
    ["tournament", "list"],
    ["tournament", "draw", "Kuwana"],
], ids=lambda argv: "-".join(argv[:2]))
def test_a_tournament_command_without_its_database_makes_none(argv, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'tileref.sqlite' does not exist" in err
    assert list(tmp_path.iterdir()) == []


def test_demo_with_a_bad_web_port_makes_no_out_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert main(["demo", "--web", ":99999", "--out", "d2"]) == 2
    assert "99999" in capsys.readouterr().err
    assert not (tmp_path / "d2").exists()
