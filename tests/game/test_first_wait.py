"""A game's first wait compares with the clear table the game began on: the eyes settle on the
empty table as a fresh game starts, and that table is the first wait's reference. A hand whose
fingertips lay across the border as the first wait began, unseen by the net, then left, no longer
leaves the table waiting for ever (with the wait's first frame as the border's base it did: the
band never matched that frame again), nor is a frame it lies on ever settled on."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.adapters.display import ConsoleDisplay
from controller.adapters.signals import SignalKind, TimerSignal
from controller.adapters.settle import EyesWait
from controller.demo.scene import Scene, SceneLayout, SceneRenderer
from controller.game import judging
from controller.game.events import TableAccepted, TurnStarted
from controller.game.machine import State
from controller.records import Records
from controller.table import TableDevices, TableRunner
from controller.table.settings import RunnerSettings
from vision.eyes import Eyes, TimedFrame
from vision.occluders import Occluders

LAYOUT = SceneLayout(width=640, height=400, tile_width=32, seed=3)
FPS = 30.0


class Blind:
    """An occluder net that sees nothing: the border band alone must tell a hand."""

    def __call__(self, frame, reference):
        return Occluders((), np.zeros((1, 1), np.float32))


def fingertips(table: np.ndarray, depth: int) -> np.ndarray:
    """Fingertips reaching `depth` pixels in across the bottom-left corner."""
    image = table.copy()
    h = image.shape[0]
    for centre in ((-1, h - 60), (60, h)):
        cv2.ellipse(image, centre, (depth, depth), 0, 0, 360, (140, 170, 225), -1, cv2.LINE_AA)
    return image


class Timeline:
    """A camera whose frames follow the game: the clear table until the deal is pressed, then (the first
    wait) fingertips across the corner for a second, leaving, and the clear table for good."""

    def __init__(self, clear: np.ndarray, hand: list[np.ndarray]) -> None:
        self.clear, self.hand = clear, hand
        self.taken = 0
        self.dealt_at: int | None = None

    def read_timed(self) -> TimedFrame:
        self.taken += 1
        image = self.clear
        if self.dealt_at is not None and self.taken - self.dealt_at < len(self.hand):
            image = self.hand[self.taken - self.dealt_at]
        noise = np.random.default_rng(self.taken).normal(0, 1.5, image.shape)
        return TimedFrame(np.clip(image + noise, 0, 255).astype(np.uint8), self.taken / FPS)

    def read(self) -> np.ndarray:
        return self.read_timed().image

    def close(self) -> None:
        pass


class DealThenNothing:
    """A timer box: seat 1 presses once (the deal), then nobody presses."""

    def __init__(self, camera: Timeline) -> None:
        self.camera = camera
        self.pressed = False

    def wait(self, timeout):
        if not self.pressed:
            self.pressed = True
            self.camera.dealt_at = self.camera.taken
            return TimerSignal(SignalKind.PRESSED, button="1", seat=1, seconds_left=None)
        return None

    def __getattr__(self, name):  # arm, start, show...: nothing to drive
        return lambda *args, **kwargs: None


class NoReader:
    def read(self, frame):
        raise AssertionError("nothing is read before the first turn")


@pytest.fixture()
def records(tmp_path):
    records = Records(tmp_path / "first-wait.sqlite")
    yield records
    records.close()


def test_a_hand_across_the_border_as_the_first_wait_begins_is_waited_out_not_for_ever(records):
    game_id = records.new_game("classic", ("Ann", "Ben"))
    records.append(game_id, judging.game_created("classic", ("Ann", "Ben")))
    clear = SceneRenderer(LAYOUT).render(Scene.of([]))
    hand = [fingertips(clear, 14)] * int(FPS) + [fingertips(clear, d) for d in (10, 6, 3)]
    camera = Timeline(clear, hand)
    watch = EyesWait(camera)
    watch.eyes = Eyes(watch.eyes.settings, Blind())
    devices = TableDevices(camera, DealThenNothing(camera), NoReader(), ConsoleDisplay(quiet=True), None, watch=watch)
    runner = TableRunner(records, game_id, devices, RunnerSettings(starter="Ann"))
    runner.run(max_steps=3)  # seating (the starter named), the deal, the first turn's wait
    events = records.events(game_id)
    assert runner.model.state is State.TURN_RUNNING
    assert [e for e in events if isinstance(e, TableAccepted)] == []  # nobody had to accept the table
    started = [e for e in events if isinstance(e, TurnStarted)]
    assert len(started) == 1
    # the turn's start photo is the clear table, never a frame with the fingertips on it
    photo = cv2.imdecode(np.frombuffer(records.photo(started[0].photo).data, np.uint8), cv2.IMREAD_COLOR)
    h = LAYOUT.height
    for tip in ((slice(h - 66, h - 54), slice(0, 8)), (slice(h - 8, h), slice(54, 66))):
        assert np.abs(photo[tip].astype(int) - clear[tip].astype(int)).mean() < 8
    # a second of fingertips, then the table settled soon after they left (not after the arbiter's 10 s)
    assert camera.taken - camera.dealt_at < len(hand) + 2 * FPS
