"""Waiting for a still table with nothing over it: the settle adapter feeding rendered frames (30 a
second) to the eyes, with the real occluder net."""
from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import cv2
import numpy as np
import pytest

from controller.adapters.camera import FolderSource, open_camera
from controller.adapters.display import ConsoleDisplay
from controller.adapters.errors import CameraError
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.adapters.settle import SettleSettings, WaitReason, WaitStatus, frame_difference, wait_until_settled
from vision.eyes import EyesSettings
from vision.occluders import find_occluders

from recorded_games import Frames

FPS = 30.0

TABLE = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}, {"tiles": ["R3", "J", "R5"], "at": [1, 4]}])
MORE = Scene.of([{"tiles": ["K10", "K11", "K12"], "at": [0, 0]}, {"tiles": ["R3", "J", "R5"], "at": [1, 4]},
                 {"tiles": ["O7", "O8", "O9"], "at": [3, 6]}])


LAYOUTS = {
    # the demo's look: green felt, rendered faces, a plain hand from the bottom edge
    "felt-rendered-faces": SceneLayout(width=640, height=400, tile_width=32, seed=3),
    # a real-looking table: wood (which the old skin-colour rule took for a hand), real faces, an arm from any side
    "wood-photo-faces-varied-arm": SceneLayout(width=640, height=400, tile_width=32, seed=3, background="wood",
                                               faces="photo", hands="varied"),
}


@pytest.fixture(scope="module")
def renderer():
    return SceneRenderer(LAYOUTS["felt-rendered-faces"])


@pytest.fixture(scope="module", params=list(LAYOUTS), ids=list(LAYOUTS))
def any_renderer(request):
    return SceneRenderer(LAYOUTS[request.param])


class Hiccup(Frames):
    """A live camera that gives no frame `failures` times (a stream reconnecting), then frames."""

    live = True
    read_timed = None  # a live camera's frames are timed by the clock when they are read

    def __init__(self, frames, failures):
        super().__init__(frames)
        self.failures = failures

    def read(self):
        if self.failures:
            self.failures -= 1
            raise CameraError("camera source '0' gave no frame")
        return super().read()


def outlines(scene: Scene, layout: SceneLayout):
    """The tiles of a rendered scene as a reader outlines them (the renderer knows where it put them)."""
    return layout.outlines(scene)


def reads(scene: Scene, renderer: SceneRenderer):
    return lambda image: outlines(scene, renderer.layout)


def collapsed(statuses: list[WaitStatus]) -> list[WaitReason]:
    reasons = [s.reason for s in statuses]
    return [r for n, r in enumerate(reasons) if not n or reasons[n - 1] is not r]


def test_a_hand_reaching_in_is_seen_and_the_bare_table_is_not(any_renderer):
    before = any_renderer.frame(TABLE, 0)
    seen = find_occluders(any_renderer.frame(MORE.with_hand(), 1), before)
    assert not seen.clear and seen.regions[0].edges, seen.describe()  # an arm reaches in from an edge
    assert find_occluders(any_renderer.frame(MORE, 2), before).clear  # new tiles are not a hand
    assert find_occluders(any_renderer.frame(MORE, 2)).clear  # nor without a reference (a game's first wait)


def test_the_plain_hand_is_seen_reaching_in_from_the_bottom(renderer):
    seen = find_occluders(renderer.frame(MORE.with_hand(), 1), renderer.frame(TABLE, 0))
    assert "bottom" in seen.regions[0].edges, seen.describe()


def test_settling_skips_the_frames_with_a_hand_and_returns_the_still_table(any_renderer):
    before = any_renderer.frame(TABLE, 0)
    frames = [any_renderer.frame(MORE.with_hand(), i) for i in range(1, 5)] + \
        [any_renderer.frame(MORE, i) for i in range(5, 9)]
    settled = wait_until_settled(Frames(frames), before, read=reads(MORE, any_renderer))
    assert np.abs(settled.frame.astype(int) - any_renderer.render(MORE).astype(int)).mean() < 3
    # 4 frames with the hand, then half a second of still frames of the new table; the hand left across
    # the border, so the frames offered begin the border's margin after it
    eyes = EyesSettings()
    assert 4 + eyes.still_seconds * FPS <= settled.frames <= 4 + 2 + (eyes.still_seconds + eyes.border_margin_seconds) * FPS
    assert "every change since the last settled table lies on a tile" in settled.checks


