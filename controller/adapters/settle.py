"""The camera fed to the eyes (`vision.eyes`): the table's watch port (`controller.table.ports.TableWatch`).

The eyes decide; this adapter only pulls timed frames from the camera, feeds them, counts what
held the table up and tells the display when the reason changes. It hands back what its caller
must act on: frames worth reading early, frames offered to read, the arbiter to be asked
(`ArbiterAsked`; an acceptance comes back as `accept`, and the frame becomes the eyes' reference).
Nothing is ever taken into the table by waiting alone. Which reading stands is decided by the
table's eyes (`controller.table.eyes`), not here.

Between waits (a turn under way) it may watch the table (`watch_table`, then `glance` one frame at
a time): the still run up to the press then carries into the wait (`begin(..., carry=True)`), and
the frames the eyes would rest on are handed out to be read ahead.

A live camera that gives no frame for a moment (a USB hiccup, a stream reconnecting) is
asked again, `camera_retries` times `camera_retry_pause` apart, before the wait fails; a
recorded source (a folder, a video file) that fails is bad input and fails at once. Either
way the runner records only after settling, so a failed wait loses nothing: the game resumes.
"""
from __future__ import annotations

import time
from collections import Counter
from dataclasses import replace
from typing import Callable

import numpy as np

from vision import occluders
from vision.config import DEFAULT_CONFIG, VisionConfig
from vision.errors import VisionError
from vision.eyes import (
    Covered, Eyes, EyesSettings, Moving, ReadAhead, ReadFrames, Reference, SettledLook, TileOutline, TimedFrame,
)
from vision.stillness import frame_difference

from .frames import BuffersFrames, Camera, SaysIfLive, TimesFrames
from .errors import CameraError, ReaderError
from .waiting import ArbiterAsked, SettleSettings, WaitReport, WaitReason, WaitStatus  # noqa: F401 - its own words

__all__ = ["ArbiterAsked", "Ask", "EyesWait", "SettleSettings", "WaitReport", "WaitReason", "WaitStatus",
           "arbiter_words", "eyes_settings", "frame_difference", "read_frame", "read_timed", "wait_until_settled"]

Ask = Callable[[Covered, TimedFrame], bool]  # the arbiter asked: True when the table is accepted as seen


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

    @property
    def covered(self) -> int:
        return self.counts[WaitReason.SOMETHING_OVER_TABLE] + self.counts[WaitReason.ARBITER_ASKED]

    def held_up_by(self) -> str:
        parts = []
        if self.covered:
            places = "; ".join(w for w, _ in self.where.most_common(3))
            parts.append(f"{WaitReason.SOMETHING_OVER_TABLE.value} ({places}) in {self.covered} of them")
        if self.counts[WaitReason.TABLE_MOVING]:
            parts.append(f"moving in {self.counts[WaitReason.TABLE_MOVING]}")
        if self.counts[WaitReason.NO_FRAMES]:
            parts.append(f"no frame from the camera {self.counts[WaitReason.NO_FRAMES]} times")
        return ", ".join(parts) or "no reason seen"


def eyes_settings(settings: SettleSettings) -> EyesSettings:
    return settings.eyes or EyesSettings()


def arbiter_words(covered: Covered, seconds: float) -> str:
    """What the table says when the arbiter is asked: what, where, how long, and the two ways out."""
    where = "in the middle" if covered.where == "middle" else f"at the {covered.where}"
    return (f"something {where} for {seconds:.0f} s ({covered.reason}): clear it, "
            "or press the arbiter button to accept the table as it is")


