"""Looking at the table: wait until the eyes settle on it, read the frames they rest on, fuse and rebuild.

The eyes (`vision.eyes`, through the watch port) decide when the table may be read: they offer
still frames spread over at least half a second, each clear to the occluder net; the runner
reads every one, and the eyes then check that whatever changed since the last settled table lies
on a tile read now or before. Only then are the readings fused and judged, and that look becomes
the reference of the next wait. A frame in which the table lies exactly as on the last table read
keeps that reading instead of being read again. A wait the eyes cannot settle asks the arbiter; an acceptance
is recorded (`table-accepted`) before the frame becomes the reference. Each frame's reading is
steadied against the last table read and judged (`controller.game.steady`): where a patch lies
unchanged since, a tile keeps its judged code, a missed tile is put back and a tile read on bare
table is taken out, so a reader's flicker there never reaches the judge.

While a turn runs, a watch that can (`watch_table`, `glance`) watches the table between looks at
the timer box: the frames the eyes would rest on if the button were pressed now are read ahead,
one between two looks at the box, and kept by frame time; the wait at the press carries the still
run that led up to it, so a table left still before the press is judged on readings already made.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from controller.game import judging
from controller.game.events import (
    NO_TILE, RackRevealed, RefereeCorrection, RestoreChecked, StartOrderDrawn, TableAccepted, TableRead,
    TableUnrestorable, TurnStarted,
)
from controller.game.fusion import Unsure, fuse
from controller.game.machine import TableState
from controller.game.reading import TableReading
from controller.game.rebuild import Rebuilt, rebuild
from controller.game.steady import settled_tiles, steady_reading
from controller.records import Photo, Reading, reading_sha

from .ports import AdapterError, Frame, Settled, SignalKind, TimerSignal
from .settings import ARBITER, LOOK_AGAIN

if TYPE_CHECKING:
    from vision.eyes_values import Covered, Reference, SettledLook, TimedFrame

# events whose photo shows the table as the camera settled on it (or as the arbiter accepted it)
SETTLED_PHOTOS = (TableRead, TurnStarted, RestoreChecked, StartOrderDrawn, RackRevealed, TableAccepted, TableUnrestorable)


@dataclass(frozen=True)
class Look:
    """What the runner saw of a still table: the fused reading and everything it came from."""

    reading: TableReading  # fused from the frames read
    photo: Photo  # of the frame whose sets the fused reading keeps
    raw: Reading  # the fused reading as recorded (it names the readings it was fused from)
    photos: tuple[Photo, ...]  # every frame read
    raws: tuple[Reading, ...]  # every frame's reading, then the fused one
    wait: Settled | None = None  # the wait it rests on (None: a frame read without waiting)
    read_ahead: int = 0  # frames of it read ahead, before the wait began
    read_ahead_ms: float = 0.0  # what reading them cost
    unsure: tuple[Unsure, ...] = ()  # fused tiles the frames disagree on (controller.game.fusion)

    @property
    def frames(self) -> int:
        return len(self.photos)


def _eyes():
    """The eyes' values, loaded when the table is first looked at: the loop itself loads no vision."""
    from vision import eyes_values

    return eyes_values


@dataclass(frozen=True)
class ReadBefore:
    """A frame read while the turn ran (kept by its time until the press)."""

    image: Frame  # the frame read
    reading: TableReading  # as the reader read it
    elapsed: float  # ms the reading took
    judged: Reference | None  # the table it was steadied against
    steadied: TableReading  # the reading steadied against `judged`


def _read_before(ahead: dict[float, ReadBefore], frame: TimedFrame) -> ReadBefore | None:
    """The reading made ahead of `frame`, if it is that frame's."""
    known = ahead.get(frame.at)
    return known if known is not None and known.image is frame.image else None


def outlines(reading: TableReading) -> tuple[tuple[tuple[float, float], ...], ...]:
    return tuple(tile.corners for tile in reading.tiles if len(tile.corners) >= 3)


def codes(reading: TableReading) -> tuple[str, ...]:
    """The codes of the tiles `outlines` gives, in its order."""
    return tuple(tile.code for tile in reading.tiles if len(tile.corners) >= 3)


