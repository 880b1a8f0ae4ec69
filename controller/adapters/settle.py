"""Wait until the table is still and nothing is over it, and say why while waiting.

Two tests per frame, the cheap one first:

* still: no cell of a small grey copy (40 cells across) changed its mean by more than
  `still_level` since the frame before. A frame that moves cannot be the settled one, so the
  net never sees it.
* clear: vision's occluder net (`vision.occluders.find_occluders`) sees nothing over the
  table. It is given the last settled frame as its reference, so what lay there before
  (a knot in the wood, a cup that stays) is not taken for a hand; at a game's first wait,
  and the first after a resume, there is none and the net decides alone, until what it
  sees has stayed exactly still for `first_wait_patience` frames: then that frame becomes
  the reference (a hand is never that still), and the display says so.

The table is settled after `still_frames` frames in a row that are both.

A live camera that gives no frame for a moment (a USB hiccup, a stream reconnecting) is
asked again, `camera_retries` times `camera_retry_pause` apart, before the wait fails; a
recorded source (a folder, a video file) that fails is bad input and fails at once. Either
way the runner records only after settling, so a failed wait loses nothing: the game resumes.
"""
from __future__ import annotations

import time
from collections import Counter
from typing import Callable

import cv2
import numpy as np

from vision import occluders
from vision.config import DEFAULT_CONFIG, VisionConfig
from vision.errors import VisionError

from .camera import FrameSource
from .errors import CameraError, ReaderError
from .waiting import SettleSettings, Settled, WaitReason, WaitStatus  # noqa: F401 - the settle adapter's own words

WORK_WIDTH = 240  # pixels: plenty to see a moving tile, cheap to compare
CELL = 6  # pixels of that copy averaged into one cell (1/40 of the width: a tile covers a cell or more)


def small_grey(frame: np.ndarray) -> np.ndarray:
    """A small grey copy to compare frames by (int16, so differences do not wrap)."""
    h, w = frame.shape[:2]
    size = (WORK_WIDTH, max(1, int(round(h * WORK_WIDTH / float(w)))))
    small = cv2.resize(frame, size, interpolation=cv2.INTER_AREA)
    if small.ndim == 3:
        small = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return small.astype(np.int16)


def frame_difference(frame: np.ndarray, other: np.ndarray) -> float:
    """The largest change of a cell's mean grey (0..255) between two frames; infinite when their shapes differ.

    Cells, not the whole frame: one tile taken away, or an arm over a corner, changes a few cells a
    lot and the frame's mean hardly at all; sensor noise averages out inside a cell."""
    return _grey_difference(small_grey(frame), small_grey(other))