def test_the_wait_says_why_in_order_and_only_when_that_changes(renderer):
    before = renderer.frame(TABLE, 0)
    moving = [renderer.frame(TABLE if i % 2 else MORE, i) for i in range(1, 5)]
    hand = [renderer.frame(MORE.with_hand(), i) for i in range(5, 45)]  # resting over a second
    still = [renderer.frame(MORE, i) for i in range(45, 49)]
    heard: list[WaitStatus] = []
    settled = wait_until_settled(Frames(moving + hand + still), before, on_wait=heard.append,
                                 read=reads(MORE, renderer))
    assert collapsed(heard) == [WaitReason.TABLE_MOVING, WaitReason.SOMETHING_OVER_TABLE, WaitReason.TABLE_MOVING,
                                WaitReason.SETTLED]
    assert len(heard) < settled.frames  # said when it changes, not at every frame
    over = [s for s in heard if s.reason is WaitReason.SOMETHING_OVER_TABLE]
    assert all(s.detail.startswith("something over the table, ") and "bottom" in s.detail for s in over)
    assert heard[0].detail == "table moving" and heard[-1].frames == settled.frames
    assert [s.frames for s in heard] == sorted(s.frames for s in heard)


def test_a_table_that_is_clear_at_once_says_nothing(renderer):
    heard: list[WaitStatus] = []
    wait_until_settled(Frames([renderer.frame(MORE, i) for i in range(4)]), None, on_wait=heard.append)
    assert heard == []


def test_the_console_says_why_it_waits_and_once_that_the_table_is_clear(renderer, capsys):
    before = renderer.frame(TABLE, 0)
    frames = [renderer.frame(MORE.with_hand(), i) for i in range(1, 30)] + [renderer.frame(MORE, i) for i in range(30, 34)]
    wait_until_settled(Frames(frames), before, on_wait=ConsoleDisplay().waiting, read=reads(MORE, renderer))
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("waiting: something over the table, ") and "bottom" in lines[0]
    assert lines[-1] == "table clear" and lines.count("table clear") == 1
    wait_until_settled(Frames(frames), before, on_wait=ConsoleDisplay(quiet=True).waiting, read=reads(MORE, renderer))
    assert capsys.readouterr().out == ""


def test_a_live_camera_that_gives_no_frames_for_a_moment_is_waited_for(renderer):
    pauses: list[float] = []
    heard: list[WaitStatus] = []
    camera = Hiccup([renderer.frame(MORE, i) for i in range(4)], failures=3)
    settings = SettleSettings(camera_retries=5, camera_retry_pause=0.5)
    settled = wait_until_settled(camera, None, settings, sleep=pauses.append, on_wait=heard.append)
    assert settled.frames >= 3 and pauses == [0.5, 0.5, 0.5]
    assert [(s.reason, s.detail) for s in heard] == [(WaitReason.NO_FRAMES, "camera gives no frames"),
                                                     (WaitReason.SETTLED, "table clear")]


def test_a_live_camera_that_never_gives_frames_ends_the_wait_naming_why():
    pauses: list[float] = []
    heard: list[WaitStatus] = []
    camera = Hiccup([np.zeros((400, 640, 3), np.uint8)], failures=10**9)
    started = time.perf_counter()
    with pytest.raises(CameraError, match="camera gives no frames: 4 reads in a row failed") as caught:
        wait_until_settled(camera, None, SettleSettings(camera_retries=3, camera_retry_pause=60.0),
                           sleep=pauses.append, on_wait=heard.append)
    assert time.perf_counter() - started < 1.0 and pauses == [60.0] * 3
    assert "'0' gave no frame" in str(caught.value)
    assert [s.reason for s in heard] == [WaitReason.NO_FRAMES]


