"""The game commands: bad input exits 2 with a message naming it; audit and replay read a record."""
from __future__ import annotations

import subprocess
import sys

import pytest

from controller.cli import main
from controller.game import judging
from controller.game.events import Dealt, StartOrderDrawn, TableRead, TurnEnded, TurnStarted
from controller.records import Records


def tileref(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "controller.cli", *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("args,needle", [
    (["audit", "--db", "{tmp}/missing.sqlite", "--turn", "1"], "missing.sqlite"),
    (["replay", "--db", "{tmp}/missing.sqlite", "--no-wait"], "missing.sqlite"),
    (["play", "--camera", "{tmp}/nowhere", "--timer", "emulator", "--players", "A,B", "--db", "{tmp}/g.sqlite"], "nowhere"),
    (["play", "--camera", "{tmp}", "--timer", "emulator", "--variant", "chess", "--players", "A,B",
      "--db", "{tmp}/g.sqlite"], "chess"),
    (["play", "--camera", "{tmp}", "--timer", "emulator", "--players", "A,A", "--db", "{tmp}/g.sqlite"], "A"),
    (["play", "--camera", "{tmp}", "--timer", "emulator", "--db", "{tmp}/g.sqlite"], "--players"),
    (["demo", "--script", "{tmp}/nope.json", "--out", "{tmp}/d"], "nope.json"),
], ids=["audit-missing-db", "replay-missing-db", "play-bad-camera", "play-bad-variant", "play-same-names",
        "play-no-players", "demo-missing-script"])
def test_bad_input_exits_2_naming_it(tmp_path, capsys, args, needle):
    import cv2
    import numpy as np

    cv2.imwrite(str(tmp_path / "frame.png"), np.zeros((64, 64, 3), np.uint8))
    code = main([a.replace("{tmp}", str(tmp_path)) for a in args])
    err = capsys.readouterr().err
    assert code == 2, err
    assert needle in err and "Traceback" not in err


def small_game(path):
    with Records(path) as records:
        game = records.new_game("classic", ("Ann", "Ben"))
        for event in (judging.game_created("classic", ("Ann", "Ben")), StartOrderDrawn((), "Ann", None), Dealt(1),
                      TurnStarted(1, "Ann", 60, None), TurnEnded(1, "button", "1", 50),
                      TableRead("turn", None, None, (("K10", 0, 0), ("K11", 40, 0), ("K12", 80, 0)), ((0, 1, 2),), (), ())):
            records.append(game, event)
    return game


def test_audit_of_a_turn_still_being_judged(tmp_path):
    game = small_game(tmp_path / "g.sqlite")
    out = tmp_path / "a.html"
    assert main(["audit", "--db", str(tmp_path / "g.sqlite"), "--game", str(game), "--turn", "1", "--out", str(out)]) == 0
    assert "K10 K11 K12" in out.read_text()


def test_audit_of_a_missing_turn_is_bad_input(tmp_path):
    small_game(tmp_path / "g.sqlite")
    result = tileref("audit", "--db", str(tmp_path / "g.sqlite"), "--turn", "9")
    assert result.returncode == 2 and "turn 9" in result.stderr and "Traceback" not in result.stderr


def test_replay_prints_each_turn_and_reports_tampering(tmp_path):
    import sqlite3

    game = small_game(tmp_path / "g.sqlite")
    result = tileref("replay", "--db", str(tmp_path / "g.sqlite"), "--game", str(game), "--no-wait")
    assert result.returncode == 0 and "hash chain intact" in result.stdout and "[K10 K11 K12]" in result.stdout
    db = sqlite3.connect(tmp_path / "g.sqlite")
    db.execute("UPDATE events SET payload = replace(payload, '\"cause\":\"button\"', '\"cause\":\"expired\"') WHERE kind = 'turn-ended'")
    db.commit()
    db.close()
    result = tileref("replay", "--db", str(tmp_path / "g.sqlite"), "--no-wait")
    # reported before anything is printed, as every reader reports it: exit 3, one line naming the event
    assert result.returncode == 3 and result.stdout == ""
    assert "TAMPERED at event 5 (turn-ended)" in result.stderr and f"game {game}" in result.stderr
    assert "Traceback" not in result.stderr