def steadied(judged: Reference | None, image: Frame, reading: TableReading, radius: float,
             light=None, settings=None) -> TableReading:
    """A frame's reading made to agree with the last table read and judged (`judged`: its frame, the
    outlines and codes of its tiles) wherever the frame's patch is unchanged since, light matched
    (`controller.game.steady`; `light`: the gain and offset already fitted between the two frames, if
    they were). The comparison is with the frame that was read, never with one
    nobody read: a tile laid while nobody read changed the patch since, so it is read as it is."""
    if judged is None or not judged.codes or len(judged.codes) != len(judged.tiles):
        return reading
    from vision.eyes_tiles import unchanged_tiles

    judged_count = len(judged.tiles)  # one comparison (one light fit) for the judged tiles and the read ones
    read_outlines = tuple(tile.corners for tile in reading.tiles)
    unchanged = unchanged_tiles(judged.image, tuple(judged.tiles) + read_outlines, image, light,
                                settings or _eyes().EyesSettings())
    settled = settled_tiles(judged.tiles, judged.codes, unchanged[:judged_count])
    return steady_reading(reading, settled, unchanged[judged_count:], radius)


def answered(judged: Reference | None, changes, tiles_read: int) -> Reference | None:
    """The last table read, as the referee answered its doubts (`changes`: (tile index, code or
    NO_TILE) into the table read, which held `tiles_read` tiles in the order of `judged`'s). Readings
    are steadied against it, so a tile the referee said is not there is never put back from it, nor
    a code the referee corrected kept. A reference whose tiles do not line up with the table read
    is left as it is."""
    if judged is None or not changes or len(judged.tiles) != tiles_read or len(judged.codes) != tiles_read:
        return judged
    codes = list(judged.codes)
    gone = set()
    for index, code in changes:
        if not 0 <= index < tiles_read:
            return judged
        if code == NO_TILE:
            gone.add(index)
        else:
            codes[index] = code
    kept = [i for i in range(tiles_read) if i not in gone]
    return replace(judged, tiles=tuple(judged.tiles[i] for i in kept), codes=tuple(codes[i] for i in kept))


LIES_AS_READ = "the table lies as on the last table read, pixel for pixel: its reading is kept, not made again"


