"""Ctrl-C in `play` says how to go on, and `--resume --web` keeps the referee's token and shows the table
it last read at once (it used to stop silently, and the resumed pages had a new token and "No table read
yet")."""
from __future__ import annotations

import urllib.request

import cv2

from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game.machine import State, fold
from firmware_bridge.emulator_process import EmulatorProcess
from recorded_games import wait_for
from web_helpers import TOKEN, URL, Tileref


def test_ctrl_c_says_how_to_resume_and_the_resumed_pages_keep_the_token_and_the_table(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    cv2.imwrite(str(frames / "0001.png"),
                SceneRenderer(SceneLayout(seed=5)).render(Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}])))
    db = tmp_path / "club.sqlite"
    with EmulatorProcess(clock_rate=5) as box:
        play = Tileref("play", "--camera", str(frames), "--timer", box.port, "--variant", "classic",
                       "--players", "Ann,Ben", "--starter", "Ann", "--db", str(db), "--web", "127.0.0.1:0")
        try:
            token = play.expect(TOKEN).group(1)
            wait_for(db, lambda ev: fold(ev).state is State.DEALING)
            box.press("A")  # dealt
            wait_for(db, lambda ev: fold(ev).state is State.TURN_RUNNING)
        finally:
            code = play.interrupt()
        err = play.stderr()
        assert code == 130, err
        assert f"stopped: game 1 in {db}" in err and f"tileref play --resume --db {db} --game 1" in err

        resumed = Tileref("play", "--camera", str(frames), "--timer", box.port, "--db", str(db), "--resume",
                          "--web", "127.0.0.1:0")
        try:
            assert resumed.expect(TOKEN).group(1) == token
            url = resumed.expect(URL).group(1)
            wait_for(db, lambda ev: any(e.kind.value == "timer-incident" for e in ev))
            page = urllib.request.urlopen(f"{url}/referee", timeout=10).read().decode()
        finally:
            resumed.interrupt()
    assert "No table read yet" not in page and "Turn 1 starts: Ann" in page
