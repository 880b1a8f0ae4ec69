"""The eyes watching the table while a turn runs (`Eyes.watch`), then waiting from the press with the
still run carried (`begin(..., carry=True)`): fed frame sequences built from a real bundled photo, an
arm drawn over it, a tile moved. A table left still before the press is offered at the press on the
frames read ahead; a hand or a move just before the press is never skipped."""
from __future__ import annotations

import gc
import weakref

import cv2
import numpy as np

from vision.eyes import Covered, Eyes, EyesSettings, Moving, ReadAhead, ReadFrames, Reference, SettledLook, TimedFrame
from vision.occluders import OccluderRegion, Occluders

from eyes_scenes import FPS, hand_visit, noisy, still, table_photo

SETTINGS = EyesSettings()


class Blind:
    """An occluder net that never sees anything: what remains are the eyes' own checks."""

    def __call__(self, frame, reference):
        return Occluders((), np.zeros((1, 1), np.float32))


def watched(eyes: Eyes, frames) -> list[ReadAhead]:
    """Feed the frames watched during a turn; what the eyes offered to read ahead. Nothing else may come out."""
    ahead = []
    for frame in frames:
        look = eyes.feed(frame)
        assert isinstance(look, (Moving, ReadAhead)), (frame.at, look)
        if isinstance(look, ReadAhead):
            ahead.append(look)
    return ahead


def waited(eyes: Eyes, frames):
    """Feed the frames from the press on, reading what is offered (no tiles); (the frame it came at, the
    frames offered, the answer) of the first settled look, or None."""
    for frame in frames:
        look = eyes.feed(frame)
        if isinstance(look, ReadFrames):
            offered = look.frames
            look = eyes.explain(offered, tuple(() for _ in offered))
            if isinstance(look, SettledLook):
                return frame, offered, look
    return None


