"""Looking at the table: wait for it to settle, read it from several frames, fuse and rebuild the reading."""
from __future__ import annotations

import time
from dataclasses import dataclass

from controller.game import judging
from controller.game.fusion import fuse
from controller.game.machine import TableState
from controller.game.reading import TableReading
from controller.game.rebuild import Rebuilt, rebuild
from controller.records import Photo, Reading, reading_sha

from .ports import Frame, Settled
from .settings import LOOK_RESTARTS


@dataclass(frozen=True)
class Look:
    """What the runner saw of a still table: the fused reading and everything it came from."""

    reading: TableReading  # fused from the frames read
    photo: Photo  # of the frame whose sets the fused reading keeps
    raw: Reading  # the fused reading as recorded (it names the readings it was fused from)
    photos: tuple[Photo, ...]  # every frame read
    raws: tuple[Reading, ...]  # every frame's reading, then the fused one

    @property
    def frames(self) -> int:
        return len(self.photos)


class Looking:
    """The runner's eyes (a part of `TableRunner`): its watch, photo encoder, reader and settings."""

    def photo(self, frame: Frame) -> Photo:
        return self.photos.photo(frame)

    def settle(self) -> Settled:
        settled = self.watch.settle(self.reference, self.devices.display.waiting)
        self.reference = settled.frame
        return settled

    def read(self, frame: Frame) -> tuple[TableReading, Photo, Reading]:
        photo = self.photo(frame)
        started = time.perf_counter()
        reading = self.devices.reader.read(frame)
        elapsed = (time.perf_counter() - started) * 1000
        raw = reading.to_json()
        return reading, photo, Reading(reading_sha(raw), photo.sha256, raw, round(elapsed, 1))

    def look_at(self, frame: Frame) -> Look:
        """Read the settled frame and the next ones (the table is still) and fuse the readings: two
        frames, and one more while they disagree, up to `fusion_frames`. Every frame read is kept.

        A next frame that differs from the settled one means the table was touched again after it
        settled: what was read may be stale, so the look waits for the table and starts over."""
        photos: list[Photo] = []
        raws: list[Reading] = []
        readings: list[TableReading] = []  # of the current still table
        still = frame
        restarts = 0
        least = min(2, self.settings.fusion_frames)
        while True:
            reading, photo, raw = self.read(frame)
            readings.append(reading)
            photos.append(photo)
            raws.append(raw)
            fusion = fuse(readings, self.settings.fusion)
            if len(readings) >= least and (fusion.agree or len(readings) >= self.settings.fusion_frames):
                break
            frame = self.watch.frame()
            if restarts < LOOK_RESTARTS and self.watch.moved(frame, still):
                restarts += 1
                frame = self.settle().frame
                still, readings = frame, []
        fused_from = raws[len(raws) - len(readings):]
        photo = photos[len(photos) - len(readings) + fusion.anchor]
        if len(fused_from) == 1:
            return Look(fusion.reading, photo, fused_from[0], tuple(photos), tuple(raws))
        data = fusion.reading.to_json()
        data["fused_from"] = [raw.sha256 for raw in fused_from]
        elapsed = round(sum(raw.elapsed_ms or 0.0 for raw in fused_from), 1)
        fused = Reading(reading_sha(data), photo.sha256, data, elapsed)
        return Look(fusion.reading, photo, fused, tuple(photos), tuple(raws) + (fused,))

    def look(self, frame: Frame, before: TableState) -> tuple[Look, Rebuilt]:
        """The still table's fused reading, rebuilt on the table before."""
        seen = self.look_at(frame)
        melds_reading = judging.ruleset_of(self.model).melds_reading()
        return seen, rebuild(seen.reading, before, self.settings.rebuild, melds_reading)