class Looking:
    """The runner's eyes (a part of `TableRunner`): its watch, photo encoder, reader and settings."""

    judged: Reference | None = None  # the last table read and judged, each frame's reading is steadied against
    # that table's fused reading, with the `judged` it belongs to (a referee's answer or a resume replaces
    # `judged`, and the reading no longer stands for it)
    judged_reading: tuple[Reference, TableReading] | None = None
    # the room's light fitted when a frame was last compared with the last table read: (that table's frame,
    # the frame, the gain and offset), so that steadying the frame's reading does not fit it again
    compared_light: tuple[Frame, Frame, tuple] | None = None

    def eyes_settings(self):
        """The eyes' thresholds (`vision.eyes_values.EyesSettings`), those of the looking around them too."""
        return self.settings.settle.eyes or _eyes().EyesSettings()

    def photo(self, frame: Frame) -> Photo:
        return self.photos.photo(frame)

    # ------------------------------------------------------------------ waits

    def begin_wait(self, carry: bool = False) -> None:
        """A wait against the last settled table; with `carry`, the table watched during this turn may carry it."""
        self.asking = None
        self.watch_the_area()
        if carry and self.watching == self.model.turn:
            self.watch.begin(self.reference, self.devices.display.waiting, self.arbiter_accepts, carry=True)
        else:
            self.watch.begin(self.reference, self.devices.display.waiting, self.arbiter_accepts)
            self.readings_ahead = {}
        self.watching, self.to_read = None, []  # the eyes wait now: watching starts afresh

    def watch_turn(self, seconds: float) -> TimerSignal | None:
        """The timer box's next signal within `seconds`, the eyes watching the table meanwhile (a watch that
        can): the frames they would rest on at a press now are read ahead, one between two looks at the box."""
        timer = self.devices.timer
        glance = getattr(self.watch, "glance", None)
        if glance is None:
            return timer.wait(seconds)
        if self.watching != self.model.turn:
            self.watching, self.readings_ahead, self.to_read = self.model.turn, {}, []
            self.watch_the_area()
            try:
                self.watch.watch_table(self.reference)
            except AdapterError:
                self.watching = None
                return timer.wait(seconds)
        deadline = time.monotonic() + seconds
        while True:
            signal = timer.wait(self.eyes_settings().watch_poll_seconds)
            if signal is not None or time.monotonic() >= deadline:
                return signal
            try:
                if self.to_read:
                    frame = self.to_read.pop(0)
                    reading, elapsed = self.read_table_timed(frame.image)
                    self.readings_ahead[frame.at] = ReadBefore(frame.image, reading, elapsed, self.judged,
                                                               self.steady(frame.image, reading))
                elif (ahead := glance()) is not None:
                    self.to_read = list(ahead.frames)
            except AdapterError:  # a camera or reader failing: the wait at the press meets it, as ever
                self.watching = None
                return timer.wait(max(0.0, deadline - time.monotonic()))

    def settled_wait(self, look: SettledLook) -> Settled:
        self.asking = None  # the referee page accepts only while the eyes ask
        return self.watch.settled(look)

    def settle(self) -> Settled:
        """Wait until the eyes settle on the table without reading it (a turn's start, a restore's change):
        every change against the last settled table must lie on the tiles read on it."""
        self.begin_wait()
        while True:
            offered = self.watch.offered()
            look = self.watch.explain(offered.frames, tuple(None for _ in offered.frames))  # not read
            if isinstance(look, _eyes().SettledLook):
                self.reference = self.unread_reference(look.frames[-1].image)
                return self.settled_wait(look)

    def unread_reference(self, image: Frame) -> Reference:
        """The eyes' reference moved to a frame that was not read: the tiles stay and carry no codes (the
        readings are steadied against the last table read, `judged`, not against this frame)."""
        reference = self.reference
        if reference is None:  # the table as the game began: its border is known clear, nothing on it read
            return _eyes().Reference(image, border_only=True)
        return replace(reference, image=image, codes=())

    def look_still(self, carry: bool = False, keep_unsure: bool = False, afresh: bool = False) -> Look:
        """Wait for the eyes, read every frame they offer, and fuse the readings of the look they settle on.
        With `carry`, the wait at a turn's end: the table watched still before it may carry the look, and
        the frames read ahead are not read again. With `keep_unsure`, a tile only some frames see is
        kept in the fused reading, unsure (see `Look.unsure`), rather than outvoted. With `afresh`, every
        frame is read, even one in which the table lies as on the last table read."""
        self.begin_wait(carry)
        ahead, self.readings_ahead = self.readings_ahead, {}
        early: dict[float, ReadBefore] = {}  # read while the table steadied (`read_early`)

        def read_early(frames: tuple[TimedFrame, ...]) -> None:
            for frame in frames:
                if _read_before(ahead, frame) is None and _read_before(early, frame) is None:
                    try:
                        reading, elapsed = self.read_table_timed(frame.image, afresh)
                    except AdapterError:
                        return  # the look reads the frame again, and meets the failure there
                    early[frame.at] = ReadBefore(frame.image, reading, elapsed, self.judged,
                                                 self.steady(frame.image, reading))

        while True:
            offered = self.watch.offered(read_early)
            from_ahead = [_read_before(ahead, frame) for frame in offered.frames]
            known = [k or _read_before(early, frame) for k, frame in zip(from_ahead, offered.frames)]
            readings = [(k.reading, k.elapsed) if k else self.read_table_timed(frame.image, afresh)
                        for k, frame in zip(known, offered.frames)]
            look = self.watch.explain(offered.frames, tuple(outlines(reading) for reading, _ in readings))
            if isinstance(look, _eyes().SettledLook):
                break
        wait = self.settled_wait(look)
        readings = [(k.steadied if k and k.judged is self.judged else self.steady(frame.image, reading), elapsed)
                    for frame, k, (reading, elapsed) in zip(look.frames, known, readings)]
        seen = self.fused([frame.image for frame in look.frames], readings, wait, keep_unsure)
        self.reference = self.judged = _eyes().Reference(look.frames[-1].image, outlines(seen.reading),
                                                         codes(seen.reading))
        self.judged_reading = (self.judged, seen.reading)
        before = [k for k in from_ahead if k is not None]  # read while the turn ran, not in this wait
        return replace(seen, read_ahead=len(before), read_ahead_ms=sum(k.elapsed for k in before))

    def steady(self, image: Frame, reading: TableReading) -> TableReading:
        """The frame's reading steadied against the last table read and judged (see `steadied`)."""
        light = self.compared_light
        judged_image = None if self.judged is None else self.judged.image
        light = light[2] if light is not None and light[0] is judged_image and light[1] is image else None
        return steadied(self.judged, image, reading, self.settings.fusion.match_radius, light, self.eyes_settings())

    def arbiter_accepts(self, covered: Covered, frame: TimedFrame) -> bool:
        """The eyes asked the arbiter (the table says why and where): the arbiter's button, or the
        referee page's `accept-table`, accepts the table as it is seen now. Recorded first, then the
        frame becomes the eyes' reference."""
        self.asking, self.table_accepted = (covered, frame.image), False
        if self.devices.desk is not None:
            self.attend_desk()
            if self.table_accepted:
                self.asking = None
                return True
        signal = self.devices.timer.wait(0.0)
        if signal is None:
            return False
        if signal.kind == SignalKind.INCIDENT:
            self.record_incident(signal)
            return False
        if signal.kind != SignalKind.PRESSED or signal.button != ARBITER:
            return False
        self.record_accepted(covered, frame.image, "arbiter button")
        self.asking = None
        return True

    def record_accepted(self, covered: Covered, image: Frame, by: str) -> None:
        photo = self.photo(image)
        self.record(TableAccepted(photo=photo.sha256, where=covered.where, reason=covered.reason, by=by),
                    photos=(photo,))
        self.devices.display.say(f"table accepted as it is by the {by} (something at the {covered.where})")

    # ---------------------------------------------------------------- reading

    def read_timed(self, frame: Frame) -> tuple[TableReading, float]:
        started = time.perf_counter()
        reading = self.devices.reader.read(frame)
        return reading, (time.perf_counter() - started) * 1000

    def read_table_timed(self, frame: Frame, afresh: bool = False) -> tuple[TableReading, float]:
        """A frame of the table read, or, where the table lies in it exactly as on the last table read (the
        same pixels in the area read, light matched: `vision.eyes_tiles.lies_as`), that table's reading
        kept, saying so: a turn that left the table as it was (a draw) is judged without reading again.
        `afresh`: read it whatever it shows."""
        started = time.perf_counter()
        kept = None if afresh else self.judged_reading
        if kept is not None and kept[0] is self.judged:
            from vision.eyes_tiles import lies_as, light_between

            judged, reading = kept
            light = light_between(judged.image, frame)
            self.compared_light = (judged.image, frame, light)
            if lies_as(judged.image, judged.tiles, frame, reading.area, light, self.eyes_settings()):
                warnings = tuple(w for w in reading.warnings if w != LIES_AS_READ) + (LIES_AS_READ,)
                return replace(reading, warnings=warnings), (time.perf_counter() - started) * 1000
        return self.read_timed(frame)

    def read(self, frame: Frame) -> tuple[TableReading, Photo, Reading]:
        reading, elapsed = self.read_timed(frame)
        photo = self.photo(frame)
        raw = reading.to_json()
        return reading, photo, Reading(reading_sha(raw), photo.sha256, raw, round(elapsed, 1))

    def fused(self, frames: list[Frame], readings: list[tuple[TableReading, float]], wait: Settled | None,
              keep_unsure: bool = False) -> Look:
        """The readings of one still table's frames fused into one (every frame's photo and reading kept)."""
        photos = [self.photo(frame) for frame in frames]
        raws = []
        for (reading, elapsed), photo in zip(readings, photos):
            raw = reading.to_json()
            raws.append(Reading(reading_sha(raw), photo.sha256, raw, round(elapsed, 1)))
        fusion = fuse([reading for reading, _ in readings], replace(self.settings.fusion, keep_unsure=keep_unsure))
        photo = photos[fusion.anchor]
        if len(raws) == 1:
            return Look(fusion.reading, photo, raws[0], tuple(photos), tuple(raws), wait)
        data = fusion.reading.to_json()
        data["fused_from"] = [raw.sha256 for raw in raws]
        elapsed = round(sum(raw.elapsed_ms or 0.0 for raw in raws), 1)
        fused = Reading(reading_sha(data), photo.sha256, data, elapsed)
        return Look(fusion.reading, photo, fused, tuple(photos), tuple(raws) + (fused,), wait, unsure=fusion.unsure)

    def look_at(self, frame: Frame) -> Look:
        """One frame read as it is, without waiting (the arbiter accepts the table as it lies)."""
        return self.fused([frame], [self.read_timed(frame)], None)

    def look(self, before: TableState, look_again: bool = False, carry: bool = False) -> tuple[Look, Rebuilt]:
        """The settled table's fused reading, rebuilt on the table before. With `look_again` (a turn's
        table: tiles that lay on it before cannot have left it), tiles seen nowhere now mean the eyes
        are waited for and the table read again, up to `LOOK_AGAIN` times, before the reading stands.
        With `carry` (a turn's end), the first look may rest on the table watched still before it."""
        melds_reading = judging.ruleset_of(self.model).melds_reading()
        for attempt in range(LOOK_AGAIN + 1):
            # a look again reads afresh: the reader may find there what it missed on the same pixels
            seen = self.look_still(carry and attempt == 0, keep_unsure=True, afresh=attempt > 0)
            rebuilt = rebuild(seen.reading, before, self.settings.rebuild, melds_reading, seen.unsure)
            codes = " ".join(code for code, _, _ in rebuilt.missing)
            if rebuilt.missing and look_again and attempt == LOOK_AGAIN:
                self.devices.display.say(f"    {len(rebuilt.missing)} tile(s) of the table before still not seen "
                                         f"({codes}): taken as read (a penalty resting on them waits for the referee)")
            if not rebuilt.missing or not look_again or attempt == LOOK_AGAIN:
                return seen, rebuilt
            self.devices.display.say(f"    {len(rebuilt.missing)} tile(s) of the table before not seen ({codes}): "
                                     "looking again")
        raise AssertionError("unreachable")

    # ----------------------------------------------------------------- resume

    def last_settled(self) -> Reference | None:
        """The last table the records hold a settled photo of (and the tiles last read), the reference
        of the first wait after a resume; None for a game with none."""
        decode = getattr(self.photos, "frame", None)
        if decode is None:
            return None
        events = self.records.events(self.game_id)
        for index in range(len(events) - 1, -1, -1):
            event = events[index]
            sha = getattr(event, "photo", None) if isinstance(event, SETTLED_PHOTOS) else None
            photo = self.records.photo(sha) if sha else None
            image = decode(photo) if photo is not None else None
            if image is not None:
                # no codes: the reading last named may be older than the photo, so no code is carried over
                return _eyes().Reference(image, self._last_outlines(events[: index + 1]))
        return None

    def compare_with_turn_start(self) -> None:
        """A restore's waits compare with the table at the turn's start as well (`Reference.earlier`):
        the tiles taken back leave the table top as it lay then, whatever its grain or pattern."""
        if self.reference is None or self.reference.earlier is not None or not self.model.turn_photo:
            return
        decode = getattr(self.photos, "frame", None)
        photo = self.records.photo(self.model.turn_photo) if decode is not None else None
        image = decode(photo) if photo is not None else None
        if image is not None and image.shape == self.reference.image.shape:
            self.reference = replace(self.reference, earlier=image)

    def last_judged(self) -> Reference | None:
        """The last table read and judged, as the records hold it (the photo of the last reading recorded,
        and that reading's tiles and codes): what the first readings after a resume are steadied against, as
        they would have been had the process lived. None for a game with none."""
        decode, find = getattr(self.photos, "frame", None), getattr(self.records, "reading", None)
        if decode is None or find is None:
            return None
        events = self.records.events(self.game_id)
        for at in range(len(events) - 1, -1, -1):
            event = events[at]
            sha, photo_sha = getattr(event, "reading", None), getattr(event, "photo", None)
            if not isinstance(sha, str) or not isinstance(photo_sha, str):
                continue
            photo, raw = self.records.photo(photo_sha), find(sha, photo_sha)
            image = decode(photo) if photo is not None else None
            if image is None or raw is None:
                return None
            tiles = _outlined(raw)
            judged = _eyes().Reference(image, tuple(corners for corners, _ in tiles), tuple(code for _, code in tiles))
            # the referee's answers to the read's doubts, as the process that died had followed them
            answer = events[at + 1] if isinstance(event, TableRead) and event.doubts and at + 1 < len(events) else None
            if isinstance(answer, RefereeCorrection) and answer.target == "table":
                judged = answered(judged, answer.changes, len(event.tiles))
            return judged
        return None

    def _last_outlines(self, events) -> tuple:
        find = getattr(self.records, "reading", None)
        for event in reversed(events):
            sha = getattr(event, "reading", None)
            raw = find(sha) if find is not None and isinstance(sha, str) else None
            if raw is not None:
                return tuple(corners for corners, _ in _outlined(raw))
        return ()


def _outlined(raw) -> list[tuple[tuple[tuple[float, float], ...], str]]:
    """A recorded reading's tiles that have an outline: (corners, code) each."""
    return [(tuple((float(x), float(y)) for x, y in tile["corners"]), str(tile.get("code", "")))
            for tile in raw.reading.get("tiles", ()) if len(tile.get("corners", ())) >= 3]