def moved_tile(table: np.ndarray) -> np.ndarray:
    """The table with a tile-sized patch laid in its middle: a tile put down."""
    image = table.copy()
    h, w = image.shape[:2]
    cv2.rectangle(image, (w // 2 - 12, h // 2 - 16), (w // 2 + 12, h // 2 + 16), (225, 225, 215), -1)
    return image


def same(frames, others) -> bool:
    return len(frames) == len(others) and all(a is b for a, b in zip(frames, others))


def frames_of(images_and_times) -> list[TimedFrame]:
    return [TimedFrame(noisy(image, int(round(at * FPS))), at) for image, at in images_and_times]


def test_a_table_still_a_second_before_the_press_is_settled_at_the_press_on_the_frames_read_ahead():
    table = table_photo()
    eyes = Eyes(occluders=Blind())
    eyes.watch(0.0, Reference(table))
    before = still(table, 1.0)  # the hand lifted a second before the press
    ahead = watched(eyes, before)
    assert len(ahead) == 1 and len(ahead[0].frames) == SETTINGS.look_frames
    press = before[-1].at + 1 / FPS
    eyes.begin(press, eyes.reference, carry=True)
    first = TimedFrame(noisy(table, 999), press)
    look = eyes.feed(first)
    assert isinstance(look, ReadFrames) and same(look.frames, ahead[0].frames)  # at the very frame of the press
    assert all(frame.at < press for frame in look.frames)
    settled = eyes.explain(look.frames, tuple(() for _ in look.frames))
    assert isinstance(settled, SettledLook)
    assert settled.frames[-1].at - settled.frames[0].at >= SETTINGS.still_seconds


def test_a_hand_leaving_a_fifth_of_a_second_before_the_press_still_needs_the_full_still_span():
    table = table_photo()
    frames, entered, gone = hand_visit(table, "right", rest_seconds=1.0, seed=4, after_seconds=1.5)
    press = gone + 0.2
    eyes = Eyes()
    eyes.watch(0.0, Reference(table))
    assert not watched(eyes, [f for f in frames if f.at < press])  # never still long enough to read ahead
    eyes.begin(press, eyes.reference, carry=True)
    came, offered, settled = waited(eyes, [f for f in frames if f.at >= press])
    assert all(frame.at >= gone for frame in offered)  # nothing the hand was over
    assert settled.frames[-1].at - settled.frames[0].at >= SETTINGS.still_seconds
    assert came.at >= gone + SETTINGS.still_seconds  # the span is not shortened by the press
    assert came.at - press < SETTINGS.still_seconds  # but what was still before the press counts


def test_a_hand_over_the_table_at_the_press_means_waiting_until_it_has_left():
    table = table_photo()
    frames, entered, gone = hand_visit(table, "bottom", rest_seconds=2.0, seed=6, before_seconds=1.0)
    press = entered + 1.0  # the table was still for a second before the hand came
    eyes = Eyes()
    eyes.watch(0.0, Reference(table))
    watched(eyes, [f for f in frames if f.at < press])
    eyes.begin(press, eyes.reference, carry=True)
    came, offered, settled = waited(eyes, [f for f in frames if f.at >= press])
    assert all(frame.at >= gone for frame in offered) and came.at >= gone + SETTINGS.still_seconds


def test_motion_right_before_the_press_is_never_skipped():
    table, changed = table_photo(), moved_tile(table_photo())
    for moved_at in (29 / FPS, 30 / FPS):  # on the last frame watched, and on the frame at the press
        eyes = Eyes(occluders=Blind())
        eyes.watch(0.0, Reference(table))
        press = 30 / FPS
        ahead = watched(eyes, frames_of((table if k / FPS < moved_at else changed, k / FPS) for k in range(30)))
        assert ahead and all(frame.at < moved_at for frame in ahead[0].frames)  # read ahead on the old table
        eyes.begin(press, eyes.reference, carry=True)
        after = frames_of((table if k / FPS < moved_at else changed, k / FPS) for k in range(30, 60))
        came, offered, settled = waited(eyes, after)
        assert all(frame.at >= moved_at for frame in offered), (moved_at, [f.at for f in offered])
        assert came.at - moved_at >= SETTINGS.still_seconds


def test_frames_from_before_the_previous_verdict_never_count():
    table = table_photo()
    reference = Reference(table)
    # a wait settled (the verdict) on the still table; the same table goes on lying still
    eyes = Eyes(occluders=Blind())
    eyes.begin(0.0, reference)
    verdict, _, _ = waited(eyes, still(table, 1.0))
    # a press with no watch since: nothing from the wait before carries
    press = verdict.at + 0.2
    eyes.begin(press, reference, carry=True)
    came, offered, _ = waited(eyes, still(table, 1.0, start=press))
    assert all(frame.at >= press for frame in offered) and came.at - press >= SETTINGS.still_seconds
    # a watch begun after the verdict: late frames from before it are not taken, so a press soon after waits
    eyes.watch(verdict.at, reference)
    assert all(eyes.feed(frame).where == "before the wait" for frame in still(table, verdict.at - 0.1))
    press = verdict.at + 0.2
    watched(eyes, still(table, 0.2, start=verdict.at))
    eyes.begin(press, reference, carry=True)
    came, offered, _ = waited(eyes, still(table, 1.0, start=press))
    assert all(frame.at >= verdict.at for frame in offered)
    assert came.at - verdict.at >= SETTINGS.still_seconds
    # and a watch against another reference does not carry into this wait
    eyes.watch(0.0, Reference(table.copy()))
    watched(eyes, still(table, 1.0))
    eyes.begin(1.0, reference, carry=True)
    came, offered, _ = waited(eyes, still(table, 1.0, start=1.0))
    assert all(frame.at >= 1.0 for frame in offered)


def test_a_net_that_sees_something_while_watching_reads_nothing_ahead_and_the_press_waits():
    table = table_photo()

    h, w = table.shape[:2]

    def sees_a_sleeve(frame, reference):
        return Occluders((OccluderRegion(0.1, (0.0, 0.0, w / 4, h / 2), ("left",), 0.9),), np.ones((1, 1), np.float32))

    eyes = Eyes(occluders=sees_a_sleeve)
    eyes.watch(0.0, Reference(table))
    assert not watched(eyes, still(table, 2.0))
    eyes.begin(2.0, eyes.reference, carry=True)
    looks = [eyes.feed(frame) for frame in still(table, 1.0, start=2.0)]
    assert not any(isinstance(look, ReadFrames) for look in looks)
    assert any(isinstance(look, Covered) and look.reason == "the occluder net" for look in looks)


def test_a_turn_watched_still_for_long_keeps_only_the_frames_read_ahead_and_the_newest():
    table = table_photo()
    eyes = Eyes(occluders=Blind())
    eyes.watch(0.0, Reference(table))
    kept = []
    ahead = []
    for frame in still(table, 4.0):
        kept.append(weakref.ref(frame))
        ahead += watched(eyes, [frame])
        del frame
    gc.collect()
    alive = [ref() for ref in kept if ref() is not None]
    assert len(alive) <= SETTINGS.look_frames + 1  # not four seconds of frames
    assert all(any(frame is f for f in ahead[0].frames) for frame in alive[:-1])
    # and at the press the look still rests on them
    eyes.begin(4.0, eyes.reference, carry=True)
    look = eyes.feed(TimedFrame(noisy(table, 500), 4.0))
    assert isinstance(look, ReadFrames) and same(look.frames, ahead[0].frames)
