"""`tileref play --resume` while a hand rests over the table: no verdict is taken until it leaves.

The real parts: `play` as its own process, a folder of images as the camera, an emulated box on
its own pty that the test presses, the real reader and occluder net, and an SQLite file. The game
is stopped while Ann's turn runs; she lays her opening with her hand still over it while `play`
is started again with `--resume`. Its first wait compares with the last settled photo in the
records, so the hand is never taken for part of the table."""
from __future__ import annotations

import signal
import subprocess
import sys
import time

import cv2

from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game.events import TableAccepted, TableRead, TurnEnded, TurnJudged
from controller.game.machine import State, fold
from controller.records import Records
from firmware_bridge.emulator_process import EmulatorProcess
from game_helpers import play_command, wait_for

OPENING = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [1, 4]}])


def test_play_resumed_with_a_hand_over_the_table_takes_no_verdict_until_the_hand_leaves(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = SceneRenderer(SceneLayout(seed=5, hands="varied"))
    cv2.imwrite(str(frames / "0001.png"), renderer.render(Scene(())))
    db = tmp_path / "club.sqlite"
    with EmulatorProcess(clock_rate=1) as box:
        first = subprocess.Popen(play_command(frames, box.port, db, "--variant", "classic"),
                                 stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        try:
            wait_for(db, lambda ev: fold(ev).state is State.DEALING)
            box.press("A")  # dealt
            wait_for(db, lambda ev: fold(ev).state is State.TURN_RUNNING)
        finally:
            first.send_signal(signal.SIGINT)
            first.communicate(timeout=30)
        assert first.returncode == 130

        # while nobody watches, Ann lays her opening; her hand is still over it when play comes back
        cv2.imwrite(str(frames / "0002.png"), renderer.render(OPENING.with_hand()))
        resumed = subprocess.Popen([sys.executable, "-m", "controller.cli", "play", "--camera", str(frames),
                                    "--timer", box.port, "--db", str(db), "--resume"],
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wait_for(db, lambda ev: any(e.kind.value == "timer-incident" for e in ev))
            time.sleep(1.0)  # the countdown is started again: Ann presses
            box.press("1")
            wait_for(db, lambda ev: any(isinstance(e, TurnEnded) for e in ev))
            time.sleep(4.0)  # the hand rests: the camera gives that frame again and again
            with Records(db, create=False) as records:
                covered = records.events(records.latest_game())
            cv2.imwrite(str(frames / "0003.png"), renderer.render(OPENING))  # the hand leaves
            events = wait_for(db, lambda ev: any(isinstance(e, TurnJudged) for e in ev))
        finally:
            resumed.send_signal(signal.SIGINT)
            output = resumed.communicate(timeout=30)[0]
    assert not any(isinstance(e, (TableRead, TurnJudged, TableAccepted)) for e in covered), output
    assert "waiting: something" in output, output
    verdict = next(e for e in events if isinstance(e, TurnJudged))
    assert verdict.player == "Ann" and verdict.outcome == "legal", output
    assert sorted(verdict.played) == ["K10", "K11", "K12"], output
    with Records(db, create=False) as records:
        assert records.verify(records.latest_game()).ok