def test_an_unreadable_image_of_a_recorded_session_is_bad_input_at_once(tmp_path, renderer):
    cv2.imwrite(str(tmp_path / "0001.png"), renderer.render(MORE))
    (tmp_path / "0002.png").write_bytes(b"not a png")
    pauses: list[float] = []
    with pytest.raises(CameraError, match="0002.png"):
        wait_until_settled(FolderSource(tmp_path), None, sleep=pauses.append)
    assert pauses == []


def test_a_table_that_never_settles_names_what_held_it_up(renderer):
    frames = [renderer.frame(TABLE if i % 2 else MORE, i) for i in range(20)]

    class Flicker(Frames):
        def read(self):
            self.taken += 1
            return self.frames[self.taken % len(self.frames)]

    with pytest.raises(CameraError, match=r"did not settle within 12 frames: moving in 11$"):
        wait_until_settled(Flicker(frames), None, SettleSettings(max_frames=12))


def test_a_hand_that_stays_names_where_it_is_in_the_message(renderer):
    before = renderer.frame(TABLE, 0)
    frames = [renderer.frame(MORE.with_hand(), i) for i in range(10)]
    with pytest.raises(CameraError) as caught:
        wait_until_settled(Frames(frames), before, SettleSettings(max_frames=40))
    message = str(caught.value)
    assert message.startswith("the table did not settle within 40 frames: something over the table (")
    assert "bottom" in message and "in 2 of them" in message  # one look a half second


def test_one_frame_difference_helper_tells_a_changed_table(renderer):
    level = EyesSettings().still_level
    assert frame_difference(renderer.frame(MORE, 1), renderer.frame(TABLE, 2)) > level
    assert frame_difference(renderer.frame(MORE, 1), renderer.frame(MORE, 2)) < level  # sensor noise only
    assert frame_difference(renderer.frame(MORE, 1), cv2.resize(renderer.frame(MORE, 2), (320, 200))) < level
    assert frame_difference(renderer.frame(MORE, 1), renderer.frame(MORE, 2)[:300]) == float("inf")  # another camera


def test_a_folder_of_images_is_a_camera_in_name_order_holding_the_last(tmp_path, renderer):
    for name, scene in (("b.png", MORE), ("a.png", TABLE)):
        cv2.imwrite(str(tmp_path / name), renderer.render(scene))
    camera = open_camera(str(tmp_path))
    assert isinstance(camera, FolderSource)
    first, second, third = camera.read(), camera.read(), camera.read()
    assert np.array_equal(first, renderer.render(TABLE)) and np.array_equal(second, third)


@pytest.mark.parametrize("spec", ["", "/no/such/place", "definitely-not-a-file.mp4"])
def test_a_bad_camera_source_names_itself(spec):
    with pytest.raises(CameraError) as caught:
        open_camera(spec)
    assert spec in str(caught.value) or "empty" in str(caught.value)


