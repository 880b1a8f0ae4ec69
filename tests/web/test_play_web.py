"""`tileref play --web`: the referee pauses, resumes and extends a running turn on the box (a real pty)
through the page's API; each action is recorded with who and why, and the display follows the box."""
from __future__ import annotations

import time

import cv2
import httpx

from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game.events import ClockAdjusted, TurnJudged
from controller.game.machine import State, fold
from controller.records import Records
from firmware_bridge.emulator_process import EmulatorProcess

from web_helpers import TOKEN, URL, Tileref, events_of, play_on_a_rendered_table, wait_until, with_nonce


def test_play_with_web_pages_pause_resume_and_extend_the_running_turn(tmp_path):
    frames = tmp_path / "frames"
    frames.mkdir()
    renderer = SceneRenderer(SceneLayout(seed=5))
    cv2.imwrite(str(frames / "0001.png"), renderer.render(Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}])))
    db = tmp_path / "club.sqlite"
    with EmulatorProcess(clock_rate=2) as box:
        play = Tileref("play", "--camera", str(frames), "--timer", box.port, "--variant", "classic",
                       "--players", "Ann,Ben", "--starter", "Ann", "--db", str(db), "--clock-rate", "2",
                       "--web", "127.0.0.1:0")
        try:
            url = play.expect(URL, 60).group(1)
            auth = {"Authorization": f"Bearer {play.expect(TOKEN, 5).group(1)}"}
            wait_until(lambda: events_of(db) and fold(events_of(db)).state is State.DEALING, 60, what="the deal")
            box.press("A")  # dealt
            wait_until(lambda: fold(events_of(db)).state is State.TURN_RUNNING, 60, what="Ann's turn")
            wait_until(lambda: (httpx.get(f"{url}/api/table").json()["clock"] or {}).get("running"), 20,
                       what="the countdown on the display")
            who = {"referee": "Rita", "reason": "a tile fell on the floor"}
            for action, body in (("pause", {}), ("pause", {"resume": True}), ("extend", {"seconds": 45})):
                answer = httpx.post(f"{url}/api/referee/{action}", json={**who, **body},
                                    headers=with_nonce(httpx, auth, url), timeout=30)
                assert answer.status_code == 200, answer.text
            again = httpx.post(f"{url}/api/referee/pause", json={**who, "resume": True},
                               headers=with_nonce(httpx, auth, url), timeout=30)
            assert again.status_code == 409  # not paused: refused, nothing recorded
            clock = httpx.get(f"{url}/api/table").json()["clock"]
            assert clock["running"] and clock["seconds_left"] > 60  # 60 s a turn, 45 more given
            time.sleep(0.5)
            box.press("1")  # Ann ends her turn: her opening
            wait_until(lambda: any(isinstance(e, TurnJudged) for e in events_of(db)), 60, what="the verdict")
            verdict = wait_until(lambda: httpx.get(f"{url}/api/table").json()["verdict"], 10, what="the verdict shown")
            assert verdict["player"] == "Ann" and verdict["outcome"] == "legal"
        finally:
            play.kill()
    adjusted = [e for e in events_of(db) if isinstance(e, ClockAdjusted)]
    assert [(e.action, e.seconds, e.referee, e.reason) for e in adjusted] == [
        ("pause", 0, "Rita", "a tile fell on the floor"), ("resume", 0, "Rita", "a tile fell on the floor"),
        ("extend", 45, "Rita", "a tile fell on the floor")]
    with Records(db, create=False) as records:
        assert records.verify(records.latest_game()).ok


def test_play_with_the_emulator_and_web_takes_typed_keys_and_the_display_follows_the_game(tmp_path):
    """`play --timer emulator --web`: it says which camera it opened and which key is whose button;
    the keys typed in its terminal press the emulated box; the table display follows the game."""
    play, db = play_on_a_rendered_table(tmp_path)

    def press(key: str) -> None:
        play.process.stdin.write(key + "\n")
        play.process.stdin.flush()

    try:
        url = play.expect(URL, 60).group(1)
        play.expect(r"^camera: folder .*frames'.*1 image\(s\), \d+x\d+", 10)
        play.expect(r"^timer: the emulated box is on /dev/.*type 1 \(Ann's button\), 2 \(Ben's\) or a "
                    r"\(the arbiter's", 10)
        wait_until(lambda: httpx.get(f"{url}/api/table").json()["phase"] == "dealing", 60, what="the deal")
        assert httpx.get(f"{url}/api/table").json()["clock"] is None
        press("a")  # the arbiter: dealt
        clock = wait_until(lambda: (httpx.get(f"{url}/api/table").json()["clock"] or {}).get("running") and
                           httpx.get(f"{url}/api/table").json()["clock"], 30, what="Ann's countdown on the display")
        table = httpx.get(f"{url}/api/table").json()
        assert table["phase"] == "turn-running" and clock["player"] == "Ann" and 0 < clock["seconds_left"] <= 60
        assert any("deal 14 tiles" in line["text"] for line in table["log"])  # the prompt went to the display
        time.sleep(0.5)
        press("1")  # Ann ends her turn: her opening
        verdict = wait_until(lambda: httpx.get(f"{url}/api/table").json()["verdict"], 60, what="the verdict shown")
        assert verdict["player"] == "Ann" and verdict["outcome"] == "legal"
        wait_until(lambda: httpx.get(f"{url}/api/table").json()["turn"] == 2, 30, what="Ben's turn on the display")
    finally:
        try:
            play.interrupt()
        finally:
            play.kill()
    assert any(isinstance(e, TurnJudged) and e.player == "Ann" for e in events_of(db))
