"""`tileref --version` names the installed version and exits 0; `tileref demo --help` names every
bundled game a club can play with `--script`."""
from __future__ import annotations

import os
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from controller import cli
from controller.demo_games import GAMES

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True,
                          timeout=60, env=env, cwd=ROOT)


def test_version_prints_the_package_version_and_exits_0():
    done = _run("--version")
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"tileref {metadata.version('tileref')}"


def test_version_falls_back_when_the_package_is_not_installed(monkeypatch):
    def not_installed(name):
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "version", not_installed)
    version = cli.package_version()
    assert version and version[0].isdigit() and version.count(".") == 2


@pytest.mark.parametrize("game", GAMES)
def test_demo_help_names_each_bundled_game(game, capsys):
    with pytest.raises(SystemExit) as stop:
        cli.main(["demo", "--help"])
    assert stop.value.code == 0
    assert f"{game}:" in " ".join(capsys.readouterr().out.split())