class EyesWait:
    """One camera and its eyes, one wait at a time: `begin`, then `offered` until frames are offered to
    read, and `explain` what was read on them, until a look is settled. Besides: the next frame, and
    whether the table moved, compared the one way the eyes do."""

    def __init__(self, camera: Camera, settings: SettleSettings = SettleSettings(), eyes: Eyes | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.camera = camera
        self.settings = settings
        self.sleep = sleep
        self.eyes = eyes or Eyes(eyes_settings(settings), _net(settings.vision or DEFAULT_CONFIG))
        self.watch = _Watch(None)
        self.taken = 0
        self.started = time.perf_counter()
        self.pending: TimedFrame | None = None
        self.last_read = float("-inf")

    def begin(self, reference: Reference | None, on_wait: Callable[[WaitStatus], None] | None = None,
              carry: bool = False) -> None:
        """A new wait: frames from now on, compared with `reference` (the last settled table; None: none known).
        With `carry` (after `watch_table`, same reference): the table watched still up to now may carry the look."""
        self._flush()
        self.watch, self.taken, self.started = _Watch(on_wait), 0, time.perf_counter()
        self.pending = self.read()
        self.eyes.begin(self.pending.at, reference, carry=carry)

    def watch_table(self, reference: Reference | None) -> None:
        """Watch the table before the next wait (a turn under way), compared with `reference`."""
        if self.camera is None:
            raise CameraError("no camera to watch the table through")
        self._flush()
        self.watch, self.taken, self.pending = _Watch(None), 0, None
        frame = self.read(retry=False)  # a camera that fails now is waited for at the press, as ever
        self.eyes.watch(frame.at, reference)
        self.eyes.feed(frame)

    def glance(self) -> ReadAhead | None:
        """One more frame watched: the frames worth reading ahead, once the table has been still long enough.
        A live camera that was not looked at for a while (a reading ahead) is flushed first, so a frame's
        time is when it was taken."""
        if time.perf_counter() - self.last_read > self.eyes.settings.stale_after_seconds:
            self._flush()
        look = self.eyes.feed(self.read(retry=False))
        if self.settings.frame_interval:
            self.sleep(self.settings.frame_interval)
        return look if isinstance(look, ReadAhead) else None

    def watch_area(self, corners, size: tuple[int, int] | None) -> None:
        """Watch only the play area (`vision.eyes.Eyes.watch_area`); None: the whole frame."""
        self.eyes.watch_area(corners, size)

    def frame(self) -> np.ndarray:
        return read_frame(self.camera, self.settings)

    def moved(self, frame: np.ndarray, since: np.ndarray) -> bool:
        """Whether the table changed between the two frames more than a still table does."""
        return frame_difference(frame, since) > self.eyes.settings.still_level

    def _flush(self) -> None:
        if isinstance(self.camera, BuffersFrames):
            self.camera.flush()

    def read(self, retry: bool = True) -> TimedFrame:
        settings = self.settings if retry else replace(self.settings, camera_retries=0)
        frame = read_timed(self.camera, settings, self.sleep,
                           lambda: self.watch.refuse(WaitReason.NO_FRAMES, WaitReason.NO_FRAMES.value, self.taken))
        self.taken += 1
        self.last_read = time.perf_counter()
        return frame

    def offered(self) -> ReadFrames | Moving | ArbiterAsked:
        """Feed frames until the eyes offer some to read (`ReadFrames`), name frames a growing still run
        would rest on (`Moving.worth_reading`: worth reading early), or the arbiter is to be asked."""
        limit = self.settings.max_frames
        while limit is None or self.taken < limit:
            frame, self.pending = self.pending or self.read(), None
            look = self.eyes.feed(frame)
            if isinstance(look, ReadFrames):
                return look
            answer: Moving | ArbiterAsked | None = None
            if isinstance(look, Covered):
                self.tell(look)
                answer = ArbiterAsked(look, frame) if look.ask_arbiter else None
            elif isinstance(look, Moving) and look.where and look.where != "before the wait":
                self.watch.refuse(WaitReason.TABLE_MOVING, WaitReason.TABLE_MOVING.value, self.taken)
            elif isinstance(look, Moving) and look.worth_reading:
                answer = look
            if self.settings.frame_interval:
                self.sleep(self.settings.frame_interval)
            if answer is not None:
                return answer
        raise CameraError(f"the table did not settle within {limit} frames: {self.watch.held_up_by()}")

    def explain(self, frames: tuple[TimedFrame, ...],
                tiles: tuple[tuple[TileOutline, ...] | None, ...]) -> SettledLook | Covered:
        look = self.eyes.explain(frames, tiles)
        if isinstance(look, Covered):
            self.tell(look)
        return look

    def tell(self, covered: Covered) -> None:
        if not covered.ask_arbiter:
            self.watch.refuse(WaitReason.SOMETHING_OVER_TABLE, covered.describe(), self.taken, covered.where)
            return
        # said again each time another `ask_after_seconds` has gone by: a table that cannot settle keeps
        # saying why and what to do, however long it waits
        every = eyes_settings(self.settings).ask_after_seconds
        words = arbiter_words(covered, every * max(1, int((covered.at - covered.since) // every)) if every > 0 else 0)
        self.watch.refuse(WaitReason.ARBITER_ASKED, words, self.taken, covered.where)

    def accept(self, frame: TimedFrame) -> None:
        """The arbiter accepted the table as seen on `frame`: it becomes the eyes' reference, the wait goes on."""
        self.eyes.accept(frame)
        self.watch.say(WaitReason.ACCEPTED, WaitReason.ACCEPTED.value, self.taken)

    def settled(self, look: SettledLook) -> WaitReport:
        self.watch.settled(self.taken)
        return WaitReport(look.frames[-1].image, self.taken, self.watch.covered, self.watch.counts[WaitReason.TABLE_MOVING],
                       time.perf_counter() - self.started, look.checks)


def wait_until_settled(
    camera: Camera,
    reference: np.ndarray | Reference | None,
    settings: SettleSettings = SettleSettings(),
    sleep: Callable[[float], None] = time.sleep,
    on_wait: Callable[[WaitStatus], None] | None = None,
    ask: Ask | None = None,
    read: Callable[[np.ndarray], tuple[TileOutline, ...]] | None = None,
) -> WaitReport:
    """Wait for a look the eyes settle on. `read` gives the outlines of the tiles on a frame offered
    (None: the frames are not read, so every change against `reference` must lie on its tiles).
    `on_wait` hears why the wait goes on each time that changes, and `SETTLED` at the end if it
    heard anything; `ask` is asked when the eyes ask the arbiter."""
    if reference is not None and not isinstance(reference, Reference):
        reference = Reference(reference)
    wait = EyesWait(camera, settings, sleep=sleep)
    wait.begin(reference, on_wait)
    while True:
        offered = wait.offered()
        if isinstance(offered, ArbiterAsked):
            if ask is not None and ask(offered.covered, offered.frame):
                wait.accept(offered.frame)
            continue
        if not isinstance(offered, ReadFrames):
            continue  # frames worth reading early: this wait reads only what is offered
        look = wait.explain(offered.frames, tuple(read(f.image) if read else None for f in offered.frames))
        if isinstance(look, Covered) and look.ask_arbiter and ask is not None and ask(look, offered.frames[-1]):
            wait.accept(offered.frames[-1])
        if isinstance(look, SettledLook):
            return wait.settled(look)


def read_timed(camera: Camera, settings: SettleSettings = SettleSettings(),
               sleep: Callable[[float], None] = time.sleep, on_no_frame: Callable[[], None] | None = None) -> TimedFrame:
    """The camera's next frame with its time: the source's own (`read_timed`), else the moment it was read."""
    if isinstance(camera, TimesFrames):
        return _retrying(camera.read_timed, camera, settings, sleep, on_no_frame)
    image = _retrying(camera.read, camera, settings, sleep, on_no_frame)
    return TimedFrame(image, time.monotonic())


def read_frame(camera: Camera, settings: SettleSettings = SettleSettings(),
               sleep: Callable[[float], None] = time.sleep, on_no_frame: Callable[[], None] | None = None) -> np.ndarray:
    """The camera's next frame. A live camera that gives none is asked again (`on_no_frame` hears of
    each failure) up to `camera_retries` times; any other source's failure is bad input and raised."""
    return _retrying(camera.read, camera, settings, sleep, on_no_frame)


def _retrying(read, camera, settings: SettleSettings, sleep, on_no_frame):
    started = time.perf_counter()
    failures = 0
    while True:
        try:
            return read()
        except CameraError as error:
            if not (isinstance(camera, SaysIfLive) and camera.live):
                raise
            failures += 1
            if on_no_frame is not None:
                on_no_frame()
            if failures > settings.camera_retries:
                raise CameraError(f"{WaitReason.NO_FRAMES.value}: {failures} reads in a row failed over "
                                  f"{time.perf_counter() - started:.1f} s (last: {error})") from error
            sleep(settings.camera_retry_pause)


def _net(config: VisionConfig):
    def net(frame: np.ndarray, reference: np.ndarray | None) -> occluders.Occluders:
        try:
            return occluders.find_occluders(frame, reference, config)
        except VisionError as error:  # a missing model or a malformed frame: the game needs one kind of error
            raise ReaderError(f"looking for something over the table failed: {error}") from error
    return net
