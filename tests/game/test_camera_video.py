"""A video file as the camera: it plays at its own frame rate against the wall clock (a recorded
game lines up with presses made at the right moments), and `play` says what it opened."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from controller.adapters.camera import VideoFileSource, describe_camera, open_camera

FPS = 10.0
FRAMES = 20


@pytest.fixture(scope="module")
def video(tmp_path_factory):
    """20 frames at 10 fps; frame n is grey level 10 * n (what a read gives tells which frame it is)."""
    path = tmp_path_factory.mktemp("video") / "game.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), FPS, (64, 48))
    assert writer.isOpened()
    for n in range(FRAMES):
        writer.write(np.full((48, 64, 3), 10 * n, np.uint8))
    writer.release()
    return path


def frame_number(frame) -> int:
    return int(round(float(frame.mean()) / 10))


class Clock:
    """A wall clock the test moves; a wait moves it by the time waited."""

    def __init__(self) -> None:
        self.now = 100.0
        self.waits: list[float] = []

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.waits.append(seconds)
        self.now += seconds


def test_a_video_file_plays_at_its_frame_rate_against_the_wall_clock(video):
    clock = Clock()
    source = VideoFileSource(str(video), str(video), clock=clock, sleep=clock.sleep)
    try:
        assert source.fps == FPS
        assert frame_number(source.read()) == 0 and source.seconds == 0.0
        clock.now += 0.35  # the reader was busy for 3.5 frames: frames 1 and 2 are skipped
        assert frame_number(source.read()) == 3 and source.seconds == pytest.approx(0.3)
        assert clock.waits == []
        assert frame_number(source.read()) == 4  # read again at once: waits for the next frame
        assert clock.waits == [pytest.approx(0.05)] and source.seconds == pytest.approx(0.4)
        clock.now += 1.0  # a second later: ten frames on
        assert frame_number(source.read()) == 14 and source.seconds == pytest.approx(1.4)
        clock.now += 60.0  # long after the end: the last frame stays on the table
        assert frame_number(source.read()) == FRAMES - 1
        assert frame_number(source.read()) == FRAMES - 1
    finally:
        source.close()


def test_a_video_file_opens_as_the_paced_source_and_is_described(video):
    source = open_camera(str(video))
    try:
        assert isinstance(source, VideoFileSource)
        said = describe_camera(source)
        assert f"video file {str(video)!r}" in said and "64x48 at 10 fps" in said and "2.0 s" in said, said
    finally:
        source.close()