def test_a_camera_error_ends_play_with_one_line_and_the_game_resumes(tmp_path):
    from controller.game.events import TurnStarted
    from controller.game.machine import State, fold
    from controller.records import Records
    from firmware_bridge.emulator_process import EmulatorProcess

    frames = tmp_path / "frames"
    frames.mkdir()
    table = SceneRenderer(SceneLayout(seed=5)).render(TABLE)
    cv2.imwrite(str(frames / "0001.png"), table)  # the camera opens on a good image (a broken first one is refused)
    db = tmp_path / "club.sqlite"

    def events():
        with Records(db, create=False) as records:
            return records.events(records.latest_game())

    def wait_for(predicate, process, timeout=60.0):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and process.poll() is None:
            try:
                if db.exists() and predicate(events()):
                    return
            except Exception:  # the other process is creating the file
                pass
            time.sleep(0.05)
        raise AssertionError(f"the game did not get there: {process.poll()!r}")

    with EmulatorProcess(clock_rate=5) as box:
        command = [sys.executable, "-m", "controller.cli", "play", "--camera", str(frames), "--timer", box.port,
                   "--db", str(db)]
        first = subprocess.Popen(command + ["--variant", "classic", "--players", "Ann,Ben", "--starter", "Ann"],
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            wait_for(lambda ev: fold(ev).state is State.DEALING, first)
            (frames / "0002.png").write_bytes(b"broken")  # the camera's next image, mid-game
            box.press("A")  # dealt: the next step waits for a still table and reads the broken image
            out, err = first.communicate(timeout=60)
        finally:
            if first.poll() is None:
                first.kill()
        assert first.returncode == 2, out + err
        assert err.strip().count("\n") == 0 and "0002.png" in err and "not a readable image" in err
        before = events()
        assert fold(before).state is State.TURN_READY

        cv2.imwrite(str(frames / "0002.png"), table)
        resumed = subprocess.Popen(command + ["--resume"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            wait_for(lambda ev: any(isinstance(e, TurnStarted) for e in ev), resumed)
        finally:
            resumed.send_signal(signal.SIGINT)
            output = resumed.communicate(timeout=30)[0]
        assert resumed.returncode == 130, output
    after = events()
    assert after[:len(before)] == before
    with Records(db, create=False) as records:
        assert records.verify(records.latest_game()).ok


def _with_still_sleeve(frame):
    """A charcoal sleeve lying over the left of the table, the same in every frame."""
    h, w = frame.shape[:2]
    band = np.zeros((h, w), np.float32)
    cv2.line(band, (-20, h // 2), (w // 3, h // 2 + 10), 1.0, max(8, w // 9), cv2.LINE_AA)
    return (frame * (1 - band[..., None]) + np.float32((58, 56, 54)) * band[..., None]).astype(np.uint8)


def test_at_the_first_wait_something_that_never_moves_asks_the_arbiter_and_is_never_taken_in(renderer):
    frame = _with_still_sleeve(renderer.render(MORE))
    assert not find_occluders(frame).clear  # the net sees it
    statuses = []
    seconds = EyesSettings().ask_after_seconds
    with pytest.raises(CameraError, match="something over the table"):
        wait_until_settled(Frames([frame]), None, SettleSettings(max_frames=int(3 * seconds * FPS)),
                           on_wait=statuses.append)
    asked = [s for s in statuses if s.reason is WaitReason.ARBITER_ASKED]
    assert asked and "left edge" in asked[0].detail and "press the arbiter button" in asked[0].detail
    assert asked[0].frames >= seconds * FPS  # asked only once it has waited that long
    # a table that cannot settle says why and what to do again each time as long has gone by
    assert [f"for {seconds * k:.0f} s" in status.detail for k, status in enumerate(asked[:2], 1)] == [True, True]
    assert asked[1].frames >= 2 * seconds * FPS
    # the arbiter accepts the table as it is: the wait ends, and the acceptance is what it rests on
    accepted = []
    settled = wait_until_settled(Frames([frame]), None, on_wait=statuses.append,
                                 ask=lambda covered, seen: accepted.append(covered) or True)
    assert len(accepted) == 1 and accepted[0].ask_arbiter and settled.frames > seconds * FPS
    assert statuses[-2].reason is WaitReason.ACCEPTED or any(s.reason is WaitReason.ACCEPTED for s in statuses)


SHARED = Path(__file__).resolve().parents[3] / "shared" / "datasets" / "rummikub-photos"


@pytest.mark.skipif(not SHARED.is_dir(), reason="the shared real photos are not beside the repository")
def test_every_real_photo_never_trained_on_settles_at_a_games_first_wait_or_asks_the_arbiter():
    """A still real table at a game's first wait (no reference): it settles after half a second, or,
    when the net alone takes something on it for a hand, the arbiter is asked; it is never taken in."""
    from models.recipe.realdata import load_splits

    splits = load_splits(SHARED)
    ask_frames = int(EyesSettings().ask_after_seconds * FPS)
    asked = []
    for photo in splits["validation"] + splits["test"]:
        frame = cv2.imread(str(photo.image_path))
        settled = wait_until_settled(Frames([frame]), None, ask=lambda covered, seen: asked.append(photo.stem) or True)
        if photo.stem in asked:
            assert settled.frames > ask_frames, photo.stem
        else:
            assert settled.frames <= EyesSettings().still_seconds * FPS + 2, photo.stem
    assert len(asked) < len(splits["validation"] + splits["test"]) / 4, asked
