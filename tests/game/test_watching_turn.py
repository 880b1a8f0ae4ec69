"""The runner watching the table while a turn runs: a table left still before the press is judged on
the frames read ahead (none read again), and a tile laid at the press is never judged from the frames
before it. Rendered frames, 30 a second, through the real eyes and the real occluder net; the reader
and the timer box are scripted."""
from __future__ import annotations

import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.signals import SignalKind, TimerSignal
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game import judging
from controller.game.reading import TableReading
from controller.records import Records
from controller.table import RunnerSettings, TableDevices, TableRunner
from controller.table.settings import WAIT_SLICE
from vision.eyes import EyesSettings, Reference, TimedFrame

from game_helpers import scene_reading

LAYOUT = SceneLayout(width=640, height=400, tile_width=32, seed=3)
BEFORE = Scene.of([{"tiles": ["K1", "K2", "K3"], "at": [1, 3]}])
AFTER = Scene.of([{"tiles": ["K1", "K2", "K3", "K4"], "at": [1, 3]}])


class Camera:
    """Frames of `scene_at(index)`, 30 a second; `pressed` frames taken when the button was pressed."""

    def __init__(self, renderer, scene_at):
        self.renderer, self.scene_at = renderer, scene_at
        self.taken = 0

    def read(self):
        self.taken += 1
        return self.renderer.frame(self.scene_at(self.taken), self.taken)

    def read_timed(self):
        image = self.read()
        return TimedFrame(image, self.taken / 30.0)

    def close(self):
        pass


def read_tiles(scene: Scene) -> TableReading:
    return scene_reading(scene, LAYOUT)


class Reader:
    """Reads every frame as the table after the turn (its tiles cover the table before it too)."""

    def __init__(self):
        self.calls = 0

    def read(self, frame):
        self.calls += 1
        return read_tiles(AFTER)


class SeatAfter:
    """A timer box whose seat 1 button is pressed once the camera has taken `frames` frames."""

    def __init__(self, camera, frames):
        self.camera, self.frames = camera, frames
        self.pressed_at: int | None = None

    def wait(self, timeout):
        if self.pressed_at is None and self.camera.taken >= self.frames:
            self.pressed_at = self.camera.taken
            return TimerSignal(SignalKind.PRESSED, button="1", seat=1, seconds_left=10)
        return None


@pytest.fixture()
def runner_for(tmp_path):
    records = Records(tmp_path / "watch.sqlite")
    game_id = records.new_game("classic", ("Ann", "Ben"))
    records.append(game_id, judging.game_created("classic", ("Ann", "Ben")))
    renderer = SceneRenderer(LAYOUT)

    def make(scene_at, press_after):
        camera = Camera(renderer, scene_at)
        timer, reader = SeatAfter(camera, press_after), Reader()
        # every frame read, so that the frames read ahead and early are counted one by one (a still table is
        # otherwise read once per look: tests/game/test_looking.py)
        runner = TableRunner(records, game_id, TableDevices(camera, timer, reader, ConsoleDisplay(quiet=True), None),
                             RunnerSettings(read_once=False))
        runner.eyes.reference = Reference(renderer.render(BEFORE))
        return runner, camera, timer, reader

    yield make
    records.close()


def watch_until_pressed(runner, limit=40):
    for _ in range(limit):
        signal = runner.looking.watch_turn(WAIT_SLICE)
        if signal is not None:
            return signal
    raise AssertionError("the button was never pressed")


def test_a_table_left_still_before_the_press_is_judged_on_the_frames_read_ahead(runner_for):
    settings = EyesSettings()
    runner, camera, timer, reader = runner_for(lambda index: AFTER, press_after=45)  # 1.5 s still
    assert watch_until_pressed(runner).seat == 1
    assert reader.calls == settings.look_frames  # read while the turn ran
    seen = runner.looking.look_still(carry=True)
    assert seen.read_ahead == settings.look_frames and reader.calls == settings.look_frames  # none read again
    assert seen.wait.frames == 1  # settled on the first frame after the press


def test_a_tile_laid_at_the_press_is_never_judged_from_the_frames_before_it(runner_for):
    settings = EyesSettings()
    press_after = 45
    runner, camera, timer, reader = runner_for(lambda index: BEFORE if index <= press_after else AFTER, press_after)
    watch_until_pressed(runner)
    read_before_press = reader.calls
    assert read_before_press == settings.look_frames
    seen = runner.looking.look_still(carry=True)
    assert seen.read_ahead == 0 and reader.calls == read_before_press + settings.look_frames
    assert seen.wait.frames >= settings.still_seconds * 30  # a whole still span after the tile was laid


class ReaderTimed(Reader):
    """A reader that notes how many frames the camera had taken at each frame it read."""

    def __init__(self, camera):
        super().__init__()
        self.camera, self.taken_at = camera, []

    def read(self, frame):
        self.taken_at.append(self.camera.taken)
        return super().read(frame)


def test_a_wait_reads_the_frames_its_look_will_rest_on_while_the_table_steadies(runner_for):
    """A tile laid at the press: the still span after it is waited for whole, but the look's first and
    middle frames are read as the span grows, so at the offer only its last frame is left to read."""
    settings = EyesSettings()
    press_after = 45
    runner, camera, timer, reader = runner_for(lambda index: BEFORE if index <= press_after else AFTER, press_after)
    watch_until_pressed(runner)
    timed = runner.devices.reader = ReaderTimed(camera)
    seen = runner.looking.look_still(carry=True)
    assert timed.calls == settings.look_frames  # no frame read twice, none read in vain
    offered_at = camera.taken
    assert timed.taken_at[-1] == offered_at  # the last frame, read at the offer
    assert all(taken < offered_at for taken in timed.taken_at[:-1])  # the others while the table steadied
    assert seen.read_ahead == 0  # read in the wait, not while the turn ran
