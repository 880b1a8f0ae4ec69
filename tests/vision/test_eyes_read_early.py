"""The eyes name the frames a growing still run would rest on (`Moving.worth_reading`), so the runner
reads them while the table steadies: fed frame sequences built from a real bundled photo, at a
steady camera's pace and at a live camera's, whose frames go by unseen while a frame is read."""
from __future__ import annotations

import dataclasses

import numpy as np

from vision.eyes import Eyes, EyesSettings, Moving, ReadFrames, SettledLook, TimedFrame
from vision.occluders import OccluderRegion, Occluders

from eyes_scenes import FPS, hand_visit, still, table_photo

SETTINGS = EyesSettings()


class CountingNet:
    """An occluder net that sees nothing, or a hand over every frame; it counts the frames asked about."""

    def __init__(self, sees_a_hand: bool = False) -> None:
        self.sees_a_hand, self.asked = sees_a_hand, []

    def __call__(self, frame, reference):
        self.asked.append(id(frame))
        if not self.sees_a_hand:
            return Occluders((), np.zeros((1, 1), np.float32))
        h, w = frame.shape[:2]
        return Occluders((OccluderRegion(0.05, (w * 0.6, h * 0.3, w, h * 0.7), ("right",), 0.9),),
                         np.ones((1, 1), np.float32))


def fed_until_offered(eyes: Eyes, frames) -> tuple[list[tuple[float, tuple[TimedFrame, ...]]], ReadFrames | None]:
    """Feed frames until the eyes offer some: (time, frames named) at each frame that named any, and the offer."""
    named = []
    for frame in frames:
        look = eyes.feed(frame)
        if isinstance(look, ReadFrames):
            return named, look
        assert isinstance(look, Moving), look
        if look.worth_reading:
            named.append((frame.at, look.worth_reading))
    return named, None


def test_a_still_run_names_its_first_frame_then_its_middle_and_the_look_rests_on_both():
    net = CountingNet()
    eyes = Eyes(occluders=net)
    frames = still(table_photo(), 1.0)
    eyes.begin(frames[0].at, None)
    named, offer = fed_until_offered(eyes, frames)
    assert offer is not None
    first_named = named[0]
    assert first_named[0] >= frames[0].at + SETTINGS.read_early_seconds
    assert len(first_named[1]) == 1
    with_middle = [worth for _, worth in named if len(worth) == 2]
    assert with_middle, "the middle of the run is never named"
    run_start = offer.frames[0]
    assert all(worth[0] is run_start for _, worth in named)  # the run never restarted
    assert offer.frames[1] is with_middle[-1][1]  # the look rests on the middle named, not on another
    middle_at = with_middle[-1][1].at
    assert 0 <= middle_at - (run_start.at + SETTINGS.still_seconds / 2) <= 1 / FPS + 1e-9
    # the net was asked once about each frame it saw, the named ones included, however often they were named
    assert len(net.asked) == len(set(net.asked))


def test_a_live_camera_that_let_frames_go_by_while_one_was_read_still_rests_on_the_frames_read():
    """Each frame named is 'read' for 0.3 s: the frames taken meanwhile are never fed, as at a live camera."""
    eyes = Eyes(occluders=CountingNet())
    table = table_photo()
    frames = still(table, 3.0)
    eyes.begin(frames[0].at, None)
    read: set[float] = set()
    busy_until = float("-inf")
    offer = None
    for frame in frames:
        if frame.at < busy_until:
            continue  # taken while the runner was reading: gone by unseen
        look = eyes.feed(frame)
        if isinstance(look, ReadFrames):
            offer = look
            break
        for named in look.worth_reading:
            if named.at not in read:
                read.add(named.at)
                busy_until = frame.at + 0.3
    assert offer is not None
    span = offer.frames[-1].at - offer.frames[0].at
    assert span >= SETTINGS.still_seconds
    unread = [f for f in offer.frames if f.at not in read]
    assert len(unread) == 1 and unread[0] is offer.frames[-1]  # only the last is left to read at the offer
    look = eyes.explain(offer.frames, tuple(() for _ in offer.frames))
    assert isinstance(look, SettledLook)


def test_nothing_is_named_while_the_net_sees_a_hand_resting_still():
    eyes = Eyes(occluders=CountingNet(sees_a_hand=True))
    frames = still(table_photo(), 0.45)
    eyes.begin(frames[0].at, None)
    named, offer = fed_until_offered(eyes, frames)
    assert named == [] and offer is None


class HandNet(CountingNet):
    """Sees a hand wherever a frame differs from the bare table by more than a camera's noise."""

    def __init__(self, table: np.ndarray) -> None:
        super().__init__()
        self.table = table.astype(np.int16)

    def __call__(self, frame, reference):
        self.sees_a_hand = bool((np.abs(frame.astype(np.int16) - self.table).max(axis=2) > 40).mean() > 0.002)
        return super().__call__(frame, reference)


def test_nothing_is_named_while_the_hand_rests_nor_before_the_run_is_still_long_enough_nor_when_switched_off():
    table = table_photo()
    frames, arrived, left = hand_visit(table, rest_seconds=0.5)
    for settings in (SETTINGS, dataclasses.replace(SETTINGS, read_early_seconds=float("inf"))):
        eyes = Eyes(settings, occluders=HandNet(table))
        eyes.begin(frames[0].at, None)
        named = []
        for frame in frames[int(arrived * FPS):]:  # from the hand's first frame on
            look = eyes.feed(frame)
            if isinstance(look, Moving) and look.worth_reading:
                named += look.worth_reading
                assert look.still_for >= settings.read_early_seconds
            if isinstance(look, ReadFrames):
                break
        if settings.read_early_seconds == float("inf"):
            assert named == []
        else:
            assert named and all(frame.at >= left for frame in named)  # never a frame the hand is in