def _cells(grey: np.ndarray) -> np.ndarray:
    h, w = grey.shape
    return cv2.resize(grey.astype(np.float32), (max(1, w // CELL), max(1, h // CELL)), interpolation=cv2.INTER_AREA)


def _grey_difference(a: np.ndarray, b: np.ndarray) -> float:
    if a.shape != b.shape:
        return float("inf")
    return float(np.abs(_cells(a) - _cells(b)).max())


class _Watch:
    """Counts why frames were refused and tells `on_wait` when the reason (or where) changes."""

    def __init__(self, on_wait: Callable[[WaitStatus], None] | None) -> None:
        self.on_wait = on_wait
        self.said: tuple[WaitReason, str] | None = None
        self.counts: Counter[WaitReason] = Counter()
        self.where: Counter[str] = Counter()

    def refuse(self, reason: WaitReason, detail: str, frames: int, where: str = "") -> None:
        self.counts[reason] += 1
        if where:
            self.where[where] += 1
        self.say(reason, detail, frames)

    def say(self, reason: WaitReason, detail: str, frames: int) -> None:
        if self.on_wait is not None and self.said != (reason, detail):
            self.said = (reason, detail)
            self.on_wait(WaitStatus(reason, detail, frames))

    def settled(self, frames: int) -> None:
        if self.said is not None:
            self.say(WaitReason.SETTLED, WaitReason.SETTLED.value, frames)

    def held_up_by(self) -> str:
        parts = []
        for reason, count in self.counts.most_common():
            if reason is WaitReason.SOMETHING_OVER_TABLE:
                places = "; ".join(w for w, _ in self.where.most_common(3))
                parts.append(f"{reason.value} ({places}) in {count} of them")
            elif reason is WaitReason.TABLE_MOVING:
                parts.append(f"moving in {count}")
            else:
                parts.append(f"no frame from the camera {count} times")
        return ", ".join(parts) or "no reason seen"


def wait_until_settled(
    camera: FrameSource,
    reference: np.ndarray | None,
    settings: SettleSettings = SettleSettings(),
    sleep: Callable[[float], None] = time.sleep,
    on_wait: Callable[[WaitStatus], None] | None = None,
) -> Settled:
    """Read frames until `still_frames` in a row are still with nothing over the table.

    `reference` is the last settled frame (None: the net decides alone). `on_wait` hears why
    the wait goes on each time that changes, and `SETTLED` at the end if it heard anything."""
    started = time.perf_counter()
    flush = getattr(camera, "flush", None)
    if flush is not None:
        flush()
    watch = _Watch(on_wait)
    previous: np.ndarray | None = None
    taken = still = stuck = 0  # stuck: still frames in a row refused for something over the table
    while taken < settings.max_frames:
        frame = read_frame(camera, settings, sleep,
                           lambda: watch.refuse(WaitReason.NO_FRAMES, WaitReason.NO_FRAMES.value, taken))
        taken += 1
        grey = small_grey(frame)
        difference = None if previous is None else _grey_difference(grey, previous)
        previous = grey
        if difference is None:
            still = 0  # nothing to compare with yet
        elif difference > settings.still_level:
            still = stuck = 0
            watch.refuse(WaitReason.TABLE_MOVING, WaitReason.TABLE_MOVING.value, taken)
        else:
            seen = _occluders(frame, reference, settings.vision or DEFAULT_CONFIG)
            if not seen.clear:
                still = 0
                stuck += 1
                where = "; ".join(region.where for region in seen.regions)
                watch.refuse(WaitReason.SOMETHING_OVER_TABLE, seen.describe(), taken, where)
                if reference is None and stuck >= settings.first_wait_patience:
                    reference = frame  # from now on only what changes against this frame counts
                    watch.say(WaitReason.SOMETHING_OVER_TABLE,
                              f"{seen.describe()}: still for {stuck} frames, taken as part of the table", taken)
            else:
                still += 1
                if still >= settings.still_frames - 1:  # n still frames = n-1 still differences
                    watch.settled(taken)
                    return Settled(frame, taken, watch.counts[WaitReason.SOMETHING_OVER_TABLE],
                                   watch.counts[WaitReason.TABLE_MOVING], time.perf_counter() - started)
        if settings.frame_interval:
            sleep(settings.frame_interval)
    raise CameraError(f"the table did not settle within {settings.max_frames} frames: {watch.held_up_by()}")


def read_frame(camera: FrameSource, settings: SettleSettings = SettleSettings(),
               sleep: Callable[[float], None] = time.sleep, on_no_frame: Callable[[], None] | None = None) -> np.ndarray:
    """The camera's next frame. A live camera that gives none is asked again (`on_no_frame` hears of
    each failure) up to `camera_retries` times; any other source's failure is bad input and raised."""
    started = time.perf_counter()
    failures = 0
    while True:
        try:
            return camera.read()
        except CameraError as error:
            if not getattr(camera, "live", False):
                raise
            failures += 1
            if on_no_frame is not None:
                on_no_frame()
            if failures > settings.camera_retries:
                raise CameraError(f"{WaitReason.NO_FRAMES.value}: {failures} reads in a row failed over "
                                  f"{time.perf_counter() - started:.1f} s (last: {error})") from error
            sleep(settings.camera_retry_pause)


def _occluders(frame: np.ndarray, reference: np.ndarray | None, config: VisionConfig) -> occluders.Occluders:
    try:
        return occluders.find_occluders(frame, reference, config)
    except VisionError as error:  # a missing model or a malformed frame: the game needs one kind of error
        raise ReaderError(f"looking for something over the table failed: {error}") from error
